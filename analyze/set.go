package analyze

import (
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

	// By a workflow's place in Workflows (at): its graph, where its run
	// of Operations starts (one more: the end), the calls it makes and
	// those that start it. Most sets hold one workflow: slices, not maps.
	graphs    []*Graph
	opsAt     []int32
	callsFrom [][]*Call
	callsTo   [][]*Call
	// places is each workflow's place in a set of more than scanPlaces
	// workflows (a smaller set is scanned); others the graphs Graph built
	// for workflows outside a set made by hand.
	places map[*n8nschema.Workflow]int32
	others map[*n8nschema.Workflow]*Graph
	// opOf maps a node to its operation, made when first asked: few
	// sets ask (operationOf).
	opOfOnce sync.Once
	opOf     map[*n8nschema.Node]*Operation
	// paces memoises namerPace (Set.pace).
	paces map[*n8nschema.Workflow][3]int
	// inline is true for the set readInline builds of one inline
	// sub-workflow: its own inline sub-workflows are not read.
	inline bool
}

// scanPlaces is the most workflows a set finds a workflow's place among
// by a scan.
const scanPlaces = 8

// at is w's place in Workflows, -1 when it is not the set's.
func (s *Set) at(w *n8nschema.Workflow) int {
	if s.places != nil {
		if i, ok := s.places[w]; ok {
			return int(i)
		}
		return -1
	}
	for i, x := range s.Workflows {
		if x == w {
			return i
		}
	}
	return -1
}

// Graph returns the node graph of a workflow of the set.
func (s *Set) Graph(w *n8nschema.Workflow) *Graph {
	if i := s.at(w); i >= 0 && i < len(s.graphs) && s.graphs[i] != nil {
		return s.graphs[i]
	}
	return s.buildOne(w)
}

// buildOne is Graph of a workflow of a set made by hand (not by Build),
// or of one outside the set.
func (s *Set) buildOne(w *n8nschema.Workflow) *Graph {
	i := s.at(w)
	if i < 0 {
		if g := s.others[w]; g != nil {
			return g
		}
	}
	g := buildGraph(w, s.Options.Version())
	switch {
	case i < 0:
		if s.others == nil {
			s.others = map[*n8nschema.Workflow]*Graph{}
		}
		s.others[w] = g
	default:
		if len(s.graphs) < len(s.Workflows) {
			s.graphs = append(s.graphs, make([]*Graph, len(s.Workflows)-len(s.graphs))...)
		}
		s.graphs[i] = g
	}
	return g
}

// CallsFrom returns the calls a workflow makes, in the set's order.
func (s *Set) CallsFrom(w *n8nschema.Workflow) []*Call {
	if i := s.at(w); i >= 0 && i < len(s.callsFrom) {
		return s.callsFrom[i]
	}
	return nil
}

// CallsTo returns the resolved calls that start a workflow, in the set's
// order.
func (s *Set) CallsTo(w *n8nschema.Workflow) []*Call {
	if i := s.at(w); i >= 0 && i < len(s.callsTo) {
		return s.callsTo[i]
	}
	return nil
}

// ErrorWorkflowByName returns the error workflow call of w when its
// settings.errorWorkflow is a name, not an id: n8n runs no error workflow
// for w, nor w's own Error Trigger (Call.ByName). Nil otherwise.
func (s *Set) ErrorWorkflowByName(w *n8nschema.Workflow) *Call {
	for _, c := range s.CallsFrom(w) {
		if c.Kind == CallErrorWorkflow && c.ByName {
			return c
		}
	}
	return nil
}

// HasErrorWorkflow reports whether n8n may start an error workflow when
// an execution of w fails: settings.errorWorkflow is set and is not a
// name (an id outside the set may still be one).
func (s *Set) HasErrorWorkflow(w *n8nschema.Workflow) bool {
	return w.Settings.ErrorWorkflow != "" && s.ErrorWorkflowByName(w) == nil
}

// OperationsOf returns the operations of one workflow.
func (s *Set) OperationsOf(w *n8nschema.Workflow) []*Operation {
	if s.opsAt == nil { // a set made by hand, not by Build
		var out []*Operation
		for _, op := range s.Operations {
			if op.Workflow == w {
				out = append(out, op)
			}
		}
		return out
	}
	i := s.at(w)
	if i < 0 || i+1 >= len(s.opsAt) {
		return nil
	}
	// A run of s.Operations, not a copy, capped so that an append copies.
	from, to := s.opsAt[i], s.opsAt[i+1]
	if from == to {
		return nil
	}
	return s.Operations[from:to:to]
}

