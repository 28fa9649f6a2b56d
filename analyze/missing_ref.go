package analyze

import (
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// nextNamedRef finds the first read of a node by its name in s at or
// after from, each form with the same quote on both sides: $('Name'),
// $node["Name"], $items("Name"). It returns where the read starts and
// ends and the name. It is the pattern
// `\$(?:\(|items\(|node\[)\s*(?:'([^'"\\]+)'|"([^'"\\]+)")\s*[)\]]`
// as byte tests (TestNextNamedRefAsPattern): the pattern was most of the
// scan of every expression that reads a node by name.
func nextNamedRef(s string, from int) (start, end int, ref string, ok bool) {
	for i := from; i < len(s); i++ {
		j := strings.IndexByte(s[i:], '$')
		if j < 0 {
			break
		}
		i += j
		if end, ref, ok := namedRefAt(s, i); ok {
			return i, end, ref, true
		}
	}
	return 0, 0, "", false
}

// namedRefAt matches nextNamedRef's forms at s[i], a '$'.
func namedRefAt(s string, i int) (end int, ref string, ok bool) {
	k := i + 1
	switch r := s[k:]; {
	case strings.HasPrefix(r, "("):
		k++
	case strings.HasPrefix(r, "items("):
		k += len("items(")
	case strings.HasPrefix(r, "node["):
		k += len("node[")
	default:
		return 0, "", false
	}
	k = skipSpace(s, k)
	if k == len(s) || s[k] != '\'' && s[k] != '"' {
		return 0, "", false
	}
	q := s[k]
	k++
	from := k
	for k < len(s) && s[k] != '\'' && s[k] != '"' && s[k] != '\\' {
		k++
	}
	if k == from || k == len(s) || s[k] != q {
		return 0, "", false
	}
	ref = s[from:k]
	k = skipSpace(s, k+1)
	if k == len(s) || s[k] != ')' && s[k] != ']' {
		return 0, "", false
	}
	return k + 1, ref, true
}

// missingNodeRef reports a node one of whose parameter expressions reads,
// by name, a node the workflow does not have. n8n evaluates a node's
// parameters for each item it runs, and $('Name'), $node["Name"] and
// $items("Name") throw "Referenced node doesn't exist" when
// workflow.getNode(Name) is null, the moment they are called
// (n8n-workflow/dist/cjs/workflow-data-proxy.js: the $ function, about
// line 961; nodeGetter, line 645; getNodeExecutionData, line 387, which
// $items calls). The ExpressionError is rethrown, not swallowed
// (expression.js setErrorHandler), so the node fails on every item before
// it sends anything. getNode knows every node of the workflow, disabled
// ones and sticky notes included.
//
// Only what surely runs is judged: an expression (a string starting with
// "=") in a node of the main flow, not a trigger or a sub-node (a tool's
// parameters are read only when its agent calls it), not a Code or
// Function node (its code is not an expression: a $('X') there throws
// only when that line runs), and only a reference no ?, && or || comes
// before within its {{ }} (a branch of the expression may never read it).
// A name held in a variable or written with an escape is not judged.
func missingNodeRef(g *Graph, i int) (param, name string, ok bool) {
	return scanNamedRefs(g, i, func(ref, _, _ string, _ func() string) bool { return g.Workflow.Node(ref) == nil })
}

// scanNamedRefs returns the first by-name read of node i's parameter
// expressions, judged as missingNodeRef says, for which bad(name, form,
// after) holds: form is how the read starts ("$(", "$node[", "$items("),
// after the expression text that follows it, path gives the parameter's
// path (made only when asked).
func scanNamedRefs(g *Graph, i int, bad func(ref, form, after string, path func() string) bool) (param, name string, ok bool) {
	nd := g.Nodes[i]
	if g.sub[i] || g.specs[i].Role == n8nschema.RoleTrigger || n8nschema.IsCode(nd.Type) || n8nschema.IsAICode(nd.Type) {
		return "", "", false
	}
	params := nd.Params()
	if !readsByName(params.Raw()) {
		return "", "", false // most nodes read no node by name: skip the walk
	}
	// Scalars walks without building paths; the path is made for the one
	// value that reads a missing node.
	params.Scalars(func(v n8nschema.Value) bool {
		if !v.IsExpr() {
			return true
		}
		s := v.Str()
		for rest := s; name == ""; {
			open := strings.Index(rest, "{{")
			if open < 0 {
				break
			}
			rest = rest[open+2:]
			seg := rest
			if end := strings.Index(rest, "}}"); end >= 0 {
				seg, rest = rest[:end], rest[end+2:]
			} else {
				rest = ""
			}
			if !readsByName(seg) {
				continue
			}
			for at := 0; ; {
				start, end, ref, ok := nextNamedRef(seg, at)
				if !ok {
					break
				}
				at = end
				if strings.Contains(seg[:start], "?") || strings.Contains(seg[:start], "&&") || strings.Contains(seg[:start], "||") {
					break // a branch may not read it
				}
				form := seg[start : start+2]
				if strings.HasPrefix(seg[start:], "$node[") {
					form = "$node["
				} else if strings.HasPrefix(seg[start:], "$items(") {
					form = "$items("
				}
				path := func() string { return strings.TrimPrefix(v.Path(), params.Path()+".") }
				if bad(ref, form, seg[end:], path) {
					param, name = path(), ref
					break
				}
			}
		}
		return name == ""
	})
	return param, name, name != ""
}

// unrunNodeRef reports a node one of whose parameter expressions reads,
// by name, a node that has not run when it runs: no trigger that reaches
// it reaches that node (ran), so every run that gets to it holds no data
// of that node. n8n then throws "Node 'X' hasn't been executed" on every
// item (n8n-workflow/dist/cjs/workflow-data-proxy.js: ensureNodeExecutionData,
// about line 972, called by $('X').first(), .last(), .all(), .item,
// .pairedItem() and .itemMatching(); nodeDataGetter, line 495, for
// $node["X"].json, .binary and .data; getNodeExecutionData, line 396, for
// $items("X")). $('X').isExecuted, .params and .context do not throw, nor
// anything read after ?. (judged silent). Pinned data answers only manual
// runs (getPinDataIfManualExecution), and production ignores it. The
// expressions judged are missingNodeRef's; a disabled node or a sub-node
// read by name is not judged.
func unrunNodeRef(g *Graph, i int, ran *triggerRuns) (param, name string, ok bool) {
	return scanNamedRefs(g, i, func(ref, form, after string, _ func() string) bool {
		return unrunRead(g, i, ran, ref, form, after)
	})
}

// unrunRead reports whether node i's read of node ref, which starts with
// form and goes on with after, throws since ref has not run when i runs.
func unrunRead(g *Graph, i int, ran *triggerRuns, ref, form, after string) bool {
	x := g.Workflow.Node(ref)
	if x == nil || x.Disabled || !throwsUnrun(form, after) {
		return false
	}
	xi, known := g.index(x)
	return known && !g.sub[xi] && ran.never(g, i, xi)
}

// namedRefRefusal is what missingNodeRef, else unrunNodeRef, finds in
// node i, from one scan of its parameters.
func namedRefRefusal(g *Graph, i int, ran *triggerRuns) (n8nschema.Refusal, bool) {
	var unParam, unName string
	param, name, missing := scanNamedRefs(g, i, func(ref, form, after string, path func() string) bool {
		if g.Workflow.Node(ref) == nil {
			return true
		}
		if unName == "" && unrunRead(g, i, ran, ref, form, after) {
			unParam, unName = path(), ref
		}
		return false
	})
	// It throws while it reads its parameters: before any request.
	switch {
	case missing:
		return n8nschema.Refusal{Why: missingRefWhy(param, name), Fails: true, NoCall: true}, true
	case unName != "":
		return n8nschema.Refusal{Why: unrunRefWhy(unParam, unName), Fails: true, NoCall: true}, true
	}
	return n8nschema.Refusal{}, false
}

// throwsUnrun reports whether the read that starts with form and goes on
// with after throws when its node has not run (unrunNodeRef).
func throwsUnrun(form, after string) bool {
	switch form {
	case "$items(":
		return true
	case "$node[":
		return strings.HasPrefix(after, ".json") || strings.HasPrefix(after, ".binary") || strings.HasPrefix(after, ".data")
	}
	for _, p := range [...]string{".first(", ".last(", ".all(", ".item", ".pairedItem("} {
		if strings.HasPrefix(after, p) {
			return true // .item covers .itemMatching(
		}
	}
	return false
}

// triggerRuns holds, for each trigger, the nodes its runs may execute,
// built once per graph when first needed: the nodes it reaches along main
// connections (error outputs and edges later found dead included: more
// reach only silences). Under the legacy execution order (any
// executionOrder but "v1") a node with two inputs whose other input has
// not run makes n8n run that input's unrun parents first, from the topmost
// (n8n-core/dist/execution-engine/workflow-execute.js, addNodeToBeExecuted:
// the loop after "stillDataMissing", isLegacyExecutionOrder); the walk
// takes every ancestor of such a node as run.
type triggerRuns struct {
	built bool
	reach [][]bool
}

// never reports whether some trigger reaches node i and none that does
// reaches node x.
func (t *triggerRuns) never(g *Graph, i, x int) bool {
	if !t.built {
		t.built = true
		if len(g.Unloadable) == 0 && triggerCount(g)*len(g.Nodes) <= maxTriggerReach {
			t.walk(g)
		}
	}
	some := false
	for _, seen := range t.reach {
		if seen[i] {
			if seen[x] {
				return false
			}
			some = true
		}
	}
	return some
}

// maxTriggerReach bounds the per-trigger reach sets (triggers × nodes
// booleans): past it nothing is judged, so a hostile workflow of many
// triggers and many nodes stays linear.
const maxTriggerReach = 1 << 22

func triggerCount(g *Graph) int {
	k := 0
	for s := range g.Nodes {
		if g.specs[s].Role == n8nschema.RoleTrigger {
			k++
		}
	}
	return k
}

// walk fills reach: per trigger, each node goes forward once and, under
// the legacy order, backward once.
func (t *triggerRuns) walk(g *Graph) {
	n := len(g.Nodes)
	legacy := g.Workflow.Settings.ExecutionOrder != "v1"
	queue := make([]int32, 0, n)
	back := make([]bool, n)
	for s := range g.Nodes {
		if g.specs[s].Role != n8nschema.RoleTrigger {
			continue
		}
		seen := make([]bool, n)
		clear(back)
		seen[s], queue = true, append(queue[:0], int32(s))
		for h := 0; h < len(queue); h++ {
			u := int(queue[h])
			for _, e := range g.outs(u) {
				if e.Type == ConnMain && !seen[e.to] {
					seen[e.to], queue = true, append(queue, e.to)
				}
			}
			if !legacy || back[u] || !twoInputs(g, u) {
				continue
			}
			// Every ancestor of u may be run: walk up, marking each.
			stack := []int32{int32(u)}
			back[u] = true
			for len(stack) > 0 {
				v := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, e := range g.ins(int(v)) {
					if e.Type != ConnMain || back[e.from] {
						continue
					}
					back[e.from] = true
					stack = append(stack, e.from)
					if !seen[e.from] {
						seen[e.from], queue = true, append(queue, e.from)
					}
				}
			}
		}
		t.reach = append(t.reach, seen)
	}
}

// twoInputs reports whether main edges enter node i at two input indexes.
func twoInputs(g *Graph, i int) bool {
	first := -1
	for _, e := range g.ins(i) {
		if e.Type != ConnMain {
			continue
		}
		if first < 0 {
			first = e.Input
		} else if e.Input != first {
			return true
		}
	}
	return false
}

// readsByName reports whether s holds "$(", "$node[" or "$items(", the
// starts of nextNamedRef's forms: one pass over s, before the scan.
func readsByName(s string) bool {
	for i := strings.IndexByte(s, '$'); i >= 0; {
		r := s[i+1:]
		if strings.HasPrefix(r, "(") || strings.HasPrefix(r, "node[") || strings.HasPrefix(r, "items(") {
			return true
		}
		j := strings.IndexByte(r, '$')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// unrunRefWhy says why a node unrunNodeRef reports fails.
func unrunRefWhy(param, name string) string {
	return "its parameter " + strconv.Quote(param) + " reads node " + strconv.Quote(name) + ", which has not run when it runs (no trigger that reaches it reaches " + strconv.Quote(name) + "): n8n throws \"Node '" + name + "' hasn't been executed\" on every item, before the node does anything"
}

// missingRefWhy says why such a node fails.
func missingRefWhy(param, name string) string {
	return "its parameter " + strconv.Quote(param) + " reads node " + strconv.Quote(name) + ", which the workflow does not have: n8n throws \"Referenced node doesn't exist\" on every item, before the node does anything"
}

// MissingNodeRef reports an enabled node that fails on every item since a
// parameter expression reads a node the workflow does not have
// (missingNodeRef), with the parameter and the name it reads: not one
// refused for another reason first.
func (g *Graph) MissingNodeRef(n *n8nschema.Node) (param, name string, ok bool) {
	i, known := g.index(n)
	if !known || n.Disabled {
		return "", "", false
	}
	param, name, ok = missingNodeRef(g, i)
	r, _ := g.refused(i)
	return param, name, ok && r.Why == missingRefWhy(param, name) // not refused for another reason first
}

// UnrunNodeRef reports an enabled node that fails on every item since a
// parameter expression reads a node that has not run when it runs
// (unrunNodeRef), with the parameter and the name it reads: not one
// refused for another reason first.
func (g *Graph) UnrunNodeRef(n *n8nschema.Node) (param, name string, ok bool) {
	i, known := g.index(n)
	if !known || n.Disabled {
		return "", "", false
	}
	r, _ := g.refused(i)
	if !strings.HasPrefix(r.Why, "its parameter ") || !strings.Contains(r.Why, "hasn't been executed") {
		return "", "", false
	}
	var ran triggerRuns
	param, name, ok = unrunNodeRef(g, i, &ran)
	return param, name, ok && r.Why == unrunRefWhy(param, name)
}
