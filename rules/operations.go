package rules

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers about operations and their attempt chains, shared by the rules
// about what retries break (RS2xx–RS5xx).

// opsByNode indexes a list of operations by node, for opsIn: a node
// makes one operation at most (Set.OperationOf), so each maps to its
// index in the list.
type opsByNode map[*n8nschema.Node]int

// indexOps indexes ops by node.
func indexOps(ops []*analyze.Operation) opsByNode {
	x := make(opsByNode, len(ops))
	for i, op := range ops {
		x[op.Node] = i
	}
	return x
}

// has reports whether node n makes one of the operations.
func (x opsByNode) has(n *n8nschema.Node) bool {
	_, ok := x[n]
	return ok
}

// opsIn returns the operations of ops (indexed by x) whose node is in
// reach, in the order of ops. It reads the nodes of reach, not every
// operation: the rules ask it for each trigger, and many triggers that
// each reach a call or two stay linear.
func opsIn(ops []*analyze.Operation, x opsByNode, reach analyze.Reach) []*analyze.Operation {
	var at []int
	for _, n := range reach.Nodes() {
		if i, ok := x[n]; ok {
			at = append(at, i)
		}
	}
	slices.Sort(at)
	out := make([]*analyze.Operation, len(at))
	for k, i := range at {
		out[k] = ops[i]
	}
	return out
}

// liveOps returns the operations of the pass's workflow whose node runs.
func liveOps(pass *analyze.Pass) []*analyze.Operation {
	ops := pass.Set.OperationsOf(pass.Workflow)
	out := make([]*analyze.Operation, 0, len(ops))
	for _, op := range ops {
		if op.Live {
			out = append(out, op)
		}
	}
	return out
}

// eachLiveOp yields liveOps without building the list, for a rule that
// only reads it once in order.
func eachLiveOp(pass *analyze.Pass) iter.Seq[*analyze.Operation] {
	return func(yield func(*analyze.Operation) bool) {
		for _, op := range pass.Set.OperationsOf(pass.Workflow) {
			if op.Live && !yield(op) {
				return
			}
		}
	}
}

// madeWrite reports an operation that writes, to a resource it names. A
// write to a resource a template's blank names ("YOUR_SHEET_ID",
// analyze.Operation.BlankTarget) fails on every call as exported, as
// RS402 and RS403 read it (analyze.CannotCall): nothing is written, so
// nothing is repeated, and the rules read it once the owner fills it in.
func madeWrite(op *analyze.Operation) bool { return op.Write && !op.BlankTarget }

// factorOf returns the first factor of a kind in the chain.
func factorOf(op *analyze.Operation, kinds ...string) (analyze.Factor, bool) {
	for _, f := range op.Factors {
		for _, k := range kinds {
			if f.Kind == k {
				return f, true
			}
		}
	}
	return analyze.Factor{}, false
}

// unboundedBy names what makes an operation unbounded:
// `a self-trigger through "Restart"`, `an unguarded loop through "Retry"`.
func unboundedBy(op *analyze.Operation) string {
	// A sure cause first: a restart behind a gate only may repeat op.
	fs := op.Factors
	for i, f := range fs {
		if f.Unbounded && f.Gate == "" {
			fs = fs[i:]
			break
		}
	}
	for _, f := range fs {
		if !f.Unbounded {
			continue
		}
		switch f.Kind {
		case analyze.KindSelfTrigger:
			if f.Gate != "" {
				return fmt.Sprintf("the workflow re-starts itself through %q, %s", f.Node, gateClause(f.Gate))
			}
			return fmt.Sprintf("the workflow re-starts itself through %q", f.Node)
		case analyze.KindLoop:
			return fmt.Sprintf("an unguarded loop back through %q", f.Node)
		}
		return fmt.Sprintf("%s through %q", strings.ReplaceAll(f.Kind, "-", " "), f.Node)
	}
	if op.CallsUnbounded {
		if _, unb, ok := analyze.MessageToolCalls(op.Node); ok && unb {
			why := "its options.maxToolsIterations is 0, no limit"
			if op.Node.Type == n8nschema.TypeOpenAI && op.Node.TypeVersion < 1.5 {
				why = "the OpenAI node reads no limit before version 1.5"
			}
			return "it calls the model again after each round of tool calls the model asks for, with no limit on the rounds (" + why + ")"
		}
		return "its calls per item have no bound"
	}
	return "its attempts have no bound"
}

