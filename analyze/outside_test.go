package analyze

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func parseOne(t *testing.T, src string) *n8nschema.Workflow {
	t.Helper()
	f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))
	if len(f.Problems) > 0 || len(f.Workflows) != 1 {
		t.Fatalf("parse: %v", f.Problems)
	}
	return f.Workflows[0]
}

func TestCronStepMS(t *testing.T) {
	for _, tc := range []struct {
		expr string
		ms   int
		ok   bool
	}{
		{"*/5 * * * *", 300_000, true},
		{"* * * * *", 60_000, true},
		{"0 */2 * * *", 7_200_000, true},
		{"*/30 * * * * *", 30_000, true},
		{"0 9 * * 1-5", 86_400_000, true},        // fixed hour and minute: every day at most
		{"0 0 1 * *", 28 * 86_400_000, true},     // monthly: 28 days at least
		{"0 0 0 1 */3 *", 84 * 86_400_000, true}, // every third month
		{"0 0 1 * 1", 0, false},                  // a day of the month or a Monday
		{"0 0 1 1,7 *", 0, false},
		{"5,35 * * * *", 0, false},
		{"nonsense", 0, false},
		// A step past any field's range is capped, not overflowed.
		{"0 9 1 */4000000000 *", 1000 * 28 * 86_400_000, true},
		{"*/99999999999999999999 * * * *", 1000 * 60_000, true},
	} {
		ms, ok := cronStepMS(tc.expr)
		if ms != tc.ms || ok != tc.ok {
			t.Errorf("cronStepMS(%q) = %d, %v; want %d, %v", tc.expr, ms, ok, tc.ms, tc.ok)
		}
	}
}

func TestScheduleEveryMSDefaults(t *testing.T) {
	w := parseOne(t, `{"nodes": [
	 {"name": "A", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {"rule": {"interval": [{"field": "minutes"}, {"field": "hours", "hoursInterval": 2}]}}},
	 {"name": "B", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {"rule": {"interval": [{}]}}},
	 {"name": "C", "type": "n8n-nodes-base.interval", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "D", "type": "n8n-nodes-base.cron", "typeVersion": 1, "position": [0, 0], "parameters": {"triggerTimes": {"item": [{"mode": "everyX", "value": 10, "unit": "minutes"}]}}}],
	 "connections": {}}`)
	want := map[string]int{"A": 300_000, "B": 86_400_000, "C": 1000, "D": 600_000}
	for _, n := range w.Nodes {
		if ms, ok := ScheduleEveryMS(n); !ok || ms != want[n.Name] {
			t.Errorf("ScheduleEveryMS(%s) = %d, %v; want %d", n.Name, ms, ok, want[n.Name])
		}
	}
}

func TestWaitMSByVersion(t *testing.T) {
	w := parseOne(t, `{"nodes": [
	 {"name": "v1", "type": "n8n-nodes-base.wait", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "v11", "type": "n8n-nodes-base.wait", "typeVersion": 1.1, "position": [0, 0], "parameters": {}},
	 {"name": "min", "type": "n8n-nodes-base.wait", "typeVersion": 1.1, "position": [0, 0], "parameters": {"amount": 2, "unit": "minutes"}},
	 {"name": "hook", "type": "n8n-nodes-base.wait", "typeVersion": 1.1, "position": [0, 0], "parameters": {"resume": "webhook"}}],
	 "connections": {}}`)
	want := map[string]int{"v1": 3_600_000, "v11": 5000, "min": 120_000, "hook": -1}
	for _, n := range w.Nodes {
		ms, ok := WaitMS(n)
		if want[n.Name] < 0 {
			if ok {
				t.Errorf("WaitMS(%s) bounded; a wait for a webhook has no bound", n.Name)
			}
			continue
		}
		if !ok || ms != want[n.Name] {
			t.Errorf("WaitMS(%s) = %d, %v; want %d", n.Name, ms, ok, want[n.Name])
		}
	}
}

