package analyze

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// What a run's items hold on the way from one start: a field that a Set
// (Edit Fields) node gave a literal value and that no node after it
// changed. A workflow with two triggers often marks each trigger's items
// (triggeredBy: "webhook") and routes them by that field with a Switch:
// on the path from the webhook the Switch's test reads the literal, so it
// sends every item the same way, as a test of literals does (literalDead).
// Read from RunReach's starts: boundWalk carries, node by node, the fields
// whose value is the same literal on every path from a start to it, and
// decides an
// If, Filter or Switch whose operand is one of them ({{ $json.f }}, and
// nothing else) as if the literal stood there. A node that is not a
// Set, nor one that hands on its items as they came (If, Filter, Switch,
// No Op, Wait, or a disabled node), ends what is known.

// fieldEnv maps a top-level field of the items to its literal value.
type fieldEnv map[string]jsVal

// setLiterals reads an enabled Set node: the fields it sets to a literal
// (lit), the top-level fields it sets to anything else (other), and
// whether it hands on its input's other fields (keeps). ok is false when
// what it sets cannot be read (a name that is an expression, raw mode).
// Set v1/v2: values.{boolean,number,string}[{name, value}], the value's
// default false, 0 or "", keepOnlySet false by default (nodes-base
// Set/v1/SetV1.node.js execute). Set v3.3+: assignments.assignments
// [{name, value, type}], includeOtherFields false by default, include
// "all" by default (Set/v2/SetV2.node.js, Set/v2/manual.mode.js,
// helpers/utils.js composeReturnItem). Set v3.0–3.2 (fields.values) and a
// dotted name are read as setting a field to something unknown.
func setLiterals(nd *n8nschema.Node) (lit fieldEnv, other []string, keeps, ok bool) {
	if nd.Disabled || nd.Type != n8nschema.TypeSet {
		return nil, nil, false, false
	}
	lit = fieldEnv{}
	top := func(name string) string {
		if i := strings.IndexAny(name, ".["); i >= 0 {
			return name[:i]
		}
		return name
	}
	add := func(name n8nschema.Value, val jsVal, known bool) bool {
		if name.Kind() != n8nschema.String || name.IsExpr() || looksRead(name.Str()) || name.Str() == "" {
			return false
		}
		s := name.Str()
		if t := top(s); t != s || !known {
			other = append(other, t)
			delete(lit, t)
			return true
		}
		lit[s] = val
		return true
	}
	p := nd.Params()
	if nd.TypeVersion < 3 {
		vals := p.Get("values")
		if vals.Exists() && vals.Kind() != n8nschema.Object {
			return nil, nil, false, false
		}
		for _, dt := range []string{"boolean", "number", "string"} {
			def := v1Defaults[dt][0]
			for _, f := range vals.Get(dt).ElemsSeq() {
				v := f.Get("value")
				val, known := def, true
				if v.Exists() {
					val, known = constOf(v)
					known = known && val.kind == kindNamed(dt)
				}
				if !add(f.Get("name"), val, known) {
					return nil, nil, false, false
				}
			}
		}
		kos := p.Get("keepOnlySet")
		if kos.Exists() && kos.Kind() != n8nschema.Bool {
			return nil, nil, false, false
		}
		return lit, other, !kos.True(), true
	}
	if m := p.Get("mode"); m.Exists() && (m.Kind() != n8nschema.String || m.Str() != "manual") {
		return nil, nil, false, false
	}
	if nd.TypeVersion < 3.3 {
		for _, f := range p.Get("fields.values").ElemsSeq() {
			if !add(f.Get("name"), jsVal{}, false) {
				return nil, nil, false, false
			}
		}
		keeps, ok = setKeeps(nd)
		return lit, other, keeps, ok
	}
	for _, a := range p.Get("assignments.assignments").ElemsSeq() {
		typ := a.Get("type")
		val, known := constOf(a.Get("value"))
		want := kindNamed(typ.Str())
		known = known && typ.Kind() == n8nschema.String && want != 0 && val.kind == want
		if !add(a.Get("name"), val, known) {
			return nil, nil, false, false
		}
	}
	keeps, ok = setKeeps(nd)
	return lit, other, keeps, ok
}

// kindNamed is the kind a Set node's type names: "string", "number" or
// "boolean" (0 for any other).
func kindNamed(typ string) n8nschema.Kind {
	switch typ {
	case "string":
		return n8nschema.String
	case "number":
		return n8nschema.Number
	case "boolean":
		return n8nschema.Bool
	}
	return 0
}

