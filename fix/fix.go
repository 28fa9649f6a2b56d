// Package fix repairs findings with the smallest edit: it computes, on the
// typed model, which members of which workflow files to change, and applies
// them as byte edits to the sources, so that indentation, key order, line
// endings, a byte-order mark and every other byte stay as they were.
//
// Rules name each finding's repair next to its detection
// (analyze.Diagnostic.Repair); the repairer here builds its edits. A repair
// is safe when it only reduces duplicate attempts (one retry owner);
// unsafe repairs change what a workflow sends or when it stops (an
// Idempotency-Key header, an execution timeout, an output cap) and are
// applied only when asked for.
package fix

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Options tune the repairs.
type Options struct {
	// MaxTokens is the output cap the RS302 repair writes (.stormcheck.yaml
	// fix.max_tokens); 0 offers no such repair.
	MaxTokens int
	// MinSeverity: findings below it (hidden by --min-severity) get no
	// repair, so that --fix neither counts nor makes what is not shown.
	MinSeverity analyze.Severity
}

// MaxExecutionTimeout is the largest executionTimeout the RS504 repair
// writes, in seconds: n8n's default EXECUTIONS_TIMEOUT_MAX, above which it
// lowers the setting anyway (@n8n/config executions.config.ts maxTimeout).
const MaxExecutionTimeout = 3600

// Attach computes the repair of every finding that has one and sets its
// Repair, safe and unsafe alike (reports show both; --fix picks). A
// finding of a rule that has repairs gets NoRepair instead when this one
// has none, saying why; a rule without repairs says why in its FixDoc.
func Attach(set *analyze.Set, fs []analyze.Finding, o Options) {
	r := newRepairer(set, o)
	for i := range fs {
		if fs[i].Severity < o.MinSeverity {
			fs[i].Repair, fs[i].NoRepair = nil, "hidden by --min-severity"
			continue
		}
		fs[i].Repair, fs[i].NoRepair = r.repair(&fs[i])
		fs[i].RepairWith = nil // built: the finding no longer holds the set
	}
}

// noRepair is why a finding of a rule with repairs has none; the repairs
// return it as their error.
type noRepair = analyze.Unrepairable

func noRepairf(format string, args ...any) noRepair { return noRepair(fmt.Sprintf(format, args...)) }

type nodeRef struct {
	wf   *n8nschema.Workflow
	node *n8nschema.Node
}

type srcOff struct {
	src *n8nschema.Source
	off int
}

type repairer struct {
	set *analyze.Set
	o   Options
	// layersOf holds each operation's retry layers (layersOf), and
	// atRisk, broken and order index the operations of the set once (on
	// first use) for callLosingItsRetry, so that a repair reads only the
	// operations that turning its layers off could leave without a retry.
	layersOf map[*analyze.Operation]opLayers
	atRisk   map[*n8nschema.Node][]*analyze.Operation
	broken   map[*n8nschema.Node]*analyze.Operation
	order    map[*analyze.Operation]int
	// byNode finds an operation by its workflow and node name (built on
	// first use).
	byNode map[wfNode]*analyze.Operation
	// steps counts the layers and operations the repairs read: a test
	// pins that it grows as the set does.
	steps int
	// nodes and wfs are built on first use: most groups of a two-pass
	// audit have no finding with a repair.
	nodes map[srcOff]nodeRef // by the offset of the node's position
	wfs   map[wfKey]*n8nschema.Workflow
}

type wfKey struct {
	src      *n8nschema.Source
	name, id string
}

func newRepairer(set *analyze.Set, o Options) *repairer {
	return &repairer{set: set, o: o}
}

// workflow is the first workflow of the set with the source, name and id.
func (r *repairer) workflow(k wfKey) *n8nschema.Workflow {
	if r.wfs == nil {
		r.wfs = make(map[wfKey]*n8nschema.Workflow, len(r.set.Workflows))
		for _, w := range r.set.Workflows {
			k := wfKey{w.Source, w.Name, w.ID}
			if _, dup := r.wfs[k]; !dup {
				r.wfs[k] = w
			}
		}
	}
	return r.wfs[k]
}

