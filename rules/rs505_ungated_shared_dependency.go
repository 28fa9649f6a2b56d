package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
)

var rs505 = &analyze.Rule{
	ID:    "RS505",
	Name:  "ungated-shared-dependency",
	Title: "several workflows retry one dependency with no shared gate",
	Doc: `Retries are decided per node, but a dependency is shared: when it slows down, every workflow that calls
it with node retries fails and retries at the same time, each one unaware of the others, and the retries
of all of them land on a service that is already struggling. Nothing in n8n limits the calls in flight to
one host across workflows; queue mode only limits executions per worker. stormcheck counts the workflows
of the analysis set that call the same dependency (one service however it is called, the OpenAI node and an
HTTP request to api.openai.com alike; a feed or an MCP server per host; not n8n's own Data Tables or API, nor
a placeholder host such as example.com; on a service shared by many tenants, such as a mailbox, an Airtable
base or a database, only calls made with the same credential; for a model provider or a call made with a credential,
whose limits hold per key, only workflows of one n8n instance, since exports whose meta.instanceId differ hold
different credentials: an export that names no instance joins the one instance the others name; a template's
blank, such as "REPLACE_WITH_INSTANCE_ID" or a credential id "YOUR_CREDENTIAL_ID", names no instance and no
account, so calls that carry one credential blank share no account, a model provider's
included, whose calls otherwise share the provider whatever their key) with their own
node retries and reports them when no
limit is declared for it in .stormcheck.yaml (dependencies: {HOST: {max_in_flight: N}}), which stands for
a gate you run (a proxy, a queue, one sub-workflow that owns the calls). It needs the workflows in one
run: audit the whole export. The message counts the executions that can call it at once: for a workflow
only its schedules start, as many as its runs can overlap (one per schedule when a run ends before the next tick,
which n8n starts whether or not the last run ended; for an error workflow, which n8n starts once after each
failed run of a workflow that names it, cli/src/execution-lifecycle/execute-error-workflow.ts, as many as
those workflows' runs at once, when the audit holds them and only schedules start them; a workflow that names no
other error workflow is its own, so its Error Trigger runs once after each of its own failed runs, and an error
run, which starts at the Error Trigger, makes only the calls that trigger reaches; for a sub-workflow only
Execute Workflow nodes start, each waiting for the run it starts, as n8n's does by default
(nodes-base ExecuteWorkflow.node.js), as many as the runs of those callers, when only schedules start them and no
call the set cannot resolve may start it; when those callers call the dependency too, none at all of its own: an
execution runs one node at a time, so the sub-workflow's calls come between its caller's, within the caller's runs,
and add to their attempts: with its callers it is one workflow, not two); for a trigger one person paces (a chat or
messaging bot such as n8n's Telegram or WhatsApp Trigger, a form, a link opened in a browser, but not a chat made public,
which anyone with the link opens), one execution, added to what the workflow's schedules or callers start, since that
person's runs come one after another as they act, not together when the dependency fails (a workflow with more than
eight entry points other than schedules is an API's, paced by the fleet); and for any other workflow the fleet's concurrency
(--workers × --concurrency, 1 × 10 unless set), at most that many in all;
and the attempts those executions make, each execution's node retries one after another. Each dependency is reported once, at its first caller, with the others as
related places. A workflow that only a person starts from the editor (a Manual Trigger or no trigger, or archived, and
called by no workflow that runs on its own) is not counted: its runs come one click at a time, not all at
once in an outage. Nor is a call no run makes: a disabled node, one behind a node that fails every run, or one
n8n or the provider refuses every time (RS010), strains nothing. So is a sub-workflow (only an Execute Workflow Trigger starts it) that no call of the set
reaches: the rule assumes the set holds its callers, as it holds the other workflows it counts. That
holds only when the set resolves every call its running workflows make: a call whose target is computed
at run time, or names an id the set does not hold (a caller's list keeps the id and name a workflow had on
another instance or before a rename), may be to it, so while a workflow that runs makes one from the same
n8n instance (RS005 reports such calls), the sub-workflow is counted. An export's "active": false is not taken to mean the workflow never runs: n8n
import:workflow deactivates what it imports by default (cli/src/commands/import/workflow.ts --activeState),
so the owner activates what is deployed.`,
	Fix:        "Route the calls to the shared dependency through one gate (a sub-workflow or proxy that owns retries and concurrency) and declare its limit in .stormcheck.yaml",
	FixDoc:     "None: a shared gate (a proxy, a queue, one sub-workflow that owns the calls) is infrastructure, not a setting.",
	Severity:   analyze.Note,
	Confidence: analyze.Medium,
	Tags:       []string{"retries", "fleet"},
	RunSet: func(pass *analyze.SetPass) {
		fleet := analyze.MulSat(max(pass.Options.Workers, 1), max(pass.Options.Concurrency, 1))
		byHand := analyze.StartedByHand(pass.Workflows)
		g := groupByDependency(pass.Workflows, byHand, fleet)
		for i := range pass.Workflows {
			w := &pass.Workflows[i]
			if byHand[i] {
				continue
			}
			reported := map[string]bool{}
			for j := range w.Operations {
				op := &w.Operations[j]
				dep, d := strings.ToLower(op.Dependency), g.key(w, op)
				if !op.Live || d == "" || reported[d] || !analyze.NodeRetried(op.Factors) || len(g.users[d])-g.folded[d] < 2 {
					continue
				}
				if gated(pass.Options, dep) {
					continue
				}
				reported[d] = true
				pass.Report(w, op, analyze.Diagnostic{
					Message: fmt.Sprintf("%d workflows call %s with their own node retries and no shared gate (here node %q; also %s): in an outage up to %d executions can call it at once and make up to %d attempts, each execution's retries one after another (%s)",
						len(g.users[d]), dep+sameAccount(op), op.Node, g.others(d, w), g.runs[d], g.attempts[d], g.basis(d, fleet)),
					Detail:  d,
					FoldKey: d,
					Chain:   op.Factors,
				})
			}
		}
	},
}