// restartGate is the gate of op's restart when all that leaves op's
// attempts without a bound is a self-restart that reaches op only through
// a node routing items by their content (analyze.Factor.Gate): the
// restarted runs repeat op only if they take that way, which the data
// decides (a Slack bot's own post may fail the test a person's message
// passes). "" otherwise: op is bounded, or something repeats it surely.
func restartGate(op *analyze.Operation) string {
	if !op.Unbounded {
		return ""
	}
	gate := ""
	for _, f := range op.Factors {
		if !f.Unbounded {
			continue
		}
		if f.Kind != analyze.KindSelfTrigger || f.Gate == "" {
			return ""
		}
		if gate == "" {
			gate = f.Gate
		}
	}
	return gate
}

// gateClause is the condition a gated restart repeats an operation on.
func gateClause(gate string) string {
	return fmt.Sprintf("if %q sends the restarted runs this way", gate)
}

// crossExecution reports whether an operation's unbounded factor spans
// executions (a self-trigger or error-workflow cycle), which a workflow's
// executionTimeout cannot stop: every trip is a new execution.
func crossExecution(op *analyze.Operation) bool {
	for _, f := range op.Factors {
		if f.Unbounded && (f.Kind == analyze.KindSelfTrigger || f.Kind == analyze.KindErrorWorkflow) {
			return true
		}
	}
	return false
}

// boundedPart is the product of an operation's bounded factors: what one
// trip through an unbounded loop costs in attempts.
func boundedPart(op *analyze.Operation) int {
	k := 1
	for _, f := range op.Factors {
		if !f.Unbounded && f.Value > 0 {
			k *= f.Value
		}
	}
	return k
}

// restartsPerItem reports whether a call that closes a self-trigger starts
// one run per item reaching its node: an HTTP Request to the workflow's own
// webhook sends one request per item, an Execute Workflow in mode "each"
// one sub-execution per item (unless executeOnce). Each failed item then
// starts its own run, and the runs multiply on every trip: n8n 2.8.4 ran
// 1, 3, 9, 27 … executions with three failed items (docs/n8n-facts.md).
func restartsPerItem(c *analyze.Call) bool {
	if c == nil || c.Node == nil || c.Node.ExecuteOnce {
		return false
	}
	switch c.Kind {
	case analyze.CallWebhook:
		return true
	case analyze.CallExecute:
		return c.Each
	}
	return false
}

// selfTriggerCall is the call of op's workflow that closes the
// self-trigger op runs on (nil when there is none, or it is in another
// workflow of the cycle).
func selfTriggerCall(s *analyze.Set, op *analyze.Operation) *analyze.Call {
	for _, f := range op.Factors {
		if f.Kind != analyze.KindSelfTrigger || !f.Unbounded {
			continue
		}
		for _, c := range s.CallsFrom(op.Workflow) {
			if c.Cycle && c.Node != nil && c.Node.Name == f.Node {
				return c
			}
		}
	}
	return nil
}

// perItemGrowth is what a message adds when restarts go per item: per
// failed item when the restart hangs on an error path.
func perItemGrowth(s *analyze.Set, c *analyze.Call) string {
	if s.Graph(c.From).OnErrorPath(c.Node) {
		return "one restart per failed item, so the executions multiply on every trip (1, 3, 9, 27 … with 3 failed items)"
	}
	return "one restart per item, so the executions multiply on every trip (1, 3, 9, 27 … with 3 items)"
}

