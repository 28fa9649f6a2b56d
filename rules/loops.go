package rules

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers about loops: which loop makes an operation unbounded, and what
// bounds a loop that the analysis cannot see (a person, a pace, a counter).

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

// humanLoop reports whether the loop that makes an operation unbounded
// passes a node that waits for a person (n8nschema.HumanGate).
func humanLoop(pass *analyze.Pass, op *analyze.Operation) bool {
	f, ok := factorOf(op, analyze.KindLoop)
	if !ok || !f.Unbounded {
		return false
	}
	g := pass.Set.Graph(pass.Workflow)
	back := g.Node(f.Node)
	if back == nil {
		return false
	}
	l := g.LoopOf(back)
	if l == nil {
		return false
	}
	return waitsForPerson(l.Nodes) != nil
}

// waitsForPerson returns a node of the loop that waits for a person (a
// form, a Wait resumed by webhook or form, a send-and-wait message), or nil.
func waitsForPerson(ns []*n8nschema.Node) *n8nschema.Node {
	for _, n := range ns {
		if n8nschema.HumanGate(n) {
			return n
		}
	}
	return nil
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

// pacedLoop reports whether every trip through a loop waits an hour or
// more in a Wait node (resume after a time interval; v1 defaults to 1
// hour, v1.1 to 5 seconds, nodes-base/nodes/Wait): the loop is a
// scheduler, and what it spends is bounded per day by its pace.
func pacedLoop(l *analyze.Loop) bool {
	for _, n := range l.Nodes {
		if n.Type != n8nschema.TypeWait || n.Disabled {
			continue
		}
		r, _ := n.Param("resume")
		if r.Str() != "" && r.Str() != "timeInterval" {
			continue
		}
		amount, unit := 1.0, "hours"
		if n.TypeVersion >= 1.1 {
			amount, unit = 5, "seconds"
		}
		if v, ok := n.Param("amount"); ok {
			f, isNum := v.Num()
			if !isNum {
				continue // an expression decides
			}
			amount = f
		}
		if v, ok := n.Param("unit"); ok {
			unit = v.Str()
		}
		secs := map[string]float64{"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}[unit]
		if amount*secs >= 3600 {
			return true
		}
	}
	return false
}
