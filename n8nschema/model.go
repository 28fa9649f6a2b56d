package n8nschema

import (
	"sync"
	"sync/atomic"
)

// File is one parsed input and every workflow it holds.
type File struct {
	Source    *Source
	Workflows []*Workflow
	// Problems found outside any workflow: invalid JSON, no workflow shape.
	Problems []Problem
	// Explicit is true when the input was named on the command line rather
	// than found while walking a folder; it decides how loud RS002 is.
	Explicit bool
}

// Workflow is one n8n workflow: the graph n8n would run.
type Workflow struct {
	Source *Source
	// Path is the dotted path of the workflow object in its source ("" when
	// the file is the workflow, "data.3" in an API page, "0" in an array).
	Path string
	// Ordinal is the workflow's index among the workflows of its source.
	Ordinal int
	ID      string
	Name    string
	// VersionID is the id n8n gives each saved version (versionId): two
	// exports with one are one save.
	VersionID string
	Active    bool
	// Archived is true for a workflow n8n has archived (isArchived): its
	// triggers never fire, since n8n refuses to publish it
	// (cli/src/active-workflow-manager.ts add, workflow.service.ts).
	Archived bool
	// Published is true when nodes and connections were read from
	// activeVersion: n8n 2.x runs the published version in production
	// (cli/src/workflow-execute-additional-data.ts getPublishedWorkflowData).
	Published bool
	// DraftDiffers is true when the draft (top-level nodes/connections)
	// differs from the published version that was audited.
	DraftDiffers bool
	// ParametersLost is true when every node's parameters are empty, one
	// of them a node that cannot run that way (NeedsParameters): the
	// export lost them (a gallery template stripped for sharing). A real
	// export omits only parameters equal to their defaults.
	ParametersLost bool

	// Pos is where the workflow begins: its "name" key, else the object.
	Pos      Pos
	Problems []Problem

	// Nodes are the nodes in file order, but for the later copies of a
	// node that repeats an earlier one and runs alike (duplicateNames):
	// n8n keeps one node of a name.
	Nodes       []*Node
	Connections []Connection
	Settings    Settings
	Value       Value

	byName nameIndex
	// mainIn maps a node's name to the nodes whose main outputs feed it,
	// made on first need (mainSources).
	mainInOnce sync.Once
	mainIn     map[string][]string
	// fed memoises fedFrom: many HTTP nodes may read the body one Code
	// or Set node builds, and each read would scan its code again.
	fedMu    sync.Mutex
	fed      map[fedKey]fedAnswer
	fedReads int // fedFrom's reads of a node's code or fields (tests bound it)
}

// Node returns the node of that name (the first one when names repeat).
func (w *Workflow) Node(name string) *Node {
	return w.byName.get(name)
}

// Label names the workflow for people: its name, else its id, else "".
func (w *Workflow) Label() string {
	if w.Name != "" {
		return w.Name
	}
	return w.ID
}

// Node is one node of a workflow, with the node-level settings n8n's
// executor reads (docs/n8n-behaviour.md#node-settings).
type Node struct {
	// Index is the node's position in the workflow's nodes array.
	Index int
	Name  string
	Type  string
	// TypeVersion is the node's typeVersion or, when the export has none,
	// the default version n8n runs it at (0 for a type n8n does not describe).
	TypeVersion float64
	// TypeVersionSet reports whether the export holds a typeVersion.
	TypeVersionSet   bool
	Disabled         bool
	RetryOnFail      bool
	ContinueOnFail   bool
	ExecuteOnce      bool
	AlwaysOutputData bool
	// BareBraces is true when a string of the node's parameters holds
	// "{{" and does not begin with "=": n8n evaluates only a string that
	// begins with "=" (n8n-workflow dist/cjs/expressions/expression-helpers.js
	// isExpression), so it sends that one as it is (RS012). Set when the
	// parameters are parsed.
	BareBraces bool
	// noExprs is set when the node's parameters are an object or array
	// holding no expression string (NoExprs). Set when the parameters
	// are parsed.
	noExprs bool
	// described is set when desc and descAt hold what DescribeNode says
	// of the node (Describe): its entry in the node table (nil for a
	// type n8n does not describe) and the index of the version taken in
	// the entry's versions.
	described bool
	OnError   string

	// Pos is the node's "name" key (or the node object when it has none).
	Pos Pos

	ID        string
	WebhookID string
	Notes     string
	// Credentials lists the credential types the node uses.
	Credentials []string
	// Value is the whole node object.
	Value Value
	// paramsPath is the path of the node's "parameters" (Params).
	paramsPath string
	// hot holds which member of the parameters each hot parameter is
	// (hotParam; from 1, 0 when absent), and creds the node's
	// "credentials" member (0 when absent), found once at parse when
	// indexed (indexHot): many facts read them of the same node.
	hot     [nHot]uint8
	indexed bool
	descAt  uint8
	creds   uint32
	// params, maxTries and waitTries are the tree nodes of the members
	// "parameters", "maxTries" and "waitBetweenTries" (0 when absent):
	// the node keeps their places, 4 bytes each, instead of a Value of
	// 48 (a block of nodes is a tenth of the bytes a parse allocates),
	// and Params, MaxTries and WaitBetweenTries make the Values.
	params, maxTries, waitTries uint32
	wf                          *Workflow // the workflow the node is in (nil when made by hand)
	desc                        *nodeEntry
	// Answers kept for the analysis, which asks them of a node several
	// times, from several goroutines (nil until asked).
	httpModel kept[HTTPModelCall]
	heartbeat kept[Heartbeat]
	appOp     kept[appOp]
}