// node is the node whose position is at the offset of the source.
func (r *repairer) node(k srcOff) (nodeRef, bool) {
	if r.nodes == nil {
		count := 0
		for _, w := range r.set.Workflows {
			count += len(w.Nodes)
		}
		r.nodes = make(map[srcOff]nodeRef, count)
		for _, w := range r.set.Workflows {
			for _, n := range w.Nodes {
				if n.Pos.IsValid() {
					r.nodes[srcOff{w.Source, n.Pos.Offset}] = nodeRef{w, n}
				}
			}
		}
	}
	ref, ok := r.nodes[k]
	return ref, ok
}

// first is the operation a repair of op's finding edits: the first of
// the set on its node, in the first workflow of its file with its name
// and id, as the set lists them.
func (r *repairer) first(op *analyze.Operation) *analyze.Operation {
	w := op.Workflow
	w = r.workflow(wfKey{w.Source, w.Name, w.ID})
	if r.byNode == nil {
		r.byNode = make(map[wfNode]*analyze.Operation, len(r.set.Operations))
		for _, op := range r.set.Operations {
			r.steps++
			k := wfNode{op.Workflow, op.Node.Name}
			if _, dup := r.byNode[k]; !dup { // the first, as OperationsOf lists them
				r.byNode[k] = op
			}
		}
	}
	if f := r.byNode[wfNode{w, op.Node.Name}]; f != nil {
		return f
	}
	return op
}

// The repairs the rules name (analyze.Repairer).

func (r *repairer) RetryOwner(op *analyze.Operation) (*analyze.Repair, error) {
	return r.retryOwner(r.first(op))
}

func (r *repairer) IdempotencyKey(op *analyze.Operation) (*analyze.Repair, error) {
	op = r.first(op)
	return r.idempotencyKey(op.Workflow, op)
}

func (r *repairer) OutputCap(op *analyze.Operation) (*analyze.Repair, error) {
	op = r.first(op)
	return r.outputCap(op.Workflow, op)
}

func (r *repairer) ExecutionTimeout(w *n8nschema.Workflow) (*analyze.Repair, error) {
	return r.executionTimeout(r.workflow(wfKey{w.Source, w.Name, w.ID}))
}

func (r *repairer) AnswerOnReceipt(w *n8nschema.Workflow, webhook *n8nschema.Node, sender string) (*analyze.Repair, error) {
	return r.answerOnReceipt(r.workflow(wfKey{w.Source, w.Name, w.ID}), webhook.Name, sender)
}

func (r *repairer) ScheduleTimeout(w *n8nschema.Workflow, schedule *n8nschema.Node) (*analyze.Repair, error) {
	return r.scheduleTimeout(r.workflow(wfKey{w.Source, w.Name, w.ID}), schedule.Name)
}

func (r *repairer) RetryAsRun(w *n8nschema.Workflow, n *n8nschema.Node) (*analyze.Repair, error) {
	return r.retryAsRun(r.workflow(wfKey{w.Source, w.Name, w.ID}), n.Name)
}

func (r *repairer) ExpressionPrefix(w *n8nschema.Workflow, n *n8nschema.Node, paths []string) (*analyze.Repair, error) {
	// The node by its place in the file, not by its name: two nodes of one
	// name (a file n8n would not build) must not trade edits.
	ref, ok := r.node(srcOff{w.Source, n.Pos.Offset})
	if !ok || ref.node != n {
		return nil, noRepair("the node was not found")
	}
	return r.expressionPrefix(ref.wf, ref.node, paths)
}

type wfNode struct {
	wf   *n8nschema.Workflow
	node string
}

// repair builds a finding's repair with the rule's RepairWith, in a
// workflow --fix edits.
func (r *repairer) repair(f *analyze.Finding) (*analyze.Repair, string) {
	if f.RepairWith == nil {
		return nil, "" // the rule has no repair (its FixDoc says why)
	}
	w := r.workflow(wfKey{f.Source, f.Workflow, f.WorkflowID})
	if w == nil {
		return nil, "the workflow is not in the set --fix edits"
	}
	if why := r.notEditable(w); why != "" {
		return nil, why
	}
	rep, err := f.RepairWith(r)
	var why noRepair
	switch {
	case errors.As(err, &why):
		return nil, string(why)
	case err != nil:
		return nil, "the JSON around the node has a shape the repair does not edit: " + err.Error()
	case rep == nil:
		return nil, "nothing to change"
	}
	// An edit that writes the bytes already there changes nothing: the
	// rule and the bytes disagree (it never happens with the repairs above,
	// but a repair must never be applied twice).
	rep.Edits = slices.DeleteFunc(rep.Edits, func(e analyze.Edit) bool {
		return e.Len == len(e.Text) && string(e.Source.Src[e.Offset:e.Offset+e.Len]) == e.Text
	})
	if len(rep.Edits) == 0 {
		return nil, "the file holds the repair already"
	}
	slices.SortFunc(rep.Edits, func(a, b analyze.Edit) int {
		if a.Source != b.Source {
			return strings.Compare(a.Source.Name, b.Source.Name)
		}
		return a.Offset - b.Offset
	})
	for i := range rep.Edits {
		e := &rep.Edits[i]
		e.Start, e.End = e.Source.PosAt(e.Offset, ""), e.Source.PosAt(e.Offset+e.Len, "")
	}
	return rep, ""
}