// dependencyUsers are the set's node-retried operations grouped by
// dependency (its identity, and its instance when that matters: key): the
// workflows that call it, in set order, how many of their executions can
// run at once and the attempts those make, and their distinct labels
// sorted with how many workflows bear each, so that naming the others
// costs each workflow a few steps, not a pass over every user.
type dependencyUsers struct {
	users map[string][]*analyze.WorkflowSummary
	// runs are the executions that can call the dependency at once:
	// RunsAtOnce for a workflow its schedules alone start, the fleet's
	// concurrency for any other, and no more than the fleet's in all.
	// attempts are what those make at worst, each execution its bounded
	// attempts one after another. load holds, per user, its executions
	// at once and the attempts of one, from which both are summed.
	runs, attempts map[string]int
	load           map[string][]load
	// scheduled and other count the users of each kind.
	scheduled, other map[string]int
	// errorPaced counts the users that are error workflows, paced by the
	// failed runs of the workflows that name them.
	errorPaced map[string]int
	// callerPaced counts the users that are sub-workflows, paced by the
	// runs of the callers that wait for them.
	callerPaced map[string]int
	// personPaced counts the users that triggers one person paces start,
	// one execution each (WorkflowSummary.PersonRuns).
	personPaced map[string]int
	// folded counts the users that are sub-workflows whose callers, users
	// too, wait for them: their calls come within the callers' runs.
	folded map[string]int
	// capped holds the dependencies whose users could run more executions
	// at once than the fleet does.
	capped map[string]bool
	// instances are the n8n instances of the users of a per-key
	// dependency: calls from two instances share no key.
	instances map[string]map[string]bool
	labels    map[string][]label
	bearers   map[string]map[string]int
	calls     map[string]map[*analyze.WorkflowSummary]bool
	// looked counts the labels others read, over all calls: tests bound it.
	looked int
}

// label is a workflow label and its quoted form, by which labels sort.
type label struct{ raw, quoted string }