// Param returns a parameter by dotted path below "parameters".
func (n *Node) Param(path string) (Value, bool) {
	if n.indexed {
		if h := hotParam(path); h >= 0 {
			return n.hotParam(h, path, "")
		}
		if len(path) > len("options.") && path[:len("options.")] == "options." {
			return n.hotParam(hotOptions, path, path[len("options."):])
		}
		if t := n.Value.t; n.params != 0 && t.nodes[n.params].kind() == Object {
			// Indexed parameters keep their path as is: what
			// n.Params().Get(path) gives, without making the Value of
			// the parameters first.
			i, spelled, ok := t.lookup(n.params, path)
			if !ok {
				return missing(n.paramsPath, path), false
			}
			return Value{t: t, i: i, form: pathJoined, odd: n.Value.odd || !spelled, path: n.paramsPath, elem: path}, true
		}
	}
	v := n.Params().Get(path)
	return v, v.Exists()
}

// The parameters the analysis reads of nearly every node, each by many
// facts (which operation a node runs, what it calls, how it
// authenticates): the parse finds where each sits once (Node.hot), and
// Param reads them there instead of searching the parameters' members.
const (
	hotOperation = iota
	hotResource
	hotURL
	hotAuthentication
	hotMethod
	hotOptions
	hotLanguage
	hotJSCode
	hotMode
	hotModel
	hotSendBody
	hotSendHeaders
	hotSendQuery
	hotJSONBody
	nHot
)

// hotParam is the hot parameter of that key, or -1.
func hotParam(key string) int {
	switch key {
	case "operation":
		return hotOperation
	case "resource":
		return hotResource
	case "url":
		return hotURL
	case "authentication":
		return hotAuthentication
	case "method":
		return hotMethod
	case "options":
		return hotOptions
	case "language":
		return hotLanguage
	case "jsCode":
		return hotJSCode
	case "mode":
		return hotMode
	case "model":
		return hotModel
	case "sendBody":
		return hotSendBody
	case "sendHeaders":
		return hotSendHeaders
	case "sendQuery":
		return hotSendQuery
	case "jsonBody":
		return hotJSONBody
	}
	return -1
}

// hotKeys are the hot parameters' keys, in hotParam's order.
var hotKeys = [nHot]string{
	"operation", "resource", "url", "authentication", "method", "options", "language", "jsCode",
	"mode", "model", "sendBody", "sendHeaders", "sendQuery", "jsonBody",
}

// hotFirst marks the bytes a hot parameter's key begins with.
var hotFirst = func() (t [256]bool) {
	for _, k := range hotKeys {
		t[k[0]] = true
	}
	return t
}()

// hotParam is Param of path, hot parameter h followed by rest when rest
// is not "": what n.Params().Get(path) gives (the parameters keep their
// path as is, and a hot key needs no escape).
func (n *Node) hotParam(h int, path, rest string) (Value, bool) {
	if n.hot[h] == 0 {
		return missing(n.paramsPath, path), false
	}
	// n.hot is set only for parameters that are an object.
	t := n.Value.t
	i, spelled := t.nodes[n.params].first+uint32(n.hot[h]-1), true
	if rest != "" {
		var ok bool
		if i, spelled, ok = t.lookup(i, rest); !ok {
			return missing(n.paramsPath, path), false
		}
	}
	return Value{t: t, i: i, form: pathJoined, odd: n.Value.odd || !spelled, path: n.paramsPath, elem: path}, true
}

