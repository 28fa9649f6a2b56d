package analyze

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// The layer outside n8n: a service that sends a webhook counts a delivery
// as failed when no 2xx answer comes in time, and sends the event again.
// An n8n Webhook node answers on receipt by default; set to answer when
// the last node finishes (responseMode "lastNode") or from a Respond to
// Webhook node ("responseNode"), it answers only after the work before
// that. When that work is slow (a model call, a retried call, a Wait),
// the sender gives up waiting while the first run is still going and
// sends the event again: a new execution that repeats every write and
// paid call (docs/n8n-facts.md, "Senders that redeliver").

// KindRedelivery is the chain layer of a sender that sends the event
// again when the answer is late.
const KindRedelivery = "redelivery"

// Sender is what a service that sends webhooks does when the answer is
// late, from its public documentation (docs/n8n-facts.md).
type Sender struct {
	Name string
	// TimeoutMS is how long it waits for a 2xx answer before it counts
	// the delivery as failed.
	TimeoutMS int
	// Redeliveries is how many times it sends a failed event again; -1
	// when it redelivers but publishes no count, 0 when it never does.
	Redeliveries int
	// Spacing says when the redeliveries come.
	Spacing string
	// GapsMS is the published wait before each redelivery once the last
	// delivery failed (the last one repeats), nil when none is published.
	GapsMS []int64
}

// Redelivers reports whether the sender sends a failed event again on
// its own.
func (s Sender) Redelivers() bool { return s.Redeliveries != 0 }

// Deliveries is how many times one event may arrive when every answer is
// late: the first delivery and the redeliveries, at least 2 when the
// count is not published.
func (s Sender) Deliveries() int {
	if s.Redeliveries < 0 {
		return 2
	}
	return 1 + s.Redeliveries
}

// senders are the services whose redelivery is known. Stripe publishes no
// timeout ("promptly"); secondary sources say 3 to 30 s, and the largest
// is used so that a run reported late is late on any reading.
var senders = map[string]Sender{
	"stripe":  {Name: "Stripe", TimeoutMS: 30_000, Redeliveries: -1, Spacing: "for up to 3 days, with exponential backoff"},
	"shopify": {Name: "Shopify", TimeoutMS: 5_000, Redeliveries: 8, Spacing: "8 times over 4 hours"},
	"slack":   {Name: "Slack's Events API", TimeoutMS: 3_000, Redeliveries: 3, Spacing: "3 times: at once, after 1 minute and after 5 minutes"},
	"github":  {Name: "GitHub", TimeoutMS: 10_000, Redeliveries: 0, Spacing: "never on its own"},
	"twilio":  {Name: "Twilio", TimeoutMS: 15_000, Redeliveries: 0, Spacing: "never by default (it calls the fallback URL)"},
	// Meta's webhooks (WhatsApp Cloud API, Messenger, Instagram): a call
	// times out after 20 s and is retried until it succeeds; Meta
	// publishes no count (docs/n8n-facts.md).
	"meta": {Name: "Meta", TimeoutMS: 20_000, Redeliveries: -1, Spacing: "until it is answered, with growing gaps"},
	// Booking and form services that relay one person's action (RelayOf):
	// people pace them, but the service is the caller and sends again.
	"calendly": {Name: "Calendly", TimeoutMS: 15_000, Redeliveries: -1, Spacing: "for up to 24 hours, with exponential backoff"},
	"typeform": {Name: "Typeform", TimeoutMS: 30_000, Redeliveries: 5, Spacing: "5 times, after 5, 10, 20, 60 and 120 minutes",
		GapsMS: []int64{300_000, 600_000, 1_200_000, 3_600_000, 7_200_000}},
	"tally": {Name: "Tally", TimeoutMS: 10_000, Redeliveries: 5, Spacing: "5 times, after 5 minutes, 30 minutes, 1 hour, 6 hours and 24 hours",
		GapsMS: []int64{300_000, 1_800_000, 3_600_000, 21_600_000, 86_400_000}},
}

// SenderFor returns a known sender by key ("stripe", "slack").
func SenderFor(key string) (Sender, bool) {
	s, ok := senders[key]
	return s, ok
}

