package n8nschema

import (
	"slices"
	"strings"
	"sync"
)

// webhookPaths are the node types whose empty path the editor fills in
// with the node's webhookId when it imports a workflow
// (n8n-editor-ui useCanvasOperations resolveNodeWebhook), so an export
// with none is not judged by it.
var webhookPaths = map[string]bool{
	"n8n-nodes-base.webhook": true, "n8n-nodes-base.formTrigger": true, "@n8n/n8n-nodes-langchain.mcpTrigger": true,
}

// MissingRequired returns a parameter of n that n8n finds missing: required,
// empty ("" or absent when its default is ""; a resource locator whose
// value is "", n8nschema's "~" entries), and shown for n's values: for
// every value, or at the resources, operations and other options its
// display depends on when n's are certainly among them (shown). Every
// execution whose start reaches n along main connections fails on it
// before any node runs, production ones included (n8n-core
// workflow-execute.js checkForWorkflowIssues, WorkflowHasIssuesError),
// and n8n refuses to publish the workflow (cli workflow-validation.service.js
// validateNodeConfiguration; the editor, which fills in defaults, marks
// the node and disables Publish). Only a version the node table lists
// exactly is judged.
//
// A <type>Tool variant (an agent's tool n8n builds from a node usable as
// a tool) is judged with its base node's entry and the one change n8n's
// rewrite makes to what is required: cli dist/node-types.js
// getByNameAndVersion takes the base node at the tool's version (refusing
// one whose description there is not usableAsTool) and
// tool-generation/ai-tools.js convertNodeToAiTool keeps its properties,
// adding a required "toolDescription" string (default the node's
// description, never empty in n8n 2.41.1, so only a stored "" misses it),
// shown only when "descriptionType" is "manual" (default "auto") for a
// node with a resource or operation; a node that declares toolDescription
// keeps its own. Parameters shown or hidden by "@tool" are not in the
// table. n8n's publish check reads every enabled connected node, a
// sub-node too (validateNodeConfiguration); a run's check does not
// (checkForWorkflowIssues follows main connections): SubNodeBlank says
// what the agent's calls of such a tool do.
//
// A required multiOptions is missing when its list is empty
// (node-helpers.js addToIssuesIfMissing): absent, when its default is
// [], which the Workflow constructor fills in before a run's check
// (n8n-workflow workflow.js L86, getNodeParameters with returnDefaults),
// so every run that reaches it is refused; but the publish check reads
// the stored parameters as they are (workflow.service.js _validateNodes,
// the stored version's nodes), where an absent list is undefined and not
// missing: PublishMissing says what that check finds.
func MissingRequired(n *Node) (string, bool) {
	return missingRequired(n, true, false)
}

// PublishMissing is MissingRequired for n8n's publish check
// (workflow-validation.service.js validateNodeConfiguration,
// validateNodeParameters), which reads the stored parameters with no
// defaults filled in: a required multiOptions counts only when the list
// stored is empty and every value its display hangs on is stored too (an
// absent resource or operation is undefined there, and the list hidden).
// always is MissingRequiredAlways's reading.
func PublishMissing(n *Node, always bool) (string, bool) {
	return missingRequired(n, !always, true)
}

// MissingRequiredAlways is MissingRequired for the parameters n8n shows
// whatever the node's other values (or by its version alone): in an
// export whose parameters were lost (Workflow.ParametersLost) the values
// that would show the others are lost too, and the defaults read in
// their place are a guess.
func MissingRequiredAlways(n *Node) (string, bool) {
	return missingRequired(n, false, false)
}

// RequiresParams reports whether MissingRequired, MissingRequiredAlways
// or PublishMissing may find a parameter missing on a node of type typ:
// false when the node table lists no required parameter at any version
// of typ, and typ is no <type>Tool variant (whose toolDescription is
// required). The analysis asks it once per type.
func RequiresParams(typ string) bool {
	es, ok := nodeTable()[typ]
	if !ok {
		_, tool := entriesOf(typ)
		return tool
	}
	for i := range es {
		if es[i].required != "" {
			return true
		}
	}
	return false
}

