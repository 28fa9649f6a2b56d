package analyze

import (
	"iter"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// exprSegments yields the code inside each {{ }} of an expression, in
// order; a {{ that is not closed runs to the end.
func exprSegments(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for rest := s; ; {
			open := strings.Index(rest, "{{")
			if open < 0 {
				return
			}
			rest = rest[open+2:]
			seg := rest
			if end := strings.Index(rest, "}}"); end >= 0 {
				seg, rest = rest[:end], rest[end+2:]
			} else {
				rest = ""
			}
			if !yield(seg) {
				return
			}
		}
	}
}

// branches reports a ?, && or || in code before a read: a condition, a
// default or optional chaining that may skip what follows.
func branches(before string) bool {
	return strings.Contains(before, "?") || strings.Contains(before, "&&") || strings.Contains(before, "||")
}

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
// only when that line runs, judged by codeMissingRef), and only a reference no ?, && or || comes
// before within its {{ }} (a branch of the expression may never read it).
// A name held in a variable or written with an escape is not judged.
func missingNodeRef(g *Graph, i int) (param, name string, ok bool) {
	return scanNamedRefs(g, i, func(ref, _, _ string, _ refPath) bool { return g.Workflow.Node(ref) == nil })
}

// refPath is the path below the parameters of the value a by-name read is
// in, made only when asked (String): a value, not a closure, so that no
// read allocates one.
type refPath struct{ v, params n8nschema.Value }

func (p refPath) String() string { return strings.TrimPrefix(p.v.Path(), p.params.Path()+".") }

// scanNamedRefs returns the first by-name read of node i's parameter
// expressions, judged as missingNodeRef says, for which bad(name, form,
// after) holds: form is how the read starts ("$(", "$node[", "$items("),
// after the expression text that follows it, path gives the parameter's
// path (made only when asked).
func scanNamedRefs(g *Graph, i int, bad func(ref, form, after string, path refPath) bool) (param, name string, ok bool) {
	params, reads := namedReadParams(g, i)
	if !reads {
		return "", "", false
	}
	return scanParams(params, bad)
}

// namedReadParams returns node i's parameters when scanNamedRefs judges
// them and they hold a start of a read by name (readsByName): most nodes
// read no node by name, and their scan stops here, before the walk and
// before its callback (which escapes, with what it captures) is made.
// scanParams reads expressions only: a node with none (Node.NoExprs,
// known from the parse: half the nodes) is not searched.
func namedReadParams(g *Graph, i int) (n8nschema.Value, bool) {
	nd := g.Nodes[i]
	if nd.NoExprs() || g.sub[i] || g.specs[i].Role == n8nschema.RoleTrigger || n8nschema.IsCode(nd.Type) || n8nschema.IsAICode(nd.Type) {
		return n8nschema.Value{}, false
	}
	params := nd.Params()
	return params, readsByName(params.Raw())
}

