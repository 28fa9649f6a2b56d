package n8nschema

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// Parse reads one input and returns every workflow it holds, in the shapes
// of docs/design.md#inputs and docs/n8n-behaviour.md#input-shapes: a workflow object, an array of
// workflows (export:workflow --all), an API list page {data, nextCursor},
// and template wrappers {workflow:{...}} / {workflow:{workflow:{...}}}.
// It never fails: what is wrong with the input comes back as Problems.
func Parse(src *Source) *File {
	f := &File{Source: src}
	p := parser{f: f}
	body, base := src.Src, 0
	if hasBOM(body) {
		body, base = body[3:], 3
	}
	if len(bytes.TrimSpace(body)) == 0 {
		f.Problems = append(f.Problems, Problem{Kind: InvalidJSON, Pos: src.PosAt(0, ""),
			Message: "file is empty; expected an n8n workflow JSON object"})
		return f
	}
	if len(body) > maxText {
		f.Problems = append(f.Problems, Problem{Kind: InvalidJSON, Pos: src.PosAt(0, ""),
			Message: fmt.Sprintf("file is larger than %d bytes, the most the parser reads; the file is not audited", maxText)})
		return f
	}
	r := buildTree(src, view(body), base)
	src.valid = r.ok
	if r.deepAt >= 0 {
		p.deep(r.deepAt + base)
		return f
	}
	if !r.ok {
		// Nesting too deep anywhere wins over the first syntax error, as
		// when the depth was checked before validation.
		if off := deepBracket(body); off >= 0 {
			p.deep(off + base)
			return f
		}
		end, prob, ok := firstValue(src, body, base)
		f.Problems = append(f.Problems, prob)
		if !ok {
			return f
		}
		body = body[:end] // audit the valid value before the trailing data
		if r = buildTree(src, view(body), base); !r.ok {
			return f
		}
	}
	if len(r.reps) > 0 {
		p.lastMembersWin(r.t, body, base, r.reps)
	}
	p.shape(Value{t: r.t}, true)
	return f
}

func (p *parser) deep(off int) {
	p.f.Problems = append(p.f.Problems, Problem{Kind: InvalidJSON, Pos: p.f.Source.PosAt(off, ""),
		Message: fmt.Sprintf("arrays and objects nest more than %d levels deep here; the file is not audited", MaxDepth)})
}

// lastMembersWin reports each repeated key once, at its last member:
// JSON.parse keeps the last member of a name, and so does the tree. The
// earlier members are blanked out of a copy of body (offsets, lines and
// columns stay those of the source), which Raw reads: the text of an
// object is then what n8n reads too; t reads that copy from then on.
func (p *parser) lastMembersWin(t *tree, body []byte, base int, reps []repeatedKey) {
	src := p.f.Source
	out := bytes.Clone(body)
	// Inner members end first; report in source order.
	slices.SortFunc(reps, func(a, b repeatedKey) int { return a.off - b.off })
	for _, r := range reps {
		// The comma after the earlier member goes with it (a later member
		// of the same name always follows).
		to := r.blankTo
		for to < len(body) && body[to] != ',' {
			to++
		}
		blank(out, r.blankFrom, to+1)
	}
	t.text = view(out)
	root := Value{t: t}
	chains := keyChains(reps, body, func(at []string) (bool, string) { return readByN8n(root, at) })
	pos := positionsAt(src, base, chains)
	for i, c := range chains {
		first, at := pos[2*i], pos[2*i+1]
		at.Path = c.path
		lost, where := c.lostOff >= 0, c.lostPath
		copies := fmt.Sprintf("appears again in the same object (first at %s); n8n (JSON.parse) keeps only this last copy", first)
		if c.dropped > 1 {
			copies = fmt.Sprintf("appears %d times in the same object (first at %s); n8n (JSON.parse) keeps only this last copy and drops %d", c.dropped+1, first, c.dropped)
		}
		which := "the first copy"
		if c.lostOff != c.firstOff {
			which = fmt.Sprintf("the copy at %s", pos[2*len(chains)+i])
		}
		var msg string
		switch {
		case !lost && c.unreadWhy != "":
			msg = fmt.Sprintf("key %s %s; what the earlier %s holds%s is %s, so no run changes",
				strconv.Quote(c.key), copies, plural(c.dropped, "copy", "copies"), atPath(c.unreadPath), c.unreadWhy)
		case !lost:
			msg = fmt.Sprintf("key %s %s; %s, so nothing is lost",
				strconv.Quote(c.key), copies, plural(c.dropped, "the earlier copy is empty or holds the same values", "the earlier copies are empty or hold the same values"))
		case where == "":
			msg = fmt.Sprintf("key %s %s, so the value of %s is lost", strconv.Quote(c.key), copies, which)
		default:
			msg = fmt.Sprintf("key %s %s, so what %s holds at %s is lost", strconv.Quote(c.key), copies, which, strconv.Quote(where))
		}
		p.f.Problems = append(p.f.Problems, Problem{Kind: DuplicateKey, Pos: at, Note: !lost, Message: msg})
	}
}

// readByN8n says whether n8n reads a scalar at the path at (keys from
// the file's root, read in the kept copies), as far as the file tells,
// and when it does not, why. In a workflow's connections only what sits
// at a connection (source, type, output slot, connection) can be an
// edge: a scalar above that, a number under a made-up connection type,
// yields none (for...in over it, n8n-workflow
// common/map-connections-by-destination.js). Below a node's parameters,
// only a top-level parameter its type declares at its version is kept
// when n8n loads the workflow (DeclaresParam).
func readByN8n(root Value, at []string) (bool, string) {
	v := root
	for i, k := range at {
		if v.Kind() == Object && (k == "connections" || k == "nodes") && v.Get("nodes").Kind() == Array && v.Get("connections").Exists() {
			rest := at[i+1:]
			if k == "connections" {
				return len(rest) >= 4, "no connection n8n follows (it reads edges only from connection objects in output slots)"
			}
			if len(rest) < 3 || rest[1] != "parameters" {
				return true, ""
			}
			n := v.Get("nodes." + rest[0])
			typ := n.Get("type")
			if typ.Kind() != String {
				return true, ""
			}
			ver, _ := n.Get("typeVersion").Num()
			if DeclaresParam(typ.Str(), ver, rest[2]) {
				return true, ""
			}
			return false, fmt.Sprintf("no parameter of %s v%s, which n8n drops when it loads the workflow", typ.Str(), strconv.FormatFloat(ver, 'f', -1, 64))
		}
		v = v.Get(escapeKey(k))
		if !v.Exists() {
			return true, ""
		}
	}
	return true, ""
}

// atPath names where in a dropped copy something sits: nowhere for the
// value itself.
func atPath(path string) string {
	if path == "" {
		return ""
	}
	return " at " + strconv.Quote(path)
}

