package simulate

import (
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
