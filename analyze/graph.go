package analyze

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// Connection types the graph cares about (workflow/src/interfaces.ts
// NodeConnectionTypes, docs/n8n-behaviour.md#connections).
const (
	ConnMain     = "main"
	ConnModel    = "ai_languageModel"
	ConnTool     = "ai_tool"
	ConnMemory   = "ai_memory"
	ConnEmbedder = "ai_embedding"
	// ConnVectorStore and ConnRetriever feed a Vector Store Tool or
	// Retriever and a Question and Answer chain.
	ConnVectorStore = "ai_vectorStore"
	ConnRetriever   = "ai_retriever"
	// ConnOutputParser feeds a chain or agent the parser of its answer.
	ConnOutputParser = "ai_outputParser"
)

// Edge is one connection between two nodes of a workflow. AI connections
// keep n8n's direction: from the sub-node (model, tool, memory) to the root
// it serves.
type Edge struct {
	From, To *n8nschema.Node
	Type     string // connection type: "main", "ai_languageModel", "ai_tool", ...
	Output   int    // output index on From
	Input    int    // input index on To
	// Error is true on the extra trailing output n8n adds to a node with
	// onError "continueErrorOutput" (workflow/src/node-helpers.ts L1156).
	Error bool
	// Unrun is true on the edges of Graph.Unrun.
	Unrun bool
	// NoInput is true on the Unrun edges into a main input index the
	// target does not have (mainInputs).
	NoInput bool

	from, to int32 // the indexes of From and To in Graph.Nodes
}

// Graph is the node graph of one workflow, built once and shared by every
// rule: nodes by name, edges by direction and type, the roots of AI
// sub-nodes, reachability from triggers, cycles and loops. Sticky notes are
// not part of it.
type Graph struct {
	Workflow *n8nschema.Workflow
	ver      n8nschema.Version // the n8n release it runs on
	// Nodes are the workflow's nodes without sticky notes, in file order.
	Nodes []*n8nschema.Node
	Edges []*Edge
	// Unrun are the main connections stored at an output the node does
	// not have (main[1] of an HTTP Request, an output past a Switch's
	// rules): n8n keeps them and never sends an item down them, since a
	// node's run returns one list of items per output it declares, and
	// the engine follows a connection only when its output's list has
	// items (n8n-core execution-engine/workflow-execute.js, after a node
	// runs). So are the outputs of a Switch rule that repeats an earlier
	// one, whose list is always empty (shadowedRules), and the outputs an
	// If, Filter or Switch whose test reads literals only, or the count
	// of its own input, never sends to (literalDead), or whose test of a
	// count field a Code node set is decided by the bound a Limit puts on
	// that count (countBounds.countBoundDead). So are the main connections into an input index
	// the target does not have (NoInput, mainInputs): n8n waits for its
	// input 0, which nothing fills, so the items never reach the node.
	// They are not in Edges, and no walk follows them.
	Unrun []*Edge
	// unrunPos is where each Unrun edge's connection is (UnrunPos).
	unrunPos []n8nschema.Pos
	// counts are the bounds on item counts buildGraph read at the
	// first test (countBounds; nil with no Limit or no test), which
	// DecidedGate reads again.
	counts *countBounds
	// Loops are the cycles of main connections that no guard bounds, in
	// the order of their first node (see Loop).
	Loops []*Loop
	// Unloadable are the nodes, disabled ones included, whose type n8n's
	// own packages do not ship in the release analysed
	// (n8nschema.UnshippedIn), or not at the node's typeVersion
	// (n8nschema.MissingVersion), or that have no type at all (the Workflow
	// constructor's look-up throws on it: n8n/dist/node-types.js
	// resolveBaseName calls endsWith on the type). n8n cannot build such a workflow: it
	// refuses to publish it and fails every run before any node runs
	// (docs/n8n-facts.md). So a graph with one has no triggers and reaches
	// nothing, and every rule that models runs is silent on it.
	Unloadable []*n8nschema.Node

	triggers []*n8nschema.Node
	sortOnce sync.Once
	sorted   triggerSort // sortedTriggers' memo

	// WiredUnrun's memo: the nodes an Unrun connection starts or ends at.
	unrunOnce sync.Once
	unrunAt   map[*n8nschema.Node]bool

	// sameFacts' memo: each webhook that has an earlier one's pacing
	// facts, with that one.
	classOnce sync.Once
	classOf   map[*n8nschema.Node]*n8nschema.Node
	// walked counts the nodes walkFrom visits, for the tests that keep
	// the walks linear (TestTriggersLinear).
	walked atomic.Int64

	// senderReads', pacesOnce's, chatSenders', bodyReads' and effect's memos, read by rules on any core.
	sendersOnce sync.Once
	senders     map[*n8nschema.Node]*senderReads // by webhook
	// pathAnswersGET's memo: the paths of the enabled Webhooks that take GET.
	getPathsOnce sync.Once
	getPaths     map[string]bool
	relaysOnce   sync.Once
	relays       map[*n8nschema.Node]bool // RelaysChat by webhook
	browser      map[*n8nschema.Node]bool // AnswersBrowser by webhook
	voiceTool    map[*n8nschema.Node]bool // answersVoiceTool by webhook
	chatOnce     sync.Once
	chatsOnce    []sync.Once // chatSender's, by node index
	chats        []bool
	// AnswersStarter's memo, by node index.
	startersOnce sync.Once
	starters     []bool
	// RunReach's memo of one start, by its index in Nodes.
	runReachOnce sync.Once
	runReachEach []sync.Once
	runReaches   []*Reach
	// senderReplies' whole list by webhook, kept by whichever of
	// RelaysChat and AnswersStarter reads it first (knownReplies).
	repliesMu sync.Mutex
	replies   map[*n8nschema.Node][]*n8nschema.Node
	// RelayOf's and personForm's memos, by webhook.
	relayOnce sync.Once
	relayBy   map[*n8nschema.Node]Relay
	formOnce  sync.Once
	formBy    map[*n8nschema.Node]bool
	// onlyPastPerson's memo: the nodes a start reaches without passing a
	// person's gate.
	ungatedOnce sync.Once
	ungated     map[*n8nschema.Node]bool
	// FailsBefore's memo: the nodes behind a node that fails on every
	// item, each with that node.
	behindOnce sync.Once
	// bindOnce decides binds, mayBind's answer, once per graph.
	bindOnce sync.Once
	binds    bool
	setReads []setRead // setLiterals of each node, by index, when binds
	behind   map[*n8nschema.Node]*n8nschema.Node
	// RefusedRun's memo: the nodes only refused triggers' runs reach,
	// each with the blank of one of them.
	refusedOnce sync.Once
	refusedOnly map[int32]issue
	// BehindBlank's memo: the nodes the runs reach only past a node whose
	// target is a template's blank, each with that node's index.
	blankOnce sync.Once
	blankOnly map[int32]int32
	// blankAt: blankOf's answer for each enabled node it reports.
	blankAt map[int32]Blank
	// blankGate: the Ifs whose test compares a template's fill-in
	// (fillInGate), keyed by the If.
	blankGate map[int32]Blank
	// blankSub: the enabled sub-nodes whose own credential is a
	// template's blank (subBlankOf).
	blankSub map[int32]Blank
	// blankRun: the nodes a run reaches once every node that fails on
	// every item is fixed (deadBesidesFailing), nil when no node names a
	// blank: the nodes whose own blank gates a finding on them.
	blankRun []bool
	// blankClear's memo, under blankMu: what it knows of each node (nil
	// till asked: seenQueued, seenClear), whether it found a blank (then
	// blankReach answers), whether the graph has no enabled Set node
	// (noSet: no config node for blankOf's reads of one), and none of
	// version 1 or 2 (noOldSet: no fill-in for fillInGate's reads).
	blankMu    sync.Mutex
	blankSeen  []uint8
	blankFound bool
	noSet      bool
	noOldSet   bool
	// UnreachedBy's memo: the answer for each node no run reaches.
	unreachedOnce sync.Once
	unreachedBy   map[*n8nschema.Node]*n8nschema.Node
	// paths' memo: each node's string parameters as readPaths writes them.
	pathsOnce sync.Once
	pathTexts [][]string
	pathOnce  []sync.Once // by index in Nodes
	// runsNow's memo: the webhooks that run a schedule's job now.
	runNowOnce  sync.Once
	runNow      map[*n8nschema.Node]bool
	bodiesOnce  sync.Once
	bodies      map[*n8nschema.Node][]bodyRead // bodyReads by node
	effectsOnce sync.Once
	// deleted holds the tables a node deletes rows from, by type and
	// table (drainsTable), found once.
	deletedOnce sync.Once
	deleted     map[string]bool
	effects     []Effect    // effect by index in Nodes
	effectOnce  []sync.Once // by index in Nodes: each decided when first asked
	// joins' memo: the runs per execution of parallel branches joined on
	// one input; nil when no node can run twice (mayRepeat).
	joinOnce  sync.Once
	joinFacts *joinFacts
	// HandlesFailure's memo: failureFeds by index in Nodes.
	failureOnce sync.Once
	failureFed  []bool
	// ReachBeforeModel's memo: modelWaits by index in Nodes.
	modelWaitOnce sync.Once
	modelWait     []bool
	// OnceWhileDown's memo: which loops each node is in, and the loops
	// by their ends (loopSets).
	loopsOnce   sync.Once
	loopMembers *loopMembers
	// Locked's memo: whether each node looks like a lock, by index in
	// Nodes, each decided when first asked.
	locksOnce sync.Once
	locks     []bool
	lockOnce  []sync.Once

	// slot maps a node's Index (its place in the nodes array) to its
	// index in Nodes, -1 for none; idx stands in when two nodes share an
	// Index (workflows built by hand).
	slot  []int32
	idx   map[*n8nschema.Node]int
	specs []*n8nschema.Spec // shared: never written
	types []*typeFacts      // each node's type facts (factsOf), beside specs; shared too
	// lists holds the edges by node, the out lists then the in lists:
	// node i's out edges are lists[off[i]:off[i+1]], its in edges
	// lists[off[n+i]:off[n+i+1]] (outs, ins).
	lists   []*Edge
	off     []int32
	reach   []bool
	errPath []bool
	errTrig []bool
	sub     []bool  // IsSubNode by node
	comp    []int32 // strongly connected component over main edges
	cyclic  []bool  // per component: it holds a cycle
	loopOf  []*Loop
	// deadDone marks Loop Over Items nodes whose done output never fires
	// (see neverDone).
	deadDone []bool
	// fails marks nodes that fail on every item and stop the execution
	// there (see failing); nil when none does.
	fails []bool
	// neverTrue marks If and Filter nodes whose test throws on every item
	// but that continue on fail: every item leaves by output 1 (failing).
	neverTrue []bool
	// empty marks nodes that return no items, their code having no branch
	// for their resource or operation (n8nschema.RefusedCall with
	// NoItems): nothing after their regular outputs runs.
	empty []bool
	// starved holds, by Merge made empty by starvedMerges, the inputs it
	// needs that no run feeds.
	starved map[int32][2]bool
	// aborts marks nodes after which n8n ends the execution (aborting):
	// nothing after them runs.
	aborts []bool
	// cut marks the edges whose items never arrive because a node that
	// runs before their target ends the execution first (aborting).
	cut map[*Edge]bool
	// failCut: under v1, an edge to a sibling that runs after a child
	// failing on every item (failStops), and an edge into a node that
	// waits for an input only a failing node feeds (waitStops), each with
	// that failing node.
	failCut map[*Edge]*n8nschema.Node
	// joinReads holds, by index, the nodes that read by name a sibling
	// the v1 order has not run yet (laterSiblingRead), found by failing.
	joinReads map[int32]JoinRead
	// ran holds the triggers' runs failing read (namedRefRefusal), for
	// UnrunNodeRef, which builds them under ranOnce if failing did not.
	ran     triggerRuns
	ranOnce sync.Once
	// runWalks counts the triggerRuns walks, for TestUnrunNodeRefOnce.
	runWalks atomic.Int32
	// readIn memoizes oneMainIn for laterSiblingRead by index
	// (oneMainInMemo; noMainIn for none).
	readIn []*Edge
	// heads holds, by index, each node's fan-out head (branchHeadOf).
	heads []branchHead
	// onceIn holds, by index, whether a node runs once per execution by
	// its main inputs (runsOnce): 0 not read, 2 yes, 3 no.
	onceIn []uint8
	// outsShared holds, by index, the main outputs (below 63) a node
	// sends on two edges or more, for laterSiblingRead (sendsTwice); bit
	// 63 marks a node read.
	outsShared []uint64
	// respondWhy holds, by index, the Webhooks that refuse every request
	// (respondMismatch) and why; they are in fails.
	respondWhy map[int32]string
	// issueWhy holds, by index, the triggers whose every run n8n refuses
	// before any node runs: a node they reach misses a required
	// parameter (refusedStarts).
	issueWhy map[int32]string
	issueAt  map[int32]issue // the node and parameter each of those triggers reaches
	// publishBlank is the first node n8n's publish check refuses for a
	// missing required parameter (firstPublishBlank), nil when none.
	publishBlank *issue
	// issueNamed holds, by index, the nodes that issueAt names for a
	// trigger other than themselves, each with its parameter.
	issueNamed map[int32]string
	// setupOnly marks the triggers in fails only for issueWhy: n8n names
	// the blank when it refuses to publish, the owner fills it in, and the
	// runs then reach what follows. RS010 reports the refusal; the reach
	// every other rule reads (dead, RunReach, BehindFrom) passes them.
	setupOnly []bool
	// noCall marks roots that fail on every item before they ask a
	// sub-node for a call (failsFirst, or a read by name that throws as
	// it reads its parameters): their sub-nodes never run.
	noCall []bool
	// noSess marks the main edges into an AI Agent that fails on their
	// items only, at a memory that finds no session ID (sessionless): no
	// item goes on from them (dead), nor does the agent call a sub-node.
	noSess map[*Edge]bool
	// fieldThrows marks the main edges from a trigger into a Code or
	// Function node whose code throws on that trigger's item, when the
	// node has other inputs (markFieldThrows): runs started there stop
	// at the node.
	fieldThrows map[*Edge]bool
	// fieldReads' memo: codeFieldReads by index in Nodes, each read when
	// first asked.
	fieldReadsOnce sync.Once
	fieldReadsBy   [][]fieldRead
	fieldReadOnce  []sync.Once
	// isPinned's memo: the names of the nodes the export's pinData holds.
	pinnedOnce  sync.Once
	pinnedNames map[string]bool
	// ByHandStarts' memo: the first test-only chat and the first Execute
	// Workflow Trigger that reach each node.
	handOnce            sync.Once
	handChat, handSubwf map[*n8nschema.Node]*n8nschema.Node
	// chatReach marks what an enabled Chat Trigger reaches (chatReached).
	chatReach []bool
	// quiet marks what only runs no person's message started reach
	// (quietReach).
	quietOnce sync.Once
	quiet     []bool
	// The tables of feedTable, each made on first need (rules ask them
	// concurrently): the nodes whose items are a Webhook's as it made
	// them (webhookItems), and those whose items have no chatInput or no
	// sessionId (fieldFree), and those whose items have no error field
	// (errorFreeItems).
	webhookFed, noChatInput, noSessionID, noError feedMemo
	// fileFed and headersFed mark the nodes whose items are a file
	// response's (fileItems).
	fileFed, headersFed feedMemo
	// refusals is n8nschema.RefusedCall of each node, read by failing,
	// FailsWhy and the attempt model (refused); nil while none is refused.
	refusals []refusal
	// selfTrig marks nodes on a cycle of executions; set by Amplify.
	selfTrig []bool
	// idleErr maps the nodes only an idle Error Trigger reaches to it;
	// set by markIdleErrorTriggers.
	idleErr map[*n8nschema.Node]idleError
	// facts holds, per cyclic component, what its Set and Code nodes
	// compute (cycleFacts); built on first need.
	facts     map[int32]*cycleFacts
	compNodes map[int32][]int // node indexes per component, for cycleFacts
	// factScans counts the nodes whose parameters cycleFacts read: each
	// at most once, however many guards ask (tests bound it).
	factScans int
}