// positionsAt returns the positions of each chain's first and kept key
// (2i, 2i+1), then of the key of the copy whose loss it reports
// (2len+i), worked out in offset order: PosAt counts a column from where
// it last stopped only going forward, and the earlier keys of interleaved
// repeats ("a","b","a","b" ...) go back, which on a one-line export
// counted from the line's start each time (quadratic: a 1 MB file took
// 40 s).
func positionsAt(src *Source, base int, chains []keyChain) []Pos {
	at := make([]int, 3*len(chains))
	for i, c := range chains {
		at[2*i], at[2*i+1], at[2*len(chains)+i] = base+c.firstOff, base+c.keptOff, base+max(c.lostOff, 0)
	}
	order := make([]int, len(at))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return at[a] - at[b] })
	pos := make([]Pos, len(at))
	for _, i := range order {
		pos[i] = src.PosAt(at[i], "")
	}
	return pos
}

// firstValue explains why body is not valid JSON. When a valid value is
// followed by trailing data (a title pasted after the closing brace), it
// returns the end of that value so the workflow can still be audited.
func firstValue(src *Source, body []byte, base int) (end int, p Problem, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var raw json.RawMessage
	err := dec.Decode(&raw)
	if err == nil {
		end = int(dec.InputOffset())
		off := end
		for off < len(body) && isSpace(body[off]) {
			off++
		}
		return end, Problem{Kind: InvalidJSON, Pos: src.PosAt(base+off, ""),
			Message: fmt.Sprintf("unexpected data after the JSON value: %s", quoteSnippet(body[off:]))}, true
	}
	var se *json.SyntaxError
	off := len(body)
	msg := err.Error()
	if errors.As(err, &se) {
		off = int(se.Offset)
		// The decoder's offset is just past the offending byte.
		if off > 0 {
			off--
		}
		msg = se.Error()
	} else if errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of file"
	}
	if off > len(body) {
		off = len(body)
	}
	return 0, Problem{Kind: InvalidJSON, Pos: src.PosAt(base+off, ""), Message: "invalid JSON: " + msg}, false
}

func quoteSnippet(b []byte) string {
	s := string(b)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if len([]rune(s)) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return strconv.Quote(s)
}

type parser struct {
	f *File
	// wrapper is the template object around the workflow being read
	// ({id, name, workflow: {nodes, connections}}); it names the workflow
	// when the inner object does not. Its id is the gallery's template id,
	// never the workflow's: importing a template makes a new workflow with
	// an id of its own.
	wrapper Value
}

func (p *parser) problem(k ProblemKind, pos Pos, node, format string, args ...any) {
	p.f.Problems = append(p.f.Problems, Problem{Kind: k, Pos: pos, Node: node, Message: fmt.Sprintf(format, args...)})
}

// shape finds the workflows in v. top is true for the root of the file.
func (p *parser) shape(v Value, top bool) {
	switch v.Kind() {
	case Array:
		elems := v.Elems()
		skipped := p.workflowsIn(elems)
		if len(skipped) == len(elems) {
			p.problem(NotWorkflow, v.ValuePos(), "", "array of %d %s holds no n8n workflow (expected objects with \"nodes\" and \"connections\")",
				len(elems), plural(len(elems), "element", "elements"))
			return
		}
		// Some elements are workflows: say which others were skipped, even
		// those that look like one ({"nodes": [...]} without connections).
		for _, e := range skipped {
			p.problem(NotWorkflow, e.ValuePos(), "", "array element %s is not an n8n workflow; skipped", lastElem(e.Path()))
		}
	case Object:
		if p.workflowIn(v) {
			return
		}
		p.problem(NotWorkflow, v.ValuePos(), "", "%s", describeNonWorkflow(v))
	default:
		p.problem(NotWorkflow, v.ValuePos(), "", "a JSON %s is not an n8n workflow", kindName(v.Kind()))
	}
}

// members are the top-level members of an object that the parser reads,
// each as v.Get(key) returns it.
type members struct {
	id, name, active, nodes, connections, activeVersion, settings, data, workflow, isArchived, versionID Value
}

// membersKeys are the keys of members, in its field order.
var membersKeys = []string{"id", "name", "active", "nodes", "connections", "activeVersion", "settings", "data", "workflow", "isArchived", "versionId"}

// membersOf reads them in one pass over v's members instead of a search
// per key.
func membersOf(v Value) members {
	var out [11]Value
	v.getMany(membersKeys, out[:])
	return members{id: out[0], name: out[1], active: out[2], nodes: out[3], connections: out[4],
		activeVersion: out[5], settings: out[6], data: out[7], workflow: out[8], isArchived: out[9], versionID: out[10]}
}

// workflowIn reads the workflow(s) inside v if it has a known shape.
func (p *parser) workflowIn(v Value) bool {
	if v.Kind() != Object {
		return false
	}
	m := membersOf(v)
	nodes, conns := m.nodes, m.connections
	switch {
	case nodes.Kind() == Array && (conns.Kind() == Object || conns.Kind() == Array):
		p.workflow(v, &m)
		return true
	case m.data.Kind() == Array && !nodes.Exists():
		// A public API list page: {data: [...], nextCursor}.
		saved := p.wrapper
		p.wrapper = Value{}
		defer func() { p.wrapper = saved }()
		elems := m.data.Elems()
		skipped := p.workflowsIn(elems)
		if len(skipped) == len(elems) {
			// Not a page of workflows (or an empty last page): one problem
			// for the object, not one per row of someone's data file.
			return len(elems) == 0 && v.Get("nextCursor").Exists()
		}
		for _, e := range skipped {
			p.problem(NotWorkflow, e.ValuePos(), "", "data element %s is not an n8n workflow; skipped", lastElem(e.Path()))
		}
		return true
	case m.workflow.Kind() == Object:
		// Template gallery wrappers nest the workflow once or twice; the
		// template API's wrapper also lists node types in its own "nodes".
		saved := p.wrapper
		p.wrapper = v
		defer func() { p.wrapper = saved }()
		return p.workflowIn(m.workflow)
	}
	return false
}

// workflowsIn reads the workflows among elems and returns the elements
// that hold none.
func (p *parser) workflowsIn(elems []Value) (skipped []Value) {
	for _, e := range elems {
		if !p.workflowIn(e) {
			skipped = append(skipped, e)
		}
	}
	return skipped
}

