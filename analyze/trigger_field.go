package analyze

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A Code (JavaScript), Function or Function Item node fed straight by a
// trigger whose item has a fixed shape, whose code surely reads a member
// of a top-level field that item never carries ($json.bestTime.split(...)
// after a Schedule Trigger): the field is undefined, and reading a
// property of undefined throws a TypeError ("Cannot read properties of
// undefined (reading 'split')") on every run that trigger starts.
//
// The items (n8n-nodes-base 2.41.1):
//   - Schedule Trigger: timestamp, Readable date, Readable time, Day of
//     week, Year, Month, Day of month, Hour, Minute, Second and Timezone
//     (dist/nodes/Schedule/ScheduleTrigger.node.js L502-514, every
//     version);
//   - Cron, Interval and Manual Trigger: {} (Cron/Cron.node.js L51,
//     Interval/Interval.node.js L76, ManualTrigger/ManualTrigger.node.js
//     L35); a Manual Trigger whose data the export pins gives that data
//     instead in the editor's runs, its only ones: not judged; nor is a
//     node the export pins that a Manual Trigger feeds: in those runs
//     n8n hands it its pinned data and does not run it (n8n-core
//     dist/execution-engine/workflow-execute.js getPinnedOutput
//     L941-946, used at L1220);
//   - Webhook: headers, params, query, body, webhookUrl and executionMode
//     (webhookItemKeys; jwtPayload under JWT auth).
//
// What the code's names are bound to: the JavaScript Code node's task
// runner builds a WorkflowDataProxy at the item's index (@n8n/task-runner
// dist/js-task-runner/js-task-runner.js runForAllItems L195 at
// data.itemIndex, runForEachItem L245-246 at each index), whose $json is
// that input item's json (n8n-workflow dist/cjs/workflow-data-proxy.js
// L1336-1341, nodeDataGetter), and runForAllItems hands it items, the
// input items (L196-199). The Function node assigns the proxy of item 0
// to its sandbox (nodes-base Function/Function.node.js L119,
// Object.assign(sandbox, sandbox.$item(0))), beside items (L86); the
// Function Item node the proxy of each item (FunctionItem.node.js L128).
// A trigger emits one item, so both Code modes run the top of the code
// with that item. The runner rethrows the error, and the Function nodes
// too (js-task-runner.js L226-233, L286-295; Function.node.js L164-180),
// unless the node continues on fail.
//
// Only a read that runs whenever the code does is judged (sureAt: no
// return, break, continue or throw before it), of a field no statement of
// the code sets (.x =, ["x"] =, or ??=, ||=, &&=; after the read too),
// in code that neither rebinds $json or items, sets an item's json
// (items[0].json =, $input.first().json =), copies into them
// (Object.assign, $json[k] =), nor declares a function (hoisted, it may
// run first and set the field through a name this does not follow):
// $json.x.y, $json["x"].y, $json.x.split(...), $json.x[0],
// items[0].json.x.y (Code in runOnceForAllItems mode, Function),
// $input.first().json.x.y, and one plain alias, const u = $json; u.x.y
// (not a let or var, which may be rebound). Reading $json.x alone gives
// undefined, not a throw; ?. anywhere on the way, a default (|| or ??)
// or a test before it in its statement leaves it unjudged. A write,
// $json.x.y = 1, throws "Cannot set properties of undefined (setting
// 'y')" in V8.

// scheduleItemKeys are the keys of a Schedule Trigger's item.
var scheduleItemKeys = map[string]bool{
	"timestamp": true, "Readable date": true, "Readable time": true, "Day of week": true, "Year": true,
	"Month": true, "Day of month": true, "Hour": true, "Minute": true, "Second": true, "Timezone": true,
}

// objectMembers are what every object answers through its prototype:
// $json.toString is defined.
var objectMembers = map[string]bool{
	"constructor": true, "hasOwnProperty": true, "isPrototypeOf": true, "propertyIsEnumerable": true,
	"toLocaleString": true, "toString": true, "valueOf": true, "__proto__": true,
	"__defineGetter__": true, "__defineSetter__": true, "__lookupGetter__": true, "__lookupSetter__": true,
}