// outsideCause is what of an operation's figures comes from the
// workflows that call its own (analyze.Operation.Outside, and the factors
// of its chain from other workflows), worded once for every rule that
// prints calls, attempts or spend: a figure that counts a caller's agent
// or retries names that caller, in the message and as related places.
type outsideCause struct {
	// calls says why the calls per item count a caller's runs, "" when
	// they are the workflow's own.
	calls string
	// attempts says which callers' retries or loops the attempts count.
	attempts string
	// perItem is "per item", or of what when a caller's agent counts:
	// "per item the calling agent gets".
	perItem string
	// callsAt and attemptsAt are the callers as related places.
	callsAt, attemptsAt []analyze.Related
}

// related are the places of both reasons.
func (c outsideCause) related() []analyze.Related {
	if len(c.attemptsAt) == 0 {
		return c.callsAt
	}
	return append(slices.Clip(c.callsAt), c.attemptsAt...)
}

// paren is " (why)", or "" when the figures are the workflow's own.
func paren(why string) string {
	if why == "" {
		return ""
	}
	return " (" + why + ")"
}

// why is both reasons, "" when the figures are the workflow's own.
func (c outsideCause) why() string {
	switch {
	case c.calls == "":
		return c.attempts
	case c.attempts == "":
		return c.calls
	}
	return c.calls + "; " + c.attempts
}

// maxOutsideLevels bounds the callers a message names one by one.
const maxOutsideLevels = 3

// outsideOf words what of op's figures its callers bring.
func outsideOf(op *analyze.Operation) outsideCause { return outsideIn(op, nil) }

// outsideIn is outsideOf for an operation that loop l repeats without
// bound (nil: none): the roots it is wired to are told apart by whether
// each pass of l runs them (sharedRoots).
func outsideIn(op *analyze.Operation, l *analyze.Loop) outsideCause {
	c := outsideCause{perItem: "per item"}
	if o := op.Outside; o != nil {
		c.calls, c.perItem, c.callsAt = callerRuns(op, o)
	}
	if len(op.SharedBy) > 1 {
		shared, at := sharedRoots(op, l)
		if c.calls == "" {
			c.calls = shared
		} else {
			c.calls = shared + "; " + c.calls
		}
		c.callsAt = append(at, c.callsAt...)
	}
	// The innermost callers first (the chain lists the outermost first),
	// up to maxOutsideLevels of them; a chain of callers that retry may
	// hold dozens.
	var parts []string
	more := 0
	for i := len(op.Factors) - 1; i >= 0; i-- {
		f := op.Factors[i]
		if !f.OutsideOf(op.Workflow) || !f.Unbounded && f.Value < 2 {
			continue
		}
		if len(parts) == maxOutsideLevels {
			more++
			continue
		}
		text := outsideFactorText(f)
		parts = append(parts, text)
		c.attemptsAt = append(c.attemptsAt, analyze.Related{File: sourceName(f.Source), Pos: f.Pos, Source: f.Source, Message: text})
	}
	if len(parts) > 0 {
		c.attempts = "the attempts count " + strings.Join(parts, ", ")
		if more > 0 {
			c.attempts += fmt.Sprintf(" and %d more %s of callers", more, plural(more, "layer", "layers"))
		}
	}
	return c
}

