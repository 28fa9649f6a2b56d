package rules

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// sharedHostSet is n workflows that each POST to one host with node
// retries: the set RS505 reports once per workflow. Names repeat (every
// seventh shares a name) and some workflows have none, so naming the
// others has every case to get right.
func sharedHostSet(t testing.TB, n int) *analyze.Set {
	t.Helper()
	var files []*n8nschema.File
	for i := range n {
		name := fmt.Sprintf("Flow %d", i)
		switch {
		case i%7 == 0:
			name = "Shared name"
		case i%11 == 0:
			name = ""
		}
		// Each runs on a schedule: RS505 leaves out what only a person starts.
		src, err := json.Marshal(map[string]any{"id": fmt.Sprintf("w%d", i), "name": name, "connections": map[string]any{
			"Every hour": map[string]any{"main": []any{[]any{map[string]any{"node": "Call", "type": "main", "index": 0}}}},
		}, "nodes": []any{
			map[string]any{"id": "0", "name": "Every hour", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": []int{0, 0}, "parameters": map[string]any{}},
			map[string]any{"id": "1", "name": "Call", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": []int{0, 0},
				"retryOnFail": true, "maxTries": 3, "parameters": map[string]any{"method": "GET", "url": "https://api.inventory.internal/items"}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, n8nschema.Parse(n8nschema.NewSource(fmt.Sprintf("w%d.json", i), src)))
	}
	return analyze.Build(files, analyze.DefaultOptions())
}

// otherWorkflowsRef is how RS505 named the other workflows before it
// grouped their names once per set: a pass over every user per workflow.
func otherWorkflowsRef(ws []*analyze.WorkflowSummary, self *analyze.WorkflowSummary) string {
	seen := map[string]bool{}
	var names []string
	n := 0
	for _, w := range ws {
		if w == self {
			continue
		}
		n++
		if l := w.Label(); l != "" && !seen[l] {
			seen[l] = true
			names = append(names, fmt.Sprintf("%q", l))
		}
	}
	sort.Strings(names)
	if len(names) > 3 {
		names = names[:3]
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

// TestRS505Linear: RS505 over workflows sharing one host reports each
// workflow once, names the others as it did, and reads a bounded number of
// names per workflow, not every user's.
func TestRS505Linear(t *testing.T) {
	for _, n := range []int{2, 3, 12, 300} {
		set := sharedHostSet(t, n)
		wfs := analyze.Summarize(set)
		fs := analyze.RunSet(wfs, []*analyze.Rule{rs505}, &set.Options)
		if len(fs) != n {
			t.Fatalf("%d workflows: %d RS505 findings, want one each", n, len(fs))
		}
		g := groupByDependency(wfs, analyze.StartedByHand(wfs), 10)
		for _, f := range fs {
			var self *analyze.WorkflowSummary
			for i := range wfs {
				if wfs[i].ID == f.WorkflowID {
					self = &wfs[i]
				}
			}
			if want := otherWorkflowsRef(g.users["api.inventory.internal"], self); !strings.Contains(f.Message, "also "+want+")") {
				t.Errorf("%d workflows, %s: message %q does not name %q", n, f.WorkflowID, f.Message, want)
			}
			g.others("api.example.com", self)
		}
		if looked := g.looked; looked > 4*n {
			t.Errorf("%d workflows: naming the others read %d labels, want at most 4 per workflow", n, looked)
		}
	}
}

// BenchmarkRS505 audits sets of workflows that share one host with every
// rule, and RS505 alone: the time per workflow should not grow with the set.
func BenchmarkRS505(b *testing.B) {
	for _, n := range []int{5000, 10000, 20000} {
		set := sharedHostSet(b, n)
		for _, rs := range []struct {
			name  string
			rules []*analyze.Rule
		}{{"build+rs505", []*analyze.Rule{rs505}}, {"build+all", All()}} {
			b.Run(fmt.Sprintf("%s/%d", rs.name, n), func(b *testing.B) {
				cpu := cputime.Used()
				for b.Loop() {
					set := analyze.Build(set.Files, analyze.DefaultOptions())
					analyze.Run(set, rs.rules)
				}
				// CPU time too: on a shared machine wall time is noise.
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/workflow")
				b.ReportMetric(float64((cputime.Used()-cpu).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/workflow")
			})
		}
	}
}

// retriedChain is one workflow: a schedule, then k HTTP Requests in a
// chain, each retried 3 times and continuing on failure (so that a failed
// call does not end the way: RunAttempts); with pairs, the host of the
// i-th call is called again at the (k/2+i)-th, else each call has a host
// of its own.
func retriedChain(k int, pairs bool) *analyze.Set {
	nodes := []string{`{"name":"Schedule","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"position":[0,0],"parameters":{"rule":{"interval":[{"field":"hours","hoursInterval":1}]}}}`}
	var conns []string
	prev := "Schedule"
	for i := range k {
		host := i
		if pairs {
			host = i % (k / 2)
		}
		name := fmt.Sprintf("Call %d", i)
		nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"retryOnFail":true,"maxTries":3,"onError":"continueRegularOutput","parameters":{"method":"GET","url":"https://api%d.reportly.io/v1/x","options":{"timeout":1000}}}`, name, host))
		conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":%q,"type":"main","index":0}]]}`, prev, name))
		prev = name
	}
	return generatedSet("chain", nodes, conns, `"meta":{"instanceId":"abc123"}`)
}

// TestRunAttemptsLinearInHosts: the worst way's attempts per dependency
// (analyze.RunAttempts) over a chain of retried calls,
// each to a host of its own or each host called twice, are every call's
// attempts on the way (3 and 6), and 4× the calls take at most 6× the
// CPU time. It walked the workflow once per dependency (8,000 calls to
// distinct hosts took 22 s).
func TestRunAttemptsLinearInHosts(t *testing.T) {
	const k = 1000
	for _, pairs := range []bool{false, true} {
		small, large := retriedChain(k, pairs), retriedChain(4*k, pairs)
		ss, ls := analyze.Summarize(small), analyze.Summarize(large)
		var sa, la map[string]int
		attempts := func(set *analyze.Set, s []analyze.WorkflowSummary) map[string]int {
			w := set.Workflows[0]
			return analyze.RunAttempts(set, w, set.OperationsOf(w), s[0].Operations)
		}
		linearIn(t, fmt.Sprintf("RunAttempts over calls (pairs %v)", pairs), k, func() { sa = attempts(small, ss) }, func() { la = attempts(large, ls) })
		want := 3
		if pairs {
			want = 6
		}
		for _, m := range []map[string]int{sa, la} {
			for d, a := range m {
				if a != want {
					t.Fatalf("pairs %v: RunAttempts[%q] = %d, want %d", pairs, d, a, want)
				}
			}
		}
		if n := len(la); pairs && n != 2*k || !pairs && n != 4*k {
			t.Fatalf("pairs %v: %d dependencies in RunAttempts", pairs, n)
		}
	}
}

// pollLoop is one workflow: a webhook, then a Wait, k retried POSTs in a
// chain and an If that goes back to the Wait until a status comes: a poll
// loop that goes round only on an answer, so each call, which ends the
// run when it fails, is made once while its dependency fails.
func pollLoop(k int) *analyze.Set {
	nodes := []string{
		`{"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"webhookId":"0b5c6c1e-6a51-4a55-9f0e-000000000003","position":[0,0],"parameters":{"path":"p","httpMethod":"POST"}}`,
		`{"name":"Wait","type":"n8n-nodes-base.wait","typeVersion":1.1,"webhookId":"0b5c6c1e-6a51-4a55-9f0e-000000000004","position":[0,0],"parameters":{}}`,
		`{"name":"Done?","type":"n8n-nodes-base.if","typeVersion":2.2,"position":[0,0],"parameters":{"conditions":{"options":{"version":2},"combinator":"and","conditions":[{"leftValue":"={{ $json.status }}","rightValue":"completed","operator":{"type":"string","operation":"equals"}}]}}}`,
	}
	conns := []string{
		`"Hook":{"main":[[{"node":"Wait","type":"main","index":0}]]}`,
		`"Wait":{"main":[[{"node":"Poll 0","type":"main","index":0}]]}`,
		`"Done?":{"main":[[],[{"node":"Wait","type":"main","index":0}]]}`,
	}
	for i := range k {
		name := fmt.Sprintf("Poll %d", i)
		nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"retryOnFail":true,"maxTries":3,"parameters":{"method":"POST","url":"https://api%d.reportly.io/v1/status"}}`, name, i))
		next := "Done?"
		if i+1 < k {
			next = fmt.Sprintf("Poll %d", i+1)
		}
		conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":%q,"type":"main","index":0}]]}`, name, next))
	}
	return generatedSet("poll", nodes, conns)
}

// TestOnceWhileDownLinearInLoop: every call of one poll loop is made once
// while its dependency fails (analyze.OnceWhileDown), and 4× the calls in
// the loop take at most 6× the CPU time. Each call read the loop's nodes
// once per root it runs within.
func TestOnceWhileDownLinearInLoop(t *testing.T) {
	const k = 500
	small, large := pollLoop(k), pollLoop(4*k)
	once := func(set *analyze.Set) int {
		w := set.Workflows[0]
		g := set.Graph(w)
		n := 0
		for _, op := range set.OperationsOf(w) {
			if analyze.OnceWhileDown(g, w, op) {
				n++
			}
		}
		return n
	}
	var ns, nl int
	linearIn(t, "OnceWhileDown over the calls of one loop", k, func() { ns = once(small) }, func() { nl = once(large) })
	if ns != k || nl != 4*k {
		t.Fatalf("OnceWhileDown holds for %d of %d calls and %d of %d", ns, k, nl, 4*k)
	}
}