// senderSignals are what a run reads of a request that only its sender
// sends: a signature or event header, or an event name of its payload
// (compared in an If or Switch, or quoted in code). Each is looked for in
// what the nodes the webhook's runs reach read (Graph.paths), so a payload
// field is matched as a field read (".messaging_product"), never as a key
// the workflow writes in a request it sends: WhatsApp's send body carries
// messaging_product too.
var senderSignals = []struct {
	key     string
	strong  []string // a header or value only this sender sends
	events  []string // event names, matched as whole values or quoted
	named   string   // a word of the webhook's path or name
	payload []string // payload fields that, with the name, tell the sender
}{
	{key: "stripe", strong: []string{"stripe-signature"},
		events: []string{"checkout.session.completed", "checkout.session.expired", "payment_intent.succeeded",
			"payment_intent.payment_failed", "invoice.paid", "invoice.payment_succeeded", "invoice.payment_failed",
			"customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted",
			"charge.succeeded", "charge.refunded", "charge.failed"},
		named: "stripe", payload: []string{"body.data.object"}},
	{key: "shopify", strong: []string{"x-shopify-"}, events: []string{"orders/create", "orders/paid", "orders/updated", "orders/fulfilled"},
		named: "shopify", payload: []string{"body.line_items", "body.order_number", "body.financial_status"}},
	{key: "slack", strong: []string{"x-slack-signature", "x-slack-retry", "x-slack-request-timestamp", "event_callback", "url_verification"},
		named: "slack", payload: []string{"body.event."}},
	// Meta before GitHub: both sign with X-Hub-Signature-256, and only
	// Meta verifies the URL with hub.verify_token and sends
	// entry[].changes[].value (WhatsApp's messaging_product, Messenger's
	// entry[].messaging).
	{key: "meta", strong: []string{"hub.verify_token", "whatsapp_business_account", ".messaging_product",
		"entry[0].changes[0].value", "entry[0].messaging["}},
	{key: "github", strong: []string{"x-github-event", "x-hub-signature", "x-github-delivery"}},
	// Twilio voice posts CallSid, and a <Gather> answer SpeechResult.
	{key: "twilio", strong: []string{"x-twilio-signature", "body.messagesid", "body.smssid", "body.callsid", "body.speechresult"}},
}

// SenderOf tells which service calls a generic Webhook node, from what
// the run it starts reads of the request (headers it checks, event names
// it compares, payload fields it reads with the webhook named for the
// service), not from names alone, nor from what the workflow sends
// elsewhere. It returns the sender's key and the evidence, or "" when
// nothing says who calls.
func SenderOf(g *Graph, t *n8nschema.Node) (key, evidence string) {
	name := strings.ToLower(t.Name + " " + t.Params().Get("path").Str())
	read := g.senderReads(t)
	for i, sig := range senderSignals {
		// Meta checks a callback URL with a GET (hub.challenge) before it
		// sends anything: a path that answers only POST was never
		// subscribed (docs/n8n-facts.md).
		if sig.key == "meta" && !g.pathAnswersGET(t) {
			continue
		}
		r := read.signals[i]
		if r.strong != "" {
			return sig.key, fmt.Sprintf("it reads %q", strings.TrimPrefix(r.strong, "."))
		}
		if r.event != "" {
			return sig.key, fmt.Sprintf("it tests for the event %q", r.event)
		}
		if sig.named == "" || !strings.Contains(name, sig.named) && !(sig.key == "slack" && read.hasSlack) {
			continue
		}
		if r.payload != "" {
			return sig.key, fmt.Sprintf("it is named for %s and reads %q", senders[sig.key].Name, r.payload)
		}
	}
	return "", ""
}

// AnswersGET reports whether a Webhook node takes GET requests: its
// httpMethod, GET by default, or with multipleMethods a list, GET and POST
// by default (nodes-base/nodes/Webhook/Webhook.node.ts); n8n registers one
// webhook per method of the value split at commas
// (cli/src/webhooks/webhook.service.ts getNodeWebhooks). An expression may
// name any method.
func AnswersGET(t *n8nschema.Node) bool {
	v, ok := t.Param("httpMethod")
	if !ok || v.IsExpr() {
		return true
	}
	ms := v.Elems()
	if len(ms) == 0 {
		ms = []n8nschema.Value{v}
	}
	for _, m := range ms {
		for _, s := range strings.Split(m.Str(), ",") {
			if strings.EqualFold(strings.TrimSpace(s), "GET") {
				return true
			}
		}
	}
	return false
}