// indexHot fills n.hot from its parameters (set first): for each hot
// parameter, the first member of that key, as member finds it. It leaves
// n.indexed false (Param then searches) for a sticky note and for
// parameters of more members than n.hot can count.
func (n *Node) indexHot() {
	p := n.Params()
	if p.form != pathAsIs || n.Value.form != pathAsIs || n.IsSticky() {
		return
	}
	if p.Kind() == Object {
		t, pn := p.t, p.node()
		if pn.n > 255 {
			return
		}
		for k := range pn.n {
			c := &t.nodes[pn.first+k]
			if c.flags&keyEsc == 0 && !hotFirst[t.text[t.keyOff(c)+1]] {
				continue
			}
			if h := hotParam(t.keyOf(c)); h >= 0 && n.hot[h] == 0 {
				n.hot[h] = uint8(k + 1)
			}
		}
	}
	n.indexed = true
}

// Params returns the whole "parameters" object.
func (n *Node) Params() Value {
	if n.params == 0 {
		return Value{path: n.paramsPath} // missing, as n.Value.Get("parameters")
	}
	return Value{t: n.Value.t, i: n.params, odd: n.Value.odd, path: n.paramsPath}
}

// NoExprs reports whether the node's parameters are an object or array
// none of whose strings, at any depth, is an expression (Value.IsExpr:
// one that begins with "=" and holds "{{"): a reader of expressions
// (Value.ExprsWith, or Scalars keeping those IsExpr) finds none. False
// when it cannot tell (a node made by hand, no parameters member).
func (n *Node) NoExprs() bool { return n.noExprs }

// MaxTries and WaitBetweenTries are the node's "maxTries" and
// "waitBetweenTries", kept raw: their absence, 0 and out-of-range values
// mean different things to different executors. Missing: the zero Value.
func (n *Node) MaxTries() Value { return n.member(n.maxTries, "maxTries") }

// WaitBetweenTries: see MaxTries.
func (n *Node) WaitBetweenTries() Value { return n.member(n.waitTries, "waitBetweenTries") }

// member is the node's member at tree node c (0: the zero Value).
func (n *Node) member(c uint32, key string) Value {
	if c == 0 {
		return Value{}
	}
	return n.Value.memberAt(c, key)
}

// Field returns a top-level key of the node object ("retryOnFail").
func (n *Node) Field(key string) Value {
	if n.indexed && key == "credentials" {
		// What n.Value.Get(key) gives (the node keeps its path as is).
		v := &n.Value
		if n.creds == 0 {
			return missing(v.path, key)
		}
		return Value{t: v.t, i: n.creds, form: pathJoined, odd: v.odd, path: v.path, elem: key}
	}
	return n.Value.Get(key)
}

// IsSticky reports whether the node is a canvas sticky note.
func (n *Node) IsSticky() bool { return n.Type == "n8n-nodes-base.stickyNote" }

// ParametersLost reports a node of a workflow whose export lost every
// node's parameters (Workflow.ParametersLost): a parameter it lacks was
// lost, not left at its default.
func (n *Node) ParametersLost() bool { return n.wf != nil && n.wf.ParametersLost }

// ContinuesOnFail reports whether a failure lets the workflow go on
// (base-execute-context.ts continueOnFail: onError wins over the legacy flag).
func (n *Node) ContinuesOnFail() bool {
	if n.OnError != "" {
		return n.OnError == "continueRegularOutput" || n.OnError == "continueErrorOutput"
	}
	return n.ContinueOnFail
}

// Connection is one edge of the connections object: output Output of type
// FromType on node From feeds input ToIndex of type ToType on node To.
type Connection struct {
	From     string
	FromType string
	Output   int
	To       string
	ToType   string
	ToIndex  int
	// Offset is where the connection's object starts in the workflow's
	// source: its position is Source.PosAt(Offset, Path()), asked only
	// where one is reported (a line and column made for every connection
	// were read for a few).
	Offset int
	// t and i are the connection's node in its file's tree (t nil for a
	// connection made by hand): its path is made when asked (Path).
	t *tree
	i uint32
	// from and to are w.Node(From) and w.Node(To) as the parse found
	// them (nil for a connection made by hand): see Ends.
	from, to *Node
}

// Ends returns the connection's source and target nodes in w, the
// workflow the parse made c in: w.Node(c.From) and w.Node(c.To), as the
// parse found them when it read the connection (it looks up both names
// to keep it), else (a connection made by hand) looked up in w.
func (c *Connection) Ends(w *Workflow) (from, to *Node) {
	if c.to != nil {
		return c.from, c.to
	}
	return w.Node(c.From), w.Node(c.To)
}

