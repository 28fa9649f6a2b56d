package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// oneRowQuery reports an SQL query that answers a row whenever it
// succeeds, whatever the tables hold (sqlAnswersRow). An n8n expression in
// the query counts as a value ({{ $now }} in a WHERE).
func oneRowQuery(q string) bool {
	q = strings.TrimPrefix(strings.TrimSpace(q), "=")
	q = exprRE.ReplaceAllString(q, "0")
	return sqlAnswersRow(q, nil)
}

// sqlAnswersRow reports a SELECT statement q that answers a row whenever
// it succeeds, whatever the tables hold:
//
//   - one whose select list aggregates (count, sum, avg, min, max…) with
//     no GROUP BY, HAVING, window or set operation: an aggregate with no
//     GROUP BY makes the whole input one group, which is one row even when
//     the input has none (count 0, sum null; Postgres docs, Queries, "The
//     GROUP BY and HAVING Clauses");
//   - one with no FROM and no WHERE (SELECT now()): Postgres lets FROM be
//     left out to compute one row of values (docs, SELECT, "Omitted FROM
//     Clauses"), and only a WHERE removes rows from it (SELECT: a row that
//     does not satisfy the WHERE condition is left out; with no WHERE none
//     is);
//   - a WITH query whose main SELECT, with no WHERE, reads FROM only
//     common table expressions of the same statement that answer a row by
//     the same test (sqlFromCTEs): one row, or more when a LEFT JOIN
//     matches several.
//
// A LIMIT, OFFSET or FETCH is not read (LIMIT 0 answers none), nor a
// set-returning function in the select list (unnest of an empty array
// answers no row), nor parentheses that do not match. ctes holds the CTEs
// defined before q when q is a CTE's body (true for one that answers a
// row), nil for the statement itself: a WITH inside a CTE is not read, so
// that each byte of the statement is read at most twice, once for the
// statement and once for its CTE.
func sqlAnswersRow(q string, ctes map[string]bool) bool {
	st, ok := sqlTopLevel(q)
	if !ok || !st.balanced {
		return false // a query whose parentheses do not match is not read
	}
	words := strings.Fields(strings.ReplaceAll(st.top, ",", " , "))
	i := 0
	if len(words) > 0 && words[0] == "with" { // common table expressions: their bodies are in parentheses
		if ctes != nil {
			return false
		}
		var main int
		ctes, main = sqlCTEs(q, words, st)
		if main >= 0 {
			i = main
		} else {
			ctes = nil // not read: the main SELECT may still aggregate
			for i < len(words) && words[i] != "select" {
				i++
			}
		}
	}
	if i >= len(words) || words[i] != "select" {
		return false
	}
	from, where := -1, false
	for k, w := range words[i+1:] {
		switch w {
		case "group", "having", "union", "intersect", "except", "limit", "offset", "fetch", "over", "window", "into", "select":
			return false
		case "from":
			if from < 0 {
				from = i + 1 + k
			}
		case "where":
			where = true
		}
	}
	if sqlSetReturningRE.MatchString(st.sel) {
		return false
	}
	switch {
	case from < 0:
		return !where
	case sqlAggregateRE.MatchString(st.sel):
		return true
	}
	return !where && sqlFromCTEs(words[from+1:], ctes)
}

// sqlCTEs reads the WITH list that words (the top-level words of q, each
// parenthesis group "()", commas apart) open with: name [(columns)] AS
// [NOT] [MATERIALIZED] (body), comma-separated, each body read once by
// sqlAnswersRow with the CTEs before it (a CTE that names itself or a
// later one reads a table of that name: not a CTE). It returns the CTEs,
// true for one that answers a row, and the index in words of the main
// SELECT, or -1 when the list is not read (WITH RECURSIVE, whose CTEs may
// name one another in any order; a SEARCH or CYCLE clause; a main
// statement that is not a SELECT).
func sqlCTEs(q string, words []string, st sqlTop) (map[string]bool, int) {
	ctes := map[string]bool{}
	g := 0 // the parenthesis group the next "()" in words stands for
	at := func(j int, w string) bool { return j < len(words) && words[j] == w }
	j := 1
	for {
		if j >= len(words) || !sqlIdent(words[j]) || sqlKeyword[words[j]] {
			return nil, -1
		}
		name := words[j]
		j++
		if at(j, "()") { // its column names
			j++
			g++
		}
		if !at(j, "as") {
			return nil, -1
		}
		j++
		if at(j, "not") {
			j++
		}
		if at(j, "materialized") {
			j++
		}
		if !at(j, "()") || g >= len(st.groups) {
			return nil, -1
		}
		b := st.groups[g]
		j++
		g++
		_, seen := ctes[name]
		ctes[name] = !seen && sqlAnswersRow(q[b[0]+1:b[1]], ctes)
		if !at(j, ",") {
			break
		}
		j++
	}
	if !at(j, "select") {
		return nil, -1
	}
	return ctes, j
}