// setKeeps reports whether a Set v3 hands on all of its input's other
// fields: includeOtherFields (v3.3+, off by default) and include "all"
// (the default); "selected" or "except" keep some, read as none.
func setKeeps(nd *n8nschema.Node) (keeps, ok bool) {
	if nd.TypeVersion >= 3.3 {
		inc, has := nd.Param("includeOtherFields")
		if has && inc.Kind() != n8nschema.Bool {
			return false, false
		}
		if !inc.True() {
			return false, true
		}
	}
	inc, has := nd.Param("include")
	if !has {
		return true, true
	}
	if inc.Kind() != n8nschema.String || inc.IsExpr() {
		return false, false
	}
	return inc.Str() == "all", true
}

// passesItems reports a node that hands on the items it is given as they
// came: a test, a No Op, a Wait, and any disabled node (n8n passes a
// disabled node's input on: workflow-execute.js runNode).
func passesItems(nd *n8nschema.Node) bool {
	if nd.Disabled {
		return true
	}
	switch nd.Type {
	case n8nschema.TypeIf, n8nschema.TypeFilter, n8nschema.TypeSwitch, n8nschema.TypeNoOp, n8nschema.TypeWait:
		return true
	}
	return false
}

// setRead is what setLiterals reads of a node.
type setRead struct {
	lit         fieldEnv
	other       []string
	keeps, read bool
}

// envAfter is what items hold after node nd, given what they held before
// and what setLiterals reads of nd (r).
func envAfter(nd *n8nschema.Node, in fieldEnv, r setRead) fieldEnv {
	if passesItems(nd) {
		return in
	}
	lit, other, keeps, ok := r.lit, r.other, r.keeps, r.read
	if !ok {
		return nil
	}
	out := fieldEnv{}
	if keeps {
		for k, v := range in {
			out[k] = v
		}
		for _, k := range other {
			delete(out, k)
		}
	}
	for k, v := range lit {
		out[k] = v
	}
	return out
}

// meetEnv keeps the fields a and b give the same literal; changed when
// that is less than a.
func meetEnv(a, b fieldEnv) (fieldEnv, bool) {
	var out fieldEnv
	for k, v := range a {
		if w, ok := b[k]; ok && v.kind == w.kind && v.same(w) {
			if out == nil {
				out = fieldEnv{}
			}
			out[k] = v
		}
	}
	return out, len(out) != len(a)
}

// boundFieldRE is a parameter value, as the node's raw JSON holds it, that
// is one expression reading one top-level field of the item:
// "={{ $json.f }}", "={{ $json[\"f\"] }}" or "={{ $json['f'] }}".
var boundFieldRE = lazyregexp.New(`"=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(?:\\"|')([\w$ -]+)(?:\\"|')\s*\])\s*\}\}"`)

// boundFieldIn is boundFieldRE.MatchString(raw), tried at each "={{ (the
// pattern's lead, which no other part of it holds): past it every part
// reads one way only, each run of a class ending where the next part
// starts with a byte the class lacks.
func boundFieldIn(raw string) bool {
	for at := 0; ; {
		i := strings.Index(raw[at:], `"={{`)
		if i < 0 {
			return false
		}
		at += i + len(`"={{`)
		if boundFieldAt(raw[at:]) {
			return true
		}
	}
}

// boundFieldAt reports whether s starts with what boundFieldRE holds after
// its "={{: \s*\$json, .name or [ 'name' ] (a quote \" or '), \s*}}".
func boundFieldAt(s string) bool {
	s, ok := strings.CutPrefix(trimRESpace(s), "$json")
	if !ok || s == "" {
		return false
	}
	isName := func(c byte) bool { return ascii.IsWord(c) || c == '$' }
	switch s[0] {
	case '.':
		s = s[1:]
		if s == "" || !isName(s[0]) || '0' <= s[0] && s[0] <= '9' {
			return false
		}
		j := 1
		for j < len(s) && isName(s[j]) {
			j++
		}
		s = s[j:]
	case '[':
		if s, ok = cutFieldQuote(trimRESpace(s[1:])); !ok {
			return false
		}
		j := 0
		for j < len(s) && (isName(s[j]) || s[j] == ' ' || s[j] == '-') {
			j++
		}
		if j == 0 {
			return false
		}
		if s, ok = cutFieldQuote(s[j:]); !ok {
			return false
		}
		if s, ok = strings.CutPrefix(trimRESpace(s), "]"); !ok {
			return false
		}
	default:
		return false
	}
	return strings.HasPrefix(trimRESpace(s), `}}"`)
}

