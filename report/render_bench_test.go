package report_test

// An external test package: the benchmarks render what the real rules find
// on the corpus, and package report itself must never import rules.

import (
	"fmt"
	"io"
	"testing"

	"github.com/stormcheck/stormcheck/internal/benchgen"
	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
)

// corpusResult audits ../shared/corpus/n8n-real as `stormcheck audit` does,
// repairs included (audit, in audit_test.go); the benchmarks skip when it
// is absent.
func corpusResult(tb testing.TB) *report.Result {
	tb.Helper()
	files := corpustest.Files(tb)
	set, out := audit(files)
	return resultOf(files, set, out.Findings)
}

// genFiles parses a generated workflow of n nodes and its sub-workflow
// (benchgen.Workflow).
func genFiles(tb testing.TB, n int) []*n8nschema.File {
	tb.Helper()
	f := n8nschema.Parse(n8nschema.NewSource("gen.json", benchgen.Workflow(n)))
	if len(f.Problems) > 0 || len(f.Workflows) == 0 {
		tb.Fatalf("generated workflow does not parse: %v", f.Problems)
	}
	return []*n8nschema.File{f}
}

// renderEach renders res in every format, without colour, to io.Discard,
// each format a sub-benchmark.
func renderEach(b *testing.B, res *report.Result) {
	for _, format := range report.Formats {
		b.Run(format, func(b *testing.B) {
			r, err := report.New(format, report.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu := cputime.Used()
			for b.Loop() {
				if err := r.Render(io.Discard, res); err != nil {
					b.Fatal(err)
				}
			}
			cputime.ReportPerOp(b, cpu)
		})
	}
}

// BenchmarkRender renders the corpus findings in every format.
func BenchmarkRender(b *testing.B) { renderEach(b, corpusResult(b)) }

// BenchmarkRenderGenerated renders, in every format, what an audit finds in
// a generated workflow of 1,000 or 10,000 nodes and its sub-workflow.
func BenchmarkRenderGenerated(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint("nodes=", n), func(b *testing.B) {
			files := genFiles(b, n)
			set, out := audit(files)
			renderEach(b, resultOf(files, set, out.Findings))
		})
	}
}

// BenchmarkRedact redacts every finding message of the corpus once.
func BenchmarkRedact(b *testing.B) {
	res := corpusResult(b)
	b.ReportAllocs()
	for b.Loop() {
		for i := range res.Findings {
			report.Redact(res.Findings[i].Message)
		}
	}
}

// BenchmarkRedactNames redacts the node name of every operation of the
// corpus once, as the JSON report does.
func BenchmarkRedactNames(b *testing.B) {
	res := corpusResult(b)
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		for _, w := range res.Workflows {
			for _, op := range w.Operations {
				report.Redact(op.Node)
			}
		}
	}
	cputime.ReportPerOp(b, cpu)
}