func describeNonWorkflow(v Value) string {
	nodes, conns := v.Get("nodes"), v.Get("connections")
	switch {
	case nodes.Kind() == Array && v.Get("edges").Exists():
		return "object has \"nodes\" and \"edges\" but no \"connections\": this looks like another tool's format (a Flowise chatflow?), not an n8n workflow"
	case nodes.Kind() == Array:
		return "object has \"nodes\" but no \"connections\" object; not an n8n workflow"
	case nodes.Exists():
		return fmt.Sprintf("\"nodes\" is a JSON %s, expected an array; not an n8n workflow", kindName(nodes.Kind()))
	case conns.Exists():
		return "object has \"connections\" but no \"nodes\" array; not an n8n workflow"
	}
	var keys []string
	v.Each(func(k string, _ Value) bool {
		keys = append(keys, strconv.Quote(k))
		return len(keys) < 6
	})
	if len(keys) == 0 {
		return "empty object is not an n8n workflow (expected \"nodes\" and \"connections\")"
	}
	return fmt.Sprintf("object with keys %s is not an n8n workflow (expected \"nodes\" and \"connections\")", strings.Join(keys, ", "))
}

func (p *parser) workflow(v Value, m *members) {
	w := &Workflow{Source: p.f.Source, Path: v.Path(), Ordinal: len(p.f.Workflows), Value: v}
	id, name := m.id, m.name
	if p.wrapper.Exists() && !name.Exists() {
		// {id, name, workflow: {nodes, connections}}: the template names it.
		name = p.wrapper.Get("name")
	}
	w.ID = id.Str()
	w.Name = name.Str()
	w.VersionID = m.versionID.Str()
	w.Active = m.active.True()
	w.Archived = m.isArchived.True()
	if name.Exists() {
		w.Pos = name.Pos()
	} else {
		w.Pos = v.ValuePos()
	}
	nodes, conns := m.nodes, m.connections
	// n8n 2.x runs the published version (activeVersion) in production.
	// An empty published version beside a draft with nodes is a stripped
	// copy, not what runs: n8n publishes only a workflow with a trigger
	// (cli/src/workflows/workflow-validation.service.ts
	// validateForActivation), so the draft is audited.
	if av := m.activeVersion; av.Kind() == Object && av.Get("nodes").Kind() == Array &&
		(av.Get("nodes").len() > 0 || nodes.len() == 0) {
		w.Published = true
		w.DraftDiffers = av.Get("nodes").Raw() != nodes.Raw() || av.Get("connections").Raw() != conns.Raw()
		nodes, conns = av.Get("nodes"), av.Get("connections")
	}
	wp := &wfParser{p: p, w: w}
	wp.nodes(nodes)
	wp.w.ParametersLost = parametersLost(wp.w.Nodes)
	wp.connections(conns)
	wp.settings(m.settings)
	p.f.Workflows = append(p.f.Workflows, w)
}

type wfParser struct {
	p *parser
	w *Workflow
	// importNames are the names the editor may give the nodes without a
	// name when it imports the workflow (ImportName), before a number
	// makes them unique; anyName when a node's type does not say.
	importNames map[string]bool
	longest     int // the longest of importNames
	anyName     bool
	// typeless is true when a node has neither name nor type: a
	// connection to a missing node may be to it, and n8n cannot build
	// the workflow anyway (RS010).
	typeless bool
	strs     []string // see strings
	from     *Node    // the node of the connections being read (edge)
}

// strings returns room for n strings, cut from a block shared by the
// workflow's nodes rather than an allocation each (capped: an append
// to it copies).
func (wp *wfParser) strings(n int) []string {
	if len(wp.strs) < n {
		wp.strs = make([]string, max(n, min(cap(wp.w.Nodes), 32)))
	}
	s := wp.strs[:n:n]
	wp.strs = wp.strs[n:]
	return s
}

func (wp *wfParser) problem(k ProblemKind, pos Pos, node, format string, args ...any) {
	wp.w.Problems = append(wp.w.Problems, Problem{Kind: k, Pos: pos, Node: node, Message: fmt.Sprintf(format, args...)})
}

func (wp *wfParser) nodes(nodes Value) {
	w := wp.w
	count := nodes.len()
	w.Nodes = make([]*Node, 0, count)
	w.byName = newNameIndex(count)
	// One block for the nodes, not an allocation per node.
	block := make([]Node, count)
	paths := newNodePaths(nodes.fullPath(), count)
	var dups [][2]*Node // a node and the earlier one holding its name
	nodes.eachElem(func(i int, e Value) bool {
		nodePath, paramsPath, namePath := paths.next(i)
		if e.Kind() != Object {
			if e.Kind() != Null {
				wp.problem(BrokenConnection, e.ValuePos(), "", "nodes[%d] is a JSON %s, expected a node object; skipped", i, kindName(e.Kind()))
			}
			return true
		}
		e = e.withPath(nodePath)
		n := &block[i]
		n.Index = i
		n.wf = w
		n.Value = e
		var namePos Pos
		typeName := true // false when "type" is there but no string
		en := e.node()
		for c := en.first; c < en.first+en.n; c++ {
			k := e.t.keyOf(&e.t.nodes[c])
			// f is read, not kept: its path is made (memberAt) only for
			// the members kept or reported.
			f := Value{t: e.t, i: c}
			switch k {
			case "id":
				n.ID = strAt(e.t, c)
			case "name":
				if f.Kind() == String || f.Kind() == Number {
					n.Name = strAt(e.t, c)
				}
				namePos = f.posAs(namePath)
			case "type":
				n.Type = strAt(e.t, c)
				typeName = f.Kind() == String
			case "typeVersion":
				n.TypeVersion, _ = versionNum(f)
				n.TypeVersionSet = true
			case "disabled":
				n.Disabled = f.True()
			case "notes":
				n.Notes = f.Str()
			case "retryOnFail":
				n.RetryOnFail = f.True()
			case "maxTries":
				n.maxTries = c
			case "waitBetweenTries":
				n.waitTries = c
			case "onError":
				n.OnError = f.Str()
			case "continueOnFail":
				n.ContinueOnFail = f.True()
			case "executeOnce":
				n.ExecuteOnce = f.True()
			case "alwaysOutputData":
				n.AlwaysOutputData = f.True()
			case "webhookId":
				n.WebhookID = f.Str()
			case "parameters":
				n.params = c
				n.BareBraces, n.noExprs = e.t.markLiterals(c)
			case "credentials":
				n.creds = c
				if c := f.len(); c > 0 && f.Kind() == Object {
					n.Credentials = wp.strings(c)
					for k := range c {
						n.Credentials[k] = f.keyAt(k)
					}
					slices.Sort(n.Credentials)
				}
			}
		}
		n.paramsPath = paramsPath
		n.indexHot()
		if n.TypeVersion == 0 {
			// n8n runs a node with no typeVersion (or a null or 0 one) at
			// its type's default version (VersionedNodeType.getNodeType
			// takes `version ? version : currentVersion`); an unknown type
			// keeps 0.
			n.TypeVersion, _ = DefaultVersion(n.Type)
		}
		n.Pos = namePos
		if !n.Pos.IsValid() {
			n.Pos = e.ValuePos()
		}
		if !typeName {
			// An object or number where the type name belongs: n8n cannot
			// build the workflow, as for a node with no type, and RS010
			// reports it (analyze.Graph.Unloadable).
			n.Type = ""
		}
		if !n.IsSticky() {
			n.describe()
		}
		if n.Name == "" {
			if n.Type == "" {
				// The editor skips a node with no type at import, with the
				// connections naming missing nodes ("Skipped 1 node(s)
				// with missing type"), and n8n cannot build the workflow
				// as stored: RS010 reports it. A connection to a missing
				// node may be to it, under the name the export lost.
				wp.typeless = true
			} else if !n.IsSticky() {
				// The editor names it at import after its type's display
				// name, made unique with a number ("Gmail1"), so a
				// connection to that name may well reach it there.
				wp.problem(BrokenConnection, n.Pos, "", "nodes[%d] (%s) has no name; n8n names it after its type when the workflow is imported, and stormcheck cannot follow connections to that name", i, n.Type)
				wp.w.Problems[len(wp.w.Problems)-1].Note = true
				wp.nameless(n.Type)
			}
			w.Nodes = append(w.Nodes, n)
			return true
		}
		if n.IsSticky() {
			// A sticky note never runs and no connection names it: two
			// notes sharing a title are no ambiguity. It gets the name only
			// when no node that runs holds it (below).
			w.Nodes = append(w.Nodes, n)
			return true
		}
		if first := w.byName.add(n); first != nil {
			dups = append(dups, [2]*Node{first, n})
		}
		w.Nodes = append(w.Nodes, n)
		return true
	})
	if len(dups) > 0 {
		wp.duplicateNames(dups)
	}
	for _, n := range w.Nodes {
		if n.IsSticky() && n.Name != "" {
			w.byName.add(n)
		}
	}
}