// TestSenderOf: the sender is read from what the run the webhook starts
// reads of the request, not from a name alone, nor from what the workflow
// writes in a request it sends (WhatsApp's send body names
// messaging_product too), nor from a node no run of the webhook reaches.
// Meta checks a URL with a GET first: a path that takes only POST is none
// of its subscriptions.
func TestSenderOf(t *testing.T) {
	hook := `{"name": "Stripe webhook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "stripe", "httpMethod": "POST", "responseMode": "lastNode"}}`
	getHook := `{"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "wa", "multipleMethods": true, "responseMode": "lastNode"}}`
	postHook := `{"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "wa", "httpMethod": "POST", "responseMode": "lastNode"}}`
	verify := `{"name": "Verify", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "/wa", "responseMode": "responseNode"}}`
	waMessage := `{"name": "If", "type": "n8n-nodes-base.if", "typeVersion": 2.2, "position": [0, 0], "parameters": {"conditions": {"conditions": [{"leftValue": "={{ $json.body.entry[0].changes[0].value.messages[0] }}"}]}}}`
	for _, tc := range []struct {
		name, hook, node, extra, key string
		unlinked                     bool
	}{
		{"named only", hook, `{"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [0, 0], "parameters": {"assignments": {"assignments": [{"name": "x", "value": "={{ $json.body.email }}"}]}}}`, "", "", false},
		{"named and reads the event object", hook, `{"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [0, 0], "parameters": {"assignments": {"assignments": [{"name": "x", "value": "={{ $json.body.data.object.id }}"}]}}}`, "", "stripe", false},
		{"signature header", hook, `{"name": "Code", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [0, 0], "parameters": {"jsCode": "const sig = $json.headers['stripe-signature'];"}}`, "", "stripe", false},
		{"signature header in a node no run reaches", hook, `{"name": "Code", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [0, 0], "parameters": {"jsCode": "const sig = $json.headers['stripe-signature'];"}}`, "", "", true},
		{"GitHub event header", hook, `{"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [0, 0], "parameters": {"assignments": {"assignments": [{"name": "e", "value": "={{ $json.headers['x-github-event'] }}"}]}}}`, "", "github", false},
		{"Meta's WhatsApp message", getHook, waMessage, "", "meta", false},
		{"Meta's WhatsApp message on a POST-only path", postHook, waMessage, "", "", false},
		{"Meta's WhatsApp message, the path's GET answered by another webhook", postHook, waMessage, verify, "meta", false},
		{"Meta's URL check", getHook, `{"name": "Check", "type": "n8n-nodes-base.if", "typeVersion": 2.2, "position": [0, 0], "parameters": {"conditions": {"conditions": [{"leftValue": "={{ $json.query['hub.verify_token'] }}"}]}}}`, "", "meta", false},
		{"WhatsApp's messaging_product read", getHook, `{"name": "Code", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [0, 0], "parameters": {"jsCode": "const v = $json.body.entry[0]['changes'][0].value;\nif (v['messaging_product'] !== 'whatsapp') return [];"}}`, "", "meta", false},
		{"messaging_product only in a send body", getHook, `{"name": "Send", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [0, 0], "parameters": {"method": "POST", "url": "https://graph.facebook.com/v20.0/1/messages", "sendBody": true, "specifyBody": "json", "jsonBody": "={{ ({ messaging_product: 'whatsapp', to: $json.body.from, text: { body: $json.body.text } }) }}"}}`, "", "", false},
		{"messaging_product as a body parameter", getHook, `{"name": "Send", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [0, 0], "parameters": {"method": "POST", "url": "https://graph.facebook.com/v20.0/1/messages", "sendBody": true, "bodyParameters": {"parameters": [{"name": "messaging_product", "value": "whatsapp"}]}}}`, "", "", false},
		{"Meta's signature with its payload, not GitHub's", getHook, `{"name": "Code", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [0, 0], "parameters": {"jsCode": "const sig = $json.headers['x-hub-signature-256']; const m = $json.body.entry[0].changes[0].value;"}}`, "", "meta", false},
		{"Twilio voice's speech answer", hook, `{"name": "Agent", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 3.1, "position": [0, 0], "parameters": {"promptType": "define", "text": "={{ $json.body.SpeechResult }}"}}`, "", "twilio", false},
		{"Twilio voice's call id", hook, `{"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [0, 0], "parameters": {"assignments": {"assignments": [{"name": "c", "value": "={{ $json.body.CallSid }}"}]}}}`, "", "twilio", false},
		{"GitHub's signature alone", hook, `{"name": "Code", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [0, 0], "parameters": {"jsCode": "const sig = $json.headers['x-hub-signature-256'];"}}`, "", "github", false},
	} {
		nodes := tc.hook + `, ` + tc.node
		if tc.extra != "" {
			nodes += `, ` + tc.extra
		}
		hookName := "Stripe webhook"
		if tc.hook != hook {
			hookName = "Hook"
		}
		var n struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal([]byte(tc.node), &n); err != nil {
			t.Fatal(err)
		}
		conns := `{}`
		if !tc.unlinked {
			conns = `{"` + hookName + `": {"main": [[{"node": "` + n.Name + `", "type": "main", "index": 0}]]}}`
		}
		w := parseOne(t, `{"nodes": [`+nodes+`], "connections": `+conns+`}`)
		if key, _ := SenderOf(BuildGraph(w), w.Nodes[0]); key != tc.key {
			t.Errorf("%s: SenderOf = %q; want %q", tc.name, key, tc.key)
		}
	}
}