// Loop is a cycle of main connections that is left once every bounded
// passage is removed: the loop output of Loop Over Items (fan-out over
// batches) and the outputs of an If/Switch/Filter that tests $runIndex or
// a counter. What remains can run for ever.
type Loop struct {
	// Nodes are the nodes of the cycle, in file order.
	Nodes []*n8nschema.Node
	// Head is where the cycle is entered; Back is the node whose edge
	// returns to Head and closes the cycle.
	Head, Back *n8nschema.Node
	// Calls are the nodes in the cycle that call out: external and model
	// nodes, agents and chains, sub-workflow calls.
	Calls []*n8nschema.Node
	// DoneBack is a Loop Over Items node whose done output leads back to
	// its own input (n8n issue #21817); nil otherwise.
	DoneBack *n8nschema.Node
	// Unbounded is true when the cycle calls out or is a DoneBack loop,
	// and it is not a paging loop.
	Unbounded bool
	// Paging is true when a node of the cycle sets a page or cursor field
	// that a call of the cycle sends, or a call's URL is the next-page link
	// a response of the cycle gave: each pass fetches the next page (as
	// HTTP pagination does), so the cycle is fan-out bounded by the data,
	// not a retry. RS105 reports it when no counter caps the pages.
	Paging bool
	// Pager is the calling node of a paging loop that sends the page.
	Pager *n8nschema.Node
	// PagingCursor is true when a paging loop takes each next page from
	// the data (a cursor, a last id, a next link the response gives), not
	// from a number the loop counts: it ends when the data does.
	PagingCursor bool
	// Bound says what ends a loop that no guard test bounds, when the
	// loop analysis finds it (then Unbounded is false): "counter" (a
	// counter read in a way IsGuard cannot see: a Code node throwing on a
	// stepped field, a number stepped to a limit, a work list drained
	// until empty) or "person" (a node of the loop waits for a person's
	// answer on every trip: it runs as often as someone sends work back)
	// or "status" (a poll that leaves on every terminal status of the job
	// it polls, failures included: it ends when the job does) or "drain"
	// (each pass lists what is left and removes it by id, and the loop
	// leaves on an empty list: it ends when the data does; drainsRemote)
	// or "time" (a condition goes round only while a stored time is
	// younger than a fixed age: the clock ends it; endsInTime).
	Bound string
	// LeavesOnly, for an unbounded status poll whose every way out is a
	// status of success ("succeeded"), names those statuses: a job that
	// ends failed or cancelled goes round for ever (endsWithJob).
	LeavesOnly []string
	// WaitS is the longest Wait, in seconds, that a trip holds (0: none).
	WaitS float64
	// Paced is true when every trip waits an hour or more in a Wait node:
	// the loop is a scheduler, and what it spends is bounded per day.
	Paced bool
	// Recursive is true for agents wired as their own tool (a cycle of
	// ai_tool connections): every call may call the agent again, and no
	// depth limit stops it (maxIterations bounds each level only).
	Recursive bool
}

// BuildGraph builds the graph of one workflow as the newest known n8n
// release runs it.
func BuildGraph(w *n8nschema.Workflow) *Graph {
	return buildGraph(w, n8nschema.NewestKnown())
}

