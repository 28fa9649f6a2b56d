package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A run that ends in a message to its owner reports itself: a daily
// digest mailed to a fixed address, a Telegram note to the owner's chat.
// When every run a schedule starts ends in such a message, the owner
// expects one at each tick and notices the one that does not come; a
// failure costs that message, and its absence is the signal.

// endsInOwnMessage reports whether every run trigger t starts ends in a
// message to a fixed recipient (ownMessage): each output of each node the
// run reaches leads on to such a message, and no
// node on the way may pass on no item (mayPassNone). A path that can end
// with nothing sent (an output wired to nothing, a Filter, a read of what
// is new, a node whose outputs are not known) makes it false: a message
// that comes only for some runs (the tasks due today) says nothing when it
// does not come.
func endsInOwnMessage(g *Graph, t *n8nschema.Node) bool {
	// Other writes on the way do not matter: one that fails stops the run
	// before the message, whose absence is then the signal.
	memo := map[*n8nschema.Node]bool{}
	onPath := map[*n8nschema.Node]bool{}
	var delivers func(n *n8nschema.Node) bool
	delivers = func(n *n8nschema.Node) bool {
		if v, ok := memo[n]; ok {
			return v
		}
		if onPath[n] {
			return false // a loop back delivers nothing by itself
		}
		onPath[n] = true
		v := n != t && (ownMessage(g, n) || toolMessagesOwner(g, n)) || !n.Disabled && allOutputsDeliver(g, n, delivers)
		onPath[n] = false
		memo[n] = v
		return v
	}
	return delivers(t)
}

// allOutputsDeliver reports whether each main output of n is wired and
// every node it leads to delivers.
func allOutputsDeliver(g *Graph, n *n8nschema.Node, delivers func(*n8nschema.Node) bool) bool {
	if mayPassNone(n) || drainsTable(g, n) {
		return false // n8n runs no node after an empty output
	}
	k, known := declaredOutputs(n)
	if n8nschema.IsTriggerNode(n.Type) || n.Type == n8nschema.TypeManualTrigger {
		k, known = 1, true
	}
	if !known || k == 0 {
		return false
	}
	for o := 0; o < k; o++ {
		wired := false
		for _, e := range g.OutOfType(n, ConnMain) {
			if e.Output != o || e.Error {
				continue
			}
			// Every path: a branch that ends with nothing sent, or one
			// a Merge waits on, may leave the run silent.
			if !delivers(e.To) {
				return false
			}
			wired = true
		}
		if !wired {
			return false
		}
	}
	return true
}

// mayPassNone reports a node that, given items, may output none on a run
// that succeeds: a Filter; a Remove Duplicates of items seen in earlier
// executions (one that dedupes its input keeps the first of each); a
// Limit whose maximum is not a literal of at least 1; Code that may
// return no item (codeMayDrop); a list or search that may find nothing
// (listsRecords) but for a read of everything its source holds
// (readsWholeSource). alwaysOutputData turns an empty output into one
// empty item (workflow-execute.ts ensureAlwaysOutputData).
func mayPassNone(n *n8nschema.Node) bool {
	if n.AlwaysOutputData {
		return false
	}
	switch {
	case n.Type == n8nschema.TypeFilter:
		return true
	case n.Type == "n8n-nodes-base.removeDuplicates":
		return DedupesAcrossExecutions(n)
	case n.Type == "n8n-nodes-base.limit":
		v, ok := n.Param("maxItems")
		m, lit := v.Num()
		return ok && (!lit || m < 1) // absent: the default, 1
	case n8nschema.IsCode(n.Type):
		return codeMayDrop(codeOf(n))
	}
	return listsRecords(n) && !readsWholeSource(n)
}

