package analyze

import (
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// namedRefRE finds the forms that read a node by its name, each with the
// same quote on both sides: $('Name'), $node["Name"], $items("Name").
var namedRefRE = lazyregexp.New(`\$(?:\(|items\(|node\[)\s*(?:'([^'"\\]+)'|"([^'"\\]+)")\s*[)\]]`)

// missingNodeRef reports a node one of whose parameter expressions reads,
// by name, a node the workflow does not have. n8n evaluates a node's
// parameters for each item it runs, and $('Name'), $node["Name"] and
// $items("Name") throw "Referenced node doesn't exist" when
// workflow.getNode(Name) is null, the moment they are called
// (n8n-workflow/dist/cjs/workflow-data-proxy.js: the $ function, about
// line 961; nodeGetter, line 645; getNodeExecutionData, line 387, which
// $items calls). The ExpressionError is rethrown, not swallowed
// (expression.js setErrorHandler), so the node fails on every item before
// it sends anything. getNode knows every node of the workflow, disabled
// ones and sticky notes included.
//
// Only what surely runs is judged: an expression (a string starting with
// "=") in a node of the main flow, not a trigger or a sub-node (a tool's
// parameters are read only when its agent calls it), not a Code or
// Function node (its code is not an expression: a $('X') there throws
// only when that line runs), and only a reference no ?, && or || comes
// before within its {{ }} (a branch of the expression may never read it).
// A name held in a variable or written with an escape is not judged.
func missingNodeRef(g *Graph, i int) (param, name string, ok bool) {
	nd := g.Nodes[i]
	if g.sub[i] || g.specs[i].Role == n8nschema.RoleTrigger || n8nschema.IsCode(nd.Type) || n8nschema.IsAICode(nd.Type) {
		return "", "", false
	}
	params := nd.Params()
	if !readsByName(params.Raw()) {
		return "", "", false // most nodes read no node by name: skip the walk
	}
	// Scalars walks without building paths; the path is made for the one
	// value that reads a missing node.
	params.Scalars(func(v n8nschema.Value) bool {
		if !v.IsExpr() {
			return true
		}
		s := v.Str()
		for rest := s; name == ""; {
			open := strings.Index(rest, "{{")
			if open < 0 {
				break
			}
			rest = rest[open+2:]
			seg := rest
			if end := strings.Index(rest, "}}"); end >= 0 {
				seg, rest = rest[:end], rest[end+2:]
			} else {
				rest = ""
			}
			if !readsByName(seg) {
				continue
			}
			for _, m := range namedRefRE.FindAllStringSubmatchIndex(seg, -1) {
				if strings.Contains(seg[:m[0]], "?") || strings.Contains(seg[:m[0]], "&&") || strings.Contains(seg[:m[0]], "||") {
					break // a branch may not read it
				}
				ref := ""
				if m[2] >= 0 {
					ref = seg[m[2]:m[3]]
				} else {
					ref = seg[m[4]:m[5]]
				}
				if g.Workflow.Node(ref) == nil {
					param, name = strings.TrimPrefix(v.Path(), params.Path()+"."), ref
					break
				}
			}
		}
		return name == ""
	})
	return param, name, name != ""
}

// readsByName reports whether s holds "$(", "$node[" or "$items(", the
// starts of namedRefRE's forms: one pass over s, before the pattern runs.
func readsByName(s string) bool {
	for i := strings.IndexByte(s, '$'); i >= 0; {
		r := s[i+1:]
		if strings.HasPrefix(r, "(") || strings.HasPrefix(r, "node[") || strings.HasPrefix(r, "items(") {
			return true
		}
		j := strings.IndexByte(r, '$')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// missingRefWhy says why such a node fails.
func missingRefWhy(param, name string) string {
	return "its parameter " + strconv.Quote(param) + " reads node " + strconv.Quote(name) + ", which the workflow does not have: n8n throws \"Referenced node doesn't exist\" on every item, before the node does anything"
}

// MissingNodeRef reports an enabled node that fails on every item since a
// parameter expression reads a node the workflow does not have
// (missingNodeRef), with the parameter and the name it reads: not one
// refused for another reason first.
func (g *Graph) MissingNodeRef(n *n8nschema.Node) (param, name string, ok bool) {
	i, known := g.index(n)
	if !known || n.Disabled {
		return "", "", false
	}
	param, name, ok = missingNodeRef(g, i)
	r, _ := g.refused(i)
	return param, name, ok && r.Why == missingRefWhy(param, name) // not refused for another reason first
}
