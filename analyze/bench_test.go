package analyze

import (
	"fmt"
	"testing"

	"github.com/stormcheck/stormcheck/internal/benchgen"
	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

func parseBench(b *testing.B, src []byte) []*n8nschema.File {
	b.Helper()
	f := n8nschema.Parse(n8nschema.NewSource("bench.json", src))
	if len(f.Problems) > 0 || len(f.Workflows) == 0 {
		b.Fatalf("generated workflow does not parse: %v", f.Problems)
	}
	return []*n8nschema.File{f}
}

func TestBigWorkflowShape(t *testing.T) {
	f := n8nschema.Parse(n8nschema.NewSource("big.json", benchgen.Workflow(1000)))
	if len(f.Problems) > 0 || len(f.Workflows) != 2 || len(f.Workflows[0].Problems) > 0 {
		t.Fatalf("problems: %v %v", f.Problems, f.Workflows[0].Problems)
	}
	s := Build([]*n8nschema.File{f}, DefaultOptions())
	if got := len(s.Workflows[0].Nodes); got != 1001 {
		t.Errorf("%d nodes, want 1001", got)
	}
	g := s.Graph(s.Workflows[0])
	if len(g.Loops) != 100 {
		t.Errorf("%d loops, want 100", len(g.Loops))
	}
	// Post in Sub: 5 tries × 2 (Exec), or × 3 (Tool, maxTries ?? 3): the
	// Agent's 2 tries never repeat a tool, whose failure goes to its model.
	o := s.OperationsOf(s.Workflows[1])[0]
	if o.Attempts != 15 || o.Unbounded {
		t.Errorf("Post: attempts %d unbounded %v, want 15 false", o.Attempts, o.Unbounded)
	}
	d := Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("deep.json", benchgen.Chain(50)))}, DefaultOptions())
	if o := d.OperationsOf(d.Workflows[19])[0]; o.Attempts != 3<<19 || len(o.Factors) != 20 {
		t.Errorf("deep chain W19: attempts %d with %d factors, want %d with 20", o.Attempts, len(o.Factors), 3<<19)
	}
	if o := d.OperationsOf(d.Workflows[49])[0]; o.Attempts != AttemptCap || o.Unbounded || len(o.Factors) != maxChain+1 {
		t.Errorf("deep chain W49: attempts %d unbounded %v with %d factors, want %d false %d", o.Attempts, o.Unbounded, len(o.Factors), AttemptCap, maxChain+1)
	}
}

func benchBuild(b *testing.B, src []byte) {
	files := parseBench(b, src)
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		Build(files, DefaultOptions())
	}
	cputime.ReportPerOp(b, cpu)
}

func benchAmplify(b *testing.B, src []byte) {
	s := Build(parseBench(b, src), DefaultOptions())
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		Amplify(s)
	}
	cputime.ReportPerOp(b, cpu)
}

func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		src := benchgen.Workflow(n)
		b.Run(fmt.Sprint("nodes=", n), func(b *testing.B) { benchBuild(b, src) })
	}
	for _, n := range []int{100, 1000} {
		src := benchgen.Chain(n)
		b.Run(fmt.Sprint("chain=", n), func(b *testing.B) { benchBuild(b, src) })
	}
}

func BenchmarkAmplify(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		src := benchgen.Workflow(n)
		b.Run(fmt.Sprint("nodes=", n), func(b *testing.B) { benchAmplify(b, src) })
	}
	for _, n := range []int{100, 1000} {
		src := benchgen.Chain(n)
		b.Run(fmt.Sprint("chain=", n), func(b *testing.B) { benchAmplify(b, src) })
	}
}