// readsWholeSource reports a read that returns every item its source
// holds on every run, not only what is new: RSS Read returns each entry
// the feed now lists (RssFeedRead.node.ts; unlike the RSS Feed Trigger,
// which keeps only entries newer than its last poll), and a live feed
// always lists its latest entries; a Google Sheets read with no filter
// returns every row of the sheet (v1-2 read has no filter; v3-4 read
// filters only by filtersUI); so does an unfiltered read of a table
// (wholeTable) or an SQL query that answers a row even when nothing
// matches (sqlAlwaysAnswers). A list with a query, a date window or a
// filter may find nothing.
func readsWholeSource(n *n8nschema.Node) bool {
	switch n.Type {
	case "n8n-nodes-base.rssFeedRead":
		return true
	case "n8n-nodes-base.googleSheets":
		_, op, _ := n8nschema.WriteOpConf(n)
		f, _ := n.Param("filtersUI.values")
		return op == "sheet.read" && (f.Kind() == n8nschema.Missing || f.Kind() == n8nschema.Array && f.Len() == 0)
	}
	return wholeTable(n) || sqlAlwaysAnswers(n)
}

// wholeTable reports a read of every row of a table, base or database
// with no filter, search or view (a view may filter): Airtable search
// (v2; list in v1) with no filterByFormula (search.operation.js: "If empty,
// all the records will be returned"), Baserow getAll with no filters or
// search (Baserow.node.js), Supabase and Notion getAll with no filter
// conditions (filterType "none", or "manual" with none: Supabase.node.js,
// NotionV2.node.js), NocoDB getAll with no where or view, and a
// Postgres or MySQL select with no where (select.operation.js). A table
// the owner keeps rows in holds them on every run; a limit of at least one
// still returns one.
func wholeTable(n *n8nschema.Node) bool {
	_, op, _ := n8nschema.WriteOpConf(n)
	p := n.Params()
	switch strings.TrimSuffix(n.Type, "Tool") {
	case "n8n-nodes-base.airtable":
		if op == "record.search" {
			return empty(p.Get("filterByFormula")) && empty(p.Get("options").Get("view"))
		}
		return op == "list" && empty(p.Get("additionalOptions").Get("filterByFormula")) && empty(p.Get("additionalOptions").Get("view"))
	case "n8n-nodes-base.baserow":
		o := p.Get("additionalOptions")
		return op == "row.getAll" && empty(o.Get("filters").Get("fields")) && empty(o.Get("search"))
	case "n8n-nodes-base.supabase", "n8n-nodes-base.notion":
		if op != "row.getAll" && op != "databasePage.getAll" {
			return false
		}
		switch p.Get("filterType").Str() {
		case "", "none", "manual":
			return empty(p.Get("filters").Get("conditions"))
		case "string":
			return empty(p.Get("filterString"))
		}
		return false
	case "n8n-nodes-base.nocoDb":
		o := p.Get("options")
		return (op == "row.getAll" || op == "row.search") && empty(o.Get("where")) && empty(o.Get("viewId"))
	case "n8n-nodes-base.postgres", "n8n-nodes-base.mySql":
		return strings.HasSuffix(op, "select") && n.TypeVersion >= 2 && empty(p.Get("where").Get("values"))
	}
	return false
}

// drainsTable reports a whole-table read (wholeTable) of a table that a
// node of the same workflow deletes rows from: a queue the run empties,
// which may hold nothing at the next tick.
func drainsTable(g *Graph, n *n8nschema.Node) bool {
	if !wholeTable(n) {
		return false
	}
	g.deletedOnce.Do(func() {
		for _, o := range g.Nodes {
			if _, kind, ok := n8nschema.AppOperation(o); ok && !o.Disabled && kind == n8nschema.OpDelete {
				if g.deleted == nil {
					g.deleted = map[string]bool{}
				}
				// An agent's tool variant deletes from the same table.
				g.deleted[strings.TrimSuffix(o.Type, "Tool")+"\x00"+tableOf(o)] = true
			}
		}
	})
	return g.deleted[strings.TrimSuffix(n.Type, "Tool")+"\x00"+tableOf(n)]
}

// tableOf names the table a database or spreadsheet app node works on, by
// the parameters that locate it (base, database, project, schema, table;
// a resource locator's value).
func tableOf(n *n8nschema.Node) string {
	var b strings.Builder
	for _, k := range []string{"application", "base", "databaseId", "projectId", "schema", "table", "tableId"} {
		v := n.Params().Get(k)
		if v.Kind() == n8nschema.Object {
			v = v.Get("value")
		}
		b.WriteString(v.Raw())
		b.WriteByte(0)
	}
	return b.String()
}