// buildGraph builds the graph of one workflow as n8n release v runs it.
func buildGraph(w *n8nschema.Workflow, v n8nschema.Version) *Graph {
	sc := getScratch()
	defer putScratch(sc)
	g := new(Graph)
	g.Workflow, g.ver = w, v
	n, maxIndex := 0, -1
	for _, nd := range w.Nodes {
		if !nd.IsSticky() {
			n++
			maxIndex = max(maxIndex, nd.Index)
		}
	}
	g.Nodes = make([]*n8nschema.Node, 0, n)
	g.specs = make([]*n8nschema.Spec, 0, n)
	g.types = make([]*typeFacts, 0, n)
	for _, nd := range w.Nodes {
		if !nd.IsSticky() {
			f := factsOf(nd.Type)
			g.Nodes = append(g.Nodes, nd)
			g.specs = append(g.specs, &f.spec)
			g.types = append(g.types, f)
			unshipped := n8nschema.UnshippedGiven(f.unshipped, nd.Type, v)
			if _, missing := n8nschema.MissingVersionGiven(f.versions, f.versioned, nd, v); missing || nd.Type == "" || unshipped {
				g.Unloadable = append(g.Unloadable, nd)
			}
		}
	}
	// What the graph keeps of int32 and of bool, each in one array:
	// slot, comp and off; reach, errPath, errTrig, sub and cyclic.
	ints := make([]int32, maxIndex+1+n+2*n+1)
	g.comp, g.off = ints[maxIndex+1:maxIndex+1+n:maxIndex+1+n], ints[maxIndex+1+n:]
	flags := make([]bool, 5*n)
	g.reach, g.errPath, g.errTrig, g.sub = flags[:n:n], flags[n:2*n:2*n], flags[2*n:3*n:3*n], flags[3*n:4*n:4*n]
	g.cyclic = flags[4*n : 4*n]
	g.indexNodes(ints[:maxIndex+1])
	// The edges, then the lists by node, each list a piece of one array.
	edges := make([]Edge, 0, len(w.Connections))
	deg := sc.i32.zeroed(2 * n) // out then in degree per node
	var nouts []outCount        // main outputs by node, read at its first main edge (scratch)
	var nins []int8             // main inputs by node (mainInputs), 0 unread, -1 unknown
	// Bounds on item counts (countBounds), read at the first test.
	var cb *countBounds
	cbRead := false
	for i := range w.Connections {
		c := &w.Connections[i]
		from, to := c.Ends(w)
		fi, ok1 := g.index(from)
		ti, ok2 := g.index(to)
		if !ok1 || !ok2 {
			continue
		}
		e := Edge{From: from, To: to, Type: c.FromType, Output: c.Output, Input: c.ToIndex, from: int32(fi), to: int32(ti)}
		if e.Type == ConnMain {
			// The error output of continueErrorOutput comes after the
			// node's own outputs, and an output past them never carries
			// an item.
			if nouts == nil {
				nouts = sc.outs.zeroed(n)
			}
			k := &nouts[fi]
			if !k.read {
				k.n, k.known = declaredOutputs(from)
				if from.Disabled {
					// A disabled node passes its first input on to
					// output 0 and has no other, error output included
					// (workflow-execute.js handleDisabledNode).
					k.n, k.known = 1, true
				} else {
					k.shadowed = orDead(shadowedRules(from), literalDead(from))
					if n8nschema.IsBranch(from.Type) {
						if !cbRead {
							cb, cbRead = newCountBounds(w), true
						}
						k.shadowed = orDead(k.shadowed, cb.countBoundDead(from))
					}
				}
				k.read = true
			}
			errOut := from.OnError == "continueErrorOutput" && !from.Disabled
			if k.known && (c.Output > k.n || c.Output == k.n && !errOut) || c.Output < len(k.shadowed) && k.shadowed[c.Output] {
				g.addUnrun(&Edge{From: from, To: to, Type: c.FromType, Output: c.Output, Input: c.ToIndex, Unrun: true}, w.ConnectionPos(c))
				continue
			}
			if nins == nil {
				nins = make([]int8, n)
			}
			if nins[ti] == 0 {
				nins[ti] = -1
				if m, ok := mainInputs(to, g.specs[ti]); ok && (w.Settings.ExecutionOrder != "v1" || perItemCall(to, g.specs[ti])) {
					nins[ti] = int8(m)
				}
			}
			if nins[ti] > 0 && c.ToIndex >= int(nins[ti]) {
				g.addUnrun(&Edge{From: from, To: to, Type: c.FromType, Output: c.Output, Input: c.ToIndex, Unrun: true, NoInput: true}, w.ConnectionPos(c))
				continue
			}
			e.Error = errOut && c.Output >= k.n
			if e.Error && from.Type == n8nschema.TypeSplitInBatches && sibNeverErrs(w, from) {
				// Loop Over Items' error output comes after done and
				// loop, and nothing ever reaches it (sibNeverErrs).
				g.addUnrun(&Edge{From: from, To: to, Type: c.FromType, Output: c.Output, Input: c.ToIndex, Unrun: true}, w.ConnectionPos(c))
				continue
			}
		}
		edges = append(edges, e)
		if e.Type != ConnMain {
			g.sub[fi] = true
		}
		deg[fi]++
		deg[n+ti]++
	}
	g.counts = cb
	// Edges and lists, one array; next is where each list goes on.
	next := deg
	for i, d := range deg {
		g.off[i+1] = g.off[i] + d
		next[i] = g.off[i]
	}
	if len(edges) > 0 {
		all := make([]*Edge, 3*len(edges))
		g.Edges, g.lists = all[:len(edges):len(edges)], all[len(edges):]
	}
	for i := range edges {
		e := &edges[i]
		g.Edges[i] = e
		g.lists[next[e.from]] = e
		next[e.from]++
		g.lists[next[n+int(e.to)]] = e
		next[n+int(e.to)]++
	}
	g.failing()
	g.aborting()
	g.neverDone(sc)
	g.waitStops()
	g.starvedMerges()
	g.reachability(sc)
	g.cycles(sc)
	if len(g.Unloadable) > 0 {
		g.Loops, g.loopOf = nil, nil // n8n cannot build it: no loop runs
	}
	return g
}

// failing marks the enabled nodes that fail on every item: n8n or the
// provider refuses their call as configured (n8nschema.RefusedCall with
// Fails). n8n stops the execution at such a node, so nothing leaves its
// regular outputs, unless it continues on error through them
// (continueRegularOutput, or the legacy continueOnFail); with
// continueErrorOutput its items leave by the error output
// (n8n-core/dist/execution-engine/workflow-execute.js continuesOnError,
// handleNodeErrorOutput).
//
// The same holds for a node whose own data makes it fail on every item
// (fails.go): an If or Filter whose test throws (n8nschema.GateThrows),
// which, when it continues on fail itself (IfV2.node.js and
// FilterV2.node.js catch: continueOnFail), sends every item to its second
// output instead; a root that fails before it calls its sub-nodes
// (failsFirst), whose sub-nodes never run whatever it does on error.
//
// So does a node whose parameters read a node the workflow does not have
// (missingNodeRef), or one that has not run when it runs (unrunNodeRef,
// and under v1 laterSiblingRead where the branch above always passes it
// items).
//
// A node that returns no items (n8nschema.RefusedCall with NoItems) does
// not fail, but nothing leaves its regular outputs either: n8n runs no
// node on an empty output.
func (g *Graph) failing() {
	ran := &g.ran
	mark := func(m *[]bool, i int) {
		if *m == nil {
			*m = make([]bool, len(g.Nodes))
		}
		(*m)[i] = true
	}
	hooks := false // an enabled Webhook, whose items alone webhookGateFalse judges
	for i, nd := range g.Nodes {
		hooks = hooks || nd.Type == n8nschema.TypeWebhook && !nd.Disabled
		var r refusal
		// A node is asked only the checks of RefusedCall that judge its
		// type (n8nschema.RefusalChecksOf, read once per type), and one
		// of a type none judges only for its credentials' types: most
		// nodes hold none.
		if c := g.types[i].refusal; c != 0 || len(nd.Credentials) > 0 {
			r.Refusal, r.ok = n8nschema.RefusedCallBy(nd, c)
			g.keepRefusal(i, r)
		}
		if r.ok && r.Fails && r.NoCall || nd.Disabled {
			continue
		}
		// A read by name that throws fails the node as it reads its
		// parameters, which a root (an agent, a chain) does before it
		// asks its model or tools anything. A node that reads no node by
		// name is not asked laterSiblingRead, which would find no read to
		// judge (namedRefRefusal's reads).
		ref, ok, reads := namedRefRefusal(g, i, ran)
		if ok {
			g.keepRefusal(i, refusal{ref, true})
			mark(&g.noCall, i)
			continue
		}
		if !reads {
			continue
		}
		if jr, ok := g.laterSiblingRead(i); ok {
			if g.joinReads == nil {
				g.joinReads = map[int32]JoinRead{}
			}
			g.joinReads[int32(i)] = jr
			if jr.Sure {
				g.keepRefusal(i, refusal{n8nschema.Refusal{Why: jr.Why(), Fails: true, NoCall: true}, true})
				mark(&g.noCall, i)
			}
		}
	}
	var refusedTrig []bool
	g.refusedStarts(func(_ *[]bool, i int) { mark(&refusedTrig, i) })
	follows, resumable := g.respondFollows()
	for i, nd := range g.Nodes {
		if nd.Disabled {
			continue
		}
		if why, ok := g.respondMismatch(i, follows, resumable); ok && !nd.ContinuesOnFail() && !nd.ContinueOnFail {
			if g.respondWhy == nil {
				g.respondWhy = map[int32]string{}
			}
			g.respondWhy[int32(i)] = why
			mark(&g.fails, i)
			continue
		}
		_, first := g.failsFirst(i)
		if first {
			mark(&g.noCall, i)
		} else if !nd.ContinuesOnFail() && !nd.ContinueOnFail {
			// Each judges only its type, which each tests first.
			if nd.Type == n8nschema.TypeAgent {
				g.sessionEdges(i)
			} else if n8nschema.IsCode(nd.Type) {
				g.markFieldThrows(i)
			}
		}
		r, refused := g.refused(i)
		if refused && r.NoItems && !nd.AlwaysOutputData {
			// alwaysOutputData turns no items into one empty item
			// (workflow-execute.js ensureAlwaysOutputData).
			mark(&g.empty, i)
			continue
		}
		// The gate facts (gateThrows, webhookGateFalse, errorGateFalse)
		// judge an If or a Filter only: the type is tested once here.
		gate := nd.Type == n8nschema.TypeIf || nd.Type == n8nschema.TypeFilter
		if nd.OnError == "continueRegularOutput" || nd.ContinueOnFail && nd.OnError != "continueErrorOutput" {
			if !gate {
				continue
			}
			if _, ok := gateThrows(nd); ok && nd.ContinuesOnFail() {
				mark(&g.neverTrue, i)
			}
			continue
		}
		if !gate {
			if refused && r.Fails || first {
				mark(&g.fails, i)
			}
			continue
		}
		if hooks && g.webhookGateFalse(i) {
			mark(&g.neverTrue, i) // no Webhook item passes: its true output stays empty
		} else if g.errorGateFalse(i) {
			mark(&g.neverTrue, i) // no item carries an error: its true output stays empty
		}
		if refused && r.Fails || first {
			mark(&g.fails, i)
		} else if _, ok := gateThrows(nd); ok {
			if nd.ContinuesOnFail() {
				mark(&g.neverTrue, i) // continueErrorOutput: the node keeps the item
			} else {
				mark(&g.fails, i)
			}
		}
	}
	for i, refused := range refusedTrig {
		if refused && (g.fails == nil || !g.fails[i]) {
			mark(&g.fails, i)
			mark(&g.setupOnly, i)
		}
	}
	g.staticGates(mark)
}

// refusedStarts marks the enabled triggers whose every run n8n refuses
// before any node runs: before an execution starts, n8n checks its start
// node and every node after it along main connections (at any depth,
// through disabled nodes, whatever output), and throws
// WorkflowHasIssuesError when one misses a required parameter
// (n8n-core/dist/execution-engine/workflow-execute.js
// checkForWorkflowIssues, checkReadyForExecution;
// n8nschema.MissingRequired). One walk back from those nodes finds them;
// a trigger takes the nearest such node (the first in file order among
// the nearest).
func (g *Graph) refusedStarts(mark func(*[]bool, int)) {
	var queue []int
	from := map[int]int{} // node → the node missing a parameter it reaches
	missing := map[int]string{}
	missingParam := n8nschema.MissingRequired
	if g.Workflow.ParametersLost {
		missingParam = n8nschema.MissingRequiredAlways // what shows the others was lost
	}
	for i, nd := range g.Nodes {
		if !g.types[i].requires {
			continue // its type requires nothing (n8nschema.RequiresParams)
		}
		if p, ok := missingParam(nd); ok {
			missing[i] = p
			from[i] = i
			queue = append(queue, i)
		}
	}
	if len(queue) == 0 {
		return
	}
	g.publishBlank = g.firstPublishBlank(queue)
	var unrunTo map[*n8nschema.Node][]*n8nschema.Node // connections at outputs a node lacks still count
	for _, e := range g.Unrun {
		if unrunTo == nil {
			unrunTo = map[*n8nschema.Node][]*n8nschema.Node{}
		}
		unrunTo[e.To] = append(unrunTo[e.To], e.From)
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		visit := func(j int, ok bool) {
			if _, seen := from[j]; ok && !seen {
				from[j] = from[i]
				queue = append(queue, j)
			}
		}
		for _, e := range g.ins(i) {
			if e.Type == ConnMain {
				visit(int(e.from), true)
			}
		}
		for _, f := range unrunTo[g.Nodes[i]] {
			visit(g.index(f))
		}
	}
	for i, nd := range g.Nodes {
		src, ok := from[i]
		if !ok || nd.Disabled || g.specs[i].Role != n8nschema.RoleTrigger {
			continue
		}
		if g.issueWhy == nil {
			g.issueWhy = map[int32]string{}
		}
		m := g.Nodes[src]
		if g.issueAt == nil {
			g.issueAt = map[int32]issue{}
		}
		g.issueAt[int32(i)] = issue{m, missing[src]}
		if src != i {
			if g.issueNamed == nil {
				g.issueNamed = map[int32]string{}
			}
			g.issueNamed[int32(src)] = missing[src]
		}
		g.issueWhy[int32(i)] = fmt.Sprintf("node %q misses its required parameter %q, so n8n refuses every run before any node runs", m.Name, missing[src])
		mark(&g.fails, i)
	}
}