func missingRequired(n *Node, gates, publish bool) (string, bool) {
	if n.Disabled {
		return "", false
	}
	e, tool := requiredEntry(n)
	if e == nil || tool && e.flags&flagTool == 0 {
		return "", false
	}
	if p, ok := missingOf(n, e, gates, publish); ok {
		return p, true
	}
	if tool && e.params != "" && !declared(e, "toolDescription") {
		// Shown for a node with a resource or an operation only when
		// descriptionType is "manual" (ai-tools.js).
		if (declared(e, "resource") || declared(e, "operation")) && !(gates && storedIs(n, "descriptionType", "auto", "manual")) {
			return "", false
		}
		if v, ok := n.Param("toolDescription"); ok && v.Kind() == String && v.Raw() == `""` {
			return "toolDescription", true
		}
	}
	return "", false
}

// requiredEntry is the table's entry that lists n's version exactly (the
// last one, were two to), nil when none does, and whether n's type is a
// <type>Tool variant the table does not list itself. The entry found at
// parse (Node.describe, the nearest version: the last entry of the
// greatest version not above n's) is that entry when its version is n's
// and the type is no such variant: a type not ending in "Tool" is the
// table's own key there (entriesOf). Other nodes search the table.
func requiredEntry(n *Node) (*nodeEntry, bool) {
	if n.described && !strings.HasSuffix(n.Type, "Tool") {
		if n.desc == nil {
			return nil, false // a type the table does not list
		}
		if n.desc.v[n.descAt] == n.TypeVersion {
			return n.desc, false
		}
	}
	es, ok := nodeTable()[n.Type]
	tool := false
	if !ok {
		if es, ok = entriesOf(n.Type); !ok {
			return nil, false
		}
		tool = true
	}
	var e *nodeEntry
	for i := range es {
		for _, v := range es[i].v {
			if v == n.TypeVersion {
				e = &es[i]
			}
		}
	}
	return e, tool
}

// declared reports whether e's versions declare a top-level parameter
// named name (e.params): the one reading of the table's parameter lists
// (DeclaresParam, DroppedParams, DeclaringRuns, the tool variants'
// Description). Each entry's list is made a set once a process, as
// requiredOf does, since DroppedParams asks of every parameter of every
// node.
func declared(e *nodeEntry, name string) bool { return declaredSet(e)[name] }

// declaredSet is e's parameter names as a set, made once a process and
// kept with the entry (an entry made outside the table makes it again).
func declaredSet(e *nodeEntry) map[string]bool {
	if e.memo != nil {
		if set := e.memo.set.Load(); set != nil {
			return *set
		}
	}
	set := make(map[string]bool, strings.Count(e.params, " ")+1)
	for p := range strings.SplitSeq(e.params, " ") {
		set[p] = true
	}
	if e.memo == nil || e.memo.set.CompareAndSwap(nil, &set) {
		return set
	}
	return *e.memo.set.Load()
}

// storedIs reports whether n's value of key (def when absent) is the
// literal want.
func storedIs(n *Node, key, def, want string) bool {
	v, ok := storedOr(n, key, def)
	return ok && v == want
}

// missingOf is missingRequired for entry e's own required parameters.
func missingOf(n *Node, e *nodeEntry, gates, publish bool) (string, bool) {
	if e.required == "" {
		return "", false
	}
	d := display{n: n, e: e}
	rq := requiredOf(e)
	rs := rq.every
	if gates && len(rq.byRes) > 0 {
		rs = rq.at(&d)
	}
	// A parameter is judged by its value first, its display conditions
	// only when the value would be missing: most required parameters
	// are stored, and their conditions are not read. The first missing
	// one shown is the answer. Parameters listed together often share
	// their first conditions: those that start with the ones up to a
	// condition that failed are not judged again.
	fail := ""
	for _, k := range rs {
		r := &rq.all[k]
		if r.name == "path" && webhookPaths[n.Type] {
			continue
		}
		if r.gated && !gates {
			continue
		}
		if !missingValue(n, r, publish) {
			continue
		}
		if r.gated {
			if fail != "" && strings.HasPrefix(r.conds, fail) && (len(r.conds) == len(fail) || r.conds[len(fail)] == ';') {
				continue
			}
			if shown, n := d.shown(r.conds); !shown {
				fail = r.conds[:n]
				continue
			}
		}
		return r.name, true
	}
	return "", false
}

