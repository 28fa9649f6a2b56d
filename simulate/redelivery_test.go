package simulate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRedelivery: a Stripe webhook that answers when its last node
// finishes, behind a model call that an OpenAI outage holds to its
// timeout, is answered later than the 30 s Stripe waits, so Stripe sends
// the event again: a second execution, a second paid call. Answering on
// receipt, it arrives once.
func TestRedelivery(t *testing.T) {
	c := Config{Outages: []Outage{{"openai", 3 * time.Minute}}, Executions: 1, Workers: 1, Concurrency: 10,
		Latency: 200 * time.Millisecond, Failure: FailTimeout, Seed: 1}
	late, err := Run(load(t, "../rules/examples/RS203.bad.json"), c)
	if err != nil {
		t.Fatal(err)
	}
	if late.Totals.Arrived != 2 || len(late.Restarts) != 1 {
		t.Fatalf("late answer: %d executions arrived, restarts %+v; want 2 and one redelivery", late.Totals.Arrived, late.Restarts)
	}
	r := late.Restarts[0]
	if r.Kind != "redelivery" || r.Node != "Stripe events" || r.Via != "Stripe" || r.Count != 1 || r.LastS != 90 {
		t.Errorf("redelivery = %+v; want Stripe's one redelivery of \"Stripe events\" at 90 s (30 s timeout + 60 s)", r)
	}
	onReceipt, err := Run(load(t, "../rules/examples/RS203.good.json"), c)
	if err != nil {
		t.Fatal(err)
	}
	if onReceipt.Totals.Arrived != 1 || len(onReceipt.Restarts) != 0 {
		t.Errorf("answer on receipt: %d executions arrived, restarts %+v; want 1 and none", onReceipt.Totals.Arrived, onReceipt.Restarts)
	}
}

// TestRedeliveryKnownSendersOnly: a webhook that nothing names a sender
// of is not replayed (its caller's timeout and redeliveries are unknown,
// and none is invented), however late it answers; Meta's WhatsApp webhook
// answering after the same outage is, once its 20 s pass (the run starts
// at the webhook of Meta's notifications, not at its URL check).
func TestRedeliveryKnownSendersOnly(t *testing.T) {
	c := Config{Outages: []Outage{{"openai", 3 * time.Minute}}, Executions: 1, Workers: 1, Concurrency: 10,
		Latency: 200 * time.Millisecond, Failure: FailTimeout, Seed: 1}
	unknown, err := Run(load(t, "../rules/testdata/RS203/unknown_sender_charge_note.json"), c)
	if err != nil {
		t.Fatal(err)
	}
	if unknown.Totals.Arrived != 1 || len(unknown.Restarts) != 0 {
		t.Errorf("unknown sender: %d executions arrived, restarts %+v; want 1 and none", unknown.Totals.Arrived, unknown.Restarts)
	}
	meta, err := Run(load(t, notificationsOnly(t, "../rules/testdata/RS203/meta_whatsapp_late_reply.json")), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(meta.Restarts) != 1 {
		t.Fatalf("Meta: restarts %+v; want one redelivery", meta.Restarts)
	}
	if r := meta.Restarts[0]; r.Kind != "redelivery" || r.Node != "Respond" || r.Via != "Meta" || r.Count != 1 || r.LastS != 80 {
		t.Errorf("Meta redelivery = %+v; want one redelivery of \"Respond\" at 80 s (20 s timeout + 60 s)", r)
	}
}

// notificationsOnly writes a copy of a Meta workflow without its URL
// check (the GET webhook and its answer), so that a run starts at the
// POST webhook; that webhook then takes GET too (multipleMethods), as
// Meta checks the URL with a GET before it sends anything.
func notificationsOnly(t *testing.T, path string) string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var w map[string]any
	if err := json.Unmarshal(src, &w); err != nil {
		t.Fatal(err)
	}
	var nodes []any
	for _, n := range w["nodes"].([]any) {
		m := n.(map[string]any)
		if name := m["name"]; name != "Verify" && name != "Respond to Webhook" {
			if name == "Respond" {
				p := m["parameters"].(map[string]any)
				delete(p, "httpMethod")
				p["multipleMethods"] = true
			}
			nodes = append(nodes, n)
		}
	}
	w["nodes"] = nodes
	delete(w["connections"].(map[string]any), "Verify")
	out, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestRedeliveryPublishedSchedule: Typeform publishes when it sends again
// (after 5, 10, 20, 60 and 120 minutes), and the replay follows it: a
// Typeform webhook whose answer an outage makes later than the 30 s
// Typeform waits arrives again 5 minutes after that timeout, not after the
// 1 minute a sender with no published schedule is given. (The enrichment
// call's URL is an expression, so its dependency is "(unknown)".)
func TestRedeliveryPublishedSchedule(t *testing.T) {
	c := Config{Outages: []Outage{{"(unknown)", 4 * time.Minute}}, Executions: 1, Workers: 1, Concurrency: 10,
		Latency: 200 * time.Millisecond, Failure: FailTimeout, Seed: 1}
	r, err := Run(load(t, "../rules/testdata/RS203/typeform_late_lead.json"), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Restarts) != 1 {
		t.Fatalf("restarts %+v; want one redelivery", r.Restarts)
	}
	if got := r.Restarts[0]; got.Via != "Typeform" || got.Count != 1 || got.LastS != 330 {
		t.Errorf("redelivery = %+v; want Typeform's one redelivery at 330 s (30 s timeout + 5 minutes)", got)
	}
}