// firstPublishBlank returns, of the nodes that miss a required parameter
// (in file order), the first that n8n's publish check reads: enabled, and
// connected or a trigger (validateNodeConfiguration), and missing it in
// the stored parameters that check reads (n8nschema.PublishMissing: an
// absent multiOptions is refused at run, not at publish). While it is
// blank n8n refuses to publish the workflow, so no trigger fires but in
// the editor, whichever trigger reaches the node.
func (g *Graph) firstPublishBlank(blank []int) *issue {
	var unrun map[*n8nschema.Node]bool // the ends of connections no walk follows (Unrun): connected all the same
	for _, i := range blank {
		nd := g.Nodes[i]
		if nd.Disabled {
			continue
		}
		if unrun == nil {
			unrun = map[*n8nschema.Node]bool{}
			for _, e := range g.Unrun {
				unrun[e.From], unrun[e.To] = true, true
			}
		}
		if g.specs[i].Role == n8nschema.RoleTrigger || len(g.In(nd)) > 0 || len(g.Out(nd)) > 0 || unrun[nd] {
			if p, ok := n8nschema.PublishMissing(nd, g.Workflow.ParametersLost); ok {
				return &issue{nd, p}
			}
		}
	}
	return nil
}

// runFails reports a node that fails on every item once its workflow is
// published: fails, less the triggers in it for a blank n8n names when it
// refuses to publish (setupOnly).
func (g *Graph) runFails(i int) bool {
	return g.fails != nil && g.fails[i] && (g.setupOnly == nil || !g.setupOnly[i])
}

// SetupBlank reports a workflow whose every enabled trigger n8n refuses
// for a blank it names (setupOnly), or, unless the export shows it
// published (RunStateOf), that n8n refuses to publish for a blank
// (publishBlank, the second result): no run starts but in the editor until
// the owner fills it in, and what the other rules read of the runs holds
// from then on. It returns the node and the parameter of one such blank.
func (g *Graph) SetupBlank() (node, param string, publish, ok bool) {
	every := true
	for _, t := range g.triggers {
		if t.Disabled {
			continue
		}
		i, in := g.index(t)
		if !in || g.setupOnly == nil || !g.setupOnly[i] {
			every, ok = false, false
			break
		}
		if is, found := g.issueAt[int32(i)]; found && !ok {
			node, param, ok = is.node.Name, is.param, true
		}
	}
	if every && ok {
		return node, param, false, true
	}
	if b := g.publishBlank; b != nil && RunStateOf(g.Workflow) != RunShown && g.firesPublished() {
		return b.node.Name, b.param, true, true
	}
	return "", "", false, false
}

// PublishRefused reports a workflow n8n's publish check refuses for a
// blank required parameter (publishBlank), whatever the export's state.
// Runs can be refused without it: the check reads the stored parameters,
// where an absent multiOptions n8n fills in as [] before a run is not
// missing (n8nschema.PublishMissing).
func (g *Graph) PublishRefused() bool {
	return g.publishBlank != nil
}

// firesPublished reports an enabled trigger that fires only once the
// workflow is published: one no person fires in the editor (ByHand).
func (g *Graph) firesPublished() bool {
	for _, t := range g.triggers {
		if !t.Disabled && !ByHand(t) {
			return true
		}
	}
	return false
}

// issue is a node that misses a required parameter, and the parameter.
type issue struct {
	node  *n8nschema.Node
	param string
}

// refusal is what n8nschema.RefusedCall says of a node.
type refusal struct {
	n8nschema.Refusal
	ok bool
}

// refused is n8nschema.RefusedCall(g.Nodes[i]), decided once by failing.
func (g *Graph) refused(i int) (n8nschema.Refusal, bool) {
	if g.refusals == nil {
		return n8nschema.Refusal{}, false
	}
	return g.refusals[i].Refusal, g.refusals[i].ok
}

// keepRefusal keeps r as node i's refusal when it is one; the list is
// made at the first. A refusal not ok is the zero Refusal (RefusedCallBy
// returns none other), which refused answers for a node with no entry:
// readers that read Why without ok read "" either way.
func (g *Graph) keepRefusal(i int, r refusal) {
	if r.ok {
		if g.refusals == nil {
			g.refusals = make([]refusal, len(g.Nodes))
		}
		g.refusals[i] = r
	}
}

// indexNodes fills slot (or, when two nodes share an Index, idx) so that
// index finds a node's place in Nodes.
func (g *Graph) indexNodes(slot []int32) {
	g.slot = slot
	for i := range g.slot {
		g.slot[i] = -1
	}
	for i, n := range g.Nodes {
		if n.Index < 0 || g.slot[n.Index] >= 0 {
			g.slot = nil
			g.idx = make(map[*n8nschema.Node]int, len(g.Nodes))
			for i, n := range g.Nodes {
				g.idx[n] = i
			}
			return
		}
		g.slot[n.Index] = int32(i)
	}
}

// index returns the place of n in Nodes; false when n is not a node of
// the graph (nil, a sticky note, another workflow's node).
func (g *Graph) index(n *n8nschema.Node) (int, bool) {
	if n == nil {
		return -1, false
	}
	if g.idx != nil {
		i, ok := g.idx[n]
		return i, ok
	}
	if k := n.Index; k >= 0 && k < len(g.slot) {
		if i := g.slot[k]; i >= 0 && g.Nodes[i] == n {
			return int(i), true
		}
	}
	return -1, false
}

// at is the place in Nodes of a node of the graph (0 for another, as
// the zero value of a map).
func (g *Graph) at(n *n8nschema.Node) int {
	if i, ok := g.index(n); ok {
		return i
	}
	return 0
}

// specCache holds the catalog entry of every node type met, its strings
// interned, so that graphs and the operations of released sets point at
// one copy per type: a Spec is some 160 bytes, and Lookup reads a large
// map. Beside it, whether n8n's packages ship the type (Unshipped), which
// buildGraph asks of every node.
var (
	specCache  sync.Map // node type → *typeFacts
	specCached atomic.Int32
)

// typeFacts is what a node's type alone decides: its catalog entry, and
// n8nschema.Unshipped.
type typeFacts struct {
	spec      n8nschema.Spec
	unshipped bool
	requires  bool                    // n8nschema.RequiresParams
	refusal   n8nschema.RefusalChecks // n8nschema.RefusalChecksOf
	fails     uint32                  // the failChecks that may judge the type (failPlan)
	versions  []float64               // n8nschema.TypeVersions
	versioned bool
}

// maxCachedSpecs bounds specCache: past it (a set of made-up node types)
// each graph has copies of its own.
const maxCachedSpecs = 4096

// specSnap is a copy of specCache as a plain map, which reads faster
// than sync.Map; it is made again once the look-ups it misses outnumber
// half its entries, so that copying stays linear in the types met.
var (
	specSnap   atomic.Pointer[map[string]*typeFacts]
	specMisses atomic.Int32
	specSnapMu sync.Mutex
)

// specOf returns the catalog entry of a node type (n8nschema.Lookup).
func specOf(typ string) *n8nschema.Spec {
	return &factsOf(typ).spec
}

// factsOf returns the facts of a node type, read once per type.
func factsOf(typ string) *typeFacts {
	m := specSnap.Load()
	if m != nil {
		if p := (*m)[typ]; p != nil {
			return p
		}
	}
	if misses := specMisses.Add(1); m == nil || int(misses) > len(*m)/2+8 {
		defer snapSpecs()
	}
	if p, ok := specCache.Load(typ); ok {
		return p.(*typeFacts)
	}
	f := &typeFacts{spec: n8nschema.Lookup(typ), unshipped: n8nschema.Unshipped(typ), refusal: n8nschema.RefusalChecksOf(typ), requires: n8nschema.RequiresParams(typ), fails: failPlan(typ)}
	f.versions, f.versioned = n8nschema.TypeVersions(typ)
	if specCached.Load() >= maxCachedSpecs {
		return f
	}
	f.spec.Type, f.spec.Provider = strings.Clone(f.spec.Type), strings.Clone(f.spec.Provider)
	p, loaded := specCache.LoadOrStore(strings.Clone(typ), f)
	if !loaded {
		specCached.Add(1)
	}
	return p.(*typeFacts)
}

// snapSpecs copies specCache into a new specSnap.
func snapSpecs() {
	specSnapMu.Lock()
	defer specSnapMu.Unlock()
	m := make(map[string]*typeFacts, specCached.Load())
	specCache.Range(func(k, v any) bool {
		m[k.(string)] = v.(*typeFacts)
		return true
	})
	specSnap.Store(&m)
	specMisses.Store(0)
}

// outCount is a node's count of normal main outputs, and whether it is known.
type outCount struct {
	n           int
	known, read bool
	shadowed    []bool // by output: a Switch rule an earlier one shadows (shadowedRules)
}

// mainOutputs is the number of normal main outputs of a node, so that the
// error output of continueErrorOutput can be told apart: it is the next
// index (docs/n8n-behaviour.md#connections). When declaredOutputs cannot
// tell, it is 1, the count of most nodes.
func mainOutputs(n *n8nschema.Node) int {
	k, ok := declaredOutputs(n)
	if !ok {
		return 1
	}
	return k
}

// mainInputs is the number of main inputs n8n gives a node, and whether
// stormcheck can tell: 2 for Compare Datasets and Merge v1-v2, Merge v3's
// numberInputs (2 when absent, n8n-nodes-base Merge/v3/helpers/utils.js
// configuredInputs), 1 for every other node n8n-nodes-base ships but the
// triggers (their inputs are []) and Evaluation (an expression). Other
// packages' nodes are not told. A connection into a higher index is
// stored, but the node never gets its items: n8n makes it wait for input
// 0, which no connection fills; under the legacy order it is then
// skipped, under v1 it runs on an empty input 0 and returns nothing
// (docs/n8n-facts.md#an-input-index-the-node-does-not-have). sp is the
// node's catalog entry.
func mainInputs(n *n8nschema.Node, sp *n8nschema.Spec) (int, bool) {
	switch n.Type {
	case "n8n-nodes-base.compareDatasets":
		return 2, true
	case "n8n-nodes-base.merge":
		if n.TypeVersion < 3 {
			return 2, true
		}
		v := n.Params().Get("numberInputs")
		if !v.Exists() {
			return 2, true
		}
		if f, ok := v.Num(); ok && f >= 1 && f <= 10 && f == float64(int(f)) {
			return int(f), true
		}
		return 0, false
	case "n8n-nodes-base.evaluation", "n8n-nodes-base.stickyNote":
		return 0, false
	}
	if !strings.HasPrefix(n.Type, "n8n-nodes-base.") {
		return 0, false
	}
	if !sp.Known || sp.Role == n8nschema.RoleTrigger {
		return 0, false
	}
	return 1, true
}