// notEditable says why stormcheck does not edit the workflow; "" when it
// does. It edits only workflows of files that are valid JSON (one with
// data after the workflow, which n8n's JSON.parse rejects, is RS001's to
// report, not --fix's to touch), and whose nodes it read from the
// top-level nodes array: a published workflow was audited from its
// activeVersion, and n8n keeps the draft and the published version apart,
// so an edit of one of them would make the file say two things.
func (r *repairer) notEditable(w *n8nschema.Workflow) string {
	switch {
	case w.Published:
		return "the workflow was audited from its published activeVersion; n8n keeps the draft apart, and editing one would make the file say two things"
	case !w.Source.ValidJSON():
		return "the file is not valid JSON as n8n reads it (RS001); --fix edits only valid files"
	}
	return ""
}

// retryLayer is one layer of an attempt chain that n8n's retryOnFail or an
// SDK's retry option controls.
type retryLayer struct {
	f    analyze.Factor
	ref  nodeRef
	kind string
}

func isRetryKind(k string) bool {
	switch k {
	case analyze.KindNodeRetry, analyze.KindToolRetry, analyze.KindSDKRetry, analyze.KindRootRetry, analyze.KindCallerRetry:
		return true
	}
	return false
}

type opLayers struct {
	ls []retryLayer
	ok bool
}

// layers are the retry layers of an operation's chain, outermost first;
// ok is false when the node of one of them is not found (it is left out).
// They are read once per operation.
func (r *repairer) layers(op *analyze.Operation) ([]retryLayer, bool) {
	if l, seen := r.layersOf[op]; seen {
		return l.ls, l.ok
	}
	if r.layersOf == nil {
		r.layersOf = map[*analyze.Operation]opLayers{}
	}
	ls, ok := r.readLayers(op)
	r.layersOf[op] = opLayers{ls, ok}
	return ls, ok
}

func (r *repairer) readLayers(op *analyze.Operation) (out []retryLayer, ok bool) {
	ok = true
	for _, f := range op.Factors {
		r.steps++
		if !isRetryKind(f.Kind) || f.Unbounded || f.Value <= 1 {
			continue
		}
		ref, found := r.node(srcOff{f.Source, f.Pos.Offset})
		if !found || ref.node.Name != f.Node {
			ok = false
			continue
		}
		out = append(out, retryLayer{f: f, ref: ref, kind: f.Kind})
	}
	return out, ok
}

