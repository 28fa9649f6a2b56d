package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers about loops: which loop makes an operation unbounded. What ends a
// loop without a guard test (a counter, a person, a pace) is decided once,
// by the loop analysis (analyze.Loop.Bound and Paced).

// unboundedLoopOf returns the loop whose lack of a guard makes an
// operation unbounded, when that loop is the only thing without a bound
// (no self-trigger, no unlimited pagination or agent): nil otherwise.
func unboundedLoopOf(pass *analyze.Pass, op *analyze.Operation) *analyze.Loop {
	if op.CallsUnbounded {
		return nil
	}
	var loop *analyze.Factor
	for i, f := range op.Factors {
		if !f.Unbounded {
			continue
		}
		if f.Kind != analyze.KindLoop || loop != nil {
			return nil
		}
		loop = &op.Factors[i]
	}
	if loop == nil {
		return nil
	}
	g := pass.Set.Graph(pass.Workflow)
	back := g.Node(loop.Node)
	if back == nil {
		return nil
	}
	return g.LoopOf(back)
}

// loopPath names the nodes of a loop, at most four of them.
func loopPath(ns []*n8nschema.Node) string {
	var names []string
	for i, n := range ns {
		if i == 4 {
			names = append(names, fmt.Sprintf("and %d more", len(ns)-4))
			break
		}
		names = append(names, fmt.Sprintf("%q", n.Name))
	}
	return strings.Join(names, ", ")
}
