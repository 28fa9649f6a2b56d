package analyze

import (
	"strings"
	"testing"
)

// TestRelayOf: a Webhook whose run reads a booking or form service's
// documented payload (Calendly's payload.scheduled_event, Cal.com's
// BOOKING_CREATED, Typeform's form_response, Tally's data.fields, Jotform's
// rawRequest) or checks its signature header is called by that service for
// one person's action, so people pace it; the service's own redelivery
// decides RS203 (Calendly, Typeform and Tally publish theirs). A payload
// path of another service, or the same names outside the request body,
// says nothing.
func TestRelayOf(t *testing.T) {
	for _, tc := range []struct {
		name, read, key, evidence string
		redelivers                bool
	}{
		{"Calendly's invitee.created", "={{ $json.body.payload.scheduled_event.start_time }}", "calendly", `it reads "body.payload.scheduled_event"`, true},
		{"Calendly's legacy payload, bracketed", `={{ $json["body"]["payload"]["invitee"]["email"] }}`, "calendly", `it reads "body.payload.invitee"`, true},
		{"Calendly's event compared in code", "if ($json.body.event !== 'invitee.created') return [];", "calendly", `it tests for the event "invitee.created"`, true},
		{"Calendly's signature header", "={{ $json.headers['calendly-webhook-signature'] }}", "calendly", `it reads "calendly-webhook-signature"`, true},
		{"Cal.com's attendees", "={{ $json.body.payload.attendees[0].email }}", "calcom", `it reads "body.payload.attendees"`, false},
		{"Typeform's response, in code", "const answers = $input.first().json.body.form_response.answers;", "typeform", `it reads "body.form_response"`, true},
		{"Tally's fields", "={{ $json.body.data.fields[0].value }}", "tally", `it reads "body.data.fields"`, true},
		{"Jotform's raw request", "={{ JSON.parse($json.body.rawRequest).q3_email }}", "jotform", `it reads "body.rawRequest"`, false},
		{"Wufoo's handshake key", "={{ $json.body.HandshakeKey === $env.WUFOO_KEY }}", "wufoo", `it reads "body.HandshakeKey"`, false},
		{"a Stripe event", "={{ $json.body.data.object.customer_email }}", "", "", false},
		{"a prefix of a path is not the path", "={{ $json.body.payload.inviteeCount }}", "", "", false},
		{"the same names off the request", "={{ $json.payload.scheduled_event }}", "", "", false},
	} {
		w := parseOne(t, `{"nodes": [
		 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"httpMethod": "POST", "path": "p"}},
		 {"name": "Read", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [200, 0], "parameters": {"jsCode": `+quoteJSON(tc.read)+`}}],
		 "connections": {"Hook": {"main": [[{"node": "Read", "type": "main", "index": 0}]]}}}`)
		g := BuildGraph(w)
		r := RelayOf(g, w.Nodes[0])
		if r.Key != tc.key || r.Evidence != tc.evidence {
			t.Errorf("%s: RelayOf = %q (%s); want %q (%s)", tc.name, r.Key, r.Evidence, tc.key, tc.evidence)
		}
		if want := map[bool]Pace{true: PacePerson, false: PaceMachine}[tc.key != ""]; TriggerPaceIn(g, w.Nodes[0]) != want {
			t.Errorf("%s: TriggerPaceIn = %d; want %d", tc.name, TriggerPaceIn(g, w.Nodes[0]), want)
		}
		if s, ok := SenderFor(tc.key); ok != tc.redelivers || ok && !s.Redelivers() {
			t.Errorf("%s: SenderFor(%q) = %v, %v; want a sender that redelivers: %v", tc.name, tc.key, s, ok, tc.redelivers)
		}
	}
}

