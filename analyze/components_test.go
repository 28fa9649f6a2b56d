package analyze_test

import (
	"cmp"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/rules"
)

// outcome is what one analysis gives: the summaries of its workflows,
// the findings of every rule, sorted as Run sorts them, and what Filter
// keeps.
type outcome struct {
	wfs      []analyze.WorkflowSummary
	findings []analyze.Finding
	filtered analyze.Filtered
}

// filterOpts keep every finding but those directives ignore.
var filterOpts = analyze.FilterOptions{Rules: rules.All(), Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}

func whole(files []*n8nschema.File, opts analyze.Options) outcome {
	s := analyze.Build(files, opts)
	fs := analyze.Run(s, rules.All())
	fix.Attach(s, fs, fix.Options{MaxTokens: 4096})
	return outcome{analyze.Summarize(s), fs, analyze.Filter(s, fs, filterOpts)}
}

// byGroups is the two-pass audit: each group's set runs the group rules
// and attaches repairs; with keep, its findings are copied (analyze.KeepOwned)
// and its sources released, as the engine does. The set-wide rules then
// run on the summaries of every workflow, in set order.
func byGroups(files []*n8nschema.File, groups [][]int, opts analyze.Options, keep bool) outcome {
	group, setWide := analyze.SplitRules(rules.All())
	var out outcome
	dirs := make([][]analyze.Directive, len(groups))
	wfs := make([][]analyze.WorkflowSummary, len(files))
	for i, g := range groups {
		var sub []*n8nschema.File
		for _, fi := range g {
			sub = append(sub, files[fi])
		}
		set := analyze.Build(sub, opts)
		fs := analyze.Run(set, group)
		fix.Attach(set, fs, fix.Options{MaxTokens: 4096})
		dirs[i] = analyze.CollectDirectives(set, filterOpts.Rules)
		sum := analyze.Summarize(set)
		for _, fi := range g {
			n := len(files[fi].Workflows)
			wfs[fi], sum = sum[:n], sum[n:]
		}
		if keep {
			fs = analyze.KeepOwned(fs)
			for _, f := range sub {
				f.Source.Release()
			}
		}
		out.findings = append(out.findings, fs...)
	}
	out.wfs = slices.Concat(wfs...)
	out.findings = append(out.findings, analyze.RunSet(out.wfs, setWide, &opts)...)
	analyze.SortFindings(out.findings)
	fo := filterOpts
	fo.Directives, fo.DirectivesCollected = analyze.MergeDirectives(dirs, groups), true
	out.filtered = analyze.Filter(nil, out.findings, fo)
	return out
}

// same compares sources by identity: both analyses share them.
var same = gocmp.Options{gocmp.Comparer(func(a, b *n8nschema.Source) bool { return a == b })}

// alike compares sources by name: the files were parsed twice.
var alike = gocmp.Options{gocmp.Comparer(func(a, b *n8nschema.Source) bool { return a == b || a != nil && b != nil && a.Name == b.Name })}

// differ compares two outcomes: summaries and findings.
func differ(t *testing.T, want, got outcome, opts gocmp.Options) {
	t.Helper()
	for _, c := range []struct {
		what string
		a, b any
	}{{"workflows", want.wfs, got.wfs}, {"findings", want.findings, got.findings}, {"filtered findings", want.filtered, got.filtered}} {
		if d := gocmp.Diff(c.a, c.b, opts); d != "" {
			t.Errorf("%s by groups differ from the whole set's (-whole +groups):\n%s", c.what, d)
		}
	}
}

