package analyze

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBrowserAndRelayPace: a POST Webhook is paced by people when a page
// in a browser calls it (its answer is a redirect, an HTML page or CORS
// headers, or it names the pages' origins) or when the run answers the
// person who wrote through the reply address the request carried; an
// answer a service would read, or a reply address with no chat
// participant named, leaves it to a machine. A form a person fills in is
// answered with the run's result and brings a name and an e-mail address
// or phone number in the body; an event that carries the same fields and
// is answered on receipt is a service's. A voice agent's tool (Vapi's tool
// calls, Retell's call with a function's arguments) is paced by the
// person on the call; the platform's report after the call is not.
func TestBrowserAndRelayPace(t *testing.T) {
	hook := func(options string) string {
		return `{"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"httpMethod": "POST", "path": "p", "responseMode": "responseNode", "options": ` + options + `}}`
	}
	respond := func(params string) string {
		return `{"name": "Next", "type": "n8n-nodes-base.respondToWebhook", "typeVersion": 1.1, "position": [200, 0], "parameters": ` + params + `}`
	}
	reply := func(url, text string) string {
		return `{"name": "Next", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 0], "parameters": {"method": "POST", "url": "` + url + `", "sendBody": true, "bodyParameters": {"parameters": [{"name": "content", "value": "` + text + `"}]}}}`
	}
	for _, tc := range []struct {
		name, hook, next string
		want             Pace
	}{
		{"a JSON answer", hook(`{}`), respond(`{"respondWith": "json", "responseBody": "={\"ok\": true}"}`), PaceMachine},
		{"a redirect", hook(`{}`), respond(`{"respondWith": "redirect", "redirectURL": "https://example.com/thanks"}`), PacePerson},
		{"an HTML page", hook(`{}`), respond(`{"respondWith": "text", "responseBody": "=<!DOCTYPE html><html><body>{{ $json.output }}</body></html>"}`), PacePerson},
		{"TwiML is no page", hook(`{}`), respond(`{"respondWith": "text", "responseBody": "<Response><Message>ok</Message></Response>"}`), PaceMachine},
		{"a Twilio inbound SMS, answered in TwiML", hook(`{}`), respond(`{"respondWith": "text", "responseBody": "=<Response><Message>Got {{ $json.body.Body }} from {{ $json.body.From }}</Message></Response>"}`), PacePerson},
		{"a Twilio WhatsApp message, read by node", hook(`{}`), respond(`{"respondWith": "text", "responseBody": "=<Response><Message>{{ $('Hook').item.json.body['Body'] }} {{ $('Hook').item.json.body.WaId }}</Message></Response>"}`), PacePerson},
		{"a Twilio inbound SMS, read in code", hook(`{}`), `{"name": "Next", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [200, 0], "parameters": {"jsCode": "const b = $input.first().json.body;\nreturn [{ json: { text: $input.first().json.body.Body, phone: $input.first().json.body.From } }];"}}`, PacePerson},
		{"a Twilio status callback", hook(`{}`), respond(`{"respondWith": "text", "responseBody": "={{ $json.body.MessageStatus }} {{ $json.body.From }}"}`), PaceMachine},
		{"a body field in lower case is no SMS", hook(`{}`), respond(`{"respondWith": "text", "responseBody": "={{ $json.body.body }} {{ $json.body.from }}"}`), PaceMachine},
		{"an HTML content type", hook(`{}`), respond(`{"respondWith": "text", "responseBody": "={{ $json.html }}", "options": {"responseHeaders": {"entries": [{"name": "Content-Type", "value": "text/html; charset=UTF-8"}]}}}`), PacePerson},
		{"CORS headers", hook(`{}`), respond(`{"respondWith": "json", "responseBody": "={}", "options": {"responseHeaders": {"entries": [{"name": "Access-Control-Allow-Origin", "value": "*"}]}}}`), PacePerson},
		{"the pages' origins", hook(`{"allowedOrigins": "https://shop.example.com"}`), respond(`{}`), PacePerson},
		{"any origin, the default", hook(`{"allowedOrigins": "*"}`), respond(`{}`), PaceMachine},
		{"a relay's callback URL and its author", hook(`{}`), reply("={{ $('Hook').item.json.body.callback_url }}", "=Done, {{ $('Hook').item.json.body.author.username }}"), PacePerson},
		{"a relay's Discord webhook URL, in camel case", hook(`{}`), reply("={{ $json.body.discordWebhookUrl }}", "=Booked for {{ $('Hook').item.json.body.user_id }}"), PacePerson},
		{"a Discord interaction's follow-up", hook(`{}`), reply("=https://discord.com/api/webhooks/{{ $json.body.application_id }}/{{ $json.body.token }}", "Done"), PacePerson},
		{"a callback URL with no chat participant", hook(`{}`), reply("={{ $('Hook').item.json.body.callback_url }}", "={{ $('Hook').item.json.body.result }}"), PaceMachine},
		{"a contact form answered with the run's result", hook(`{}`), respond(`{"respondWith": "json", "responseBody": "={\"ok\": true, \"name\": \"{{ $json.body.first_name }}\", \"email\": \"{{ $json.body['email'] }}\"}"}`), PacePerson},
		{"a contact form's phone, read through the node", hook(`{}`), respond(`{"respondWith": "text", "responseBody": "=Thanks {{ $('Hook').item.json.body.name }}, we call {{ $('Hook').item.json.body.phone }}"}`), PacePerson},
		{"a form's fields one object below the body", hook(`{}`), respond(`{"respondWith": "text", "responseBody": "=Ward for {{ $json.body.context.name }} ({{ $('Hook').item.json.body.context.email }})"}`), PacePerson},
		{"a form's fields read by a list of names", strings.Replace(hook(`{}`), `"responseMode": "responseNode"`, `"responseMode": "lastNode"`, 1), `{"name": "Next", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [200, 0], "parameters": {"jsCode": "const body = $input.first().json.body ?? $input.first().json;\nconst required = ['name', 'email', 'message'];\nif (required.some(f => !body[f])) throw new Error('missing');\nreturn [{ json: { ok: true } }];"}}`, PacePerson},
		{"a list of order fields is no form", strings.Replace(hook(`{}`), `"responseMode": "responseNode"`, `"responseMode": "lastNode"`, 1), `{"name": "Next", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [200, 0], "parameters": {"jsCode": "const body = $input.first().json.body;\nconst required = ['order_id', 'sku', 'amount'];\nif (required.some(f => !body[f])) throw new Error('missing');\nreturn [{ json: { ok: true } }];"}}`, PaceMachine},
		{"a name with no e-mail or phone", hook(`{}`), respond(`{"respondWith": "json", "responseBody": "={\"name\": \"{{ $json.body.name }}\", \"id\": \"{{ $json.body.id }}\"}"}`), PaceMachine},
		{"contact fields with no Respond to Webhook", hook(`{}`), `{"name": "Next", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [200, 0], "parameters": {"values": {"string": [{"name": "who", "value": "={{ $json.body.name }} {{ $json.body.email }}"}]}}}`, PaceMachine},
		{"a Vapi tool call answered with its result", hook(`{}`), respond(`{"respondWith": "json", "responseBody": "={\"results\": [{\"toolCallId\": \"{{ $('Hook').item.json.body.message.toolCalls[0].id }}\", \"result\": \"{{ $json.slots }}\"}]}"}`), PacePerson},
		{"Vapi's end-of-call report", hook(`{}`), respond(`{"respondWith": "json", "responseBody": "={\"saved\": \"{{ $json.body.message.artifact.transcript.length }}\"}"}`), PaceMachine},
		{"a Retell function call's arguments", hook(`{}`), respond(`{"respondWith": "text", "responseBody": "=Booked {{ $json.body.args.date }} for call {{ $json.body.call.call_id }}"}`), PacePerson},
		{"Retell's call analysis, no arguments", hook(`{}`), respond(`{"respondWith": "text", "responseBody": "=Saved {{ $json.body.call.call_id }}"}`), PaceMachine},
		{"a Vapi tool call answered on receipt", strings.Replace(hook(`{}`), `"responseMode": "responseNode"`, `"responseMode": "onReceived"`, 1), respond(`{"respondWith": "json", "responseBody": "={\"id\": \"{{ $json.body.message.toolCalls[0].id }}\"}"}`), PaceMachine},
		{"contact fields in an event answered on receipt", strings.Replace(hook(`{}`), `"responseMode": "responseNode"`, `"responseMode": "onReceived"`, 1), respond(`{"respondWith": "json", "responseBody": "={\"name\": \"{{ $json.body.name }}\", \"email\": \"{{ $json.body.email }}\"}"}`), PaceMachine},
	} {
		w := parseOne(t, `{"nodes": [`+tc.hook+`, `+tc.next+`], "connections": {"Hook": {"main": [[{"node": "Next", "type": "main", "index": 0}]]}}}`)
		if got := TriggerPaceIn(BuildGraph(w), w.Nodes[0]); got != tc.want {
			t.Errorf("%s: TriggerPaceIn = %d; want %d", tc.name, got, tc.want)
		}
	}
}