func groupByDependency(wfs []analyze.WorkflowSummary, byHand []bool, fleet int) *dependencyUsers {
	g := &dependencyUsers{users: map[string][]*analyze.WorkflowSummary{}, runs: map[string]int{}, attempts: map[string]int{}, load: map[string][]load{},
		scheduled: map[string]int{}, other: map[string]int{}, errorPaced: map[string]int{}, callerPaced: map[string]int{}, personPaced: map[string]int{}, folded: map[string]int{}, capped: map[string]bool{}, instances: map[string]map[string]bool{},
		labels: map[string][]label{}, bearers: map[string]map[string]int{}, calls: map[string]map[*analyze.WorkflowSummary]bool{}}
	for i := range wfs {
		w := &wfs[i]
		if byHand[i] || w.Instance == "" {
			continue
		}
		for _, op := range w.Operations {
			if op.PerKey && op.Identity != "" && op.Dependency != "" && !op.Disabled && analyze.NodeRetried(op.Factors) {
				if g.instances[op.Identity] == nil {
					g.instances[op.Identity] = map[string]bool{}
				}
				g.instances[op.Identity][w.Instance] = true
			}
		}
	}
	// A call the set cannot resolve, from a workflow that runs, may start
	// a sub-workflow of its instance (or of any, when it names none): any,
	// when its target is computed at run time or bears no name, else the
	// one with the name the editor cached beside the id.
	unresolved, anywhere := map[string]map[string]bool{}, map[string]bool{}
	for i := range wfs {
		if !byHand[i] {
			for _, c := range wfs[i].Unresolved {
				if unresolved[c.Instance] == nil {
					unresolved[c.Instance] = map[string]bool{}
				}
				unresolved[c.Instance][c.Name], anywhere[c.Name] = true, true
			}
		}
	}
	mayStart := func(w *analyze.WorkflowSummary) bool {
		hit := func(names map[string]bool) bool { return names[""] || names[w.Name] }
		if w.Instance == "" {
			return hit(anywhere)
		}
		return hit(unresolved[""]) || hit(unresolved[w.Instance])
	}
	seen := g.calls
	for i := range wfs {
		w := &wfs[i]
		if byHand[i] {
			continue // its runs come one click at a time, not with the others
		}
		at, paced := fleet, w.RunsAtOnce > 0
		if w.CallerPaced && mayStart(w) {
			paced = false
		}
		if paced {
			at = w.RunsAtOnce
		}
		for j := range w.Operations {
			op := &w.Operations[j]
			if op.Dependency == "" || !op.Live || !analyze.NodeRetried(op.Factors) {
				continue // a call no run makes strains nothing
			}
			d := g.key(w, op)
			if seen[d] == nil {
				seen[d] = map[*analyze.WorkflowSummary]bool{}
			}
			if !seen[d][w] {
				seen[d][w] = true
				g.users[d] = append(g.users[d], w)
				g.load[d] = append(g.load[d], load{runs: at, w: w, paced: paced})
				if paced && w.CallerPaced {
					g.callerPaced[d]++
				}
				if paced && w.PersonRuns > 0 {
					g.personPaced[d]++
				}
				if paced {
					g.scheduled[d]++
				} else {
					g.other[d]++
				}
				if g.bearers[d] == nil {
					g.bearers[d] = map[string]int{}
				}
				if l := w.Label(); l != "" {
					if g.bearers[d][l]++; g.bearers[d][l] == 1 {
						g.labels[d] = append(g.labels[d], label{l, strconv.Quote(l)})
					}
				}
			}
			l := &g.load[d][len(g.load[d])-1] // (w's: its operations come together)
			l.starts |= op.Starts
			if op.Starts == 0 {
				l.starts |= analyze.StartsOther | analyze.StartsError
			}
			if !op.Unbounded {
				l.attempts = addSat(l.attempts, op.Attempts)
			}
		}
	}
	for d, ls := range g.load {
		g.fold(d, ls, mayStart)
		// A workflow that schedules and Error Triggers both start calls
		// the dependency only in the runs that reach it.
		for i := range ls {
			l := &ls[i]
			if e := l.w.ErrorRuns; l.paced && e > 0 {
				switch l.starts {
				case analyze.StartsOther:
					l.runs -= e
				case analyze.StartsError:
					l.runs = e
				}
			}
			if l.w.ErrorPaced && (l.w.ErrorRuns == 0 || l.starts&analyze.StartsError != 0) {
				g.errorPaced[d]++
			}
		}
		// The fleet runs at most fleet executions at once: at worst those
		// that make the most attempts.
		sort.SliceStable(ls, func(i, j int) bool { return ls[i].attempts > ls[j].attempts })
		left := fleet
		for _, l := range ls {
			n := min(l.runs, left)
			g.capped[d] = g.capped[d] || n < l.runs
			left -= n
			g.runs[d] += n
			g.attempts[d] = addSat(g.attempts[d], analyze.MulSat(n, l.attempts))
		}
	}
	for _, ls := range g.labels {
		sort.Slice(ls, func(i, j int) bool { return ls[i].quoted < ls[j].quoted })
	}
	return g
}

