package analyze

import (
	"math"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Factor kinds of the attempt chain.
const (
	KindNodeRetry     = "node-retry"     // the node's own retryOnFail in the main loop
	KindToolRetry     = "tool-retry"     // retryOnFail of a tool, per tool call
	KindSDKRetry      = "sdk-retry"      // an SDK's own retries inside a model sub-node (embeddings, Bedrock)
	KindRootRetry     = "root-retry"     // the agent or chain re-running its sub-nodes
	KindCallerRetry   = "caller-retry"   // the node that starts a sub-workflow or webhook retrying
	KindErrorWorkflow = "error-workflow" // the run is the error workflow of a failed execution
	KindSelfTrigger   = "self-trigger"   // a cycle of executions: the workflow re-starts itself
	KindLoop          = "loop"           // a cycle of main connections with no guard
)

// AttemptCap is where attempt and call counts saturate: a product of
// factors past it is reported as this number (it is still bounded).
const AttemptCap = 1_000_000_000_000

// MainAttempts is how many times n8n's main loop runs a node:
// retryOnFail === true ? min(5, max(2, maxTries || 3)) : 1. A fractional
// maxTries runs while tryIndex < maxTries, so it rounds up
// (core/src/execution-engine/workflow-execute.ts L1604–1620). It is 1
// for a node that continues on fail and hands its error on beside json,
// which the loop never repeats (n8nschema.RetryNeverRepeats).
func MainAttempts(n *n8nschema.Node) int {
	if !n.RetryOnFail || n8nschema.RetryNeverRepeats(n) {
		return 1
	}
	v, ok := n.MaxTries().Num()
	if !ok || math.IsNaN(v) || v == 0 && n.MaxTries().Kind() != n8nschema.String {
		v = 3 // maxTries || 3: a string "0" is truthy, so it stays and counts as 0
	}
	return int(math.Ceil(min(MaxTries, max(MinTries, v))))
}

// ToolAttempts is how many times an agent (V1/V2) or the Call Workflow
// Tool v2 invokes a tool that has retryOnFail: min(5, max(2, maxTries ??
// 3)), so 0 gives 2 (core/.../utils/get-input-connection-data.ts L111–118,
// ToolWorkflow/v2/utils/WorkflowToolService.ts L90–97).
func ToolAttempts(n *n8nschema.Node) int {
	if !n.RetryOnFail {
		return 1
	}
	v, ok := n.MaxTries().Num()
	if !ok || math.IsNaN(v) {
		v = 3 // maxTries ?? 3
	}
	return int(math.Ceil(min(MaxTries, max(MinTries, v))))
}

// RetryWaitMS is the main loop's wait between attempts:
// min(5000, max(0, waitBetweenTries || 1000)), so 0 counts as 1000; 0 when
// the node does not retry (workflow-execute.ts L1609–1612), or never
// repeats a try (MainAttempts).
func RetryWaitMS(n *n8nschema.Node) int {
	if !n.RetryOnFail || n8nschema.RetryNeverRepeats(n) {
		return 0
	}
	v, ok := n.WaitBetweenTries().Num()
	if !ok || math.IsNaN(v) || v == 0 && n.WaitBetweenTries().Kind() != n8nschema.String {
		v = 1000 // waitBetweenTries || 1000: a string "0" is truthy
	}
	return int(min(MaxWaitMS, max(0, v)))
}

// SDKAttempts is how many times a model node's SDK sends one call:
// retries + 1, from the node's option or the catalog's default. It is 1 for
// chat and LLM models, whose retries n8n's failed-attempt handler stops at
// the first failure, and 7 for embeddings, which LangChain's AsyncCaller
// retries 6 times (n8nschema/catalog.go chatModel, embeddings;
// docs/n8n-facts.md).
func SDKAttempts(n *n8nschema.Node, s n8nschema.Spec) int {
	r := s.SDKRetryDefault
	if s.SDKRetryParam != "" {
		if v, ok := n.Param(s.SDKRetryParam); ok {
			if f, ok := v.Num(); ok && f >= 0 && !math.IsNaN(f) {
				r = int(math.Ceil(min(f, 1000)))
			}
		}
	}
	return r + 1
}

// AgentIterations is how many model calls an agent makes per item:
// options.maxIterations ?? 10 (agents/Agent/agents/ToolsAgent/options.ts,
// V3 executeBatch.ts L52). It returns 1 for chains and other roots.
func AgentIterations(n *n8nschema.Node) int {
	if !n8nschema.IsAgent(n.Type) {
		return 1
	}
	if v, ok := n.Param("options.maxIterations"); ok {
		if f, ok := v.Num(); ok && f >= 1 {
			return int(math.Ceil(min(f, AttemptCap)))
		}
	}
	return 10
}

// SummarizationCalls is how many model calls a Summarization Chain makes
// per item, at the least: map_reduce (the default of v1 "type" and v2
// options.summarizationMethodAndPrompts.values.summarizationMethod) calls
// the model once per chunk of the input and once more to combine, so 2
// for one chunk and one more per further chunk, which the input's size
// decides; refine calls it once per chunk; stuff once
// (chains/ChainSummarization/V1 and V2 ChainSummarizationV2.node.js).
func SummarizationCalls(n *n8nschema.Node) int {
	method := "map_reduce"
	p := "options.summarizationMethodAndPrompts.values.summarizationMethod"
	if n.TypeVersion < 2 {
		p = "type"
	}
	if v, ok := n.Param(p); ok && v.Kind() == n8nschema.String && !v.IsExpr() {
		method = v.Str()
	}
	if method == "map_reduce" {
		return 2
	}
	return 1
}

// Pages is how many requests HTTP Request pagination makes per item:
// 1 without pagination, options.pagination.pagination.maxRequests (default
// 100) with limitPagesFetched, and unbounded otherwise or when it is 0
// (HttpRequest/V3/Description.ts L1087–1146; request-helper-functions.ts
// L1705–1714).
func Pages(n *n8nschema.Node) (pages int, unbounded bool) {
	if strings.TrimSuffix(n.Type, "Tool") != n8nschema.TypeHTTPRequest {
		return 1, false
	}
	p, ok := n.Param("options.pagination.pagination")
	if !ok || p.Kind() != n8nschema.Object {
		return 1, false
	}
	if m := p.Get("paginationMode").Str(); m == "off" {
		return 1, false
	}
	if !p.Get("limitPagesFetched").True() {
		return 0, true
	}
	// maxRequests 0 is no limit: the loop stops on it only when it is
	// truthy (request-helper-functions.js L1165–1166, n8n-core 2.8.4); a
	// negative one stops after the first page.
	if f, ok := p.Get("maxRequests").Num(); ok && !math.IsNaN(f) {
		switch {
		case f == 0:
			return 0, true
		case f < 0:
			return 1, false
		}
		return int(math.Ceil(min(f, AttemptCap))), false
	}
	return 100, false
}

// PagesFollowCursor reports whether an HTTP Request's pagination takes
// each next page from the response: the next URL it returns
// (responseContainsNextURL) or a parameter read from it ({{
// $response.body.nextCursor }}). It ends when the data does: the API
// stops sending a next page. A page number counted by n8n ($pageCount)
// is not: an API that ignores it answers the same page for ever.
func PagesFollowCursor(n *n8nschema.Node) bool {
	p, _ := n.Param("options.pagination.pagination")
	if p.Get("paginationMode").Str() == "responseContainsNextURL" {
		return true
	}
	ps := p.Get("parameters.parameters").Elems()
	for _, e := range ps {
		if !strings.Contains(e.Get("value").Str(), "$response") {
			return false
		}
	}
	return len(ps) > 0
}

// AddSat adds attempt or call counts as MulSat multiplies them: it
// saturates at AttemptCap.
func AddSat(a, b int) int { return min(a+b, AttemptCap) }

// MulSat multiplies attempt or call counts without overflowing: it
// saturates at AttemptCap, and a count below one gives 0.
func MulSat(a, b int) int {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > AttemptCap/b {
		return AttemptCap
	}
	return a * b
}

// link is one factor of a shared chain; chains share their outer part.
type link struct {
	f    Factor
	prev *link
}

// ctx is what reaches a node: worst-case attempts of one run of it, calls
// per item, and the chain behind the attempts. out is the part of the fan
// that calls from other workflows bring (nil when none), drv the root
// whose drive last multiplied the fan inside the workflow.
type ctx struct {
	att    int
	fan    int
	link   *link
	out    *Outside
	drv    *n8nschema.Node
	unb    bool
	fanUnb bool
	// gate is true when unb holds only through a restart behind a node
	// that routes items by their content (Factor.Gate): the restarted
	// runs repeat the node only if they take that way.
	gate bool
}

var one = ctx{att: 1, fan: 1}

// worse picks, of two contexts, the worse attempts (with its chain) and the
// larger fan-out.
func worse(a, b ctx) ctx {
	out := a
	// Of two unbounded attempts, the sure one (no gate) is worse.
	if b.unb && !a.unb || b.unb && a.gate && !b.gate || b.unb == a.unb && a.gate == b.gate && (b.att > a.att || b.att == a.att && a.link == nil) {
		out.att, out.unb, out.link, out.gate = b.att, b.unb, b.link, b.gate
	}
	// Of two equal fans, the one the workflow's own runs reach (no
	// caller's) is kept: the figure holds without the caller.
	if b.fanUnb && !a.fanUnb || b.fanUnb == a.fanUnb && (b.fan > a.fan || b.fan == a.fan && a.out != nil && b.out == nil) {
		out.fan, out.fanUnb, out.out, out.drv = b.fan, b.fanUnb, b.out, b.drv
	}
	return out
}

// Edge kinds of the set-wide graph.
const (
	kMain  = iota // main connection
	kDrive        // a root running its AI sub-node
	kCall         // a node starting a sub-workflow or webhook run
	kFail         // any node failing its workflow's execution
	kError        // a failed execution starting the error workflow
)

type cedge struct {
	to     int32
	kind   uint8
	fanUnb bool
	// counter is true on the outputs of a guard that tests a counter
	// carried in the data, or of a node that waits for a person: it bounds
	// cycles across executions too, where $runIndex and Loop Over Items
	// start afresh.
	counter bool
	mult    int // attempts multiplier (kDrive, kCall)
	fan     int // calls-per-item multiplier (kDrive)
	// f is the factor a kDrive, kCall or kError edge adds (nil on the
	// others, most edges: a Factor inline made every edge ~4x larger).
	f    *Factor
	call *Call
}

// amp is the set-wide graph: every node of every workflow, plus one
// "failed" vertex per workflow for error workflows.
type amp struct {
	s     *Set
	sc    *scratch
	gs    []*Graph
	base  []int // first vertex of each workflow
	wfOf  []int32
	nodes []*n8nschema.Node // nil for failed vertices
	adj   [][]cedge
	// quiet marks the nodes of a sub-workflow that a retrying caller
	// never repeats (quietAfter); nil when no call retries.
	quiet []bool
	// shared are the sub-nodes two or more roots drive, by vertex; nil
	// when none (most sets).
	shared map[int32]*shareAt
	// exclUsed counts, by workflow, the pairs of roots exclusiveRoots
	// was asked of (exclusiveBudget).
	exclUsed []int
}

func (a *amp) vertex(wi int, g *Graph, n *n8nschema.Node) int32 {
	return int32(a.base[wi] + g.at(n))
}

// Amplify computes the operations of every workflow of the set: for each
// node that makes a wire call, its worst-case attempts per logical
// operation (the product of the retry factors over the worst path that
// reaches it; unbounded on a cycle), its calls per item, and the chain.
// It also marks the calls that close cycles. Build calls it.
func Amplify(s *Set) {
	sc := getScratch()
	defer putScratch(sc)
	a := &amp{}
	a.run(a.build(s, sc))
	locateCalls(s)
}

// build makes a the set-wide graph of s; failV is its first "failed"
// vertex.
func (a *amp) build(s *Set, sc *scratch) (failV int) {
	*a = amp{s: s, sc: sc, gs: make([]*Graph, 0, len(s.Workflows)), base: make([]int, 0, len(s.Workflows))}
	total := 0
	for _, w := range s.Workflows {
		g := s.Graph(w)
		a.gs = append(a.gs, g)
		a.base = append(a.base, total)
		total += len(g.Nodes)
	}
	failV = total
	total += len(s.Workflows)
	a.adj = sc.cadj.take(total)
	ints := sc.i32.zeroed(2 * total) // wfOf, then deg below
	a.wfOf = ints[:total:total]
	a.nodes = sc.nodes.zeroed(total)
	for wi, g := range a.gs {
		for i, n := range g.Nodes {
			v := a.base[wi] + i
			a.nodes[v], a.wfOf[v] = n, int32(wi)
		}
		a.wfOf[failV+wi] = int32(wi)
	}

	// Edges inside each workflow, every vertex's list a piece of one
	// array: counted first (the calls below may still grow a list).
	deg := ints[total:]
	drives := 0
	for wi, g := range a.gs {
		for ui, n := range g.Nodes {
			u := a.base[wi] + ui
			for _, e := range g.outs(ui) {
				if e.Type == ConnMain {
					deg[u]++
				} else {
					deg[a.base[wi]+int(e.to)]++
					drives++
				}
			}
			if !n.Disabled {
				deg[u]++
			}
		}
	}
	edges := sc.cedges.take(sumInt32(deg))[:0]
	for v, d := range deg {
		a.adj[v] = edges[len(edges) : len(edges) : len(edges)+int(d)]
		edges = edges[:len(edges)+int(d)]
	}
	factors := sc.factors.take(drives)[:0]
	for wi, g := range a.gs {
		wname := g.Workflow.Label()
		for ui, n := range g.Nodes {
			u := a.base[wi] + ui
			var first int32 = -1       // the first root that drives u
			var roots []int32          // its roots, when two or more
			var inRoots map[int32]bool // roots' set, from the second: linear in the roots
			for _, e := range g.outs(ui) {
				v := int32(a.base[wi]) + e.to
				if e.Type == ConnMain {
					if !g.dead(e) { // a dead edge closes no cycle of executions
						a.adj[u] = append(a.adj[u], cedge{to: v, kind: kMain})
					}
					continue
				}
				if g.noCall != nil && g.noCall[e.to] {
					continue // the root fails before it drives the sub-node
				}
				// AI edges point from sub-node to root; the root drives the sub-node.
				root := e.To
				switch {
				case root.Disabled:
				case first < 0:
					first = v
				case v != first && len(roots) == 0:
					roots = append(roots, first, v)
					inRoots = map[int32]bool{first: true, v: true}
				case len(roots) > 0 && !inRoots[v]:
					roots = append(roots, v)
					inRoots[v] = true
				}
				mult, _ := NodeAttempts(g, root)
				if e.Type == ConnTool && !ToolFailureFailsRoot(root) {
					// The root's retry never runs because of the tool, so it
					// repeats none of the tool's calls, nor those of the
					// tool's own sub-nodes; the model may still call the
					// tool again (the fan).
					mult = 1
				}
				fan, fanUnb := driveFan(g, root, e.Type)
				factors = append(factors, Factor{Kind: KindRootRetry, Value: mult, Node: root.Name, Workflow: wname, Pos: root.Pos, Source: g.Workflow.Source})
				a.adj[v] = append(a.adj[v], cedge{to: int32(u), kind: kDrive, mult: mult, fan: fan, fanUnb: fanUnb,
					f: &factors[len(factors)-1]})
			}
			if len(roots) > 1 {
				a.shareSubNode(u, roots)
			}
			if !n.Disabled {
				a.adj[u] = append(a.adj[u], cedge{to: int32(failV + wi), kind: kFail})
			}
		}
	}
	// Edges between workflows.
	var wfIndex map[*n8nschema.Workflow]int
	if len(s.Calls) > 0 {
		wfIndex = make(map[*n8nschema.Workflow]int, len(s.Workflows))
		for i, w := range s.Workflows {
			wfIndex[w] = i
		}
	}
	var quietDone []bool // by workflow: quietAfter has marked its nodes
	for _, c := range s.Calls {
		if c.To == nil || len(c.Entry) == 0 {
			continue
		}
		wi, ti := wfIndex[c.From], wfIndex[c.To]
		g, tg := a.gs[wi], a.gs[ti]
		if c.Kind == CallErrorWorkflow {
			if c.Self {
				// n8n does not run a workflow as its own error workflow
				// again when it fails in error mode (execute-error-workflow.ts).
				continue
			}
			for _, en := range c.Entry {
				a.adj[failV+wi] = append(a.adj[failV+wi], cedge{to: a.vertex(ti, tg, en), kind: kError, call: c,
					f: &Factor{Kind: KindErrorWorkflow, Value: 1, Node: en.Name, Workflow: c.To.Label(), Pos: en.Pos, Source: c.To.Source}})
			}
			continue
		}
		if c.Kind == CallN8nAPI || c.Node == nil || !g.Has(c.Node) {
			continue
		}
		mult, kind := NodeAttempts(g, c.Node)
		if kind == KindNodeRetry {
			kind = KindCallerRetry
		}
		if c.NoWait {
			// Fire and forget: the caller does not see the callee fail, so
			// its retries never re-run it (docs/n8n-behaviour.md#sub-workflows).
			mult = 1
		}
		if mult > 1 {
			if a.quiet == nil {
				a.quiet, quietDone = make([]bool, total), make([]bool, len(a.gs))
			}
			if !quietDone[ti] {
				quietDone[ti] = true
				quietAfter(tg, a.quiet[a.base[ti]:a.base[ti]+len(tg.Nodes)])
			}
		}
		u := a.vertex(wi, g, c.Node)
		for _, en := range c.Entry {
			targets := []*n8nschema.Node{en}
			if d, ok := dispatch(tg, c.Node, en); ok {
				targets = d
			}
			for _, t := range targets {
				a.adj[u] = append(a.adj[u], cedge{to: a.vertex(ti, tg, t), kind: kCall, mult: mult, fan: 1, call: c,
					f: &Factor{Kind: kind, Value: mult, Node: c.Node.Name, Workflow: c.From.Label(), Pos: c.Node.Pos, Source: c.From.Source}})
			}
		}
	}
	return failV
}

func sumInt32(xs []int32) int {
	n := 0
	for _, x := range xs {
		n += int(x)
	}
	return n
}

// What runs a node, and so retries it.
const (
	byNone     = iota // a sub-node with supplyData: nothing retries it
	byMainLoop        // n8n's main loop (workflow-execute.ts)
	byRoot            // its root, per tool call (makeHandleToolInvocation)
)

// retriedBy says what runs one run of n: the main loop for a main node
// and for the tools of Agent V3 (docs/n8n-behaviour.md#agents), the root for a
// tool that honours retryOnFail (docs/n8n-behaviour.md#retries-that-do-nothing), nothing for other sub-nodes.
func retriedBy(g *Graph, n *n8nschema.Node) int {
	if !g.IsSubNode(n) {
		return byMainLoop
	}
	s := g.spec(n)
	honours := s.ToolRetry || s.Role == n8nschema.RoleAgent
	if n.Type == n8nschema.TypeToolWorkflow && n.TypeVersion < 2 {
		honours = false // v1 is a supplyData tool
	}
	// Agent V3 runs its tools as engine requests through the main loop
	// (docs/n8n-behaviour.md#agents): every tool with its own execute() honours
	// retryOnFail there, the langchain tools with supplyData too.
	if r := g.Root(n); r != nil && strings.HasPrefix(r.Type, n8nschema.TypeAgent) && r.TypeVersion >= 3 {
		if honours || s.Executes {
			return byMainLoop
		}
		return byNone
	}
	if !honours {
		return byNone
	}
	return byRoot
}

// ToolFailureFailsRoot reports whether a tool's failure, after the tool's
// own tries, fails the root that called it, so that the root's retry runs
// the tool's calls again. An agent's never does: Agent v1 and v2, of every
// agent type, and the agent used as a tool run LangChain's AgentExecutor,
// which catches a tool's error and hands the model an observation in its
// place (@langchain/classic dist/agents/executor.cjs L304-323; n8n sets no
// handleToolRuntimeErrors, ToolsAgent/V1/execute.js L56-62, V2/execute.js
// L24-54). Agent v3 has the engine run each tool as a node of its own: its
// failure goes back to the model (n8n 2.41.1) or ends the execution at the
// tool (earlier releases), past the agent's retry either way
// (n8n-core workflow-execute.js handleNodeExecutionError L1053-1094). The
// OpenAI node's assistant, and the legacy OpenAI Assistant node, run the
// same executor. The OpenAI node's Message a Model awaits each tool with no
// catch (v1/actions/text/message.operation.js L288, v2
// actions/text/response.operation.js L619): the node fails, and its retry
// repeats the tool. Other roots (Tool Executor, Code) are taken to fail.
// docs/n8n-behaviour.md#agents.
func ToolFailureFailsRoot(root *n8nschema.Node) bool {
	switch root.Type {
	case n8nschema.TypeAgent, n8nschema.TypeAgentTool, n8nschema.TypeOpenAIAssistant:
		return false
	case n8nschema.TypeOpenAI:
		r, _ := root.Param("resource")
		return r.Str() != "assistant"
	}
	return true
}

// NodeAttempts is how many times one run of n is attempted by what runs
// it (retriedBy), with the factor kind.
func NodeAttempts(g *Graph, n *n8nschema.Node) (int, string) {
	switch retriedBy(g, n) {
	case byMainLoop:
		if g.IsSubNode(n) {
			return MainAttempts(n), KindToolRetry
		}
		return MainAttempts(n), KindNodeRetry
	case byRoot:
		return ToolAttempts(n), KindToolRetry
	}
	return 1, ""
}

// NodeRetryWaitMS is the wait between the tries NodeAttempts counts: the
// main loop's RetryWaitMS, or for a tool its root invokes
// min(5000, max(0, waitBetweenTries ?? 1000)), where 0 means no wait
// (get-input-connection-data.ts makeHandleToolInvocation).
func NodeRetryWaitMS(g *Graph, n *n8nschema.Node) int {
	switch retriedBy(g, n) {
	case byMainLoop:
		return RetryWaitMS(n)
	case byRoot:
		if !n.RetryOnFail {
			return 0
		}
		v, ok := n.WaitBetweenTries().Num()
		if !ok || math.IsNaN(v) {
			v = 1000 // waitBetweenTries ?? 1000
		}
		return int(min(MaxWaitMS, max(0, v)))
	}
	return 0
}

// engineToolOf is the AI Agent v3 a tool node is attached to, nil when it
// is none: that agent runs its tools as nodes of the execution
// (ToolsAgent/V3/helpers/executeBatch.ts).
func engineToolOf(g *Graph, n *n8nschema.Node) *n8nschema.Node {
	for _, e := range g.OutOfType(n, ConnTool) {
		if e.To.Type == n8nschema.TypeAgent && e.To.TypeVersion >= 3 {
			return e.To
		}
	}
	return nil
}

// driveFan is how many calls per item a root makes to a sub-node attached
// through typ: agent iterations for models and tools (one model call for
// an agent with no tool; each model of a fallback pair included), a vendor
// node's tool rounds, an Information Extractor's fixing call, else one.
func driveFan(g *Graph, root *n8nschema.Node, typ string) (int, bool) {
	if typ != ConnModel && typ != ConnTool {
		return 1, false
	}
	if root.Type == n8nschema.TypeOpenAI && typ == ConnTool {
		// Message an Assistant runs LangChain's AgentExecutor, 15
		// iterations (vendors/OpenAi/v1/actions/assistant/message.operation.js
		// L200; @langchain/classic/dist/agents/executor.js L186).
		if r, _ := root.Param("resource"); r.Str() == "assistant" {
			return 15, false
		}
	}
	if typ == ConnTool {
		if calls, unb, ok := MessageToolCalls(root); ok {
			// A round of tool calls between each two model calls.
			return max(calls-1, 1), unb
		}
	}
	if root.Type == n8nschema.TypeChainSummarization && typ == ConnModel {
		return SummarizationCalls(root), false
	}
	if root.Type == langchain+"informationExtractor" && typ == ConnModel {
		// Its parser is always LangChain's OutputFixingParser on the same
		// model, which asks it once more when the answer does not parse
		// (InformationExtractor.node.js L222, L236;
		// @langchain/classic/dist/output_parsers/fix.js parse).
		return 2, false
	}
	k := AgentIterations(root)
	if k > 1 && !g.hasEnabledIn(root, ConnTool) {
		// With no tool to call, the model's first answer is the final one
		// (Agent V3 runs one model call per round and loops only on tool
		// requests, ToolsAgent/V3/helpers/executeBatch.ts). An output
		// parser is bound as one more tool (format_final_json_response,
		// ToolsAgent/common.ts), but a call to it is the final answer:
		// getAgentStepsParser turns it into the agent's finish in the
		// same round, and a plain answer is parsed as it is (n8n 2.41.1,
		// nodes/agents/Agent/agents/ToolsAgent/common.js L205-244; V2 and
		// V3 run it after each model call). A parser alone adds no round.
		k = 1
	}
	// With needsFallback a second model input is wired and the agent runs
	// agent.withFallbacks (createAgentSequence.ts L51): the fallback is
	// called once for each failed call of the first, so each model node
	// makes at most K calls; 2K is their total, not each one's.
	return k, false
}

// NoToolLimit reports a vendor node's Message a Model that calls the
// model again for as long as the model asks for tools: OpenAI before v1.5
// reads no limit, and options.maxToolsIterations 0 (or less) is none
// (MessageToolCalls).
func NoToolLimit(n *n8nschema.Node) bool {
	if n.Type == n8nschema.TypeOpenAI && n.TypeVersion > 0 && n.TypeVersion < 1.5 {
		return true
	}
	v, ok := n.Param("options.maxToolsIterations")
	f, num := v.Num()
	return ok && num && f <= 0
}

// MessageToolCalls is how many model calls per item a vendor node's
// Message a Model (OpenAI v2: Respond) makes once a tool is wired to it,
// ok when n is one: after each round of tool calls the model asks for, it
// calls the model again, up to options.maxToolsIterations (15 when
// absent; 0 or less is no limit). OpenAI v1 and Gemini count the first
// call as the first iteration and stop at the limit, so the limit is the
// calls; OpenAI v2, Anthropic, Qwen, MiniMax and Moonshot count tool
// rounds and call once more after the last; OpenAI before v1.5 reads no
// limit (@n8n/n8n-nodes-langchain 2.41.1 vendors/OpenAi/v1/actions/text/
// message.operation.js L226-278, OpenAi/v2/actions/text/response.operation.js
// L557-603, GoogleGemini/actions/text/message.operation.js L483-490,
// Anthropic/actions/text/message.operation.js L309-318, AlibabaCloud,
// MiniMax and Moonshot likewise; Anthropic's up to three pause_turn
// continuations come only with its server tools and are left out, as is
// Ollama, which bills nothing). OpenAI's hideTools sends the model no
// tools: one call. The callers multiply only when a tool is wired.
func MessageToolCalls(n *n8nschema.Node) (calls int, unbounded, ok bool) {
	last := false // the limit counts tool rounds, and one more call follows
	want := "message"
	switch n.Type {
	case n8nschema.TypeOpenAI:
		if n.TypeVersion >= 2 {
			want, last = "response", true
		}
	case langchain + "googleGemini":
	case langchain + "anthropic", langchain + "alibabaCloud", langchain + "minimax", langchain + "moonshot":
		last = true
	default:
		return 0, false, false
	}
	res := n.Params().Get("resource").Str()
	if res == "" {
		d, _ := n.Describe()
		res = d.DefaultResource()
	}
	if res != "text" || OperationName(n) != want {
		return 0, false, false
	}
	if n.Type == n8nschema.TypeOpenAI && n.Params().Get("hideTools").Str() == "hide" {
		return 1, false, true // the tools are not sent to the model
	}
	if NoToolLimit(n) {
		return 0, true, true
	}
	limit := 15
	if v, ok := n.Param("options.maxToolsIterations"); ok {
		if f, num := v.Num(); num && !math.IsNaN(f) {
			// (an expression's value is not known: n8n's default stands)
			limit = int(math.Ceil(min(f, AttemptCap)))
		}
	}
	if last {
		limit = min(limit+1, AttemptCap)
	}
	return limit, false, true
}

// hasEnabledIn reports whether an enabled node feeds n through an edge of
// type typ.
func (g *Graph) hasEnabledIn(n *n8nschema.Node, typ string) bool {
	i, ok := g.index(n)
	if !ok {
		return false
	}
	for _, e := range g.ins(i) {
		if e.Type == typ && !e.From.Disabled {
			return true
		}
	}
	return false
}

// apply carries a context across an edge out of from.
func (e *cedge) apply(c ctx, from *n8nschema.Node, sc *scratch) ctx {
	switch e.kind {
	case kError:
		l := sc.links.one()
		l.f = *e.f
		return ctx{att: 1, fan: 1, link: l}
	case kDrive, kCall:
		out := c
		out.att = MulSat(c.att, e.mult)
		if e.mult > 1 {
			l := sc.links.one()
			l.f, l.prev = *e.f, c.link
			out.link = l
		}
		if e.kind == kCall {
			return e.enter(out)
		}
		if e.fanUnb {
			out.fanUnb = true
		} else {
			out.fan = MulSat(c.fan, e.fan)
		}
		if e.fanUnb || e.fan > 1 {
			out.drv = from // the root, which drives its sub-node
		}
		return out
	}
	return c
}

// enter carries the fan of a call's node into the workflow it starts: the
// callee runs as often per item as the caller's node does, which a
// caller's agent that may call the workflow as its tool 10 times makes 10
// (a call adds no fan of its own). The cause goes with the figure
// (Outside).
func (e *cedge) enter(c ctx) ctx {
	if c.fan > 1 || c.fanUnb {
		prev := 1
		if c.out != nil {
			prev = max(c.out.Total, 1)
		}
		runs := c.fan
		if c.fan >= prev && c.fan%prev == 0 {
			runs = c.fan / prev
		}
		c.out = &Outside{Call: e.call, Root: c.drv, Runs: runs, Total: c.fan, Unbounded: c.fanUnb, Prev: c.out}
	}
	c.drv = nil
	return c
}

// run computes the contexts of every vertex and the operations.
func (a *amp) run(failV int) {
	if a.plain() {
		// Every context is one: no node is on a cycle of executions.
		for _, g := range a.gs {
			g.selfTrig = nil
		}
		a.operations(nil)
		return
	}
	a.operations(a.contexts(failV))
}

// contexts is what reaches each vertex as it runs (cur, by vertex), and
// it marks the nodes on cycles of executions (Graph.selfTrig) and the
// calls that close them.
func (a *amp) contexts(failV int) []ctx {
	n := len(a.adj)
	sc := a.sc
	full := sc.adj.take(n)
	// One backing array for each adjacency list: no growth per vertex.
	total := 0
	for _, es := range a.adj {
		total += len(es)
	}
	fbuf := sc.i32.take(total)[:0]
	for u, es := range a.adj {
		fs := len(fbuf)
		for _, e := range es {
			fbuf = append(fbuf, e.to)
		}
		full[u] = fbuf[fs:len(fbuf):len(fbuf)]
	}
	comp, fcyc := sc.scc(full)
	nc := len(fcyc)
	// The outputs of a counter guard are marked only where they can close
	// a cycle: out of a node on a cycle of the full graph. Elsewhere the
	// mark changes no component of the restricted graph, and the guard
	// test (regexes over the parameters) is skipped.
	var down map[int32]map[string]bool // by component: fields a call passes stepped down
	if slices.Contains(fcyc, true) {
		for u, n := range a.nodes {
			if n == nil || !fcyc[comp[u]] {
				continue
			}
			for _, f := range steppedDownInputs(n) {
				if down == nil {
					down = map[int32]map[string]bool{}
				}
				if down[comp[u]] == nil {
					down[comp[u]] = map[string]bool{}
				}
				down[comp[u]][f] = true
			}
		}
	}
	// The outputs of a node that waits for a person bound the cycle as a
	// counter does: the workflow re-starts itself once per answer (an
	// approve or regenerate link opened, a form sent), not on its own.
	for u, es := range a.adj {
		if n := a.nodes[u]; n == nil || !fcyc[comp[u]] || !counterGuard(n) && !testsAny(n, down[comp[u]]) && !a.gs[a.wfOf[u]].heldForPerson(n) {
			continue
		}
		for i := range es {
			if es[i].kind == kMain {
				es[i].counter = true
			}
		}
	}
	// Cycles of executions: a cycle through a call or an error workflow
	// starts a new execution on every trip, so only a counter in the data
	// bounds it (Graph.Loops holds the cycles inside one execution). The
	// restricted graph is a part of the full one: when that has no cycle
	// (most sets), neither has this, and its components (one vertex each,
	// numbered as they may be) change nothing below.
	rcomp, rcyc := comp, fcyc
	if slices.Contains(fcyc, true) {
		restricted, rbuf := sc.adj.take(n), sc.i32.take(total)[:0]
		for u, es := range a.adj {
			rs := len(rbuf)
			for _, e := range es {
				if !e.counter {
					rbuf = append(rbuf, e.to)
				}
			}
			restricted[u] = rbuf[rs:len(rbuf):len(rbuf)]
		}
		rcomp, rcyc = sc.scc(restricted)
	}
	rnc := len(rcyc)

	// mark says which vertices run for ever, by the index of the factor
	// that says why (-1: none).
	// mark, unb, and below start, order and next: one array.
	ints := sc.i32.zeroed(n + rnc + (nc + 1) + n + nc)[:0]
	carve := func(k int) []int32 {
		ints = ints[:len(ints)+k]
		return ints[len(ints)-k:]
	}
	mark := carve(n)
	for i := range mark {
		mark[i] = -1
	}
	var marks []Factor
	unb := carve(rnc)
	for i := range unb {
		unb[i] = -1
	}
	var branches map[int32]*n8nschema.Node
	for u, es := range a.adj {
		c := rcomp[u]
		if !rcyc[c] {
			continue
		}
		for _, e := range es {
			if e.counter || rcomp[e.to] != c || (e.kind != kCall && e.kind != kError) {
				continue
			}
			if e.call != nil {
				e.call.Cycle = true
				if branches == nil {
					branches = branchesOf(a, rcomp)
				}
				e.call.Branch = branches[c]
			}
			if unb[c] < 0 {
				f := Factor{Kind: KindSelfTrigger, Unbounded: true, Workflow: e.f.Workflow, Pos: e.f.Pos, Source: e.f.Source, Node: e.f.Node}
				if e.kind == kCall {
					f.Via = a.nodes[e.to].Name
				} else {
					f.Via = e.call.From.Label()
				}
				unb[c] = int32(len(marks))
				marks = append(marks, f)
			}
		}
	}
	var gated []int32
	if len(marks) > 0 {
		gated = a.restartGates(rcomp, unb, &marks)
	}
	selfTrig := make([]bool, failV)
	for wi, g := range a.gs {
		g.selfTrig = selfTrig[a.base[wi] : a.base[wi]+len(g.Nodes) : a.base[wi]+len(g.Nodes)]
	}
	for v := range mark {
		mark[v] = unb[rcomp[v]]
		if gated != nil && gated[v] >= 0 {
			mark[v] = gated[v]
		}
		if mark[v] >= 0 && a.nodes[v] != nil {
			wi := a.wfOf[v]
			a.gs[wi].selfTrig[v-a.base[wi]] = true
		}
	}
	for wi, g := range a.gs {
		for _, l := range g.Loops {
			if !l.Unbounded {
				continue
			}
			id := int32(len(marks))
			marks = append(marks, Factor{Kind: KindLoop, Unbounded: true, Node: l.Back.Name, Via: l.Head.Name,
				Workflow: g.Workflow.Label(), Pos: l.Back.Pos, Source: g.Workflow.Source})
			for _, nd := range l.Nodes {
				// A loop inside the run repeats surely, a gated restart
				// only if the restarted runs come this way.
				if v := a.vertex(wi, g, nd); mark[v] < 0 || marks[mark[v]].Gate != "" {
					mark[v] = id
				}
			}
		}
	}

	// Contexts in topological order of the full graph: Tarjan numbers a
	// component after everything it reaches, so count down.
	// The members of each component in vertex order, the components one
	// after another in one array (a counting sort).
	start := carve(nc + 1)
	for _, c := range comp {
		start[c+1]++
	}
	for c := range nc {
		start[c+1] += start[c]
	}
	order := carve(n)
	next := carve(nc)
	copy(next, start[:nc])
	for v, c := range comp {
		order[next[c]] = int32(v)
		next[c]++
	}
	// Each vertex has two contexts: in, and in0 without the factor of the
	// innermost retrying call into its workflow, which a quiet node (one
	// whose sub-workflow run cannot fail after it, quietAfter) takes.
	ctxs := sc.ctxs.take(6 * n)
	in, cur, exit := ctxs[:n], ctxs[n:2*n], ctxs[2*n:3*n]
	in0, cur0, exit0 := ctxs[3*n:4*n], ctxs[4*n:5*n], ctxs[5*n:]
	for i := range in {
		in[i], in0[i] = one, one
	}
	markLink := make([]*link, 2*len(marks))
	marked := func(x ctx, m int32, k int) ctx {
		l := markLink[k]
		if l == nil {
			l = sc.links.one()
			l.f, l.prev = marks[m], x.link
			markLink[k] = l
		}
		x.gate = marks[m].Gate != "" && (!x.unb || x.gate)
		x.unb, x.link = true, l
		return x
	}
	for c := nc - 1; c >= 0; c-- {
		ms := order[start[c]:start[c+1]]
		if a.shared != nil {
			for _, v := range ms {
				if s := a.shared[v]; s != nil {
					in[v], in0[v] = s.merge(a, v, in[v], in0[v], a.quiet != nil && a.quiet[v])
				}
			}
		}
		base, base0 := in[ms[0]], in0[ms[0]]
		for _, v := range ms[1:] {
			base, base0 = worse(base, in[v]), worse(base0, in0[v])
		}
		for _, v := range ms {
			// Inside a bounded cycle every node sees the worst entry.
			x, x0 := in[v], in0[v]
			if len(ms) > 1 {
				x, x0 = base, base0
			}
			if a.quiet != nil && a.quiet[v] {
				x = x0
			}
			exit[v], exit0[v] = x, x0
			if m := mark[v]; m >= 0 {
				x, x0 = marked(x, m, 2*int(m)), marked(x0, m, 2*int(m)+1)
			}
			cur[v], cur0[v] = x, x0
		}
		for _, u := range ms {
			for i := range a.adj[u] {
				e := &a.adj[u][i]
				if comp[e.to] == int32(c) || e.kind == kFail {
					continue
				}
				src, src0 := cur[u], cur0[u]
				if e.kind == kMain {
					// Leaving a cycle by a main edge happens once per entry.
					src, src0 = exit[u], exit0[u]
				}
				c1 := e.apply(src, a.nodes[u], sc)
				in[e.to] = worse(in[e.to], c1)
				if e.kind == kCall {
					// The callee's nodes without this call's retry: the
					// caller's own context (a call adds no fan).
					in0[e.to] = worse(in0[e.to], e.enter(src))
					continue
				}
				c0 := e.apply(src0, a.nodes[u], sc)
				in0[e.to] = worse(in0[e.to], c0)
				if e.kind == kDrive && a.shared != nil {
					if s := a.shared[e.to]; s != nil {
						// Each root's calls, which merge sums.
						s.add(int32(u), c1, c0)
					}
				}
			}
		}
	}
	return cur
}

// plain reports a set in which every context run computes is one
// (attempts 1, fan 1, no chain), as in most sets: no call or
// error-workflow edge (so no cycle of executions, no quiet node and
// nothing from outside), every drive edge multiplies attempts and fan by 1
// (apply carries the context unchanged), no sub-node two roots share
// (whose calls merge sums), and no unbounded loop (the only marks left).
// A main edge carries a context unchanged, and worse of two ones is one.
func (a *amp) plain() bool {
	if a.shared != nil {
		return false
	}
	for _, es := range a.adj {
		for i := range es {
			switch e := &es[i]; e.kind {
			case kCall, kError:
				return false
			case kDrive:
				if e.mult != 1 || e.fan != 1 || e.fanUnb {
					return false
				}
			}
		}
	}
	for _, g := range a.gs {
		for _, l := range g.Loops {
			if l.Unbounded {
				return false
			}
		}
	}
	return true
}

// restartGates finds, in each cycle of executions (a restricted component
// with an unbounded self-trigger factor, unb), the vertices a restarted run
// reaches only through a node that routes items by their content (an If, a
// Switch, a Filter, a Text Classifier: routesByContent). A restart enters
// at the targets of the calls and error-workflow runs that close the cycle;
// what a run reaches from there without passing such a node runs on every
// trip, surely without bound. A vertex behind one runs again only if the
// restarted runs take that way, which the data decides (a Slack bot's own
// post, which starts the run again, may well fail the test a person's
// message passes): it keeps the unbounded figure, the worst case, with a
// copy of the component's factor that names the first gate on its way
// (Factor.Gate), appended to marks. The result is, by vertex, that
// factor's index, or -1 for the vertices no gate holds; nil when no cycle
// has a gate. One walk from the entries stopping at the gates, then one
// from the gates: linear in the edges.
func (a *amp) restartGates(rcomp, unb []int32, marks *[]Factor) []int32 {
	const unseen, sure = -2, -1
	var label []int32
	var queue []int32
	for u, es := range a.adj {
		c := rcomp[u]
		if unb[c] < 0 {
			continue
		}
		for _, e := range es {
			if e.counter || rcomp[e.to] != c || (e.kind != kCall && e.kind != kError) {
				continue
			}
			if label == nil {
				label = make([]int32, len(a.adj))
				for i := range label {
					label[i] = unseen
				}
			}
			if label[e.to] == unseen {
				label[e.to] = sure
				queue = append(queue, e.to)
			}
		}
	}
	var gates []int32
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		if routesByContent(a.nodes[u]) {
			gates = append(gates, u) // it runs; what follows it may not
			continue
		}
		for _, e := range a.adj[u] {
			if !e.counter && rcomp[e.to] == rcomp[u] && label[e.to] == unseen {
				label[e.to] = sure
				queue = append(queue, e.to)
			}
		}
	}
	if len(gates) == 0 {
		return nil
	}
	queue = queue[:0]
	for _, b := range gates {
		m := int32(-1)
		for _, e := range a.adj[b] {
			if e.counter || rcomp[e.to] != rcomp[b] || label[e.to] != unseen {
				continue
			}
			if m < 0 {
				f := (*marks)[unb[rcomp[b]]]
				f.Gate = a.nodes[b].Name
				m = int32(len(*marks))
				*marks = append(*marks, f)
			}
			label[e.to] = m
			queue = append(queue, e.to)
		}
	}
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		for _, e := range a.adj[u] {
			if !e.counter && rcomp[e.to] == rcomp[u] && label[e.to] == unseen {
				label[e.to] = label[u]
				queue = append(queue, e.to)
			}
		}
	}
	for i, l := range label {
		if l < 0 {
			label[i] = -1
		}
	}
	return label
}