// perItemCall reports a node that calls a service once per input item
// (an app or HTTP Request node, a model): under executionOrder v1, n8n
// runs a node whose only items wait at an input it does not have on an
// empty input 0, and such a node then calls nothing and returns nothing.
// A node that runs once for all its input may act on none (a Code node
// throws "No execution data available", a Function node runs its code,
// Execute Workflow may start the sub-workflow): stormcheck keeps those
// connections as drawn under v1. sp is the node's catalog entry.
func perItemCall(n *n8nschema.Node, sp *n8nschema.Spec) bool {
	if n.Type == n8nschema.TypeExecuteWorkflow {
		return false
	}
	r := sp.Role
	return r == n8nschema.RoleExternal || r == n8nschema.RoleModel
}

// declaredOutputs is the number of normal main outputs n8n gives a node
// (n8n-workflow node-helpers.js getNodeOutputs), and whether stormcheck
// can tell. The generated table gives it when the description fixes it
// (If 2, Loop Over Items v2+ 2 and v1 1, Compare Datasets 4, Switch v1 4,
// 0 for sub-nodes and Stop and Error); the nodes whose outputs are an
// expression over their parameters are computed here as n8n's expression
// does. It cannot tell for a type n8n does not describe, for an outputs
// expression not computed here (vector stores, Evaluation, AI Code),
// or when the parameter the count comes from is itself an expression,
// which the node resolves per item when it runs.
func declaredOutputs(n *n8nschema.Node) (int, bool) {
	switch n.Type {
	case n8nschema.TypeSwitch:
		return switchOutputs(n)
	case n8nschema.TypeTextClassifier:
		// One per category, and one more for the "other" fallback
		// (chains/TextClassifier/TextClassifier.node.js configuredOutputs).
		c, _ := n.Param("categories.categories")
		fb, _ := n.Param("options.fallback")
		if c.IsExpr() || fb.IsExpr() {
			return 1, false
		}
		k := c.Len()
		if fb.Str() == "other" {
			k++
		}
		return max(k, 1), true
	case n8nschema.TypeSentimentAnalysis:
		// One per comma-separated category, "Positive, Neutral, Negative"
		// by default (chains/SentimentAnalysis/SentimentAnalysis.node.js
		// configuredOutputs).
		c, ok := n.Param("options.categories")
		if c.IsExpr() {
			return 3, false
		}
		if !ok || c.Kind() != n8nschema.String {
			return 3, true
		}
		return strings.Count(c.Str(), ",") + 1, true
	case n8nschema.TypeGuardrails:
		// Pass and Fail for "classify", the default; one for "sanitize"
		// (Guardrails/v1/GuardrailsV1.node.js, v2/GuardrailsV2.node.js
		// outputs; operation takes no expression, Guardrails/description.js).
		if op, _ := n.Param("operation"); op.Str() != "" && op.Str() != "classify" {
			return 1, true
		}
		return 2, true
	case n8nschema.TypeWebhook:
		// One output per method when several are allowed
		// (Webhook.node.ts outputs: httpMethod.map(...)). With
		// multipleMethods and no httpMethod stored, n8n fills in the
		// list's default, GET and POST: two outputs (Webhook.node.ts
		// properties; the Workflow constructor resolves defaults).
		m, ok := n.Param("httpMethod")
		if m.IsExpr() {
			return 1, false
		}
		if m.Kind() == n8nschema.Array {
			return max(m.Len(), 1), true
		}
		if !ok && n.Params().Get("multipleMethods").True() {
			return 2, true
		}
		return 1, true
	case n8nschema.TypeRespondToWebhook:
		// v1.3, and v1.4+ with enableResponseOutput, add a Response
		// output (RespondToWebhook/utils/outputs.js configuredOutputs,
		// given $nodeVersion: the stored typeVersion, undefined when the
		// export has none, which adds nothing).
		r := n.Params().Get("enableResponseOutput")
		if r.IsExpr() {
			return 1, false
		}
		if v := n.TypeVersion; n.TypeVersionSet && (v == 1.3 || v >= 1.4 && r.True()) {
			return 2, true
		}
		return 1, true
	}
	if d, ok := n.Describe(); ok && d.Outputs() >= 0 {
		return d.Outputs(), true
	}
	return 1, false
}

// switchOutputs: v1 has 4 outputs; v2 one per rule (rules.rules) or
// outputsAmount (default 4) in expression mode; v3 one per rule
// (rules.values) plus the fallback output when options.fallbackOutput is
// "extra", or numberOutputs (default 4) in expression mode
// (Switch/V2/SwitchV2.node.js, Switch/V3/SwitchV3.node.js outputs). False
// when the count comes from an expression.
func switchOutputs(n *n8nschema.Node) (int, bool) {
	v := n.TypeVersion
	if v > 0 && v < 2 {
		return 4, true
	}
	rulesPath, amount := "rules.values", "numberOutputs"
	if v > 0 && v < 3 {
		rulesPath, amount = "rules.rules", "outputsAmount"
	}
	if m, _ := n.Param("mode"); m.Str() == "expression" {
		if x, ok := n.Param(amount); ok {
			if x.IsExpr() {
				return 4, false
			}
			if f, ok := x.Num(); ok && f >= 1 {
				return int(min(f, 1000)), true
			}
		}
		return 4, true
	}
	rules, _ := n.Param(rulesPath)
	fb, _ := n.Param("options.fallbackOutput")
	if rules.IsExpr() || fb.IsExpr() {
		return 1, false
	}
	k := rules.Len()
	if rulesPath == "rules.values" && fb.Str() == "extra" {
		k++
	}
	return max(k, 1), true
}

// Node returns the node of that name, or nil.
func (g *Graph) Node(name string) *n8nschema.Node {
	n := g.Workflow.Node(name)
	if _, ok := g.index(n); !ok {
		return nil
	}
	return n
}

// Has reports whether n is a node of this graph.
func (g *Graph) Has(n *n8nschema.Node) bool {
	_, ok := g.index(n)
	return ok
}

// Spec returns the catalog entry of a node.
func (g *Graph) Spec(n *n8nschema.Node) n8nschema.Spec {
	if i, ok := g.index(n); ok {
		return *g.specs[i]
	}
	return n8nschema.Lookup(n.Type)
}

// spec is Spec without the copy.
func (g *Graph) spec(n *n8nschema.Node) *n8nschema.Spec {
	if i, ok := g.index(n); ok {
		return g.specs[i]
	}
	return specOf(n.Type)
}

// outs and ins are the edges leaving and entering node i (nil for none).
func (g *Graph) outs(i int) []*Edge {
	a, b := g.off[i], g.off[i+1]
	if a == b {
		return nil
	}
	return g.lists[a:b:b]
}

func (g *Graph) ins(i int) []*Edge {
	n := len(g.Nodes)
	a, b := g.off[n+i], g.off[n+i+1]
	if a == b {
		return nil
	}
	return g.lists[a:b:b]
}

// Out returns the edges leaving n, in connections order.
func (g *Graph) Out(n *n8nschema.Node) []*Edge {
	if i, ok := g.index(n); ok {
		return g.outs(i)
	}
	return nil
}

// In returns the edges entering n, in connections order.
func (g *Graph) In(n *n8nschema.Node) []*Edge {
	if i, ok := g.index(n); ok {
		return g.ins(i)
	}
	return nil
}

// OutOfType returns the edges of one connection type leaving n.
func (g *Graph) OutOfType(n *n8nschema.Node, typ string) []*Edge {
	return filterEdges(g.Out(n), func(e *Edge) bool { return e.Type == typ })
}

// InOfType returns the edges of one connection type entering n.
func (g *Graph) InOfType(n *n8nschema.Node, typ string) []*Edge {
	return filterEdges(g.In(n), func(e *Edge) bool { return e.Type == typ })
}

// ErrorOutputs returns the edges leaving n's error output.
func (g *Graph) ErrorOutputs(n *n8nschema.Node) []*Edge {
	return filterEdges(g.Out(n), func(e *Edge) bool { return e.Error })
}

