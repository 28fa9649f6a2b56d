package analyze

import (
	"slices"
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/internal/pool"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Options are the assumptions of one analysis run.
type Options struct {
	// MaxAttempts is the attempt budget per logical operation (RS101).
	MaxAttempts int
	// Items is how many items one execution carries, for per-execution figures.
	Items int
	// Workers and Concurrency describe a queue-mode fleet (in-flight ceilings).
	Workers     int
	Concurrency int
	// BaseURLs are the instance's own URLs, to recognise self-trigger webhooks.
	BaseURLs []string
	// Prices override the catalog's model prices, by model name.
	Prices map[string]ModelPrice
	// SpendCaps are provider spend limits declared in config (RS301, RS303).
	SpendCaps []SpendCap
	// MaxInFlight bounds concurrent requests per dependency host (RS505).
	MaxInFlight map[string]int
	// N8nVersion is the release the workflows run on, for facts that
	// differ between releases; the zero value is the newest known.
	N8nVersion n8nschema.Version
}

// Version is the n8n release the set's facts are read for.
func (o *Options) Version() n8nschema.Version {
	if o.N8nVersion == (n8nschema.Version{}) {
		return n8nschema.NewestKnown()
	}
	return o.N8nVersion
}

// ModelPrice is what a model costs in USD per million tokens.
type ModelPrice struct {
	InputPerM  float64
	OutputPerM float64
}

// SpendCap is a declared hard limit on spend, e.g. a provider's daily cap.
type SpendCap struct {
	Provider string  // "openai", "anthropic", … or "*" for any
	USD      float64 // the limit
	Period   string  // "day" or "execution"
}

// DefaultOptions are the figures used when nothing is configured.
func DefaultOptions() Options {
	return Options{MaxAttempts: 10, Items: 1, Workers: 1, Concurrency: 10}
}

// Set is one analysis: every file and workflow given in one run, and what
// the analysis built from them.
type Set struct {
	Files     []*n8nschema.File
	Workflows []*n8nschema.Workflow
	Options   Options
	// Operations are the logical operations of every workflow, in workflow
	// then node order; filled by Amplify.
	Operations []*Operation
	// Calls is the call graph: every Execute Workflow, Call Workflow Tool,
	// webhook call, n8n API node and error workflow of the set, in
	// workflow then node order, the error workflow last.
	Calls []*Call

	graphs    map[*n8nschema.Workflow]*Graph
	mems      []*graphMem // what Build's graphs live in, till Release
	opsOf     map[*n8nschema.Workflow][]*Operation
	callsFrom map[*n8nschema.Workflow][]*Call
	callsTo   map[*n8nschema.Workflow][]*Call

	sharedMu sync.Mutex
	shared   map[any]*sharedValue
}

type sharedValue struct {
	once sync.Once
	v    any
}

// Shared returns what build computes from the whole set, computing it once
// per key however many passes ask. A rule that summarises the set (RS505
// groups every operation by dependency) would otherwise redo the same work
// for each workflow, which is quadratic in the size of the set. build must
// depend on the set alone, never on the pass that asks first. Safe for
// concurrent use.
func (s *Set) Shared(key any, build func() any) any {
	s.sharedMu.Lock()
	if s.shared == nil {
		s.shared = map[any]*sharedValue{}
	}
	e := s.shared[key]
	if e == nil {
		e = &sharedValue{}
		s.shared[key] = e
	}
	s.sharedMu.Unlock()
	e.once.Do(func() { e.v = build() })
	return e.v
}

// Graph returns the node graph of a workflow of the set.
func (s *Set) Graph(w *n8nschema.Workflow) *Graph {
	g := s.graphs[w]
	if g == nil {
		if w.Released() {
			panic("analyze: graph of a released workflow (Set.Release)")
		}
		if s.graphs == nil {
			s.graphs = map[*n8nschema.Workflow]*Graph{}
		}
		g = BuildGraph(w)
		s.graphs[w] = g
	}
	return g
}

// CallsFrom returns the calls a workflow makes, in the set's order.
func (s *Set) CallsFrom(w *n8nschema.Workflow) []*Call {
	if s.callsFrom == nil {
		return s.scanCalls(func(c *Call) bool { return c.From == w })
	}
	return s.callsFrom[w]
}

// CallsTo returns the resolved calls that start a workflow, in the set's
// order.
func (s *Set) CallsTo(w *n8nschema.Workflow) []*Call {
	if s.callsTo == nil {
		return s.scanCalls(func(c *Call) bool { return c.To == w && w != nil })
	}
	return s.callsTo[w]
}

// scanCalls returns the calls that match, for a set without an index of
// its calls (indexCalls): all of them without a copy when all match (a
// group of one workflow).
func (s *Set) scanCalls(match func(*Call) bool) []*Call {
	n := 0
	for _, c := range s.Calls {
		if match(c) {
			n++
		}
	}
	switch n {
	case 0:
		return nil
	case len(s.Calls):
		return s.Calls[:n:n]
	}
	out := make([]*Call, 0, n)
	for _, c := range s.Calls {
		if match(c) {
			out = append(out, c)
		}
	}
	return out
}

// ErrorWorkflowOf returns the workflow named by w's settings.errorWorkflow
// when it is in the set, else nil.
func (s *Set) ErrorWorkflowOf(w *n8nschema.Workflow) *n8nschema.Workflow {
	for _, c := range s.CallsFrom(w) {
		if c.Kind == CallErrorWorkflow {
			return c.To
		}
	}
	return nil
}

// scanWorkflows is the most workflows a set has no index of operations
// for: OperationsOf scans them instead. Most sets of a two-pass audit are
// one workflow's, and their indexes were ~10,000 small maps for the
// collector to mark on the big set of docs/performance.md.
const scanWorkflows = 8

// opsByWorkflow indexes operations by workflow; the operations of one
// workflow are adjacent (Amplify makes them workflow by workflow), so each
// entry is a piece of ops, not an array of its own.
func opsByWorkflow(ops []*Operation) map[*n8nschema.Workflow][]*Operation {
	if len(ops) == 0 {
		return nil
	}
	runs := 1
	for i := 1; i < len(ops); i++ {
		if ops[i].Workflow != ops[i-1].Workflow {
			runs++
		}
	}
	m := make(map[*n8nschema.Workflow][]*Operation, runs)
	for i := 0; i < len(ops); {
		w, j := ops[i].Workflow, i+1
		for j < len(ops) && ops[j].Workflow == w {
			j++
		}
		if prev, ok := m[w]; ok {
			m[w] = append(prev[:len(prev):len(prev)], ops[i:j]...) // not adjacent after all: a copy
		} else {
			m[w] = ops[i:j:j]
		}
		i = j
	}
	return m
}

// OperationsOf returns the operations of one workflow.
func (s *Set) OperationsOf(w *n8nschema.Workflow) []*Operation {
	if s.opsOf != nil {
		return s.opsOf[w]
	}
	// A set without the index has a few workflows (scanWorkflows): scan.
	// A workflow's operations are adjacent (Amplify makes them workflow
	// by workflow), so they are most often a piece of Operations.
	ops := s.Operations
	i := slices.IndexFunc(ops, func(op *Operation) bool { return op.Workflow == w })
	if i < 0 {
		return nil
	}
	j := i + 1
	for j < len(ops) && ops[j].Workflow == w {
		j++
	}
	if !slices.ContainsFunc(ops[j:], func(op *Operation) bool { return op.Workflow == w }) {
		return ops[i:j:j]
	}
	out := slices.Clone(ops[i:j])
	for _, op := range ops[j:] {
		if op.Workflow == w {
			out = append(out, op)
		}
	}
	return out
}

// Build assembles the analysis set from parsed files: the graph of every
// workflow, the call graph across the set, and the operations (Amplify).
func Build(files []*n8nschema.File, opts Options) *Set {
	s := &Set{Files: files, Options: opts}
	for _, f := range files {
		s.Workflows = append(s.Workflows, f.Workflows...)
	}
	// Graphs are independent of each other: build them on every core.
	graphs := make([]*Graph, len(s.Workflows))
	s.mems = make([]*graphMem, len(s.Workflows))
	pool.Each(len(graphs), func(i int) {
		s.mems[i] = getGraphMem()
		graphs[i] = buildGraph(s.Workflows[i], s.mems[i])
	})
	s.graphs = make(map[*n8nschema.Workflow]*Graph, len(s.Workflows))
	for i, w := range s.Workflows {
		s.graphs[w] = graphs[i]
	}
	buildCalls(s)
	s.indexCalls()
	Amplify(s)
	for _, op := range s.Operations {
		g := s.Graph(op.Workflow)
		op.Live = !op.Node.Disabled && g.Reachable(op.Node) && !idleModel(g, op.Node)
	}
	s.Spend()
	return s
}

// idleModel reports whether n is a model sub-node (a chat model, a
// language model, an embeddings model: what a root node calls through an
// ai_languageModel or ai_embedding connection) that no root node uses: one
// wired into the main flow is never called, since n8n runs a sub-node only
// when a root asks it for its model.
func idleModel(g *Graph, n *n8nschema.Node) bool {
	pkg, name, _ := strings.Cut(n.Type, ".")
	if pkg != "@n8n/n8n-nodes-langchain" || !strings.HasPrefix(name, "lm") && !strings.HasPrefix(name, "embeddings") {
		return false
	}
	return len(g.Roots(n)) == 0
}

// indexCalls maps each workflow to the calls it makes and those that
// start it, in a set of more than scanWorkflows workflows: CallsFrom and
// CallsTo scan the calls of a smaller one. Most groups of a two-pass audit
// are one workflow's, and their two maps, kept past the release, were
// part-empty spans among the audit's garbage (docs/performance.md).
func (s *Set) indexCalls() {
	s.callsFrom, s.callsTo = nil, nil
	if len(s.Calls) > 0 && len(s.Workflows) > scanWorkflows {
		s.callsFrom, s.callsTo = callsByWorkflow(s.Calls)
	}
}

// callsByWorkflow maps each workflow to the calls it makes and those that
// start it, in the order of calls.
func callsByWorkflow(calls []*Call) (from, to map[*n8nschema.Workflow][]*Call) {
	from = map[*n8nschema.Workflow][]*Call{}
	to = map[*n8nschema.Workflow][]*Call{}
	for _, c := range calls {
		from[c.From] = append(from[c.From], c)
		if c.To != nil {
			to[c.To] = append(to[c.To], c)
		}
	}
	return from, to
}