// checkGroups asserts that the two-pass audit over the groups Components
// makes gives what the whole set gives, and returns the groups. fresh are
// the same files parsed again (nil: none): the audit runs on them a second
// time, releasing each group as the driver does.
func checkGroups(t *testing.T, files, fresh []*n8nschema.File, opts analyze.Options) [][]int {
	t.Helper()
	links := make([]analyze.Links, len(files))
	for i, f := range files {
		links[i] = analyze.LinksOf(f)
	}
	groups := analyze.Components(links)
	seen := 0
	for _, g := range groups {
		if !slices.IsSorted(g) || len(g) == 0 {
			t.Fatalf("group %v: want file indexes ascending", g)
		}
		seen += len(g)
	}
	if seen != len(files) {
		t.Fatalf("groups hold %d files, want %d", seen, len(files))
	}
	want := whole(files, opts)
	differ(t, want, byGroups(files, groups, opts, false), same)
	if fresh != nil {
		differ(t, want, byGroups(fresh, groups, opts, true), alike)
	}
	return groups
}

func TestComponentsExamples(t *testing.T) {
	dir := filepath.Join("..", "testdata", "examples")
	checkGroups(t, corpustest.Dir(t, dir), corpustest.Dir(t, dir), analyze.DefaultOptions())
}

func TestComponentsCorpora(t *testing.T) {
	for _, name := range []string{"n8n-real", "n8n-more"} {
		t.Run(name, func(t *testing.T) {
			files := corpustest.FilesOf(t, name)
			groups := checkGroups(t, files, corpustest.Fresh(t, name), analyze.DefaultOptions())
			bytesOf := func(g []int) (n int) {
				for _, fi := range g {
					n += len(files[fi].Source.Src)
				}
				return n
			}
			byFiles := slices.MaxFunc(groups, func(a, b []int) int { return cmp.Compare(len(a), len(b)) })
			byBytes := slices.MaxFunc(groups, func(a, b []int) int { return cmp.Compare(bytesOf(a), bytesOf(b)) })
			size, total, multi := 0, 0, 0
			for _, f := range files {
				size += linksSize(analyze.LinksOf(f))
				total += len(f.Source.Src)
			}
			for _, g := range groups {
				if len(g) > 1 {
					multi++
				}
			}
			t.Logf("%d files (%d bytes) in %d groups, %d of several files; links ~%d bytes; most files: %d (%d bytes); most bytes: %d files (%d bytes)",
				len(files), total, len(groups), multi, size, len(byFiles), bytesOf(byFiles), len(byBytes), bytesOf(byBytes))
		})
	}
}

// linksSize is about how many bytes links hold: strings and headers.
func linksSize(l analyze.Links) int {
	const str, slice = 16, 24
	n := slice + len(l.Workflows)*(str+3*slice)
	for _, w := range l.Workflows {
		n += len(w.ID)
		for _, ss := range [][]string{w.Hooks, w.IDRefs, w.HookRefs} {
			for _, s := range ss {
				n += str + len(s)
			}
		}
	}
	return n
}

// node is one node of a crafted workflow.
type node struct {
	name, typ string
	params    string // the parameters object
	extra     string // more fields of the node: `"retryOnFail": true, …`
}

// workflow writes a workflow export: its nodes in a chain, in order.
func workflow(id, name, settings string, nodes ...node) string {
	var ns, cs []string
	for i, n := range nodes {
		extra := ""
		if n.extra != "" {
			extra = ", " + n.extra
		}
		ns = append(ns, fmt.Sprintf(`{"name": %q, "type": %q, "typeVersion": 1, "position": [%d, 0], "parameters": %s%s}`,
			n.name, n.typ, 200*i, cmp.Or(n.params, "{}"), extra))
		if i > 0 {
			cs = append(cs, fmt.Sprintf(`%q: {"main": [[{"node": %q, "type": "main", "index": 0}]]}`, nodes[i-1].name, n.name))
		}
	}
	return fmt.Sprintf(`{"id": %q, "name": %q, "nodes": [%s], "connections": {%s}, "settings": {%s}}`,
		id, name, strings.Join(ns, ", "), strings.Join(cs, ", "), settings)
}