// TestRelayThroughCopiedField: a Discord relay whose Set node copies the
// request's channel_id before the Discord node answers in that channel is
// paced by people; the same copy of an order number is not a sender.
func TestRelayThroughCopiedField(t *testing.T) {
	for _, tc := range []struct {
		field string
		want  Pace
	}{{"channel_id", PacePerson}, {"order_id", PaceMachine}} {
		w := parseOne(t, `{"nodes": [
		 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"httpMethod": "POST", "path": "p", "responseMode": "lastNode"}},
		 {"name": "Fields", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [200, 0], "parameters": {"assignments": {"assignments": [{"id": "a", "name": "`+tc.field+`", "value": "={{ $json.body.`+tc.field+` }}", "type": "string"}]}}},
		 {"name": "Reply", "type": "n8n-nodes-base.discord", "typeVersion": 2, "position": [400, 0], "parameters": {"resource": "message", "operation": "send", "channelId": {"__rl": true, "mode": "id", "value": "={{ $json.`+tc.field+` }}"}, "content": "Done"}}],
		 "connections": {"Hook": {"main": [[{"node": "Fields", "type": "main", "index": 0}]]}, "Fields": {"main": [[{"node": "Reply", "type": "main", "index": 0}]]}}}`)
		if got := TriggerPaceIn(BuildGraph(w), w.Nodes[0]); got != tc.want {
			t.Errorf("Set copies %s: TriggerPaceIn = %d; want %d", tc.field, got, tc.want)
		}
	}
}

