package n8nschema

import "strings"

// Hidden reports whether n8n certainly hides top-level parameter name of
// node n for the node's values, so that it drops the parameter when it
// builds the workflow and the node never reads it: getNodeParameters,
// called by the Workflow constructor with returnNoneDisplayed false
// (n8n-workflow dist/cjs/workflow.js L86), skips a property that
// displayParameter hides, judged on the values with their defaults filled
// in (dist/cjs/node-helpers.js getNodeParameters L642-664). The node
// table lists, for each text parameter (string, json, collection,
// fixedCollection, resource locator) shown only for some values, the
// display conditions of every property of that name (hideableSets, as
// MissingRequired reads a required parameter's): the name is hidden when
// each of them has a condition that certainly fails, on a value that is
// stored as a literal or absent with its default at the node's version
// (an expression, or a value of another kind, is not judged). A version
// the node table does not list is judged at the nearest lower one
// (DescribeNode): n8n runs a node type that is not versioned by its one
// description at any typeVersion (OpenAi at 2 as at 1.1), and a versioned
// type it does not have at that version is a workflow n8n cannot build
// (MissingVersion, RS010), of which RS012 says nothing. A <type>Tool
// variant is judged with its base node's entry (n8n adds properties to
// it, not conditions to the base node's).
func Hidden(n *Node, name string) bool {
	nv, ok := n.Describe()
	e := nv.e
	if !ok || e == nil || e.shown == 0 {
		return false
	}
	var alts string
	found := false
	for f := range strings.SplitSeq(hideableSets[e.shown], " ") {
		if alts, found = strings.CutPrefix(f, name+":"); found {
			break
		}
	}
	if !found {
		return false
	}
	d := display{n: n, e: e}
	for alt := range strings.SplitSeq(alts, "|") {
		if !d.hidden(alt) {
			return false
		}
	}
	return true
}

// hidden reports whether a condition of conds (as shown reads them)
// certainly fails for d's node: its key's value is known and a show
// condition does not list it, or a hide condition does. Conditions whose
// value is not known are passed over: n8n shows a parameter only when
// every condition holds.
func (d *display) hidden(conds string) bool {
	for cond := range strings.SplitSeq(conds, ";") {
		i := strings.IndexAny(cond, "=!")
		if i < 0 {
			continue
		}
		key, hide, vals := cond[:i], cond[i] == '!', cond[i+1:]
		x, ok := d.value(key)
		if !ok || x == "" {
			continue
		}
		if listed(vals, x) == hide {
			return true
		}
	}
	return false
}