// RoutesByContent is routesByContent for the rules: a node past which an
// item's way depends on what it holds.
func RoutesByContent(n *n8nschema.Node) bool { return routesByContent(n) }

// routesByContent reports an enabled node that sends each item one way or
// another, or drops it, by what the item holds: an If, Switch or Filter
// whose test reads the items (readsItems: a test of $runIndex alone, or of
// fixed values, sends a fresh execution's run the way it sent the first),
// and the classifiers whose outputs are categories of the text they read
// (Text Classifier, Sentiment Analysis, Guardrails' pass and fail).
func routesByContent(n *n8nschema.Node) bool {
	if n == nil || n.Disabled {
		return false
	}
	switch n.Type {
	case n8nschema.TypeTextClassifier, n8nschema.TypeSentimentAnalysis, n8nschema.TypeGuardrails:
		k, _ := declaredOutputs(n)
		return k > 1
	}
	if !n8nschema.IsBranch(n.Type) {
		return false
	}
	found := false
	n.Params().Scalars(func(v n8nschema.Value) bool {
		found = v.Kind() == n8nschema.String && readsItems(v.Str())
		return !found
	})
	return found
}

// branchesOf maps each restricted component to its first node that
// routes items by their content (routesByContent, the gates Factor.Gate
// names), in vertex order: RS102 names it as what may route every run
// around the loop.
func branchesOf(a *amp, rcomp []int32) map[int32]*n8nschema.Node {
	out := map[int32]*n8nschema.Node{}
	for v, n := range a.nodes {
		if n == nil || out[rcomp[v]] != nil {
			continue
		}
		if routesByContent(n) {
			out[rcomp[v]] = n
		}
	}
	return out
}

