package analyze

import (
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// BehindClaim returns the nodes that run only when a claim succeeds: an
// HTTP Request POST that names one record from the item (in its URL or
// body), answers every status as data (options.response.response
// neverError with fullResponse, HttpRequestV3.node.js: the output then
// carries statusCode), and whose next node is an If (v2 and later) with
// one condition on that status code, directly or through a Merge that
// combines the answer with the request's fields (statusReaders). The store answers a second claim of
// the same record with a refusal (the state was already moved, or the
// key was taken: 409), so a redelivered or repeated run takes the other
// branch, and what the success branch does happens once. The claim itself
// is in the set: its repeat is refused, not duplicated. A node the other
// branch also reaches is not.
func BehindClaim(g *Graph, reach Reach) map[*n8nschema.Node]bool {
	out := map[*n8nschema.Node]bool{}
	for _, c := range g.Nodes {
		if !reach.Has(c) || c.Disabled || !claimRequest(c) {
			continue
		}
		for _, e := range statusReaders(g, c) {
			ok, ok1 := statusTest(e.To)
			if e.To.Type != n8nschema.TypeIf || !ok1 {
				continue
			}
			won, lost := reachFromOutput(g, e.To, ok), reachFromOutput(g, e.To, 1-ok)
			out[c] = true
			for n := range won {
				if !lost[n] {
					out[n] = true
				}
			}
		}
	}
	return out
}

// statusReaders returns the edges into the nodes that read the claim's
// answer: its next nodes, and the next nodes of a Merge that combines
// the answer with the request's own fields (the claim's statusCode stays
// in each combined item) when no other input of it carries a status.
func statusReaders(g *Graph, c *n8nschema.Node) []*Edge {
	var out []*Edge
	for _, e := range g.OutOfType(c, ConnMain) {
		if e.Error {
			continue
		}
		if !combines(e.To) {
			out = append(out, e)
			continue
		}
		other := false
		for _, in := range g.InOfType(e.To, ConnMain) {
			other = other || in.From != c && carriesStatus(in.From)
		}
		if other {
			continue
		}
		for _, m := range g.OutOfType(e.To, ConnMain) {
			if !m.Error {
				out = append(out, m)
			}
		}
	}
	return out
}

// combines reports a Merge that joins the fields of its inputs into one
// item (MergeV3 and V2 mode "combine"; V1 "mergeByIndex", "mergeByKey",
// "multiplex"), so a field of either input reaches the node after it.
// Append and choose-branch modes are not read: their items come from
// one input or the other.
func combines(n *n8nschema.Node) bool {
	if n.Type != "n8n-nodes-base.merge" {
		return false
	}
	switch n.Params().Get("mode").Str() {
	case "combine", "mergeByIndex", "mergeByKey", "multiplex":
		return true
	}
	return false
}

// carriesStatus reports a node whose items may carry a statusCode of
// their own: an HTTP Request that returns the full response.
func carriesStatus(n *n8nschema.Node) bool {
	return n8nschema.IsHTTPRequest(n.Type) && n.Params().Get("options.response.response.fullResponse").True()
}

// claimRequest reports an HTTP POST that names one record from the item
// and reads every status as data.
func claimRequest(n *n8nschema.Node) bool {
	if !n8nschema.IsHTTPRequest(n.Type) || n8nschema.HTTPMethod(n) != "POST" {
		return false
	}
	p := n.Params()
	if !p.Get("options.response.response.neverError").True() || !p.Get("options.response.response.fullResponse").True() {
		return false
	}
	u := strings.SplitN(p.Get("url").Str(), "?", 2)[0]
	if id, ok := actionPathID(strings.TrimRight(u, "/ ")); ok && strings.Contains(id, "{{") {
		return true // …/approvals/{{ $json.id }}/resolve
	}
	named := false
	for _, e := range p.Get("bodyParameters.parameters").ElemsSeq() {
		named = named || idKeyRE.MatchString(e.Get("name").Str()) && readsItem(e.Get("value").Str())
	}
	return named || idInJSONBodyRE.MatchString(p.Get("jsonBody").Str())
}

// idInJSONBodyRE matches a JSON body field named for an id whose value
// reads the item: "id": "{{ $json.body.event_id }}".
var idInJSONBodyRE = lazyregexp.New(`"(id|[A-Za-z]+(Id|ID|_id))"\s*:\s*"?\{\{[^}]*\$json`)

// statusTest reads an If whose only condition compares the status code
// with a number, and returns the output a successful claim takes: 0 when
// the condition holds on success (statusCode < 400, == 200), 1 when it
// holds on refusal (== 409, >= 400).
func statusTest(n *n8nschema.Node) (int, bool) {
	if n.Type != n8nschema.TypeIf || n.TypeVersion < 2 {
		return 0, false
	}
	conds := n.Params().Get("conditions.conditions").Elems()
	if len(conds) != 1 {
		return 0, false
	}
	c := conds[0]
	left := strings.ReplaceAll(c.Get("leftValue").Str(), " ", "")
	if !strings.Contains(left, "$json.statusCode") && !strings.Contains(left, `$json["statusCode"]`) {
		return 0, false
	}
	r := c.Get("rightValue")
	v, ok := r.Num()
	if !ok {
		if v, ok = parseNum(r.Str()); !ok {
			return 0, false
		}
	}
	success := func(code float64) bool { return code >= 200 && code < 300 }
	// The condition's truth on a success (201) and on a refusal (409).
	var onSuccess, onRefusal bool
	switch c.Get("operator.operation").Str() {
	case "lt":
		onSuccess, onRefusal = 201 < v, 409 < v
	case "lte":
		onSuccess, onRefusal = 201 <= v, 409 <= v
	case "gt":
		onSuccess, onRefusal = 201 > v, 409 > v
	case "gte":
		onSuccess, onRefusal = 201 >= v, 409 >= v
	case "equals":
		if !success(v) && v != 409 {
			return 0, false
		}
		onSuccess, onRefusal = success(v), v == 409
	case "notEquals":
		if v != 409 {
			return 0, false
		}
		onSuccess, onRefusal = true, false
	default:
		return 0, false
	}
	switch {
	case onSuccess && !onRefusal:
		return 0, true
	case !onSuccess && onRefusal:
		return 1, true
	}
	return 0, false
}

func parseNum(s string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(s, "=")), 64)
	return f, err == nil
}

// reachFromOutput returns the nodes reached along main connections from
// one output of n.
func reachFromOutput(g *Graph, n *n8nschema.Node, output int) map[*n8nschema.Node]bool {
	out := map[*n8nschema.Node]bool{}
	var queue []*n8nschema.Node
	for _, e := range g.OutOfType(n, ConnMain) {
		if !e.Error && e.Output == output && !out[e.To] {
			out[e.To] = true
			queue = append(queue, e.To)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range g.OutOfType(u, ConnMain) {
			if !out[e.To] {
				out[e.To] = true
				queue = append(queue, e.To)
			}
		}
		for _, sub := range g.SubNodes(u, "") {
			out[sub] = true
		}
	}
	return out
}