// versionNum is v.Num() of a value v that is there, read in place when
// it is a number of one digit, or of a digit, a dot and a digit (nearly
// every typeVersion): as exactFloat reads it, the digits as an integer
// divided by ten.
func versionNum(v Value) (float64, bool) {
	if n := v.node(); n.kind() == Number {
		switch raw := v.t.text[n.off:n.first]; {
		case len(raw) == 1:
			return float64(raw[0] - '0'), true
		case len(raw) == 3 && raw[1] == '.' && isDigit(raw[0]) && isDigit(raw[2]):
			return float64(int(raw[0]-'0')*10+int(raw[2]-'0')) / 10, true
		}
	}
	return v.Num()
}

// parametersLost reports whether every node that runs has empty
// parameters and one of them cannot run that way.
func parametersLost(nodes []*Node) bool {
	cannot := false
	for _, n := range nodes {
		if n.IsSticky() {
			continue
		}
		if p := n.Params(); p.Kind() == Object && p.len() > 0 || p.Kind() != Object && p.Exists() && p.Kind() != Null {
			return false
		}
		cannot = cannot || NeedsParameters(n)
	}
	return cannot
}

// NeedsParameters reports a node that cannot run with every parameter at
// its default: an HTTP Request has no URL, an If, Filter or Switch no
// condition or rule, an Execute Workflow no workflow, an app node no
// record, channel or text to act on.
func NeedsParameters(n *Node) bool {
	typ := strings.TrimSuffix(n.Type, "Tool")
	switch {
	case IsHTTPRequest(n.Type), IsBranch(typ), typ == TypeExecuteWorkflow:
		return true
	}
	sp := Lookup(typ)
	return sp.Role == RoleExternal && sp.Known
}

// duplicateNames reports nodes that share a name: one problem per name,
// however many copies, at the second. Two shapes are only notes, one per
// workflow: every copy runs as its first does (the same node but for its
// id and canvas position, as in an export doubled by a tool or a node
// pasted twice: whichever n8n keeps, it runs the same node), or the nodes
// array is several workflows pasted one after the other, each with its
// own trigger (cut it at every name that repeats: each piece has unique
// names and a trigger).
func (wp *wfParser) duplicateNames(dups [][2]*Node) {
	identical, bytewise := true, true
	for _, d := range dups {
		same := d[0].Value.Raw() == d[1].Value.Raw()
		bytewise = bytewise && same
		identical = identical && (same || runsAlike(d[0], d[1]))
	}
	if identical {
		var names []string
		for _, d := range dups {
			if q := strconv.Quote(d[0].Name); !slices.Contains(names, q) {
				names = append(names, q)
			}
		}
		how := "byte for byte"
		if !bytewise {
			how = "but for id and canvas position"
		}
		what := fmt.Sprintf("nodes[%d] repeats nodes[%d] (%s) %s", dups[0][1].Index, dups[0][0].Index, names[0], how)
		if len(dups) > 1 {
			what = fmt.Sprintf("%d nodes repeat earlier ones %s (%s)", len(dups), how, strings.Join(names, ", "))
		}
		why := "a doubled export; connections cannot tell the copies apart, but each copy is the same node"
		if !bytewise {
			why = "connections cannot tell the copies apart, but whichever n8n keeps (the last) runs the same: id and position change no run"
		}
		wp.problem(DuplicateName, dups[0][1].Pos, "", "%s: %s; %s", what, why, refusesDuplicate(dups[0][0].Name))
		wp.w.Problems[len(wp.w.Problems)-1].Note = true
		// n8n keeps one node of a name and reaches it through the name's
		// connections; the copies run alike, so the first stands for it
		// and the later copies are no nodes of their own: no rule judges
		// them apart from the name's edges.
		copies := make(map[*Node]bool, len(dups))
		for _, d := range dups {
			copies[d[1]] = true
		}
		wp.w.Nodes = slices.DeleteFunc(wp.w.Nodes, func(n *Node) bool { return copies[n] })
		return
	}
	if k := wp.pastedWorkflows(); k > 1 {
		wp.problem(DuplicateName, dups[0][1].Pos, "", "the nodes array holds %d workflows pasted one after another, each with its own trigger, and %d node name(s) repeat across them; import each workflow on its own (%s)",
			k, len(dups), refusesDuplicate(dups[0][0].Name))
		wp.w.Problems[len(wp.w.Problems)-1].Note = true
		return
	}
	var order []string
	uses := map[string][]int{}
	at := map[string]Pos{}
	for _, d := range dups {
		name := d[0].Name
		if _, ok := uses[name]; !ok {
			order = append(order, name)
			uses[name] = []int{d[0].Index}
			at[name] = d[1].Pos
		}
		uses[name] = append(uses[name], d[1].Index)
	}
	for _, name := range order {
		idx := uses[name]
		list := make([]string, len(idx))
		for i, x := range idx {
			list[i] = fmt.Sprintf("nodes[%d]", x)
		}
		used := strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
		wp.problem(DuplicateName, at[name], name, "node name %q is used by %s; connections are keyed by name, so n8n cannot tell them apart; %s",
			name, used, refusesDuplicate(name))
	}
}

