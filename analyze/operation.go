package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// Operation is one logical operation: an external call that one item asks
// for, reported on the node that makes the wire call.
type Operation struct {
	Workflow   *n8nschema.Workflow
	Node       *n8nschema.Node
	Type       string // node type
	Dependency string // what is called: a host, a provider ("openai"), a service
	// Attempts is the worst-case wire attempts per logical operation; it
	// means nothing when Unbounded is true.
	Attempts int
	// CallsPerItem is legitimate fan-out (agent iterations, pages, fallback
	// models); 0 with CallsUnbounded means no bound.
	CallsPerItem int
	// CallsWhileDown is how many of CallsPerItem an item still makes
	// while every call fails, when a failure ends the fan-out; 0 when it
	// is CallsPerItem. A page that fails ends the node's try, and a retry
	// starts again at the first page (observed in n8n 2.8.4,
	// testdata/engine/pagination-retry.json: 3 tries, 3 requests); a tool
	// of an Agent v3 that fails ends the execution on releases before
	// 2.41 (n8nschema.AgentV3ToolErrorsToModel).
	CallsWhileDown int
	// FirstFailureEndsTry is true for a main node that runs its items one
	// after another and throws at the first that fails
	// (n8nschema.StopsAtFirstFailedItem): while its dependency is down one
	// execution sends one item's calls per try, whatever the items.
	FirstFailureEndsTry bool
	// Factors is the chain that multiplies to Attempts, outermost first.
	Factors []Factor
	// Outside is the call from another workflow whose runs multiply
	// CallsPerItem (the rest of the figure is the workflow's own), nil
	// when no caller repeats the workflow's run per item: an agent that
	// calls it as a tool. The factors of Factors from other workflows
	// (Factor.OutsideOf) are the attempts callers add.
	Outside *Outside
	// SharedBy are the roots that each call this sub-node, with their
	// calls per item, when CallsPerItem sums the calls of two or more
	// (a model wired to two chains that run one after the other; n8n
	// gives each root its own supplyData of it); nil otherwise. Its roots
	// may try their calls a different number of times:
	// WireAttemptsPerItem sums each root's calls × its attempts.
	SharedBy []RootCalls
	// Spec is the node's catalog entry, shared: operations of one node
	// type point at one entry once the set is released.
	Spec *n8nschema.Spec
	// ErrorFor are the workflows whose settings.errorWorkflow starts the
	// run this call is part of (it runs from an Error Trigger).
	ErrorFor []*n8nschema.Workflow

	// The flags sit together (a set keeps one Operation per external
	// call, past its release).
	Paid  bool
	Write bool
	// BlankTarget is true when the resource the node acts on is named by
	// a template's blank ("YOUR_SHEET_ID": n8nschema.BlankTarget): every
	// call fails as exported, as one to a placeholder host does.
	BlankTarget bool
	// Billing is who pays for a paid call: the owner's key, n8n's free
	// credits or the instance's Gateway credits (n8nschema.BillingOf).
	// Filled by FillSpend.
	Billing n8nschema.Billing
	// Refused is true when the call fails on every item as configured:
	// n8n, or the provider it calls, refuses it before anything is billed
	// (n8nschema.RefusedCall with Fails), or when the node sends no request
	// at all, its code having no branch for its resource or operation
	// (RefusedCall with NoCall). Such a call is not paid, and not live.
	Refused        bool
	Unbounded      bool // Attempts has no bound
	CallsUnbounded bool // CallsPerItem has no bound
	// DataBound is true when CallsUnbounded comes only from the node's
	// pagination following the response's next-page cursor: the data
	// ends it, when the API stops sending a next page (PagesFollowCursor).
	DataBound bool
	// ErrorPath is true when the call runs only after something failed: it
	// sits behind an error output or in an error workflow (RS304).
	ErrorPath bool
	// Live is true when the node runs and makes its call: it is enabled,
	// a trigger reaches it (Graph.Reachable), and its call is not Refused.
	// Filled by Build, so that rules on a released set need no graph.
	Live bool

	// Spend of a paid call, filled by Set.Spend (spend.go) after Amplify.
	Model           string  // the model called, "" when unknown
	MaxOutputTokens int     // output tokens one call may bill; 0 unknown
	SpendPerItemUSD float64 // worst case per item; meaningless when SpendUnbounded or !PriceKnown
	OutputCapped    bool    // MaxOutputTokens is a cap the node sets, not the model's ceiling
	PriceKnown      bool    // the model's price is in the table or in config
	SpendUnbounded  bool    // attempts or calls have no bound

	g *Graph // the graph of the node, for Consequence
}

// Consequence is what the write leaves when it runs once more
// (ConsequenceOf, read once per node of its graph); NoEffect for reads.
// It is read when a rule asks, not by Build: most operations are never
// asked, and reading a write's endpoint and recipients is most of what
// Build would spend on them.
func (op *Operation) Consequence() Consequence {
	if !op.Write || op.g == nil {
		return NoEffect
	}
	i, ok := op.g.index(op.Node)
	if !ok {
		return NoEffect
	}
	return op.g.effect(i).Consequence
}