// empty reports a parameter absent or holding nothing: "", [], {} or a
// resource locator with no value.
func empty(v n8nschema.Value) bool {
	switch v.Kind() {
	case n8nschema.Missing, n8nschema.Null:
		return true
	case n8nschema.String:
		return strings.TrimSpace(strings.TrimPrefix(v.Str(), "=")) == ""
	case n8nschema.Array:
		return v.Len() == 0
	case n8nschema.Object:
		if rl := v.Get("value"); rl.Exists() && v.Get("__rl").Exists() {
			return empty(rl) // a resource locator with no value
		}
		none := true
		v.Each(func(string, n8nschema.Value) bool { none = false; return false })
		return none
	}
	return false
}

// sqlAlwaysAnswers reports a Postgres or MySQL query that outputs an item
// on every run that succeeds: before Postgres 2.3 and MySQL 2.2 a query
// that returns no row outputs {success: true} (Postgres/v2/helpers/utils.js
// configureQueryRunner, emptyReturnData, for every operation but select;
// MySql/v2/helpers/utils.js prepareOutput, for every operation); later
// versions output nothing for a select that finds nothing (a WITH … SELECT
// is a select: findTopLevelCommand skips WITH). An aggregate with no GROUP
// BY (SELECT count(*) FROM t) answers one row even on an empty table, and
// so does a WITH query that cross-joins such CTEs (oneRowQuery).
func sqlAlwaysAnswers(n *n8nschema.Node) bool {
	typ := strings.TrimSuffix(n.Type, "Tool")
	if typ != "n8n-nodes-base.postgres" && typ != "n8n-nodes-base.mySql" || n.TypeVersion < 2 {
		return false
	}
	op, _ := n.Param("operation")
	if typ == "n8n-nodes-base.mySql" && n.TypeVersion < 2.2 {
		return true
	}
	if op.Str() != "executeQuery" {
		return false
	}
	if typ == "n8n-nodes-base.postgres" && n.TypeVersion < 2.3 {
		return true
	}
	q, _ := n.Param("query")
	return q.Kind() == n8nschema.String && oneRowQuery(q.Str())
}

// codeMayDrop reports code that may return no item: one that keeps state
// between runs ($getWorkflowStaticData), by which a notifier passes on only
// what changed, or one with a return of its own (TopLevelReturns: not one
// of a helper function it defines) that is not a literal item, the items
// it was given or nothing at all (a list it built may be empty). The
// items given, returned through a method, are kept only by map, which
// returns one item per item: filter, slice or find may keep none.
func codeMayDrop(code string) bool {
	if strings.Contains(code, "getWorkflowStaticData") {
		return true
	}
	for _, at := range n8nschema.TopLevelReturns(code) {
		if m := itemsMethodRE.FindStringSubmatch(code[at:]); m != nil {
			if m[1] != "map" {
				return true
			}
			continue
		}
		m := returnValueRE.FindStringSubmatch(code[at:])
		if m == nil || !keptReturnRE.MatchString(m[1]) {
			return true
		}
	}
	return false
}

var (
	returnValueRE = lazyregexp.New(`^\s*([^\s;]?[^\s;]{0,14})`)
	itemsMethodRE = lazyregexp.New(`^\s*(?:items|\$input\.all\(\s*\))\s*\.\s*(\w+)`)
	keptReturnRE  = lazyregexp.New(`^(\[\s*\{|\{|\[\s*$|items\b|\$input\.(all|first|item)\b)`)
)

// listsRecords reports an app node whose operation lists or searches
// records (getAll, search, a sheet's rows, a feed's entries): it may
// return no item.
func listsRecords(n *n8nschema.Node) bool {
	if n.Type == "n8n-nodes-base.rssFeedRead" {
		return true
	}
	_, op, _ := n8nschema.WriteOpConf(n)
	if i := strings.LastIndexByte(op, '.'); i >= 0 {
		op = op[i+1:]
	}
	return listOpRE.MatchString(op)
}

var listOpRE = lazyregexp.New(`(?i)^(getall|getmany|search|list|lookup|read|readrows|select|query|executequery|find|getrows)`)