const (
	execTrigger  = "n8n-nodes-base.executeWorkflowTrigger"
	execWorkflow = "n8n-nodes-base.executeWorkflow"
	httpRequest  = "n8n-nodes-base.httpRequest"
	webhookNode  = "n8n-nodes-base.webhook"
	errorTrigger = "n8n-nodes-base.errorTrigger"
	schedule     = "n8n-nodes-base.scheduleTrigger"
	retried      = `"retryOnFail": true, "maxTries": 3`
)

func callID(id string) string {
	return fmt.Sprintf(`{"workflowId": {"__rl": true, "mode": "id", "value": %q}}`, id)
}

// callNamed calls a workflow by id from a list, which caches its name.
func callNamed(id, name string) string {
	return fmt.Sprintf(`{"workflowId": {"__rl": true, "mode": "list", "value": %q, "cachedResultName": %q}}`, id, name)
}

func fetch(url string) string { return fmt.Sprintf(`{"url": %q, "method": "POST"}`, url) }

func parseAll(srcs map[string]string) []*n8nschema.File {
	names := make([]string, 0, len(srcs))
	for n := range srcs {
		names = append(names, n)
	}
	slices.Sort(names)
	var files []*n8nschema.File
	for _, n := range names {
		files = append(files, n8nschema.Parse(n8nschema.NewSource(n, []byte(srcs[n]))))
	}
	return files
}

