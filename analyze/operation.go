package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// Operation is one logical operation: an external call that one item asks
// for, reported on the node that makes the wire call.
type Operation struct {
	Workflow   *n8nschema.Workflow
	Node       *n8nschema.Node
	Type       string // node type
	Dependency string // what is called: a host, a provider ("openai"), a service
	Paid       bool
	Write      bool
	// Attempts is the worst-case wire attempts per logical operation; it
	// means nothing when Unbounded is true.
	Attempts  int
	Unbounded bool
	// CallsPerItem is legitimate fan-out (agent iterations, pages, fallback
	// models); 0 with CallsUnbounded means no bound.
	CallsPerItem   int
	CallsUnbounded bool
	// Factors is the chain that multiplies to Attempts, outermost first.
	Factors []Factor
}

// Factor is one layer of the attempt chain, with the node that causes it.
type Factor struct {
	Kind      string // "node-retry", "sdk-retry", "root-retry", "sub-workflow", "error-workflow", "self-trigger", "loop", …
	Value     int    // meaningless when Unbounded
	Unbounded bool
	Node      string
	Workflow  string
	Pos       n8nschema.Pos
	Source    *n8nschema.Source
}
