package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestStrangerReach reads RS306's fixtures: a fetch by an id only the
// real sender knows, made with the owner's credential and not let through
// on failure, ends a stranger's run; nothing else does.
func TestStrangerReach(t *testing.T) {
	for _, tc := range []struct {
		file, trigger, paid string
		gates               []string
	}{
		{"webhook_airtable_ping_fetches_its_payloads.json", "Airtable Webhook", "Generate Field Value1", []string{"Get Webhook Payload"}},
		{"webhook_stripe_event_retrieved_before_the_model.json", "Stripe Webhook", "Thank-you Note", []string{"Retrieve Event"}},
		// The model runs before the gate: the gate is met, the model reached.
		{"webhook_airtable_model_before_the_payload_fetch.json", "Airtable Webhook", "Generate Field Value1", []string{"Get Webhook Payload"}},
		{"webhook_airtable_payload_fetch_that_continues_on_error.json", "Airtable Webhook", "Generate Field Value1", nil},
		{"webhook_airtable_payload_fetch_that_never_errors.json", "Airtable Webhook", "Generate Field Value1", nil},
		{"webhook_airtable_fetch_by_base_id_only.json", "Airtable Webhook", "Generate Field Value1", nil},
		{"webhook_no_auth_note.json", "API", "Summarize", nil},
		// The caller's token checked with the owner's identity provider.
		{"webhook_supabase_user_check_before_agent.json", "Webhook", "AI Agent", []string{"Get User"}},
		{"webhook_auth0_userinfo_check_with_bearer_prefix.json", "Webhook", "AI Agent", []string{"Get User"}},
		{"webhook_supabase_user_check_that_never_errors.json", "Webhook", "AI Agent", nil},
		{"webhook_google_userinfo_check.json", "Webhook", "AI Agent", nil},
		{"webhook_auth0_userinfo_with_the_owners_token.json", "Webhook", "AI Agent", nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("..", "rules", "testdata", "RS306", tc.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := n8nschema.Parse(n8nschema.NewSource(path, src))
			s := Build([]*n8nschema.File{f}, Options{})
			w := f.Workflows[0]
			g := s.Graph(w)
			trig, paid := w.Node(tc.trigger), w.Node(tc.paid)
			reach := RunReach(g, trig)
			if !reach.Has(paid) {
				t.Fatalf("%q not reached from %q at all", tc.paid, tc.trigger)
			}
			stranger, gates := StrangerReach(g, trig, reach)
			var names []string
			for _, n := range gates {
				names = append(names, n.Name)
			}
			if !slices.Equal(names, tc.gates) {
				t.Errorf("gates = %q, want %q", names, tc.gates)
			}
			wantPaid := len(tc.gates) == 0 || tc.file == "webhook_airtable_model_before_the_payload_fetch.json"
			if stranger.Has(paid) != wantPaid {
				t.Errorf("stranger reaches %q: %v, want %v", tc.paid, stranger.Has(paid), wantPaid)
			}
			if len(tc.gates) == 0 && stranger.Len() != reach.Len() {
				t.Errorf("no gate, yet the stranger's reach (%d) is not the run's (%d)", stranger.Len(), reach.Len())
			}
		})
	}
}

// TestFetchGateCases: what makes a fetch by the request's id stop a
// stranger, case by case, on a Stripe event retrieved before a model.
func TestFetchGateCases(t *testing.T) {
	const tmpl = `{"nodes": [
 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"httpMethod": "POST", "path": "p"}},
 {"name": "Prep", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [200, 0], "parameters": {"jsCode": "return $input.all();"}},
 {"name": "Fetch", "type": "n8n-nodes-base.httpRequest", "typeVersion": %s, "position": [400, 0], %s
  "parameters": {"url": %q, %s}},
 {"name": "Model", "type": "@n8n/n8n-nodes-langchain.openAi", "typeVersion": 1.8, "position": [600, 0],
  "parameters": {"modelId": {"__rl": true, "value": "gpt-4o-mini", "mode": "list"}, "messages": {"values": [{"content": "={{ $json.type }}"}]}}}
], "connections": {%s
 "Fetch": {"main": [[{"node": "Model", "type": "main", "index": 0}]]}}}`
	const direct = `"Hook": {"main": [[{"node": "Fetch", "type": "main", "index": 0}]]},`
	const viaCode = `"Hook": {"main": [[{"node": "Prep", "type": "main", "index": 0}]]}, "Prep": {"main": [[{"node": "Fetch", "type": "main", "index": 0}]]},`
	const cred = `"credentials": {"stripeApi": {"id": "1", "name": "Stripe"}},`
	const auth = `"authentication": "predefinedCredentialType", "nodeCredentialType": "stripeApi"`
	header := func(v string) string {
		return `"sendHeaders": true, "headerParameters": {"parameters": [{"name": "Authorization", "value": "` + v + `"}]}`
	}
	const byBody = "=https://api.stripe.com/v1/events/{{ $json.body.id }}"
	const byName = "=https://api.stripe.com/v1/events/{{ $('Hook').item.json.body.id }}"
	for _, tc := range []struct {
		name, version, cred, url, params, conns string
		gate                                    bool
	}{
		{"event by the body's id", "4.2", cred, byBody, auth, direct, true},
		{"event by the webhook's name after a code node", "4.2", cred, byName, auth, viaCode, true},
		{"$json.body after a code node is not the request's", "4.2", cred, byBody, auth, viaCode, false},
		{"an Authorization header of the owner's", "4.2", "", byBody, header("=Bearer {{ $env.STRIPE_KEY }}"), direct, true},
		{"the caller's own Authorization header passed on", "4.2", "", byBody, header("={{ $json.headers.authorization }}"), direct, false},
		{"no credential", "4.2", "", byBody, `"authentication": "none"`, direct, false},
		{"HTTP Request v2 is not read", "2", cred, byBody, auth, direct, false},
		{"a checkout session's id is the customer's to send", "4.2", cred, "=https://api.stripe.com/v1/checkout/sessions/{{ $json.body.id }}", auth, direct, false},
		{"a literal event id", "4.2", cred, "=https://api.stripe.com/v1/events/evt_1", auth, direct, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := parseOne(t, fmt.Sprintf(tmpl, tc.version, tc.cred, tc.url, tc.params, tc.conns))
			s := Build([]*n8nschema.File{{Workflows: []*n8nschema.Workflow{w}}}, Options{})
			g := s.Graph(w)
			hook := w.Node("Hook")
			reach := RunReach(g, hook)
			stranger, gates := StrangerReach(g, hook, reach)
			if got := len(gates) == 1; got != tc.gate {
				t.Fatalf("gate = %v, want %v", got, tc.gate)
			}
			if stranger.Has(w.Node("Model")) == tc.gate {
				t.Errorf("stranger reaches the model: %v", stranger.Has(w.Node("Model")))
			}
		})
	}
}
