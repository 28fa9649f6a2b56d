package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Runs that repeat: a schedule that reads every record of a store and
// creates one for each, or a trigger on a file's change that stores all of
// the file again, does the same work on every run. Nothing is retried,
// yet every run after the first leaves duplicates.

// stores are the app nodes whose reads return records that stay: the same
// rows come back on every run until someone removes them.
var stores = map[string]bool{
	"n8n-nodes-base.googleSheets": true, "n8n-nodes-base.airtable": true, "n8n-nodes-base.notion": true,
	"n8n-nodes-base.postgres": true, "n8n-nodes-base.mySql": true, "n8n-nodes-base.microsoftSql": true,
	"n8n-nodes-base.baserow": true, "n8n-nodes-base.nocoDb": true, "n8n-nodes-base.supabase": true,
	"n8n-nodes-base.mongoDb": true, "n8n-nodes-base.microsoftExcel": true, "n8n-nodes-base.seaTable": true,
	"n8n-nodes-base.hubspot": true, "n8n-nodes-base.pipedrive": true, "n8n-nodes-base.salesforce": true,
	"n8n-nodes-base.zohoCrm": true, "n8n-nodes-base.clickUp": true, "n8n-nodes-base.mondayCom": true,
}

// readAllOps are the operations that list a store's records.
var readAllOps = map[string]bool{"read": true, "readRows": true, "getAll": true, "search": true, "list": true,
	"getMany": true, "select": true, "find": true, "executeQuery": true, "getRows": true}

// OperationName is an app node's operation with n8n's default when the
// parameter is absent ("read" for Google Sheets v4), "" when unknown.
func OperationName(n *n8nschema.Node) string {
	if op := n.Params().Get("operation").Str(); op != "" {
		return op
	}
	d, ok := n.Describe()
	if !ok {
		return ""
	}
	res := n.Params().Get("resource").Str()
	if res == "" {
		res = d.DefaultResource()
	}
	return d.DefaultOperation(res)
}

// ReadsWholeStore reports whether a node lists the records of a store
// with nothing that picks the new ones: no filter, condition, WHERE,
// lookup or limit in its parameters. A filter may select the rows not
// yet handled, so any filter keeps the node out.
func ReadsWholeStore(n *n8nschema.Node) bool {
	if n.Disabled || !stores[n.Type] || !readAllOps[OperationName(n)] {
		return false
	}
	picks := false
	n.Params().Walk(func(rel string, v n8nschema.Value) {
		if picks || v.Kind() == n8nschema.Object || v.Kind() == n8nschema.Array {
			return
		}
		r := strings.ToLower(rel)
		if !(strings.Contains(r, "filter") || strings.Contains(r, "where") || strings.Contains(r, "lookup") ||
			strings.Contains(r, "condition") || strings.Contains(r, "query") || strings.HasSuffix(r, "limit") ||
			strings.Contains(r, "sort") || strings.Contains(r, "formula")) {
			return
		}
		s := strings.TrimSpace(v.Raw())
		if s != "" && s != `""` && s != "{}" && s != "[]" && s != "false" && s != "null" {
			if strings.Contains(r, "query") && n8nschema.IsHTTPRequest(n.Type) {
				return
			}
			picks = true
		}
	})
	if picks {
		return false
	}
	if OperationName(n) == "executeQuery" {
		q := strings.ToLower(n.Params().Get("query").Str())
		return strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(q, "=")), "select") && !strings.Contains(q, "where") && !strings.Contains(q, "limit")
	}
	return true
}

// sifters are nodes that may drop items on the way: branches, code,
// merges, comparisons, dedupes and limits. Any of them between a read and
// a write may be what keeps a record from being created twice.
var sifters = map[string]bool{
	n8nschema.TypeIf: true, n8nschema.TypeSwitch: true, n8nschema.TypeFilter: true, n8nschema.TypeCode: true,
	n8nschema.TypeFunction: true, n8nschema.TypeFunctionItem: true, "n8n-nodes-base.merge": true,
	"n8n-nodes-base.compareDatasets": true, "n8n-nodes-base.removeDuplicates": true, "n8n-nodes-base.limit": true,
	"n8n-nodes-base.itemLists": true, "n8n-nodes-base.executeWorkflow": true,
}