// sqlFromCTEs reads a FROM list, words up to the end of the statement: it
// answers a row when its first item is a CTE of ctes that answers a row,
// and each one after it either such a CTE joined by a comma or CROSS JOIN
// (a row of each side makes a row of their product), or any CTE of ctes
// joined by LEFT [OUTER] JOIN … ON or USING (a left join keeps each left
// row, with nulls for the right side's columns when nothing matches:
// Postgres docs, Queries, "Joined Tables"). An ORDER BY may follow (it
// reorders rows). A table that is not a CTE, an INNER, RIGHT, FULL or
// NATURAL join, LATERAL, a subquery, a function or anything else answers
// false.
func sqlFromCTEs(words []string, ctes map[string]bool) bool {
	at := func(j int, w string) bool { return j < len(words) && words[j] == w }
	item := func(j int, needRow bool) (int, bool) { // a CTE and its alias
		if j >= len(words) {
			return j, false
		}
		row, ok := ctes[words[j]]
		if !ok || needRow && !row {
			return j, false
		}
		j++
		switch {
		case at(j, "as"):
			if j+1 >= len(words) || !sqlAlias(words[j+1]) {
				return j, false
			}
			j += 2
		case j < len(words) && sqlAlias(words[j]) && !sqlKeyword[words[j]]:
			j++
		}
		return j, true
	}
	j, ok := item(0, true)
	for ok && j < len(words) {
		switch {
		case at(j, ","):
			j, ok = item(j+1, true)
		case at(j, "cross") && at(j+1, "join"):
			j, ok = item(j+2, true)
		case at(j, "left") && (at(j+1, "join") || at(j+1, "outer") && at(j+2, "join")):
			j += 2
			if at(j, "join") {
				j++
			}
			// The right side may answer no row: the left row is kept.
			if j, ok = item(j, false); !ok {
				return false
			}
			switch {
			case at(j, "using") && at(j+1, "()"):
				j += 2
			case at(j, "on"):
				j++
				for j < len(words) && !sqlJoinEnd[words[j]] {
					j++
				}
			default:
				return false
			}
		case at(j, "order"):
			return true // the words after it were read: no LIMIT
		default:
			return false
		}
	}
	return ok
}

// sqlKeyword holds the words that may follow a FROM item and so are not
// its alias, nor a CTE's name.
var sqlKeyword = map[string]bool{
	"as": true, "on": true, "using": true, "join": true, "cross": true, "left": true, "right": true,
	"full": true, "inner": true, "outer": true, "natural": true, "lateral": true, "where": true,
	"group": true, "having": true, "order": true, "limit": true, "offset": true, "fetch": true,
	"window": true, "union": true, "intersect": true, "except": true, "for": true, "tablesample": true,
	"select": true, "from": true, "with": true, "recursive": true, "values": true, "only": true,
}

// sqlJoinEnd holds the words that end a join's ON condition at the top
// level of a FROM list.
var sqlJoinEnd = map[string]bool{
	",": true, "cross": true, "left": true, "right": true, "full": true, "inner": true, "join": true,
	"natural": true, "where": true, "group": true, "having": true, "order": true, "limit": true,
	"offset": true, "fetch": true, "window": true, "union": true, "intersect": true, "except": true,
	"for": true,
}

// sqlIdent reports a name written without quotes.
func sqlIdent(w string) bool {
	if w == "" || w[0] >= '0' && w[0] <= '9' {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !sqlWordByte(w[i]) {
			return false
		}
	}
	return true
}

// sqlAlias reports a name given to a FROM item: plain or quoted
// (sqlQuoted in top).
func sqlAlias(w string) bool {
	return sqlIdent(w) || w == sqlQuoted
}