// TestRelayThroughCodeField: a gateway's flat payload that a Code node
// renames (sender: b.from, b the request body) before an HTTP call answers
// at that sender, the body built in one expression, is a chat relay; the
// same reply to a number the Code node takes from elsewhere, or a renamed
// order id, is not.
func TestRelayThroughCodeField(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		want       Pace
	}{
		{"the sender renamed", `const b = ($input.first().json.body) || {};\nreturn [{ json: { sender: b.from || '', text: b.text } }];`, PacePerson},
		{"the sender read straight", `return [{ json: { sender: $json.body.from, text: $json.body.text } }];`, PacePerson},
		{"a number of the owner's", `const b = $json.body;\nreturn [{ json: { sender: $vars.OWNER_PHONE, text: b.text } }];`, PaceMachine},
		{"an order id renamed", `const b = $json.body;\nreturn [{ json: { sender: b.order_id, text: b.text } }];`, PaceMachine},
	} {
		w := parseOne(t, `{"nodes": [
		 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"httpMethod": "POST", "path": "p", "responseMode": "responseNode"}},
		 {"name": "Normalize", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [200, 0], "parameters": {"jsCode": "`+tc.code+`"}},
		 {"name": "Reply", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [400, 0], "parameters": {"method": "POST", "url": "https://graph.facebook.com/v20.0/1/messages", "sendBody": true, "specifyBody": "json", "jsonBody": "={{ ({ messaging_product: 'whatsapp', to: $node['Normalize'].json.sender, text: { body: 'Thanks' } }) }}"}}],
		 "connections": {"Hook": {"main": [[{"node": "Normalize", "type": "main", "index": 0}]]}, "Normalize": {"main": [[{"node": "Reply", "type": "main", "index": 0}]]}}}`)
		if got := TriggerPaceIn(BuildGraph(w), w.Nodes[0]); got != tc.want {
			t.Errorf("%s: TriggerPaceIn = %d; want %d", tc.name, got, tc.want)
		}
	}
}

