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
base or a database, only calls made with the same credential) with their own node retries and reports them when no
limit is declared for it in .stormcheck.yaml (dependencies: {HOST: {max_in_flight: N}}), which stands for
a gate you run (a proxy, a queue, one sub-workflow that owns the calls). It needs the workflows in one
run: audit the whole export. Each dependency is reported once, at its first caller, with the others as
related places. A workflow that only a person starts (a Manual Trigger or no trigger, or archived, and
called by no workflow that runs on its own) is not counted: its runs come one click at a time, not all at
once in an outage. An export's "active": false is not taken to mean the workflow never runs: n8n
import:workflow deactivates what it imports by default (cli/src/commands/import/workflow.ts --activeState),
so the owner activates what is deployed.`,
	Fix:        "Route the calls to the shared dependency through one gate (a sub-workflow or proxy that owns retries and concurrency) and declare its limit in .stormcheck.yaml",
	FixDoc:     "None: a shared gate (a proxy, a queue, one sub-workflow that owns the calls) is infrastructure, not a setting.",
	Severity:   analyze.Note,
	Confidence: analyze.Medium,
	Tags:       []string{"retries", "fleet"},
	RunSet: func(pass *analyze.SetPass) {
		g := groupByDependency(pass.Workflows)
		fleet := analyze.MulSat(max(pass.Options.Workers, 1), max(pass.Options.Concurrency, 1))
		for i := range pass.Workflows {
			w := &pass.Workflows[i]
			if w.ManualOnly {
				continue
			}
			reported := map[string]bool{}
			for j := range w.Operations {
				op := &w.Operations[j]
				dep, d := strings.ToLower(op.Dependency), op.Identity
				if !op.Live || d == "" || reported[d] || !nodeRetried(op.Factors) || len(g.users[d]) < 2 {
					continue
				}
				if gated(pass.Options, dep) {
					continue
				}
				reported[d] = true
				pass.Report(w, op, analyze.Diagnostic{
					Message: fmt.Sprintf("%d workflows call %s with their own node retries and no shared gate (here node %q; also %s): in an outage up to %d attempts can be in flight at once across %d concurrent executions",
						len(g.users[d]), dep+sameAccount(op), op.Node, g.others(d, w), analyze.MulSat(g.attempts[d], fleet), fleet),
					Detail:  d,
					FoldKey: d,
					Chain:   op.Factors,
				})
			}
		}
	},
}

// dependencyUsers are the set's node-retried operations grouped by
// dependency (lowercased host): the workflows that call it, in set order,
// the sum of their bounded attempts, and their distinct labels sorted with
// how many workflows bear each, so that naming the others costs each
// workflow a few steps, not a pass over every user.
type dependencyUsers struct {
	users    map[string][]*analyze.WorkflowSummary
	attempts map[string]int
	labels   map[string][]label
	bearers  map[string]map[string]int
	calls    map[string]map[*analyze.WorkflowSummary]bool
	// looked counts the labels others read, over all calls: tests bound it.
	looked int
}

// label is a workflow label and its quoted form, by which labels sort.
type label struct{ raw, quoted string }

func groupByDependency(wfs []analyze.WorkflowSummary) *dependencyUsers {
	g := &dependencyUsers{users: map[string][]*analyze.WorkflowSummary{}, attempts: map[string]int{},
		labels: map[string][]label{}, bearers: map[string]map[string]int{}, calls: map[string]map[*analyze.WorkflowSummary]bool{}}
	seen := g.calls
	for i := range wfs {
		w := &wfs[i]
		if w.ManualOnly {
			continue // its runs come one click at a time, not with the others
		}
		for _, op := range w.Operations {
			if op.Dependency == "" || op.Disabled || !nodeRetried(op.Factors) {
				continue
			}
			d := op.Identity
			if seen[d] == nil {
				seen[d] = map[*analyze.WorkflowSummary]bool{}
			}
			if !seen[d][w] {
				seen[d][w] = true
				g.users[d] = append(g.users[d], w)
				if g.bearers[d] == nil {
					g.bearers[d] = map[string]int{}
				}
				if l := w.Label(); l != "" {
					if g.bearers[d][l]++; g.bearers[d][l] == 1 {
						g.labels[d] = append(g.labels[d], label{l, strconv.Quote(l)})
					}
				}
			}
			if !op.Unbounded {
				g.attempts[d] += op.Attempts
			}
		}
	}
	for _, ls := range g.labels {
		sort.Slice(ls, func(i, j int) bool { return ls[i].quoted < ls[j].quoted })
	}
	return g
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

// nodeRetried reports whether n8n's node (or caller, root, tool) retry
// multiplies the operation: the fixed-wait layer, not an SDK's backoff.
func nodeRetried(factors []analyze.Factor) bool {
	for _, f := range factors {
		switch f.Kind {
		case analyze.KindNodeRetry, analyze.KindRootRetry, analyze.KindToolRetry, analyze.KindCallerRetry:
			if f.Value > 1 {
				return true
			}
		}
	}
	return false
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
