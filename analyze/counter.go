package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// CounterBump reports whether a write only increments usage counters on a
// record: every field it changes is a number set to its own value plus a
// constant (UPDATE examples SET times_referenced = times_referenced + 1
// WHERE id = …; an update node whose column views is {{ $json.views + 1 }}).
// It keeps count of how a record is used; a failed bump leaves a counter
// one short, as a lost log row does, not the record's data.
func CounterBump(n *n8nschema.Node) bool {
	if query, _ := n8nschema.SQLQuery(n); query {
		return sqlCounterBump(n.Params().Get("query").Str())
	}
	_, op := n8nschema.WriteOp(n)
	if !strings.HasSuffix(strings.ToLower(op), "update") {
		return false
	}
	cols := n.Params().Get("columns")
	match := map[string]bool{}
	for _, m := range cols.Get("matchingColumns").ElemsSeq() {
		match[m.Str()] = true
	}
	bumps := 0
	ok := true
	cols.Get("value").Walk(func(rel string, v n8nschema.Value) {
		if !ok || v.Kind() == n8nschema.Object || v.Kind() == n8nschema.Array {
			return
		}
		field := rel[strings.LastIndexByte(rel, '.')+1:]
		switch {
		case match[field]:
			return // names the record, changes nothing
		case exprBump(field, v.Str()):
			bumps++
		default:
			ok = false
		}
	})
	return ok && bumps > 0
}

// bumpExprRE matches an expression that adds a constant to a field read
// from an item: {{ $json.views + 1 }}, {{ Number($json.count) + 1 }},
// {{ ($('Find').item.json.uses || 0) + 1 }}. Group 1 is the field.
var bumpExprRE = lazyregexp.New(`^=?\{\{\s*\(?\s*(?:Number|parseInt|parseFloat)?\(?\s*\$[\w$()'".\[\]]*?(?:\.(\w+)|\[\s*['"](\w+)['"]\s*\])\s*\)?\s*(?:(?:\|\||\?\?)\s*0\s*)?\)?\s*\+\s*\d+\s*\}\}$`)

// exprBump reports whether value sets field to its own value plus a
// constant.
func exprBump(field, value string) bool {
	m := bumpExprRE.FindStringSubmatch(strings.TrimSpace(value))
	return m != nil && (m[1] == field || m[2] == field)
}

// sqlUpdateRE splits an UPDATE statement into its SET list: UPDATE t SET
// a = a + 1, b = b + 1 WHERE …
var sqlUpdateRE = lazyregexp.New(`(?is)^\s*update\s+[\w."` + "`" + `]+\s+set\s+(.+?)(?:\s+where\s+.*|\s+returning\s+.*)?$`)

// sqlBumpRE matches one assignment that adds a constant to the column's
// own value: col = col + 1, "col" = COALESCE("col", 0) + 1.
var sqlBumpRE = lazyregexp.New(`(?is)^["` + "`" + `]?(\w+)["` + "`" + `]?\s*=\s*(?:(?:coalesce|ifnull|isnull)\s*\(\s*)?["` + "`" + `]?(\w+)["` + "`" + `]?\s*(?:,\s*0\s*\))?\s*\+\s*\d+$`)

// sqlCounterBump reports whether every statement of a query is an UPDATE
// whose SET list only adds constants to columns' own values.
func sqlCounterBump(q string) bool {
	q = strings.TrimPrefix(strings.TrimSpace(q), "=")
	if strings.Contains(q, "{{") && !strings.Contains(q, "}}") {
		return false
	}
	stmts := 0
	for _, st := range strings.Split(q, ";") {
		if strings.TrimSpace(st) == "" {
			continue
		}
		stmts++
		m := sqlUpdateRE.FindStringSubmatch(strings.TrimSpace(st))
		if m == nil {
			return false
		}
		for _, as := range topLevelCommas(m[1]) {
			b := sqlBumpRE.FindStringSubmatch(strings.TrimSpace(as))
			if b == nil || !strings.EqualFold(b[1], b[2]) {
				return false
			}
		}
	}
	return stmts > 0
}

// topLevelCommas splits a SET list at the commas outside parentheses.
func topLevelCommas(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