// scanParams is scanNamedRefs' walk of the parameters namedReadParams
// returned.
func scanParams(params n8nschema.Value, bad func(ref, form, after string, path refPath) bool) (param, name string, ok bool) {
	// ExprsWith reads only the expressions that may hold a '$', without
	// building paths; the path is made for the one value that reads a
	// missing node.
	params.ExprsWith('$', func(v n8nschema.Value) bool {
		for seg := range exprSegments(v.Str()) {
			if name != "" {
				break
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
				if branches(seg[:start]) {
					break // a branch may not read it
				}
				form := seg[start : start+2]
				if strings.HasPrefix(seg[start:], "$node[") {
					form = "$node["
				} else if strings.HasPrefix(seg[start:], "$items(") {
					form = "$items("
				}
				path := refPath{v, params}
				if bad(ref, form, seg[end:], path) {
					param, name = path.String(), ref
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
	return scanNamedRefs(g, i, func(ref, form, after string, _ refPath) bool {
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
// node i, from one scan of its parameters. reads is false when the scan
// met no read by name to judge: then laterSiblingRead, whose scan of the
// same parameters judges the same reads, finds none either (a Code node's
// reads are read otherwise: reads is true).
func namedRefRefusal(g *Graph, i int, ran *triggerRuns) (r n8nschema.Refusal, ok, reads bool) {
	if n8nschema.IsCode(g.Nodes[i].Type) {
		// Its code throws as it runs, before it returns an item.
		if _, read, name, ok := codeMissingRef(g, i); ok {
			return n8nschema.Refusal{Why: codeMissingRefWhy(read, name), Fails: true, NoCall: true}, true, true
		}
		return n8nschema.Refusal{}, false, true
	}
	params, named := namedReadParams(g, i)
	if !named {
		return n8nschema.Refusal{}, false, false
	}
	var unParam, unName string
	param, name, missing := scanParams(params, func(ref, form, after string, path refPath) bool {
		reads = true
		if g.Workflow.Node(ref) == nil {
			return true
		}
		if unName == "" && unrunRead(g, i, ran, ref, form, after) {
			unParam, unName = path.String(), ref
		}
		return false
	})
	// It throws while it reads its parameters: before any request.
	switch {
	case missing:
		return n8nschema.Refusal{Why: missingRefWhy(param, name), Fails: true, NoCall: true}, true, true
	case unName != "":
		return n8nschema.Refusal{Why: unrunRefWhy(unParam, unName), Fails: true, NoCall: true}, true, true
	}
	return n8nschema.Refusal{}, false, reads
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
	t.build(g)
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

// build walks the triggers' runs once.
func (t *triggerRuns) build(g *Graph) {
	if !t.built {
		t.built = true
		if len(g.Unloadable) == 0 && triggerCount(g)*len(g.Nodes) <= maxTriggerReach {
			t.walk(g)
		}
	}
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
	g.runWalks.Add(1)
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
// (missingNodeRef), or a Code, Function or Function Item node whose code
// surely reads one (codeMissingRef: the parameter is its code's), with
// the parameter and the name it reads: not one refused for another
// reason first.
func (g *Graph) MissingNodeRef(n *n8nschema.Node) (param, name string, ok bool) {
	i, known := g.index(n)
	if !known || n.Disabled {
		return "", "", false
	}
	r, _ := g.refused(i)
	if n8nschema.IsCode(n.Type) {
		param, read, name, ok := codeMissingRef(g, i)
		return param, name, ok && r.Why == codeMissingRefWhy(read, name)
	}
	param, name, ok = missingNodeRef(g, i)
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
	// The runs failing walked, walked here if it did not: once per graph,
	// not once per node that reads an unrun node.
	g.ranOnce.Do(func() { g.ran.build(g) })
	param, name, ok = unrunNodeRef(g, i, &g.ran)
	return param, name, ok && r.Why == unrunRefWhy(param, name)
}

// JoinRead is a read by name of a node that n8n's v1 order has not run
// yet when the reader runs (laterSiblingRead).
type JoinRead struct {
	Param string // the parameter holding the read; "" for a Code node's code
	Read  string // the read as written in code, "$('X').first()"
	Name  string // the node read (X)
	Above *n8nschema.Node
	From  *n8nschema.Node // the parent both hang from (F)
	// Below is the child of From whose branch holds the node read (Z):
	// that node itself when it hangs from From.
	Below *n8nschema.Node
	// Via is the join on one input between Above and the reader that
	// lower branches of From feed too (joinHead): the reader may run
	// again after them. Nil for a reader that is the join itself.
	Via *n8nschema.Node
	// Sure: the reader fails on every run (a join: Above outputs an item
	// whenever it succeeds; one main input: it runs only in Above's
	// branch, before Below's).
	Sure bool
	// Stops: every run where Above succeeds reaches the reader with an
	// item, which throws, so the execution stops in Above's branch and
	// Below's never runs (failStops).
	Stops bool
}

// laterSiblingRead judges node i (R) under executionOrder "v1", whose main
// inputs all enter input 0, that reads by name a node X (a form that
// throws unrun: throwsUnrun) whose one main input comes from a node F, when
// a parent Y of R also has F as its one main input, on the same output,
// and sits strictly higher on the canvas than X. The v1 engine, after F
// runs, sorts F's children by height and unshifts each onto its stack,
// which it reads from the front: Y runs first, then (depth-first) R, whose
// inputs all on one index never wait, before X has run; n8n then throws
// "Node 'X' hasn't been executed" and the execution stops (docs/n8n-facts.md,
// "Parallel branches joined on one input under v1"; n8n-core
// dist/execution-engine/workflow-execute.js L244-247, L1332-1363). That
// holds on every run where Y passes R an item: sure when Y always outputs
// one on that edge (itemsAlways). Equal heights are not judged (the
// engine's comparator is not consistent there), nor a node without a
// position. A Code node's read counts at its top level only (topLevel: no
// try in the code, no return before it); an expression's as
// missingNodeRef reads it. One pass over R's inputs, then its reads.
//
// A reader with one main input is branchRead's.
func (g *Graph) laterSiblingRead(i int) (JoinRead, bool) {
	nd := g.Nodes[i]
	if g.Workflow.Settings.ExecutionOrder != "v1" || nd.Disabled || g.sub[i] || g.specs[i].Role == n8nschema.RoleTrigger {
		return JoinRead{}, false
	}
	if e := g.oneMainInMemo(i); e != nil {
		return g.branchRead(i, e)
	}
	type slot struct {
		from  int32
		out   int
		error bool
	}
	type parent struct {
		y int32
		h float64
		e *Edge
	}
	type tops struct {
		top, sure   int32 // the highest parent, and the highest that always passes items; -1: none
		topY, sureY float64
		// sure is read from these parents when a read first asks
		// (itemsAlways reads a Code node's returns): most nodes read none.
		parents  []parent
		sureRead bool
	}
	var under map[slot]*tops
	for _, e := range g.ins(i) {
		if e.Type != ConnMain {
			continue
		}
		if e.Input != 0 {
			return JoinRead{}, false // it may wait for another input
		}
		y := int(e.from)
		ey := g.oneMainInMemo(y)
		// The node read hangs from F on a parent's slot, below the
		// parent: F must send that slot to another node too.
		if y == i || g.Nodes[y].Disabled || ey == nil || int(ey.from) == i || !g.sendsTwice(ey) {
			continue
		}
		h, ok := canvasY(g.Nodes[y])
		if !ok {
			continue
		}
		k := slot{ey.from, ey.Output, ey.Error}
		t := under[k]
		if t == nil {
			if under == nil {
				under = map[slot]*tops{}
			}
			t = &tops{top: -1, sure: -1}
			under[k] = t
		}
		if t.top < 0 || h < t.topY {
			t.top, t.topY = int32(y), h
		}
		t.parents = append(t.parents, parent{int32(y), h, e})
	}
	if under == nil {
		return JoinRead{}, false
	}
	var found JoinRead
	// judge reports whether the read of ref decides: a sure one stops the
	// scan, a doubtful one is kept while a sure one may follow.
	judge := func(ref, form, after string) bool {
		x, xi, ok := g.readTarget(i, ref, form, after)
		if !ok {
			return false
		}
		ex := g.oneMainInMemo(xi)
		h, ok := canvasY(x)
		if ex == nil || !ok {
			return false
		}
		t := under[slot{ex.from, ex.Output, ex.Error}]
		if t == nil {
			return false
		}
		if !t.sureRead {
			t.sureRead = true
			for _, p := range t.parents {
				if g.itemsAlways(int(p.y), p.e) && (t.sure < 0 || p.h < t.sureY) {
					t.sure, t.sureY = p.y, p.h
				}
			}
		}
		switch {
		case t.sure >= 0 && t.sureY < h:
			found = JoinRead{Name: ref, Above: g.Nodes[t.sure], From: ex.From, Below: x, Sure: true, Stops: true}
			return true
		case t.top >= 0 && t.topY < h && found.Name == "":
			found = JoinRead{Name: ref, Above: g.Nodes[t.top], From: ex.From, Below: x}
		}
		return false
	}
	g.scanReads(i, &found, judge)
	return found, found.Name != ""
}

// readTarget is the node X that node i reads by name ref, in a form
// that throws when X has not run (throwsUnrun), and its index: an enabled
// main node other than i. laterSiblingRead and branchRead judge it.
func (g *Graph) readTarget(i int, ref, form, after string) (*n8nschema.Node, int, bool) {
	x := g.Workflow.Node(ref)
	if x == nil || x.Disabled || !throwsUnrun(form, after) {
		return nil, 0, false
	}
	xi, known := g.index(x)
	if !known || xi == i || g.sub[xi] {
		return nil, 0, false
	}
	return x, xi, true
}

// scanReads calls judge with each read by name of node i that
// laterSiblingRead and branchRead judge, setting found's Read (code) or
// Param (an expression) when judge changes found or stops the scan.
func (g *Graph) scanReads(i int, found *JoinRead, judge func(ref, form, after string) bool) {
	nd := g.Nodes[i]
	if code, ok := jsCode(nd); ok {
		at := 0
		for k := 0; k < 8; k++ { // a few reads: each topLevel look is one pass
			start, end, ref, ok := nextNamedRef(code, at)
			if !ok {
				break
			}
			at = end
			after := code[end:]
			if !topLevel(code, start) {
				continue
			}
			read := code[start:end]
			for _, p := range [...]string{".first()", ".last()", ".all()", ".item"} {
				if strings.HasPrefix(after, p) {
					read += p
					break
				}
			}
			was := found.Name
			stop := judge(ref, code[start:start+2], after)
			if found.Name != was || stop {
				found.Read = read
			}
			if stop {
				break
			}
		}
	} else {
		scanNamedRefs(g, i, func(ref, form, after string, path refPath) bool {
			was := found.Name
			stop := judge(ref, form, after)
			if found.Name != was || stop {
				found.Param = path.String()
			}
			return stop
		})
	}
}

// branchHead is where a node hangs from a fan-out (branchHeadOf).
type branchHead struct {
	e    *Edge // from the fan-out node F to the branch's first node Y; nil: none
	pass bool  // every node from Y to the node, the node excepted, passes the next an item whenever it succeeds
	// join is the first join on the way from Y to the node that other
	// branches of F feed too (joinHead): the node may also run after
	// them. Nil: it runs only in Y's branch.
	join  *n8nschema.Node
	state uint8 // 0: not read, 1: being read, 2: read
}

// maxHeads bounds the fan-outs a read climbs through on each side: a
// deeper one is not judged, and each read stays a fixed cost.
const maxHeads = 8

// branchHeadOf is the nearest fan-out above node i along main edges that
// each are their node's one main input, entering input 0 (a node with
// inputs on two indexes may wait, workflow-execute.js addNodeToBeExecuted
// numberOfInputs): the edge from F, whose output on that slot (output and
// error) goes to two nodes or more (sendsTwice), to Y, the first node of
// the branch i is in. None for a node with two main inputs, a join (the
// join case is laterSiblingRead's), or none, or when the climb loops.
// Each node is read once (heads): one pass over the graph in all.
func (g *Graph) branchHeadOf(i int) *branchHead {
	if g.heads == nil {
		g.heads = make([]branchHead, len(g.Nodes))
	}
	h := &g.heads[i]
	if h.state == 2 {
		return h
	}
	// Climb to a node read, or to the head, then fill in down the climb.
	var climb []int32
	for v := i; ; {
		hv := &g.heads[v]
		if hv.state == 2 {
			break
		}
		if hv.state == 1 { // a loop of single inputs: no head
			hv.state = 2
			break
		}
		hv.state = 1
		climb = append(climb, int32(v))
		e := g.oneMainInMemo(v)
		if e == nil {
			hv.state = 2
			g.joinHead(v, hv)
			break
		}
		if e.Input != 0 {
			hv.state = 2
			break
		}
		if g.sendsTwice(e) {
			hv.e, hv.pass, hv.state = e, true, 2
			break
		}
		v = int(e.from)
	}
	for k := len(climb) - 1; k >= 0; k-- {
		v := int(climb[k])
		hv := &g.heads[v]
		if hv.state == 2 {
			continue
		}
		hv.state = 2
		e := g.oneMainInMemo(v)
		p := &g.heads[e.from]
		if p.e != nil {
			hv.e, hv.join = p.e, p.join
			hv.pass = p.pass && !g.Nodes[e.from].Disabled && g.itemsAlways(int(e.from), e)
		}
	}
	return h
}

// joinHead fills in the head of node j with main inputs from several
// nodes when all enter input 0: a join that never waits, run once per
// input that brings items (workflow-execute.js addNodeToBeExecuted,
// numberOfInputs 1). When each input hangs from one fan-out F on one slot
// (branchHeadOf of its node, or F itself sending that slot to j and to
// another node), j first runs in the branch of the highest of them, Y,
// strictly higher than each other one: its head is F→Y, with j as the
// join unless every input hangs from Y (then it runs only in Y's branch).
// Not passing items for sure (pass false): a read below it is doubtful.
func (g *Graph) joinHead(j int, h *branchHead) {
	var top *Edge
	var topY float64
	var join *n8nschema.Node
	for _, e := range g.ins(j) {
		if e.Type != ConnMain {
			continue
		}
		if e.Input != 0 || int(e.from) == j {
			return
		}
		var he *Edge
		if g.sendsTwice(e) {
			he = e
		} else if p := g.branchHeadOf(int(e.from)); p.e != nil {
			he = p.e
			if p.join != nil {
				join = p.join
			}
		} else {
			return
		}
		switch {
		case top == nil:
			y, ok := canvasY(he.To)
			if !ok {
				return
			}
			top, topY = he, y
		case he == top:
		case he.from != top.from || he.Output != top.Output || he.Error != top.Error:
			return
		default:
			y, ok := canvasY(he.To)
			if !ok || y == topY {
				return
			}
			if y < topY {
				top, topY = he, y
			}
			if join == nil {
				join = g.Nodes[j]
			}
		}
	}
	if top != nil {
		h.e, h.join = top, join
	}
}

// runsOnce reports whether node i runs at most once per execution as far
// as its main inputs tell: the climb by each node's one main input, on
// input 0, reaches a node with none (a trigger) with no join and no loop
// on the way. Each node is read once (onceIn).
func (g *Graph) runsOnce(i int) bool {
	const unread, reading, yes, no = 0, 1, 2, 3
	if g.onceIn == nil {
		g.onceIn = make([]uint8, len(g.Nodes))
	}
	var climb []int32
	ans := uint8(no)
	for v := i; ; {
		switch g.onceIn[v] {
		case yes, no:
			ans = g.onceIn[v]
		case reading: // a loop
		default:
			g.onceIn[v] = reading
			climb = append(climb, int32(v))
			main := false
			for _, e := range g.ins(v) {
				if e.Type == ConnMain {
					main = true
					break
				}
			}
			if !main {
				ans = yes
				break
			}
			if e := g.oneMainInMemo(v); e != nil && e.Input == 0 {
				v = int(e.from)
				continue
			}
		}
		break
	}
	for _, v := range climb {
		g.onceIn[v] = ans
	}
	return ans == yes
}

// branchRead judges, under v1, node i (R), whose one main input is e (on
// input 0), reading by name (a form that throws unrun: throwsUnrun) a
// node X in a lower branch of a fan-out node F that R's branch hangs from
// too: R hangs from F by child Y, X by child Z, on the same slot (output
// and error), and Y sits strictly higher on the canvas than Z. Each
// climbs from its node to its fan-out heads (branchHeadOf), the first one
// they share being F, at most maxHeads fan-outs on each side. After F
// runs, the v1 engine sorts F's children by height and unshifts each onto
// its stack, which it reads from the front (n8n-core
// dist/execution-engine/workflow-execute.js L1332-1363, L244-247): Y, and
// depth-first everything under it whose inputs never wait, runs before Z,
// and so before X, which hangs from Z alone. R runs only in Y's branch:
// every run of R throws "Node 'X' hasn't been executed" (Sure), when F
// runs once per execution (runsOnce; else, in a loop, X may have run on
// an earlier pass) or every node from Y down to R passes the next an item
// whenever it succeeds (the first run of F then throws at R). Stops
// when every node from Y down to R passes the next an item whenever it
// succeeds (itemsAlways): then Y's branch always ends at R and Z's never
// runs. Equal heights and a node without a position are not judged, nor
// children of F on two outputs (an If's outputs: inside a loop the other
// one may have run on an earlier pass).
func (g *Graph) branchRead(i int, e *Edge) (JoinRead, bool) {
	if e.Input != 0 {
		return JoinRead{}, false
	}
	// R's heads, lowest first, each with whether the way from its Y to R
	// always passes items.
	type level struct {
		e    *Edge
		pass bool
		join *n8nschema.Node
	}
	var rs []level
	pass := true
	for v, k := i, 0; k < maxHeads; k++ {
		h := g.branchHeadOf(v)
		if h.e == nil {
			break
		}
		pass = pass && h.pass
		rs = append(rs, level{h.e, pass, h.join})
		pass = pass && !g.Nodes[h.e.from].Disabled && g.itemsAlways(int(h.e.from), h.e)
		v = int(h.e.from)
	}
	if len(rs) == 0 {
		return JoinRead{}, false
	}
	var found JoinRead
	judge := func(ref, form, after string) bool {
		_, xi, ok := g.readTarget(i, ref, form, after)
		if !ok {
			return false
		}
		for v, k := xi, 0; k < maxHeads; k++ {
			h := g.branchHeadOf(v)
			if h.e == nil {
				return false
			}
			for _, r := range rs {
				if r.e.from != h.e.from {
					continue
				}
				if r.e == h.e || r.e.Output != h.e.Output || r.e.Error != h.e.Error {
					return false // the same branch, or two outputs
				}
				yh, ok1 := canvasY(r.e.To)
				zh, ok2 := canvasY(h.e.To)
				if !ok1 || !ok2 || yh >= zh || h.join != nil {
					return false // X may run in a higher branch too
				}
				if !r.pass && !g.runsOnce(int(r.e.from)) {
					// F may run again (a loop, a join above it), when X
					// has run: only a first run that always reaches R
					// is sure to throw.
					return false
				}
				if r.join != nil {
					// R may run again from a lower branch, after X.
					if found.Name == "" {
						found = JoinRead{Name: ref, Above: r.e.To, From: r.e.From, Below: h.e.To, Via: r.join}
					}
					return false
				}
				found = JoinRead{Name: ref, Above: r.e.To, From: r.e.From, Below: h.e.To, Sure: true, Stops: r.pass}
				return true
			}
			v = int(h.e.from)
		}
		return false
	}
	g.scanReads(i, &found, judge)
	return found, found.Name != ""
}

// sendsTwice reports whether e's node sends e's output to another node
// too. Each node's outputs are read once (outsShared): a node with many
// outputs, or many children, stays linear. (An edge's Error follows from
// its node and output, so the output alone names the slot.)
func (g *Graph) sendsTwice(e *Edge) bool {
	const read = 1 << 63
	if e.Output < 0 || e.Output >= 63 {
		return true // not kept: judged as if shared, which only costs the judging
	}
	if g.outsShared == nil {
		g.outsShared = make([]uint64, len(g.Nodes))
	}
	m := &g.outsShared[e.from]
	if *m == 0 {
		var seen uint64
		for _, o := range g.outs(int(e.from)) {
			if o.Type == ConnMain && o.Output >= 0 && o.Output < 63 {
				*m |= seen & (1 << o.Output)
				seen |= 1 << o.Output
			}
		}
		*m |= read
	}
	return *m&(1<<e.Output) != 0
}

// oneMainInMemo is oneMainIn, each node's read once (readIn, by index):
// a node with many inputs may be the parent, or the node read, of many
// readers.
func (g *Graph) oneMainInMemo(i int) *Edge {
	if g.readIn == nil {
		g.readIn = make([]*Edge, len(g.Nodes))
	}
	e := g.readIn[i]
	if e == nil {
		if e = g.oneMainIn(i); e == nil {
			e = noMainIn
		}
		g.readIn[i] = e
	}
	if e == noMainIn {
		return nil
	}
	return e
}

// noMainIn stands in readIn for a node read and found to have no one main
// input.
var noMainIn = new(Edge)

// jsCode is the JavaScript of a Code node: its jsCode when written out,
// not an expression, in JavaScript (Code v1 has no language parameter).
func jsCode(nd *n8nschema.Node) (string, bool) {
	if nd.Type != n8nschema.TypeCode {
		return "", false
	}
	if l, ok := nd.Param("language"); ok && nd.TypeVersion >= 2 && (l.Kind() != n8nschema.String || l.Str() != "javaScript") {
		return "", false
	}
	c, ok := nd.Param("jsCode")
	if !ok || c.Kind() != n8nschema.String || c.IsExpr() {
		return "", false
	}
	return c.Str(), true
}

// literalReturnRE matches a return statement and whether an object
// literal, alone or first in an array literal, follows it.
var literalReturnRE = lazyregexp.New(`\breturn\b\s*(\[\s*)?(\{)?`)

// itemsAlways reports whether node y, once it succeeds, always outputs at
// least one item on edge e, for at least one item in (its parent F passed
// it some). A node that continues on fail by its error output passes its
// regular output nothing when it fails; alwaysOutputData turns no items
// into one empty item (workflow-execute.js ensureAlwaysOutputData). Of
// the nodes themselves: No Operation returns its items (NoOp.node.js), Set
// one item per item (Set/v1/SetV1.node.js L141-196, v2/SetV2.node.js
// L344-366), a JavaScript Code node whose every return is an object
// literal, or an array literal opening with one, returns those; an HTTP
// Request from v3 one item per response when its response format is text
// or file or it asks for the full response (HttpRequestV3.node.js
// L662-663, L720-813), whereas a JSON answer that is an array gives one
// item per element and none for [] (L830-845). All paths in
// n8n-nodes-base/dist/nodes, 2.41.1.
func (g *Graph) itemsAlways(y int, e *Edge) bool {
	nd := g.Nodes[y]
	if e.Output != 0 || e.Error || nd.OnError == "continueErrorOutput" {
		return false
	}
	if nd.AlwaysOutputData {
		return true
	}
	switch {
	case nd.Type == n8nschema.TypeNoOp || nd.Type == n8nschema.TypeSet:
		return true
	case g.answersEachItem(nd):
		return true
	case nd.Type == n8nschema.TypeHTTPRequest && nd.TypeVersion >= 3:
		r := nd.Params().Get("options").Get("response").Get("response")
		if f := r.Get("fullResponse"); f.Kind() == n8nschema.Bool && f.True() {
			return true
		}
		f := r.Get("responseFormat")
		return f.Kind() == n8nschema.String && !f.IsExpr() && (f.Str() == "text" || f.Str() == "file")
	}
	code, ok := jsCode(nd)
	if !ok {
		return false
	}
	returns := literalReturnRE.FindAllStringSubmatchIndex(code, -1)
	for _, m := range returns {
		if m[4] < 0 {
			return false // returns something else: its input, a variable, []
		}
	}
	return len(returns) > 0
}

// answersEachItem reports a model node whose code outputs at least one
// item for each item it runs on, when it succeeds: the OpenAI node's
// "Message a model" (v1 text.message: one item per choice, of which a
// completion holds at least one, or the whole answer; v2 text.response:
// one item), Anthropic's and Google Gemini's "Message a model" (one item),
// each with its `return [...]` per item in
// @n8n/n8n-nodes-langchain/dist/nodes/vendors/{OpenAi/v1,OpenAi/v2,Anthropic,GoogleGemini}/actions/text/;
// and a Basic LLM Chain with no output parser, whose chain answers
// [response] (chains/ChainLLM/methods/chainExecutor.js L61, L119: a parser
// may answer a list, possibly empty). An HTTP Request to the same API, or
// an app's search (HubSpot's search outputs one item per result,
// HubspotV2.node.js L1529-1530), may output none.
func (g *Graph) answersEachItem(nd *n8nschema.Node) bool {
	switch nd.Type {
	case "@n8n/n8n-nodes-langchain.openAi", "@n8n/n8n-nodes-langchain.anthropic", "@n8n/n8n-nodes-langchain.googleGemini":
		_, op, _ := n8nschema.WriteOpConf(nd)
		return op == "text.message" || op == "text.response"
	case "@n8n/n8n-nodes-langchain.chainLlm":
		return len(g.SubNodes(nd, ConnOutputParser)) == 0
	}
	return false
}

// Why says why the reader of a sure JoinRead fails.
func (r JoinRead) Why() string {
	what := "its parameter " + strconv.Quote(r.Param)
	if r.Param == "" {
		what = "its code (at its top level, " + r.Read + ")"
	}
	below := strconv.Quote(r.Name)
	if r.Below != nil && r.Below.Name != r.Name {
		below = strconv.Quote(r.Below.Name) + " (whose branch holds " + strconv.Quote(r.Name) + ")"
	}
	return what + " reads node " + strconv.Quote(r.Name) + ", which has not run when it runs: under the v1 execution order n8n runs the branches under " +
		strconv.Quote(r.From.Name) + " one at a time, from the top, and " + strconv.Quote(r.Above.Name) + ", above " + below +
		", reaches it first: n8n throws \"Node '" + r.Name + "' hasn't been executed\" before the node does anything"
}

// LaterSiblingRead reports an enabled node that reads by name a node the
// v1 order has not run yet when it runs (laterSiblingRead). With Sure it
// fails on every run (FailsWhy gives JoinRead.Why, unless it is refused
// for another reason first); without, on the runs where Above outputs an
// item.
func (g *Graph) LaterSiblingRead(n *n8nschema.Node) (JoinRead, bool) {
	i, known := g.index(n)
	if !known || n.Disabled {
		return JoinRead{}, false
	}
	if g.joinReads == nil {
		return JoinRead{}, false // most graphs have none: no look-up
	}
	jr, ok := g.joinReads[int32(i)]
	if ok && jr.Sure {
		r, _ := g.refused(i)
		ok = r.Why == jr.Why()
	}
	return jr, ok
}

// ReadsNodeByName reports whether any parameter of n, code included,
// reads the node named name by name ($('Name'), $node["Name"],
// $items("Name")): such a read takes that node's items whatever n's
// connections hand it.
func ReadsNodeByName(n *n8nschema.Node, name string) bool {
	if !readsByName(n.Params().Raw()) {
		return false
	}
	found := false
	eachNamedRead(n, func(ref string) bool {
		found = ref == name
		return !found
	})
	return found
}

// eachNamedRead calls f with the name of each node that n's string
// parameters, code included, read by name (nextNamedRef's forms), in
// order, until f returns false.
func eachNamedRead(n *n8nschema.Node, f func(ref string) bool) {
	more := true
	n.Params().Scalars(func(v n8nschema.Value) bool {
		if v.Kind() != n8nschema.String {
			return true
		}
		s := v.Str()
		for at := 0; more; {
			_, end, ref, ok := nextNamedRef(s, at)
			if !ok {
				break
			}
			at, more = end, f(ref)
		}
		return more
	})
}