// cutFieldQuote cuts a quote boundFieldRE reads around a name: \" or '.
func cutFieldQuote(s string) (string, bool) {
	if rest, ok := strings.CutPrefix(s, `\"`); ok {
		return rest, true
	}
	return strings.CutPrefix(s, "'")
}

// trimRESpace trims what \s* reads from the start of s (skipSpace).
func trimRESpace(s string) string { return s[skipSpace(s, 0):] }

// jsonLiteral is v as JSON text.
func jsonLiteral(v jsVal) (string, bool) {
	switch v.kind {
	case n8nschema.String:
		return strconv.Quote(v.s), strings.IndexFunc(v.s, func(r rune) bool { return r < 0x20 || r >= 0x7f }) < 0
	case n8nschema.Number:
		if math.IsNaN(v.f) || math.IsInf(v.f, 0) {
			return "", false
		}
		return strconv.FormatFloat(v.f, 'g', -1, 64), true
	case n8nschema.Bool:
		return strconv.FormatBool(v.b), true
	}
	return "", false
}

// boundDead is literalDead for an If, Filter or Switch whose operands
// read fields env gives: each such operand read as the literal (the node
// parsed again with the literal in its place). nil when it reads none or
// stays undecided.
func boundDead(nd *n8nschema.Node, env fieldEnv) []bool {
	if len(env) == 0 || nd.Disabled || !n8nschema.IsBranch(nd.Type) {
		return nil
	}
	raw := nd.Value.Raw()
	if !strings.Contains(raw, "$json") {
		return nil
	}
	replaced := false
	text := boundFieldRE.ReplaceAllStringFunc(raw, func(m string) string {
		sm := boundFieldRE.FindStringSubmatch(m)
		name := sm[1]
		if name == "" {
			name = sm[2]
		}
		v, ok := env[name]
		if !ok {
			return m
		}
		lit, ok := jsonLiteral(v)
		if !ok {
			return m
		}
		replaced = true
		return lit
	})
	if !replaced {
		return nil
	}
	f := n8nschema.Parse(n8nschema.NewSource(nd.Name+"#bound", []byte(`{"nodes":[`+text+`],"connections":{}}`)))
	if len(f.Problems) > 0 || len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
		return nil
	}
	return literalDead(f.Workflows[0].Nodes[0])
}

// mayBind reports whether some Set node of g sets a literal and some
// test reads a field of $json: without both, boundWalk is walkFrom.
func (g *Graph) mayBind() bool {
	g.bindOnce.Do(func() { g.binds = g.findBinds() })
	return g.binds
}

func (g *Graph) findBinds() bool {
	// With no enabled Set node no literal is bound: no test is read.
	if !slices.ContainsFunc(g.Nodes, func(n *n8nschema.Node) bool { return !n.Disabled && n.Type == n8nschema.TypeSet }) {
		return false
	}
	// The tests first: a pattern over a branch's raw text, where
	// setLiterals reads every field a Set node writes.
	test := false
	for _, n := range g.Nodes {
		if !n.Disabled && n8nschema.IsBranch(n.Type) && boundFieldIn(n.Value.Raw()) {
			test = true
			break
		}
	}
	if !test {
		return false
	}
	// Every Set node is read once here, for boundWalk's visits.
	sets, binds := make([]setRead, len(g.Nodes)), false
	for i, n := range g.Nodes {
		if !n.Disabled && n.Type == n8nschema.TypeSet {
			r := &sets[i]
			r.lit, r.other, r.keeps, r.read = setLiterals(n)
			binds = binds || r.read && len(r.lit) > 0
		}
	}
	if binds {
		g.setReads = sets
	}
	return binds
}

