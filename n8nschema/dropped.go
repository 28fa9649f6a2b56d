package n8nschema

import (
	"cmp"
	"slices"
	"strings"
)

// DroppedParam is a top-level parameter a node stores that its type does
// not define at its version.
type DroppedParam struct {
	Name  string
	Value Value
}

// DroppedParams lists, in file order, the top-level parameters the node
// stores with a value (not null, "", "=", false, {} or []) that its
// type's description does not define at its version, under any display
// options (DeclaresParam): n8n keeps only the parameters the description
// defines when it builds the workflow to run it (n8n-workflow
// dist/cjs/workflow.js, the Workflow constructor, calls
// NodeHelpers.getNodeParameters(description.properties, node.parameters,
// true, false) and replaces node.parameters with what it returns;
// dist/cjs/node-helpers.js getNodeParameters walks the description's
// properties only), so the node never reads another. It is empty for a
// node the table cannot judge: no typeVersion stored, a version the
// table does not list, a type it does not describe (a community node), a
// <type>Tool variant (n8n adds properties to those).
func DroppedParams(n *Node) []DroppedParam {
	if !n.TypeVersionSet || n.TypeVersion <= 0 || n.Params().Kind() != Object {
		return nil
	}
	if strings.HasSuffix(n.Type, "Tool") {
		return nil // the table cannot tell (declaringEntry)
	}
	d, ok := n.Describe()
	e, ok := declaringIn(d, ok, n.TypeVersion)
	if !ok {
		return nil // the table cannot tell
	}
	set := declaredSet(e)
	var out []DroppedParam
	// Each's member order, without a Value made for each member (nearly
	// every one is declared).
	p := n.Params()
	t, o := p.t, p.node()
	for k := o.first; k < o.first+o.n; k++ {
		if key := t.keyOf(&t.nodes[k]); !set[key] {
			if v := p.memberAt(k, key); !blankParam(v) {
				out = append(out, DroppedParam{Name: key, Value: v})
			}
		}
	}
	return out
}

// blankParam reports a value that holds nothing a node would read: null,
// "", a bare "=", false, or an empty object or array.
func blankParam(v Value) bool {
	switch v.Kind() {
	case Null:
		return true
	case String:
		s := strings.TrimSpace(v.Str())
		return s == "" || s == "="
	case Bool:
		return !v.True()
	case Object, Array:
		return v.len() == 0
	}
	return false
}

// VersionRun is a run of versions of a node type, First to Last, with
// no version of the table between them left out.
type VersionRun struct{ First, Last float64 }

// DeclaringRuns returns the versions of typ whose description defines a
// top-level parameter named name, oldest first, as runs of consecutive
// versions of the table (nil for none, or a type the table does not
// describe): Postgres "columns" is [{1 1} {2.2 2.7}], since v2 and v2.1
// lack it.
func DeclaringRuns(typ, name string) []VersionRun {
	es, ok := nodeTable()[typ]
	if !ok {
		return nil
	}
	type ver struct {
		v   float64
		has bool
	}
	var vs []ver
	for i := range es {
		has := declared(&es[i], name)
		for _, v := range es[i].v {
			vs = append(vs, ver{v, has})
		}
	}
	slices.SortStableFunc(vs, func(a, b ver) int { return cmp.Compare(a.v, b.v) })
	var out []VersionRun
	for i, v := range vs {
		switch {
		case !v.has:
		case i > 0 && vs[i-1].has && len(out) > 0:
			out[len(out)-1].Last = v.v
		default:
			out = append(out, VersionRun{v.v, v.v})
		}
	}
	return out
}
