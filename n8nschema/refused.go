package n8nschema

import (
	"slices"
	"strconv"
	"strings"
)

// NoBilledCall reports an app or model node that n8n runs without making
// the call its provider bills, and why:
//
//   - its credentials block names only credential types the node does not
//     take ("openAIApi" where the node takes "openAiApi"): n8n looks a
//     credential up by the node's own type name and, the credential being
//     required, fails the node before any request
//     (n8n-core/dist/execution-engine/node-execution-context/node-execution-context.js
//     getCredentials: "Node does not have any credentials set for ...").
//     A missing block is not such a node: shared exports strip credentials,
//     and whoever imports the workflow adds their own;
//   - its resource or operation is not one its description defines at its
//     version (the legacy OpenAI node with resource "completions" or
//     operation "create"): a declarative node builds its request from the
//     routing of the properties shown for those values
//     (n8n-core/dist/execution-engine/routing-node.js runNode), and none
//     is shown; a programmatic node's router finds no operation to run.
//
// Only a version the table lists exactly is judged by its operations: a
// nearer or newer release may define more. Expressions are not judged.
func NoBilledCall(n *Node) (why string, ok bool) {
	typ := strings.TrimSuffix(n.Type, "Tool")
	d, known := DescribeNode(typ, n.TypeVersion)
	if !known {
		return "", false
	}
	if creds := d.Credentials(); len(creds) > 0 && len(n.Credentials) > 0 &&
		!slices.ContainsFunc(n.Credentials, func(c string) bool { return slices.Contains(creds, c) }) {
		return "its credential " + quoteList(n.Credentials) + " is not of a type the node takes (" + quoteList(creds) + ")", true
	}
	if n.TypeVersion != d.Version || len(d.e.ops) == 0 {
		return "", false
	}
	res, rok := literalParam(n, "resource")
	op, ook := literalParam(n, "operation")
	if !rok || !ook {
		return "", false
	}
	if res == "" {
		res = d.DefaultResource()
	}
	if d.resourceOps(res) == nil {
		return "its resource " + quoteList([]string{res}) + " is not one the node defines", true
	}
	if op == "" {
		return "", false
	}
	if _, listed := d.Operation(res, op); !listed {
		return "its operation " + quoteList([]string{op}) + " is not one the node defines for " + quoteList([]string{res}), true
	}
	return "", false
}

// literalParam is a string parameter's value ("" when absent), and false
// when it is an expression or not a string.
func literalParam(n *Node, path string) (string, bool) {
	v, ok := n.Param(path)
	if !ok {
		return "", true
	}
	s := v.Str()
	if v.Kind() != String || strings.HasPrefix(s, "=") || strings.Contains(s, "{{") {
		return "", false
	}
	return s, true
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
