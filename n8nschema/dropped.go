package n8nschema

import "strings"

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
	if !n.TypeVersionSet || n.TypeVersion <= 0 || n.params.Kind() != Object {
		return nil
	}
	var out []DroppedParam
	n.params.Each(func(k string, v Value) bool {
		if !blankParam(v) && !DeclaresParam(n.Type, n.TypeVersion, k) {
			out = append(out, DroppedParam{Name: k, Value: v})
		}
		return true
	})
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

// VersionsDeclaring returns the versions of typ, oldest first, whose
// description defines a top-level parameter named name (nil for none, or
// a type the table does not describe).
func VersionsDeclaring(typ, name string) []float64 {
	es, ok := nodeTable()[typ]
	if !ok {
		return nil
	}
	var out []float64
	for i := range es {
		for p := range strings.SplitSeq(es[i].params, " ") {
			if p == name {
				out = append(out, es[i].v...)
				break
			}
		}
	}
	return out
}