// missingValue reports whether node n's value of required parameter r is
// missing, were r shown (missingOf).
func missingValue(n *Node, r *required, publish bool) bool {
	v, ok := n.Param(r.name)
	if r.list {
		// An empty list (addToIssuesIfMissing); absent, the default
		// [] a run's check reads ("+": a default that is not empty).
		// The publish check reads only what is stored (PublishMissing).
		if publish && (!ok || !storedConds(n, r.conds)) {
			return false
		}
		return !ok && !r.filled || ok && v.Kind() == Array && v.len() == 0
	}
	switch {
	case !ok && !r.filled:
		return true
	case ok && v.Kind() == String && v.Raw() == `""`:
		// The stored text itself: "=" is an expression, not empty.
		return true
	case ok && r.locator && v.Kind() == Object:
		// n8n-workflow type-guards.js isValidResourceLocatorParameterValue:
		// a number is a value, else the value must be truthy.
		if x := v.Get("value"); !x.Exists() || x.Kind() == Null || x.Kind() == String && x.Raw() == `""` {
			return true
		}
	}
	return false
}

// required is one of a node entry's required parameters, read from the
// table's text ("+name", "~name", "name:resource=a,b;operation=c").
type required struct {
	name    string
	conds   string // the display conditions, when gated
	filled  bool   // "+": only a stored "" (or []) is missing
	locator bool   // "~": a resource locator
	list    bool   // "*": a multiOptions, missing when its list is empty
	gated   bool   // shown only when conds hold
}

// reqs are an entry's required parameters (all, in the table's order)
// and, for each resource the entry lists operations for (by index of
// e.ops), those a node there may show (byRes): the entries list each
// resource's and operation's parameters apart, so a node's resource and
// operation rule most of them out before any condition is read.
type reqs struct {
	all   []required
	every []uint16 // every index of all
	byRes []resReqs
}

// resReqs are the parameters of an entry that a node at one resource may
// show, as indexes of reqs.all in the table's order: at an operation the
// conditions name (byOp), or at any other (rest). Left out are those
// whose first condition shows them only at other resources
// ("name:resource=a,b;..."), or whose operation condition, first or right
// after the resource's ("resource=a;operation=x,y"), only at other
// operations: shown would refuse them there.
type resReqs struct {
	rest []uint16
	byOp []opReqs
}

// opReqs are the parameters of an entry that a node at one resource and
// operation may show (resReqs).
type opReqs struct {
	op string
	ks []uint16
}

// at is the indexes of the parameters of rq that d's node may show
// (resReqs): all of them unless its resource is a literal the entry lists.
func (rq *reqs) at(d *display) []uint16 {
	res, ok := d.resource()
	if !ok || res == "" {
		return rq.every
	}
	for i := range d.e.ops {
		if d.e.ops[i].resource != res {
			continue
		}
		at := &rq.byRes[i]
		if op, ok := d.operation(); ok && op != "" {
			for j := range at.byOp {
				if at.byOp[j].op == op {
					return at.byOp[j].ks
				}
			}
		}
		return at.rest
	}
	return rq.every
}

// requiredParsed holds each entry's required parameters, cut out of the
// table's text once a process, not again for every node of the type (an
// entry lists up to 98). The conditions stay text
// (shown reads them): parsed too, the entries n8n-real uses held 674 KB
// instead of 138 KB, for 0.7 % fewer instructions, a cost the collector
// pays again at every cycle. The index by resource and operation (byRes:
// only the first two conditions' values, cut out of the text) adds ~0.4
// MB there (the allocation profiler's sampled figure), for 0.58 % fewer.
var requiredParsed sync.Map // *nodeEntry → *reqs