// refusesDuplicate says what n8n 2.41.1 answers a workflow whose nodes
// share a name, as observed: import:workflow exits 1 and imports nothing
// of that run, and the REST and public APIs answer HTTP 400 to a create
// or a save, with the structure check's message for the name (n8n-workflow
// dist/cjs/workflow-structure-validation.js safeParseWorkflowStructure,
// called from n8n/dist/services/import.service.js importWorkflows and
// workflows/workflow-creation.service.js createWorkflow through
// workflow-helpers.js validateWorkflowStructure; docs/n8n-facts.md). n8n
// 2.8.4 imports it without a word, and the editor's own import (a file, a
// URL, a paste) does not run that check (docs/precision.md part HK).
func refusesDuplicate(name string) string {
	return fmt.Sprintf("n8n 2.41.1's import:workflow and API refuse this workflow: Duplicate node name %q (2.8.4 takes it, and the editor's own import does not refuse it)", name)
}

// runsAlike reports whether two nodes differ at most in what no run
// reads: the id and the canvas position. n8n keeps the last node of a
// name (n8n-workflow workflow.js setNodes) and runs it from its type,
// version, parameters, credentials and settings, so either copy runs the
// same.
func runsAlike(a, b *Node) bool {
	x, okA := decodeValue([]byte(a.Value.Raw()))
	y, okB := decodeValue([]byte(b.Value.Raw()))
	ma, isA := x.(map[string]any)
	mb, isB := y.(map[string]any)
	if !okA || !okB || !isA || !isB {
		return false
	}
	for _, k := range []string{"id", "position"} {
		delete(ma, k)
		delete(mb, k)
	}
	return reflect.DeepEqual(ma, mb)
}

// pastedWorkflows cuts the nodes array at every node whose name an earlier
// node of the same piece holds, and returns the number of pieces when each
// has a trigger (0 otherwise).
func (wp *wfParser) pastedWorkflows() int {
	pieces, trigger := 1, false
	seen := map[string]bool{}
	for _, n := range wp.w.Nodes {
		if n.Name == "" || n.IsSticky() {
			continue
		}
		if seen[n.Name] {
			if !trigger {
				return 0
			}
			pieces, trigger = pieces+1, false
			clear(seen)
		}
		seen[n.Name] = true
		trigger = trigger || Lookup(n.Type).Role == RoleTrigger
	}
	if !trigger {
		return 0
	}
	return pieces
}

func (wp *wfParser) connections(conns Value) {
	w := wp.w
	switch conns.Kind() {
	case Object:
	case Missing, Null:
		return
	default:
		wp.problem(BrokenConnection, conns.Pos(), "", "\"connections\" is a JSON %s, expected an object keyed by source node name; no connection was read", kindName(conns.Kind()))
		return
	}
	// ids is built at the first source name that is no node's.
	var ids map[string]string
	if n := countEdges(conns); n > 0 {
		w.Connections = make([]Connection, 0, n)
	}
	// Connections keyed by node id come from one mistake (a generator
	// that wrote ids): one problem for all of them, at the first.
	var byID []string
	var byIDPos Pos
	var byIDEdges []DroppedEdge
	var odd []oddMain
	conns.Each(func(from string, byType Value) bool {
		if wp.from = w.byName.get(from); wp.from == nil {
			if ids == nil {
				ids = map[string]string{}
				for _, n := range w.Nodes {
					if n.ID != "" {
						ids[n.ID] = n.Name
					}
				}
			}
			if name, ok := ids[from]; ok {
				if len(byID) == 0 {
					byIDPos = byType.Pos()
				}
				byID = append(byID, fmt.Sprintf("%q (node %q)", from, name))
				byIDEdges = droppedFrom(name, byType, ids, byIDEdges)
			} else if !wp.typeless || byType.Kind() == Null {
				// A source name no node holds may be the name a node with
				// neither name nor type lost (RS010 reports that node).
				wp.problem(BrokenConnection, byType.Pos(), "", "connections name source node %q, which does not exist", from)
				wp.w.Problems[len(wp.w.Problems)-1].Dropped = droppedFrom(from, byType, nil, nil)
				if byType.Kind() == Null {
					wp.fatal(buildFails, "Object.keys(null) throws")
				}
			}
			return true
		}
		if byType.Kind() != Object {
			wp.problem(BrokenConnection, byType.Pos(), from, "connections of %q are a JSON %s, expected an object keyed by connection type", from, kindName(byType.Kind()))
			switch {
			case byType.Kind() == Null:
				wp.fatal(buildFails, "Object.keys(null) throws")
			case bareOutputs(byType):
				// [[{"node": ...}]]: n8n reads each index as a connection
				// type, each slot as that type's outputs, and each
				// connection object as an output slot it iterates
				// (map-connections-by-destination.js L13-21).
				wp.fatal(buildFails, "object is not iterable")
			}
			return true
		}
		// The types, slots and connections are read off the tree's nodes:
		// a Value's methods cost more than the walk itself. Their paths
		// are the tree's (conns is a member the parser found by a plain
		// key, never a Get path spelled otherwise), made only for a
		// problem's position or when a connection's position is asked.
		tr, bn := byType.t, byType.node()
		for k := bn.first; k < bn.first+bn.n; k++ {
			on := &tr.nodes[k]
			typ, outputs := tr.keyOf(on), treeValue(tr, k)
			if on.kind() != Array {
				switch {
				case outputs.Kind() == Null:
					// for...in over null reads nothing: no edge.
					wp.problem(BrokenConnection, outputs.Pos(), from, "%q outputs of %q are null, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)", typ, from)
					wp.w.Problems[len(wp.w.Problems)-1].Note = true
				case outputs.Kind() == Object && outputs.len() == 0:
					// n8n walks it as a list of no slots.
					wp.problem(BrokenConnection, outputs.Pos(), from, "%q outputs of %q are an empty object, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)", typ, from)
					wp.w.Problems[len(wp.w.Problems)-1].Note = true
				case outputs.Kind() == Object:
					// {"0": [...], "1": [...]}: n8n reads the keys as
					// output indexes (for...in, then parseInt when it
					// maps the connections by destination; the engine
					// reads nodeSuccessData[key] after the node runs), so
					// a key that is an index is that output, and another
					// key no output's.
					wp.problem(BrokenConnection, outputs.Pos(), from, "%q outputs of %q are an object keyed by output index, expected an array of output slots; n8n follows each member as the output its key names (n8n 2.41.1 refuses to import the file until it is an array)", typ, from)
					wp.w.Problems[len(wp.w.Problems)-1].Note = true
					for k := range outputs.len() {
						key, slot := outputs.keyAt(k), treeValue(tr, on.first+uint32(k))
						out, ok := outputIndex(key)
						if !ok {
							wp.problem(BrokenConnection, slot.Pos(), from, "%q outputs of %q hold the key %q, which is no output index; n8n never follows the connections under it", typ, from, key)
							continue
						}
						wp.slot(from, typ, out, slot)
					}
				default:
					wp.problem(BrokenConnection, outputs.Pos(), from, "%q outputs of %q are a JSON %s, expected an array of output slots", typ, from, kindName(outputs.Kind()))
				}
				if typ == "main" && (outputs.Kind() == Null || outputs.Kind() == Object) {
					odd = append(odd, oddMain{from, len(wp.w.Problems) - 1})
				}
				continue
			}
			if arrayConnection(outputs) {
				// "main": ["B", "main", 0]: one connection written as an
				// array where the list of slots belongs; n8n reads each
				// field as a slot.
				wp.problem(BrokenConnection, outputs.ValuePos(), from, arrayConnectionMsg, from, outputs.at(0).Str())
				wp.arrayFails(from, typ, outputs, true)
				continue
			}
			for out := range int(on.n) {
				wp.slot(from, typ, out, treeValue(tr, on.first+uint32(out)))
			}
		}
		return true
	})
	if len(odd) > 0 {
		wp.walkedFrom(odd)
	}
	switch len(byID) {
	case 0:
	case 1:
		wp.problem(BrokenConnection, byIDPos, "", "connections are keyed by node id %s; n8n keys them by node name, so this edge is ignored", byID[0])
	default:
		list := strings.Join(byID[:min(3, len(byID))], ", ")
		if len(byID) > 3 {
			list += fmt.Sprintf(" and %d more", len(byID)-3)
		}
		wp.problem(BrokenConnection, byIDPos, "", "connections of %d nodes are keyed by node id (%s); n8n keys them by node name, so all their edges are ignored", len(byID), list)
	}
	if len(byID) > 0 {
		wp.w.Problems[len(wp.w.Problems)-1].Dropped = byIDEdges
	}
}

