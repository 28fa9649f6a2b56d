package simulate

import (
	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Redeliveries: a sender that redelivers a webhook (Stripe, Shopify,
// Slack's Events API, Meta; analyze.Sender) counts a delivery as failed when no
// answer comes within its timeout, and sends the event again. A Webhook
// that answers only after its work (analyze.AnswersLate) answers when the
// execution ends; when an outage slows the work past the timeout, the
// event arrives again as a new execution while the first still runs.

// delivery is one delivery of an event to a late-answering webhook.
type delivery struct {
	sender analyze.Sender
	trig   *n8nschema.Node
	// k is how many deliveries came before this one.
	k        int
	answered bool
}

// redeliveryGapMS is the wait before redelivery k (1-based) once the
// previous delivery timed out: Slack sends at once, after 1 minute and
// after 5 minutes; Typeform and Tally publish their schedules
// (Sender.GapsMS); the others publish a backoff without a schedule
// (Shopify: 8 times over 4 hours; Stripe: up to 3 days; Meta: until
// answered; Calendly: for 24 hours), so the gap doubles from 1 minute, the
// shortest any of them waits.
func redeliveryGapMS(s analyze.Sender, k int) int64 {
	if slack, _ := analyze.SenderFor("slack"); s.Name == slack.Name {
		return []int64{0, 60_000, 300_000}[min(k-1, 2)]
	}
	if len(s.GapsMS) > 0 {
		return s.GapsMS[min(k-1, len(s.GapsMS)-1)]
	}
	return 60_000 << min(k-1, 20)
}

// watchAnswer starts the sender's clock on an execution that begins at a
// webhook whose known sender redelivers and which answers late. A webhook
// that nothing names a sender of is not replayed: its caller's timeout
// and redeliveries are unknown, and none is invented.
func (s *sim) watchAnswer(ex *execution) {
	if len(ex.start) != 1 {
		return
	}
	d := ex.delivery
	if d == nil {
		rd, ok := analyze.RedeliveryOf(s.set, ex.w, ex.start[0])
		if !ok || rd.Key == "" || !rd.Sender.Redelivers() {
			return
		}
		d = &delivery{sender: rd.Sender, trig: ex.start[0]}
		ex.delivery = d
	}
	s.schedule(s.now+int64(d.sender.TimeoutMS), func() {
		if d.answered || d.k+1 >= d.sender.Deliveries() {
			return
		}
		next := &delivery{sender: d.sender, trig: d.trig, k: d.k + 1}
		s.schedule(s.now+redeliveryGapMS(d.sender, next.k), func() {
			s.count("redelivery", d.trig, d.sender.Name, ex.w)
			s.enqueue(&execution{w: ex.w, start: ex.start, delivery: next})
		})
	})
}

// answered marks an execution's delivery as answered: the execution
// ended, and the answer went out.
func (ex *execution) answered() {
	if ex.delivery != nil {
		ex.delivery.answered = true
	}
}
