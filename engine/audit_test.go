package engine

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/pool"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
)

// TestAuditSameAsWholeSet checks the two passes against one analysis of
// the whole set: every input that calls no workflow audited alone in pass
// 1, each larger group and each caller found alone in pass 2, must give,
// after the set-wide rules and the filters, the findings (places,
// messages, fingerprints, chains, related places and repairs) and the
// workflow summaries that Build over every file at once gives.
func TestAuditSameAsWholeSet(t *testing.T) {
	for _, name := range []string{"examples", "n8n-real", "n8n-more"} {
		t.Run(name, func(t *testing.T) {
			ins, st := inputsOf(t, name)
			rd := Reading{Limit: DefaultMaxFileSize, Needs: report.Needs{Snippets: true, Places: true}}
			got := st.Audit(ins, rd)

			set := analyze.Build(Parse(ins, rd), st.Analysis)
			fs := analyze.Run(set, st.Rules)
			fix.Attach(set, fs, st.FixOptions)
			want := analyze.Filter(set, fs, st.Filter)
			if len(want.Findings) == 0 {
				t.Fatal("no findings: the comparison would prove nothing")
			}
			if d := gocmp.Diff(summarize(want), summarize(got.Filtered())); d != "" {
				t.Errorf("audit by groups differs from the whole set (-whole +groups):\n%s", d)
			}
			wfs := analyze.Summarize(set)
			if d := gocmp.Diff(wfs, got.Workflows, gocmp.Comparer(func(a, b *n8nschema.Source) bool { return a.Name == b.Name })); d != "" {
				t.Errorf("workflow summaries differ (-whole +groups):\n%s", d)
			}
		})
	}
}

// summarize is what a report shows of the filtered findings, one line each.
func summarize(f analyze.Filtered) []string {
	out := []string{fmt.Sprintf("ignored %d baselined %d below %d", f.Ignored, f.Baselined, f.BelowConfidence)}
	for _, x := range f.Findings {
		line := fmt.Sprintf("%s %s %s %s/%s/%s %s %s %s %s", x.RuleID, x.File, pos(x.Pos), x.Workflow, x.WorkflowID, x.Node,
			x.Severity, x.Confidence, x.Message, x.Fingerprint)
		for _, c := range x.Chain {
			line += fmt.Sprintf(" | %s %d %t %s %s %s %s %s", c.Kind, c.Value, c.Unbounded, c.Node, c.Workflow, c.Via, pos(c.Pos), name(c.Source))
		}
		for _, r := range x.Related {
			line += fmt.Sprintf(" | %s %s %s %s", r.File, pos(r.Pos), r.Message, name(r.Source))
		}
		if x.Repair != nil {
			line += fmt.Sprintf(" | repair %s %v", x.Repair.Description, x.Repair.Safety)
			for _, e := range x.Repair.Edits {
				line += fmt.Sprintf(" %s@%d+%d=%q %s-%s", name(e.Source), e.Offset, e.Len, e.Text, pos(e.Start), pos(e.End))
			}
		}
		out = append(out, line)
	}
	return out
}

func pos(p n8nschema.Pos) string { return fmt.Sprintf("%d:%d@%d %s", p.Line, p.Col, p.Offset, p.Path) }

func name(s *n8nschema.Source) string {
	if s == nil {
		return "<nil>"
	}
	return s.Name
}

// TestAuditFreesSources: once the audit is done, with snippets taken for
// text output, no source's bytes are held: neither by the inputs audited
// alone in pass 1 nor by those audited again in a group.
func TestAuditFreesSources(t *testing.T) {
	for _, name := range []string{"examples", "n8n-more"} {
		t.Run(name, func(t *testing.T) {
			ins, st := inputsOf(t, name)
			var watched atomic.Int64
			freed := make(chan struct{}, 4*len(ins))
			for i := range ins {
				read := ins[i].Read
				ins[i].Read = func(limit int64) ([]byte, error) {
					b, err := read(limit)
					if len(b) >= 64 { // the runtime may batch tiny objects
						watched.Add(1)
						runtime.AddCleanup(&b[0], func(struct{}) { freed <- struct{}{} }, struct{}{})
					}
					return b, err
				}
			}
			a := st.Audit(ins, Reading{Limit: DefaultMaxFileSize, Needs: report.Needs{Snippets: true, Places: true}})
			for range 3 {
				runtime.GC()
			}
			deadline := time.After(10 * time.Second)
			for n := int64(0); n < watched.Load(); n++ {
				select {
				case <-freed:
				case <-deadline:
					t.Fatalf("%d of %d sources still held after the audit", watched.Load()-n, watched.Load())
				}
			}
			runtime.KeepAlive(a)
		})
	}
}

// TestAuditRaisesAReadPanic: an input whose reading panics ends the audit
// with the panic of the lowest input, raised once every other input is
// done (pool.Each), so cmd reports it as an internal error.
func TestAuditRaisesAReadPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	ins, st := inputsOf(t, "examples")
	var read atomic.Int64
	for i := range ins {
		r := ins[i].Read
		boom := i%5 == 3
		ins[i].Read = func(limit int64) ([]byte, error) {
			read.Add(1)
			if boom {
				panic("exploded on " + ins[i].Name)
			}
			return r(limit)
		}
	}
	defer func() {
		p, ok := recover().(*pool.Panic)
		if !ok || p.String() != "exploded on "+ins[3].Name {
			t.Errorf("recovered %v, want the panic of %s", p, ins[3].Name)
		}
		if read.Load() < int64(len(ins)) {
			t.Errorf("%d of %d inputs read: the others did not finish", read.Load(), len(ins))
		}
	}()
	st.Audit(ins, Reading{Limit: DefaultMaxFileSize})
	t.Error("no panic")
}

// inputsOf lists the JSON files of the examples or a corpus as the command
// line walks a folder (sorted by name, hidden files and node_modules left
// out), with the default settings.
func inputsOf(tb testing.TB, corpus string) ([]Input, *Settings) {
	tb.Helper()
	root := "../testdata/examples"
	if corpus != "examples" {
		root = sharedtest.Path(tb, "corpus", corpus)
	}
	var ins []Input
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		hidden := strings.HasPrefix(d.Name(), ".") && p != root
		if d.IsDir() {
			if hidden || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if hidden || !strings.EqualFold(filepath.Ext(p), ".json") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		ins = append(ins, Input{Name: filepath.ToSlash(rel), Read: func(limit int64) ([]byte, error) { return ReadFile(p, limit) }})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	slices.SortFunc(ins, func(a, b Input) int { return strings.Compare(a.Name, b.Name) })
	st, err := Resolve(DefaultOptions())
	if err != nil {
		tb.Fatal(err)
	}
	st.FixOptions.MaxTokens = 4096
	return ins, st
}