// Factor is one layer of the attempt chain, with the node that causes it.
type Factor struct {
	Kind      string // one of the Kind* constants (amplify.go)
	Value     int    // meaningless when Unbounded
	Unbounded bool
	Node      string
	Workflow  string
	Pos       n8nschema.Pos
	Source    *n8nschema.Source
	// Via is a second node the factor goes through: the webhook or trigger
	// a self-trigger re-starts, the loop head a loop returns to.
	Via string
	// Gate names, on a self-trigger factor, the node that routes items by
	// their content (an If, a Switch, a Filter) behind which the operation
	// sits in the cycle: the restart repeats it only if the restarted runs
	// take that way (amplify.go restartGates); "" when every trip runs it.
	Gate string
}

// Outside is a call from another workflow that runs an operation's
// workflow more than once per item: its node, the root that drives that
// node as a tool, and how often. Calls per item multiply across a call
// (amplify.go enter), so the figure of an operation in a workflow that an
// agent of another workflow calls as its tool counts the agent's calls;
// this says whose they are.
type Outside struct {
	// Call starts the workflow: its Node and From are the caller.
	Call *Call
	// Root is the agent (or other root) that runs Call.Node as its tool
	// and so may call it several times per item; nil when Call.Node is a
	// main node, which runs as often as its own workflow is run (Prev).
	Root *n8nschema.Node
	// Runs is how many times Call.Node may run per item its own
	// workflow's run gets; Unbounded when that has no bound.
	Runs      int
	Unbounded bool
	// Total is how many times the workflow may run per item of the
	// outermost caller's run: Runs times Prev's Total.
	Total int
	// Prev is what runs Call.From more than once per item, nil when
	// nothing does.
	Prev *Outside
}

// Outermost is the last of the chain: the caller whose run's items the
// operation's calls per item count.
func (o *Outside) Outermost() *Outside {
	for o.Prev != nil {
		o = o.Prev
	}
	return o
}

// OutsideOf reports whether the factor comes from a workflow other than
// w: a caller that retries the run, a caller's loop or agent.
func (f *Factor) OutsideOf(w *n8nschema.Workflow) bool {
	return f.Source != w.Source || f.Workflow != w.Label()
}

// Retried reports whether some layer of the chain sends the operation
// more than once.
func (op *Operation) Retried() bool { return op.Unbounded || op.Attempts > 1 }

// NodeRetried reports whether n8n's node (or caller, root, tool) retry
// multiplies an operation with these factors: the fixed-wait layer, not
// an SDK's backoff.
func NodeRetried(factors []Factor) bool {
	for _, f := range factors {
		switch f.Kind {
		case KindNodeRetry, KindRootRetry, KindToolRetry, KindCallerRetry:
			if f.Value > 1 {
				return true
			}
		}
	}
	return false
}

// OwnRetries is how many times n8n's own retry runs the operation's node
// (main loop or tool call; 1 when it does not retry): the fixed-wait layer
// that re-sends every item of the batch. It reads the attempt chain, so a
// retryOnFail that n8n ignores (on a model sub-node) counts for nothing.
func (op *Operation) OwnRetries() int {
	for _, f := range op.Factors {
		if (f.Kind == KindNodeRetry || f.Kind == KindToolRetry) && f.Node == op.Node.Name &&
			f.Workflow == op.Workflow.Label() && !f.Unbounded {
			return max(f.Value, 1)
		}
	}
	return 1
}

// AttemptTimeoutMS is the per-attempt timeout of an operation: its
// timeout parameter, else the runtime default of its node type (HTTP
// Request 300000 ms, HttpRequestV3.node.ts L387–391; OpenAI-family models
// 60000 ms, LmChatOpenAi.node.ts).
func AttemptTimeoutMS(op *Operation) (int, bool) {
	param, def := op.Spec.TimeoutParam, op.Spec.TimeoutDefaultMS
	if op.Node.Type == openAIApp && openAIAssistantMessage(op.Node) {
		param, def = "options.timeout", 10000
	}
	if param == "" {
		return 0, false
	}
	if v, ok := op.Node.Param(param); ok {
		if f, ok := v.Num(); ok && f > 0 {
			return int(f), true
		}
	}
	return def, def > 0
}

// openAIApp is the OpenAI app node. Of its operations only v1's "Message
// an assistant" defines a request timeout: options.timeout, 10000 ms when
// absent (vendors/OpenAi/v1/actions/assistant/message.operation.js L116,
// L164–168, L215). The others send through n8n's request helper with none
// (vendors/OpenAi/transport/index.js), and a stored options.timeout they
// do not define never reaches them: the Workflow constructor rebuilds each
// collection from the options the node defines
// (n8n-workflow/dist/cjs/workflow.js L86, node-helpers.js getNodeParameters L765–775).
const openAIApp = "@n8n/n8n-nodes-langchain.openAi"

// openAIAssistantMessage reports the OpenAI app node's v1 assistant
// message operation.
func openAIAssistantMessage(n *n8nschema.Node) bool {
	if n.TypeVersion >= 2 || n.Params().Get("resource").Str() != "assistant" {
		return false
	}
	op := n.Params().Get("operation").Str()
	if op == "" {
		d, _ := n.Describe()
		op = d.DefaultOperation("assistant")
	}
	return op == "message"
}

// TimeoutDropped reports a node that stores options.timeout where n8n
// reads none: the OpenAI app node outside its assistant message (see
// openAIApp). The owner set a bound that the call never gets.
func TimeoutDropped(op *Operation) bool {
	if op.Node.Type != openAIApp {
		return false
	}
	if _, ok := op.Node.Param("options.timeout"); !ok {
		return false
	}
	_, bounded := AttemptTimeoutMS(op)
	return !bounded
}
