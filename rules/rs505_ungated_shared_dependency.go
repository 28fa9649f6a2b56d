package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
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
account, and so does a credential id left empty or out, as a published workflow's stripped ids are (n8n binds such a
credential when the workflow is imported, to the one of its name and type in the importing project:
cli/src/workflow-helpers.ts replaceInvalidCredentials), so calls that carry one credential blank share no account,
a model provider's included, whose calls otherwise share the provider whatever their key, unless their export names
its instance (one that names none joins no other's for such a call: nothing then says whose key it is): then the key
is one of that instance's, a model provider's shared with its other calls, a host of its own's shared with
that instance's other blank keys only, not with a call made with no credential nor with a named key, though a
tenant's account, such as a mailbox, is still not known) with their own
node retries and reports them when no
limit is declared for it in .stormcheck.yaml (dependencies: {HOST: {max_in_flight: N}}), which stands for
a gate you run (a proxy, a queue, one sub-workflow that owns the calls). It needs the workflows in one
run: audit the whole export. The message counts the executions that can call it at once: for a workflow
only its schedules start, as many as its runs can overlap (one per schedule when a run ends before the next tick,
which n8n starts whether or not the last run ended, a run lasting at worst as long as it does while the dependency
fails: its failing calls' timeouts and the waits between their tries (n8n-core execution-engine/workflow-execute.js
processRunExecutionData), and the other steps' bounded work; an outage that hangs rather than failing holds each
attempt open until its client gives up, so a model call with no client timeout lasts as long as its HTTP client lets
it hang (the Anthropic SDK's 600 s, groq-sdk's 60 s, n8n's request helper's 300 s for an app node, Node's fetch's 300
s for Gemini, n8n's AI dispatcher's hour for Mistral and Ollama: n8nschema/catalog.go), and one whose client sets no
bound (Vertex's gaxios) is taken to hang at worst that hour, the longest bound n8n puts on a model request (an
assumption: a longer hang is not modelled), an agent's or chain's attempt ending at its first call since its later calls
follow only an answer, while a retry with no bound leaves the fleet to decide; and none beside the runs of another such workflow that never
meet its own: n8n fires a schedule of days, weeks or hours at the hour and minute set, 0 when left out, within a minute
drawn from the workflow's id, nodes-base Schedule/GenericFunctions.js toCronExpression, so in one time zone two such
schedules whose ticks are further apart than a run lasts at worst take turns, and only the turn that makes the most
attempts is counted; a run that pauses for a person, a send-and-wait message or a Wait resumed by a webhook or a form,
calls nothing while parked, n8n saving it as waiting (nodes-base Wait/Wait.node.js and Google/Gmail/v2/GmailV2.node.js
putExecutionToWait), so the pause neither makes its runs overlap nor keeps its schedules from taking turns, and a run
paused for a person's answer resumes one at a time: one execution more for a dependency it calls after the pause, none for
one it calls only before; for an error workflow, which n8n starts once after each
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
eight entry points other than schedules is an API's, paced by the fleet), and Telegram Triggers that take one bot (one
credential) count once between them, in whichever workflow makes the most attempts, since Telegram sends a bot's messages
to the one webhook set last, which one of them set (setWebhook: nodes-base TelegramTrigger.node.js webhookMethods; RS404
reports the clash); and for any other workflow the fleet's concurrency
(--workers × --concurrency, 1 × 10 unless set), at most that many in all;
and the attempts those executions make, each execution's node retries one after another, along the one way an
item takes through the workflow that makes the most (an If's, a Filter's or a first-match Switch's outputs, and a node's
error output beside its regular ones, are one way or the other for an item, never both: nodes-base
Switch/V3/SwitchV3.node.js, n8n-core execution-engine/workflow-execute.js handleNodeErrorOutput; outputs that all
receive it run one after another and add up, over the branches that go on to their end), never more than every call's
attempts once, every call to it on that way counted, retried or not, up to the
first that fails unhandled: while the dependency fails, a node that calls it and does not continue on error (onError unset or
stopWorkflow) fails after its tries and n8n ends the whole run there, whatever branches are left (n8n-core
execution-engine/workflow-execute.js processRunExecutionData), so its later calls to it never come, of sibling branches that
each end the run so only the one that makes the most counts, beside those that go on, and a loop that would repeat it (a poll
that goes round only on an answer) never goes round, so such a call counts its tries once; one that continues on error to its
error output sends the failed item that way alone (handleNodeErrorOutput), and one that continues on error inside a loop may go
round on the error item, with no bound; an agent's or chain's try ends at its own model's or memory's first
failing call, before any tool or output parser calls it. Each dependency is reported once, at its first caller, with the others as
related places, and only when two executions or more can call it at once, one of which makes more than one attempt on it:
one execution's retries are one workflow's, and executions whose runs each end at their first failing call, before any
retry, are the fleet's load, not a storm of retries. Those counts are taken again over the executions machines start alone
(a schedule, which n8n fires at its minute whatever else runs; a service's webhook, each request of which n8n runs as an
execution of its own (cli/src/webhooks/webhook-helpers.ts executeWebhook), or a poll; the fleet's; a caller's or namer's
runs), and the dependency is reported only when these too come from two workflows or more, two executions or more at
once, one of which retries: a person's bot, form or link, and a run a person's answer resumes, start
executions one after another as the person acts, which meet a machine's outage only by chance, and the person sees the run
fail; such a workflow is named beside the others, but its runs alone with one machine's make no storm. A workflow that only a person starts from the editor (a Manual Trigger or no trigger, or archived, and
called by no workflow that runs on its own) is not counted: its runs come one click at a time, not all at
once in an outage. Nor is a call no run makes: a disabled node, one behind a node that fails every run, or one
n8n or the provider refuses every time (RS010), strains nothing. So is a sub-workflow (only an Execute Workflow Trigger starts it) that no call of the set
reaches: the rule assumes the set holds its callers, as it holds the other workflows it counts. That
holds only when the set resolves every call its running workflows make: a call whose target is computed
at run time, or names an id the set does not hold (a caller's list keeps the id and name a workflow had on
another instance or before a rename), may be to it, so while a workflow that runs makes one from the same
n8n instance (RS005 reports such calls), the sub-workflow is counted; an export that names no instance is of the
same instance as the one instance the others name, and of none of theirs when they name several. An export's "active": false is not taken to mean the workflow never runs: n8n
import:workflow deactivates what it imports by default (cli/src/commands/import/workflow.ts --activeState),
so the owner activates what is deployed. The note stands on the node whose n8n retry it counts: the calling
node when it retries itself; for a model or memory sub-node, which n8n's retry loop never runs
(n8n-core execution-engine/workflow-execute.js reads retryOnFail only of the node it runs; a sub-node is called
from its root's run, node-execution-context/utils/get-input-connection-data.js), the agent or chain whose retries
re-run it, with the sub-node named.`,
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
				d := g.key(w, op)
				if !op.StrainsDependency() || d == "" || reported[d] || len(g.users[d])-g.folded[d] < 2 || g.runs[d] < 2 || g.attempts[d] <= g.runs[d] && !g.unbounded[d] || !g.machine[d].storm() {
					continue
				}
				dep := strings.ToLower(op.Dependency)
				if gated(pass.Options, dep) {
					continue
				}
				reported[d] = true
				// The note stands on the node whose retries it counts: a
				// model or tool sub-node's calls are retried by the agent or
				// chain above it, which names the call too.
				at, here := *op, fmt.Sprintf("node %q", op.Node)
				if name, pos, ok := retrier(w, op); ok {
					at.Node, at.Pos = name, pos
					here = fmt.Sprintf("node %q, retrying the calls of its sub-node %q", name, op.Node)
				}
				pass.Report(w, &at, analyze.Diagnostic{
					Message: fmt.Sprintf("%d workflows call %s with their own node retries and no shared gate (here %s; also %s): in an outage up to %d executions can call it at once and make up to %d attempts, each execution's retries one after another (%s)",
						len(g.users[d]), dep+sameAccount(op), here, g.others(d, w), g.runs[d], g.attempts[d], g.basis(d, fleet)),
					Detail:  d,
					FoldKey: d,
					Chain:   op.Factors,
				})
			}
		}
	},
}

// retrier is the node of w whose n8n retry repeats op's calls when it is not
// op's own node: the agent or chain that re-runs its model or memory
// sub-node (KindRootRetry), or the agent whose tool retries
// (KindToolRetry, on the tool itself, is op's own). ok is false when op's
// node retries itself or the retry is a caller's in another workflow.
func retrier(w *analyze.WorkflowSummary, op *analyze.OperationSummary) (name string, pos n8nschema.Pos, ok bool) {
	label := w.Label()
	for _, f := range op.Factors {
		switch f.Kind {
		case analyze.KindNodeRetry, analyze.KindToolRetry:
			if f.Value > 1 && f.Node == op.Node && f.Workflow == label {
				return "", pos, false
			}
		}
	}
	for _, f := range op.Factors {
		if f.Kind == analyze.KindRootRetry && f.Value > 1 && f.Node != op.Node && f.Workflow == label {
			return f.Node, f.Pos, true
		}
	}
	return "", pos, false
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
	// resumed counts the users whose scheduled runs call the dependency
	// once a person's answer resumes them (WorkflowSummary.ResumeCalls).
	resumed map[string]int
	// apart holds the dependencies some of whose scheduled users never
	// have runs in flight together.
	apart map[string]bool
	// sharedBot holds the dependencies some of whose users take one bot
	// in Telegram Triggers, whose messages start one execution at a time.
	sharedBot map[string]bool
	// folded counts the users that are sub-workflows whose callers, users
	// too, wait for them: their calls come within the callers' runs.
	folded map[string]int
	// capped holds the dependencies whose users could run more executions
	// at once than the fleet does.
	capped map[string]bool
	// unbounded holds the dependencies a call retries with no bound, whose
	// attempts the count leaves out: they are not one per execution.
	unbounded map[string]bool
	// machine counts, per dependency, the executions at once that
	// machines start (load.machine) and what they bring: only those fail
	// together in an outage, so only those make a storm.
	machine map[string]machineLoad
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
		scheduled: map[string]int{}, other: map[string]int{}, errorPaced: map[string]int{}, callerPaced: map[string]int{}, personPaced: map[string]int{}, resumed: map[string]int{}, folded: map[string]int{}, sharedBot: map[string]bool{}, apart: map[string]bool{}, capped: map[string]bool{}, unbounded: map[string]bool{}, machine: map[string]machineLoad{}, instances: map[string]map[string]bool{},
		labels: map[string][]label{}, bearers: map[string]map[string]int{}, calls: map[string]map[*analyze.WorkflowSummary]bool{}}
	for i := range wfs {
		w := &wfs[i]
		if byHand[i] || w.Instance == "" {
			continue
		}
		for _, op := range w.Operations {
			if op.PerKey && op.Identity != "" && op.SharesDependency() {
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
	// An export that names no instance joins the one instance the set's
	// exports name, or none when they name several (as key does): its
	// calls then start no sub-workflow of a named instance, nor do theirs
	// start one of its own.
	unresolved, anywhere, named := map[string]map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := range wfs {
		if !byHand[i] {
			if in := wfs[i].Instance; in != "" {
				named[in] = true
			}
			for _, c := range wfs[i].Unresolved {
				if unresolved[c.Instance] == nil {
					unresolved[c.Instance] = map[string]bool{}
				}
				unresolved[c.Instance][c.Name], anywhere[c.Name] = true, true
			}
		}
	}
	joins := len(named) < 2
	mayStart := func(w *analyze.WorkflowSummary) bool {
		hit := func(names map[string]bool) bool { return names[""] || names[w.Name] }
		switch {
		case w.Instance == "" && joins:
			return hit(anywhere)
		case w.Instance == "":
			return hit(unresolved[""])
		}
		return joins && hit(unresolved[""]) || hit(unresolved[w.Instance])
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
			if !op.StrainsDependency() {
				continue // a call no run makes strains nothing
			}
			d := g.key(w, op)
			if seen[d] == nil {
				seen[d] = map[*analyze.WorkflowSummary]bool{}
			}
			if !seen[d][w] {
				seen[d][w] = true
				g.users[d] = append(g.users[d], w)
				l := load{runs: at, w: w, paced: paced}
				if paced {
					l.persons = w.PersonRuns // one person's runs, one at a time
				}
				if paced && w.ResumeCalls[op.Identity] {
					l.resumed = 1 // a parked run the person resumes calls it
					g.resumed[d]++
				}
				g.load[d] = append(g.load[d], l)
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
			if a, ok := w.RunAttempts[op.Identity]; ok {
				l.attempts = a // one item's worst way through exclusive outputs
			} else if !op.UnboundedWhileDown() {
				l.attempts = analyze.AddSat(l.attempts, op.Attempts)
			}
			g.unbounded[d] = g.unbounded[d] || op.UnboundedWhileDown()
			l.unbounded = l.unbounded || op.UnboundedWhileDown()
		}
	}
	for d, ls := range g.load {
		g.fold(d, ls, mayStart)
		// A workflow that schedules and Error Triggers both start calls
		// the dependency only in the runs that reach it.
		g.oneBot(d, ls)
		for i := range ls {
			l := &ls[i]
			if e := l.w.ErrorRuns; l.paced && e > 0 {
				switch l.starts {
				case analyze.StartsOther:
					l.runs -= e
				case analyze.StartsError:
					l.runs, l.persons = e, 0 // (the namers' runs, taken as machines')
				}
			}
			if l.w.ErrorPaced && (l.w.ErrorRuns == 0 || l.starts&analyze.StartsError != 0) {
				g.errorPaced[d]++
			}
		}
		g.takeTurns(d, ls)
		// The fleet runs at most fleet executions at once: at worst those
		// that make the most attempts.
		sort.SliceStable(ls, func(i, j int) bool { return ls[i].attempts > ls[j].attempts })
		left, m := fleet, machineLoad{}
		for _, l := range ls {
			n := min(l.runs+l.resumed, left)
			g.capped[d] = g.capped[d] || n < l.runs+l.resumed
			left -= n
			g.runs[d] += n
			g.attempts[d] = analyze.AddSat(g.attempts[d], analyze.MulSat(n, l.attempts))
			if l.machine() > 0 {
				// (the fleet's slots go to any of them: each counts)
				m.users++
				m.unbounded = m.unbounded || l.unbounded
			}
			n = min(l.machine(), fleet-m.runs)
			m.runs += n
			m.attempts = analyze.AddSat(m.attempts, analyze.MulSat(n, l.attempts))
		}
		g.machine[d] = m
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
			n = analyze.AddSat(n, total(j))
			ls[i].unbounded = ls[i].unbounded || ls[j].unbounded // (its retries come within i's runs)
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
			if l.resumed > 0 {
				g.resumed[d]--
			}
		} else {
			g.other[d]--
		}
		l.runs, l.resumed, l.attempts, l.persons = 0, 0, 0, 0
	}
	for c, subs := range into {
		if len(subs) > 0 {
			ls[c].holds = true
		}
	}
}

// oneBot counts once the executions the Telegram Triggers that take one
// bot start (BotTrigger.Bot): Telegram sends the bot's messages to the
// one webhook set last, so one of those triggers receives them and the
// others none (RS404 reports the clash), and the person who writes to the
// bot starts one execution at a time however many workflows listen. Of
// the users whose one-person runs come from such triggers, the one that
// makes the most attempts keeps the bot's execution; the others lose one
// each trigger of that bot. A workflow Error Triggers start too is left as
// it is.
func (g *dependencyUsers) oneBot(d string, ls []load) {
	byBot := map[string][]int{} // bot → the users taking it, once per trigger
	var bots []string
	for i := range ls {
		l := &ls[i]
		if !l.paced || l.runs == 0 || l.w.PersonRuns == 0 || l.w.ErrorRuns > 0 {
			continue
		}
		for j := range l.w.BotTriggers {
			if b := l.w.BotTriggers[j].Bot(l.w); b != "" {
				if byBot[b] == nil {
					bots = append(bots, b)
				}
				byBot[b] = append(byBot[b], i)
			}
		}
	}
	for _, b := range bots {
		at := byBot[b]
		if len(at) < 2 {
			continue
		}
		keep := at[0]
		for _, i := range at[1:] {
			if ls[i].attempts > ls[keep].attempts {
				keep = i
			}
		}
		for _, i := range at {
			ls[i].runs--
			ls[i].persons--
		}
		ls[keep].runs++
		ls[keep].persons++
		g.sharedBot[d] = true
	}
}

// takeTurns counts, of the users whose schedules alone start the runs that
// call d and fire at fixed times of the day or week
// (WorkflowSummary.Ticks), only those whose runs can be in flight together.
// Users of one zone whose spans meet, directly or through others, are one
// cluster; runs of two clusters are never in flight together, so at any
// moment one cluster of each zone calls d. The cluster that makes the most
// attempts keeps its runs and the others none, when it runs the most
// executions too (else all are kept, which overstates and never hides).
func (g *dependencyUsers) takeTurns(d string, ls []load) {
	type span struct{ from, to, user int }
	byZone := map[string][]span{}
	var zones []string
	for i := range ls {
		l := &ls[i]
		w := l.w
		if !l.paced || l.runs == 0 || l.holds || w.Ticks == nil || w.CallerPaced || w.PersonRuns > 0 ||
			w.ErrorRuns > 0 && l.starts != analyze.StartsOther || w.ErrorRuns == 0 && w.ErrorPaced {
			continue
		}
		if byZone[w.Ticks.Zone] == nil {
			zones = append(zones, w.Ticks.Zone)
		}
		for _, b := range w.Ticks.Busy {
			byZone[w.Ticks.Zone] = append(byZone[w.Ticks.Zone], span{b[0], b[1], i})
		}
	}
	for _, z := range zones {
		spans := byZone[z]
		sort.SliceStable(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
		cluster := map[int]int{} // user → a user of its cluster
		var find func(int) int
		find = func(u int) int {
			if c, ok := cluster[u]; ok && c != u {
				r := find(c)
				cluster[u] = r
				return r
			}
			return u
		}
		join := func(a, b int) {
			if ra, rb := find(a), find(b); ra != rb {
				cluster[rb] = ra
			}
		}
		end, rep := -1, -1
		for _, sp := range spans {
			if _, ok := cluster[sp.user]; !ok {
				cluster[sp.user] = sp.user
			}
			if sp.from <= end {
				join(rep, sp.user)
			} else {
				rep = sp.user
			}
			end = max(end, sp.to)
		}
		if n := len(spans); n > 1 && spans[0].from == 0 && end >= 7*86_400_000 {
			join(spans[0].user, spans[n-1].user) // (around the week's end)
		}
		runs, attempts := map[int]int{}, map[int]int{}
		var roots []int
		for _, sp := range spans {
			r := find(sp.user)
			if _, ok := runs[r]; !ok {
				roots = append(roots, r)
				runs[r] = 0
			}
		}
		if len(roots) < 2 {
			continue
		}
		counted := map[int]bool{}
		for _, sp := range spans {
			if !counted[sp.user] {
				counted[sp.user] = true
				r, l := find(sp.user), &ls[sp.user]
				runs[r] = analyze.AddSat(runs[r], l.runs)
				attempts[r] = analyze.AddSat(attempts[r], analyze.MulSat(l.runs, l.attempts))
			}
		}
		best := roots[0]
		for _, r := range roots[1:] {
			if attempts[r] > attempts[best] || attempts[r] == attempts[best] && runs[r] > runs[best] {
				best = r
			}
		}
		most := true
		for _, r := range roots {
			most = most && runs[r] <= runs[best]
		}
		if !most {
			continue
		}
		for u := range counted {
			if find(u) != best {
				ls[u].runs = 0
			}
		}
		g.apart[d] = true
	}
}

// load is what one workflow brings to a dependency: how many of its
// executions can run at once, and the attempts one of them makes; paced
// when its starts, not the fleet, decide the runs, and starts the runs
// that reach its calls (OperationSummary.Starts).
type load struct {
	runs, attempts int
	// resumed is the execution a person's answer resumes, when the
	// workflow's runs call the dependency after a pause for a person
	// (WorkflowSummary.ResumeCalls): beside runs, never taking turns.
	resumed int
	w       *analyze.WorkflowSummary
	paced   bool
	starts  uint8
	// holds is true when sub-workflows were folded into it: its runs last
	// as long as theirs too.
	holds bool
	// persons is the part of runs that one person's triggers start, one
	// execution each (WorkflowSummary.PersonRuns), and unbounded is true
	// when one of its calls (or of a sub-workflow folded into it) retries
	// with no bound while the dependency fails.
	persons   int
	unbounded bool
}

// machine is the part of l's runs that machines start: its schedules',
// its callers' or namers' runs, or the fleet's (a webhook a service calls,
// a poll, a queue), not one person's bot, form or link, nor a run a
// person's answer resumes. A machine's executions fail together when the
// dependency fails, each retrying beside the others; a person's come one
// after another as the person acts, and meet a machine's outage only by
// chance, where the person sees the run fail. The runs of a sub-workflow
// or an error workflow that a caller's or namer's person starts are taken
// as machines' (WorkflowSummary.RunsAtOnce does not tell them apart),
// which overstates and never hides.
func (l *load) machine() int { return max(l.runs-l.persons, 0) }

// machineLoad is what the executions machines start bring to a
// dependency at once: the workflows they come from, how many and their
// attempts, and whether one retries with no bound.
type machineLoad struct {
	users, runs, attempts int
	unbounded             bool
}

// storm reports whether the executions machines start make a storm of
// retries: they come from two workflows or more, two executions or more,
// and make more attempts than there are executions (or retry with no
// bound). A person-paced caller is named beside them but counts for none
// of this (analyze/pacing.go: who drives a trigger).
func (m machineLoad) storm() bool {
	return m.users >= 2 && m.runs >= 2 && (m.attempts > m.runs || m.unbounded)
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
	if g.resumed[d] > 0 {
		tick += ", a run paused for a person's answer resumes one at a time"
	}
	if g.apart[d] {
		tick += ", schedules that fire at fixed times of the day or week further apart than their runs last call it one run after another"
	}
	if g.sharedBot[d] {
		tick += ", Telegram Triggers that take one bot start one execution at a time, in the workflow that set the bot's webhook last"
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