// operations turns the contexts of the nodes that call out into
// operations, in workflow then node order; with cur nil every context is
// one (plain).
func (a *amp) operations(cur []ctx) {
	s := a.s
	count := 0
	for _, g := range a.gs {
		for ui, n := range g.Nodes {
			if makesOperation(n, g.specs[ui]) {
				count++
			}
		}
	}
	// One array holds the operations: a set keeps all of them or none.
	block := make([]Operation, count)
	if cap(s.Operations) < count {
		s.Operations = make([]*Operation, 0, count)
	}
	s.Operations = s.Operations[:0]
	// The chains are pieces of one array too, sized once every chain's
	// length is known: each operation's context and own factors wait in
	// the scratch till then.
	pend := a.sc.chains.take(count)[:0]
	factorCount := 0
	for wi, g := range a.gs {
		errFor := errorCallers(s, g.Workflow)
		for ui, n := range g.Nodes {
			sp := g.specs[ui]
			if !makesOperation(n, sp) {
				continue
			}
			c := one
			if cur != nil {
				c = cur[a.base[wi]+ui]
			}
			op := &block[len(s.Operations)]
			dep := dependency(n, *sp)
			*op = Operation{Workflow: g.Workflow, Node: n, Type: n.Type, Dependency: dep,
				Paid: sp.Paid && n8nschema.RunsModel(n), Spec: sp, ErrorPath: g.OnErrorPath(n), g: g}
			// Not one a config Set node holds as a blank (configTarget):
			// readers of part IF took the findings such a call leaves out
			// (a failed alert that continues to the write that closes the
			// item) as true as exported; Pass.Report names that blank.
			_, op.BlankTarget = n8nschema.BlankTarget(n)
			op.Write, _ = n8nschema.WriteOp(n)
			// A community node's loop is unknown: it counts every item.
			op.FirstFailureEndsTry = sp.Known && !g.IsSubNode(n) && n8nschema.StopsAtFirstFailedItem(n)
			if _, ok := n8nschema.HTTPModelCallOf(n); ok {
				// A model API's generation endpoint, called directly: a paid
				// call that answers, not a write.
				op.Paid, op.Write = true, false
			}
			if r, refused := g.refused(ui); refused {
				op.Refused, op.Paid = r.Fails || r.NoCall, false // nothing is billed
			}
			if _, ok := g.bodylessFails(ui); ok {
				op.Refused, op.Paid = true, false // no host or no To: nothing leaves
			}
			if g.FromErrorTrigger(n) {
				op.ErrorFor = errFor
			}
			local, nLocal := localFactors(g, n, sp)
			att := c.att
			for _, f := range local[:nLocal] {
				att = MulSat(att, f.Value)
			}
			op.Attempts, op.Unbounded, op.Outside = att, c.unb, c.out
			if a.shared != nil {
				if sh := a.shared[int32(a.base[wi]+ui)]; sh != nil && sh.by != nil {
					op.SharedBy = sh.withOwn(local[:nLocal])
				}
			}
			own := a.sc.factors.take(nLocal)
			copy(own, local[:nLocal])
			pend = append(pend, pendingChain{c.link, own})
			factorCount += chainLen(c.link) + nLocal
			fan, fanUnb := c.fan, c.fanUnb
			down := fan
			if root := engineToolOf(g, n); root != nil && !n8nschema.AgentV3ToolErrorsToModel(s.Options.Version()) {
				if k, _ := driveFan(g, root, ConnTool); k > 1 && fan%k == 0 {
					down = fan / k
				}
			}
			if calls, unb, ok := MessageToolCalls(n); ok && g.hasEnabledIn(n, ConnTool) {
				// One more model call after each round of tool calls; a
				// failed call ends the node's try, as a failed page does.
				if unb {
					fanUnb = true
				} else {
					fan = MulSat(fan, calls)
				}
			}
			if p, pu := Pages(n); pu {
				op.DataBound = !fanUnb && PagesFollowCursor(n)
				fanUnb = true
			} else {
				fan = MulSat(fan, p)
			}
			if fanUnb {
				op.CallsUnbounded, op.CallsPerItem = true, 0
			} else {
				op.CallsPerItem = fan
				if down != fan {
					op.CallsWhileDown = down
				}
			}
			s.Operations = append(s.Operations, op)
		}
	}
	factorBlock := make([]Factor, factorCount)
	for i, p := range pend {
		s.Operations[i].Factors = chain(p.l, p.local, &factorBlock)
	}
	// A workflow's operations are a run of s.Operations (workflow then
	// node order): opsAt holds where each run starts.
	s.opsAt = make([]int32, len(a.gs)+1)
	k := 0
	for wi, g := range a.gs {
		s.opsAt[wi] = int32(k)
		for k < len(s.Operations) && s.Operations[k].g == g {
			k++
		}
	}
	s.opsAt[len(a.gs)] = int32(k)
}