func TestComponentsCrafted(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  [][]int
		// rule, file: a finding the whole set makes, so the case means
		// something.
		rule, file string
	}{{
		name: "ids duplicated across files: every holder joins the caller",
		files: map[string]string{
			"a.json": workflow("A", "Caller", "", node{"Start", schedule, "", ""}, node{"Run", execWorkflow, callID("D"), retried}),
			"b.json": workflow("D", "First D", "", node{"In", execTrigger, "", ""}, node{"Call", httpRequest, fetch("https://api.example.com/x"), retried}),
			"c.json": workflow("D", "Second D", "", node{"In", execTrigger, "", ""}, node{"Call", httpRequest, fetch("https://api.example.com/y"), ""}),
			"d.json": workflow("D2", "Copy of nothing", "", node{"In", execTrigger, "", ""}),
			"e.json": workflow("E", "Copy of nothing", "", node{"In", execTrigger, "", ""}),
		},
		want: [][]int{{0, 1, 2}, {3}, {4}},
		rule: "RS104", file: "b.json",
	}, {
		name: "a missing id stays alone and is unresolved",
		files: map[string]string{
			"a.json": workflow("A", "Caller", "", node{"Start", schedule, "", ""}, node{"Run", execWorkflow, callID("nowhere"), ""}),
			"b.json": workflow("B", "Caller", "", node{"Start", schedule, "", ""}, node{"Run", execWorkflow, callID("nowhere"), ""}),
		},
		want: [][]int{{0}, {1}},
		rule: "RS005", file: "b.json",
	}, {
		name: "a missing id found by the callee's cached name, when one workflow bears it",
		files: map[string]string{
			"a.json": workflow("A", "Caller", "", node{"Start", schedule, "", ""}, node{"Run", execWorkflow, callNamed("lost", "Enrich lead"), retried}),
			"b.json": workflow("", "Enrich lead", "", node{"In", execTrigger, "", ""}, node{"Call", httpRequest, fetch("https://api.example.com/x"), retried}),
			"c.json": workflow("C", "Other", "", node{"Start", schedule, "", ""}),
		},
		want: [][]int{{0, 1}, {2}},
		rule: "RS104", file: "b.json",
	}, {
		name: "a missing id whose cached name only a file with neither id nor name carries: joined, named, not resolved",
		files: map[string]string{
			"a.json":                       workflow("A", "Caller", "", node{"Start", schedule, "", ""}, node{"Run", execWorkflow, callNamed("lost", "KB SEARCH"), retried}),
			"flows/Agente__KB search.json": workflow("", "", "", node{"In", execTrigger, "", ""}, node{"Call", httpRequest, fetch("https://api.example.com/x"), retried}),
			"c.json":                       workflow("", "", "", node{"In", execTrigger, "", ""}),
			"d.json":                       workflow("D", "Caller", "", node{"Start", schedule, "", ""}, node{"Run", execWorkflow, callNamed("lost2", "SEARCH"), retried}),
		},
		want: [][]int{{0, 3}, {1}, {2}},
		rule: "RS005", file: "a.json",
	}, {
		name: "error workflow chain",
		files: map[string]string{
			"1.json": workflow("W1", "Job", `"errorWorkflow": "E1"`, node{"Start", schedule, "", ""}, node{"Call", httpRequest, fetch("https://api.example.com/a"), retried}),
			"2.json": workflow("E1", "Handler", `"errorWorkflow": "E2"`, node{"Err", errorTrigger, "", ""}, node{"Notify", httpRequest, fetch("https://hooks.example.com/a"), retried}),
			"3.json": workflow("E2", "Last resort", `"errorWorkflow": "E1"`, node{"Err", errorTrigger, "", ""}, node{"Page", httpRequest, fetch("https://pager.example.com/a"), retried}),
			"4.json": workflow("W4", "Other job", "", node{"Start", schedule, "", ""}),
		},
		want: [][]int{{0, 1, 2}, {3}},
		rule: "RS102", file: "2.json",
	}, {
		name: "webhook self-call",
		files: map[string]string{
			"a.json": workflow("A", "Restarts", "", node{"Hook", webhookNode, `{"path": "restart"}`, ""},
				node{"Work", httpRequest, fetch("https://api.example.com/a"), retried},
				node{"Again", httpRequest, fetch("http://localhost:5678/webhook/restart"), ""}),
			"b.json": workflow("B", "Restarts", "", node{"Start", schedule, "", ""}),
		},
		want: [][]int{{0}, {1}},
		rule: "RS102", file: "a.json",
	}, {
		name: "a webhook key served twice pulls in both servers",
		files: map[string]string{
			"a.json": workflow("A", "Caller", "", node{"Start", schedule, "", ""}, node{"Post", httpRequest, fetch("http://localhost:5678/webhook/ingest"), retried}),
			"b.json": workflow("B", "Ingest", "", node{"Hook", webhookNode, `{"path": "ingest"}`, ""}, node{"Call", httpRequest, fetch("https://api.example.com/b"), retried}),
			"c.json": workflow("C", "Ingest", "", node{"Hook", webhookNode, `{"path": "ingest"}`, ""}, node{"Call", httpRequest, fetch("https://api.example.com/c"), retried}),
			"d.json": workflow("D", "Ingest", "", node{"Hook", webhookNode, `{"path": "other"}`, ""}),
		},
		want: [][]int{{0, 1, 2}, {3}},
		rule: "RS104", file: "b.json",
	}, {
		name: "a cycle across three files",
		files: map[string]string{
			"a.json": workflow("A", "A", "", node{"In", execTrigger, "", ""}, node{"Call", httpRequest, fetch("https://api.example.com/a"), retried}, node{"Next", execWorkflow, callID("B"), ""}),
			"b.json": workflow("B", "B", "", node{"In", execTrigger, "", ""}, node{"Next", execWorkflow, callID("C"), ""}),
			"c.json": workflow("C", "C", "", node{"In", execTrigger, "", ""}, node{"Next", execWorkflow, callID("A"), ""}),
			"d.json": workflow("D", "D", "", node{"In", execTrigger, "", ""}, node{"Next", execWorkflow, callID("D"), ""}),
		},
		want: [][]int{{0, 1, 2}, {3}},
		rule: "RS102", file: "b.json",
	}, {
		name: "a dependency shared across groups (set-wide RS505)",
		files: map[string]string{
			"a.json": workflow("A", "Sync A", "", node{"Start", schedule, "", ""}, node{"Call", httpRequest, fetch("https://api.shared.internal/a"), retried}),
			"b.json": workflow("B", "Sync B", "", node{"Start", schedule, "", ""}, node{"Call", httpRequest, fetch("https://api.shared.internal/b"), retried}),
		},
		want: [][]int{{0}, {1}},
		rule: "RS505", file: "a.json",
	}, {
		name: "ignore directives: used, unused, malformed, and one said twice in files of one group",
		files: map[string]string{
			"a.json": workflow("X", "Dup", "", node{"Start", schedule, "", ""},
				node{"Call", httpRequest, fetch("https://api.example.com/a"), retried + `, "notes": "stormcheck:ignore RS202 -- legacy"`}),
			"b.json": workflow("Y", "Other", "", node{"Note", "n8n-nodes-base.stickyNote", `{"content": "stormcheck:ignore RS402 -- alerts come from the caller"}`, ""},
				node{"Start", schedule, "", ""},
				node{"Call", httpRequest, fetch("https://api.example.com/b"), retried + `, "notes": "stormcheck:ignore RS503 -- the API answers 4xx only on overload"`},
				node{"Bad", httpRequest, fetch("https://api.example.com/c"), `"notes": "stormcheck:ignore RS101"`}),
			"c.json": workflow("X", "Dup", "", node{"Start", schedule, "", ""},
				node{"Call", httpRequest, fetch("https://api.example.com/a"), retried + `, "notes": "stormcheck:ignore RS202 -- legacy"`}),
			"d.json": workflow("D", "Caller", "", node{"Start", schedule, "", ""},
				node{"Run", execWorkflow, callID("X"), retried + `, "notes": "stormcheck:ignore RS504 -- the callee times out"`}),
		},
		want: [][]int{{0, 2, 3}, {1}},
		rule: "RS006", file: "c.json",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := parseAll(tt.files)
			opts := analyze.DefaultOptions()
			groups := checkGroups(t, files, parseAll(tt.files), opts)
			if d := gocmp.Diff(tt.want, groups); d != "" {
				t.Errorf("groups (-want +got):\n%s", d)
			}
			all := whole(files, opts)
			is := func(f analyze.Finding) bool { return f.RuleID == tt.rule && f.File == tt.file }
			if !slices.ContainsFunc(all.findings, is) && !slices.ContainsFunc(all.filtered.Findings, is) {
				t.Errorf("no %s finding in %s: the case tests nothing", tt.rule, tt.file)
			}
			// Files alone give another outcome whenever a group joins
			// several: the check above can fail.
			if slices.ContainsFunc(groups, func(g []int) bool { return len(g) > 1 }) {
				alone := make([][]int, len(files))
				for i := range alone {
					alone[i] = []int{i}
				}
				apart := byGroups(files, alone, opts, false)
				if gocmp.Equal(all.findings, apart.findings, same) && gocmp.Equal(all.wfs, apart.wfs, same) {
					t.Errorf("every file alone gives the whole set's outcome: the case does not need its groups")
				}
			}
		})
	}
}

// TestLinksFreeSources: pass 1 keeps the links of every file and drops the
// file; no string of the links may keep the file's bytes alive.
func TestLinksFreeSources(t *testing.T) {
	for _, tc := range []struct {
		name string
		load func(testing.TB) []*n8nschema.File
	}{
		{"examples", func(tb testing.TB) []*n8nschema.File {
			return corpustest.Dir(tb, filepath.Join("..", "testdata", "examples"))
		}},
		{"n8n-more", func(tb testing.TB) []*n8nschema.File { return corpustest.Fresh(tb, "n8n-more") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.load(t)
			wait := corpustest.WatchFreed(files)
			refs := 0
			links := make([]analyze.Links, len(files))
			for i, f := range files {
				links[i] = analyze.LinksOf(f)
				for _, w := range links[i].Workflows {
					refs += len(w.IDRefs) + len(w.HookRefs)
				}
			}
			if refs == 0 {
				t.Fatal("no file refers to another: the test would prove nothing")
			}
			files = nil
			wait(t, "by their links")
			runtime.KeepAlive(links)
		})
	}
}