// treeValue is node i of t with the path the tree spells for it.
func treeValue(t *tree, i uint32) Value {
	return Value{t: t, i: i, form: pathOfTree}
}

// slot reads output slot out of type typ of node from.
func (wp *wfParser) slot(from, typ string, out int, slot Value) {
	switch slot.Kind() {
	case Null:
		// unconnected output (docs/n8n-behaviour.md#connections)
	case Object:
		// A single connection where a list belongs: read it, but say so.
		wp.problem(BrokenConnection, slot.ValuePos(), from, "output %d of %q is an object, expected an array of connections", out, from)
		wp.fatal(buildFails, "object is not iterable")
		wp.edge(from, typ, out, slot)
	case Array:
		t, sn := slot.t, slot.node()
		if arrayConnection(slot) {
			// ["B", "main", 0]: one connection written as an
			// array, not a slot of them.
			wp.problem(BrokenConnection, slot.ValuePos(), from, arrayConnectionMsg, from, slot.at(0).Str())
			wp.arrayFails(from, typ, slot, false)
			return
		}
		for j := range sn.n {
			c := treeValue(t, sn.first+j)
			if t.nodes[c.i].kind() == Null {
				wp.problem(BrokenConnection, c.ValuePos(), from, "output %d of %q holds null where a connection belongs", out, from)
				wp.fatal(buildFails, "reading .node of null throws")
				continue
			}
			wp.edge(from, typ, out, c)
		}
	default:
		wp.problem(BrokenConnection, slot.ValuePos(), from, "output %d of %q is a JSON %s, expected an array of connections", out, from, kindName(slot.Kind()))
		if slot.Kind() != String {
			wp.fatal(buildFails, kindName(slot.Kind())+" is not iterable")
		} else if typ == "main" {
			wp.fatal(runFails, from)
		}
	}
}

// droppedFrom appends to out the connections of source node from (byType,
// its connections by type) that n8n never follows, by target name; with
// ids, a target that is a node's id is given by that node's name.
func droppedFrom(from string, byType Value, ids map[string]string, out []DroppedEdge) []DroppedEdge {
	if byType.Kind() != Object {
		return out
	}
	for t := range byType.len() {
		typ, outputs := byType.keyAt(t), byType.at(t)
		if outputs.Kind() != Array {
			continue
		}
		for o := range outputs.len() {
			slot := outputs.at(o)
			if slot.Kind() != Array {
				continue
			}
			for j := range slot.len() {
				c := slot.at(j)
				to := c.Get("node").Str()
				if name, ok := ids[to]; ok {
					to = name
				}
				in, _ := c.Get("index").Num()
				out = append(out, DroppedEdge{from, typ, to, int(in)})
			}
		}
	}
	return out
}

// outputIndex reads an object key as the output index n8n takes it for:
// only a plain decimal index ("0", "12") names an element of the list of
// outputs a node's run returns.
func outputIndex(key string) (int, bool) {
	if key == "" || len(key) > 9 || key[0] == '0' && len(key) > 1 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return 0, false
		}
		n = n*10 + int(key[i]-'0')
	}
	return n, true
}

// oddMain is a node whose "main" outputs are null or an object (problem
// prob says so).
type oddMain struct {
	node string
	prob int
}

// walkedFrom makes each odd "main" an error when a Webhook (v2 on) or a
// Form Trigger reaches its node: on every request they list the nodes
// after them (Webhook/utils.js checkResponseModeConfiguration,
// Form/utils/utils.js validateResponseModeConfiguration, through
// n8n-workflow's common/get-connected-nodes.js), which calls forEach on
// each node's "main" outputs and throws on null or an object, so the
// request fails and no execution starts. Other triggers run the
// workflow as the engine reads it.
func (wp *wfParser) walkedFrom(odd []oddMain) {
	w := wp.w
	var next map[string][]string
	seen := map[string]bool{}
	var queue []string
	for _, n := range w.Nodes {
		// The Webhook tests the stored typeVersion (undefined >= 2 is
		// false when the export has none).
		if n.Disabled || !(n.Type == TypeWebhook && n.TypeVersionSet && n.TypeVersion >= 2 || n.Type == TypeFormTrigger) {
			continue
		}
		if next == nil {
			next = map[string][]string{}
			for _, c := range w.Connections {
				if c.FromType == "main" {
					next[c.From] = append(next[c.From], c.To)
				}
			}
		}
		if !seen[n.Name] {
			seen[n.Name] = true
			queue = append(queue, n.Name)
		}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, v := range next[u] {
				if !seen[v] {
					seen[v] = true
					queue = append(queue, v)
				}
			}
		}
		for _, o := range odd {
			if p := &w.Problems[o.prob]; seen[o.node] && !p.Fatal {
				p.Fatal, p.Note = true, false
				p.Why = fmt.Sprintf("yet %q lists the nodes after it on every request (looking for a Respond to Webhook node) and throws on outputs that are not an array, so every request to it fails and no execution starts", n.Name)
				p.Message += "; " + p.Why
			}
		}
	}
}