// Between returns the nodes on a path of main connections from one of
// starts to b, none of them included.
func Between(g *Graph, starts []*n8nschema.Node, b *n8nschema.Node) []*n8nschema.Node {
	from := g.walk(false, starts)
	to := leadsTo(g, b)
	for _, t := range starts {
		delete(to, t)
	}
	var out []*n8nschema.Node
	for _, n := range g.Nodes {
		if n != b && from.Has(n) && to[n] {
			out = append(out, n)
		}
	}
	return out
}

// leadsTo is what reaches b along main connections, b included: the
// backward twin of Graph.walk.
func leadsTo(g *Graph, b *n8nschema.Node) map[*n8nschema.Node]bool {
	seen := map[*n8nschema.Node]bool{b: true}
	queue := []*n8nschema.Node{b}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range g.In(u) {
			if e.Type == ConnMain && !seen[e.From] {
				seen[e.From] = true
				queue = append(queue, e.From)
			}
		}
	}
	return seen
}

// FileChangeTrigger reports a trigger that starts a run when a file
// changes: Google Drive Trigger on a file updated (event fileUpdated, the
// default when watching one file; nodes-base/nodes/Google/Drive/GoogleDriveTrigger.node.ts),
// the Local File Trigger on a change.
func FileChangeTrigger(t *n8nschema.Node) bool {
	switch t.Type {
	case "n8n-nodes-base.googleDriveTrigger":
		ev := t.Params().Get("event").Str()
		return ev == "fileUpdated" || ev == "" && t.Params().Get("triggerOn").Str() == "specificFile"
	case n8nschema.TypeLocalFileTrigger:
		return strings.Contains(t.Params().Get("events").Raw(), "change")
	}
	return false
}

// VectorInsert reports a vector store node that adds documents (mode
// insert; createVectorStoreNode.ts) and does not clear what it holds
// first (Pinecone's clearNamespace, the in-memory store's clearStore).
func VectorInsert(n *n8nschema.Node) bool {
	if n.Disabled || !strings.Contains(n.Type, ".vectorStore") || n.Params().Get("mode").Str() != "insert" &&
		!strings.HasSuffix(n.Type, "Insert") {
		return false
	}
	o := n.Params().Get("options")
	return !o.Get("clearNamespace").True() && !o.Get("clearStore").True() && !n.Params().Get("clearStore").True()
}

// keyedByAddress are mailing-list and marketing apps that keep one contact
// per e-mail address: adding one again is refused (Mailchimp's "Member
// Exists") or updates the contact (Mautic, ActiveCampaign, Brevo).
var keyedByAddress = map[string]bool{
	"n8n-nodes-base.mailchimp": true, "n8n-nodes-base.mautic": true, "n8n-nodes-base.activeCampaign": true,
	"n8n-nodes-base.sendInBlue": true, "n8n-nodes-base.convertKit": true, "n8n-nodes-base.mailerLite": true,
	"n8n-nodes-base.getResponse": true, "n8n-nodes-base.sendy": true, "n8n-nodes-base.egoi": true,
	"n8n-nodes-base.lemlist": true, "n8n-nodes-base.brevo": true, "n8n-nodes-base.klaviyo": true,
}

// Behind returns the nodes that runs started at starts, which reach
// reach, reach after a node that mark says (that node excluded), with the
// sub-nodes of the roots among them, in one walk: what comes after a
// dedupe, a delete, a time-stamped write.
func Behind(g *Graph, reach Reach, starts []*n8nschema.Node, mark func(*n8nschema.Node) bool) map[*n8nschema.Node]bool {
	start := make(map[*n8nschema.Node]bool, len(starts))
	for _, t := range starts {
		start[t] = true
	}
	var queue []*n8nschema.Node
	for _, n := range g.Nodes {
		if reach.Has(n) && !n.Disabled && !start[n] && mark(n) {
			queue = append(queue, n)
		}
	}
	out := map[*n8nschema.Node]bool{}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range g.Out(u) {
			if e.Type == ConnMain && !out[e.To] {
				out[e.To] = true
				queue = append(queue, e.To)
			}
		}
		if out[u] {
			for _, sub := range g.SubNodes(u, "") {
				if !out[sub] {
					out[sub] = true
					queue = append(queue, sub)
				}
			}
		}
	}
	return out
}