// sharedRoots words the calls of a sub-node that several roots drive,
// each with its own supplyData of it (analyze.Operation.SharedBy): "the 2
// calls are one from each of "Transcript Chunking" and "Video
// Summary", the roots it is wired to", or "the 12 calls are 10 from agent
// "Agent" and 2 from "Summarize", …", and the roots as related places.
// When loop l repeats the sub-node and some of its roots are not on l, a
// pass repeats only the calls of the roots on it: "each pass of the loop
// makes 2 calls, one from each of agent "Writer" and agent "Evaluator";
// "Classify", outside the loop, calls it once a run" (loopRoots).
func sharedRoots(op *analyze.Operation, l *analyze.Loop) (string, []analyze.Related) {
	var related []analyze.Related
	for _, r := range op.SharedBy {
		related = append(related, analyze.Related{File: sourceName(op.Workflow.Source), Pos: r.Root.Pos, Source: op.Workflow.Source,
			Message: fmt.Sprintf("node %q calls %q too", r.Root.Name, op.Node.Name)})
	}
	if s := loopRoots(op, l); s != "" {
		return s, related
	}
	names := make([]string, len(op.SharedBy))
	ones, total, unb := true, 0, false
	for _, r := range op.SharedBy {
		ones = ones && r.Calls == 1 && !r.Unbounded
		total += r.Calls
		unb = unb || r.Unbounded
	}
	differ := op.RootAttemptsDiffer()
	for i, r := range op.SharedBy {
		name := fmt.Sprintf("%q", r.Root.Name)
		if n8nschema.IsAgent(r.Root.Type) {
			name = "agent " + name
		}
		if !ones {
			calls := fmt.Sprintf("%d", r.Calls)
			if r.Unbounded {
				calls = "calls without bound"
			}
			name = calls + " from " + name
		}
		if differ && r.Attempts > 1 {
			name += fmt.Sprintf(" (%d tries)", r.Attempts)
		}
		names[i] = name
	}
	list := joinAnd(names)
	head := fmt.Sprintf("the %d calls are ", total)
	if unb || op.CallsUnbounded || total != op.CallsPerItem {
		head = "its calls add up: "
	}
	if ones {
		return head + "one from each of " + list + ", the roots it is wired to", related
	}
	return head + list + ", the roots it is wired to", related
}

// loopRoots words the calls of a sub-node whose roots loop l runs only in
// part: each pass of l repeats the calls of the roots on it, and a root off
// it (a classifier before the loop) calls once a run. "" when every root is
// on l or none is, or a root's calls have no bound of their own.
func loopRoots(op *analyze.Operation, l *analyze.Loop) string {
	if l == nil {
		return ""
	}
	var on, off []analyze.RootCalls
	for _, r := range op.SharedBy {
		if r.Unbounded {
			return ""
		}
		if slices.Contains(l.Nodes, r.Root) {
			on = append(on, r)
		} else {
			off = append(off, r)
		}
	}
	if len(on) == 0 || len(off) == 0 {
		return ""
	}
	differ := op.RootAttemptsDiffer()
	// words names the roots of one side, with their calls unless each
	// makes one, and the calls of that side.
	words := func(rs []analyze.RootCalls) (string, bool, int) {
		ones, total := true, 0
		for _, r := range rs {
			ones = ones && r.Calls == 1
			total += r.Calls
		}
		names := make([]string, len(rs))
		for i, r := range rs {
			name := fmt.Sprintf("%q", r.Root.Name)
			if n8nschema.IsAgent(r.Root.Type) {
				name = "agent " + name
			}
			if !ones {
				name = fmt.Sprintf("%d from %s", r.Calls, name)
			}
			if differ && r.Attempts > 1 {
				name += fmt.Sprintf(" (%d tries)", r.Attempts)
			}
			names[i] = name
		}
		return joinAnd(names), ones, total
	}
	list, ones, total := words(on)
	var s string
	switch {
	case len(on) == 1 && ones:
		s = "each pass of the loop calls it once, from " + list
	case ones:
		s = fmt.Sprintf("each pass of the loop makes %d calls, one from each of %s", total, list)
	default:
		s = fmt.Sprintf("each pass of the loop makes %d calls: %s", total, list)
	}
	list, ones, total = words(off)
	switch {
	case len(off) == 1 && ones:
		s += "; " + list + ", outside the loop, calls it once a run"
	case ones:
		s += "; " + list + ", outside the loop, each call it once a run"
	default:
		s += fmt.Sprintf("; outside the loop, %s make %d calls a run", list, total)
	}
	return s
}

