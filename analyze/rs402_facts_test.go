package analyze

import (
	"slices"
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestSMSInboundPrefilter checks that smsInbound's test of the raw
// parameters (mayNameBody) spares no run whose body reads name Body and
// From: hand-written webhooks both ways, an escape that spells Body, and
// every webhook of the three corpora, read with and without it.
func TestSMSInboundPrefilter(t *testing.T) {
	wf := func(next string) string {
		return `{"nodes": [{"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "sms"}}, ` + next + `], "connections": {"Hook": {"main": [[{"node": "Next", "type": "main", "index": 0}]]}}}`
	}
	set := func(a, b string) string {
		return `{"name": "Next", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [200, 0], "parameters": {"assignments": {"assignments": [{"name": "text", "value": "` + a + `"}, {"name": "phone", "value": "` + b + `"}]}}}`
	}
	for _, tc := range []struct {
		name, wf string
		want     bool
	}{
		{"Body and From read", wf(set(`={{ $json.body.Body }}`, `={{ $json.body.From }}`)), true},
		{"Body spelt with an escape", wf(set(`={{ $json.body.\u0042ody }}`, `={{ $json.body.From }}`)), true},
		{"Body read in code", wf(`{"name": "Next", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [200, 0], "parameters": {"jsCode": "return [{ json: { t: $json.body.Body, f: $json.body.WaId } }];"}}`), true},
		{"a status callback", wf(set(`={{ $json.body.MessageStatus }}`, `={{ $json.body.From }}`)), false},
		{"no Body at all", wf(set(`={{ $json.body.text }}`, `={{ $json.body.from }}`)), false},
	} {
		w := parseOne(t, tc.wf)
		g := BuildGraph(w)
		reach := g.walk(false, []*n8nschema.Node{w.Nodes[0]})
		if got := smsInbound(g, reach, w.Nodes[0]); got != tc.want {
			t.Errorf("%s: smsInbound %v, want %v", tc.name, got, tc.want)
		}
		if got := smsRead(g, reach, w.Nodes[0]); got != tc.want {
			t.Errorf("%s: smsRead %v, want %v", tc.name, got, tc.want)
		}
	}
	for raw, want := range map[string]bool{
		`{"a": "={{ $json.body.Body }}"}`:      true,
		`{"a": "\u0042ody"}`:                   true,
		`{"a": "const b = $x.body. B ody"}`:    true, // squeeze may join it
		`{"a": "B\nody"}`:                      true,
		`{"a": "$json.body.text", "b": "ABC"}`: false,
		`{}`:                                   false,
	} {
		if got := mayNameBody(raw); got != want {
			t.Errorf("mayNameBody(%s) = %v, want %v", raw, got, want)
		}
	}
	for _, name := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		hooks, sms := 0, 0
		for _, f := range corpustest.FilesOf(t, name) {
			for _, w := range f.Workflows {
				g := BuildGraph(w)
				for _, tr := range g.Triggers() {
					if tr.Type != n8nschema.TypeWebhook {
						continue
					}
					hooks++
					reach := g.walk(false, []*n8nschema.Node{tr})
					got, want := smsInbound(g, reach, tr), smsRead(g, reach, tr)
					if got != want {
						t.Errorf("%s %q webhook %q: smsInbound %v, read in full %v", name, w.Name, tr.Name, got, want)
					}
					if want {
						sms++
					}
				}
			}
		}
		t.Logf("%s: %d webhooks, %d inbound SMS", name, hooks, sms)
	}
}

// TestBuiltSenderNeedsARead checks answersSender's gate before codeCopies:
// builtSender finds a Code node's field only through a builtFieldRE read,
// so a recipient with none (a literal channel, a URL) needs no codeCopies.
func TestBuiltSenderNeedsARead(t *testing.T) {
	built := map[string]map[string]string{"Code": {"chatId": "json.body.from", spreadBody: "json.body"}}
	for x, want := range map[string]bool{
		"={{ $json.chatId }}":                      true,
		"={{ $('Code').item.json.chatId }}":        true,
		"={{ $json.userId }}":                      true, // the spread body's field
		"C079GL6K3U6":                              false,
		"https://api.line.me/v2/bot/message/reply": false,
		"={{ $vars.CHAT_ID }}":                     false,
	} {
		if got := builtSender(built, x); got != want {
			t.Errorf("builtSender(%q) = %v, want %v", x, got, want)
		}
		if !want && builtFieldRE.MatchString(x) {
			t.Errorf("%q: builtFieldRE matches, the gate would ask codeCopies", x)
		}
		if want && !builtFieldRE.MatchString(x) {
			t.Errorf("%q: a built sender the gate would skip", x)
		}
	}
}

// TestSenderRepliesShared checks the senderReplies list RelaysChat and
// AnswersStarter share (knownReplies) on every webhook of the three
// corpora: what RelaysChat keeps is the whole list, and each answer is
// the same whichever of the two reads the list first.
func TestSenderRepliesShared(t *testing.T) {
	hooks, kept := 0, 0
	for _, w := range corpustest.Workflows(t) {
		g := BuildGraph(w)
		for _, tr := range g.Triggers() {
			if tr.Type != n8nschema.TypeWebhook {
				continue
			}
			hooks++
			reach := g.walk(false, []*n8nschema.Node{tr})
			full, _ := senderReplies(g, reach, tr, bodyCopies(g, reach, tr), false)
			fresh := BuildGraph(w)
			relays := relaysChat(fresh, reach, tr)
			if r, ok := fresh.knownReplies(tr); ok {
				kept++
				if !slices.Equal(r, full) {
					t.Errorf("%q webhook %q: RelaysChat kept %d replies, the whole list has %d", w.Name, tr.Name, len(r), len(full))
				}
			}
			if got := relaysChat(g, reach, tr); got != relays {
				t.Errorf("%q webhook %q: RelaysChat %v after the whole list, %v alone", w.Name, tr.Name, got, relays)
			}
		}
		// Both orders: AnswersStarter first, then RelaysChat; and back.
		a, b := BuildGraph(w), BuildGraph(w)
		for _, n := range a.Nodes {
			a.AnswersStarter(n)
		}
		for _, tr := range b.Triggers() {
			b.relaysChat(tr)
		}
		for i, n := range a.Nodes {
			if a.AnswersStarter(n) != b.AnswersStarter(b.Nodes[i]) {
				t.Errorf("%q node %q: AnswersStarter differs with the order of the askers", w.Name, n.Name)
			}
		}
		for i, tr := range a.Triggers() {
			if a.relaysChat(tr) != b.relaysChat(b.Triggers()[i]) {
				t.Errorf("%q webhook %q: RelaysChat differs with the order of the askers", w.Name, tr.Name)
			}
		}
	}
	t.Logf("%d webhooks, %d whole lists kept by RelaysChat", hooks, kept)
}

// TestRunReachShared checks RunReach's memo of one start against the
// reach read afresh, for every trigger of the three corpora.
func TestRunReachShared(t *testing.T) {
	for _, w := range corpustest.Workflows(t) {
		g := BuildGraph(w)
		for _, tr := range g.Triggers() {
			got, want := RunReach(g, tr), runReach(g, []*n8nschema.Node{tr})
			if !sameReach(got, want) {
				t.Errorf("%q trigger %q: RunReach %d nodes, afresh %d", w.Name, tr.Name, got.Len(), want.Len())
			}
			if again := RunReach(g, tr); !sameReach(again, want) {
				t.Errorf("%q trigger %q: RunReach asked again differs", w.Name, tr.Name)
			}
		}
	}
}
