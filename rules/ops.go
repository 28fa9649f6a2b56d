package rules

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers shared by the rules about what retries break (RS2xx–RS5xx).

// liveOps returns the operations of the pass's workflow whose node runs.
func liveOps(pass *analyze.Pass) []*analyze.Operation {
	g := pass.Set.Graph(pass.Workflow)
	var out []*analyze.Operation
	for _, op := range pass.Set.OperationsOf(pass.Workflow) {
		if op.Node.Disabled || !g.Reachable(op.Node) {
			continue
		}
		out = append(out, op)
	}
	return out
}

// retried reports whether any layer sends the operation more than once.
func retried(op *analyze.Operation) bool { return op.Unbounded || op.Attempts > 1 }

// attemptsText is "up to 5 times" or "without bound".
func attemptsText(op *analyze.Operation) string {
	if op.Unbounded {
		return "without bound"
	}
	return "up to " + strconv.Itoa(op.Attempts) + " times"
}

// factorOf returns the first factor of a kind in the chain.
func factorOf(op *analyze.Operation, kinds ...string) (analyze.Factor, bool) {
	for _, f := range op.Factors {
		for _, k := range kinds {
			if f.Kind == k {
				return f, true
			}
		}
	}
	return analyze.Factor{}, false
}

// unboundedBy names what makes an operation unbounded:
// `a self-trigger through "Restart"`, `an unguarded loop through "Retry"`.
func unboundedBy(op *analyze.Operation) string {
	for _, f := range op.Factors {
		if !f.Unbounded {
			continue
		}
		switch f.Kind {
		case analyze.KindSelfTrigger:
			return fmt.Sprintf("the workflow re-starts itself through %q", f.Node)
		case analyze.KindLoop:
			return fmt.Sprintf("an unguarded loop back through %q", f.Node)
		}
		return fmt.Sprintf("%s through %q", strings.ReplaceAll(f.Kind, "-", " "), f.Node)
	}
	if op.CallsUnbounded {
		return "its calls per item have no bound"
	}
	return "its attempts have no bound"
}

// crossExecution reports whether an operation's unbounded factor spans
// executions (a self-trigger or error-workflow cycle), which a workflow's
// executionTimeout cannot stop: every trip is a new execution.
func crossExecution(op *analyze.Operation) bool {
	for _, f := range op.Factors {
		if f.Unbounded && (f.Kind == analyze.KindSelfTrigger || f.Kind == analyze.KindErrorWorkflow) {
			return true
		}
	}
	return false
}

// ownRetries is how many times n8n's own retry runs the operation's node
// (main loop or tool call; 1 when it does not retry): the fixed-wait layer
// that re-sends every item of the batch. It reads the attempt chain, so a
// retryOnFail that n8n ignores (on a model sub-node) counts for nothing.
func ownRetries(op *analyze.Operation) int {
	for _, f := range op.Factors {
		if (f.Kind == analyze.KindNodeRetry || f.Kind == analyze.KindToolRetry) && f.Node == op.Node.Name &&
			f.Workflow == op.Workflow.Label() && !f.Unbounded {
			return max(f.Value, 1)
		}
	}
	return 1
}

// usd formats a dollar figure with enough digits to be read.
func usd(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("$%.0f", x)
	case x >= 1:
		return fmt.Sprintf("$%.2f", x)
	case x >= 0.01:
		return fmt.Sprintf("$%.3f", x)
	}
	return fmt.Sprintf("$%.4f", x)
}

// modelText names a paid call's model for messages: "gpt-4o", or "an
// unknown model".
func modelText(op *analyze.Operation) string {
	if op.Model == "" {
		return "model unknown"
	}
	return n8nschema.NormalizeModel(op.Model)
}

// providers are the names a spend cap may use for an operation.
func providers(op *analyze.Operation) []string {
	out := []string{op.Spec.Provider, op.Dependency}
	if p, ok := n8nschema.LookupPrice(op.Model); ok {
		out = append(out, p.Provider)
	}
	return out
}

// conf maps a catalog confidence to a finding's.
func conf(c n8nschema.Confidence) analyze.Confidence {
	switch c {
	case n8nschema.ConfHigh:
		return analyze.High
	case n8nschema.ConfMedium:
		return analyze.Medium
	case n8nschema.ConfLow:
		return analyze.Low
	}
	return 0
}

// selfWebhookCall reports whether a node is a call into n8n itself (a
// webhook of this instance or of a workflow in the set): what it re-sends
// is an execution, and RS102/RS101 speak for it.
func selfWebhookCall(pass *analyze.Pass, n *n8nschema.Node) bool {
	for _, c := range pass.Set.Calls {
		if c.Node == n && c.Kind == analyze.CallWebhook && (c.Resolved() || c.Instance) {
			return true
		}
	}
	return false
}