// operationOf returns the operation a node makes, nil for none.
func (s *Set) operationOf(n *n8nschema.Node) *Operation {
	if s.opsAt == nil { // a set made by hand, not by Build
		for _, op := range s.Operations {
			if op.Node == n {
				return op
			}
		}
		return nil
	}
	s.opOfOnce.Do(func() {
		s.opOf = make(map[*n8nschema.Node]*Operation, len(s.Operations))
		for _, op := range s.Operations {
			s.opOf[op.Node] = op
		}
	})
	return s.opOf[n]
}

// Build assembles the analysis set from parsed files: the graph of every
// workflow, the call graph across the set, and the operations (Amplify).
func Build(files []*n8nschema.File, opts Options) *Set {
	return build(&Set{Files: files, Options: opts})
}

func build(s *Set) *Set {
	files, opts := s.Files, s.Options
	for _, f := range files {
		s.Workflows = append(s.Workflows, f.Workflows...)
	}
	// Graphs are independent of each other: build them on every core.
	graphs := make([]*Graph, len(s.Workflows))
	pool.Each(len(graphs), func(i int) { graphs[i] = buildGraph(s.Workflows[i], opts.Version()) })
	s.graphs = graphs
	if len(s.Workflows) > scanPlaces {
		s.places = make(map[*n8nschema.Workflow]int32, len(s.Workflows))
		for i, w := range s.Workflows {
			if _, ok := s.places[w]; !ok {
				s.places[w] = int32(i)
			}
		}
	}
	buildCalls(s)
	s.indexCalls()
	markIdleErrorTriggers(s)
	Amplify(s)
	for _, op := range s.Operations {
		g := s.Graph(op.Workflow)
		op.Live = !op.Node.Disabled && g.Reachable(op.Node) && !idleModel(g, op.Node) && !op.Refused
	}
	s.Spend()
	return s
}

// idleModel reports whether n is a model sub-node (a chat model, a
// language model, an embeddings model: what a root node calls through an
// ai_languageModel or ai_embedding connection) that no root node uses: one
// wired into the main flow is never called, since n8n runs a sub-node only
// when a root asks it for its model.
//
// So is a model whose every consumer is a Structured Output Parser without
// auto-fixing: the parser takes a model input only when autoFix is on (its
// inputs are built from it), and calls it only then, to fix an answer that
// does not parse (nodes-langchain output_parser/OutputParserStructured/
// OutputParserStructured.node.js L41, L186-194).
func idleModel(g *Graph, n *n8nschema.Node) bool {
	pkg, name, _ := strings.Cut(n.Type, ".")
	if pkg != "@n8n/n8n-nodes-langchain" || !strings.HasPrefix(name, "lm") && !strings.HasPrefix(name, "embeddings") {
		return false
	}
	if len(g.Roots(n)) == 0 {
		return true
	}
	uses := 0
	for _, e := range g.Out(n) {
		if e.Type != ConnModel || e.To.Disabled {
			continue
		}
		uses++
		if e.To.Type != "@n8n/n8n-nodes-langchain.outputParserStructured" || e.To.Params().Get("autoFix").True() || e.To.Params().Get("autoFix").IsExpr() {
			return false
		}
	}
	return uses > 0
}

// indexCalls lists for each workflow the calls it makes and those that
// start it, in the order of the set's calls.
func (s *Set) indexCalls() {
	s.callsFrom, s.callsTo = nil, nil
	for _, c := range s.Calls {
		if i := s.at(c.From); i >= 0 {
			if s.callsFrom == nil {
				s.callsFrom = make([][]*Call, len(s.Workflows))
			}
			s.callsFrom[i] = append(s.callsFrom[i], c)
		}
		if i := s.at(c.To); c.To != nil && i >= 0 {
			if s.callsTo == nil {
				s.callsTo = make([][]*Call, len(s.Workflows))
			}
			s.callsTo[i] = append(s.callsTo[i], c)
		}
	}
}
