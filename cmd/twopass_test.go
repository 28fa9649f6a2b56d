package cmd

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
)

// TestAuditInputsWholeSet checks the audit's passes against one analysis
// of the whole set: every input audited alone in pass 1 and each larger
// group again in pass 2 must give, after the set-wide rules and the
// filters, the findings (places, messages, fingerprints, chains, related
// places and repairs) that Build over every file at once gives.
func TestAuditInputsWholeSet(t *testing.T) {
	for _, name := range []string{"examples", "n8n-real", "n8n-more"} {
		t.Run(name, func(t *testing.T) {
			dir := "../testdata/examples"
			if name != "examples" {
				dir = sharedtest.Path(t, "corpus", name)
			}
			ins, st := inputsOf(t, dir)
			fixOpts := fix.Options{MaxTokens: 4096}
			got, _ := auditInputs(ins, defaultMaxFileSize, false, st, fixOpts, report.Needs{Snippets: true, Places: true})

			files, _ := parseInputs(ins, defaultMaxFileSize, false)
			set := analyze.Build(files, st.Analysis)
			fs := analyze.Run(set, st.Rules)
			fix.Attach(set, fs, fixOpts)
			want := analyze.Filter(set, fs, st.Filter)

			if len(want.Findings) == 0 {
				t.Fatal("no findings: the comparison would prove nothing")
			}
			if d := gocmp.Diff(summarize(want), summarize(got.filtered)); d != "" {
				t.Errorf("audit by groups differs from the whole set (-whole +groups):\n%s", d)
			}
			if len(got.set.Operations) != len(set.Operations) || len(got.set.Workflows) != len(set.Workflows) {
				t.Errorf("operations %d, workflows %d; whole set: %d, %d",
					len(got.set.Operations), len(got.set.Workflows), len(set.Operations), len(set.Workflows))
			}
		})
	}
}

// TestEndSequential: the end of the audit, whose steps run on two cores,
// gives what those steps give one after another, whichever job ends
// first: on one core and on two, several times.
func TestEndSequential(t *testing.T) {
	ins, st := inputsOf(t, sharedtest.Path(t, "corpus", "n8n-real"))
	a := newGroupAuditor(defaultMaxFileSize, false, st, fix.Options{MaxTokens: 4096}, report.Needs{})
	alone, groups := a.firstPass(ins)
	done := a.secondPass(ins, groups, alone)

	sets := make([]*analyze.Set, len(groups))
	found := make([][]analyze.Finding, len(groups))
	dirs := make([][]analyze.Directive, len(groups))
	for g, r := range done {
		sets[g], found[g], dirs[g] = r.set, r.found, r.dirs
	}
	set := analyze.Merge(sets, groups)
	all := slices.Concat(found...)
	all = append(all, analyze.Run(set, a.setWide)...)
	fo := st.Filter
	fo.Directives, fo.DirectivesCollected = analyze.MergeDirectives(dirs, groups), true
	want := analyze.Filter(set, analyze.Unique(all), fo)
	if len(want.Findings) == 0 {
		t.Fatal("no findings: the comparison would prove nothing")
	}

	for i, procs := range []int{1, 2, 2, 2, 2} {
		prev := runtime.GOMAXPROCS(procs)
		got, _ := a.end(groups, done)
		runtime.GOMAXPROCS(prev)
		if !reflect.DeepEqual(got.filtered, want) {
			t.Fatalf("run %d on %d cores: the end differs from its steps one after another (-sequential +end):\n%s",
				i, procs, gocmp.Diff(summarize(want), summarize(got.filtered)))
		}
		if !reflect.DeepEqual(got.set.Operations, set.Operations) || !reflect.DeepEqual(got.set.Calls, set.Calls) {
			t.Fatalf("run %d on %d cores: the merged set differs", i, procs)
		}
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

// TestAuditInputsFreesSources: once the audit is done, with snippets taken
// for text output, no source's bytes are held: neither by the inputs
// audited alone in pass 1 nor by those audited again in a group.
func TestAuditInputsFreesSources(t *testing.T) {
	for _, name := range []string{"examples", "n8n-more"} {
		t.Run(name, func(t *testing.T) {
			dir := "../testdata/examples"
			if name != "examples" {
				dir = sharedtest.Path(t, "corpus", name)
			}
			ins, st := inputsOf(t, dir)
			var watched atomic.Int64
			freed := make(chan struct{}, 4*len(ins))
			defer func(p func(*n8nschema.Source) *n8nschema.File) { parse = p }(parse)
			parse = func(src *n8nschema.Source) *n8nschema.File {
				if len(src.Src) >= 64 { // the runtime may batch tiny objects
					watched.Add(1)
					runtime.AddCleanup(&src.Src[0], func(struct{}) { freed <- struct{}{} }, struct{}{})
				}
				return n8nschema.Parse(src)
			}
			a, _ := auditInputs(ins, defaultMaxFileSize, false, st, fix.Options{}, report.Needs{Snippets: true, Places: true})
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

// inputsOf lists dir's inputs as audit does, with default settings.
func inputsOf(tb testing.TB, dir string) ([]input, *auditSettings) {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	ins, err := collectInputs([]string{dir}, nil, newNamer(wd, "", ""), defaultMaxFileSize)
	if err != nil {
		tb.Fatal(err)
	}
	st, err := (&AuditOptions{MinConfidence: "low"}).settings(nil, wd, ins)
	if err != nil {
		tb.Fatal(err)
	}
	return ins, st
}