// nodePaths holds the full paths of every node of a workflow ("nodes.3"),
// of its parameters and of its name (which its position holds) in one
// string: every Param reads below the parameters' path, and a string per
// node was most of what the parser allocated.
type nodePaths struct {
	all    string // "nodes.0.parametersnodes.0.name" and so on
	prefix int    // length of the nodes' path and its dot
	off    int    // where the next node's paths start in all
}

const paramsSuffix, nameSuffix = ".parameters", ".name"

// topNodePaths are the paths of the first nodes of a workflow at the root
// of its file, the most common place: made once, shared by every
// workflow (strings are never written).
var topNodePaths = sync.OnceValue(func() nodePaths { return makeNodePaths("nodes", 1024) })

func newNodePaths(base string, count int) nodePaths {
	if base == "nodes" && count <= 1024 {
		return topNodePaths()
	}
	return makeNodePaths(base, count)
}

func makeNodePaths(base string, count int) nodePaths {
	p := nodePaths{}
	if base != "" {
		p.prefix = len(base) + 1
	}
	size := 0
	for i := range count {
		size += 2*(p.prefix+decimalLen(i)) + len(paramsSuffix) + len(nameSuffix)
	}
	b := make([]byte, 0, size)
	for i := range count {
		if base != "" {
			b = append(append(b, base...), '.')
		}
		b = append(strconv.AppendInt(b, int64(i), 10), paramsSuffix...)
		if base != "" {
			b = append(append(b, base...), '.')
		}
		b = append(strconv.AppendInt(b, int64(i), 10), nameSuffix...)
	}
	// b is written once, here: a string view of it is as a Builder's.
	p.all = unsafe.String(unsafe.SliceData(b), len(b))
	return p
}

// next returns the paths of node i, the nodes being read in order.
func (p *nodePaths) next(i int) (node, params, name string) {
	nodeLen := p.prefix + decimalLen(i)
	params = p.all[p.off : p.off+nodeLen+len(paramsSuffix)]
	p.off += len(params)
	name = p.all[p.off : p.off+nodeLen+len(nameSuffix)]
	p.off += len(name)
	return params[:nodeLen], params, name
}

// decimalLen is the number of digits of i >= 0.
func decimalLen(i int) int {
	n := 1
	for ; i >= 10; i /= 10 {
		n++
	}
	return n
}

// appendElem appends a path element to a path as joinPath joins them.
func appendElem(path []byte, elem string) []byte {
	if len(path) > 0 {
		path = append(path, '.')
	}
	return append(path, elem...)
}

// appendIndex appends an array index to a path as joinPath joins them.
func appendIndex(path []byte, i int) []byte {
	if len(path) > 0 {
		path = append(path, '.')
	}
	return strconv.AppendInt(path, int64(i), 10)
}

// countEdges bounds the number of connections in conns (the elements of
// every output slot, and a slot that is one object), so that they are
// stored without regrowing. It reads the tree's nodes, not Values.
func countEdges(conns Value) (n int) {
	t, cn := conns.t, conns.node()
	for i := cn.first; i < cn.first+cn.n; i++ {
		byType := &t.nodes[i]
		if byType.kind() != Object {
			continue
		}
		for k := byType.first; k < byType.first+byType.n; k++ {
			outputs := &t.nodes[k]
			if !outputs.container() {
				continue
			}
			for out := outputs.first; out < outputs.first+outputs.n; out++ {
				switch s := &t.nodes[out]; s.kind() {
				case Object:
					n++
				case Array:
					n += int(s.n)
				}
			}
		}
	}
	return n
}

// connKeys are the members of one connection the parser reads.
var connKeys = []string{"node", "type", "index"}

// edge reads connection c from output out of type typ of node from.
func (wp *wfParser) edge(from, typ string, out int, c Value) {
	if c.Kind() == Null {
		return
	}
	// The members are found as getMany finds them, as node indexes (0,
	// the root, for none) without their paths: brokenEdge, which reports
	// on them, reads them again.
	t := c.t
	var to, toTypeAt, indexAt uint32
	if c.Kind() == Object {
		n := c.node()
		for k := n.first; k < n.first+n.n; k++ {
			m, key := &t.nodes[k], ""
			if m.flags&keyEsc == 0 && m.kdist != 0 {
				// An unescaped key holds no quote: compared in place
				// after its opening quote, as tree.member compares,
				// without keyOf's scan back from the value.
				s := t.text[m.off-uint32(m.kdist)+1 : m.off]
				switch {
				case len(s) > 4 && s[4] == '"':
					key = s[:4]
				case len(s) > 5 && s[5] == '"':
					key = s[:5]
				}
			} else {
				key = t.keyOf(m)
			}
			switch key {
			case "node":
				to = cmp.Or(to, k)
			case "type":
				toTypeAt = cmp.Or(toTypeAt, k)
			case "index":
				indexAt = cmp.Or(indexAt, k)
			}
		}
	}
	var target string
	var toNode *Node
	if to != 0 && t.nodes[to].kind() == String {
		target = strAt(t, to)
		toNode = wp.w.byName.get(target)
	}
	if toNode == nil {
		wp.brokenEdge(from, typ, c)
		return
	}
	toType := typ
	if toTypeAt != 0 {
		if s := strAt(t, toTypeAt); s != "" {
			toType = s
		}
	}
	idx := 0
	if indexAt != 0 {
		if n := &t.nodes[indexAt]; n.kind() == Number && n.first == n.off+1 {
			idx = int(t.text[n.off] - '0') // one byte: a digit
		} else {
			f, _ := Value{t: t, i: indexAt}.Num()
			idx = int(f)
		}
	}
	wp.w.Connections = append(wp.w.Connections, Connection{
		From: from, FromType: typ, Output: out, To: target, ToType: toType, ToIndex: idx,
		Offset: t.base + int(t.nodes[c.i].off), t: t, i: c.i, from: wp.from, to: toNode,
	})
}

// strAt is Value.Str of node i, a string as it is written (no escape,
// not a parameter's literal) read in place.
func strAt(t *tree, i uint32) string {
	if n := &t.nodes[i]; n.kind() == String && n.flags&(strEsc|literal) == 0 {
		return t.text[n.off+1 : n.first-1]
	}
	return t.scalarStr(i)
}