// pathAnswersGET reports whether a GET to t's path is answered in its
// workflow: t takes GET, or another enabled Webhook on the same path does
// (the usual pair: one answers Meta's check, the other takes its events).
func (g *Graph) pathAnswersGET(t *n8nschema.Node) bool {
	if AnswersGET(t) {
		return true
	}
	// The paths are gathered once for the graph: SenderOf asks of every
	// webhook, and a scan of the workflow for each grew with their square.
	// t, which takes no GET, is not among them.
	g.getPathsOnce.Do(func() {
		g.getPaths = map[string]bool{}
		for _, n := range g.Workflow.Nodes {
			if !n.Disabled && n.Type == n8nschema.TypeWebhook && AnswersGET(n) {
				g.getPaths[strings.Trim(n.Params().Get("path").Str(), "/ ")] = true
			}
		}
	})
	return g.getPaths[strings.Trim(t.Params().Get("path").Str(), "/ ")]
}

// senderReads is what the runs of a webhook read of each sender's signals
// (the first strong value, event and payload field of each found among
// the string values of the nodes they reach, as readPaths writes them),
// and whether a Slack node is among the workflow's nodes.
type senderReads struct {
	signals  []struct{ strong, event, payload string }
	hasSlack bool
}

// senderReads is read once per webhook of the graph: RS203 and RS306 ask.
func (g *Graph) senderReads(t *n8nschema.Node) *senderReads {
	g.sendersOnce.Do(func() {
		g.senders = map[*n8nschema.Node]*senderReads{}
		slack := g.hasSlack()
		for _, tr := range g.Triggers() {
			if r := g.sameFacts(tr); r != tr {
				g.senders[tr] = g.senders[r]
			} else if tr.Type == n8nschema.TypeWebhook {
				g.senders[tr] = g.readSenders(g.walk(true, []*n8nschema.Node{tr}), slack)
			}
		}
	})
	if r, ok := g.senders[t]; ok {
		return r
	}
	return g.readSenders(g.walk(true, []*n8nschema.Node{t}), g.hasSlack()) // not one of the graph's triggers
}

// hasSlack reports whether an enabled Slack node is among the graph's.
func (g *Graph) hasSlack() bool {
	for _, n := range g.Nodes {
		if !n.Disabled && !n.IsSticky() && strings.HasPrefix(n.Type, "n8n-nodes-base.slack") {
			return true
		}
	}
	return false
}

// readSenders reads what the nodes of reached read of each sender's
// signals. It visits those nodes only, in file order: it runs for each
// webhook, and a pass over the graph for each grew with their square.
func (g *Graph) readSenders(reached Reach, hasSlack bool) *senderReads {
	r := &senderReads{signals: make([]struct{ strong, event, payload string }, len(senderSignals)), hasSlack: hasSlack}
	at := make([]int, 0, reached.Len())
	for _, n := range reached.Nodes() {
		if i, ok := g.index(n); ok && !n.Disabled && !n.IsSticky() {
			at = append(at, i)
		}
	}
	slices.Sort(at)
	// Every string value read, lowercased: one pass over each for every
	// signal (signalWordsIn), not one search per signal.
	var in map[string]bool
	var low []byte
	for _, i := range at {
		for _, x := range g.paths(i) {
			in, low = signalWordsIn(x, in, low)
		}
	}
	// An event is quoted or a whole value: the values lowercased and
	// joined with NULs, made only when a value holds an event's name.
	// Each value is lowercased alone, which is what lowering the joined
	// text gives, the NULs being ASCII.
	var texts string
	quotedEvent := func(ev string) bool {
		if texts == "" {
			b := []byte{0}
			for _, i := range at {
				for _, x := range g.paths(i) {
					b = append(appendLower(b, x), 0)
				}
			}
			texts = string(b)
		}
		return quoted(texts, ev)
	}
	first := func(words []string, has func(string) bool) string {
		for _, w := range words {
			if in[w] && has(w) {
				return w
			}
		}
		return ""
	}
	yes := func(string) bool { return true }
	for i, sig := range senderSignals {
		r.signals[i].strong = first(sig.strong, yes)
		r.signals[i].event = first(sig.events, quotedEvent)
		r.signals[i].payload = first(sig.payload, yes)
	}
	return r
}