func requiredOf(e *nodeEntry) *reqs {
	if e.memo != nil {
		if rq := e.memo.req.Load(); rq != nil {
			return rq
		}
	} else if rq, ok := requiredParsed.Load(e); ok {
		return rq.(*reqs)
	}
	rq := &reqs{}
	for f := range strings.SplitSeq(e.required, " ") { // the table writes one space between entries
		if f == "" {
			continue
		}
		var r required
		f, r.filled = strings.CutPrefix(f, "+")
		f, r.locator = strings.CutPrefix(f, "~")
		f, r.list = strings.CutPrefix(f, "*")
		r.name, r.conds, r.gated = strings.Cut(f, ":")
		rq.every = append(rq.every, uint16(len(rq.all)))
		rq.all = append(rq.all, r)
	}
	if len(e.ops) > 0 {
		// Each parameter's resources and operations, from its first
		// conditions ("" when they do not narrow it).
		ress, ops := make([]string, len(rq.all)), make([]string, len(rq.all))
		narrow := false
		for k, r := range rq.all {
			if !r.gated {
				continue
			}
			first, rest, _ := strings.Cut(r.conds, ";")
			if at, ok := strings.CutPrefix(first, "resource="); ok {
				ress[k] = at
				first, _, _ = strings.Cut(rest, ";")
			}
			if at, ok := strings.CutPrefix(first, "operation="); ok {
				ops[k] = at
			}
			narrow = narrow || ress[k] != "" || ops[k] != ""
		}
		rq.byRes = make([]resReqs, len(e.ops))
		if !narrow {
			for i := range rq.byRes {
				rq.byRes[i].rest = rq.every
			}
		}
		// add puts parameter k in the lists of resource i, in the
		// table's order (k grows).
		add := func(i, k int) {
			at := &rq.byRes[i]
			if n := len(at.rest); n > 0 && at.rest[n-1] == uint16(k) {
				return // a resource listed twice
			}
			if ops[k] == "" { // at any operation: in every list
				at.rest = append(at.rest, uint16(k))
				for j := range at.byOp {
					at.byOp[j].ks = append(at.byOp[j].ks, uint16(k))
				}
				return
			}
			for op := range strings.SplitSeq(ops[k], ",") {
				j := slices.IndexFunc(at.byOp, func(o opReqs) bool { return o.op == op })
				if j < 0 {
					j = len(at.byOp)
					at.byOp = append(at.byOp, opReqs{op: op, ks: slices.Clone(at.rest)}) // the ones before it at any operation
				}
				if ks := at.byOp[j].ks; len(ks) == 0 || ks[len(ks)-1] != uint16(k) { // listed twice
					at.byOp[j].ks = append(ks, uint16(k))
				}
			}
		}
		for k := range rq.all {
			switch {
			case !narrow:
			case ress[k] == "":
				for i := range e.ops {
					add(i, k)
				}
			default:
				for res := range strings.SplitSeq(ress[k], ",") {
					for i := range e.ops {
						if e.ops[i].resource == res {
							add(i, k)
						}
					}
				}
			}
		}
	}
	if e.memo != nil {
		if e.memo.req.CompareAndSwap(nil, rq) {
			return rq
		}
		return e.memo.req.Load()
	}
	got, _ := requiredParsed.LoadOrStore(e, rq)
	return got.(*reqs)
}

// display is what shown reads of a node: its resource and operation, each
// read once for all of the node's required parameters (an entry lists up
// to 98, most gated on both).
type display struct {
	n               *Node
	e               *nodeEntry
	res, op         string
	resOK, opOK     bool
	resRead, opRead bool
}

func (d *display) resource() (string, bool) {
	if !d.resRead {
		d.resRead = true
		d.res, d.resOK = resourceOf(d.n, d.e)
	}
	return d.res, d.resOK
}

func (d *display) operation() (string, bool) {
	if !d.opRead {
		d.opRead = true
		if r, ok := d.resource(); ok {
			d.op, d.opOK = operationAt(d.n, d.e, r)
		}
	}
	return d.op, d.opOK
}

