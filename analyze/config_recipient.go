package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A recipient the workflow itself fixes: a Set node that holds the
// owner's phone or address as a literal ("Config": owner_cell =
// "+1 555 0100"), read by the message node as
// {{ $('Config').first().json.owner_cell }}, or as {{ $json.owner_cell }}
// right after it. n8n's Set node (manual mode) writes each field it names
// with the value written in it on every item, whatever the item held
// (nodes-base/nodes/Set/v2/manual.mode.js: assignments from 3.3,
// fields.values before; v1 values.string[]), so the message goes to that
// address on every run: an alert to the owner, as a literal in the node.

// fieldRefRE matches one expression that reads one field of a node's
// output: $('Config').first().json.owner_cell, $('Config').item.json["to"],
// $node["Config"].json.to, or the item's own $json.to.
var fieldRefRE = lazyregexp.New(`^(?:\$\(\s*["']([^"']+)["']\s*\)\s*\.\s*(?:first\(\)|last\(\)|item|all\(\)\s*\[\s*0\s*\])\s*\.\s*json|\$node\[\s*["']([^"']+)["']\s*\]\s*\.\s*json|(\$json))((?:\s*\.\s*[A-Za-z_$][\w$]*|\s*\[\s*["'][^"']+["']\s*\])+)$`)

// fieldPathRE splits a field path (.owner.cell, ["owner"]["cell"]) into
// its names.
var fieldPathRE = lazyregexp.New(`[A-Za-z_$][\w$]*|["'][^"']+["']`)

// recipientFixedInWorkflow reports whether every recipient of message n
// reads, in every part that is not a literal or the instance's variables,
// a field that a Set node of the workflow fixes to the owner's own
// address (ownAddress).
func recipientFixedInWorkflow(g *Graph, n *n8nschema.Node) bool {
	exprs := recipientExprs(n)
	if len(exprs) == 0 {
		return false
	}
	fixed := func(expr string) bool {
		return setFixes(g, n, expr, func(v string) bool { return ownAddress(v, nil) })
	}
	for _, x := range exprs {
		if !strings.Contains(x, "{{") || !ownAddress(x, fixed) {
			return false
		}
	}
	return true
}

// setFixes reports whether expr (fieldRefRE: one field of a named node's
// output, or of n's own $json) reads a field that every Set node it comes
// from writes as a literal val for which ok holds.
func setFixes(g *Graph, n *n8nschema.Node, expr string, ok func(val string) bool) bool {
	srcs, field := setSources(g, n, expr)
	if len(srcs) == 0 {
		return false
	}
	for _, s := range srcs {
		v, found := setLiteral(s, field)
		if !found || !ok(v) {
			return false
		}
	}
	return true
}

// setSources returns the nodes whose output expr (fieldRefRE) reads, the
// named one or, for $json, the nodes that feed n, and the field it reads
// ("owner.cell"): none when expr is no such read, or when maySetSource says no
// such node is a Set node that setLiteral reads.
func setSources(g *Graph, n *n8nschema.Node, expr string) ([]*n8nschema.Node, string) {
	if !maySetSource(g, n, expr) {
		return nil, ""
	}
	m := fieldRefRE.FindStringSubmatch(expr)
	if m == nil {
		return nil, ""
	}
	var names []string
	for _, p := range fieldPathRE.FindAllString(m[4], -1) {
		names = append(names, strings.Trim(p, `"'`))
	}
	field := strings.Join(names, ".")
	var srcs []*n8nschema.Node
	if m[3] != "" {
		for _, e := range g.InOfType(n, ConnMain) {
			srcs = append(srcs, e.From)
		}
	} else if s := g.Node(m[1] + m[2]); s != nil {
		srcs = append(srcs, s)
	}
	return srcs, field
}

// maySetSource reports whether expr may read a field of an enabled Set node,
// the only node setLiteral reads (so every caller of setSources answers no
// otherwise), before fieldRefRE, the costly part, runs: the node that
// $('X')… or $node["X"]… names (the name up to the first quote, as
// fieldRefRE reads it) is one, or for $json every node that feeds n on its
// main input is one. Text that starts otherwise fieldRefRE does not match.
// It reads the expression's first bytes and n's edges in: no other node.
func maySetSource(g *Graph, n *n8nschema.Node, expr string) bool {
	var rest string
	switch {
	case strings.HasPrefix(expr, "$json"):
		return setFed(g, n)
	case strings.HasPrefix(expr, "$("):
		rest = expr[len("$("):]
	case strings.HasPrefix(expr, "$node["):
		rest = expr[len("$node["):]
	default:
		return false
	}
	for rest != "" && ascii.IsSpace(rest[0]) {
		rest = rest[1:]
	}
	if rest == "" || rest[0] != '"' && rest[0] != '\'' {
		return false
	}
	rest = rest[1:]
	i := strings.IndexAny(rest, `"'`)
	return i > 0 && enabledSet(g.Node(rest[:i]))
}

// setFed reports a node that enabled Set nodes alone feed on its main
// input: the sources of its $json that setLiteral may read.
func setFed(g *Graph, n *n8nschema.Node) bool {
	fed := false
	for _, e := range g.In(n) {
		if e.Type != ConnMain {
			continue
		}
		if !enabledSet(e.From) {
			return false
		}
		fed = true
	}
	return fed
}

// enabledSet reports an enabled Set node, the only node setLiteral reads.
func enabledSet(s *n8nschema.Node) bool {
	return s != nil && s.Type == n8nschema.TypeSet && !s.Disabled
}

// setLiteral returns the value a Set node in manual mode writes to field
// on every item, when it writes one: an assignment (3.3+), a
// fields.values entry (3.0–3.2) or a v1/v2 values.<type> entry named
// field.
func setLiteral(s *n8nschema.Node, field string) (string, bool) {
	if s.Disabled || s.Type != n8nschema.TypeSet {
		return "", false
	}
	p := s.Params()
	if m := p.Get("mode").Str(); m != "" && m != "manual" {
		return "", false
	}
	for _, a := range p.Get("assignments.assignments").ElemsSeq() {
		if a.Get("name").Str() == field {
			return a.Get("value").Str(), true
		}
	}
	for _, a := range p.Get("fields.values").ElemsSeq() {
		if a.Get("name").Str() == field {
			typ := a.Get("type").Str()
			if typ == "" {
				typ = "stringValue"
			}
			return a.Get(typ).Str(), true
		}
	}
	val, found := "", false
	p.Get("values").Each(func(_ string, typed n8nschema.Value) bool {
		for _, a := range typed.ElemsSeq() {
			if a.Get("name").Str() == field {
				val, found = a.Get("value").Str(), true
				return false
			}
		}
		return true
	})
	return val, found
}
