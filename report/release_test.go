package report_test

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/rules"
)

// audit runs what `stormcheck audit` runs on files up to the renderers:
// every rule, the filters, the repairs (with an output cap, so RS302 has
// repairs too).
func audit(files []*n8nschema.File) (*analyze.Set, analyze.Filtered) {
	set := analyze.Build(files, analyze.DefaultOptions())
	all := rules.All()
	out := analyze.Filter(set, analyze.Run(set, all), analyze.FilterOptions{Rules: all, All: all, Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)})
	fix.Attach(set, out.Findings, fix.Options{MaxTokens: 1024})
	return set, out
}

func resultOf(files []*n8nschema.File, set *analyze.Set, fs []analyze.Finding) *report.Result {
	res := &report.Result{Tool: report.Tool{Name: "stormcheck", Version: "test"}, Set: set, Rules: rules.All(), Findings: fs}
	res.Summary.Files, res.Summary.Workflows = len(files), len(set.Workflows)
	for _, w := range set.Workflows {
		res.Summary.Nodes += w.NodeCount()
	}
	res.Summary.Count(fs)
	return res
}

// directives is a workflow whose ignore directives (in a node's notes and
// in a sticky note) match nothing: RS006 reports them after the release,
// at the directive, and SARIF points at the node holding it.
const directives = `{"id": "d1", "name": "Directives", "connections": {"Start": {"main": [[{"node": "Fetch", "type": "main", "index": 0}]]}},
 "nodes": [
  {"id": "1", "name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0], "parameters": {}},
  {"id": "2", "name": "Fetch", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 0],
   "notes": "stormcheck:ignore RS201 -- reviewed in 2025", "parameters": {"url": "https://api.example.com/items"}},
  {"id": "3", "name": "Note", "type": "n8n-nodes-base.stickyNote", "typeVersion": 1, "position": [150, -50],
   "parameters": {"content": "stormcheck:ignore RS504 -- runs by hand", "width": 400, "height": 200}}
 ]}`

func lateRuleFinding(f analyze.Finding) bool { return f.RuleID == analyze.UnusedIgnoreID }

// lateRule is true for the findings the two-pass audit makes after a
// group is released: those of rules that read the whole set (RS505, at
// an operation's node) and the filters' (RS006, at an ignore directive).
func lateRule(f *analyze.Finding) bool {
	return f.RuleID == "RS505" || f.RuleID == analyze.UnusedIgnoreID
}

// released audits files as the two-pass audit does around a release:
// capture what the renderers read (without the findings made after the
// release, which the capture must cover from the operations and the
// directives' places), release the findings and the set.
func released(t testing.TB, files []*n8nschema.File) *report.Result {
	set, out := audit(files)
	var early []analyze.Finding
	var places []report.Place
	for i := range out.Findings {
		f := &out.Findings[i]
		if !lateRule(f) {
			early = append(early, *f)
			continue
		}
		if f.RuleID == analyze.UnusedIgnoreID {
			for _, w := range set.Workflows {
				if w.Source == f.Source && w.Name == f.Workflow && w.ID == f.WorkflowID {
					places = append(places, report.Place{Workflow: w, Node: f.Node, Pos: f.Pos})
				}
			}
		}
	}
	c := report.NewCapture(report.Needs{Snippets: true, Places: true})
	c.Group(set, early, places...)
	analyze.ReleaseFindings(out.Findings)
	set.Release()
	for _, f := range files {
		if !f.Source.Released() {
			t.Fatalf("%s: not released", f.Source.Name)
		}
	}
	res := resultOf(files, set, out.Findings)
	res.Capture = c
	return res
}

// renderAll renders every format, text also in colour with the summary table.
func renderAll(t testing.TB, res *report.Result) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, format := range report.Formats {
		for _, color := range []bool{false, true} {
			if color && format != "text" && format != "concise" {
				continue
			}
			r, err := report.New(format, report.Options{Color: color, TTY: color})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := r.Render(&b, res); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			out[fmt.Sprintf("%s color=%v", format, color)] = b.Bytes()
		}
	}
	return out
}