// retryOwner keeps the retry layer closest to the wire (the last of the
// chain: the SDK's retries, else the node's own) and turns the outer ones
// off with retryOnFail: false; when the kept layer alone still exceeds
// --max-attempts, it lowers that layer's count. An outer layer is turned
// off only when every call it retries keeps a retry layer of its own
// after the repair, so no call loses its last retry.
func (r *repairer) retryOwner(op *analyze.Operation) (*analyze.Repair, error) {
	ls, ok := r.layers(op)
	if !ok {
		return nil, noRepair("a retry layer of the chain is in a workflow outside the set")
	}
	if len(ls) == 0 {
		return nil, noRepair("no layer of the chain is a retry setting (the attempts come from a loop or a restart)")
	}
	keep := ls[len(ls)-1]
	off := map[*n8nschema.Node]bool{}
	var names []string
	for _, l := range ls[:len(ls)-1] {
		if why := r.notEditable(l.ref.wf); why != "" {
			return nil, noRepairf("the retries of node %q cannot be edited: %s", l.ref.node.Name, why)
		}
		off[l.ref.node] = true
		names = append(names, strconv.Quote(l.ref.node.Name))
	}
	if len(off) > 0 {
		if lost := r.callLosingItsRetry(off); lost != nil {
			return nil, noRepairf("turning off the retries of %s would leave node %q with no retry at all; give it retries of its own first", strings.Join(slices.Compact(names), ", "), lost.Node.Name)
		}
	}
	rep := &analyze.Repair{Safety: analyze.Safe}
	var turned []string
	for _, l := range ls[:len(ls)-1] {
		if !off[l.ref.node] {
			continue // a node twice in the chain: turned off once
		}
		delete(off, l.ref.node)
		e, err := setMember(l.ref.wf, l.ref.node.Value, []string{"retryOnFail"}, raw("false"))
		if err != nil {
			return nil, err
		}
		rep.Edits = append(rep.Edits, e)
		turned = append(turned, strconv.Quote(l.ref.node.Name))
	}
	var what []string
	if len(turned) > 0 {
		what = append(what, "turn off retryOnFail on "+strings.Join(turned, ", "))
	}
	budget := max(r.set.Options.MaxAttempts, 1)
	if keep.f.Value > budget {
		n := keep.ref.node
		switch keep.kind {
		case analyze.KindSDKRetry:
			spec := r.set.Graph(keep.ref.wf).Spec(n)
			if spec.SDKRetryParam == "" {
				return nil, noRepairf("the SDK's retries of node %q have no option to lower", n.Name)
			}
			e, err := setMember(keep.ref.wf, n.Params(), strings.Split(spec.SDKRetryParam, "."), raw(strconv.Itoa(budget-1)))
			if err != nil {
				return nil, err
			}
			rep.Edits = append(rep.Edits, e)
			what = append(what, fmt.Sprintf("set %s of %q to %d", spec.SDKRetryParam, n.Name, budget-1))
		default:
			field, val := "maxTries", raw(strconv.Itoa(budget))
			if budget < 2 {
				field, val = "retryOnFail", raw("false") // n8n retries at least twice
			}
			e, err := setMember(keep.ref.wf, n.Value, []string{field}, val)
			if err != nil {
				return nil, err
			}
			rep.Edits = append(rep.Edits, e)
			what = append(what, fmt.Sprintf("set %s of %q to %s", field, n.Name, val))
		}
	}
	if len(what) == 0 {
		return nil, noRepair("one layer retries already, within --max-attempts")
	}
	rep.Description = "Retry in one layer: " + strings.Join(what, "; ")
	return rep, nil
}

// callLosingItsRetry is an operation of the set that one of the nodes in
// off retries and that keeps no retry layer once they are all turned off;
// nil when every one keeps one. Turning off retryOnFail leaves an SDK's
// retries, so a call with one never loses its last retry; a call without
// one loses it only when every one of its layers is off, its innermost
// among them: the operations are indexed once by their innermost layer's
// node (atRisk), and a repair reads only those under the nodes it turns
// off. A call with a layer whose node is not found (broken) keeps the
// repair from being offered, as it cannot be checked. Of several, the
// first in the set's order is named, whatever the map's order.
func (r *repairer) callLosingItsRetry(off map[*n8nschema.Node]bool) *analyze.Operation {
	if r.atRisk == nil {
		r.atRisk = map[*n8nschema.Node][]*analyze.Operation{}
		r.broken = map[*n8nschema.Node]*analyze.Operation{}
		r.order = map[*analyze.Operation]int{}
		for i, op := range r.set.Operations {
			r.order[op] = i
			ls, ok := r.layers(op)
			if len(ls) == 0 {
				continue
			}
			if !ok {
				for _, l := range ls {
					if r.broken[l.ref.node] == nil {
						r.broken[l.ref.node] = op
					}
				}
				continue
			}
			if !slices.ContainsFunc(ls, func(l retryLayer) bool { return l.kind == analyze.KindSDKRetry }) {
				last := ls[len(ls)-1].ref.node
				r.atRisk[last] = append(r.atRisk[last], op)
			}
		}
	}
	var lost *analyze.Operation
	first := func(op *analyze.Operation) {
		if lost == nil || r.order[op] < r.order[lost] {
			lost = op
		}
	}
	for n := range off {
		r.steps++
		if op := r.broken[n]; op != nil {
			first(op)
			continue
		}
		for _, op := range r.atRisk[n] {
			ls, _ := r.layers(op)
			all := true
			for i := len(ls) - 1; i >= 0; i-- { // inner layers differ first
				r.steps++
				if !off[ls[i].ref.node] {
					all = false
					break
				}
			}
			if all {
				first(op)
				break // later operations under n come after this one
			}
		}
	}
	return lost
}