// TestRunNowWebhook: a Webhook wired into the same first node as a
// Schedule Trigger, beside a Respond to Webhook, runs the scheduled job now
// and is paced by people; one whose first node reads the request body, or
// that feeds work of its own, or beside a disabled schedule, is a
// machine's.
func TestRunNowWebhook(t *testing.T) {
	for _, tc := range []struct {
		name, job, hookTo, schedule string
		want                        Pace
	}{
		{"the schedule's first node", `"url": "https://api.example.org/stats"`, `[{"node": "Job", "type": "main", "index": 0}, {"node": "Ack", "type": "main", "index": 0}]`, `"disabled": false`, PacePerson},
		{"a first node that reads the body", `"url": "=https://api.example.org/stats?day={{ $json.body?.day }}"`, `[{"node": "Job", "type": "main", "index": 0}]`, `"disabled": false`, PaceMachine},
		{"work of its own", `"url": "https://api.example.org/stats"`, `[{"node": "Own", "type": "main", "index": 0}]`, `"disabled": false`, PaceMachine},
		{"a disabled schedule", `"url": "https://api.example.org/stats"`, `[{"node": "Job", "type": "main", "index": 0}]`, `"disabled": true`, PaceMachine},
	} {
		w := parseOne(t, `{"nodes": [
		 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"httpMethod": "POST", "path": "run", "responseMode": "responseNode"}},
		 {"name": "Daily", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 200], "parameters": {}, `+tc.schedule+`},
		 {"name": "Job", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 100], "parameters": {`+tc.job+`}},
		 {"name": "Own", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 300], "parameters": {"url": "https://api.example.org/other"}},
		 {"name": "Ack", "type": "n8n-nodes-base.respondToWebhook", "typeVersion": 1.1, "position": [200, 0], "parameters": {"respondWith": "noData"}}],
		 "connections": {"Hook": {"main": [`+tc.hookTo+`]}, "Daily": {"main": [[{"node": "Job", "type": "main", "index": 0}]]}}}`)
		if got := TriggerPaceIn(BuildGraph(w), w.Nodes[0]); got != tc.want {
			t.Errorf("%s: TriggerPaceIn = %d; want %d", tc.name, got, tc.want)
		}
	}
}