// maxFieldReads bounds the reads judged in one node's code (they share a
// sureScanner: a pass over the code for each run of offsets in order).
const maxFieldReads = 16

// fixedItem reports an enabled trigger whose item has a fixed set of
// top-level keys: has tells whether a key is one, and what says what its
// items hold.
func (g *Graph) fixedItem(i int) (has func(string) bool, what string, ok bool) {
	nd := g.Nodes[i]
	if nd.Disabled {
		return nil, "", false
	}
	switch nd.Type {
	case n8nschema.TypeScheduleTrigger:
		return func(k string) bool { return scheduleItemKeys[k] },
			"hold only timestamp, Readable date, Readable time, Day of week, Year, Month, Day of month, Hour, Minute, Second and Timezone", true
	case n8nschema.TypeCron, n8nschema.TypeInterval:
		return func(string) bool { return false }, "are empty ({})", true
	case n8nschema.TypeManualTrigger:
		if g.isPinned(i) {
			return nil, "", false // its runs take the pinned data
		}
		return func(string) bool { return false }, "are empty ({})", true
	case n8nschema.TypeWebhook:
		return func(k string) bool { return webhookItemKeys[strings.ToLower(k)] || k == "jwtPayload" },
			"hold only headers, params, query, body, webhookUrl and executionMode (the request's fields are under body)", true
	}
	return nil, "", false
}

// isPinned reports node i named in the export's pinData, read once per
// graph (pinnedNames).
func (g *Graph) isPinned(i int) bool {
	g.pinnedOnce.Do(func() {
		g.Workflow.Value.Get("pinData").Each(func(key string, _ n8nschema.Value) bool {
			if g.pinnedNames == nil {
				g.pinnedNames = map[string]bool{}
			}
			g.pinnedNames[key] = true
			return true
		})
	})
	return g.pinnedNames[g.Nodes[i].Name]
}

// fieldRead is a read in a node's code of a member of a top-level field
// of its input item: the text as written up to the member
// ($json.bestTime.split), the field, the member ("" when computed), and
// where it starts.
type fieldRead struct {
	text, field, member string
	at                  int
	fieldLen            int  // the length of text up to the field's end
	set                 bool // the member is assigned (= follows): V8 says "Cannot set properties"
}

var (
	// What reads the input item's json in code: $json, items[0].json,
	// $input.first().json (itemBases). Three patterns, each found by the
	// literal it starts with: as one alternation they had none, and the
	// alternation was tried at every byte of the code.
	jsonBaseRE  = lazyregexp.New(`\$json\b`)
	itemsBaseRE = lazyregexp.New(`items\s*\[\s*0\s*\]\s*\.\s*json\b`) // and no word byte before: itemBases
	inputBaseRE = lazyregexp.New(`\$input\s*\.\s*first\s*\(\s*\)\s*\.\s*json\b`)
	// itemAliasRE matches a declaration that names the input item's json,
	// alone in its statement: const user = $json; (the name is group 1).
	// Only a const: a let or var may be rebound, by a destructuring
	// assignment too ([u] = [...]), which assignedAfter does not read.
	itemAliasRE = lazyregexp.New(`\bconst\s+([A-Za-z_$][\w$]*)\s*=\s*(?:\$json|\$input\s*\.\s*first\s*\(\s*\)\s*\.\s*json)\s*(?:;|\n)`)
	// itemRebindRE matches code that rebinds $json or items, sets an
	// item's json (items[0].json =, $input.first().json =, item.json ??=),
	// copies into an object (which may be the item's json), or declares a
	// function (hoisted: it may run before a read written above it, and
	// set the field through a name this does not follow).
	itemRebindRE = lazyregexp.New(`(?:const|let|var|function)\s+(?:\$json|items)\b|(?:^|[^\w$.])(?:\$json|items)\s*(?:\?\?|\|\||&&)?=[^=]|\.\s*json\s*(?:\?\?|\|\||&&)?=[^=]|\$json\s*\[[^\]'"]*\]\s*(?:\?\?|\|\||&&)?=[^=]|Object\s*\.\s*(?:assign|defineProperty)\b|(?:^|[;{}\n])\s*(?:async\s+)?function\b`)
)