// TestPersonFormFields: a Webhook answered with the run's result is a
// person's form when the run reads an e-mail address or phone number and a
// name or a message from the request by any path: the body in an
// expression or in code, the item's own fields on the node the webhook
// feeds ($json.email, where n8n puts nothing, but the request brings it),
// through the webhook's name, or the query of a GET. A service's event
// (an event type, a signature header) is not one, nor fields of another
// node's item.
func TestPersonFormFields(t *testing.T) {
	for _, tc := range []struct {
		name, mode, method, read string
		want                     bool
	}{
		{"name and e-mail in the body", "lastNode", "POST", "={{ $json.body.name }} {{ $json.body.email }}", true},
		{"e-mail and message, no name", "lastNode", "POST", "={{ $json.body.email }}: {{ $json.body.message }}", true},
		{"phone and company, no name", "lastNode", "POST", "={{ $json.body.phone }} at {{ $json.body.company_name }}", true},
		{"fields off the item the webhook feeds", "lastNode", "POST", "={{ $json.name }} <{{ $json.email }}>", true},
		{"fields through the webhook's name", "lastNode", "POST", "={{ $('Hook').item.json.email }} {{ $('Hook').item.json.message }}", true},
		{"code reads the body", "lastNode", "POST", "const b = $input.first().json.body; return [{json: {n: $input.first().json.body.name, e: $input.first().json.body.email}}];", true},
		{"code takes the body apart", "lastNode", "POST", "const { name, email } = $input.first().json.body;\nreturn [{ json: { name, email } }];", true},
		{"optional chaining with fallbacks, a Set node's raw JSON", "lastNode", "POST", "={\n  \"email\": \"{{ $json.body?.email || $json.fields?.email || '' }}\",\n  \"name\": \"{{ $json.body?.['name'] ?? '' }}\"\n}", true},
		{"code reads the body through a variable", "lastNode", "POST", "const body = $json.body || {};\nconst email = (body.email || '').trim();\nreturn [{ json: { email, name: body.name } }];", true},
		{"code takes apart a variable bound to the body", "lastNode", "POST", "const data = $input.item.json.body ?? {};\nconst { name, email } = data;\nreturn [{ json: { name, email } }];", true},
		{"a variable bound to the body, not its parent", "lastNode", "POST", "const body = $json.body.data || {};\nreturn [{ json: { e: body.email, n: body.name } }];", false},
		{"the query of a GET", "lastNode", "GET", "={{ $json.query.email }} {{ $json.query.name }}", true},
		{"the query of a POST is not read", "lastNode", "POST", "={{ $json.query.email }} {{ $json.query.name }}", false},
		{"e-mail alone", "lastNode", "POST", "={{ $json.body.email }}", false},
		{"answered on receipt", "onReceived", "POST", "={{ $json.body.name }} {{ $json.body.email }}", false},
		{"an event type beside the fields", "lastNode", "POST", "={{ $json.body.event_type }} {{ $json.body.name }} {{ $json.body.email }}", false},
		{"a signature header beside the fields", "lastNode", "POST", "={{ $json.headers['x-signature'] }} {{ $json.body.name }} {{ $json.body.email }}", false},
		{"webhook item keys are no fields", "lastNode", "POST", "={{ $json.headers }} {{ $json.query }} {{ $json.email }}", false},
		{"Spanish, a name with a space in brackets", "lastNode", "POST", "={{ $json.body['nombre completo'] }} {{ $json.body.mail }} {{ $json.body.cel }}", true},
		{"Portuguese", "lastNode", "POST", "={{ $json.body.telefone }}: {{ $json.body.mensagem }}", true},
		{"French, accents in brackets", "lastNode", "POST", "={{ $json.body[\"téléphone\"] }} {{ $json.body['Prénom'] }}", true},
		{"Spanish, an accent in a dotted name", "lastNode", "POST", "={{ $json.body.teléfono }} {{ $json.body.nombre }}", true},
		{"German in code", "lastNode", "POST", "return [{ json: { t: $json.body.Telefon, n: $json.body.Nachricht } }];", true},
		{"Italian off the item", "lastNode", "POST", "={{ $json.cellulare }} {{ $json.messaggio }}", true},
		{"Spanish fields and a Stripe signature", "lastNode", "POST", "={{ $json.headers['stripe-signature'] }} {{ $json.body.nombre }} {{ $json.body.correo }}", false},
		{"Spanish fields and a Twilio call", "lastNode", "POST", "={{ $json.body.CallSid }} {{ $json.body.nombre }} {{ $json.body.telefono }}", false},
		{"a Spanish event type", "lastNode", "POST", "={{ $json.body['event-type'] }} {{ $json.body.nombre }} {{ $json.body.correo }}", false},
	} {
		method := ""
		if tc.method != "GET" {
			method = `"httpMethod": "` + tc.method + `", `
		}
		w := parseOne(t, `{"nodes": [
		 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {`+method+`"path": "p", "responseMode": "`+tc.mode+`"}},
		 {"name": "Read", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [200, 0], "parameters": {"jsCode": `+quoteJSON(tc.read)+`}}],
		 "connections": {"Hook": {"main": [[{"node": "Read", "type": "main", "index": 0}]]}}}`)
		g := BuildGraph(w)
		if got := g.postsPersonForm(w.Nodes[0]); got != tc.want {
			t.Errorf("%s: postsPersonForm = %v; want %v", tc.name, got, tc.want)
		}
	}
	// The item's own fields count only on a node the webhook feeds: after a
	// lookup, $json is the lookup's answer.
	w := parseOne(t, `{"nodes": [
	 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"httpMethod": "POST", "path": "p", "responseMode": "lastNode"}},
	 {"name": "Look up", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 0], "parameters": {"url": "https://crm.example.org/api/people"}},
	 {"name": "Read", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [400, 0], "parameters": {"assignments": {"assignments": [{"id": "a", "name": "who", "value": "={{ $json.name }} {{ $json.email }}", "type": "string"}]}}}],
	 "connections": {"Hook": {"main": [[{"node": "Look up", "type": "main", "index": 0}]]}, "Look up": {"main": [[{"node": "Read", "type": "main", "index": 0}]]}}}`)
	if BuildGraph(w).postsPersonForm(w.Nodes[0]) {
		t.Error("fields of a lookup's answer: postsPersonForm = true; want false")
	}
}