// toolMessagesOwner reports an agent one of whose tools sends a message
// to a fixed recipient (a Gmail tool whose sendTo is a literal address):
// the run ends in that message as it would in a main-flow node's, since
// the tool can only tell the owner. Whether the model calls it on every
// run is the prompt's to say, which is not read.
func toolMessagesOwner(g *Graph, n *n8nschema.Node) bool {
	if n.Disabled {
		return false
	}
	for _, s := range g.SubNodes(n, ConnTool) {
		if ownMessage(g, s) {
			return true
		}
	}
	return false
}

// ownMessage reports whether n sends a message to a fixed recipient: an
// alert in a team channel, a report mailed to a fixed address, a message
// to the owner's own number (ConsequenceIn: a message whose duplicate is a
// nuisance), whose channel or chat is not read from the data
// (recipientFromData).
func ownMessage(g *Graph, n *n8nschema.Node) bool {
	if n.Disabled {
		return false
	}
	// ConsequenceIn never makes a message of what its node's own effect
	// says is none, and most nodes a run passes send none.
	if i, ok := g.index(n); ok && !g.effect(i).Message {
		return false
	}
	e := ConsequenceIn(g, n)
	return e.Message && e.Consequence == Nuisance && !recipientFromData(g, n)
}

// chatParams hold where a chat node posts, its channel or conversation:
// Slack channelId (v2, a resource locator) or channel (v1) or user,
// Telegram chatId, Mattermost and Discord channelId, Teams channelId or
// chatId, Google Chat spaceId, Matrix roomId, Rocket.Chat channel, Zulip
// stream or to, Pushover userKey, WhatsApp recipientPhoneNumber, Twilio to.
var chatParams = []string{"chatId", "channelId", "channel", "user", "roomId", "spaceId", "stream", "to", "userKey", "recipientPhoneNumber", "phoneNumber"}

// recipientFromData reports a message whose channel, chat or recipient is
// taken from the item ({{ $json.channel }}, the chat a bot's trigger
// received): the people in it are whoever the data names, not the owner.
// A recipient is fixed when each part of it is a literal, the instance's
// variables, or a field a Set node of literals writes (setFixes). A chat
// node with no such parameter posts where its credential points (a
// webhook); an HTTP call names its recipient in its body or query.
func recipientFromData(g *Graph, n *n8nschema.Node) bool {
	fixed := func(s string) bool {
		if configured(s) {
			return true
		}
		rest := exprRE.ReplaceAllStringFunc(s, func(x string) string {
			if configured(x) || setFixes(g, n, strings.TrimSpace(x[2:len(x)-2]), configured) {
				return ""
			}
			return "\x00"
		})
		return !strings.Contains(rest, "\x00")
	}
	p := n.Params()
	if teamChannels[strings.TrimSuffix(n.Type, "Tool")] {
		for _, k := range chatParams {
			v := p.Get(k)
			if v.Kind() == n8nschema.Object {
				v = v.Get("value") // a resource locator
			}
			if v.Kind() == n8nschema.String && !fixed(v.Str()) {
				return true
			}
		}
		return false
	}
	if !n8nschema.IsHTTPRequest(n.Type) {
		return false
	}
	for _, list := range []string{"bodyParameters.parameters", "queryParameters.parameters"} {
		for _, q := range p.Get(list).ElemsSeq() {
			if recipientKey(q.Get("name").Str()) && !fixed(q.Get("value").Str()) {
				return true
			}
		}
	}
	for _, m := range bodyFieldRE.FindAllStringSubmatch(p.Get("jsonBody").Str(), -1) {
		if recipientKey(m[1]) && !fixed(strings.Trim(m[2], `"'`)) {
			return true
		}
	}
	return false
}

