package analyze

import (
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A WorkflowSummary is what an audit keeps of a workflow once the rules of
// its group ran: plain values copied off the source, no node, graph or
// parameter. The rules that read the whole set (RunSet) and the report's
// list of workflows read summaries, so what they hold can never read a
// file the audit has let go. Source names the file (and tells files of one
// name apart); its bytes are gone once the group is done.
type WorkflowSummary struct {
	Source         *n8nschema.Source
	ID, Name       string
	VersionID      string // the saved version's id (n8nschema.Workflow.VersionID)
	Pos            n8nschema.Pos
	Nodes          int
	ParametersLost bool
	// ManualOnly is true when only a person starts the workflow (ManualOnly):
	// its executions do not come all at once.
	ManualOnly bool
	// Orphans, for a workflow that runs only when an orphan of its group
	// is called (ManualOnly), says which; Unresolved are the calls it
	// makes that the set cannot resolve, when it may run: StartedByHand
	// reads both.
	Orphans    *OrphanGroup
	Unresolved []UnresolvedCall
	// Instance is the n8n instance the workflow was exported from
	// (InstanceOf, "" when the export does not say).
	Instance string
	// RunsAtOnce is how many executions of the workflow can run at once
	// when its schedules, callers, namers or one person's actions decide
	// (RunsAtOnce), 0 when the instance's concurrency does. It is read
	// only for a workflow with an operation RS505 counts
	// (OperationSummary.StrainsDependency): for any other it stays 0
	// uncomputed, and so do PersonRuns, ErrorPaced, ErrorRuns and
	// CallerPaced.
	RunsAtOnce int
	// PersonRuns is the part of RunsAtOnce that triggers one person
	// paces start, one execution each (RunsAtOnce).
	PersonRuns int
	// ResumeCalls are the dependencies (OperationSummary.Identity) its
	// scheduled runs call under retry once a person's answer resumes them
	// after a pause (ResumedCalls): one execution more, at the person's
	// pace, beside RunsAtOnce, for those only; nil when none, and when
	// RunsAtOnce is 0.
	ResumeCalls map[string]bool
	// ErrorPaced is true when RunsAtOnce follows the failed runs of the
	// workflows that name this one as their error workflow.
	ErrorPaced bool
	// ErrorRuns is the part of RunsAtOnce its Error Triggers start, when
	// its schedules start the rest: an operation reached from one side
	// only is called by that side's runs (OperationSummary.Starts).
	ErrorRuns int
	// CallerPaced is true when RunsAtOnce follows the runs of the callers
	// that wait for this sub-workflow (CalledRunsAtOnce): a call the set
	// cannot resolve may start it more often.
	CallerPaced bool
	// WaitedBy are the workflows whose runs hold every run of this
	// sub-workflow, each waiting for it (WaitedBy): its calls come
	// between theirs, never beside them.
	WaitedBy   []WorkflowRef
	Operations []OperationSummary
	// RunState is whether the export shows the workflow published
	// (RunStateOf).
	RunState RunState
	// RunAttempts are, per dependency its operations strain, the attempts
	// one item of one execution makes at worst along one way through its
	// exclusive outputs (RunAttempts); nil when none strains one.
	RunAttempts map[string]int
	// BotTriggers are its enabled Telegram Triggers, each with the bot
	// credential it takes.
	BotTriggers []BotTrigger
	// Ticks, for a workflow whose schedules fire at fixed times of the day
	// or week and alone start it, is when its runs can be in flight
	// (ClockTicksOf); nil otherwise.
	Ticks *ClockTicks
}

// BotTrigger is an enabled Telegram Trigger and the credential (one bot)
// it registers its webhook with.
type BotTrigger struct {
	Node string
	Pos  n8nschema.Pos
	// CredentialID and CredentialName are the telegramApi credential's.
	CredentialID, CredentialName string
	// WebhookID is the node's webhookId: a copy of the workflow keeps it.
	WebhookID string
}

// Bot names the bot a trigger of w takes, "" when it cannot be told: the
// credential id, which names one credential (one bot token) wherever it
// is read, but for an id made of digits only, which n8n before 1.0 numbered
// per instance, and so names one only within w's instance (and none when
// the export names no instance). Telegram sends a bot's updates to the
// one webhook set last (setWebhook, which the Telegram Trigger calls when
// its workflow is published: nodes-base/dist/nodes/Telegram/
// TelegramTrigger.node.js webhookMethods.create), so of the triggers that
// take one bot only one receives messages.
func (t *BotTrigger) Bot(w *WorkflowSummary) string {
	key := t.CredentialID
	if strings.Trim(key, "0123456789") == "" {
		if w.Instance == "" {
			return ""
		}
		key = w.Instance + "\x00" + key
	}
	return key
}

// botTriggers reads w's enabled Telegram Triggers that name a credential.
func (t *Texts) botTriggers(w *n8nschema.Workflow) []BotTrigger {
	var out []BotTrigger
	for _, n := range w.Nodes {
		if n.Type != n8nschema.TypeTelegramTrigger || n.Disabled {
			continue
		}
		c := n.Field("credentials").Get("telegramApi")
		if _, blank := n8nschema.TemplateCredential(n, "telegramApi"); blank || c.Kind() != n8nschema.Object {
			continue // none, or a template's: no bot known
		}
		id := c.Get("id").Str()
		out = append(out, BotTrigger{Node: strings.Clone(n.Name), Pos: t.pos(n.Pos), CredentialID: t.copy(id), CredentialName: t.copy(c.Get("name").Str()), WebhookID: t.copy(n.Field("webhookId").Str())})
	}
	return out
}

// Label is the workflow's name, else its id (n8nschema.Workflow.Label).
func (w *WorkflowSummary) Label() string {
	if w.Name != "" {
		return w.Name
	}
	return w.ID
}

// An OperationSummary is an Operation without its node: the node's name,
// position and settings a report or a set-wide rule reads, and the
// figures Amplify and Spend computed.
type OperationSummary struct {
	Node string
	Pos  n8nschema.Pos
	Type string
	// Identity is the dependency as RS505 groups calls (DependencyIdentity);
	// Account the credential the calls share, if known. Both, and PerKey,
	// are filled only in a workflow with an enabled operation under
	// n8n's retry (SharesDependency), the only ones RS505 and RunAttempts
	// read them of: "" and false in any other.
	Dependency, Identity, Account string
	Model                         string
	Attempts                      int
	CallsPerItem                  int
	// CallsWhileDown are the calls an item still makes while its
	// dependency is down (Operation.CallsWhileDown).
	CallsWhileDown int
	// FirstFailureEndsTry: Operation.FirstFailureEndsTry.
	FirstFailureEndsTry bool
	Factors             []Factor
	// SpendPerItemUSD and SpendPerExecutionUSD hold figures when
	// SpendKnown (Operation.SpendPerExecution).
	SpendPerItemUSD, SpendPerExecutionUSD float64
	// The flags side by side: a summary is kept for every operation of
	// the set, and a bool between wider fields takes eight bytes.
	Disabled, Live bool
	// PerKey is true when the dependency's limits hold per key or account
	// (a model provider, a credential): calls from two n8n instances do not
	// share it (PerKey).
	PerKey, Paid, Write, Unbounded, CallsUnbounded, SpendKnown bool
	// OnceWhileDown is true for an Unbounded operation whose only
	// unbounded factors are loops of its own workflow that its node
	// cannot go round while its dependency fails (OnceWhileDown): then it
	// makes its Attempts once per item in an outage.
	OnceWhileDown bool
	// Starts, when the workflow's ErrorRuns is set, says which runs reach
	// the operation: StartsOther (its schedules'), StartsError (its Error
	// Triggers'), or both; 0 when not told apart.
	Starts uint8
}

// The runs that reach an operation (OperationSummary.Starts).
const (
	StartsOther uint8 = 1 << iota
	StartsError
)

// Summarize copies what the audit keeps of each workflow of the set.
func Summarize(set *Set) []WorkflowSummary { return (*Texts)(nil).Summarize(set) }

// Summarize is the package's Summarize, its repeated texts copied once.
func (t *Texts) Summarize(set *Set) []WorkflowSummary {
	out := make([]WorkflowSummary, len(set.Workflows))
	manual, orphans := manualOnly(set)
	groups := orphanGroups(set, manual, orphans)
	for i, w := range set.Workflows {
		ops := set.OperationsOf(w)
		s := WorkflowSummary{
			Source: w.Source, ID: strings.Clone(w.ID), Name: strings.Clone(w.Name), VersionID: strings.Clone(w.VersionID), Pos: t.pos(w.Pos),
			Nodes: len(w.Nodes), ParametersLost: w.ParametersLost, ManualOnly: manual[w], Operations: make([]OperationSummary, len(ops)),
			Instance: t.copy(InstanceOf(w)), RunState: RunStateOf(w), BotTriggers: t.botTriggers(w),
		}
		switch g := groups[w]; {
		case !manual[w]:
			s.Unresolved = unresolvedCalls(set, w)
		case g != nil:
			s.Orphans = g
			g.Calls = append(g.Calls, unresolvedCalls(set, w)...)
		}
		for j, op := range ops {
			usd, known := op.SpendPerExecution(&set.Options)
			s.Operations[j] = OperationSummary{
				Node: strings.Clone(op.Node.Name), Pos: t.pos(op.Node.Pos), Disabled: op.Node.Disabled, Live: op.Live,
				Type: t.copy(op.Type), Dependency: t.copy(op.Dependency), Model: t.copy(op.Model),
				Paid: op.Paid, Write: op.Write, Attempts: op.Attempts, Unbounded: op.Unbounded, OnceWhileDown: op.Unbounded && OnceWhileDown(set.Graph(w), w, op),
				CallsPerItem: op.CallsPerItem, CallsUnbounded: op.CallsUnbounded, CallsWhileDown: op.CallsWhileDown, FirstFailureEndsTry: op.FirstFailureEndsTry, Factors: t.factors(op.Factors),
				SpendKnown: known, SpendPerItemUSD: op.SpendPerItemUSD, SpendPerExecutionUSD: usd,
			}
		}
		for j := range s.Operations {
			if s.Operations[j].SharesDependency() {
				for k, op := range ops {
					o := &s.Operations[k]
					id, acct, perKey := sharing(op)
					o.Identity, o.Account, o.PerKey = t.copy(id), t.copy(acct), perKey
				}
				break
			}
		}
		for j := range s.Operations {
			if s.Operations[j].StrainsDependency() {
				s.RunsAtOnce, s.PersonRuns = RunsAtOnce(set, w)
				s.RunAttempts = RunAttempts(set, w, ops, s.Operations)
				if s.RunsAtOnce > 0 {
					s.ResumeCalls = t.identities(ResumedCalls(set, w))
				}
				if s.RunsAtOnce > 0 && s.PersonRuns == 0 {
					s.Ticks = ClockTicksOf(set, w)
				}
				break
			}
		}
		s.ErrorPaced = s.RunsAtOnce > 0 && len(set.Graph(w).sortedTriggers().errs) > 0
		if s.ErrorPaced {
			s.ErrorRuns = splitStarts(set, w, ops, s.Operations, s.RunsAtOnce)
		}
		s.CallerPaced = s.RunsAtOnce > 0 && CalledRunsAtOnce(set, w) > 0
		s.WaitedBy = WaitedBy(set, w)
		out[i] = s
	}
	return out
}

// StrainsDependency reports a live operation that calls a dependency
// under n8n's retry (NodeRetried): the only kind RS505 counts, and so the
// only kind for which a workflow's RunsAtOnce is read. Asking who paces
// each trigger walks the runs it starts, so a workflow with none is not
// asked.
func (op *OperationSummary) StrainsDependency() bool {
	return op.Live && op.Dependency != "" && NodeRetried(op.Factors)
}

// SharesDependency reports an enabled operation that calls a dependency
// under n8n's retry: RS505 counts a StrainsDependency one, and the
// instances a dependency's key is used from by any such (it asks this);
// RunAttempts adds every live call of the workflow of a strained one.
// Only in a workflow with one are Identity, Account and PerKey read, and
// filled (a reader of them asks this first, or StrainsDependency, which
// implies it): of n8n-real's 10,429 operations 299 are such, and
// DependencyIdentity is ~1,100 instructions.
func (op *OperationSummary) SharesDependency() bool {
	return op.Dependency != "" && !op.Disabled && NodeRetried(op.Factors)
}

// UnboundedWhileDown reports an operation whose attempts have no bound
// while its dependency fails: Unbounded, but for a call that ends its run
// in each loop that would repeat it (OnceWhileDown).
func (op *OperationSummary) UnboundedWhileDown() bool { return op.Unbounded && !op.OnceWhileDown }

// KeepOwned makes the findings share no memory with the sources' bytes (a
// rule may quote a name or a parameter as it reads it, a view of the
// bytes), so that keeping them keeps no file alive. Like FilterOwned, it
// is for findings the caller owns and does not read again: it rewrites fs
// in place and returns it (a copy of each was a second array of them per
// group).
func KeepOwned(fs []Finding) []Finding { return (*Texts)(nil).KeepOwned(fs) }

// KeepOwned is the package's KeepOwned, its repeated texts copied once.
func (t *Texts) KeepOwned(fs []Finding) []Finding {
	out := fs
	for i, f := range fs {
		f.Pos = t.pos(f.Pos) // (File is its source's name: never a view)
		f.Workflow, f.WorkflowID, f.Node = t.copy(f.Workflow), t.copy(f.WorkflowID), t.copy(f.Node)
		f.Message, f.Fix, f.Detail, f.FoldKey = strings.Clone(f.Message), t.copy(f.Fix), t.copy(f.Detail), t.copy(f.FoldKey)
		f.NoRepair = t.copy(f.NoRepair)
		f.RepairWith = nil // it holds the group's operations
		if f.Related != nil {
			rs := make([]Related, len(f.Related))
			for j, r := range f.Related {
				r.Pos, r.Message = t.pos(r.Pos), strings.Clone(r.Message)
				rs[j] = r
			}
			f.Related = rs
		}
		f.Chain = t.factors(f.Chain)
		if r := f.Repair; r != nil {
			kept := *r
			kept.Description = strings.Clone(r.Description)
			kept.Edits = make([]Edit, len(r.Edits))
			for j, e := range r.Edits {
				e.Text, e.Start, e.End = strings.Clone(e.Text), t.pos(e.Start), t.pos(e.End)
				kept.Edits[j] = e
			}
			f.Repair = &kept
		}
		out[i] = f
	}
	return out
}

// identities copies a set of dependency identities off the sources'
// bytes.
func (t *Texts) identities(m map[string]bool) map[string]bool {
	if m == nil {
		return nil
	}
	out := make(map[string]bool, len(m))
	for d := range m {
		out[t.copy(d)] = true
	}
	return out
}

// KeepFactors copies factors off the sources' bytes.
func KeepFactors(fs []Factor) []Factor { return (*Texts)(nil).factors(fs) }

func (t *Texts) factors(fs []Factor) []Factor {
	if fs == nil {
		return nil
	}
	out := make([]Factor, len(fs))
	for i, f := range fs {
		// (Kind is one of the Kind constants.)
		f.Node, f.Workflow, f.Via, f.Gate = strings.Clone(f.Node), t.copy(f.Workflow), strings.Clone(f.Via), strings.Clone(f.Gate)
		f.Pos = t.pos(f.Pos)
		out[i] = f
	}
	return out
}

func (t *Texts) pos(p n8nschema.Pos) n8nschema.Pos {
	p.Path = t.copy(p.Path)
	return p
}

// Texts copies what an audit keeps off the sources' bytes once per
// distinct text: a node type, a service, an account, a node's path or a
// rule's fix repeats across the operations and findings of thousands of
// workflows, and what the audit keeps of each is what its heap grows by
// (the texts that seldom repeat, a node's name or a message, are cloned
// each time). An audit makes one and drops it at the end; nil copies
// every text. Safe for concurrent use.
type Texts struct {
	mu sync.Mutex
	m  map[string]string
}

func (t *Texts) copy(s string) string {
	if t == nil || s == "" {
		return strings.Clone(s)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	c, ok := t.m[s]
	if !ok {
		if t.m == nil {
			t.m = map[string]string{}
		}
		c = strings.Clone(s)
		t.m[c] = c
	}
	return c
}

// splitStarts, for a workflow both schedules and Error Triggers start,
// returns the runs at once its Error Triggers start and marks which runs
// reach each operation: an error run starts at the Error Trigger alone
// (workflow-execution.service.ts executeErrorWorkflow), so it makes only
// the calls that trigger reaches. It is 0, marking nothing, when Error
// Triggers alone start the workflow.
func splitStarts(set *Set, w *n8nschema.Workflow, ops []*Operation, sums []OperationSummary, runs int) int {
	g := set.Graph(w)
	k := g.sortedTriggers()
	others := k.unattended()
	if len(others) == 0 {
		return 0
	}
	e := ErrorRunsAtOnce(set, w, k.errs)
	if e <= 0 || e >= runs {
		return 0
	}
	byErr, byOther := ReachFrom(g, k.errs...), ReachFrom(g, others...)
	for j, op := range ops {
		if byOther.Has(op.Node) {
			sums[j].Starts |= StartsOther
		}
		if byErr.Has(op.Node) {
			sums[j].Starts |= StartsError
		}
	}
	return e
}