// makesOperation reports whether a node is an operation: an enabled node
// that calls out or calls a model.
func makesOperation(n *n8nschema.Node, sp *n8nschema.Spec) bool {
	return !n.Disabled && (sp.Role == n8nschema.RoleExternal || sp.Role == n8nschema.RoleModel)
}

// pendingChain is an operation's context and own factors, waiting for
// its chain to be made.
type pendingChain struct {
	l     *link
	local []Factor
}

// chainLen is how many of a context's factors a chain lists.
func chainLen(l *link) int {
	k := 0
	for p := l; p != nil && k < maxChain; p = p.prev {
		k++
	}
	return k
}

// maxChain bounds the length of a reported chain; products past
// AttemptCap need no more factors to make the point.
const maxChain = 48

// chain lists a context's factors outermost first, then the node's own,
// in the next piece of *block (nil when there are none).
func chain(l *link, local []Factor, block *[]Factor) []Factor {
	k := chainLen(l)
	size := k + len(local)
	if size == 0 {
		return nil
	}
	out := (*block)[:size:size]
	*block = (*block)[size:]
	for i := k - 1; i >= 0; i-- {
		out[i] = l.f
		l = l.prev
	}
	copy(out[k:], local)
	return out
}

// localFactors are the retry layers of the node itself: its node or tool
// retries, and the SDK retries of a model, the first k of fs. retryOnFail
// on a model sub-node has no effect: n8n never runs it in the main loop
// (docs/n8n-behaviour.md#retries-that-do-nothing).
func localFactors(g *Graph, n *n8nschema.Node, sp *n8nschema.Spec) (fs [2]Factor, k int) {
	add := func(kind string, v int) {
		if v > 1 {
			fs[k] = Factor{Kind: kind, Value: v, Node: n.Name, Workflow: g.Workflow.Label(), Pos: n.Pos, Source: g.Workflow.Source}
			k++
		}
	}
	sub := g.IsSubNode(n)
	if sp.Role != n8nschema.RoleModel || !sub {
		att, kind := NodeAttempts(g, n)
		add(kind, att)
	}
	if sp.Role == n8nschema.RoleModel {
		add(KindSDKRetry, SDKAttempts(n, *sp))
	}
	return fs, k
}

