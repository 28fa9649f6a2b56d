package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A drain loop over a remote query: each pass lists what is left (a Gmail
// getAll, an HTTP GET, an SQL SELECT), removes every listed item by its id
// (a delete, a move to the trash, a mark that takes it out of the query),
// and the loop leaves when the list comes back empty. What one pass
// removes the next query does not list (Gmail's users.messages.list
// leaves out TRASH and SPAM unless includeSpamTrash is set; a deleted row
// matches no SELECT), so the passes run out with the data: it is the
// remote form of a work list drained until it is empty (drainsList). An
// outage does not turn it into a retry loop: a failed call with no onError
// stops the execution (n8n-core execution-engine/workflow-execute.js
// L1268–1289: an error that does not continue, continuesOnError L562,
// ends processRunExecutionData's loop), so a failure ends the run rather
// than sending it round again. And a node whose output is empty runs
// nothing after it (L1332–1334), unless alwaysOutputData gives it one
// empty item (ensureAlwaysOutputData L1017).

// drainsRemote reports whether loop l lists items with a query, removes
// every listed item by its id, and leaves when the list is empty (a
// condition of the loop tests emptiness or a done flag, or the listing is
// an app node that outputs one item per record and none for an empty
// list, which stops the pass); and no call of the loop goes on after a
// failure into the loop.
func drainsRemote(g *Graph, l *Loop) bool {
	in := make(map[*n8nschema.Node]bool, len(l.Nodes))
	for _, n := range l.Nodes {
		in[n] = true
	}
	for _, n := range l.Calls {
		if n.ContinuesOnFail() && !(n.OnError == "continueErrorOutput" && leavesLoopOnError(g, n, in)) {
			return false // a failed call goes round again: an outage loops
		}
	}
	for _, lister := range l.Calls {
		if lister.Disabled || !listsItems(lister) {
			continue
		}
		for _, n := range l.Calls {
			if n != lister && !n.Disabled && removesListed(n, lister) && (testsEmpty(l) || endsWhenNone(lister)) {
				return true
			}
		}
	}
	return false
}

// listsItems reports whether a call lists records: an HTTP GET, an SQL
// SELECT, or an app node's read operation that lists (getAll, list,
// search, select).
func listsItems(n *n8nschema.Node) bool {
	if n8nschema.IsHTTPRequest(n.Type) {
		return n8nschema.HTTPMethod(n) == "GET"
	}
	if q, _ := n8nschema.SQLQuery(n); q {
		return strings.HasPrefix(strings.ToUpper(strings.TrimSpace(strings.TrimPrefix(n.Params().Get("query").Str(), "="))), "SELECT")
	}
	_, kind, ok := n8nschema.AppOperation(n)
	op := strings.ToLower(n.Params().Get("operation").Str())
	return ok && kind == n8nschema.OpRead && (strings.Contains(op, "getall") || strings.Contains(op, "list") ||
		strings.Contains(op, "search") || op == "select" || strings.Contains(op, "getmany"))
}

// endsWhenNone reports whether a listing app node outputs no item for an
// empty list (one item per record, and no alwaysOutputData), so that an
// empty list stops the pass: n8n runs a node only on the items it gets.
func endsWhenNone(n *n8nschema.Node) bool {
	return !n8nschema.IsHTTPRequest(n.Type) && !n.AlwaysOutputData
}

// removesListed reports whether call n takes an item that lister lists out
// of its next answer, naming the item by its id: a delete (an HTTP DELETE,
// an SQL DELETE, an app's delete or trash), a POST to …/{id}/trash, an SQL
// UPDATE that sets a column the SELECT filters on, Gmail's markAsRead when
// the listing asks for unread mail, a label removed from mail listed by
// label, or added to mail listed without it.
func removesListed(n, lister *n8nschema.Node) bool {
	if !readsID(n) {
		return false
	}
	if n8nschema.IsHTTPRequest(n.Type) {
		switch n8nschema.HTTPMethod(n) {
		case "DELETE":
			return true
		case "POST", "PUT", "PATCH":
			u := strings.ToLower(n.Params().Get("url").Str())
			if i := strings.IndexAny(u, "?#"); i >= 0 {
				u = u[:i]
			}
			u = strings.TrimRight(u, "/ ")
			return strings.HasSuffix(u, "/trash") || strings.HasSuffix(u, "/delete")
		}
		return false
	}
	if q, _ := n8nschema.SQLQuery(n); q {
		query := strings.ToUpper(n.Params().Get("query").Str())
		if strings.Contains(query, "DELETE") {
			return true
		}
		lq, _ := n8nschema.SQLQuery(lister)
		return lq && strings.Contains(query, "UPDATE") && setsFiltered(query, strings.ToUpper(lister.Params().Get("query").Str()))
	}
	_, kind, ok := n8nschema.AppOperation(n)
	if !ok {
		return false
	}
	op := strings.ToLower(n.Params().Get("operation").Str())
	lp := lister.Params()
	listing := strings.ToLower(lp.Raw())
	switch {
	case strings.Contains(op, "label"):
		// Removing a label takes mail out of a listing by that label;
		// adding one, out of a listing that excludes it (-label:done).
		if strings.HasPrefix(op, "add") {
			return strings.Contains(listing, "-label:")
		}
		return strings.HasPrefix(op, "remove") && (strings.Contains(listing, "label:") || strings.Contains(listing, "in:inbox") || lp.Get("filters.labelIds").Len() > 0)
	case op == "markasread":
		return strings.Contains(listing, "is:unread") || lp.Get("filters.readStatus").Str() == "unread"
	}
	return kind == n8nschema.OpDelete
}

// readsID reports whether a node's parameters read an id from an item in
// an expression: {{ $json.id }}, {{ $json.messageId }}, {{ $json.row_id }}.
func readsID(n *n8nschema.Node) bool {
	found := false
	n.Params().Scalars(func(v n8nschema.Value) bool {
		if found || v.Kind() != n8nschema.String || !strings.Contains(v.Str(), "{{") {
			return true
		}
		found = idFieldRE.MatchString(readPaths(v.Str()))
		return true
	})
	return found
}

// idFieldRE matches an id field read in an expression.
var idFieldRE = lazyregexp.New(`\.\s*(?:id|ID|Id|[A-Za-z_]\w*(?:Id|_id|ID))\b`)

// setsFiltered reports whether an SQL UPDATE sets a column that a SELECT's
// WHERE clause names: the row no longer matches (processed = true after
// WHERE processed = false).
func setsFiltered(update, sel string) bool {
	_, set, ok := strings.Cut(update, " SET ")
	_, where, ok2 := strings.Cut(sel, " WHERE ")
	if !ok || !ok2 {
		return false
	}
	set, _, _ = strings.Cut(set, " WHERE ")
	filtered := map[string]bool{}
	words(strings.ToLower(where), filtered)
	for _, part := range strings.Split(set, ",") {
		col, _, _ := strings.Cut(part, "=")
		col = strings.ToLower(strings.Trim(strings.TrimSpace(col), `"`+"`"))
		if col != "" && filtered[col] {
			return true
		}
	}
	return false
}

// testsEmpty reports whether an If, Switch or Filter of the loop tests a
// list for emptiness or a flag that says the work is done: an emptiness
// or length operator, a .length, or a field named like a done flag.
func testsEmpty(l *Loop) bool {
	found := false
	for _, n := range l.Nodes {
		if found || n.Disabled || !n8nschema.IsBranch(n.Type) {
			continue
		}
		n.Params().Walk(func(rel string, v n8nschema.Value) {
			if found || v.Kind() != n8nschema.String {
				return
			}
			s := v.Str()
			if strings.HasSuffix(rel, "operator.operation") || strings.HasSuffix(rel, "operation") {
				switch s {
				case "empty", "notEmpty", "isEmpty", "isNotEmpty", "lengthEquals", "lengthLt", "lengthLte", "lengthGt", "lengthGte":
					found = true
				}
				return
			}
			if !strings.Contains(s, "{{") {
				return
			}
			s = readPaths(s)
			found = strings.Contains(s, ".length") || doneFlagRE.MatchString(s)
		})
	}
	return found
}

// doneFlagRE matches a field that says a drain is over.
var doneFlagRE = lazyregexp.New(`\.\s*(done|is_?done|finished|complete|completed|drained|empty|is_?empty|has_?more|more|remaining|no_?more|result_?size_?estimate)\b`)
