package cmd

import (
	"runtime"
	"slices"
	"testing"

	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
	"github.com/stormcheck/stormcheck/report"
)

// corpusInputs lists the real corpus as audit does, with default settings.
func corpusInputs(b *testing.B) ([]input, *auditSettings) {
	b.Helper()
	return inputsOf(b, sharedtest.Path(b, "corpus", "n8n-real"))
}

// BenchmarkPass1 reads, parses and audits each input of the corpus alone,
// releasing each, and groups the inputs by their links: the first pass of
// the audit, capturing what text and SARIF output read (snippets, node
// places) and what JSON output reads (neither). It reports the heap the
// released audits leave as MB-held.
func BenchmarkPass1(b *testing.B) {
	ins, st := corpusInputs(b)
	for _, tc := range []struct {
		name string
		need report.Needs
	}{
		{"text+sarif", report.Needs{Snippets: true, Places: true}},
		{"json", report.NeedsOf("json")},
	} {
		b.Run(tc.name, func(b *testing.B) {
			a := newGroupAuditor(defaultMaxFileSize, false, st, fix.Options{}, tc.need)
			b.ReportAllocs()
			var alone []groupAudited
			cpu := cputime.Used()
			for b.Loop() {
				alone, _ = a.firstPass(ins)
			}
			b.StopTimer()
			cputime.ReportPerOp(b, cpu)
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			b.ReportMetric(float64(m.HeapAlloc)/1e6, "MB-held")
			runtime.KeepAlive(alone)
		})
	}
}

// BenchmarkPass2 audits again the corpus's groups of more than one input:
// the second pass.
func BenchmarkPass2(b *testing.B) {
	ins, st := corpusInputs(b)
	a := newGroupAuditor(defaultMaxFileSize, false, st, fix.Options{}, report.Needs{Snippets: true, Places: true})
	alone, groups := a.firstPass(ins)
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		a.secondPass(ins, groups, slices.Clone(alone))
	}
	cputime.ReportPerOp(b, cpu)
}

// BenchmarkEnd joins the corpus's group audits, runs the SetWide rules and
// the filters: the end of the audit, which runs after both passes.
func BenchmarkEnd(b *testing.B) {
	ins, st := corpusInputs(b)
	a := newGroupAuditor(defaultMaxFileSize, false, st, fix.Options{}, report.Needs{})
	alone, groups := a.firstPass(ins)
	done := a.secondPass(ins, groups, alone)
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		a.end(groups, done)
	}
	cputime.ReportPerOp(b, cpu)
}