// value is the value a display condition's key reads on d's node: its
// resource, its operation, or another parameter ("select()=channel":
// stored, or absent with the default written in the parentheses).
func (d *display) value(key string) (string, bool) {
	switch key {
	case "resource":
		return d.resource()
	case "operation":
		return d.operation()
	}
	k, def, _ := strings.Cut(key, "(")
	return storedOr(d.n, k, strings.TrimSuffix(def, ")"))
}

// shown reports whether n8n certainly shows a parameter of d's node whose
// display hangs on conds (in the node table, ";" separated:
// "resource=sheet", "operation!get", "select()=channel"): every key's
// value is known (a literal stored string, or absent with its default
// the value n8n fills in) and passes (n8n-workflow node-helpers.js
// displayParameter: a show condition lists the value, a hide condition
// does not). An expression, or a value of another kind, is not judged.
// When not shown, failed is the length of conds up to the end of the
// condition that fails: any conditions that start with those, up to a
// ";" or their end, fail alike.
func (d *display) shown(conds string) (shown bool, failed int) {
	all := conds
	for {
		cond, rest, more := strings.Cut(conds, ";")
		failed = len(all) - len(conds) + len(cond)
		i := 0
		for i < len(cond) && cond[i] != '=' && cond[i] != '!' {
			i++
		}
		if i == len(cond) {
			return false, failed
		}
		key, hide, vals := cond[:i], cond[i] == '!', cond[i+1:]
		x, ok := d.value(key)
		if !ok || x == "" {
			return false, failed
		}
		if listed(vals, x) == hide {
			return false, failed
		}
		if !more {
			return true, 0
		}
		conds = rest
	}
}

// storedConds reports whether every key of conds (as shown reads them) is
// stored in n's parameters, so that a check reading the stored parameters
// alone, with no defaults filled in, sees the values shown judged.
func storedConds(n *Node, conds string) bool {
	for cond := range strings.SplitSeq(conds, ";") {
		if cond == "" {
			continue
		}
		key := cond[:strings.IndexAny(cond+"=", "=!")]
		key, _, _ = strings.Cut(key, "(")
		if _, ok := n.Param(key); !ok {
			return false
		}
	}
	return true
}

// listed reports whether x is one of vals (comma separated).
func listed(vals, x string) bool {
	for vals != "" {
		var v string
		v, vals, _ = strings.Cut(vals, ",")
		if v == x {
			return true
		}
	}
	return false
}

// storedOr is n's value of parameter key: the stored string, or def when
// absent; false for an expression or a value of another kind.
func storedOr(n *Node, key, def string) (string, bool) {
	v, ok := n.Param(key)
	if !ok {
		return def, true
	}
	if v.Kind() != String || v.IsExpr() {
		return "", false
	}
	return v.Str(), true
}

// resourceOf is n's resource: stored, or the default at its version.
func resourceOf(n *Node, e *nodeEntry) (string, bool) {
	return storedOr(n, "resource", e.resource)
}

// operationAt is n's operation at resource r: stored, or the default of
// r. Judged only at a resource the table lists operations for (elsewhere
// n8n shows no operation parameter and drops a stored one).
func operationAt(n *Node, e *nodeEntry, r string) (string, bool) {
	for i := range e.ops {
		if e.ops[i].resource == r {
			return storedOr(n, "operation", e.ops[i].def)
		}
	}
	return "", false
}

// EmptyRequiredError is the error a node throws on every item when it
// runs with required parameter param empty, where the node's code says:
// HTTP Request v3 and later, and its tool, trims its URL and throws
// before any request (n8n-nodes-base dist/nodes/HttpRequest/V3/
// HttpRequestV3.node.js L158-166).
func EmptyRequiredError(n *Node, param string) (string, bool) {
	base := strings.TrimSuffix(n.Type, "Tool")
	if base == "n8n-nodes-base.httpRequest" && n.TypeVersion >= 3 && param == "url" {
		return "URL parameter cannot be empty", true
	}
	return "", false
}