// signalWords are the words of senderSignals (strong, events, payload),
// and signalAt, by a word's first two bytes, one more than the index in
// signalGroups of the words that start with them (or lowersToASCII, by a
// byte and the next): signalWordsIn reads a
// text once for all of them, where a search for each word read it some
// 40 times (and nearly every webhook's runs read none).
var (
	signalWords  []string
	signalAt     [1 << 16]uint8
	signalGroups [][]int
)

func init() {
	for _, sig := range senderSignals {
		for _, ws := range [][]string{sig.strong, sig.events, sig.payload} {
			for _, w := range ws {
				if len(w) < 2 || w[0] == 0 || w != strings.ToLower(w) || strings.IndexFunc(w, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0 {
					panic("analyze: a sender signal not lower-case ASCII of two bytes or more: " + w)
				}
				if slices.Contains(signalWords, w) {
					continue
				}
				k := uint16(w[0])<<8 | uint16(w[1])
				if signalAt[k] == 0 {
					signalGroups = append(signalGroups, nil)
					signalAt[k] = uint8(len(signalGroups))
				}
				signalGroups[signalAt[k]-1] = append(signalGroups[signalAt[k]-1], len(signalWords))
				signalWords = append(signalWords, w)
			}
		}
	}
	if len(signalGroups) >= lowersToASCII {
		panic("analyze: too many sender signal groups")
	}
	// Any byte, then the first byte of the dotted capital I or the Kelvin
	// sign (no word holds a byte outside ASCII).
	for prev := range 256 {
		for _, r := range []rune{'\u0130', '\u212a'} {
			signalAt[prev<<8|int(string(r)[0])] = lowersToASCII
		}
	}
}

// lowersToASCII, in signalAt, marks the first byte of a rune outside ASCII
// that strings.ToLower maps into it: the dotted capital I (to i) and the
// Kelvin sign (to k). ToLower maps every other rune to one outside ASCII
// (invalid bytes to U+FFFD), whose bytes no word holds.
const lowersToASCII = math.MaxUint8

// signalWordsIn adds to in (made when first needed) the signalWords
// that strings.ToLower(x) contains, and returns it with low, a buffer it
// lowers into. x is read in place, its ASCII letters folded (every word
// is lower-case ASCII), unless it holds a rune that lowers into ASCII
// (lowersToASCII): then it is lowered (appendLower) and that is read.
func signalWordsIn(x string, in map[string]bool, low []byte) (map[string]bool, []byte) {
	var prev uint16 // the byte before i, folded; no word starts with a NUL
	for i := 0; i < len(x); i++ {
		c := uint16(foldASCII[x[i]])
		k := signalAt[prev<<8|c]
		prev = c
		if k == 0 {
			continue
		}
		if k == lowersToASCII {
			if r, _ := utf8.DecodeRuneInString(x[i:]); r == '\u0130' || r == '\u212a' {
				low = appendLower(low[:0], x)
				in, _ = signalWordsIn(string(low), in, nil) // lowered, it holds neither
				return in, low
			}
			continue
		}
		for _, w := range signalGroups[k-1] {
			if ascii.HasPrefixFold(x[i-1:], signalWords[w]) {
				if in == nil {
					in = map[string]bool{}
				}
				in[signalWords[w]] = true
			}
		}
	}
	return in, low
}

// foldASCII maps an ASCII capital letter to its small letter and every
// other byte to itself.
var foldASCII = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] += 'a' - 'A'
		}
	}
	return t
}()