// boundWalk is walkFrom(true, true, starts) with the tests that the
// fields bound on the way from the starts decide (boundDead): an output
// such a test never takes for the items that reach it is not followed.
// Each node holds what every path from any of the starts to it gives
// (nothing is known at a start), and that only shrinks as more paths
// reach it, so each node is walked again at most once per field. With
// several starts this may reach more than each start's walk would
// together (a test that each start's items decide apart, but their meet
// does not), never less: one walk keeps it linear when a rule asks from
// every node. Asked only once mayBind is true, which read the Set nodes
// (setReads).
func (g *Graph) boundWalk(starts []*n8nschema.Node) Reach {
	envs := make([]fieldEnv, len(g.Nodes))
	seen := make([]bool, len(g.Nodes))
	queued := make([]bool, len(g.Nodes))
	var queue []int
	var strays []*n8nschema.Node // not the graph's: they reach nothing
	for _, t := range starts {
		if ti, ok := g.index(t); !ok {
			strays = append(strays, t)
		} else if !seen[ti] {
			seen[ti], queued[ti] = true, true
			queue = append(queue, ti)
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		queued[i] = false
		u := g.Nodes[i]
		out := envAfter(u, envs[i], g.setReads[i])
		dead := boundDead(u, envs[i])
		for _, e := range g.outs(i) {
			if e.Type != ConnMain || g.dead(e) || g.failsOnEdge(e) {
				continue
			}
			if !e.Error && e.Output < len(dead) && dead[e.Output] {
				continue
			}
			j := int(e.to)
			if !seen[j] {
				seen[j], envs[j] = true, out
			} else if m, changed := meetEnv(envs[j], out); changed {
				envs[j] = m
			} else {
				continue
			}
			if !queued[j] {
				queued[j] = true
				queue = append(queue, j)
			}
		}
		// The sub-nodes of what runs, as walkFrom adds them: their items
		// are their own, so nothing is known of them.
		if g.noCall != nil && g.noCall[i] {
			continue
		}
		for _, e := range g.ins(i) {
			if j := int(e.from); e.Type != ConnMain && !seen[j] {
				seen[j], queued[j] = true, true
				queue = append(queue, j)
			}
		}
	}
	reach := g.newReach()
	for _, t := range strays {
		reach.add(t) // held once, as walkFrom holds them
	}
	for i, s := range seen {
		if s {
			reach.mark[i] = 1
			reach.nodes = append(reach.nodes, g.Nodes[i])
		}
	}
	return reach
}

// switchV1Dead reads a Switch v1 or v2 in rules mode (the default):
// value1 is compared, in the data type dataType (number by default), with
// each rule's value2 by its operation (equal by default, smaller for a number), and the item
// goes to the first rule that passes: to its output (0 by default) in v1,
// to the rule's own index in v2; when none passes, to fallbackOutput (-1,
// none, by default). Rules are read with If v1's comparisons (v1Compare:
// the same compareOperationFunctions); a dateTime, a regex or any operand
// that is not a literal leaves it undecided, and so does an output out of
// range, on which the node throws (nodes-base Switch/V1/SwitchV1.node.js
// and V2/SwitchV2.node.js execute).
func switchV1Dead(nd *n8nschema.Node) []bool {
	p := nd.Params()
	if m := p.Get("mode"); m.Exists() && (m.Kind() != n8nschema.String || m.Str() != "rules") {
		return nil
	}
	dt := "number"
	if d := p.Get("dataType"); d.Exists() {
		if d.Kind() != n8nschema.String || d.IsExpr() {
			return nil
		}
		dt = d.Str()
	}
	def, ok := v1Defaults[dt]
	if !ok {
		return nil // dateTime
	}
	lit := func(v n8nschema.Value, dflt jsVal) (jsVal, bool) {
		if !v.Exists() {
			return dflt, true
		}
		return constOf(v)
	}
	v1, ok := lit(p.Get("value1"), def[0])
	if !ok {
		return nil
	}
	rules := p.Get("rules.rules").Elems()
	if len(rules) == 0 || len(rules) > maxGateConditions {
		return nil // with no rule, an unfinished node: not read here
	}
	outputs := 4
	if nd.TypeVersion >= 2 {
		outputs = len(rules)
	}
	taken := -1
	for k, r := range rules {
		opv, ok1 := lit(r.Get("operation"), def[1])
		v2, ok2 := lit(r.Get("value2"), def[2])
		if !ok1 || !ok2 {
			return nil
		}
		res := v1Compare(dt, v1, opv, v2)
		if res != gateTrue && res != gateFalse {
			return nil
		}
		if res == gateFalse {
			continue
		}
		taken = k
		if nd.TypeVersion < 2 {
			o, ok := lit(r.Get("output"), jsVal{kind: n8nschema.Number})
			if !ok || o.kind != n8nschema.Number || o.f != math.Trunc(o.f) {
				return nil
			}
			taken = int(o.f)
		}
		break
	}
	if taken < 0 {
		fb, ok := lit(p.Get("fallbackOutput"), jsVal{kind: n8nschema.Number, f: -1})
		if !ok || fb.kind != n8nschema.Number || fb.f != math.Trunc(fb.f) {
			return nil
		}
		taken = int(fb.f)
	}
	if taken < -1 || taken >= outputs {
		return nil // checkIndexRange throws
	}
	dead := make([]bool, outputs)
	for k := range dead {
		dead[k] = k != taken
	}
	return dead
}