// sqlAggregateRE matches a call of an aggregate function.
var sqlAggregateRE = lazyregexp.New(`\b(count|sum|avg|min|max|array_agg|string_agg|json_agg|jsonb_agg|json_object_agg|jsonb_object_agg|bool_and|bool_or|every|group_concat|stddev|stddev_pop|stddev_samp|variance|var_pop|var_samp|percentile_cont|percentile_disc)\s*\(`)

// sqlSetReturningRE matches a call of a Postgres set-returning function,
// which in a select list answers as many rows as it returns, none for an
// empty set (Postgres docs, Set Returning Functions).
var sqlSetReturningRE = lazyregexp.New(`\b(unnest|generate_series|generate_subscripts|json_array_elements|jsonb_array_elements|json_array_elements_text|jsonb_array_elements_text|json_each|jsonb_each|json_each_text|jsonb_each_text|json_object_keys|jsonb_object_keys|json_to_recordset|jsonb_to_recordset|json_populate_recordset|jsonb_populate_recordset|jsonb_path_query|regexp_matches|regexp_split_to_table|string_to_table)\s*\(`)

// sqlQuoted stands in top for a quoted value or name: no name written
// without quotes is equal to it, so "a" and "b" are not taken for one CTE.
const sqlQuoted = "\x00"

// sqlTop is one SQL statement as sqlTopLevel reads it.
type sqlTop struct {
	// top holds its words outside parentheses, lower-cased, with strings
	// and comments left out (a quoted value or name is sqlQuoted); each
	// parenthesis group is written "()".
	top string
	// sel is the select list of its main SELECT (up to its FROM),
	// parentheses kept but subqueries (a group opening with select) left
	// out; a quoted value is "x".
	sel string
	// groups holds the offsets in the statement of each top-level group's
	// "(" and its ")", in order.
	groups [][2]int
	// balanced is false when a ")" closes nothing or a "(" is left open.
	balanced bool
}

// sqlTopLevel reads one SQL statement in one pass; ok is false for no
// statement or more than one.
func sqlTopLevel(q string) (st sqlTop, ok bool) {
	var t, s strings.Builder
	depth, skip := 0, -1 // skip: the depth of a subquery being left out of sel
	inSel, seenSel, end := false, false, false
	st.balanced = true
	ahead, aheadSel := 0, false  // how far the look for a subquery's select has read, and what it found
	word := func(i int) string { // the word starting at q[i]
		j := i
		for j < len(q) && sqlWordByte(q[j]) {
			j++
		}
		return strings.ToLower(q[i:j])
	}
	for i := 0; i < len(q); i++ {
		c := q[i]
		quoted := false
		switch {
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			for i < len(q) && q[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			k := strings.Index(q[i+2:], "*/")
			if k < 0 {
				return sqlTop{}, false
			}
			i += k + 3
			continue
		case c == '\'' || c == '"' || c == '`':
			k := strings.IndexByte(q[i+1:], c)
			if k < 0 {
				return sqlTop{}, false
			}
			i += k + 1
			c, quoted = 'x', true // a value or a quoted name
		case c == ';':
			end = true
			continue
		}
		if end && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return sqlTop{}, false // a second statement
		}
		switch c {
		case '(':
			if depth == 0 {
				t.WriteString(" () ")
				st.groups = append(st.groups, [2]int{i, -1})
			}
			depth++
			if inSel && skip < 0 {
				// A run of "(" and spaces leads to one word: look
				// past it once, not once for each "(" in it.
				if i+1 >= ahead {
					k := i + 1
					for k < len(q) && (q[k] == ' ' || q[k] == '\n' || q[k] == '\t' || q[k] == '\r' || q[k] == '(') {
						k++
					}
					ahead, aheadSel = k, word(k) == "select"
				}
				if aheadSel {
					skip = depth
				}
			}
		case ')':
			if depth == skip {
				skip = -1
			}
			if depth > 0 {
				depth--
				if depth == 0 {
					st.groups[len(st.groups)-1][1] = i
				}
			} else {
				st.balanced = false
			}
		default:
			if depth == 0 {
				if quoted {
					t.WriteString(sqlQuoted)
					break
				}
				if i == 0 || !sqlWordByte(q[i-1]) {
					switch word(i) {
					case "select":
						if !seenSel {
							inSel, seenSel = true, true
							t.WriteString(" select ")
							i += len("select") - 1
							continue
						}
					case "from":
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
	if depth > 0 {
		st.balanced = false
	}
	st.top, st.sel = t.String(), s.String()
	return st, strings.TrimSpace(st.top) != ""
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