// appendLower appends strings.ToLower(x) to b: ASCII bytes one by one,
// other runes as unicode.ToLower maps them (an invalid byte as U+FFFD), so
// that a long text with a few accents is not mapped rune by rune.
func appendLower(b []byte, x string) []byte {
	for i := 0; i < len(x); {
		c := x[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(x[i:])
		b = utf8.AppendRune(b, unicode.ToLower(r))
		i += w
	}
	return b
}

// quoted reports whether one of texts' NUL-separated values is v, or holds
// it between quotes (a literal in code or an expression).
func quoted(texts, v string) bool {
	if !strings.Contains(texts, v) {
		return false // most events are not named at all: one search, not five
	}
	for _, s := range []string{"\x00" + v + "\x00", "\x00=" + v + "\x00", `'` + v + `'`, `"` + v + `"`, "`" + v + "`"} {
		if strings.Contains(texts, s) {
			return true
		}
	}
	return false
}

// AnswerMode says when a trigger node answers the HTTP request that
// starts its run: the Webhook node's responseMode ("onReceived" by
// default; nodes-base/nodes/Webhook/description.ts), "" when an
// expression sets it. The services' own trigger nodes (Stripe Trigger,
// Shopify Trigger, Slack Trigger, GitHub Trigger and the rest) declare
// responseMode "onReceived" in their webhook description
// (nodes-base/nodes/Stripe/StripeTrigger.node.ts and the like): they
// answer on receipt, before any work.
func AnswerMode(t *n8nschema.Node) string {
	if t.Type != n8nschema.TypeWebhook {
		return "onReceived"
	}
	v, ok := t.Param("responseMode")
	if !ok {
		return "onReceived"
	}
	if v.IsExpr() {
		return ""
	}
	return v.Str()
}

// AnswersLate reports whether a trigger answers only after work: a
// Webhook set to answer when the last node finishes or from a Respond to
// Webhook node.
func AnswersLate(t *n8nschema.Node) bool {
	m := AnswerMode(t)
	return m == "lastNode" || m == "responseNode"
}

// SlowStep is work that can keep a run from answering: a model call, a
// call that n8n retries, a Wait.
type SlowStep struct {
	Node *n8nschema.Node
	// WorstMS is what it takes at worst; meaningless when Unbounded.
	WorstMS   int
	Unbounded bool
	What      string // "a model call", "3 tries", "a wait of 2 minutes"
}

// Describe says what the step is and how long it can take.
func (s SlowStep) Describe() string {
	if s.Unbounded {
		return fmt.Sprintf("%s in %q, with no bound on its time", s.What, s.Node.Name)
	}
	return fmt.Sprintf("%s in %q that can take %s", s.What, s.Node.Name, Duration(s.WorstMS))
}

// Duration writes milliseconds as seconds, minutes or hours.
func Duration(ms int) string {
	switch {
	case ms >= 2*3_600_000:
		return fmt.Sprintf("%d h", ms/3_600_000)
	case ms >= 2*60_000:
		if sec := ms % 60_000 / 1000; sec > 0 && ms < 20*60_000 {
			return fmt.Sprintf("%d min %d s", ms/60_000, sec)
		}
		return fmt.Sprintf("%d min", ms/60_000)
	}
	return fmt.Sprintf("%d s", int(math.Ceil(float64(ms)/1000)))
}

// beforeAnswer returns the nodes that run before t's answer goes out:
// everything t reaches when it answers at the end; with a Respond to
// Webhook node, what t reaches that leads to one (with their sub-nodes),
// since the answer goes out when the first one runs.
func beforeAnswer(g *Graph, t *n8nschema.Node, reach Reach) Reach {
	if AnswerMode(t) != "responseNode" {
		return reach
	}
	var responders []*n8nschema.Node
	for _, n := range reach.Nodes() {
		if n.Type == n8nschema.TypeRespondToWebhook && !n.Disabled {
			responders = append(responders, n)
		}
	}
	if len(responders) == 0 {
		return reach // nothing answers before the end
	}
	// Walk back from the responders along main connections, inside what t
	// reaches.
	before := g.newReach()
	for _, r := range responders {
		before.add(r)
	}
	for h := 0; h < len(before.nodes); h++ {
		for _, e := range g.In(before.nodes[h]) {
			if e.Type == ConnMain && reach.Has(e.From) {
				before.add(e.From)
			}
		}
	}
	for _, n := range before.nodes {
		for _, s := range g.SubNodes(n, "") {
			before.add(s)
		}
	}
	return before
}

// SlowSteps lists the slow work among the nodes in, in workflow order: model
// calls (attempts × calls per item × the per-attempt timeout), calls that
// n8n retries (attempts × timeout + waits) and Waits. A call that runs once
// is not counted: it is normally quick, and only an outage makes it slow.
// A model call with no client timeout has no bound: its answer may take
// as long as the provider takes.
func SlowSteps(s *Set, w *n8nschema.Workflow, in Reach) []SlowStep {
	return slowSteps(s, w, in, false)
}

// failingSlowSteps is SlowSteps while the calls fail, as they do in the
// outage of a dependency the run calls (RunsAtOnce, ClockTicksOf): each
// attempt ends at its client timeout at worst, an outage that hangs rather
// than answering with an error holding the run open that long, and the
// node's retries take at worst their timeouts and the waits between them
// (n8n's retries wait waitBetweenTries between tries: n8n-core
// dist/execution-engine/workflow-execute.js, processRunExecutionData's
// retry loop). A model call with no client timeout hangs at worst as long
// as its HTTP client lets it (n8nschema.Spec.HangMS: an SDK's default, n8n's
// request helper's 300 s, undici's); where no such bound is found, n8n's
// longest bound on a model request (n8nschema.UnknownHangMS, an
// assumption). What no outage bounds stays unbounded: a call retried with no bound,
// a model call repeated with no bound, a Wait for a webhook or a person (a
// pause for a person, scheduledRuns leaves to pausesForPerson).
func failingSlowSteps(s *Set, w *n8nschema.Workflow, in Reach) []SlowStep {
	return slowSteps(s, w, in, true)
}

func slowSteps(s *Set, w *n8nschema.Workflow, in Reach, failing bool) []SlowStep {
	// The nodes of in, in workflow order: read from in rather than from
	// every node of w, so that each of many webhooks pays for its own.
	g := s.Graph(w)
	at := make([]int, 0, in.Len())
	for _, n := range in.Nodes() {
		if i, known := g.index(n); known {
			at = append(at, i)
		}
	}
	slices.Sort(at)
	var out []SlowStep
	for _, i := range at {
		op := s.operationOf(g.Nodes[i])
		if op == nil || op.Node.Disabled || op.Refused || !op.Live {
			continue // a refused call answers at once; one no run makes, never
		}
		per, known := AttemptTimeoutMS(op)
		model := op.Paid || op.Spec.Role == n8nschema.RoleModel && n8nschema.RunsModel(op.Node)
		switch {
		case model:
			st := SlowStep{Node: op.Node, What: "a model call"}
			calls := max(op.CallsPerItem, 1)
			if failing {
				// An agent's or chain's later calls follow only an answer: while
				// the model fails, each attempt of the node ends at its first
				// call, however many rounds of tools it may take when it answers.
				calls = 1
			}
			if !known && failing {
				per, known = op.Spec.HangMS, true
				if per == 0 {
					per = n8nschema.UnknownHangMS
				}
			}
			switch {
			case op.Unbounded || op.CallsUnbounded && !failing || !known:
				st.Unbounded = true
			default:
				st.WorstMS = MulSat(MulSat(op.Attempts, calls), per)
				if failing {
					st.WorstMS = min(st.WorstMS+MulSat(op.OwnRetries()-1, RetryWaitMS(op.Node)), AttemptCap)
				}
			}
			out = append(out, st)
		case op.Attempts > 1 || op.Unbounded:
			st := SlowStep{Node: op.Node, What: fmt.Sprintf("%d tries of a call", op.Attempts)}
			if op.Unbounded {
				st.What, st.Unbounded = "a call retried", true
			} else {
				waits := (op.OwnRetries() - 1) * RetryWaitMS(op.Node)
				st.WorstMS = waits
				if known {
					st.WorstMS += MulSat(op.Attempts, per)
				}
			}
			out = append(out, st)
		}
	}
	for _, i := range at {
		n := g.Nodes[i]
		if n.Disabled || n.Type != n8nschema.TypeWait {
			continue
		}
		ms, bounded := WaitMS(n)
		st := SlowStep{Node: n, WorstMS: ms, Unbounded: !bounded, What: "a wait"}
		if !bounded {
			st.What = "a wait for a call or a person"
		}
		out = append(out, st)
	}
	return out
}

// WaitMS is how long a Wait node waits: amount × unit for a time interval
// (v1: 1 hour by default, v1.1 and later 5 seconds;
// nodes-base/nodes/Wait/Wait.node.ts), and false when it waits for a
// webhook, a form or a date, or an expression sets the amount.
func WaitMS(n *n8nschema.Node) (int, bool) {
	resume := n.Params().Get("resume").Str()
	if resume != "" && resume != "timeInterval" {
		return 0, false
	}
	amount, unit := 1.0, "hours"
	if n.TypeVersion >= 1.1 {
		amount, unit = 5, "seconds"
	}
	if v, ok := n.Param("amount"); ok {
		f, isNum := v.Num()
		if !isNum || f < 0 {
			return 0, false
		}
		amount = f
	}
	if v, ok := n.Param("unit"); ok && v.Str() != "" {
		unit = v.Str()
	}
	per := map[string]float64{"seconds": 1000, "minutes": 60_000, "hours": 3_600_000, "days": 86_400_000}[unit]
	if per == 0 {
		return 0, false
	}
	return int(min(amount*per, AttemptCap)), true
}

// Redelivery is what a Webhook trigger's sender does when the answer is
// late, and the work that makes it late.
type Redelivery struct {
	Trigger *n8nschema.Node
	// Key names the sender ("stripe"), "" when nothing tells who calls.
	Key      string
	Sender   Sender
	Evidence string
	// Slow is the slow work before the answer; WorstMS is the longest path
	// of it from the trigger (branches that exclude each other are not
	// added), cut by the workflow's executionTimeout.
	Slow      []SlowStep
	WorstMS   int
	Unbounded bool
	// Reach is what a run started at the trigger reaches.
	Reach Reach
}

// Late reports whether the answer may come after the sender's timeout
// (for an unknown sender, after the shortest known timeout, 3 s).
func (r Redelivery) Late() bool {
	limit := 3_000
	if r.Key != "" {
		limit = r.Sender.TimeoutMS
	}
	return len(r.Slow) > 0 && (r.Unbounded || r.WorstMS > limit)
}

// Factor is the chain layer the redelivery adds.
func (r Redelivery) Factor(w *n8nschema.Workflow) Factor {
	return Factor{Kind: KindRedelivery, Value: r.Sender.Deliveries(), Node: r.Trigger.Name, Via: r.Sender.Name,
		Workflow: w.Label(), Pos: r.Trigger.Pos, Source: w.Source}
}

// RedeliveryOf reads a Webhook trigger that answers late: who sends to it
// and what work comes before its answer. It returns false for a trigger
// that answers on receipt, or that a browser opens (GET).
func RedeliveryOf(s *Set, w *n8nschema.Workflow, t *n8nschema.Node) (Redelivery, bool) {
	return redeliveryOf(s, w, t, false)
}

// LateRedeliveryOf is RedeliveryOf for a trigger whose answer may be Late:
// false, without looking for the sender (RelayOf and SenderOf read the
// whole workflow), when no slow work comes before the answer.
func LateRedeliveryOf(s *Set, w *n8nschema.Workflow, t *n8nschema.Node) (Redelivery, bool) {
	return redeliveryOf(s, w, t, true)
}

func redeliveryOf(s *Set, w *n8nschema.Workflow, t *n8nschema.Node, lateOnly bool) (Redelivery, bool) {
	if t.Disabled || t.Type != n8nschema.TypeWebhook || !AnswersLate(t) || TriggerPace(t) == PacePerson {
		return Redelivery{}, false
	}
	g := s.Graph(w)
	r := Redelivery{Trigger: t, Reach: ReachFrom(g, t)}
	before := beforeAnswer(g, t, r.Reach)
	r.Slow = SlowSteps(s, w, before)
	if lateOnly && len(r.Slow) == 0 {
		return Redelivery{}, false
	}
	// A booking or form service the run reads the payload of names the
	// caller of this webhook; SenderOf reads the whole workflow.
	if rl := RelayOf(g, t); senders[rl.Key].Name != "" {
		r.Key, r.Evidence = rl.Key, rl.Evidence
	} else {
		r.Key, r.Evidence = SenderOf(g, t)
	}
	if r.Key != "" {
		r.Sender = senders[r.Key]
	}
	longest := 0
	for _, st := range r.Slow {
		if st.Unbounded {
			r.Unbounded = true
		} else {
			longest = max(longest, st.WorstMS)
		}
	}
	if worst, _, ok := RunWorstMS(s, w, before, []*n8nschema.Node{t}); ok {
		r.WorstMS = worst[0]
	}
	// n8n checks the timeout before it starts a node: a run stops within
	// the timeout and the step that is running then.
	if to := w.Settings.ExecutionTimeout; to > 0 {
		r.WorstMS = min(r.WorstMS, MulSat(int(to), 1000)+longest)
	}
	return r, true
}