// plural picks the word for a count.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// urlVerbs splits the last path segment of an HTTP Request node's URL into
// lower-case words ("run-sync-get-dataset-items" → run sync get dataset
// items; "listRecords" → list records); nil for other nodes or no URL.
func urlVerbs(n *n8nschema.Node) []string {
	switch strings.TrimSuffix(n.Type, "Tool") {
	case "n8n-nodes-base.httpRequest", "@n8n/n8n-nodes-langchain.toolHttpRequest":
	default:
		return nil
	}
	v, _ := n.Param("url")
	u := v.Str()
	if i := strings.LastIndex(u, "}}"); i >= 0 {
		// An expression: read the literal text after it ("={{ $json.base
		// }}/points/delete"), or the last string literal it ends with
		// ("={{ … + '/searchAnalytics/query' }}"); else nothing is known.
		if tail := u[i+2:]; strings.TrimSpace(tail) != "" {
			u = tail
		} else {
			inner := strings.TrimSpace(u[:i])
			if inner == "" || !strings.ContainsRune("'\"`", rune(inner[len(inner)-1])) {
				return nil
			}
			q := inner[len(inner)-1]
			inner = inner[:len(inner)-1]
			u = inner[strings.LastIndexByte(inner, q)+1:]
		}
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	u = strings.TrimRight(u, "/ ")
	if i := strings.LastIndex(u, "/"); i >= 0 {
		u = u[i+1:]
	}
	if strings.ContainsAny(u, "{}$") {
		return nil
	}
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range u {
		switch {
		case r >= 'A' && r <= 'Z':
			flush()
			cur = append(cur, r)
		case r >= 'a' && r <= 'z':
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return words
}

// readVerbs and changeVerbs are the words of an endpoint name that say
// whether a POST reads or changes state.
var (
	readVerbs = map[string]bool{"query": true, "search": true, "get": true, "list": true, "find": true,
		"lookup": true, "fetch": true, "retrieve": true, "read": true, "count": true, "scroll": true, "scrape": true}
	changeVerbs = map[string]bool{"create": true, "update": true, "delete": true, "insert": true, "upsert": true,
		"send": true, "post": true, "publish": true, "upload": true, "add": true, "set": true, "write": true,
		"remove": true, "patch": true, "put": true, "charge": true, "pay": true, "cancel": true, "save": true}
)

// readingPOST reports whether an HTTP POST goes to an endpoint named for a
// read: APIs that take their query in a JSON body are called with POST
// (Search Console searchAnalytics/query, Qdrant points/scroll, Airtable
// listRecords, Apify run-sync-get-dataset-items, Firecrawl scrape), and the
// endpoints the catalog knows answer rather than store (a local model's
// /api/chat, a WebDriver command).
func readingPOST(n *n8nschema.Node) bool {
	if n8nschema.HTTPMethod(n) != "POST" {
		return false
	}
	if dup, _, _ := n8nschema.DuplicatingWrite(n); !dup {
		return true // a search, model, conversion or WebDriver endpoint (effects.go rpcPathWords)
	}
	read := false
	for _, w := range urlVerbs(n) {
		if changeVerbs[w] {
			return false
		}
		read = read || readVerbs[w]
	}
	return read
}

// cleanupURL reports whether an HTTP call goes to an endpoint named for a
// delete ("…/points/delete", "…/remove"): its failure ("already gone") is
// usually meant to be ignored, as for app nodes' delete operations.
func cleanupURL(n *n8nschema.Node) bool {
	for _, w := range urlVerbs(n) {
		switch w {
		case "delete", "remove", "clear", "purge", "trash", "archive":
			return true
		}
	}
	return false
}

// reachedFrom returns the nodes a trigger's executions run: those reachable
// from it along main connections, and the sub-nodes (models, tools) of
// those, recursively.
func reachedFrom(g *analyze.Graph, start *n8nschema.Node) map[*n8nschema.Node]bool {
	seen := map[*n8nschema.Node]bool{start: true}
	queue := []*n8nschema.Node{start}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range g.Out(u) {
			if e.Type == analyze.ConnMain && !seen[e.To] {
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
		for _, s := range g.SubNodes(u, "") {
			if !seen[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		}
	}
	return seen
}

// unboundedLoopOf returns the loop whose lack of a guard makes an
// operation unbounded, when that loop is the only thing without a bound
// (no self-trigger, no unlimited pagination or agent): nil otherwise.
func unboundedLoopOf(pass *analyze.Pass, op *analyze.Operation) *analyze.Loop {
	if op.CallsUnbounded {
		return nil
	}
	var loop *analyze.Factor
	for i, f := range op.Factors {
		if !f.Unbounded {
			continue
		}
		if f.Kind != analyze.KindLoop || loop != nil {
			return nil
		}
		loop = &op.Factors[i]
	}
	if loop == nil {
		return nil
	}
	g := pass.Set.Graph(pass.Workflow)
	back := g.Node(loop.Node)
	if back == nil {
		return nil
	}
	return g.LoopOf(back)
}

// loopStepRE matches a step of one in an expression: n + 1, n - 1, n += 1.
var loopStepRE = regexp.MustCompile(`\+\+|--|[+-]=?\s*1\b`)

// throwsOnCounter reports whether a loop is bounded by a counter that a
// Code node checks by throwing: a Set node of the loop steps a field by
// one (index + 1), and a Code node of the loop, or a Code sub-node of one
// of its nodes (a model selector, a custom tool), reads that field and
// throws. The throw ends the loop: the execution stops, or the error
// output leads out of it. This is the "try the next model" fallback: the
// index runs off the end of the list (analyze.IsGuard covers a Code node
// that throws on $runIndex).
func throwsOnCounter(g *analyze.Graph, l *analyze.Loop) bool {
	in := map[*n8nschema.Node]bool{}
	for _, n := range l.Nodes {
		in[n] = true
	}
	var counters []string
	for _, n := range l.Nodes {
		if n.Type != "n8n-nodes-base.set" || n.Disabled {
			continue
		}
		n.Params().Walk(func(rel string, v n8nschema.Value) {
			if !strings.HasSuffix(rel, ".value") || !strings.Contains(v.Str(), "{{") || !loopStepRE.MatchString(v.Str()) {
				return
			}
			base := strings.TrimSuffix(rel, "value")
			if name := n.Params().Get(base + "name").Str(); name != "" {
				counters = append(counters, name)
			}
		})
	}
	if len(counters) == 0 {
		return false
	}
	throwsOn := func(code *n8nschema.Node) bool {
		src := ""
		for _, k := range []string{"jsCode", "functionCode", "pythonCode", "code.supplyData.code", "code.execute.code"} {
			if v, ok := code.Param(k); ok {
				src += v.Str()
			}
		}
		if !strings.Contains(src, "throw") && !strings.Contains(src, "raise") {
			return false
		}
		for _, c := range counters {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(c) + `\b`).MatchString(src) {
				return true
			}
		}
		return false
	}
	for _, n := range l.Nodes {
		if n.Disabled {
			continue
		}
		cands := append([]*n8nschema.Node{n}, g.SubNodes(n, "")...)
		for _, c := range cands {
			switch c.Type {
			case "n8n-nodes-base.code", "n8n-nodes-base.function", "n8n-nodes-base.functionItem",
				"@n8n/n8n-nodes-langchain.code", "@n8n/n8n-nodes-langchain.toolCode":
			default:
				continue
			}
			if !throwsOn(c) {
				continue
			}
			// The throw must leave the loop: the node stops the execution,
			// or its error output leads out.
			switch n.OnError {
			case "continueRegularOutput":
				continue
			case "continueErrorOutput":
				out := false
				for _, e := range g.ErrorOutputs(n) {
					out = out || !in[e.To]
				}
				if !out {
					continue
				}
			}
			return true
		}
	}
	return false
}

// countedLoop reports whether a counter the analysis does not see bounds a
// loop: one checked by a throwing Code node, a number stepped by a constant
// and compared with a limit, or a work list drained until it is empty.
func countedLoop(g *analyze.Graph, l *analyze.Loop) bool {
	return throwsOnCounter(g, l) || steppedToLimit(l) || drainsList(l)
}

// conditionsOf calls f with every condition of the If, Switch and Filter
// nodes of a loop (v2 conditions: leftValue, operator, rightValue).
func conditionsOf(l *analyze.Loop, f func(left, right, opType, op string)) {
	for _, n := range l.Nodes {
		switch n.Type {
		case "n8n-nodes-base.if", "n8n-nodes-base.switch", "n8n-nodes-base.filter":
		default:
			continue
		}
		if n.Disabled {
			continue
		}
		p := n.Params()
		p.Walk(func(rel string, v n8nschema.Value) {
			if !strings.HasSuffix(rel, "operator.operation") {
				return
			}
			base := strings.TrimSuffix(rel, "operator.operation")
			f(p.Get(base+"leftValue").Str(), p.Get(base+"rightValue").Str(), p.Get(base+"operator.type").Str(), v.Str())
		})
	}
}

// stepByRE matches a field stepped by a constant: limit + 5, left - 1.
var stepByRE = regexp.MustCompile(`([A-Za-z_]\w*)\s*[+-]\s*\d+(\.\d+)?\s*\}\}`)

// steppedToLimit reports whether a Set node of the loop steps a number by a
// constant ({{ $json.limitKNN + 5 }}) and a condition of the loop compares
// that number with a fixed limit (limitKNN <= 100): the loop ends when the
// number passes it (analyze's guards see steps of one).
func steppedToLimit(l *analyze.Loop) bool {
	stepped := map[string]bool{}
	for _, n := range l.Nodes {
		if n.Type != "n8n-nodes-base.set" || n.Disabled {
			continue
		}
		n.Params().Walk(func(rel string, v n8nschema.Value) {
			if !strings.HasSuffix(rel, ".value") {
				return
			}
			for _, m := range stepByRE.FindAllStringSubmatch(v.Str(), -1) {
				stepped[m[1]] = true
			}
		})
	}
	if len(stepped) == 0 {
		return false
	}
	found := false
	conditionsOf(l, func(left, right, typ, op string) {
		if found || typ != "number" {
			return
		}
		switch op {
		case "lt", "lte", "gt", "gte":
		default:
			return
		}
		for _, pair := range [][2]string{{left, right}, {right, left}} {
			if _, err := strconv.ParseFloat(strings.TrimPrefix(pair[1], "="), 64); err != nil {
				continue
			}
			for _, w := range identWords(pair[0]) {
				if stepped[w] {
					found = true
				}
			}
		}
	})
	return found
}

// drainRE matches a work list consumed by one element: list.shift(),
// list.pop(), list = list.slice(1).
var drainRE = regexp.MustCompile(`([A-Za-z_]\w*)\s*\.\s*(shift|pop)\s*\(\s*\)|([A-Za-z_]\w*)\s*\.\s*slice\s*\(\s*1\s*\)`)

// drainsList reports whether a Code node of the loop takes one element off
// a list every trip (desired_path.shift()) and a condition of the loop tests
// that list for emptiness: the loop ends when the list runs out.
func drainsList(l *analyze.Loop) bool {
	drained := map[string]bool{}
	for _, n := range l.Nodes {
		switch n.Type {
		case "n8n-nodes-base.code", "n8n-nodes-base.function", "n8n-nodes-base.functionItem":
		default:
			continue
		}
		if n.Disabled {
			continue
		}
		for _, k := range []string{"jsCode", "functionCode"} {
			v, _ := n.Param(k)
			for _, m := range drainRE.FindAllStringSubmatch(v.Str(), -1) {
				drained[m[1]+m[3]] = true
			}
		}
	}
	if len(drained) == 0 {
		return false
	}
	found := false
	conditionsOf(l, func(left, right, typ, op string) {
		if found {
			return
		}
		switch op {
		case "empty", "notEmpty", "lengthEquals", "lengthLt", "lengthLte", "lengthGt", "lengthGte":
		default:
			if typ != "number" || !strings.Contains(left+right, ".length") {
				return
			}
		}
		for _, w := range identWords(left + " " + right) {
			if drained[w] {
				found = true
			}
		}
	})
	return found
}

// identWords splits an expression into identifiers.
func identWords(s string) []string { return identRE.FindAllString(s, -1) }

var identRE = regexp.MustCompile(`[A-Za-z_]\w*`)

// pacedLoop reports whether every trip through a loop waits an hour or
// more in a Wait node (resume after a time interval; v1 defaults to 1
// hour, v1.1 to 5 seconds, nodes-base/nodes/Wait): the loop is a
// scheduler, and what it spends is bounded per day by its pace.
func pacedLoop(l *analyze.Loop) bool {
	for _, n := range l.Nodes {
		if n.Type != "n8n-nodes-base.wait" || n.Disabled {
			continue
		}
		r, _ := n.Param("resume")
		if r.Str() != "" && r.Str() != "timeInterval" {
			continue
		}
		amount, unit := 1.0, "hours"
		if n.TypeVersion >= 1.1 {
			amount, unit = 5, "seconds"
		}
		if v, ok := n.Param("amount"); ok {
			f, isNum := v.Num()
			if !isNum {
				continue // an expression decides
			}
			amount = f
		}
		if v, ok := n.Param("unit"); ok {
			unit = v.Str()
		}
		secs := map[string]float64{"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}[unit]
		if amount*secs >= 3600 {
			return true
		}
	}
	return false
}