func filterEdges(es []*Edge, keep func(*Edge) bool) []*Edge {
	var out []*Edge
	for _, e := range es {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}

// IsSubNode reports whether n is an AI sub-node: it feeds a root through a
// connection other than main.
func (g *Graph) IsSubNode(n *n8nschema.Node) bool {
	i, ok := g.index(n)
	return ok && g.sub[i]
}

// Roots returns the nodes an AI sub-node feeds (usually one agent or
// chain; an output parser or vector store may sit in between, and then it
// is returned, not the root above it).
func (g *Graph) Roots(n *n8nschema.Node) []*n8nschema.Node {
	var out []*n8nschema.Node
	for _, e := range g.Out(n) {
		if e.Type != ConnMain && !slices.Contains(out, e.To) {
			out = append(out, e.To)
		}
	}
	return out
}

// Root returns the first node an AI sub-node feeds, or nil.
func (g *Graph) Root(n *n8nschema.Node) *n8nschema.Node {
	for _, e := range g.Out(n) {
		if e.Type != ConnMain {
			return e.To
		}
	}
	return nil
}

// SubNodes returns the sub-nodes attached to a root through connections
// of type typ ("" for every AI type), in connections order.
func (g *Graph) SubNodes(root *n8nschema.Node, typ string) []*n8nschema.Node {
	var out []*n8nschema.Node
	for _, e := range g.In(root) {
		if e.Type != ConnMain && (typ == "" || e.Type == typ) && !slices.Contains(out, e.From) {
			out = append(out, e.From)
		}
	}
	return out
}

// Triggers returns the nodes that start executions, in file order. The
// list is the graph's own: callers must not change it.
func (g *Graph) Triggers() []*n8nschema.Node {
	return g.triggers[:len(g.triggers):len(g.triggers)]
}

// Reachable reports whether n can run: it is reachable along main
// connections from a trigger (from any node without main inputs when the
// workflow has no trigger), or it is a sub-node of a reachable root.
func (g *Graph) Reachable(n *n8nschema.Node) bool {
	i, ok := g.index(n)
	return ok && g.reach[i]
}

// OnErrorPath reports whether n runs only after something failed: it is
// reached from an Error Trigger or an error output, and not from a trigger
// without passing one. Sub-nodes follow their roots.
func (g *Graph) OnErrorPath(n *n8nschema.Node) bool {
	i, ok := g.index(n)
	return ok && g.errPath[i]
}

// FromErrorTrigger reports whether n runs in an error workflow: it is
// reachable from an Error Trigger (sub-nodes follow their roots).
func (g *Graph) FromErrorTrigger(n *n8nschema.Node) bool {
	i, ok := g.index(n)
	return ok && g.errTrig[i]
}

// InCycle reports whether n lies on a cycle of main connections, bounded
// or not.
func (g *Graph) InCycle(n *n8nschema.Node) bool {
	i, ok := g.index(n)
	return ok && g.cyclic[g.comp[i]]
}

// SameCycle reports whether a and b lie on one cycle of main connections.
func (g *Graph) SameCycle(a, b *n8nschema.Node) bool {
	i, ok := g.index(a)
	j, ok2 := g.index(b)
	return ok && ok2 && g.cyclic[g.comp[i]] && g.comp[i] == g.comp[j]
}

// Cycle returns the nodes of the strongly connected component of main
// connections that holds n, in file order (n alone when it is on no cycle).
func (g *Graph) Cycle(n *n8nschema.Node) []*n8nschema.Node {
	i, ok := g.index(n)
	if !ok {
		return nil
	}
	var out []*n8nschema.Node
	for j, m := range g.Nodes {
		if g.comp[j] == g.comp[i] {
			out = append(out, m)
		}
	}
	return out
}

// OnSelfTrigger reports whether n lies on a cycle of executions that no
// counter bounds (the workflow re-starts itself through n); Amplify sets it.
func (g *Graph) OnSelfTrigger(n *n8nschema.Node) bool {
	i, ok := g.index(n)
	return ok && i < len(g.selfTrig) && g.selfTrig[i]
}

// LoopOf returns the unguarded loop that holds n, or nil.
func (g *Graph) LoopOf(n *n8nschema.Node) *Loop {
	if i, ok := g.index(n); ok {
		if g.loopOf != nil {
			return g.loopOf[i]
		}
	}
	return nil
}

// Entered reports whether a run enters loop l: a trigger's run reaches a
// node of it (Reachable). A cycle that nothing a trigger starts leads to
// (its feeder has no outgoing connection, it hangs off a dead output or
// sits behind a node that fails on every run) never goes round.
func (g *Graph) Entered(l *Loop) bool {
	return slices.ContainsFunc(l.Nodes, g.Reachable)
}

func (g *Graph) reachability(sc *scratch) {
	n := len(g.Nodes)
	normal, errReach := sc.bools.zeroed(n), sc.bools.zeroed(n)
	nTrig, nErrTrig := 0, 0
	for i, nd := range g.Nodes {
		if g.specs[i].Role == n8nschema.RoleTrigger {
			nTrig++
			if nd.Type == n8nschema.TypeErrorTrigger {
				nErrTrig++
			}
		}
	}
	starts := sc.i32.take(max(nTrig, n))[:0]
	errStarts := sc.i32.take(nErrTrig + len(g.Edges))[:0]
	if len(g.Unloadable) > 0 {
		return // n8n cannot build it: nothing starts a run
	}
	if nTrig > 0 {
		g.triggers = make([]*n8nschema.Node, 0, nTrig)
	}
	for i, nd := range g.Nodes {
		if g.specs[i].Role != n8nschema.RoleTrigger {
			continue
		}
		g.triggers = append(g.triggers, nd)
		if nd.Type == n8nschema.TypeErrorTrigger && !nd.Disabled {
			errStarts = append(errStarts, int32(i))
		}
	}
	// The enabled Error Triggers only: a disabled one starts nothing, and
	// errStarts[:nErrTrig] must not reach past them (into the error
	// outputs' targets appended below, or the scratch's stale values).
	nErrTrig = len(errStarts)
	starts = g.starts(starts)
	queue := sc.i32.take(n + len(starts))[:0]
	g.bfs(starts, g.reach, queue, func(e *Edge) bool { return !g.dead(e) })
	normStarts := starts
	if len(errStarts) > 0 {
		normStarts = sc.i32.take(len(starts))[:0]
		for _, s := range starts {
			if !slices.Contains(errStarts, s) {
				normStarts = append(normStarts, s)
			}
		}
	}
	g.bfs(normStarts, normal, queue, func(e *Edge) bool { return !e.Error && !g.dead(e) })
	for _, e := range g.Edges {
		if e.Error && !g.dead(e) {
			errStarts = append(errStarts, e.to)
		}
	}
	g.bfs(errStarts[:nErrTrig], g.errTrig, queue, func(e *Edge) bool { return !g.dead(e) })
	g.bfs(errStarts, errReach, queue, func(e *Edge) bool { return !g.dead(e) })
	subNodes := false
	for i := range g.Nodes {
		g.errPath[i] = errReach[i] && !normal[i]
		subNodes = subNodes || g.sub[i]
	}
	if !subNodes {
		return // every node keeps the walks' flags (rootFlags)
	}
	// Sub-nodes follow their roots, up through nested roots, reading the
	// flags the walks gave. Each (node, level) is worked out once: sub-nodes
	// wired to each other (a 46 KB mesh of 30 tools) made the plain
	// recursion fan-out^8 and hang the run.
	saved := sc.bools.take(3 * n)
	copy(saved[:n], g.reach)
	copy(saved[n:2*n], g.errPath)
	copy(saved[2*n:], g.errTrig)
	base := rootBase{saved[:n], saved[n : 2*n], saved[2*n:]}
	memo := sc.memo.zeroed(n)
	for i, nd := range g.Nodes {
		g.reach[i], g.errPath[i], g.errTrig[i] = g.rootFlags(nd, i, 0, &base, memo)
	}
}

// hasInOfType reports whether an edge of type typ enters node i.
func (g *Graph) hasInOfType(i int, typ string) bool {
	for _, e := range g.ins(i) {
		if e.Type == typ {
			return true
		}
	}
	return false
}

// maxRootLevel bounds how far up nested roots a sub-node looks (roots can
// form cycles).
const maxRootLevel = 8

// rootBase holds the walks' flags while sub-nodes take theirs from roots.
type rootBase struct{ reach, errPath, errTrig []bool }

type rootMemo struct{ done, reach, errp, errTrig bool }

// rootFlags gives a node its reachability and error-path flags, taken
// from its roots when it is a sub-node.
func (g *Graph) rootFlags(nd *n8nschema.Node, i, depth int, base *rootBase, memo [][maxRootLevel + 1]rootMemo) (reach, errp, errTrig bool) {
	if !g.sub[i] || depth > maxRootLevel {
		return base.reach[i], base.errPath[i], base.errTrig[i]
	}
	if m := memo[i][depth]; m.done {
		return m.reach, m.errp, m.errTrig
	}
	errp = true
	for _, e := range g.outs(i) {
		if e.Type == ConnMain {
			continue
		}
		if g.noCall != nil && g.noCall[e.to] {
			continue // it fails before it calls its sub-nodes
		}
		// The roots (Roots, a root twice as often as it is wired: the
		// flags come out the same, and the second look is memoized).
		rr, re, rt := g.rootFlags(e.To, int(e.to), depth+1, base, memo)
		reach, errp, errTrig = reach || rr, errp && re, errTrig || rt
	}
	memo[i][depth] = rootMemo{true, reach, errp, errTrig}
	return reach, errp, errTrig
}

// bfs marks in seen what starts reach along main edges that follow
// accepts; queue is room for the walk.
func (g *Graph) bfs(starts []int32, seen []bool, queue []int32, follow func(*Edge) bool) {
	queue = append(queue[:0], starts...)
	for _, s := range starts {
		seen[s] = true
	}
	for h := 0; h < len(queue); h++ {
		for _, e := range g.outs(int(queue[h])) {
			if e.Type != ConnMain || !follow(e) {
				continue
			}
			if v := e.to; !seen[v] {
				seen[v] = true
				queue = append(queue, v)
			}
		}
	}
}

// cycles finds the strongly connected components of main connections and,
// within them, the loops no guard bounds; what bounds a loop is decided in
// loop_bounds.go (boundedExits, bound).
func (g *Graph) cycles(sc *scratch) {
	n := len(g.Nodes)
	behind := g.behindDeadDone(sc)
	adj := g.adjacency(false, sc)
	for u := range g.Nodes {
		if behind != nil && behind[u] {
			continue // it never runs: a cycle through it is no loop
		}
		for _, e := range g.outs(u) {
			if e.Type == ConnMain && !g.dead(e) {
				adj[u] = append(adj[u], e.to)
			}
		}
	}
	g.comp, g.cyclic = scc(adj, sc, g.comp, g.cyclic[:0])
	if !slices.Contains(g.cyclic, true) {
		// The loops are cycles of a part of adj: there are none (most
		// workflows).
		g.toolCycles(sc)
		return
	}
	radj := g.adjacency(false, sc)
	for u := range g.Nodes {
		// An edge out of a node on no cycle lies on no loop whatever it
		// bounds, so the guard tests (regexes over the parameters) are
		// skipped for it; the loops found are the same.
		if behind != nil && behind[u] {
			continue
		}
		all, out := false, -1
		if g.cyclic[g.comp[u]] {
			all, out = g.boundedExits(u)
		}
		for _, e := range g.outs(u) {
			if e.Type != ConnMain || g.dead(e) || all || e.Output == out {
				continue // no edge, or a bounded passage
			}
			radj[u] = append(radj[u], e.to)
		}
	}
	g.facts, g.compNodes = nil, nil // only the guard tests above read them
	rcomp, rcyc := sc.scc(radj)
	rnc := len(rcyc)
	var loops []*Loop // by component, made for the first loop: most graphs have none
	for i, nd := range g.Nodes {
		c := rcomp[i]
		if !rcyc[c] {
			continue
		}
		if loops == nil {
			loops, g.loopOf = make([]*Loop, rnc), make([]*Loop, n)
		}
		l := loops[c]
		if l == nil {
			l = &Loop{}
			loops[c] = l
			g.Loops = append(g.Loops, l)
		}
		l.Nodes = append(l.Nodes, nd)
		g.loopOf[i] = l
		if !nd.Disabled && g.callsOut(i) {
			l.Calls = append(l.Calls, nd)
		}
		if nd.Type == n8nschema.TypeSplitInBatches && l.DoneBack == nil && g.leavesByDone(i, rcomp) {
			// Its loop output is cut, so the cycle leaves through done,
			// unless only its error output (after done and loop) goes
			// round: then it is a loop like any other's error output.
			l.DoneBack = nd
		}
	}
	for _, l := range g.Loops {
		l.Head, l.Back = g.loopEnds(l, rcomp)
		g.bound(l)
	}
	g.toolCycles(sc)
}

// leavesByDone reports whether a main edge at a regular output of Loop
// Over Items u other than its loop output (so done, not the error output)
// stays in u's component of rcomp.
func (g *Graph) leavesByDone(u int, rcomp []int32) bool {
	loop := sibLoopOutput(g.Nodes[u])
	for _, e := range g.outs(u) {
		if e.Type == ConnMain && !e.Error && e.Output != loop && !g.dead(e) && rcomp[e.to] == rcomp[u] {
			return true
		}
	}
	return false
}

// Reach is a set of a graph's nodes, what runs from some starts reach:
// node n of the graph is in it when mark[n's place in Nodes] is key. One
// mark slice serves several disjoint sets (GroupByReach's groups), each
// with its own key.
type Reach struct {
	g     *Graph
	mark  []int32
	key   int32
	nodes []*n8nschema.Node // the members, in the order reached
	other []*n8nschema.Node // starts not of the graph: they reach only themselves
}

// Has reports whether n is in r.
func (r Reach) Has(n *n8nschema.Node) bool {
	if r.g == nil {
		return false
	}
	if i, ok := r.g.index(n); ok {
		return r.mark[i] == r.key
	}
	return slices.Contains(r.other, n)
}

// newReach returns an empty Reach of g's nodes.
func (g *Graph) newReach() Reach {
	return Reach{g: g, mark: make([]int32, len(g.Nodes)), key: 1}
}

// add puts n in r; false when it was there.
func (r *Reach) add(n *n8nschema.Node) bool {
	if i, ok := r.g.index(n); ok {
		if r.mark[i] == r.key {
			return false
		}
		r.mark[i] = r.key
	} else if slices.Contains(r.other, n) {
		return false
	} else {
		r.other = append(r.other, n)
	}
	r.nodes = append(r.nodes, n)
	return true
}

// Len is the number of nodes in r.
func (r Reach) Len() int { return len(r.nodes) }

// Nodes returns the nodes in r, in the order reached. The caller must not
// change it.
func (r Reach) Nodes() []*n8nschema.Node { return r.nodes }

// ReachFrom returns the nodes runs started at starts reach, the starts
// included: along main connections, with the sub-nodes of every root
// reached.
func ReachFrom(g *Graph, starts ...*n8nschema.Node) Reach {
	return g.walk(true, starts)
}

// walk returns the nodes reachable from starts along main connections,
// the starts included, and with subNodes the sub-nodes of each.
func (g *Graph) walk(subNodes bool, starts []*n8nschema.Node) Reach {
	return g.walkFrom(subNodes, false, starts)
}

// walkFrom is walk; with live it leaves out the edges that never carry an
// item (dead).
func (g *Graph) walkFrom(subNodes, live bool, starts []*n8nschema.Node) Reach {
	// The queue (the Reach's list) holds each node reached once. Room for
	// 64 covers most workflows' walks; past that it grows with what the
	// walk reaches: made for every node, it cost each walk the graph's
	// size (queues of 422 MB on 30,000 nodes of chained webhooks, where
	// each trigger reaches a few).
	r := g.newReach()
	r.nodes = make([]*n8nschema.Node, 0, min(len(g.Nodes)+len(starts), 64))
	for _, t := range starts {
		r.add(t) // one not the graph's reaches nothing
	}
	seen, queue := r.mark, r.nodes
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		i, ok := g.index(u)
		if !ok {
			continue
		}
		for _, e := range g.outs(i) {
			// An agent that finds no session ID for an edge's items calls
			// nothing for them (noSess), dead or not.
			if e.Type == ConnMain && seen[e.to] == 0 && !(live && g.dead(e)) && !g.failsOnEdge(e) {
				seen[e.to] = 1
				queue = append(queue, e.To)
			}
		}
		if !subNodes || live && g.noCall != nil && g.noCall[i] {
			continue // with live, a node that fails before it calls its sub-nodes
		}
		for _, e := range g.ins(i) {
			if e.Type != ConnMain && seen[e.from] == 0 {
				seen[e.from] = 1
				queue = append(queue, e.From)
			}
		}
	}
	g.walked.Add(int64(len(queue)))
	r.nodes = queue
	return r
}