// TestClockWithNoJob: a Cron with no trigger times and a Schedule Trigger
// whose rule.interval is an empty list register no job: a person starts
// them from the editor. An empty rule runs daily.
func TestClockWithNoJob(t *testing.T) {
	for _, tc := range []struct {
		name, node string
		byHand     bool
	}{
		{"a Cron with a cron expression beside no trigger times", `{"type": "n8n-nodes-base.cron", "parameters": {"cronExpression": "0 9 * * *"}}`, true},
		{"a Cron with an empty item list", `{"type": "n8n-nodes-base.cron", "parameters": {"triggerTimes": {"item": []}}}`, true},
		{"a Cron with a time", `{"type": "n8n-nodes-base.cron", "parameters": {"triggerTimes": {"item": [{"hour": 9}]}}}`, false},
		{"a Schedule Trigger with an empty interval list", `{"type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "parameters": {"rule": {"interval": []}}}`, true},
		{"a Schedule Trigger with an empty rule", `{"type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "parameters": {"rule": {}}}`, false},
		{"a Schedule Trigger with no parameters", `{"type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "parameters": {}}`, false},
	} {
		w := parseOne(t, `{"nodes": [`+strings.Replace(tc.node, "{", `{"name": "T", "position": [0, 0], `, 1)+`], "connections": {}}`)
		n := w.Nodes[0]
		if got := ByHand(n); got != tc.byHand {
			t.Errorf("%s: ByHand = %v; want %v", tc.name, got, tc.byHand)
		}
		if got := OnClock(n); got == tc.byHand {
			t.Errorf("%s: OnClock = %v; want %v", tc.name, got, !tc.byHand)
		}
		if want := map[bool]Pace{true: PaceInternal, false: PaceMachine}[tc.byHand]; TriggerPace(n) != want {
			t.Errorf("%s: TriggerPace = %d; want %d", tc.name, TriggerPace(n), want)
		}
	}
}

// TestTriggerServicePace: a trigger's service decides whether a person
// paces it, whatever package the node comes from: n8n's Typeform Trigger
// and a community Tally or Fillout Trigger are a person's form, a
// meeting recorder's trigger paces as the meetings people hold; a
// community WhatsApp gateway's trigger or a service n8n does not list
// stays a machine's, as does a Twilio Trigger that hears only call
// summaries.
func TestTriggerServicePace(t *testing.T) {
	for _, tc := range []struct {
		typ, params, service string
		want                 Pace
	}{
		{"n8n-nodes-base.typeformTrigger", `{"formId": "f"}`, "typeform", PacePerson},
		{"n8n-nodes-base.jotFormTrigger", `{}`, "jotform", PacePerson},
		{"n8n-nodes-base.koBoToolboxTrigger", `{}`, "kobotoolbox", PacePerson},
		{"n8n-nodes-tallyforms.tallyTrigger", `{"formId": "w4Ex"}`, "tally", PacePerson},
		{"n8n-nodes-tallyforms.formTrigger", `{}`, "tally", PacePerson},
		{"@acme/n8n-nodes-fillout.filloutTrigger", `{}`, "fillout", PacePerson},
		{"n8n-nodes-google-forms.googleFormsTrigger", `{}`, "googleforms", PacePerson},
		{"n8n-nodes-base.telegramTrigger", `{}`, "telegram", PacePerson},
		{"n8n-nodes-base.twilioTrigger", `{"updates": ["com.twilio.voice.insights.call-summary.complete"]}`, "twilio", PaceMachine},
		{"n8n-nodes-base.stripeTrigger", `{}`, "stripe", PaceMachine},
		{"n8n-nodes-fathom.fathomTrigger", `{}`, "fathom", PacePerson},
		{"@apify/n8n-nodes-apify.apifyTrigger", `{}`, "apify", PaceMachine},
		{"n8n-nodes-tallyforms.tally", `{}`, "", PaceMachine},
	} {
		w := parseOne(t, `{"nodes": [{"name": "T", "type": "`+tc.typ+`", "typeVersion": 1, "position": [0, 0], "parameters": `+tc.params+`}], "connections": {}}`)
		if got := triggerService(tc.typ); got != tc.service {
			t.Errorf("%s: triggerService = %q; want %q", tc.typ, got, tc.service)
		}
		if got := TriggerPace(w.Nodes[0]); got != tc.want {
			t.Errorf("%s: TriggerPace = %d; want %d", tc.typ, got, tc.want)
		}
	}
}