// ReportsItself reads whether the runs of a trigger on a clock report
// their own failure to the owner: ends when every run ends in a message to
// a fixed recipient (endsInOwnMessage), and reports when, beside that, no
// call among callers that is not such a message can fail after one has
// gone out. The owner expects the message at each tick, and the one that
// does not come is a dead-man's switch that reaches a person: nothing is
// left silent. A call can fail after a message when it lies past the
// message, or on a branch of its own beside one: n8n runs the branches a
// node's output fans out to one after the other (executionOrder v1 each to
// its end, workflow-execute.ts), so an earlier branch's message comes even
// when a later branch fails.
func ReportsItself(g *Graph, t *n8nschema.Node, callers []*n8nschema.Node) (ends, reports bool) {
	if !OnClock(t) || !ExpectedDigest(t) || !endsInOwnMessage(g, t) {
		return false, false
	}
	reach := g.walk(false, []*n8nschema.Node{t})
	if reach.Len() > maxDigestNodes {
		return true, false // the branch walks below would grow with the square of the run
	}
	isMsg := func(n *n8nschema.Node) bool { return ownMessage(g, n) || toolMessagesOwner(g, n) }
	var calls, after []*n8nschema.Node
	for _, c := range callers {
		if g.IsSubNode(c) {
			c = g.Root(c)
		}
		if c != nil && !isMsg(c) {
			calls = append(calls, c)
		}
	}
	for _, n := range reach.Nodes() {
		if isMsg(n) {
			for _, e := range g.OutOfType(n, ConnMain) {
				after = append(after, e.To)
			}
		}
	}
	past := g.walk(false, after)
	for _, c := range calls {
		if past.Has(c) {
			return true, false // a call after a message has gone out
		}
	}
	for _, x := range reach.Nodes() {
		fan := map[int][]*n8nschema.Node{}
		for _, e := range g.OutOfType(x, ConnMain) {
			if !e.Error {
				fan[e.Output] = append(fan[e.Output], e.To)
			}
		}
		for _, to := range fan {
			if len(to) > 1 && messageBesideCall(g, to, calls, isMsg) {
				return true, false
			}
		}
	}
	return true, true
}

// maxDigestGapMS is the longest gap between a schedule's ticks at which
// its digest is still expected: a week. A daily or weekly message is part
// of its reader's routine, and the one that does not come is missed; one
// due monthly or once a year (a Schedule Trigger at daysInterval 360,
// which n8n's recurrenceCheck lets through about once a year:
// nodes-base Schedule/GenericFunctions.js) is expected on no given day,
// and its absence goes unnoticed.
const maxDigestGapMS = 7 * 86_400_000

// ExpectedDigest reports whether a person expects a message from each run
// of clock trigger t: its ticks are at most a week apart
// (ScheduleEveryMS, the shortest gap among its rules), or their gap is
// not known (an expression, a cron list), which keeps the digest.
func ExpectedDigest(t *n8nschema.Node) bool {
	every, ok := ScheduleEveryMS(t)
	return !ok || every <= maxDigestGapMS
}

// DigestTooLarge reports a run from t that ReportsItself does not read
// (more than maxDigestNodes nodes), so a caller says so rather than name a
// call after a message it never looked for.
func DigestTooLarge(g *Graph, t *n8nschema.Node) bool {
	return g.walk(false, []*n8nschema.Node{t}).Len() > maxDigestNodes
}

// maxDigestNodes bounds the runs ReportsItself reads: it walks each branch
// of each fan-out, which is linear only while a run is small, and a digest
// is (a read or two, a model, a message); a larger run keeps its note.
const maxDigestNodes = 64

// messageBesideCall reports whether one of the branches that start at
// the nodes of to sends a message of its own while another makes a call
// of calls the first does not. A message both branches lead to (through
// a Merge, which waits for both) comes after the calls of each.
func messageBesideCall(g *Graph, to, calls []*n8nschema.Node, isMsg func(*n8nschema.Node) bool) bool {
	branches := make([]Reach, len(to))
	for i, n := range to {
		branches[i] = g.walk(false, []*n8nschema.Node{n})
	}
	for i, b := range branches {
		for j, o := range branches {
			if j == i || !sendsApart(b, o, isMsg) {
				continue
			}
			for _, c := range calls {
				if o.Has(c) && !b.Has(c) {
					return true
				}
			}
		}
	}
	return false
}

// sendsApart reports whether branch b reaches a message that branch o
// does not.
func sendsApart(b, o Reach, isMsg func(*n8nschema.Node) bool) bool {
	for _, n := range b.Nodes() {
		if !o.Has(n) && isMsg(n) {
			return true
		}
	}
	return false
}