// firstReach maps each node that runs started at starts reach (ReachFrom)
// to the first of starts that reaches it. A walk stops at a node an
// earlier start reached, since all it reaches that start reaches too: each
// node is walked once, however many starts reach it.
func (g *Graph) firstReach(starts []*n8nschema.Node) map[*n8nschema.Node]*n8nschema.Node {
	first := map[*n8nschema.Node]*n8nschema.Node{}
	var queue []*n8nschema.Node
	for _, t := range starts {
		if first[t] != nil {
			continue
		}
		first[t], queue = t, append(queue[:0], t)
		for h := 0; h < len(queue); h++ {
			u := queue[h]
			for _, e := range g.Out(u) {
				if e.Type == ConnMain && first[e.To] == nil && !g.failsOnEdge(e) {
					first[e.To], queue = t, append(queue, e.To)
				}
			}
			for _, s := range g.SubNodes(u, "") {
				if first[s] == nil {
					first[s], queue = t, append(queue, s)
				}
			}
		}
	}
	return first
}

// toolCycles adds a Recursive loop for every cycle of ai_tool connections
// (an agent tool connected, directly or through other agent tools, as a
// tool of itself).
func (g *Graph) toolCycles(sc *scratch) {
	if !slices.ContainsFunc(g.Edges, func(e *Edge) bool { return e.Type == ConnTool }) {
		return
	}
	adj := g.adjacency(true, sc)
	for _, e := range g.Edges {
		if e.Type == ConnTool {
			adj[e.to] = append(adj[e.to], e.from)
		}
	}
	comp, cyc := sc.scc(adj)
	loops := make([]*Loop, len(cyc))
	for i, nd := range g.Nodes {
		c := comp[i]
		if !cyc[c] || nd.Disabled {
			continue
		}
		l := loops[c]
		if l == nil {
			l = &Loop{Unbounded: true, Recursive: true, Head: nd, Back: nd}
			loops[c] = l
			g.Loops = append(g.Loops, l)
		}
		l.Nodes = append(l.Nodes, nd)
		if g.callsOut(i) {
			l.Calls = append(l.Calls, nd)
		}
		if g.loopOf == nil {
			g.loopOf = make([]*Loop, len(g.Nodes))
		}
		if g.loopOf[i] == nil {
			g.loopOf[i] = l
		}
	}
}

// loopEnds picks the node where a loop is entered and the node whose edge
// returns to it.
func (g *Graph) loopEnds(l *Loop, rcomp []int32) (head, back *n8nschema.Node) {
	c := rcomp[g.at(l.Nodes[0])]
	in := func(n *n8nschema.Node) bool { return rcomp[g.at(n)] == c }
	if l.DoneBack != nil {
		head = l.DoneBack
	}
	for _, nd := range l.Nodes {
		if head != nil {
			break
		}
		for _, e := range g.In(nd) {
			if e.Type == ConnMain && !in(e.From) {
				head = nd
				break
			}
		}
	}
	if head == nil {
		head = l.Nodes[0]
	}
	for _, e := range g.In(head) {
		if e.Type == ConnMain && in(e.From) && !g.bounds(int(e.from), e) {
			return head, e.From
		}
	}
	return head, head
}

// callsOut reports whether a node makes or drives external calls when it
// runs in the main loop.
func (g *Graph) callsOut(i int) bool {
	switch g.specs[i].Role {
	case n8nschema.RoleExternal, n8nschema.RoleModel, n8nschema.RoleAgent, n8nschema.RoleCallWorkflow:
		return true
	}
	return false
}

// sibLoopOutput is the loop output of Loop Over Items: v1 has one output,
// v2 ["loop", "done"], v3 ["done", "loop"] (docs/n8n-behaviour.md#loop-over-items).
func sibLoopOutput(n *n8nschema.Node) int {
	if n.TypeVersion >= 3 {
		return 1
	}
	return 0
}

// scc returns the strongly connected component of every vertex, numbered
// in reverse topological order (a component's successors have lower
// numbers), with Tarjan's algorithm run iteratively so that deep graphs
// cannot overflow the stack; and, per component, whether it holds a
// cycle: more than one vertex, or a vertex with an edge to itself. The
// number of components is len(cyclic).
func (sc *scratch) scc(adj [][]int32) (comp []int32, cyclic []bool) {
	n := len(adj)
	return scc(adj, sc, sc.i32.take(n), sc.bools.take(n)[:0])
}

// scc fills comp (len(adj) long) and cyclic (room for len(adj)), working
// in sc: see (*scratch).scc.
func scc(adj [][]int32, sc *scratch, comp []int32, cyclic []bool) ([]int32, []bool) {
	n := len(adj)
	const unvisited = -1
	// One array: index, low, the stack, then the call stack's frames
	// (vertex, next edge), each at most n deep.
	m := sc.i32.mark()
	defer sc.i32.release(m)
	work := sc.i32.take(5 * n)
	index, low, stack, call := work[:n], work[n:2*n], work[2*n:2*n:3*n], work[3*n:3*n]
	for i := range index {
		index[i], comp[i] = unvisited, -1
	}
	// A visited vertex is on the stack until its component is known.
	var counter int32
	for root := range n {
		if index[root] != unvisited {
			continue
		}
		call = append(call, int32(root), 0)
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, int32(root))
		for len(call) > 0 {
			v, next := call[len(call)-2], &call[len(call)-1]
			if int(*next) < len(adj[v]) {
				w := adj[v][*next]
				*next++
				if index[w] == unvisited {
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					call = append(call, w, 0)
				} else if comp[w] < 0 && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			call = call[:len(call)-2]
			if len(call) > 0 {
				p := call[len(call)-2]
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				c := int32(len(cyclic))
				top := len(stack)
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					comp[w] = c
					if w == v {
						break
					}
				}
				cyclic = append(cyclic, top-len(stack) > 1 || slices.Contains(adj[v], v))
			}
		}
	}
	return comp, cyclic
}

// adjacency returns empty vertex lists with room for each node's out
// edges (in edges when in is true), every list a piece of one array.
func (g *Graph) adjacency(in bool, sc *scratch) [][]int32 {
	n := len(g.Nodes)
	off := g.off[:n+1]
	if in {
		off = g.off[n:]
	}
	adj := sc.adj.take(n)
	buf := sc.i32.take(len(g.Edges))
	for u := range adj {
		a, b := off[u]-off[0], off[u+1]-off[0]
		adj[u] = buf[a:a:b]
	}
	return adj
}

// maxDoneChecks caps the Loop Over Items nodes neverDone examines in one
// workflow: each costs a pass over the graph, and past the cap every done
// output is taken to fire (the analysis stays linear in the workflow).
const maxDoneChecks = 64

// sibNeverErrs reports whether the error output that onError
// continueErrorOutput appends to Loop Over Items (after done and loop:
// n8n-core workflow-execute.js handleNodeErrorOutput) can never carry an
// item. The node's own code throws nothing (SplitInBatchesV3.node.js
// execute only slices its input), so the output fires only when reading
// a parameter expression fails, or for an error item it passes on (one
// whose json holds only error/message/details, handleNodeErrorOutput
// moves it there): one that a node feeding it directly makes when it
// continues on fail through its regular output.
func sibNeverErrs(w *n8nschema.Workflow, n *n8nschema.Node) bool {
	if n.TypeVersion < 2 {
		return false
	}
	expr := false
	n.Params().Scalars(func(v n8nschema.Value) bool {
		expr = v.IsExpr()
		return !expr
	})
	if expr {
		return false
	}
	for i := range w.Connections {
		c := &w.Connections[i]
		if c.To != n.Name || c.FromType != ConnMain {
			continue
		}
		if p := w.Node(c.From); p != nil && !p.Disabled && p.ContinuesOnFail() && p.OnError != "continueErrorOutput" {
			return false
		}
	}
	return true
}

// sibDoneOutput is the done output of Loop Over Items v2 and later (v2
// ["loop", "done"], v3 ["done", "loop"]), or -1 for v1, which has none.
func sibDoneOutput(n *n8nschema.Node) int {
	if n.Type != n8nschema.TypeSplitInBatches || n.TypeVersion < 2 {
		return -1
	}
	return 1 - sibLoopOutput(n)
}