// setMember makes the member at path below the object v hold val.
func setMember(w *n8nschema.Workflow, v n8nschema.Value, path []string, val any) (analyze.Edit, error) {
	src := w.Source.Src
	off, ok := objectOffset(src, v)
	if !ok {
		return analyze.Edit{}, errShape
	}
	e, err := set(src, off, path, val, style{})
	if err != nil {
		return analyze.Edit{}, err
	}
	return analyze.Edit{Source: w.Source, Offset: e.off, Len: e.n, Text: e.text}, nil
}

// objectOffset is the offset of the '{' that opens v, checked against the
// source.
func objectOffset(src []byte, v n8nschema.Value) (int, bool) {
	if v.Kind() != n8nschema.Object {
		return 0, false
	}
	off := v.Offset()
	rawText := v.Raw()
	if off < 0 || off+len(rawText) > len(src) || string(src[off:off+len(rawText)]) != rawText {
		return 0, false
	}
	return off, true
}

// ---------------------------------------------------------------------------
// Unsafe repairs

// idempotencyKey adds the header the API honours to a retried HTTP Request
// POST. The key is the item's own id and the node's name when the node
// reads an id of the item (stableItemID) or the data pinned on its input
// has one (pinnedItemID): the same on every re-send of that item,
// whatever sends it again. Else it is {{ $execution.id }}, the
// node and the item index, the same on each of the node's own retries
// (n8n re-runs the node in the same execution with the same items in the
// same order) and on nothing else, so it is offered only where nothing
// else re-sends the write (analyze.ReExecuted: no retrying caller, and a
// person's retry of the failed execution does not run the node again).
// The node's name keeps two nodes that call the same API apart. It is not
// offered when the node runs more than once in an execution (a loop: the
// same key for new work), or the workflow restarts itself or runs as an
// error workflow.
func (r *repairer) idempotencyKey(w *n8nschema.Workflow, op *analyze.Operation) (*analyze.Repair, error) {
	n := op.Node
	if n.Type != n8nschema.TypeHTTPRequest || n.TypeVersion < 3 || n8nschema.HTTPMethod(n) != "POST" {
		return nil, noRepair("the repair writes a header only on an HTTP Request (v3 or later) POST")
	}
	if op.Unbounded {
		return nil, noRepair("the call runs without bound: one key per execution would not hold")
	}
	name, ok := n8nschema.KeyHeaderFor(op.Dependency)
	if !ok {
		return nil, noRepairf("stormcheck knows no idempotency header that %s honours", op.Dependency)
	}
	if op.OwnRetries() < 2 {
		return nil, noRepair("the node does not retry itself: the repeats come from elsewhere, in new executions a key per execution would not cover")
	}
	for _, f := range op.Factors {
		if f.Kind == analyze.KindSelfTrigger || f.Kind == analyze.KindErrorWorkflow || f.Kind == analyze.KindLoop {
			return nil, noRepairf("the call repeats through a %s: a new execution or a new trip would get a new key", f.Kind)
		}
	}
	g := r.set.Graph(w)
	for _, l := range g.Loops {
		if slices.Contains(l.Nodes, n) {
			return nil, noRepair("the node runs in a loop: one key for every trip would drop new work")
		}
	}
	p := n.Params()
	if s := p.Get("specifyHeaders").Str(); s != "" && s != "keypair" {
		return nil, noRepair("the headers are given as JSON text, which the repair does not edit")
	}
	for _, h := range p.Get("headerParameters.parameters").ElemsSeq() {
		if strings.EqualFold(strings.TrimSpace(h.Get("name").Str()), name) {
			return nil, noRepairf("the node sends %s already (its value is RS202's to judge)", name) // the header is there
		}
	}
	var value string
	id := stableItemID(p)
	if id == "" {
		id = pinnedItemID(w, g, n)
	}
	if id != "" {
		value = "={{ " + id + " }}-" + slug(n.Name)
	} else if analyze.ReExecuted(op) == "" {
		value = "={{ $execution.id }}-" + slug(n.Name) + "-{{ $itemIndex }}"
	} else {
		return nil, nil // an execution-id key would change when the write is sent again
	}
	header := object{{"name", raw(quote(name))}, {"value", raw(quote(value))}}
	rep := &analyze.Repair{Safety: analyze.Unsafe,
		Description: fmt.Sprintf("Send %s: %s on %q", name, value, n.Name)}
	src := w.Source.Src
	off, ok := objectOffset(src, p)
	if !ok {
		return nil, noRepair("the node's parameters are not an object the repair can edit")
	}
	c, err := scan(src, off)
	if err != nil {
		return nil, err
	}
	send, hasSend, err := c.get("sendHeaders")
	if err != nil {
		return nil, err
	}
	_, hasParams, err := c.get("headerParameters")
	if err != nil {
		return nil, err
	}
	add := func(e edit) {
		rep.Edits = append(rep.Edits, analyze.Edit{Source: w.Source, Offset: e.off, Len: e.n, Text: e.text})
	}
	if !hasSend && !hasParams {
		// Both members are new: one insertion.
		add(c.insertFields([]field{{"sendHeaders", raw("true")},
			{"headerParameters", object{{"parameters", array{header}}}}}, style{}))
		return rep, nil
	}
	switch {
	case !hasSend:
		add(c.insert("sendHeaders", raw("true"), style{}))
	case string(src[send.valStart:send.valEnd]) != "true":
		add(edit{off: send.valStart, n: send.valEnd - send.valStart, text: "true"})
	}
	e, err := appendElem(src, off, []string{"headerParameters", "parameters"}, header, style{})
	if err != nil {
		return nil, err
	}
	add(e)
	return rep, nil
}

