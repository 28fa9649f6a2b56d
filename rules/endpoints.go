package rules

import (
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Helpers that read what an HTTP call does from its endpoint: a read sent
// as POST, a delete, a call into n8n itself.

// urlVerbs splits the last path segment of an HTTP Request node's URL into
// lower-case words ("run-sync-get-dataset-items" → run sync get dataset
// items; "listRecords" → list records); nil for other nodes or no URL.
func urlVerbs(n *n8nschema.Node) []string {
	if !n8nschema.IsHTTPRequest(n.Type) {
		return nil
	}
	v, _ := n.Param("url")
	u := v.Str()
	if i := strings.LastIndex(u, "}}"); i >= 0 {
		// An expression: read the literal text after it ("={{ $json.base
		// }}/points/delete"), or the last string literal it ends with
		// ("={{ … + '/searchAnalytics/query' }}"); else nothing is known.
		if tail := u[i+2:]; strings.TrimSpace(tail) != "" {
			u = tail
		} else {
			inner := strings.TrimSpace(u[:i])
			if inner == "" || !strings.ContainsRune("'\"`", rune(inner[len(inner)-1])) {
				return nil
			}
			q := inner[len(inner)-1]
			inner = inner[:len(inner)-1]
			u = inner[strings.LastIndexByte(inner, q)+1:]
		}
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	u = strings.TrimRight(u, "/ ")
	if i := strings.LastIndex(u, "/"); i >= 0 {
		u = u[i+1:]
	}
	if strings.ContainsAny(u, "{}$") {
		return nil
	}
	return splitWords(u)
}

// readVerbs and changeVerbs are the words of an endpoint name that say
// whether a POST reads or changes state.
var (
	readVerbs = map[string]bool{"query": true, "search": true, "get": true, "list": true, "find": true,
		"lookup": true, "fetch": true, "retrieve": true, "read": true, "count": true, "scroll": true, "scrape": true}
	changeVerbs = map[string]bool{"create": true, "update": true, "delete": true, "insert": true, "upsert": true,
		"send": true, "post": true, "publish": true, "upload": true, "add": true, "set": true, "write": true,
		"remove": true, "patch": true, "put": true, "charge": true, "pay": true, "cancel": true, "save": true}
)

// readingPOST reports whether an HTTP POST goes to an endpoint named for a
// read: APIs that take their query in a JSON body are called with POST
// (Search Console searchAnalytics/query, Qdrant points/scroll, Airtable
// listRecords, Apify run-sync-get-dataset-items, Firecrawl scrape), and the
// endpoints the catalog knows answer rather than store (a local model's
// /api/chat, a WebDriver command).
func readingPOST(n *n8nschema.Node) bool {
	if n8nschema.HTTPMethod(n) != "POST" {
		return false
	}
	if dup, _, _ := n8nschema.DuplicatingWrite(n); !dup {
		return true // a search, model, conversion or WebDriver endpoint (effects.go rpcPathWords)
	}
	words := urlVerbs(n)
	if m, ok := jsonRPCMethod(n); ok {
		// JSON-RPC posts every call to one URL; the method names it.
		words = splitWords(m)
	}
	read := false
	for _, w := range words {
		if changeVerbs[w] {
			return false
		}
		read = read || readVerbs[w] || w == "login"
	}
	return read
}

// rpcMethodRE finds the method of a JSON-RPC request body: "method":
// "problem.get", method: 'user.login'.
var rpcMethodRE = lazyregexp.New(`["']?method["']?\s*:\s*["']([\w./-]+)["']`)

// jsonRPCMethod returns the method a JSON-RPC 2.0 request calls (Zabbix
// problem.get, Odoo execute_kw), read from the JSON body.
func jsonRPCMethod(n *n8nschema.Node) (string, bool) {
	body := n.Params().Get("jsonBody").Str()
	if !strings.Contains(body, "jsonrpc") {
		return "", false
	}
	m := rpcMethodRE.FindStringSubmatch(body)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// splitWords splits a name into lower-case words at case changes and
// non-letters: "problem.get" → problem get, "getRecords" → get records.
func splitWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			flush()
			cur = append(cur, r)
		case r >= 'a' && r <= 'z':
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return words
}

// cleanupURL reports whether an HTTP call goes to an endpoint named for a
// delete ("…/points/delete", "…/remove"): its failure ("already gone") is
// usually meant to be ignored, as for app nodes' delete operations.
func cleanupURL(n *n8nschema.Node) bool {
	for _, w := range urlVerbs(n) {
		switch w {
		case "delete", "remove", "clear", "purge", "trash", "archive":
			return true
		}
	}
	return false
}

// selfWebhookCall reports whether a node is a call into n8n itself (a
// webhook of this instance or of a workflow in the set): what it re-sends
// is an execution, and RS102/RS101 speak for it.
func selfWebhookCall(pass *analyze.Pass, n *n8nschema.Node) bool {
	for _, c := range pass.Set.Calls {
		if c.Node == n && c.Kind == analyze.CallWebhook && (c.Resolved() || c.Instance) {
			return true
		}
	}
	return false
}