// neverDone marks the Loop Over Items nodes whose done output can never
// fire. The node sends its first batch on the loop output and answers on
// done only when it runs again (SplitInBatchesV3.node.ts execute: the
// first run returns [[], batch]); it runs again only when its loop output
// leads back to its input, or when a cycle upstream feeds it again. When
// neither holds (the loop output is unwired, or the two outputs are
// swapped so that done leads into the body), the nodes after done never
// run, and a cycle through done is no loop.
//
// A cycle feeds the node only when a run can enter it: one reached only
// through the node's own done output, or through a done output already
// found dead, never runs (an inner loop that hangs off an outer node's
// unwired loop output). Each dead done output can silence others, so the
// nodes are examined again until nothing changes; marks only grow, so
// stopping early (the cap) leaves fewer dead outputs, never a wrong one.
func (g *Graph) neverDone(sc *scratch) {
	g.deadDone = nil // made for the first Loop Over Items: most graphs have none
	var sibs []int
	for b, nd := range g.Nodes {
		if sibDoneOutput(nd) >= 0 && !nd.Disabled {
			if len(sibs) == maxDoneChecks {
				break // past the cap every done output is taken to fire
			}
			sibs = append(sibs, b)
		}
	}
	if len(sibs) == 0 {
		return
	}
	n := len(g.Nodes)
	g.deadDone = make([]bool, n)
	adj, radj := g.adjacency(false, sc), g.adjacency(true, sc)
	seen, reach := sc.bools.take(n), sc.bools.take(n)
	queue, comp, cyclic := sc.i32.take(n)[:0], sc.i32.take(n), sc.bools.take(n)
	starts := g.starts(sc.i32.take(n)[:0])
	budget := 2 * maxDoneChecks // examinations after the first round
	for changed, first := true, true; changed; first = false {
		changed = false
		for _, b := range sibs {
			if g.deadDone[b] {
				continue
			}
			if !first {
				if budget--; budget < 0 {
					return
				}
			}
			done := sibDoneOutput(g.Nodes[b])
			// The graph without b's done edges and without the edges
			// already found dead.
			for u := range g.Nodes {
				adj[u], radj[u] = adj[u][:0], radj[u][:0]
			}
			for u := range g.Nodes {
				for _, e := range g.outs(u) {
					if e.Type != ConnMain || (u == b && !e.Error && e.Output == done) || g.dead(e) {
						continue
					}
					adj[u] = append(adj[u], e.to)
					radj[e.to] = append(radj[e.to], int32(u))
				}
			}
			comp, cyc := scc(adj, sc, comp, cyclic[:0])
			clear(reach)
			walkAdj(starts, adj, reach, queue)
			// b runs again when it, or a node upstream of it, lies on a
			// cycle that a run enters.
			again := false
			clear(seen)
			seen[b] = true
			queue = append(queue[:0], int32(b))
			for h := 0; h < len(queue) && !again; h++ {
				u := queue[h]
				if cyc[comp[u]] && reach[u] {
					again = true
				}
				for _, v := range radj[u] {
					if !seen[v] {
						seen[v] = true
						queue = append(queue, v)
					}
				}
			}
			if !again {
				g.deadDone[b], changed = true, true
			}
		}
	}
}

// behindDeadDone marks the nodes that only a done output that never
// fires leads to (see neverDone): no run reaches them, so a cycle among
// them is dead work, not a loop. Nil when no done output is dead.
func (g *Graph) behindDeadDone(sc *scratch) []bool {
	if g.deadDone == nil || !slices.Contains(g.deadDone, true) {
		return nil
	}
	n := len(g.Nodes)
	behind := sc.bools.zeroed(n)
	queue := sc.i32.take(n)[:0]
	g.bfs(g.starts(sc.i32.take(n)[:0]), behind, queue, func(e *Edge) bool {
		return !g.dead(e) || g.deadDone[e.from] && e.Output == sibDoneOutput(e.From)
	})
	for i := range behind {
		behind[i] = behind[i] && !g.reach[i]
	}
	return behind
}

// walkAdj marks in seen what starts reach along adj; queue is room for it.
func walkAdj(starts []int32, adj [][]int32, seen []bool, queue []int32) {
	queue = append(queue[:0], starts...)
	for _, s := range starts {
		seen[s] = true
	}
	for h := 0; h < len(queue); h++ {
		for _, v := range adj[queue[h]] {
			if !seen[v] {
				seen[v] = true
				queue = append(queue, v)
			}
		}
	}
}

// starts appends where executions start: the triggers or, in a workflow
// with none, the nodes no main connection enters (sub-nodes aside).
func (g *Graph) starts(buf []int32) []int32 {
	trig := false
	for i, nd := range g.Nodes {
		if g.specs[i].Role == n8nschema.RoleTrigger {
			// A disabled trigger starts no run: n8n registers no
			// trigger or poll for it (n8n-workflow/dist/cjs/workflow.js
			// L201-233: getTriggerNodes and getPollNodes skip disabled
			// nodes).
			trig = true
			if !nd.Disabled {
				buf = append(buf, int32(i))
			}
		}
	}
	if trig {
		return buf
	}
	// A node wired only from an output its source does not have (Unrun)
	// is not where a run starts: it never runs.
	var unrun map[*n8nschema.Node]bool
	for _, e := range g.Unrun {
		if unrun == nil {
			unrun = map[*n8nschema.Node]bool{}
		}
		unrun[e.To] = true
	}
	for i, nd := range g.Nodes {
		if !g.hasInOfType(i, ConnMain) && !g.sub[i] && !unrun[nd] {
			buf = append(buf, int32(i))
		}
	}
	return buf
}

// dead reports whether an edge never carries items: it leaves the done
// output of a Loop Over Items that never runs a second time, or a
// regular output of a node that fails on every item or returns none
// (failing), or the true or error
// output of a gate that throws and continues, keeping its items (failing),
// or any output of a node after which n8n ends the execution, or it is
// cut because such a node runs before its target (aborting) or, under
// v1, a sibling before it fails on every item, or its target waits for
// an input that only a node failing first feeds (failCut).
// (An edge from an output the node does not have is not in the graph: see
// Unrun.)
func (g *Graph) dead(e *Edge) bool {
	return g.deadEdge(e, true)
}

// deadBesidesFailing is dead for every reason but the one that the node
// fails on every item (fails, failCut): the edges BehindFrom follows past
// a failure.
func (g *Graph) deadBesidesFailing(e *Edge) bool {
	return g.deadEdge(e, false)
}

// deadEdge is dead, the failures of nodes that fail on every item counted
// only when byFailing is set: one list of reasons for both.
func (g *Graph) deadEdge(e *Edge, byFailing bool) bool {
	if e.Type != ConnMain {
		return false
	}
	i := int(e.from)
	// Each map is made only for a graph where one of its reasons holds
	// (most have none): tested for nil first, not looked up.
	if g.aborts != nil && g.aborts[i] || g.cut != nil && g.cut[e] || byFailing && g.failCut != nil && g.failCut[e] != nil || g.failsOnEdge(e) {
		return true
	}
	if g.neverTrue != nil && g.neverTrue[i] && (e.Output == 0 || e.Error) {
		return true
	}
	if e.Error {
		return false
	}
	if byFailing && g.runFails(i) || g.empty != nil && g.empty[i] {
		return true
	}
	return g.deadDone != nil && g.deadDone[i] && e.Output == sibDoneOutput(e.From)
}

// ReachGroup is triggers whose runs reach a node in common, in file order,
// with everything they reach.
type ReachGroup struct {
	Triggers []*n8nschema.Node
	Reach    Reach
}

// GroupByReach groups triggers whose runs overlap, walking each node once:
// a fact a rule computes per group rather than per trigger keeps a
// workflow of many chained triggers linear. A trigger that reaches what
// no other one does is a group of its own, with exactly ReachFrom's nodes.
func GroupByReach(g *Graph, triggers []*n8nschema.Node) []ReachGroup {
	if len(triggers) == 0 {
		return nil // most workflows have no schedule, and RS106 and RS204 ask of each
	}
	owner := make([]int32, len(g.Nodes))   // 1 + the first trigger that reaches each node; 0: none
	groupOf := newUnionFind(len(triggers)) // a group's root is its first trigger
	var queue []int
	for i, t := range triggers {
		visit := func(n int) {
			if j := int(owner[n]) - 1; j >= 0 {
				if j != i {
					groupOf.union(i, j) // walked before by j: everything after it too
				}
				return
			}
			owner[n] = int32(i + 1)
			queue = append(queue, n)
		}
		if k, ok := g.index(t); ok {
			visit(k)
		}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, e := range g.outs(u) {
				if e.Type == ConnMain {
					visit(int(e.to))
				}
			}
			for _, e := range g.ins(u) {
				if e.Type != ConnMain { // a sub-node
					visit(int(e.from))
				}
			}
		}
	}
	at := map[int]int{}
	var out []ReachGroup
	for i, t := range triggers {
		r := groupOf.find(i)
		k, ok := at[r]
		if !ok {
			k = len(out)
			at[r] = k
			out = append(out, ReachGroup{Reach: Reach{g: g, mark: owner, key: int32(k + 1)}})
		}
		out[k].Triggers = append(out[k].Triggers, t)
		if !g.Has(t) {
			out[k].Reach.add(t) // not the graph's: it reaches only itself
		}
	}
	for n, i := range owner {
		if i > 0 {
			k := at[groupOf.find(int(i)-1)]
			owner[n] = int32(k + 1) // now the group's key
			out[k].Reach.nodes = append(out[k].Reach.nodes, g.Nodes[n])
		}
	}
	return out
}

// MainInputs is the number of main inputs n8n gives node n (mainInputs),
// 0 when stormcheck cannot tell.
func MainInputs(n *n8nschema.Node) int {
	k, _ := mainInputs(n, specOf(n.Type))
	return k
}

// UnrunPos is where the connection of g.Unrun[i] is (RS003 reports
// there).
func (g *Graph) UnrunPos(i int) n8nschema.Pos { return g.unrunPos[i] }

// addUnrun adds e to g.Unrun and its connection's position to unrunPos,
// which UnrunPos reads by the same index.
func (g *Graph) addUnrun(e *Edge, pos n8nschema.Pos) {
	g.Unrun, g.unrunPos = append(g.Unrun, e), append(g.unrunPos, pos)
}

// WiredUnrun reports whether one of the Unrun connections starts or ends
// at n: a node wired only that way is no leftover, since n8n keeps the
// connection (under the legacy order it even runs the source of one into
// an input the target lacks, to fill the inputs the target waits for).
func (g *Graph) WiredUnrun(n *n8nschema.Node) bool {
	g.unrunOnce.Do(func() {
		g.unrunAt = make(map[*n8nschema.Node]bool, 2*len(g.Unrun))
		for _, e := range g.Unrun {
			g.unrunAt[e.From], g.unrunAt[e.To] = true, true
		}
	})
	return g.unrunAt[n]
}