var slugRE = lazyregexp.New(`[^a-z0-9]+`)

// itemFieldRE matches a field of the node's input item in an expression:
// $json.a.b, $json["a"], or the paired item of a named node,
// $('Order').item.json.a. It does not match $('Order').first().json.a,
// the same for every item.
var itemFieldRE = lazyregexp.New(`(?:\$json|\$\(\s*(?:'[^'\\]*'|"[^"\\]*")\s*\)\.item\.json)((?:\??\.[A-Za-z_][A-Za-z0-9_]*|\[\s*(?:'[A-Za-z0-9_ -]+'|"[A-Za-z0-9_ -]+")\s*\])+)`)

// idNameRE matches the name of a field that identifies one unit of work: an
// order, event, invoice, payment id or number, or a key the item carries.
// A customer, user, session or chat id names many writes, not one: two
// orders of a customer under one key would make the second a replay of the
// first, so those are not keys.
var idNameRE = lazyregexp.New(`(?i)^(order|event|invoice|payment|charge|transaction|refund|transfer|payout|booking|reservation|shipment|delivery|submission)[_-]?(id|number|no|num)$|^idempotency[_-]?key$`)

// stableItemID is the first expression in the node's parameters (in source
// order) that reads an id of its input item (itemFieldRE, idNameRE): an
// orderId the body already sends, say. The item's own id is the same on
// every re-send of the item: a node retry, a caller's retry, a person's
// retry of the execution. "" when there is none.
func stableItemID(params n8nschema.Value) string {
	var id string
	params.Scalars(func(v n8nschema.Value) bool {
		s := v.Str()
		if !strings.Contains(s, "{{") && !strings.HasPrefix(s, "=") {
			return true
		}
		for _, m := range itemFieldRE.FindAllStringSubmatchIndex(s, -1) {
			if idField(s[m[2]:m[3]]) {
				id = s[m[0]:m[1]]
				return false
			}
		}
		return true
	})
	return id
}

// pinnedItemID reads the node's input from pinned data: when its only
// main input is a node whose output the workflow pins (pinData, what the
// editor shows as that node's output), and the first pinned item has an
// id field (idNameRE) at its top or in its body (a webhook's), the item's
// id is $json.<field> or $json.body.<field>. "" when there is none.
func pinnedItemID(w *n8nschema.Workflow, g *analyze.Graph, n *n8nschema.Node) string {
	ins := g.InOfType(n, analyze.ConnMain)
	if len(ins) != 1 {
		return ""
	}
	var item n8nschema.Value
	w.Value.Get("pinData").Each(func(name string, items n8nschema.Value) bool {
		if name != ins[0].From.Name {
			return true
		}
		if es := items.Elems(); len(es) > 0 {
			item = es[0]
			if j := item.Get("json"); j.Kind() == n8nschema.Object {
				item = j
			}
		}
		return false
	})
	if item.Kind() != n8nschema.Object {
		return ""
	}
	for _, at := range []struct{ prefix, path string }{{"$json.", ""}, {"$json.body.", "body"}} {
		fields := item
		if at.path != "" {
			fields = item.Get(at.path)
		}
		var id string
		fields.Each(func(key string, v n8nschema.Value) bool {
			if identRE.MatchString(key) && idNameRE.MatchString(key) && (v.Kind() == n8nschema.String || v.Kind() == n8nschema.Number) {
				id = at.prefix + key
				return false
			}
			return true
		})
		if id != "" {
			return id
		}
	}
	return ""
}

