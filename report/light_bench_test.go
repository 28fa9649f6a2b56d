package report_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/rules"
)

// input is one file of a set: its report name and where it is read from.
type input struct{ name, path string }

// inputsOf lists the JSON files below root as the CLI walks a folder,
// named prefix + their path relative to root.
func inputsOf(tb testing.TB, root, prefix string) []input {
	tb.Helper()
	var out []input
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
		if !hidden && strings.EqualFold(filepath.Ext(p), ".json") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, input{prefix + filepath.ToSlash(rel), p})
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func parseInput(tb testing.TB, in input) *n8nschema.File {
	src, err := os.ReadFile(in.path)
	if err != nil {
		tb.Fatal(err)
	}
	return n8nschema.Parse(n8nschema.NewSource(in.name, src))
}

// lightSet is what the two-pass audit holds at its end: the released
// groups merged into one light set, their released findings, and one
// capture.
type lightSet struct {
	set       *analyze.Set
	findings  [][]analyze.Finding
	capture   *report.Capture
	workflows int
	nodes     int
}

// twoPass audits inputs the way the two-pass audit does: pass 1 keeps
// each file's links, pass 2 audits each group, captures, releases.
func twoPass(tb testing.TB, ins []input) *lightSet {
	tb.Helper()
	links := make([]analyze.Links, len(ins))
	for i, in := range ins {
		links[i] = analyze.LinksOf(parseInput(tb, in))
	}
	ls := &lightSet{capture: report.NewCapture(report.Needs{Snippets: true, Places: true})}
	all := rules.All()
	groups := analyze.Components(links)
	var sets []*analyze.Set
	for _, group := range groups {
		files := make([]*n8nschema.File, len(group))
		for j, i := range group {
			files[j] = parseInput(tb, ins[i])
		}
		set := analyze.Build(files, analyze.DefaultOptions())
		fs := analyze.Run(set, all)
		fix.Attach(set, fs, fix.Options{})
		ls.capture.Group(set, fs)
		fs = analyze.ReleaseFindings(fs)
		set.Release()
		sets, ls.findings = append(sets, set), append(ls.findings, fs)
		for _, w := range set.Workflows {
			ls.workflows++
			ls.nodes += w.NodeCount()
		}
	}
	ls.set = analyze.Merge(sets, groups)
	return ls
}

func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// heapHoles is the free room inside the heap's spans in use (read after
// liveHeap): what long-lived objects among garbage leave, counted against
// the soft limit like the live heap.
func heapHoles() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// BenchmarkLightSet measures what the two-pass audit holds once every
// group is released: the light sets, their findings and the capture (the
// live heap after GC, less the heap before) and the holes in the heap's
// spans then (holes-MB), on n8n-real and on the issue-14 big set
// (n8n-real, n8n-more, and n8n-real 3 more times under other names). One
// iteration is the whole audit; run with -benchtime 1x.
func BenchmarkLightSet(b *testing.B) {
	real := sharedtest.Path(b, "corpus", "n8n-real")
	more := sharedtest.Path(b, "corpus", "n8n-more")
	sets := map[string][]input{"n8n-real": inputsOf(b, real, "")}
	big := slices.Concat(inputsOf(b, real, "n8n-real/"), inputsOf(b, more, "n8n-more/"))
	for _, c := range []string{"copy1/", "copy2/", "copy3/"} {
		big = append(big, inputsOf(b, real, c)...)
	}
	sets["big"] = big
	for _, name := range []string{"n8n-real", "big"} {
		b.Run(name, func(b *testing.B) {
			var held, holes uint64
			var ls *lightSet
			for b.Loop() {
				ls = nil
				base := liveHeap()
				ls = twoPass(b, sets[name])
				held, holes = liveHeap()-base, heapHoles()
			}
			nf := 0
			for _, fs := range ls.findings {
				nf += len(fs)
			}
			b.ReportMetric(float64(held)/(1<<20), "light-MB")
			b.ReportMetric(float64(holes)/(1<<20), "holes-MB")
			b.ReportMetric(float64(held)/float64(ls.workflows), "B/workflow")
			b.ReportMetric(float64(held)/float64(ls.nodes), "B/node")
			b.ReportMetric(float64(ls.workflows), "workflows")
			b.ReportMetric(float64(ls.nodes), "nodes")
			b.ReportMetric(float64(nf), "findings")
			runtime.KeepAlive(ls)
		})
	}
}