// memberAfter reads, at offset j of code, a field then a member of it:
// .x.y, .x[0], ["x"].y, .x.split. It returns the field, the member ("" for
// a computed one) and the offset after the read.
func memberAfter(code string, j int) (field, member string, fieldEnd, end int, ok bool) {
	field, j, ok = keyAt(code, j)
	if !ok {
		return "", "", 0, 0, false
	}
	fieldEnd = j
	k := j
	for k < len(code) && (code[k] == ' ' || code[k] == '\t') {
		k++
	}
	if k >= len(code) || code[k] != '.' && code[k] != '[' {
		return "", "", 0, 0, false // read alone, a call, a default, ?.
	}
	member, end, ok = keyAt(code, k)
	if !ok {
		if code[k] != '[' {
			return "", "", 0, 0, false
		}
		return field, "", fieldEnd, k + 1, true // a computed member: it throws all the same
	}
	return field, member, fieldEnd, end, true
}

// keyAt reads a member access at offset j: .name or ["name"] or [digits],
// spaces allowed around the dot and in the brackets.
func keyAt(code string, j int) (key string, end int, ok bool) {
	for j < len(code) && (code[j] == ' ' || code[j] == '\t') {
		j++
	}
	if j >= len(code) {
		return "", 0, false
	}
	switch code[j] {
	case '.':
		j++
		for j < len(code) && (code[j] == ' ' || code[j] == '\t') {
			j++
		}
		s := j
		if j < len(code) && (isIdent(code[j]) && !('0' <= code[j] && code[j] <= '9')) {
			for j++; j < len(code) && isIdent(code[j]); j++ {
			}
		}
		return code[s:j], j, j > s
	case '[':
		j++
		for j < len(code) && code[j] == ' ' {
			j++
		}
		if j >= len(code) {
			return "", 0, false
		}
		s := j
		switch q := code[j]; {
		case q == '"' || q == '\'':
			e := strings.IndexByte(code[j+1:], q)
			if e < 0 || strings.ContainsAny(code[j+1:j+1+e], "\\\n`") {
				return "", 0, false
			}
			key, j = code[j+1:j+1+e], j+2+e
		case '0' <= q && q <= '9':
			for j < len(code) && '0' <= code[j] && code[j] <= '9' {
				j++
			}
			key = code[s:j]
		default:
			return "", 0, false
		}
		for j < len(code) && code[j] == ' ' {
			j++
		}
		if j >= len(code) || code[j] != ']' || key == "" {
			return "", 0, false
		}
		return key, j + 1, true
	}
	return "", 0, false
}

// codeFieldReads lists the reads of a member of an input item's field
// that node i's code surely runs (sureAt), each of a field no earlier
// text of the code names: at most maxFieldReads, in code order.
func codeFieldReads(nd *n8nschema.Node) []fieldRead {
	code, ok := staticCode(nd)
	if !ok || len(code) > maxStaticCode {
		return nil
	}
	// Nothing reads the input item's json without one of these: skip the
	// regexps (each reads the whole code).
	if !strings.Contains(code, "$json") && !strings.Contains(code, "items") && !strings.Contains(code, "$input") {
		return nil
	}
	itemsBound := nd.Type == n8nschema.TypeFunction
	if nd.Type == n8nschema.TypeCode {
		// items is the input list only when the code runs once for all
		// items (the default mode).
		m := nd.Params().Get("mode")
		itemsBound = !m.Exists() || literalIs(m, "runOnceForAllItems")
	}
	var bases []itemBase
	for _, m := range itemBases(code, 4*maxFieldReads) {
		if m.at > 0 && (isIdent(code[m.at-1]) || code[m.at-1] == '.') || m.items && !itemsBound {
			continue
		}
		bases = append(bases, m)
	}
	var sure sureScanner // the offsets asked come in at most three runs, each in code order
	if m := itemAliasRE.FindStringSubmatchIndex(code); m != nil && sure.at(code, m[0]) {
		name := code[m[2]:m[3]]
		if !assignedAfter(code, name, m[1]) {
			for _, at := range nameOffsets(code[m[1]:], name) {
				at += m[1]
				if !nameStart(code, at) || at+len(name) < len(code) && isIdent(code[at+len(name)]) {
					continue
				}
				bases = append(bases, itemBase{at: at, end: at + len(name)})
				if len(bases) > 8*maxFieldReads {
					break
				}
			}
		}
	}
	var reads []fieldRead
	seen := map[string]bool{}
	for _, b := range bases {
		if len(reads) >= maxFieldReads {
			break
		}
		field, member, fieldEnd, end, ok := memberAfter(code, b.end)
		if !ok || objectMembers[field] || seen[field] {
			continue
		}
		seen[field] = true
		if writtenBefore(code, field, len(code)) || !sure.at(code, b.at) {
			continue // set somewhere (a function may set it first), or not sure to run
		}
		prefix := readText(code[b.at:fieldEnd])
		reads = append(reads, fieldRead{text: prefix + readText(code[fieldEnd:end]), field: field, member: member, at: b.at,
			fieldLen: len(prefix), set: member != "" && plainAssign(code, end)})
	}
	// Code that rebinds the item reads nothing this can judge. Asked last,
	// only of code with a read: the pattern has no literal to skip to, so
	// it is tried at every byte of the code.
	if len(reads) == 0 || itemRebindRE.MatchString(code) {
		return nil
	}
	// Bases were gathered in two runs: keep the code's order.
	for i := 1; i < len(reads); i++ {
		for j := i; j > 0 && reads[j].at < reads[j-1].at; j-- {
			reads[j], reads[j-1] = reads[j-1], reads[j]
		}
	}
	return reads
}