var identRE = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// idField reports whether a field path (".order.id", "['order_id']")
// names an id of a unit of work: its last name does, or it is "id" below
// one that names such a unit (order.id).
func idField(path string) bool {
	var names []string
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '.' || r == '[' || r == ']' || r == '?' }) {
		names = append(names, strings.Trim(strings.TrimSpace(part), `'"`))
	}
	if len(names) == 0 {
		return false
	}
	last := names[len(names)-1]
	if idNameRE.MatchString(last) {
		return true
	}
	return strings.EqualFold(last, "id") && len(names) > 1 && idNameRE.MatchString(names[len(names)-2]+"Id")
}

// slug makes a node name safe inside an expression and a header: lower
// case letters and digits joined by dashes.
func slug(s string) string {
	s = strings.Trim(slugRE.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "-")
	}
	if s == "" {
		s = "node"
	}
	return s
}

// outputCap writes fix.max_tokens into the node's max-tokens option.
func (r *repairer) outputCap(w *n8nschema.Workflow, op *analyze.Operation) (*analyze.Repair, error) {
	if op.Spec.MaxTokensParam == "" {
		return nil, noRepair("the node has no max-tokens option to set")
	}
	if r.o.MaxTokens <= 0 {
		return nil, noRepair("set fix.max_tokens in .stormcheck.yaml: the cap is what the task needs, which only its owner knows")
	}
	e, err := setMember(w, op.Node.Params(), strings.Split(op.Spec.MaxTokensParam, "."), raw(strconv.Itoa(r.o.MaxTokens)))
	if err != nil {
		return nil, err
	}
	return &analyze.Repair{Safety: analyze.Unsafe, Edits: []analyze.Edit{e},
		Description: fmt.Sprintf("Cap the output of %q: %s = %d", op.Node.Name, op.Spec.MaxTokensParam, r.o.MaxTokens)}, nil
}

// executionTimeout sets settings.executionTimeout to what the workflow's
// bounded calls take when every one fails slowly: the sum over them of
// attempts × per-attempt timeout + the waits between node retries (n8n
// runs the nodes of one execution one after another), at most
// MaxExecutionTimeout; with no bounded call whose timeout is known,
// MaxExecutionTimeout. It is not offered when one bounded call alone needs
// longer than that: the timeout would cut it short (RS504 would report it).
func (r *repairer) executionTimeout(w *n8nschema.Workflow) (*analyze.Repair, error) {
	total := 0
	for _, op := range r.set.OperationsOf(w) {
		if op.Unbounded || op.Node.Disabled {
			continue
		}
		per, ok := analyze.AttemptTimeoutMS(op)
		if !ok {
			continue
		}
		waits := (op.OwnRetries() - 1) * analyze.RetryWaitMS(op.Node)
		one := op.Attempts*per + waits
		if one > MaxExecutionTimeout*1000 {
			return nil, noRepairf("node %q alone may take longer than %d s, n8n's ceiling on executionTimeout: a timeout would cut it short", op.Node.Name, MaxExecutionTimeout)
		}
		total += one
	}
	secs := MaxExecutionTimeout
	if total > 0 {
		secs = min(secs, int(math.Ceil(float64(total)/1000)))
	}
	var e analyze.Edit
	var err error
	s := w.Settings.Value
	if s.Kind() == n8nschema.Object {
		e, err = setMember(w, s, []string{"executionTimeout"}, raw(strconv.Itoa(secs)))
	} else if !s.Exists() {
		e, err = setMember(w, w.Value, []string{"settings"}, object{{"executionTimeout", raw(strconv.Itoa(secs))}})
	} else {
		return nil, noRepair("the workflow's settings are not an object") // settings is not an object
	}
	if err != nil {
		return nil, err
	}
	return &analyze.Repair{Safety: analyze.Unsafe, Edits: []analyze.Edit{e},
		Description: fmt.Sprintf("Stop the workflow after %d s: settings.executionTimeout = %d", secs, secs)}, nil
}