// Unsifted returns the nodes that the reads reach along main connections
// without passing a node that may drop the records already handled (a
// branch, code, a merge or comparison, a dedupe, a limit, a sub-workflow,
// a lookup in a store), each with the first read that reaches it, in one
// walk from all the reads.
func Unsifted(g *Graph, reads []*n8nschema.Node) map[*n8nschema.Node]*n8nschema.Node {
	out := map[*n8nschema.Node]*n8nschema.Node{}
	var queue []*n8nschema.Node
	for _, r := range reads {
		if out[r] == nil {
			out[r] = r
			queue = append(queue, r)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if out[u] != u && sifts(u) {
			continue // reached, but nothing passes it unsifted
		}
		for _, e := range g.Out(u) {
			if e.Type == ConnMain && out[e.To] == nil {
				out[e.To] = out[u]
				queue = append(queue, e.To)
			}
		}
	}
	return out
}

// sifts reports a node that may drop items already handled: see sifters,
// and a read in a store (a lookup before the write).
func sifts(n *n8nschema.Node) bool {
	if n.Disabled {
		return false
	}
	if sifters[n.Type] {
		return true
	}
	if stores[strings.TrimSuffix(n.Type, "Tool")] {
		if _, kind, ok := n8nschema.AppOperation(n); ok && kind == n8nschema.OpRead {
			return true
		}
	}
	return false
}

// MarkedTypes are the store types a run started at t updates or deletes
// in (an update or delete operation, a free SQL query that does not
// insert): a read from one of them may be a queue whose rows are marked or
// taken off.
func MarkedTypes(g *Graph, reach Reach) map[string]bool {
	out := map[string]bool{}
	for _, n := range reach.Nodes() {
		if n.Disabled {
			continue
		}
		if _, kind, ok := n8nschema.AppOperation(n); ok && (kind == n8nschema.OpUpdate || kind == n8nschema.OpDelete) {
			out[n.Type] = true
		}
		if q, insert := n8nschema.SQLQuery(n); q && !insert {
			out[n.Type] = true
		}
	}
	return out
}

// Clears reports a node that deletes or clears something (an operation,
// method, query or name that says so): the target emptied before it is
// filled again.
func Clears(n *n8nschema.Node) bool {
	raw := n.Params().Raw()
	// The words hold no i or k, which lower-casing may make of a rune
	// outside ASCII: a search without case finds what the lower-cased text
	// holds, without the copy.
	for _, w := range []string{"delete", "remove", "clear", "truncate", "purge"} {
		if ascii.ContainsFold(n.Name, w) || ascii.ContainsFold(raw, w) {
			return true
		}
	}
	return false
}

// DedupesAcrossExecutions reports a Remove Duplicates node that drops
// items whose key an earlier execution saw (v2 operation
// removeItemsSeenInPreviousExecutions;
// nodes-base/nodes/Transform/RemoveDuplicates/v2/RemoveDuplicatesV2.description.ts).
func DedupesAcrossExecutions(n *n8nschema.Node) bool {
	return n.Type == "n8n-nodes-base.removeDuplicates" &&
		n.Params().Get("operation").Str() == "removeItemsSeenInPreviousExecutions"
}

// Stamps reports a write that stamps the time ($now, $today, new Date()):
// a row of a log, or a dated folder that takes this run's copies.
func Stamps(n *n8nschema.Node) bool {
	if w, _ := n8nschema.WriteOp(n); !w {
		return false
	}
	raw := n.Params().Raw()
	for _, ts := range []string{"$now", "$today", "new Date", "DateTime.now"} {
		if strings.Contains(raw, ts) {
			return true
		}
	}
	return false
}

// KeyedByAddress reports a mailing-list app that keeps one contact per
// address (keyedByAddress).
func KeyedByAddress(n *n8nschema.Node) bool {
	return keyedByAddress[strings.TrimSuffix(n.Type, "Tool")]
}