// fold moves each sub-workflow whose every caller is a user of d and
// waits for it (WorkflowSummary.WaitedBy) into those callers: its runs
// happen inside theirs, one call after another, so it adds no execution
// at once, and its attempts add to each caller's (a sub-workflow of
// sub-workflows through them all). A sub-workflow a call the set cannot
// resolve may start keeps its own runs.
func (g *dependencyUsers) fold(d string, ls []load, mayStart func(*analyze.WorkflowSummary) bool) {
	at := make(map[analyze.WorkflowRef]int, len(ls))
	for i := range ls {
		at[ls[i].w.Ref()] = i
	}
	into := map[int][]int{} // caller → the subs folded into it
	inner := make([]bool, len(ls))
	for i := range ls {
		w := ls[i].w
		if len(w.WaitedBy) == 0 || mayStart(w) {
			continue
		}
		var callers []int
		for _, r := range w.WaitedBy {
			if c, ok := at[r]; ok && c != i {
				callers = append(callers, c)
			}
		}
		if len(callers) < len(w.WaitedBy) {
			continue // a caller that does not call d runs it beside the others
		}
		inner[i] = true
		for _, c := range callers {
			into[c] = append(into[c], i)
		}
	}
	if len(into) == 0 {
		return
	}
	// Each caller's attempts are its own and those of what it waits for.
	own := make([]int, len(ls))
	for i := range ls {
		own[i] = ls[i].attempts
	}
	sum := make([]int, len(ls))
	state := make([]uint8, len(ls)) // 1 while summed, 2 once summed
	var total func(i int) int
	total = func(i int) int {
		switch state[i] {
		case 1:
			return 0 // (a cycle of calls: counted once)
		case 2:
			return sum[i]
		}
		state[i] = 1
		n := own[i]
		for _, j := range into[i] {
			n = addSat(n, total(j))
		}
		state[i], sum[i] = 2, n
		return n
	}
	for i := range ls {
		l := &ls[i]
		if !inner[i] {
			l.attempts = total(i)
			continue
		}
		g.folded[d]++
		if l.paced {
			g.scheduled[d]--
			if l.w.CallerPaced {
				g.callerPaced[d]--
			}
			if l.w.PersonRuns > 0 {
				g.personPaced[d]--
			}
		} else {
			g.other[d]--
		}
		l.runs, l.attempts = 0, 0
	}
}

// load is what one workflow brings to a dependency: how many of its
// executions can run at once, and the attempts one of them makes; paced
// when its starts, not the fleet, decide the runs, and starts the runs
// that reach its calls (OperationSummary.Starts).
type load struct {
	runs, attempts int
	w              *analyze.WorkflowSummary
	paced          bool
	starts         uint8
}

// key is the dependency an operation strains: its identity, and, when its
// users come from more than one n8n instance and its limits hold per key
// (PerKey), the instance too; a workflow whose export names no instance
// joins the one instance there is, or none when there are several.
func (g *dependencyUsers) key(w *analyze.WorkflowSummary, op *analyze.OperationSummary) string {
	d := op.Identity
	if d == "" || !op.PerKey || len(g.instances[d]) < 2 {
		return d
	}
	return d + "\x00instance:" + w.Instance
}

// basis says what the count of executions at once rests on.
func (g *dependencyUsers) basis(d string, fleet int) string {
	tick := "a scheduled workflow runs as many at once as its runs can overlap"
	if g.personPaced[d] > 0 {
		tick += ", a bot, form or link one person uses starts one execution at a time, as the person acts"
	}
	if g.errorPaced[d] > 0 {
		tick += ", an error workflow as many as the failed runs of the workflows that name it"
	}
	if g.callerPaced[d] > 0 {
		tick += ", a sub-workflow as many as the runs of the callers that wait for it"
	}
	if g.folded[d] > 0 {
		tick += ", and a sub-workflow its callers wait for calls it within their runs"
	}
	switch {
	case g.other[d] == 0 && !g.capped[d]:
		return tick
	case g.other[d] == 0:
		return fmt.Sprintf("%s, and the fleet runs %d executions at once", tick, fleet)
	case g.scheduled[d] == 0:
		return fmt.Sprintf("the fleet runs %d executions at once", fleet)
	}
	return fmt.Sprintf("%s, and the fleet runs %d executions at once", tick, fleet)
}

// others names the workflows calling d other than self (one of them):
// up to three distinct names in order, then how many more.
func (g *dependencyUsers) others(d string, self *analyze.WorkflowSummary) string {
	n, own := len(g.users[d]), ""
	if g.calls[d][self] {
		n, own = n-1, self.Label()
	}
	var names []string
	for _, l := range g.labels[d] {
		if len(names) == 3 {
			break
		}
		g.looked++
		if l.raw == own && g.bearers[d][own] == 1 {
			continue // self alone bears this name
		}
		names = append(names, l.quoted)
	}
	if len(names) == 0 {
		return fmt.Sprintf("%d other %s", n, plural(n, "workflow", "workflows"))
	}
	s := strings.Join(names, ", ")
	if rest := n - len(names); rest > 0 {
		s += fmt.Sprintf(" and %d more", rest)
	}
	return s
}

// sameAccount says that the calls share a credential, when they do.
func sameAccount(op *analyze.OperationSummary) string {
	if op.Account == "" {
		return ""
	}
	return " (one credential)"
}

// gated reports whether config declares an in-flight limit for a host.
func gated(opts *analyze.Options, dep string) bool {
	for h, n := range opts.MaxInFlight {
		if n > 0 && strings.EqualFold(h, dep) {
			return true
		}
	}
	return false
}

// addSat adds counts as MulSat multiplies them, saturating at AttemptCap.
func addSat(a, b int) int { return min(a+b, analyze.AttemptCap) }
