package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// oneRowQuery reports an SQL query that answers exactly one row whenever
// it succeeds, whatever the tables hold: one SELECT statement whose select
// list aggregates (count, sum, avg, min, max…) with no GROUP BY, HAVING,
// window or set operation, or a SELECT with no FROM and no WHERE
// (SELECT now()). SQL defines an aggregate over no rows as one row (count
// 0, sum null), so a report built on it runs even when the table is
// empty. A LIMIT, OFFSET or FETCH is not read (LIMIT 0 answers none). An
// n8n expression in the query counts as a value ({{ $now }} in a WHERE).
// One pass over the query.
func oneRowQuery(q string) bool {
	q = strings.TrimPrefix(strings.TrimSpace(q), "=")
	q = exprRE.ReplaceAllString(q, "0")
	top, sel, ok := sqlTopLevel(q)
	if !ok {
		return false
	}
	words := strings.Fields(top)
	i := 0
	if len(words) > 0 && words[0] == "with" { // common table expressions: their bodies are in parentheses
		for i < len(words) && words[i] != "select" {
			i++
		}
	}
	if i >= len(words) || words[i] != "select" {
		return false
	}
	from, where := false, false
	for _, w := range words[i+1:] {
		switch w {
		case "group", "having", "union", "intersect", "except", "limit", "offset", "fetch", "over", "window", "into", "select":
			return false
		case "from":
			from = true
		case "where":
			where = true
		}
	}
	if !from {
		return !where
	}
	return sqlAggregateRE.MatchString(sel)
}

// sqlAggregateRE matches a call of an aggregate function.
var sqlAggregateRE = lazyregexp.New(`\b(count|sum|avg|min|max|array_agg|string_agg|json_agg|jsonb_agg|json_object_agg|jsonb_object_agg|bool_and|bool_or|every|group_concat|stddev|stddev_pop|stddev_samp|variance|var_pop|var_samp|percentile_cont|percentile_disc)\s*\(`)

// sqlTopLevel reads one SQL statement, lower-cased, with strings and
// comments left out: top holds its words outside parentheses (each group
// written "()"), sel the select list of its main SELECT (up to its FROM),
// parentheses kept but subqueries (a group opening with select) left out.
// ok is false for no statement or more than one.
func sqlTopLevel(q string) (top, sel string, ok bool) {
	var t, s strings.Builder
	depth, skip := 0, -1 // skip: the depth of a subquery being left out of sel
	inSel, seenSel, end := false, false, false
	word := func(i int) string { // the word starting at q[i]
		j := i
		for j < len(q) && (q[j] == '_' || q[j] >= 'a' && q[j] <= 'z' || q[j] >= 'A' && q[j] <= 'Z' || q[j] >= '0' && q[j] <= '9') {
			j++
		}
		return strings.ToLower(q[i:j])
	}
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			for i < len(q) && q[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			k := strings.Index(q[i+2:], "*/")
			if k < 0 {
				return "", "", false
			}
			i += k + 3
			continue
		case c == '\'' || c == '"' || c == '`':
			k := strings.IndexByte(q[i+1:], c)
			if k < 0 {
				return "", "", false
			}
			i += k + 1
			c = 'x' // a value or a quoted name
		case c == ';':
			end = true
			continue
		}
		if end && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return "", "", false // a second statement
		}
		switch c {
		case '(':
			if depth == 0 {
				t.WriteString(" () ")
			}
			depth++
			if inSel && skip < 0 {
				k := i + 1
				for k < len(q) && (q[k] == ' ' || q[k] == '\n' || q[k] == '\t' || q[k] == '\r' || q[k] == '(') {
					k++
				}
				if word(k) == "select" {
					skip = depth
				}
			}
		case ')':
			if depth == skip {
				skip = -1
			}
			if depth > 0 {
				depth--
			}
		default:
			if depth == 0 {
				if w := word(i); w != "" && (i == 0 || !sqlWordByte(q[i-1])) {
					switch {
					case w == "select" && !seenSel:
						inSel, seenSel = true, true
						t.WriteString(" select ")
						i += len(w) - 1
						continue
					case w == "from" && inSel:
						inSel = false
					}
				}
				t.WriteByte(lower(c))
			}
		}
		if inSel && skip < 0 {
			s.WriteByte(lower(c))
		}
	}
	top = t.String()
	return top, s.String(), strings.TrimSpace(top) != ""
}

func sqlWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