const arrayConnectionMsg = "a connection from %q to %q is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}"

// What n8n does with a connection it cannot read (n8n-workflow's
// common/map-connections-by-destination.js, run when a Workflow is built,
// and n8n-core's execution-engine/workflow-execute.js, after a node runs):
// a slot that is not a list, or null in one, throws when the workflow is
// built, so no execution starts; on a "main" output, an entry whose "node"
// names no node throws "Destination node not found" once its source node
// has run. Other connection types are read only from the nodes they point
// to, so there the entry is ignored.
//
// n8n 2.41.1 refuses such a "main" entry before any run: its workflow
// structure check (n8n-workflow's workflow-structure-validation.js, a
// target that is no node's name is unknown_connection_target, a slot or
// entry of the wrong shape fails its schema) runs at CLI and API import
// (n8n/dist/services/import.service.js, workflows/workflow-creation.service.js),
// and the editor's import keeps only the connections whose target it
// imports and that are {node, type, index} objects (n8n-editor-ui's
// workflows.store, the connections filter useCanvasOperations'
// importWorkflowData calls), so the run stops at the source along it.
// 2.8.4 has no such check: its CLI imports the file and its runs throw.
const (
	buildFails = "n8n cannot build the workflow from it (%s), so no execution of it starts"
	runFails   = "n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from %[1]q along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which %[1]q runs (\"Destination node not found\", thrown when it looks for the next node)"
)

// fatal makes the last problem an error and says why.
func (wp *wfParser) fatal(why, arg string) {
	p := &wp.w.Problems[len(wp.w.Problems)-1]
	p.Fatal = true
	p.Aborts = why == runFails
	p.Unbuilt = why == buildFails
	p.Why = fmt.Sprintf(why, arg)
	p.Message += "; " + p.Why
}

// arrayFails says what n8n does with v, a connection written as an
// array ["B", "main", 0] where a list of connections (slots false) or of
// output slots (slots true) belongs: it reads each field as a connection,
// or as a slot, which a number or a boolean cannot be.
func (wp *wfParser) arrayFails(from, typ string, v Value, slots bool) {
	for i := range v.len() {
		if k := v.at(i).Kind(); slots && (k == Number || k == Bool) {
			wp.fatal(buildFails, kindName(k)+" is not iterable")
			return
		}
	}
	if typ == "main" {
		wp.fatal(runFails, from)
		return
	}
	wp.w.Problems[len(wp.w.Problems)-1].Message += ", so it is not followed"
}

// bareOutputs reports connections of a node written as a bare array of
// output slots where an object keyed by connection type belongs, with a
// slot that holds a connection: n8n's for...of over that connection (an
// object, a number or a boolean) throws. Null, a string or an empty slot
// reads as no connection.
func bareOutputs(v Value) bool {
	for i := range v.len() {
		slot := v.at(i)
		if slot.Kind() != Array {
			continue
		}
		for j := range slot.len() {
			if k := slot.at(j).Kind(); k == Object || k == Number || k == Bool {
				return true
			}
		}
	}
	return false
}

// arrayConnection reports a connection written as an array of its fields
// (["B", "main", 0]): a node name first, and no object or array in it.
func arrayConnection(v Value) bool {
	if v.Kind() != Array {
		return false
	}
	t, n := v.t, v.node()
	if n.n == 0 || t.nodes[n.first].kind() != String {
		return false // the first test: most slots hold objects
	}
	for i := n.first; i < n.first+n.n; i++ {
		if k := t.nodes[i].kind(); k == Object || k == Array {
			return false
		}
	}
	return true
}

// nameless notes a node of type typ without a name.
func (wp *wfParser) nameless(typ string) {
	name, ok := ImportName(typ)
	switch {
	case !ok:
		wp.anyName = true
	default:
		if wp.importNames == nil {
			wp.importNames = map[string]bool{}
		}
		wp.importNames[name] = true
		wp.longest = max(wp.longest, len(name))
	}
}

// mayNameAtImport reports whether the editor may give a node without a
// name the name target at import: its import name, or that name with a
// number after it (the editor's uniqueNodeName). Only prefixes no longer
// than the longest import name are looked up, so it is linear in target.
func (wp *wfParser) mayNameAtImport(target string) bool {
	if wp.anyName || wp.importNames[target] {
		return true
	}
	for k := len(strings.TrimRight(target, "0123456789")); k < len(target) && k <= wp.longest; k++ {
		if wp.importNames[target[:k]] {
			return true
		}
	}
	return false
}

// brokenEdge says what is wrong with connection c, of type typ, which
// edge could not read.
func (wp *wfParser) brokenEdge(from, typ string, c Value) {
	var m [3]Value
	c.getMany(connKeys, m[:])
	to := m[0]
	switch {
	case arrayConnection(c):
		wp.problem(BrokenConnection, c.ValuePos(), from, arrayConnectionMsg, from, c.at(0).Str())
		wp.arrayFails(from, typ, c, false)
		return
	case c.Kind() != Object || to.Kind() != String:
		wp.problem(BrokenConnection, c.ValuePos(), from, "a connection from %q has no target node name", from)
	case wp.typeless:
		return // it may name the node that lost its name and type (RS010)
	case wp.mayNameAtImport(to.Str()):
		wp.problem(BrokenConnection, to.Pos(), from, "connection from %q goes to node %q, which does not exist; it may be a nameless node, named at import", from, to.Str())
		wp.w.Problems[len(wp.w.Problems)-1].Note = true
		return
	default:
		wp.problem(BrokenConnection, to.Pos(), from, "connection from %q goes to node %q, which does not exist", from, to.Str())
		wp.w.Problems[len(wp.w.Problems)-1].Dropped = []DroppedEdge{{From: from, Type: typ, To: to.Str()}}
	}
	if typ == "main" {
		wp.fatal(runFails, from)
	}
}

func (wp *wfParser) settings(s Value) {
	st := &wp.w.Settings
	st.Value = s
	if s.Kind() != Object {
		return
	}
	if ew := s.Get("errorWorkflow"); ew.Kind() == String || ew.Kind() == Number {
		st.ErrorWorkflow = strings.TrimSpace(ew.Str())
		st.ErrorWorkflowValue = ew
	}
	if et := s.Get("executionTimeout"); et.Exists() {
		st.ExecutionTimeoutValue = et
		if sec, ok := et.Num(); ok && sec > 0 {
			st.ExecutionTimeout = min(sec, ExecutionsTimeoutMax)
		}
	}
	st.CallerPolicy = s.Get("callerPolicy").Str()
	st.ExecutionOrder = s.Get("executionOrder").Str()
}

func kindName(k Kind) string {
	return [...]string{"missing value", "null", "boolean", "number", "string", "array", "object"}[k]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func lastElem(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}