// TestGatewayReplyToSender: a WhatsApp gateway's webhook (Fonnte posts
// {sender, message}) answered by an HTTP call whose body addresses the
// sender under the gateway's own key (target), through a Set node's copy
// and a Code node that reads it, is a person's conversation; so is a
// Discord reminder that mentions (<@id>) the user the request named,
// handed on by a Code node that spreads the body. The same calls to a
// fixed number or user, or to numbers read from elsewhere, answer nobody.
func TestGatewayReplyToSender(t *testing.T) {
	hook := `{"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"httpMethod": "POST", "path": "p"}}`
	set := `{"name": "Keep", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [200, 0], "parameters": {"assignments": {"assignments": [{"id": "a", "name": "webhook_from", "value": "={{ $json.body.sender }}", "type": "string"}, {"id": "b", "name": "webhook_text", "value": "={{ $json.body.message }}", "type": "string"}]}}}`
	quote := func(s string) string {
		var b strings.Builder
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		_ = e.Encode(s)
		return strings.TrimSpace(b.String())
	}
	code := func(js string) string {
		b := quote(js)
		return `{"name": "Build", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [400, 0], "parameters": {"jsCode": ` + string(b) + `}}`
	}
	send := func(url, body string) string {
		b := quote(body)
		return `{"name": "Send", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [600, 0], "parameters": {"method": "POST", "url": "` + url + `", "sendBody": true, "specifyBody": "json", "jsonBody": ` + string(b) + `}}`
	}
	chain := func(nodes ...string) string {
		names := []string{"Hook", "Keep", "Build", "Send"}
		if len(nodes) == 2 {
			names = []string{"Hook", "Build", "Send"}
		}
		conns := []string{}
		for i := 0; i+1 < len(names); i++ {
			conns = append(conns, `"`+names[i]+`": {"main": [[{"node": "`+names[i+1]+`", "type": "main", "index": 0}]]}`)
		}
		return `{"nodes": [` + hook + `, ` + strings.Join(nodes, ", ") + `], "connections": {` + strings.Join(conns, ", ") + `}}`
	}
	fonnte := "https://api.fonnte.com/send"
	readsSet := "const setData = $('Keep').first().json;\nconst fromNumber = (setData && setData.webhook_from) ? setData.webhook_from : 'unknown';\nreturn [{ json: { from: fromNumber, message: 'ok' } }];"
	spread := "const time = $json.body.delay / 1000;\nreturn [{ json: { ...$json.body, waitSeconds: time } }];"
	for _, tc := range []struct {
		name, wf string
		want     bool
	}{
		{"Fonnte's sender, copied, read in code, sent as target", chain(set, code(readsSet), send(fonnte, `={"target": "{{ $json.from }}", "message": "{{ $json.message }}"}`)), true},
		{"the sender straight from the body, as target", chain(set, code("return [{ json: { ok: true } }];"), send(fonnte, `={"target": "{{ $('Hook').item.json.body.sender }}", "message": "ok"}`)), true},
		{"a fixed number as target", chain(set, code(readsSet), send(fonnte, `={"target": "6281234567890", "message": "{{ $json.from }} wrote"}`)), false},
		{"the sender named only in the text", chain(set, code(readsSet), send(fonnte, `={"target": "6281234567890", "message": "new message from {{ $json.from }}"}`)), false},
		{"numbers the code reads from elsewhere", chain(set, code("return items.map(i => ({ json: { from: i.json.nomor } }));"), send(fonnte, `={"target": "{{ $json.from }}", "message": "promo"}`)), false},
		{"a Discord reminder that mentions its requester", chain(code(spread), send("https://discord.com/api/webhooks/1/x", `={"content": "<@{{$json.userId}}> Reminder: {{$json.task}}"}`)), true},
		{"a Discord reminder that mentions a fixed user", chain(code(spread), send("https://discord.com/api/webhooks/1/x", `={"content": "<@1492886386615910400> Reminder: {{$json.task}}"}`)), false},
	} {
		w := parseOne(t, tc.wf)
		if got := RelaysChat(BuildGraph(w), w.Nodes[0]); got != tc.want {
			t.Errorf("%s: RelaysChat = %v; want %v", tc.name, got, tc.want)
		}
	}
}