// errorCallers are the workflows whose settings.errorWorkflow is w.
func errorCallers(s *Set, w *n8nschema.Workflow) []*n8nschema.Workflow {
	var out []*n8nschema.Workflow
	for _, c := range s.CallsTo(w) {
		if c.Kind == CallErrorWorkflow && !slices.Contains(out, c.From) {
			out = append(out, c.From)
		}
	}
	return out
}

// dispatch follows a sub-workflow call past the router that its fixed
// inputs decide: when the caller (Execute Workflow with inputs defined
// below) passes a literal for a field, and the callee's start leads
// straight (through nodes that neither call out nor branch) to a Switch or
// If whose conditions compare that field with literals, the run goes on
// only from the output those literals select. It returns the nodes where
// the callee's run goes on (none when no output matches), and false when
// the route cannot be decided, so the call goes to the entry as before.
// This is the dispatcher pattern of workflows that call themselves with a
// job type ("initiate", "report") and route on it.
func dispatch(g *Graph, caller, entry *n8nschema.Node) ([]*n8nschema.Node, bool) {
	if caller.Type != n8nschema.TypeExecuteWorkflow {
		return nil, false
	}
	if m := caller.Params().Get("workflowInputs.mappingMode").Str(); m != "" && m != "defineBelow" {
		return nil, false
	}
	inputs := map[string]string{}
	caller.Params().Get("workflowInputs.value").Each(func(k string, v n8nschema.Value) bool {
		if v.Kind() == n8nschema.String && !v.IsExpr() {
			inputs[k] = v.Str()
		}
		return true
	})
	if len(inputs) == 0 || !g.Has(entry) {
		return nil, false
	}
	cur := entry
	for range 8 {
		switch cur.Type {
		case n8nschema.TypeSwitch, n8nschema.TypeIf:
			out, ok := route(cur, inputs)
			if !ok {
				return nil, false
			}
			var next []*n8nschema.Node
			for _, e := range g.OutOfType(cur, ConnMain) {
				if e.Output == out && !slices.Contains(next, e.To) {
					next = append(next, e.To)
				}
			}
			return next, true
		case n8nschema.TypeExecuteWorkflowTrigger, n8nschema.TypeExecutionData, n8nschema.TypeNoOp:
		default:
			return nil, false // it may change the field, call out or branch
		}
		outs := g.OutOfType(cur, ConnMain)
		if len(outs) != 1 {
			return nil, false
		}
		cur = outs[0].To
	}
	return nil, false
}