// TestPersonOrderStep: a later step of a person's order or quote brings
// no contact, only the person's choices for it (an address, a payment or
// delivery method); it is a person's form when the run answers a request
// it refuses with a 4xx, a literal code or one it computes. The same
// choices answered without a refusal are a shop's order event, and a
// refusal with no such choice says nothing of who sends.
func TestPersonOrderStep(t *testing.T) {
	for _, tc := range []struct {
		name, read, code string
		want             bool
	}{
		{"payment method and address, refused with 422", "={{ $json.body.quote_id }} {{ $json.body.payment_method }} {{ $json.body.delivery_address }}", `422`, true},
		{"Spanish choices in code, a computed status", "const body = $input.first().json.body || {};\nreturn [{ json: { id: body.cotizacion_id, pago: body.metodo_pago, dir: body.direccion } }];", `"={{ $json.error_code }}"`, true},
		{"a status string", "={{ $json.body.payment_method }}", `"409"`, true},
		{"the choices, answered 200", "={{ $json.body.payment_method }} {{ $json.body.shipping_address }}", `200`, false},
		{"the choices, no status set", "={{ $json.body.payment_method }} {{ $json.body.shipping_address }}", ``, false},
		{"a refusal, no choice", "={{ $json.body.quote_id }} {{ $json.body.option }}", `422`, false},
		{"the choices beside an event type", "={{ $json.body.topic }} {{ $json.body.payment_method }}", `422`, false},
		{"a server error is no refusal", "={{ $json.body.payment_method }}", `500`, false},
	} {
		opts := `{}`
		if tc.code != "" {
			opts = `{"responseCode": ` + tc.code + `}`
		}
		w := parseOne(t, `{"nodes": [
		 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"httpMethod": "POST", "path": "p", "responseMode": "responseNode"}},
		 {"name": "Read", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [200, 0], "parameters": {"jsCode": `+quoteJSON(tc.read)+`}},
		 {"name": "Answer", "type": "n8n-nodes-base.respondToWebhook", "typeVersion": 1.1, "position": [400, 0], "parameters": {"respondWith": "json", "responseBody": "={\"ok\": false}", "options": `+opts+`}}],
		 "connections": {"Hook": {"main": [[{"node": "Read", "type": "main", "index": 0}]]}, "Read": {"main": [[{"node": "Answer", "type": "main", "index": 0}]]}}}`)
		g := BuildGraph(w)
		if got := g.postsPersonForm(w.Nodes[0]); got != tc.want {
			t.Errorf("%s: postsPersonForm = %v; want %v", tc.name, got, tc.want)
		}
		if want := map[bool]Pace{true: PacePerson, false: PaceMachine}[tc.want]; TriggerPaceIn(g, w.Nodes[0]) != want {
			t.Errorf("%s: TriggerPaceIn = %d; want %d", tc.name, TriggerPaceIn(g, w.Nodes[0]), want)
		}
	}
}

// quoteJSON writes s as a JSON string.
func quoteJSON(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func TestFormFieldKey(t *testing.T) {
	for in, want := range map[string]string{
		"nombre completo": "nombrecompleto", "E-Mail": "email", "first_name": "firstname", "firstName": "firstname",
		"Téléphone": "telephone", "teléfono": "telefono", "Dúvida": "duvida", "Société": "societe", " cel ": "cel",
	} {
		if got := formFieldKey(in); got != want {
			t.Errorf("formFieldKey(%q) = %q; want %q", in, got, want)
		}
	}
}
