package analyze

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A booking or form service calls a Webhook once for one person's action:
// Calendly when someone books or cancels (invitee.created,
// invitee.canceled), Cal.com on BOOKING_CREATED and the like, Typeform,
// Tally, Jotform and Wufoo when someone submits a form. Such calls come at
// people's pace, one execution per action, and do not fail in lockstep;
// but the service, not the person, is the caller: it sends the event again
// when no answer comes in time, as its documentation says
// (docs/n8n-facts.md, "Senders that redeliver").

// Relay is the service that relays people's actions to a Webhook.
type Relay struct {
	Key  string // "calendly"; a key of senders when the service's redelivery is known
	Name string // "Calendly"
	// Evidence says what the run reads that tells the service.
	Evidence string
}

// relayServices are the booking and form services whose webhook payloads
// are documented (docs/n8n-facts.md): request body paths only their
// payload has, the event names they send (matched as quoted values, case
// kept) and their signature header.
var relayServices = []struct {
	key, name string
	paths     []string
	events    []string
	header    string
}{
	// Calendly: {event: "invitee.created", payload: {email, name,
	// scheduled_event, questions_and_answers, …}}; the legacy v1 payload
	// nests the person under payload.invitee.
	{key: "calendly", name: "Calendly", paths: []string{"payload.invitee", "payload.scheduled_event", "payload.questions_and_answers"},
		events: []string{"invitee.created", "invitee.canceled", "routing_form_submission.created"}, header: "calendly-webhook-signature"},
	// Cal.com: {triggerEvent: "BOOKING_CREATED", payload: {attendees, organizer, …}}.
	{key: "calcom", name: "Cal.com", paths: []string{"payload.attendees"},
		events: []string{"BOOKING_CREATED", "BOOKING_RESCHEDULED", "BOOKING_CANCELLED", "BOOKING_REQUESTED"}, header: "x-cal-signature-256"},
	// Typeform: {event_type: "form_response", form_response: {answers, …}}.
	{key: "typeform", name: "Typeform", paths: []string{"form_response"}, header: "typeform-signature"},
	// Tally: {eventType: "FORM_RESPONSE", data: {responseId, fields, …}}.
	{key: "tally", name: "Tally", paths: []string{"data.fields", "data.responseId", "data.submissionId"},
		events: []string{"FORM_RESPONSE"}, header: "tally-signature"},
	// Jotform: multipart fields formID, submissionID and rawRequest (the
	// answers as a JSON string).
	{key: "jotform", name: "Jotform", paths: []string{"rawRequest", "submissionID"}},
	// Wufoo: form-encoded Field1…FieldN, with HandshakeKey (the key the
	// subscriber chose) and, with metadata, FieldStructure and FormStructure.
	{key: "wufoo", name: "Wufoo", paths: []string{"HandshakeKey", "FieldStructure", "FormStructure"}},
}

// RelayOf tells the booking or form service that calls a Webhook, from
// what the run the webhook starts reads of the request (its payload's
// paths, the event names it compares, the signature header it checks), or
// the zero Relay when nothing does.
func RelayOf(g *Graph, t *n8nschema.Node) Relay {
	if g == nil || t.Type != n8nschema.TypeWebhook {
		return Relay{}
	}
	g.relayOnce.Do(func() {
		g.relayBy = map[*n8nschema.Node]Relay{}
		for _, tr := range g.Triggers() {
			if r := g.sameFacts(tr); r != tr {
				g.relayBy[tr] = g.relayBy[r]
			} else if tr.Type == n8nschema.TypeWebhook {
				g.relayBy[tr] = relayOf(g, g.walk(false, []*n8nschema.Node{tr}))
			}
		}
	})
	if r, ok := g.relayBy[t]; ok {
		return r
	}
	return relayOf(g, g.walk(false, []*n8nschema.Node{t})) // not one of the graph's triggers
}

// relayOf reads the nodes reached (in workflow order, so that the evidence
// does not depend on map order) for each service's signals and returns the
// first service of the table that one of them names.
func relayOf(g *Graph, reached Reach) Relay {
	found := make([]string, len(relayServices))
	// first is the first service of the table found so far: no later one
	// can win, so none is looked for.
	first := len(relayServices)
	for j, n := range g.Nodes {
		if first == 0 {
			break
		}
		if !reached.Has(n) || n.Disabled || !mayRelay(n.Params().Raw()) {
			continue
		}
		for _, x := range g.paths(j) {
			reads := bodyReadPaths(x) // once per string, for every service
			for i := 0; i < first; i++ {
				if found[i] == "" {
					s := relayServices[i]
					if found[i] = relaySignal(x, reads, s.paths, s.events, s.header); found[i] != "" {
						first = i
					}
				}
			}
		}
	}
	for i, s := range relayServices {
		if found[i] != "" {
			return Relay{Key: s.key, Name: s.name, Evidence: found[i]}
		}
	}
	return Relay{}
}

// bodyReadPaths returns the request body paths x reads, written dotted
// (.a.b), in the order x reads them.
func bodyReadPaths(x string) []string {
	if !strings.Contains(x, "body") {
		return nil
	}
	var reads []string
	for _, m := range bodyPathRE.FindAllStringSubmatch(x, -1) {
		reads = append(reads, dotted(m[1]))
	}
	return reads
}

// mayRelay reports whether a node's parameters (their JSON text) may hold
// a service's signal: a body path, an event name or a signature header
// (every header of relayServices names a signature). An escape (\u) may
// spell any of them, so it may.
func mayRelay(raw string) bool {
	if strings.Contains(raw, "body") || strings.Contains(raw, `\u`) || ascii.ContainsFold(raw, "signature") {
		return true
	}
	for _, s := range relayServices {
		for _, ev := range s.events {
			if strings.Contains(raw, ev) {
				return true
			}
		}
	}
	return false
}

// relaySignal returns what x reads of a service's request: a body path of
// its payload (reads: bodyReadPaths(x)), an event name it sends, or its
// signature header (in any case); "" when none.
func relaySignal(x string, reads, paths, events []string, header string) string {
	for _, path := range reads {
		for _, p := range paths {
			if rest, ok := strings.CutPrefix(path, "."+p); ok && (rest == "" || rest[0] == '.') {
				return fmt.Sprintf("it reads %q", "body."+p)
			}
		}
	}
	for _, ev := range events {
		if strings.Contains(x, ev) && quotedValue(x, ev) {
			return fmt.Sprintf("it tests for the event %q", ev)
		}
	}
	if header != "" && ascii.ContainsFold(x, header) {
		return fmt.Sprintf("it reads %q", header)
	}
	return ""
}

// quotedValue reports whether x is v (a value an If or Switch compares) or
// holds it between quotes.
func quotedValue(x, v string) bool {
	if x == v || x == "="+v {
		return true
	}
	for _, q := range []string{`'`, `"`, "`"} {
		if strings.Contains(x, q+v+q) {
			return true
		}
	}
	return false
}

// dotted writes a path read as .a["b"] or ['a'].b as .a.b, without spaces.
func dotted(path string) string { return dottedReplacer.Replace(path) }

var dottedReplacer = strings.NewReplacer(" ", "", "\t", "", "\n", "", `["`, ".", `['`, ".", `"]`, "", `']`, "")
