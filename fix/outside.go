package fix

import (
	"fmt"
	"math"
	"strconv"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Repairs of the layers outside n8n: a webhook that answers on receipt
// (RS203), a schedule whose run stops before the next starts (RS106).

// answerOnReceipt sets a late-answering Webhook's responseMode to
// onReceived, when its sender ignores the answer's body (Stripe, Shopify,
// Slack's Events API) and no Respond to Webhook node builds the answer.
func (r *repairer) answerOnReceipt(w *n8nschema.Workflow, node, sender string) (*analyze.Repair, error) {
	switch sender {
	case "stripe", "shopify", "slack":
	case "meta":
		return nil, noRepair("Meta checks the URL by reading hub.challenge from a GET's answer: answer the POST notifications on receipt in a Webhook of their own")
	default:
		return nil, noRepair("the caller is not known: it may need the answer the workflow builds")
	}
	if !r.set.HasErrorWorkflow(w) {
		return nil, noRepair("answering on receipt hides a failed run from the sender, and the workflow has no error workflow to hear of it: set one first")
	}
	t := w.Node(node)
	if t == nil || t.Type != n8nschema.TypeWebhook {
		return nil, noRepair("the webhook node was not found")
	}
	if analyze.AnswerMode(t) != "lastNode" {
		return nil, noRepair("a Respond to Webhook node builds the answer, and would fail with the webhook answering on receipt")
	}
	for _, n := range w.Nodes {
		if n.Type == n8nschema.TypeRespondToWebhook && !n.Disabled {
			return nil, noRepair("a Respond to Webhook node builds the answer, and would fail with the webhook answering on receipt")
		}
	}
	e, err := setMember(w, t.Params(), []string{"responseMode"}, raw(quote("onReceived")))
	if err != nil {
		return nil, err
	}
	return &analyze.Repair{Safety: analyze.Unsafe, Edits: []analyze.Edit{e},
		Description: fmt.Sprintf("Answer on receipt: %q responseMode = \"onReceived\"", t.Name)}, nil
}

// scheduleTimeout sets settings.executionTimeout to the schedule's
// interval, so that n8n stops a run before the next one starts; not when
// the workflow has a timeout already or the interval is past n8n's
// ceiling.
func (r *repairer) scheduleTimeout(w *n8nschema.Workflow, node string) (*analyze.Repair, error) {
	if w.Settings.ExecutionTimeout > 0 {
		return nil, noRepair("the workflow has a timeout longer than the interval: which to change is a decision")
	}
	t := w.Node(node)
	if t == nil {
		return nil, noRepair("the schedule node was not found")
	}
	every, ok := analyze.ScheduleEveryMS(t)
	if !ok {
		return nil, noRepair("the schedule's interval cannot be read")
	}
	secs := int(math.Floor(float64(every) / 1000))
	if secs > MaxExecutionTimeout {
		return nil, noRepairf("the interval is longer than %d s, n8n's ceiling on executionTimeout", MaxExecutionTimeout)
	}
	for _, op := range r.set.OperationsOf(w) {
		per, ok := analyze.AttemptTimeoutMS(op)
		if op.Unbounded || op.Node.Disabled || !ok {
			continue
		}
		if one := op.Attempts*per + (op.OwnRetries()-1)*analyze.RetryWaitMS(op.Node); one > secs*1000 {
			return nil, noRepairf("node %q alone may take longer than the interval: a timeout would cut it short", op.Node.Name)
		}
	}
	var e analyze.Edit
	var err error
	s := w.Settings.Value
	switch {
	case s.Kind() == n8nschema.Object:
		e, err = setMember(w, s, []string{"executionTimeout"}, raw(strconv.Itoa(secs)))
	case !s.Exists():
		e, err = setMember(w, w.Value, []string{"settings"}, object{{"executionTimeout", raw(strconv.Itoa(secs))}})
	default:
		return nil, noRepair("the workflow's settings are not an object")
	}
	if err != nil {
		return nil, err
	}
	return &analyze.Repair{Safety: analyze.Unsafe, Edits: []analyze.Edit{e},
		Description: fmt.Sprintf("Stop each run before the next starts: settings.executionTimeout = %d", secs)}, nil
}