// TestReleasedRendersSame: a set released after Capture renders, in every
// format, the bytes the whole set renders, on the examples and both corpora.
// A renderer that reads what Release drops panics (the source's bytes,
// positions, a node by name) or differs here.
func TestReleasedRendersSame(t *testing.T) {
	for _, tc := range []struct {
		name string
		load func(testing.TB) []*n8nschema.File
	}{
		{"examples", func(tb testing.TB) []*n8nschema.File { return corpustest.Dir(tb, "../testdata/examples") }},
		{"directives", func(testing.TB) []*n8nschema.File {
			return []*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("directives.json", []byte(directives)))}
		}},
		{"n8n-real", func(tb testing.TB) []*n8nschema.File { return corpustest.Fresh(tb, "n8n-real") }},
		{"n8n-more", func(tb testing.TB) []*n8nschema.File { return corpustest.Fresh(tb, "n8n-more") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.load(t)
			set, out := audit(files)
			if tc.name == "directives" && !slices.ContainsFunc(out.Findings, lateRuleFinding) {
				t.Fatal("no RS006 finding: the capture of directives' places is not tested")
			}
			want := renderAll(t, resultOf(files, set, out.Findings))
			if len(out.Findings) == 0 {
				t.Fatal("no findings: the comparison shows nothing")
			}
			got := renderAll(t, released(t, tc.load(t)))
			for k, w := range want {
				if !bytes.Equal(got[k], w) {
					t.Errorf("%s differs after Release:\n%s", k, firstDiff(w, got[k]))
				}
			}
		})
	}
}

// firstDiff shows the first line that differs.
func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("%d lines, now %d", len(la), len(lb))
}

// TestReleasedWithoutCapture: text of a released set reads its snippets
// from the capture; without one it reaches for the released bytes, and
// that panics, never a quiet wrong snippet. SARIF without the capture's
// node places puts results elsewhere, which the comparison above sees.
func TestReleasedWithoutCapture(t *testing.T) {
	// n8n-more has findings on a setting of a node, not at its key.
	files := corpustest.Fresh(t, "n8n-more")
	set, out := audit(files)
	want := renderAll(t, resultOf(files, set, out.Findings))["sarif color=false"]
	analyze.ReleaseFindings(out.Findings)
	set.Release()
	res := resultOf(files, set, out.Findings)
	var got bytes.Buffer
	if err := (report.SARIF{}).Render(&got, res); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got.Bytes(), want) {
		t.Error("SARIF of a released set without node places is the same: the comparison cannot tell")
	}
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "released") {
			t.Errorf("text rendered a released set without a capture (recovered %q)", r)
		}
	}()
	_ = (&report.Text{}).Render(&bytes.Buffer{}, res)
}

// TestReleaseFreesSources: once a set and its findings are released and
// captured, nothing they hold keeps a source's bytes alive (a name or a
// message that is a view of them would), on the examples and n8n-real.
func TestReleaseFreesSources(t *testing.T) {
	for _, tc := range []struct {
		name string
		load func(testing.TB) []*n8nschema.File
	}{
		{"examples", func(tb testing.TB) []*n8nschema.File { return corpustest.Dir(tb, "../testdata/examples") }},
		{"n8n-real", func(tb testing.TB) []*n8nschema.File { return corpustest.Fresh(tb, "n8n-real") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.load(t)
			wait := corpustest.WatchFreed(files)
			res := released(t, files)
			wait(t, "after Release")
			runtime.KeepAlive(res)
			runtime.KeepAlive(files)
		})
	}
}

// TestDroppedSetFreed: a set dropped without its release (a round of
// simulate --compare's fix loop) is freed while a set released after it
// is kept: what a release packs into shared chunks (package pack) shares
// no chunk with what the dropped set holds.
func TestDroppedSetFreed(t *testing.T) {
	wait := auditAndDrop(t)
	kept := released(t, corpustest.Dir(t, "../testdata/examples"))
	wait(t, "while a set released after them is kept")
	runtime.KeepAlive(kept)
}

// auditAndDrop audits the examples without releasing the set, drops it,
// and returns the wait for its sources.
func auditAndDrop(t *testing.T) func(testing.TB, string) {
	files := corpustest.Dir(t, "../testdata/examples")
	wait := corpustest.WatchFreed(files)
	set, out := audit(files)
	if len(set.Operations) == 0 || len(out.Findings) == 0 {
		t.Fatal("the examples make no operation or finding: the test cannot tell")
	}
	return wait
}