// routeFieldRE matches a condition's left value that reads one input
// field of the item: {{ $json.jobType }} or {{ $json["jobType"] }}.
var routeFieldRE = lazyregexp.New(`^=\{\{\s*\$json(?:\.(\w+)|\[\s*["'](\w+)["']\s*\])\s*\}\}$`)

// route decides which output of a Switch (rules mode, v3) or If (v2) an
// item with the given literal fields takes: every condition must compare
// one of those fields with a literal string for equality. -1 means no
// output (no rule matches and there is no fallback output).
func route(n *n8nschema.Node, inputs map[string]string) (int, bool) {
	// match evaluates a filter (conditions + combinator) on the inputs.
	match := func(f n8nschema.Value) (bool, bool) {
		cs := f.Get("conditions").Elems()
		if len(cs) == 0 {
			return false, false
		}
		and := f.Get("combinator").Str() != "or"
		res := and
		for _, c := range cs {
			m := routeFieldRE.FindStringSubmatch(c.Get("leftValue").Str())
			op := c.Get("operator")
			if m == nil || op.Get("type").Str() != "string" || op.Get("operation").Str() != "equals" {
				return false, false
			}
			field := m[1] + m[2]
			v, ok := inputs[field]
			right := c.Get("rightValue")
			if !ok || right.Kind() != n8nschema.String || right.IsExpr() {
				return false, false
			}
			eq := v == right.Str()
			if and {
				res = res && eq
			} else {
				res = res || eq
			}
		}
		return res, true
	}
	p := n.Params()
	if n.Type == n8nschema.TypeIf {
		if n.TypeVersion < 2 {
			return 0, false
		}
		ok, known := match(p.Get("conditions"))
		if !known {
			return 0, false
		}
		if ok {
			return 0, true
		}
		return 1, true
	}
	if n.TypeVersion < 3 || (p.Get("mode").Str() != "" && p.Get("mode").Str() != "rules") || p.Get("options.allMatchingOutputs").True() {
		return 0, false
	}
	rules := p.Get("rules.values").Elems()
	if len(rules) == 0 {
		return 0, false
	}
	for i, r := range rules {
		ok, known := match(r.Get("conditions"))
		if !known {
			return 0, false
		}
		if ok {
			return i, true
		}
	}
	// No rule matches: the fallback output, if any (Switch V3
	// options.fallbackOutput: "none", "extra" or an output index;
	// nodes-base/nodes/Switch/V3/SwitchV3.node.ts).
	fb := p.Get("options.fallbackOutput")
	if fb.Str() == "extra" {
		return len(rules), true
	}
	if x, ok := fb.Num(); ok {
		return int(x), true
	}
	return -1, true
}