// rootAttempts words the wire attempts per item of a sub-node whose
// roots try their calls a different number of times
// (analyze.Operation.RootAttemptsDiffer): "24 attempts in all: 6 roots
// that try 3 times and 6 that try once", or, when roots make several
// calls each, "24 attempts in all: 6 calls from roots that try 3 times
// and 6 from roots that try once". The roots are named by sharedRoots.
func rootAttempts(op *analyze.Operation) string {
	calls := map[int]int{} // by attempts
	roots := map[int]int{}
	ones := true
	var atts []int
	for _, r := range op.SharedBy {
		if _, ok := calls[r.Attempts]; !ok {
			atts = append(atts, r.Attempts)
		}
		calls[r.Attempts] += r.Calls
		roots[r.Attempts]++
		ones = ones && r.Calls == 1
	}
	slices.SortFunc(atts, func(x, y int) int { return y - x })
	tries := func(n int) string {
		if n == 1 {
			return "once"
		}
		return fmt.Sprintf("%d times", n)
	}
	parts := make([]string, len(atts))
	for i, at := range atts {
		switch {
		case ones && i == 0:
			parts[i] = fmt.Sprintf("%d %s that %s %s", roots[at], plural(roots[at], "root", "roots"), plural(roots[at], "tries", "try"), tries(at))
		case ones:
			parts[i] = fmt.Sprintf("%d that %s %s", roots[at], plural(roots[at], "tries", "try"), tries(at))
		case i == 0:
			parts[i] = fmt.Sprintf("%d %s from %s %s", calls[at], plural(calls[at], "call", "calls"), plural(roots[at], "a root that tries", "roots that try"), tries(at))
		default:
			parts[i] = fmt.Sprintf("%d from %s %s", calls[at], plural(roots[at], "a root that tries", "roots that try"), tries(at))
		}
	}
	n := op.WireAttemptsPerItem()
	return fmt.Sprintf("%d %s in all: %s", n, plural(n, "attempt", "attempts"), joinAnd(parts))
}

// joinAnd lists names: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// callerRuns words the calls a caller's runs bring: the text, the per item
// it counts and the callers as related places.
func callerRuns(op *analyze.Operation, o *analyze.Outside) (why, perItem string, related []analyze.Related) {
	var b strings.Builder
	subject := "its workflow"
	levels := 0
	for x := o; x != nil; x = x.Prev {
		if levels == maxOutsideLevels {
			fmt.Fprintf(&b, "; and %d more %s", countOutside(x), plural(countOutside(x), "caller", "callers"))
			break
		}
		if levels > 0 {
			b.WriteString("; ")
		}
		levels++
		switch {
		case x.Root != nil && x.Call.Self:
			fmt.Fprintf(&b, "%s is a tool of its own %s %q, which may call it %s per item", subject, rootWord(x.Root), x.Root.Name, runsText(x))
		case x.Root != nil:
			fmt.Fprintf(&b, "%s is a tool of %s %q in %s, which may call it %s per item", subject, rootWord(x.Root), x.Root.Name, workflowText(x.Call.From), runsText(x))
		case x.Call.Self:
			fmt.Fprintf(&b, "%s is run again by its own node %q", subject, x.Call.Node.Name)
		default:
			fmt.Fprintf(&b, "%s is run by node %q of %s", subject, x.Call.Node.Name, workflowText(x.Call.From))
		}
		subject = workflowText(x.Call.From)
	}
	for x, k := o, 0; x != nil && k < maxOutsideLevels; x, k = x.Prev, k+1 {
		var msg string
		switch {
		case x.Root != nil && x.Call.Self:
			msg = fmt.Sprintf("node %q, a tool of %s %q, runs this workflow again %s per item", x.Call.Node.Name, rootWord(x.Root), x.Root.Name, runsText(x))
		case x.Root != nil:
			msg = fmt.Sprintf("node %q, a tool of %s %q in %s, runs %s %s per item", x.Call.Node.Name, rootWord(x.Root), x.Root.Name,
				workflowText(x.Call.From), workflowText(x.Call.To), runsText(x))
		case x.Call.Self:
			msg = fmt.Sprintf("node %q runs this workflow again", x.Call.Node.Name)
		default:
			msg = fmt.Sprintf("node %q of %s runs %s", x.Call.Node.Name, workflowText(x.Call.From), workflowText(x.Call.To))
		}
		related = append(related, analyze.Related{File: sourceName(x.Call.From.Source), Pos: x.Call.Node.Pos, Source: x.Call.From.Source, Message: msg})
	}
	why = b.String()
	if !o.Unbounded && !op.CallsUnbounded && o.Total > 0 && op.CallsPerItem%o.Total == 0 {
		if inner := op.CallsPerItem / o.Total; inner > 1 {
			why = fmt.Sprintf("up to %d per run of its workflow, and %s", inner, why)
		}
	}
	out := o.Outermost()
	switch {
	case out.Root == nil:
		perItem = fmt.Sprintf("per item of a run of %s", workflowText(out.Call.From))
	case o.Prev == nil:
		perItem = fmt.Sprintf("per item the calling %s gets", rootWord(out.Root))
	default:
		perItem = fmt.Sprintf("per item %s %q of %s gets", rootWord(out.Root), out.Root.Name, workflowText(out.Call.From))
	}
	return why, perItem, related
}

