package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A service that sends events (Stripe, Shopify, Slack's Events API, Meta,
// Calendly, Typeform, Tally) reads only the answer's status: its body is
// thrown away. A caller that is answered with what the run found or made
// (a model's answer, a record looked up) reads the body: it is a front
// end, an app or an agent's tool that waits for that answer, and a
// request it sends is a question, not an event it delivers again.

// AnswersWithResult reports whether webhook t answers its caller with a
// result of the run: a Respond to Webhook node its runs reach answers with
// an item (respondWith firstIncomingItem, the default, allIncomingItems or
// binary) or a body whose expressions read an item (json, text), or, set
// to answer when the last node finishes (lastNode, responseData other than
// noData), every last node of its runs answers; and that item comes from
// a model call, an agent or a read, passed on by nodes that shape items
// (nodes-base/nodes/RespondToWebhook/RespondToWebhook.node.ts;
// packages/cli/src/webhooks/webhook-last-node-response-extractor.ts). An
// item a write returns (a message's id, a charge) is an acknowledgement,
// and an item the request brought is an echo: neither is a result.
func AnswersWithResult(s *Set, w *n8nschema.Workflow, t *n8nschema.Node, reach Reach) bool {
	if t.Type != n8nschema.TypeWebhook {
		return false
	}
	g := s.Graph(w)
	res := &results{s: s, g: g, t: t, reach: reach, memo: map[*n8nschema.Node]uint8{}}
	switch AnswerMode(t) {
	case "responseNode":
		for _, n := range g.Nodes { // in workflow order, so that a loop reads the same each run
			if !reach.Has(n) || n.Disabled || n.Type != n8nschema.TypeRespondToWebhook {
				continue
			}
			for _, src := range answerSources(g, n) {
				if res.of(src) {
					return true
				}
			}
		}
	case "lastNode":
		if t.Params().Get("responseData").Str() == "noData" || t.Params().Get("options").Get("noResponseBody").True() {
			return false
		}
		last := 0
		for _, n := range g.Nodes {
			if !reach.Has(n) || n.Disabled || n == t || n8nschema.Lookup(n.Type).Role == n8nschema.RoleSubNode || !mainStep(g, n, reach) {
				continue
			}
			if !endsRun(g, n, reach) {
				continue
			}
			if !res.of(n) {
				return false
			}
			last++
		}
		return last > 0
	}
	return false
}

// mainStep reports whether n runs on t's main path: an item reaches it
// through a main connection from a node the run reaches.
func mainStep(g *Graph, n *n8nschema.Node, reach Reach) bool {
	for _, e := range g.In(n) {
		if e.Type == ConnMain && reach.Has(e.From) {
			return true
		}
	}
	return false
}

// endsRun reports whether no enabled node follows n on a main connection.
func endsRun(g *Graph, n *n8nschema.Node, reach Reach) bool {
	for _, e := range g.OutOfType(n, ConnMain) {
		if reach.Has(e.To) && !e.To.Disabled {
			return false
		}
	}
	return true
}

// answerSources are the nodes whose items Respond to Webhook node r
// answers with (AnswersWithResult); nil for a constant answer.
func answerSources(g *Graph, r *n8nschema.Node) []*n8nschema.Node {
	p := r.Params()
	switch p.Get("respondWith").Str() {
	case "", "firstIncomingItem", "allIncomingItems", "binary":
		return itemFeeders(g, r)
	case "json", "text":
		return readSources(g, r, p.Get("responseBody").Str())
	}
	return nil // noData, a redirect, a token
}

// readSources are the nodes whose items text x reads: the inputs of n
// when it reads its own item ($json, $input, $item(0).$json, items in
// code), and the nodes it names ($('Agent'), $node["Lookup"]).
func readSources(g *Graph, n *n8nschema.Node, x string) []*n8nschema.Node {
	var out []*n8nschema.Node
	if strings.Contains(x, "$json") || strings.Contains(x, "$input") || strings.Contains(x, "_input") ||
		n.Type == n8nschema.TypeCode && strings.Contains(x, "items") {
		out = itemFeeders(g, n)
	}
	for _, m := range nodeRefRE.FindAllStringSubmatch(x, -1) {
		if src := g.Node(m[1] + m[2]); src != nil {
			out = append(out, src)
		}
	}
	return out
}

// itemFeeders are the nodes that feed n an item on a main connection (an
// error output's item is a failure, not a result).
func itemFeeders(g *Graph, n *n8nschema.Node) []*n8nschema.Node {
	var out []*n8nschema.Node
	for _, e := range g.In(n) {
		if e.Type == ConnMain && !e.Error {
			out = append(out, e.From)
		}
	}
	return out
}

// results tells which nodes output a result in webhook t's runs, each
// node asked once (memo: 1 being asked, 2 no, 3 yes).
type results struct {
	s     *Set
	g     *Graph
	t     *n8nschema.Node
	reach Reach
	memo  map[*n8nschema.Node]uint8
}

// of reports whether the item node n outputs is a result: n is a model
// call, an agent or a read, or a node that shapes items (flow control, a
// Set or Code node) makes it from such a node's item. A write's item is
// its acknowledgement; the webhook's own item is the request.
func (r *results) of(n *n8nschema.Node) bool {
	if n == nil || !r.reach.Has(n) || n.Disabled || n == r.t {
		return false
	}
	switch r.memo[n] {
	case 1, 2:
		return false // a loop back to a node being asked adds nothing
	case 3:
		return true
	}
	r.memo[n] = 1
	yes := false
	sp := n8nschema.Lookup(n.Type)
	switch sp.Role {
	case n8nschema.RoleAgent:
		yes = true
	case n8nschema.RoleModel, n8nschema.RoleExternal:
		if op := r.s.operationOf(n); op != nil && op.Live && !op.Refused {
			yes = op.Paid || sp.Role == n8nschema.RoleModel && n8nschema.RunsModel(n) || !op.Write
		}
	case n8nschema.RoleFlow, n8nschema.RoleInternal:
		var from []*n8nschema.Node
		switch n.Type {
		case n8nschema.TypeSet:
			if keepsItems(n) {
				from = itemFeeders(r.g, n)
			}
			from = append(from, readSources(r.g, n, n.Params().Raw())...)
		case n8nschema.TypeCode:
			from = readSources(r.g, n, codeOf(n))
		default:
			from = itemFeeders(r.g, n)
		}
		for _, m := range from {
			if r.of(m) {
				yes = true
				break
			}
		}
	}
	r.memo[n] = 2
	if yes {
		r.memo[n] = 3
	}
	return yes
}