// Path is the dotted path of the connection's object ("" for a
// connection made by hand).
func (c *Connection) Path() string {
	if c.t == nil {
		return ""
	}
	return c.t.pathOf(c.i)
}

// ConnectionPos is the position of connection c of w, made when it is
// asked; a connection made by hand (no path) has none.
func (w *Workflow) ConnectionPos(c *Connection) Pos {
	if c.t == nil || w.Source == nil {
		return Pos{}
	}
	return w.Source.PosAt(c.Offset, c.Path())
}

// ExecutionsTimeoutMax is EXECUTIONS_TIMEOUT_MAX's default: n8n runs a
// workflow's executionTimeout as min(executionTimeout, 3600) s
// (n8n/dist/workflow-runner.js L178–180; @n8n/config
// executions.config.js maxTimeout = 3600).
const ExecutionsTimeoutMax = 3600

// Settings are the workflow settings the analysis reads.
type Settings struct {
	// ErrorWorkflow is the id of the workflow n8n runs when an execution fails.
	ErrorWorkflow      string
	ErrorWorkflowValue Value
	// ExecutionTimeout in seconds as n8n applies it: capped at
	// ExecutionsTimeoutMax; 0 when absent or -1 (unlimited by default,
	// EXECUTIONS_TIMEOUT=-1 in @n8n/config executions.config.ts).
	// ExecutionTimeoutValue holds what the file says.
	ExecutionTimeout      float64
	ExecutionTimeoutValue Value
	CallerPolicy          string
	ExecutionOrder        string
	Value                 Value
}

// ProblemKind classifies what is wrong with an input.
type ProblemKind int

const (
	// InvalidJSON: the file is empty, does not parse, or has data after the value.
	InvalidJSON ProblemKind = iota + 1
	// NotWorkflow: valid JSON without a workflow shape.
	NotWorkflow
	// BrokenConnection: a connection names a missing node, or a slot, node
	// or connections object has the wrong shape.
	BrokenConnection
	// DuplicateName: two nodes share a name; connections cannot tell them apart.
	DuplicateName
	// DuplicateKey: an object repeats a key; n8n reads the last member of
	// that name, and so does the parser.
	DuplicateKey
	// Unreadable: the input could not be read at all (a broken symlink, no
	// permission, not a regular file, over the size limit); the CLI makes
	// these, Parse never does.
	Unreadable
)

// Problem is something wrong with the input itself. Rules RS001–RS004 turn
// problems into findings.
type Problem struct {
	Kind    ProblemKind
	Pos     Pos
	Node    string
	Message string
	// Note marks a problem n8n may repair by itself (a nameless node gets
	// a name at import): reported as a note, not a warning.
	Note bool
	// Fatal marks a problem n8n fails on (a connection it cannot read
	// throws): reported as an error.
	Fatal bool
	// Unbuilt marks a problem that makes building the workflow throw:
	// no execution of it starts, from any trigger.
	Unbuilt bool
	// Aborts marks a "main" connection of Node that names no node: n8n
	// ends every execution once Node has run ("Destination node not
	// found").
	Aborts bool
	// Why is what n8n does with it at run time, the end of Message after
	// "; " (empty when Message says nothing of a run).
	Why string
	// Dropped are the edges of the problem n8n never follows (a source
	// or target name no node holds, connections keyed by node id): the
	// rules judge from them whose runs lose what.
	Dropped []DroppedEdge
}

// A DroppedEdge is a connection n8n does not follow, by node names as
// the file gives them (a source keyed by node id is given by the name of
// the node with that id).
type DroppedEdge struct {
	From, Type, To string
	Input          int // the target's input index
}

// kept is an answer about a node that the analysis asks several times,
// from several goroutines (rules run in parallel over one set): made on
// first need and kept. Two goroutines asking at once may both make it;
// the first stored is what every caller gets, so an answer holding a
// pointer (Heartbeat.Switch) is the same for all.
type kept[T any] struct{ p atomic.Pointer[answer[T]] }

type answer[T any] struct {
	v  T
	ok bool
}

func (k *kept[T]) get(n *Node, of func(*Node) (T, bool)) (T, bool) {
	if a := k.p.Load(); a != nil {
		return a.v, a.ok
	}
	v, ok := of(n)
	a := &answer[T]{v, ok}
	if !k.p.CompareAndSwap(nil, a) {
		a = k.p.Load()
	}
	return a.v, a.ok
}