// workflowText names a workflow: `workflow "Main"`, or "an unnamed
// workflow" when it has neither name nor id (the related place gives its
// file).
func workflowText(w *n8nschema.Workflow) string {
	return labelText(w.Label())
}

// labelText names a workflow by its label, as workflowText does.
func labelText(label string) string {
	if label == "" {
		return "an unnamed workflow"
	}
	return fmt.Sprintf("workflow %q", label)
}

// countOutside is how many callers a chain holds from o on.
func countOutside(o *analyze.Outside) int {
	k := 0
	for ; o != nil; o = o.Prev {
		k++
	}
	return k
}

// runsText is "up to 10 times" or "without bound".
func runsText(o *analyze.Outside) string {
	if o.Unbounded {
		return "without bound"
	}
	return fmt.Sprintf("up to %d %s", o.Runs, plural(o.Runs, "time", "times"))
}

// rootWord names what kind of root calls a tool: "agent" or "node".
func rootWord(n *n8nschema.Node) string {
	if n8nschema.IsAgent(n.Type) {
		return "agent"
	}
	return "node"
}

// outsideFactorText words a factor of another workflow's:
// `3 tries of node "Run" of workflow "Main", which retries the run`.
func outsideFactorText(f analyze.Factor) string {
	where := fmt.Sprintf("node %q of %s", f.Node, labelText(f.Workflow))
	switch f.Kind {
	case analyze.KindCallerRetry:
		return fmt.Sprintf("%d tries of %s, which runs this workflow", f.Value, where)
	case analyze.KindToolRetry:
		return fmt.Sprintf("%d tries of %s, a tool that runs this workflow", f.Value, where)
	case analyze.KindRootRetry:
		return fmt.Sprintf("%d tries of %s, which re-runs the tool that runs this workflow", f.Value, where)
	case analyze.KindLoop:
		return fmt.Sprintf("an unguarded loop of %s back through %q", labelText(f.Workflow), f.Node)
	case analyze.KindSelfTrigger:
		return fmt.Sprintf("a cycle of executions through %s", where)
	}
	if f.Unbounded {
		return fmt.Sprintf("unbounded %s (%s)", strings.ReplaceAll(f.Kind, "-", " "), where)
	}
	return fmt.Sprintf("%d %s (%s)", f.Value, strings.ReplaceAll(f.Kind, "-", " "), where)
}

// sourceName is the file name of a source, "" for none.
func sourceName(s *n8nschema.Source) string {
	if s == nil {
		return ""
	}
	return s.Name
}