// TestGroupByReach checks that triggers whose runs meet share a group
// whose reach is the union of theirs, and that a trigger alone keeps
// exactly ReachFrom's nodes.
func TestGroupByReach(t *testing.T) {
	w := parseOne(t, `{"nodes": [
	 {"name": "S1", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
	 {"name": "S2", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
	 {"name": "S3", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
	 {"name": "S4", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
	 {"name": "A", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "B", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "C", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "D", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}],
	 "connections": {
	  "S1": {"main": [[{"node": "A", "type": "main", "index": 0}]]},
	  "S2": {"main": [[{"node": "C", "type": "main", "index": 0}]]},
	  "S3": {"main": [[{"node": "B", "type": "main", "index": 0}]]},
	  "B": {"main": [[{"node": "A", "type": "main", "index": 0}]]},
	  "S4": {"main": [[{"node": "D", "type": "main", "index": 0}]]},
	  "D": {"main": [[{"node": "C", "type": "main", "index": 0}]]}}}`)
	g := BuildGraph(w)
	byName := map[string]*n8nschema.Node{}
	for _, n := range w.Nodes {
		byName[n.Name] = n
	}
	trig := []*n8nschema.Node{byName["S1"], byName["S2"], byName["S3"], byName["S4"]}
	groups := GroupByReach(g, trig)
	names := func(ns []*n8nschema.Node) (out []string) {
		for _, n := range ns {
			out = append(out, n.Name)
		}
		return out
	}
	var got [][]string
	for _, grp := range groups {
		got = append(got, names(grp.Triggers))
		want := ReachFrom(g, grp.Triggers...)
		if want.Len() != grp.Reach.Len() {
			t.Errorf("group %v reaches %d nodes, ReachFrom %d", names(grp.Triggers), grp.Reach.Len(), want.Len())
		}
		for _, n := range want.Nodes() {
			if !grp.Reach.Has(n) {
				t.Errorf("group %v misses %s", names(grp.Triggers), n.Name)
			}
		}
	}
	if want := [][]string{{"S1", "S3"}, {"S2", "S4"}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("groups %v, want %v", got, want)
	}
}