// readText drops the spaces and tabs of a read's text (keyAt allows them
// around a dot and inside brackets) outside its quoted keys, which it
// keeps as written: $json[ "my field" ] . total is $json["my field"].total.
func readText(s string) string {
	var b strings.Builder
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == ' ' || c == '\t':
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// plainAssign reports a plain = (not ==, =>, nor a compound one, which
// reads first) after offset j of code, spaces skipped.
func plainAssign(code string, j int) bool {
	for j < len(code) && (code[j] == ' ' || code[j] == '\t') {
		j++
	}
	return j+1 < len(code) && code[j] == '=' && code[j+1] != '=' && code[j+1] != '>' ||
		j+1 == len(code) && code[j] == '='
}

// assignOp is the length of the assignment operator at offset k of code:
// =, ??=, ||= or &&= (not ==, =>), 0 for none.
func assignOp(code string, k int) int {
	n := 0
	if k+2 < len(code) && (code[k:k+2] == "??" || code[k:k+2] == "||" || code[k:k+2] == "&&") {
		n = 2
	}
	if k+n < len(code) && code[k+n] == '=' && (k+n+1 == len(code) || code[k+n+1] != '=' && code[k+n+1] != '>') {
		return n + 1
	}
	return 0
}

// assignedAfter reports an assignment to name after offset from.
func assignedAfter(code, name string, from int) bool {
	for _, at := range nameOffsets(code[from:], name) {
		k := from + at + len(name)
		if !nameStart(code, from+at) || k < len(code) && isIdent(code[k]) {
			continue
		}
		for k < len(code) && (code[k] == ' ' || code[k] == '\t') {
			k++
		}
		if assignOp(code, k) > 0 {
			return true
		}
	}
	return false
}

// itemBase is a read of the input item's json in code, from at to end;
// items marks items[0].json.
type itemBase struct {
	at, end int
	items   bool
}

// itemBases returns the first n (all when n < 0) reads of the input
// item's json in code
// ($json, items[0].json, $input.first().json, each a whole word), in code
// order. No two overlap (each starts with a literal the others do not
// hold), so each form is searched apart.
func itemBases(code string, n int) []itemBase {
	var out []itemBase
	for _, m := range jsonBaseRE.FindAllStringIndex(code, -1) {
		out = append(out, itemBase{at: m[0], end: m[1]})
	}
	for _, m := range inputBaseRE.FindAllStringIndex(code, -1) {
		out = append(out, itemBase{at: m[0], end: m[1]})
	}
	for _, m := range itemsBaseRE.FindAllStringIndex(code, -1) {
		if m[0] == 0 || !ascii.IsWord(code[m[0]-1]) { // \b: an ASCII word byte
			out = append(out, itemBase{at: m[0], end: m[1], items: true})
		}
	}
	slices.SortFunc(out, func(a, b itemBase) int { return a.at - b.at })
	if n >= 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// writtenBefore reports a member named field assigned before offset upto
// of code (.field =, ["field"] =, or ??=, ||=, &&=; not == or =>): it may
// be the item's. codeFieldReads asks it of the whole code: a function
// declared after a read may run before it.
func writtenBefore(code, field string, upto int) bool {
	for _, k := range nameOffsets(code[:upto], field) {
		e := k + len(field)
		if k == 0 || e < upto && isIdent(code[e]) {
			continue
		}
		switch c := code[k-1]; {
		case c == '"' || c == '\'':
			if e >= upto || code[e] != c {
				continue
			}
			e++
			for e < upto && code[e] == ' ' {
				e++
			}
			if e >= upto || code[e] != ']' {
				continue
			}
			e++
		case isIdent(c):
			continue
		default:
			j := k - 1
			for j > 0 && (code[j] == ' ' || code[j] == '\t') {
				j--
			}
			if code[j] != '.' {
				continue
			}
		}
		for e < upto && (code[e] == ' ' || code[e] == '\t') {
			e++
		}
		if e < upto && assignOp(code[:upto], e) > 0 {
			return true
		}
	}
	return false
}

// fieldReads is codeFieldReads of node i, read once per node.
func (g *Graph) fieldReads(i int) []fieldRead {
	g.fieldReadsOnce.Do(func() {
		g.fieldReadsBy = make([][]fieldRead, len(g.Nodes))
		g.fieldReadOnce = make([]sync.Once, len(g.Nodes))
	})
	g.fieldReadOnce[i].Do(func() { g.fieldReadsBy[i] = codeFieldReads(g.Nodes[i]) })
	return g.fieldReadsBy[i]
}

// fieldThrowFrom is the first read of node i's code (codeFieldReads) that
// throws on the item of the trigger at index t (fixedItem), with what
// that item is.
func (g *Graph) fieldThrowFrom(i, t int, reads []fieldRead) (fieldRead, string, bool) {
	has, what, ok := g.fixedItem(t)
	if !ok {
		return fieldRead{}, "", false
	}
	for _, r := range reads {
		if !has(r.field) {
			return r, what, true
		}
	}
	return fieldRead{}, "", false
}

// fieldThrowEdges are the main inputs of node i (a Code, Function or
// Function Item node) whose items make its code throw: straight from a
// trigger of a fixed item (fixedItem) whose item lacks a field the code
// surely reads a member of (codeFieldReads). all reports that every main
// input is one, besides a disabled trigger's (it starts no run), and
// first is one of them, in edge order, with its read.
func (g *Graph) fieldThrowEdges(i int) (edges []*Edge, all bool, first fieldThrow) {
	nd := g.Nodes[i]
	if nd.Disabled || !n8nschema.IsCode(nd.Type) || g.sub[i] {
		return nil, false, fieldThrow{}
	}
	var reads []fieldRead
	read := false
	all = true
	fed := false
	for _, e := range g.ins(i) {
		if e.Type != ConnMain {
			continue
		}
		t := int(e.from)
		if g.disabledTrigger(t) {
			continue
		}
		fed = true
		if e.Error || g.specs[t].Role != n8nschema.RoleTrigger {
			all = false
			continue
		}
		if _, _, fixed := g.fixedItem(t); !fixed {
			all = false
			continue
		}
		if g.Nodes[t].Type == n8nschema.TypeManualTrigger && g.isPinned(i) {
			// A Manual Trigger's runs are the editor's, where n8n hands a
			// pinned node its pinned data and does not run it (n8n-core
			// dist/execution-engine/workflow-execute.js L942-946).
			all = false
			continue
		}
		if !read {
			read, reads = true, g.fieldReads(i)
		}
		r, what, ok := g.fieldThrowFrom(i, t, reads)
		if !ok {
			all = false
			continue
		}
		if len(edges) == 0 {
			first = fieldThrow{Trigger: g.Nodes[t], read: r, what: what}
		}
		edges = append(edges, e)
	}
	return edges, all && fed && len(edges) > 0, first
}

// fieldThrow is a read of node's code that throws on the items of Trigger.
type fieldThrow struct {
	Trigger *n8nschema.Node
	read    fieldRead
	what    string
}

// why says why the node fails on the trigger's items.
func (f fieldThrow) why() string {
	kind := "trigger"
	switch f.Trigger.Type {
	case n8nschema.TypeScheduleTrigger:
		kind = "Schedule Trigger"
	case n8nschema.TypeCron:
		kind = "Cron trigger"
	case n8nschema.TypeInterval:
		kind = "Interval trigger"
	case n8nschema.TypeManualTrigger:
		kind = "Manual Trigger"
	case n8nschema.TypeWebhook:
		kind = "Webhook"
	}
	verb, reading := "read", "reading"
	if f.read.set {
		verb, reading = "set", "setting" // V8: "Cannot set properties of undefined (setting 'b')"
	}
	quoted := ""
	if m := f.read.member; m != "" && !strings.ContainsAny(m, `'"\`) {
		quoted = " (" + reading + " '" + m + "')"
	}
	does := "reads"
	if f.read.set {
		does = "sets"
	}
	return fmt.Sprintf("its code %s %s in a statement that runs on every run, but the items of %s %q %s, with no %s: %s is undefined, and n8n stops at the TypeError \"Cannot %s properties of undefined%s\"",
		does, f.read.text, kind, f.Trigger.Name, f.what, strconv.Quote(f.read.field), f.read.text[:f.read.fieldLen], verb, quoted)
}

// triggerFieldThrow judges node i for failsFirst: every main input is a
// trigger whose item makes its code throw (fieldThrowEdges).
func (g *Graph) triggerFieldThrow(i int) (string, bool) {
	if !n8nschema.IsCode(g.Nodes[i].Type) {
		return "", false
	}
	_, all, f := g.fieldThrowEdges(i)
	if !all {
		return "", false
	}
	return f.why(), true
}

// markFieldThrows marks the main inputs into node i on whose items its
// code throws when it has other inputs (triggerFieldThrow judges one that
// has none): those runs stop there, the others go on.
func (g *Graph) markFieldThrows(i int) {
	if !n8nschema.IsCode(g.Nodes[i].Type) {
		return
	}
	if r, refused := g.refused(i); refused && r.Fails {
		return // it fails on every item anyway: its runs reach it
	}
	edges, all, _ := g.fieldThrowEdges(i)
	if all {
		return
	}
	for _, e := range edges {
		if g.fieldThrows == nil {
			g.fieldThrows = map[*Edge]bool{}
		}
		g.fieldThrows[e] = true
	}
}

// failsOnEdge reports a main edge into a node that fails on every item it
// carries, though not on its other inputs' (noSess, fieldThrows): its
// items stop there.
func (g *Graph) failsOnEdge(e *Edge) bool {
	return g.noSess != nil && g.noSess[e] || g.fieldThrows != nil && g.fieldThrows[e]
}

// TriggerFieldThrow reports a Code, Function or Function Item node whose
// code throws on the items of one or more of the triggers that feed it
// straight (fieldThrowEdges): the triggers, why, and the code's
// parameter. all is set when every run that reaches it does (then it is
// one of the nodes that fail on every item, FailsWhy).
func (g *Graph) TriggerFieldThrow(n *n8nschema.Node) (triggers []*n8nschema.Node, why string, code n8nschema.Value, all, ok bool) {
	i, known := g.index(n)
	if !known || !n8nschema.IsCode(n.Type) {
		return nil, "", n8nschema.Value{}, false, false
	}
	edges, all, first := g.fieldThrowEdges(i)
	if len(edges) == 0 {
		return nil, "", n8nschema.Value{}, false, false
	}
	if !all && (g.fieldThrows == nil || !g.fieldThrows[edges[0]]) {
		return nil, "", n8nschema.Value{}, false, false // it continues on fail
	}
	for _, e := range edges {
		triggers = append(triggers, e.From)
	}
	param := "functionCode"
	if n.Type == n8nschema.TypeCode {
		param = "jsCode"
	}
	code, _ = n.Param(param)
	return triggers, first.why(), code, all, true
}