// TestRedeliveryWorst: the time before a late answer is the longest path
// of slow steps, not the sum over branches that exclude each other, and
// an executionTimeout stops the run within the timeout and the step then
// running.
func TestRedeliveryWorst(t *testing.T) {
	wait := func(name string, sec int) string {
		return fmt.Sprintf(`{"name": %q, "type": "n8n-nodes-base.wait", "typeVersion": 1.1, "position": [0, 0], "parameters": {"amount": %d, "unit": "seconds"}}`, name, sec)
	}
	link := func(from, to string, out int) string {
		return fmt.Sprintf(`%q: {"main": [%s[{"node": %q, "type": "main", "index": 0}]]}`, from, strings.Repeat("[], ", out), to)
	}
	hook := `{"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"httpMethod": "POST", "path": "p", "responseMode": "lastNode"}}`
	branch := `{"name": "If", "type": "n8n-nodes-base.if", "typeVersion": 2, "position": [0, 0], "parameters": {"conditions": {"conditions": [{"leftValue": "={{ $json.body.ok }}", "rightValue": "", "operator": {"type": "boolean", "operation": "true", "singleValue": true}}], "combinator": "and"}}}`
	for _, tc := range []struct {
		name, src string
		want      int
	}{
		{"two branches", `{"nodes": [` + hook + `, ` + branch + `, ` + wait("A", 60) + `, ` + wait("B", 90) + `], "connections": {` +
			link("Hook", "If", 0) + `, "If": {"main": [[{"node": "A", "type": "main", "index": 0}], [{"node": "B", "type": "main", "index": 0}]]}}}`, 90_000},
		{"a chain cut by the timeout", `{"settings": {"executionTimeout": 60}, "nodes": [` + hook + `, ` + wait("A", 300) + `, ` + wait("B", 300) + `, ` + wait("C", 300) + `], "connections": {` +
			link("Hook", "A", 0) + `, ` + link("A", "B", 0) + `, ` + link("B", "C", 0) + `}}`, 360_000},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(tc.src)))
		s := Build([]*n8nschema.File{f}, DefaultOptions())
		r, ok := RedeliveryOf(s, s.Workflows[0], s.Workflows[0].Nodes[0])
		if !ok || r.WorstMS != tc.want {
			t.Errorf("%s: RedeliveryOf = %v, WorstMS %d; want %d", tc.name, ok, r.WorstMS, tc.want)
		}
	}
}

// TestNoRetryLines: an instruction not to call a tool again counts only on
// the line of a failure condition or the line after it; a rule against
// repeating a tool call at all counts anywhere.
func TestNoRetryLines(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"IF any Google Sheets tool call returns an error:\n→ Stop immediately. Do not retry.", true},
		{"On failure: Stop all further tool calls immediately.", true},
		{"If the booking tool fails, don't call it again; apologise.", true},
		{"If a tool fails, stop and tell the user.", true},
		{"If it fails, retry up to 3 times.", false},
		{"Stop when the customer says goodbye.", false},
		{"Do not retry questions the user already answered.", false},
		{"If the user made an error in the date,\n\nask again.", false},
		{"Never call the same tool twice for the same step.", true},
		{"Rules:\n- Do NOT duplicate tool calls.", true},
		{"Never create duplicate events.", true},
		{"Never call a tool twice.", true},
		{"Do not duplicate the greeting.", false},
		// An answer to the failure in place of a retry.
		{"6. If a tool fails, say so plainly, then answer from your own knowledge with a caveat.", true},
		{"- Notify the user if a tool fails to respond.", true},
		{"6. If a tool returns an error, explain the issue politely and suggest the next step.", true},
		{"- Tool error or empty result: apologize and suggest the user try again.", true},
		{"If any tool call returns an error:\n- tell the user what failed.", true},
		{"If a tool fails, retry once, then tell the user.", false},
		{"If the booking fails, inform the customer and try again.", false},
		{"If the customer reports an error, tell them to restart the app.", false},
		{"Tell the user the booking id.", false},
		{"Errors happen.\nTell the user the booking id.", false},
	} {
		if got := len(noRetryLines(c.text)) > 0; got != c.want {
			t.Errorf("noRetryLines(%q) = %v; want %v", c.text, got, c.want)
		}
	}
}
