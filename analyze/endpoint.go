package analyze

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// What an HTTP Request node's call does, read from its method and
// endpoint: a read sent as POST, a POST that sets fields, a copy onto a
// named destination, a delete. This is the one place that reads it;
// ConsequenceOf (consequence.go) and the rules ask here.

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

// syncRunHosts run the model a POST names and answer with its output in
// the same response, keeping no job a repeat would add to: fal's direct
// endpoint, https://fal.run/{model} ("run sends a direct HTTP request to
// fal.run and returns the result immediately, with no queue involved",
// fal.ai/docs/model-apis/model-endpoints/synchronous-requests; its queue,
// queue.fal.run, takes a job instead).
var syncRunHosts = map[string]bool{"fal.run": true}

// readingPOST reports whether an HTTP POST only reads or analyses: APIs
// that take their query in a JSON body are called with POST (Search
// Console searchAnalytics/query, Qdrant points/scroll, Airtable
// listRecords, Apify run-sync-get-dataset-items, Firecrawl scrape), the
// endpoints the catalog knows answer rather than store (a local model's
// /api/chat, a WebDriver command), a GraphQL query that is not a
// mutation, a call told not to keep what it makes (doNotSave=true), a
// Google-style custom method that reads or computes (:inspect,
// :synthesize, :runReport), a model run on a synchronous host (syncRunHosts), and a body that carries only a query
// (queryBody) to an endpoint whose path names no change.
func readingPOST(n *n8nschema.Node) bool {
	if n8nschema.HTTPMethod(n) != "POST" {
		return false
	}
	u := n.Params().Get("url").Str()
	if graphQLQuery(n, u) || doNotSave(n, u) || readCollection(n, u) || syncRunHosts[strings.ToLower(hostOf(strings.TrimPrefix(u, "=")))] {
		return true
	}
	words := urlVerbs(n)
	if len(words) > 0 && changeVerbs[words[0]] && customMethod(u) == "" {
		// The endpoint names its change: an answer word earlier in the
		// path is a segment's name (Z-API's /instances/{i}/token/{t}/send-text).
		return false
	}
	if n8nschema.AnswerPath(u) {
		return true
	}
	if !queryLanguage(u) && queryBody(n) && !pathNamesChange(u) {
		return true
	}
	if m := customMethod(u); m != "" {
		words := splitWords(m)
		return len(words) > 0 && customReads[words[0]] && !slices.ContainsFunc(words[1:], func(w string) bool { return changeVerbs[w] })
	}
	if m, ok := jsonRPCMethod(n); ok {
		// JSON-RPC posts every call to one URL; the method names it.
		words = splitWords(m)
	}
	if len(words) == 1 && computeWords[words[0]] && !harmPathRE.MatchString(pathOf(u)) {
		return true // …/statistics, …/process: computes and answers, creates nothing
	}
	read := false
	for i, w := range words {
		if changeVerbs[w] {
			return false
		}
		// run-sync: run an actor and answer with its output (Apify).
		read = read || readVerbs[w] || w == "login" || w == "run" && i+1 < len(words) && words[i+1] == "sync"
	}
	return read
}

// queryWords end the name of a body field that holds what to search for:
// query, locationQuery, q, searchStringsArray, keywords, searchTerms.
var queryWords = map[string]bool{"query": true, "q": true, "search": true, "keyword": true, "keywords": true,
	"term": true, "terms": true}

// queryKey reports a field named for what to search for: its last word,
// past a container's name, is a query word (locationQuery, searchTerms,
// searchStringsArray; not search_summary, which carries a text).
func queryKey(words []string) bool {
	for len(words) > 1 && containerWords[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	return len(words) > 0 && queryWords[words[len(words)-1]]
}

var containerWords = map[string]bool{"array": true, "list": true, "strings": true, "string": true}

// optionWords name a body field that tunes a search's answer rather than
// giving data to keep: maxResults, language, countryCode, hitsPerPage,
// search_depth, topic.
var optionWords = map[string]bool{"max": true, "min": true, "language": true, "lang": true, "locale": true,
	"country": true, "region": true, "per": true, "results": true, "hits": true, "rows": true, "num": true,
	"count": true, "depth": true, "topic": true, "by": true, "mode": true, "skip": true, "only": true,
	"exclude": true, "safe": true}

// maxQueryBody bounds the JSON body queryBody parses.
const maxQueryBody = 16 << 10

// queryBody reports whether a POST's body carries only a search: at least
// one field names what to search for (queryWords), and every other field
// tunes the answer (selectWords, optionWords, with no dataWords) or is a
// switch (true or false). Scraper actors and search APIs take such a body
// at any URL, the owner's relay included: {"locationQuery": …,
// "searchStringsArray": […], "maxCrawledPlacesPerSearch": 10,
// "skipClosedPlaces": false} or {"keywords": […], "isUrl": false}. A
// repeat is another search. The body must be read whole: literal JSON in
// jsonBody, or named body parameters; a query that writes (SQL INSERT, a
// GraphQL mutation) is not a search.
func queryBody(n *n8nschema.Node) bool {
	p := n.Params()
	type field struct {
		key string
		raw json.RawMessage
	}
	var fields []field
	for _, at := range []string{"bodyParameters.parameters", "parametersBody.values"} {
		for _, e := range p.Get(at).ElemsSeq() {
			v := e.Get("value").Str()
			raw, _ := json.Marshal(v)
			if t := strings.TrimSpace(v); t == "true" || t == "false" {
				raw = json.RawMessage(t)
			}
			fields = append(fields, field{e.Get("name").Str(), raw})
		}
	}
	body := strings.TrimSpace(p.Get("jsonBody").Str())
	if x := body; x != "" {
		if len(x) > maxQueryBody {
			return false
		}
		if t, ok := strings.CutPrefix(x, "="); ok {
			x = blankExprs(t)
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(x), &obj) != nil {
			return false // a body an expression builds: its fields are not known
		}
		for k, raw := range obj {
			fields = append(fields, field{k, raw})
		}
	}
	query := false
	for _, f := range fields {
		words := splitWords(f.key)
		has := func(set map[string]bool) bool {
			return slices.ContainsFunc(words, func(w string) bool { return set[w] })
		}
		switch raw := strings.TrimSpace(string(f.raw)); {
		case queryKey(words):
			if sqlWriteRE.MatchString(raw) || mutationRE.MatchString(raw) {
				return false
			}
			query = true
		case raw == "true" || raw == "false":
			// a switch: isUrl, skipClosedPlaces, include_answer
		case (has(selectWords) || has(optionWords)) && !has(dataWords):
		default:
			return false
		}
	}
	// A query that writes, wherever the body holds it, is none: looked
	// for last, as most bodies are no search.
	return query && !sqlWriteRE.MatchString(body) && !mutationRE.MatchString(body)
}

// blankExprs replaces each {{ … }} of an expression's text (from "{{" to
// the next "}}", as n8n splits it) with 0, which stands for a letter in a
// JSON string and for a number after a key: the body's fields stay
// readable, and a body an expression builds whole does not parse.
func blankExprs(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(s[i+2:], "}}")
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteByte('0')
		s = s[i+2+j+2:]
	}
	b.WriteString(s)
	return b.String()
}

// sqlWriteRE finds an SQL statement that changes data in a query text.
var sqlWriteRE = lazyregexp.New(`(?i)\b(insert\s+into|update\s+\w+\s+set|delete\s+from|merge\s+into|upsert|truncate|drop\s+table|alter\s+table|create\s+table)\b`)

// queryLanguage reports an endpoint that runs the query it is sent (an SQL
// runner, a GraphQL API): its "query" may write, and an expression hides
// which (graphQLQuery reads GraphQL's own).
func queryLanguage(u string) bool {
	return slices.ContainsFunc(splitWords(pathOf(strings.ToLower(strings.TrimPrefix(u, "=")))), func(w string) bool {
		return w == "sql" || w == "graphql" || w == "query" || w == "exec" || w == "execute"
	})
}

// pathNamesChange reports whether a URL's path, as written, holds a word
// that names a change (…/contacts/create, …/send-message), a collection of
// money or bookings (harmPathRE) or a message sent (messagePathRE).
func pathNamesChange(u string) bool {
	path := pathOf(strings.TrimPrefix(u, "="))
	if harmPathRE.MatchString(path) || messagePath(path) {
		return true
	}
	for _, s := range strings.Split(path, "/") {
		if strings.Contains(s, "{{") || strings.Contains(s, "}}") {
			continue
		}
		if slices.ContainsFunc(splitWords(s), func(w string) bool { return changeVerbs[w] || sendVerbs[w] }) {
			return true
		}
	}
	return false
}

// computeWords name a whole endpoint that computes a result from the
// request and answers it, creating nothing (Sentinel Hub's /statistics
// and /process render or aggregate imagery; an /evaluate or /forecast
// endpoint scores what it is sent). Not under a collection of money or
// bookings: /orders/{id}/process acts on the order.
var computeWords = map[string]bool{"statistics": true, "stats": true, "process": true, "aggregate": true,
	"evaluate": true, "compute": true, "simulate": true, "forecast": true}

// readSpaces name a collection of figures computed from what is stored
// (…/v1/stats/runs, …/metrics/query, …/reports/detailed,
// …/analytics/summary): a POST under one that sends only which records
// and which ranges to read answers with figures and stores nothing.
var readSpaces = map[string]bool{"stats": true, "statistics": true, "metrics": true, "analytics": true,
	"insights": true, "report": true, "reports": true, "reporting": true, "lookup": true, "lookups": true}

// readCollection reports whether a POST goes to a collection of figures
// (readSpaces), nothing after it in the path names a change (…/stats/reset,
// …/reports/create, …/metrics/{id}/delete), and its body names only ids and
// filters ({"run_ids": …}, {"dateRangeStart": …, "detailedFilter": {…}}) or
// is empty: what it sends says what to read, not what to store. A body with
// data of its own (a metric's points, an event's properties, a template's
// data) is a write. URL is u as written.
func readCollection(n *n8nschema.Node, u string) bool {
	segs := strings.Split(pathOf(strings.TrimPrefix(u, "=")), "/")
	at := -1
	for i, s := range segs {
		if strings.Contains(s, "{{") || strings.Contains(s, "}}") {
			continue
		}
		for _, w := range splitWords(s) {
			if at < 0 && readSpaces[w] {
				at = i
			} else if at >= 0 && (changeVerbs[w] || sendVerbs[w] || stateVerbs[w] || tallyVerbs[w]) {
				return false
			}
		}
	}
	return at >= 0 && bodyOnlySelects(n)
}

// tallyVerbs name an action on figures rather than a read of them:
// …/stats/reset, …/metrics/ingest, …/analytics/track, …/reports/generate.
var tallyVerbs = map[string]bool{"reset": true, "clear": true, "purge": true, "flush": true, "track": true,
	"record": true, "log": true, "ingest": true, "submit": true, "push": true, "increment": true, "launch": true,
	"generate": true, "schedule": true, "start": true, "collect": true, "event": true, "events": true}

// selectWords are the words of a body field that say which records to
// read or how to shape the answer: ids, filters, ranges, pages, grouping.
var selectWords = map[string]bool{"id": true, "ids": true, "uid": true, "uuid": true, "filter": true,
	"filters": true, "where": true, "query": true, "q": true, "search": true, "date": true, "dates": true,
	"range": true, "start": true, "end": true, "from": true, "to": true, "since": true, "until": true,
	"before": true, "after": true, "period": true, "page": true, "size": true, "limit": true, "offset": true,
	"cursor": true, "sort": true, "order": true, "field": true, "fields": true, "metric": true, "metrics": true,
	"dimension": true, "dimensions": true, "group": true, "granularity": true, "interval": true,
	"timezone": true, "tz": true, "format": true, "export": true, "include": true, "expand": true,
	"select": true, "days": true}

// dataWords are the words of a body field that carry data of its own,
// whatever else the name says: event_type, metric_value, report_title.
var dataWords = map[string]bool{"event": true, "events": true, "properties": true, "value": true,
	"values": true, "data": true, "text": true, "message": true, "content": true, "body": true, "points": true,
	"series": true, "payload": true, "name": true, "title": true}

// bodyKeyRE finds the keys of a JSON body or an object literal written as
// text: a name after { or , and before a colon, quoted or not.
var bodyKeyRE = lazyregexp.New(`(?:^|[{,])\s*["']?([A-Za-z_][\w-]*)["']?\s*:`)

// bodyOnlySelects reports whether every field of a POST's body names
// records or filters (selectWords) and none carries data (dataWords), or
// it has no body. A body built by an
// expression whose keys cannot be read ({{ JSON.stringify($json) }}) is
// not known to.
func bodyOnlySelects(n *n8nschema.Node) bool {
	p := n.Params()
	var keys []string
	for _, at := range []string{"bodyParameters.parameters", "bodyParametersUi.parameter"} {
		for _, e := range p.Get(at).ElemsSeq() {
			keys = append(keys, e.Get("name").Str())
		}
	}
	for _, at := range []string{"jsonBody", "bodyParametersJson", "body"} {
		x := strings.TrimSpace(strings.TrimPrefix(p.Get(at).Str(), "="))
		if x == "" {
			continue
		}
		found := bodyKeyRE.FindAllStringSubmatch(x, -1)
		if len(found) == 0 || strings.Contains(x, "...") {
			return false // an expression or a text whose fields are unknown, or a spread of the item's
		}
		for _, m := range found {
			keys = append(keys, m[1])
		}
	}
	if p.Get("sendBinaryData").True() || p.Get("contentType").Str() == "binaryData" {
		return false
	}
	for _, k := range keys {
		words := splitWords(k)
		if !slices.ContainsFunc(words, func(w string) bool { return selectWords[w] }) ||
			slices.ContainsFunc(words, func(w string) bool { return dataWords[w] }) {
			return false
		}
	}
	return true
}

// customReads lead the Google-style custom methods (AIP-136) that answer
// and store nothing: urlInspection/index:inspect, text:synthesize,
// images:annotate, speech:recognize, properties/…:runReport,
// customers/…:generateKeywordIdeas, …:batchGet.
var customReads = map[string]bool{"generate": true, "search": true, "query": true, "list": true, "get": true,
	"batch": true, "suggest": true, "analyze": true, "predict": true, "classify": true, "lookup": true,
	"inspect": true, "synthesize": true, "annotate": true, "recognize": true, "run": true, "detect": true,
	"translate": true, "compute": true, "embed": true, "count": true, "stream": true, "moderate": true,
	"summarize": true, "check": true}

// customMethodRE matches a Google-style custom method at the end of a URL
// path (AIP-136): /customers/123:generateKeywordIdeas.
var customMethodRE = lazyregexp.New(`:([a-z][A-Za-z]*)$`)

// customMethod returns the custom method a URL ends with, or "".
func customMethod(u string) string {
	u = strings.TrimRight(strings.SplitN(u, "?", 2)[0], "/ ")
	if m := customMethodRE.FindStringSubmatch(u); m != nil {
		return m[1]
	}
	return ""
}

// mutationRE finds a GraphQL mutation in a request body.
var mutationRE = lazyregexp.New(`\bmutation\b`)

// graphQLQuery reports whether a POST to a GraphQL endpoint sends a query,
// not a mutation: GraphQL sends both as POST to one URL.
func graphQLQuery(n *n8nschema.Node, u string) bool {
	path := strings.ToLower(strings.SplitN(u, "?", 2)[0])
	if !strings.HasSuffix(strings.TrimRight(path, "/ "), "graphql") {
		return false
	}
	mutation := false
	for _, p := range []string{"jsonBody", "body", "bodyParameters"} {
		n.Params().Get(p).Scalars(func(v n8nschema.Value) bool {
			mutation = mutation || v.Kind() == n8nschema.String && mutationRE.MatchString(v.Str())
			return true
		})
	}
	return !mutation
}

// graphQLInsert reports whether a POST to a GraphQL endpoint sends a
// mutation whose first field inserts a row, as Hasura names the mutations
// it makes for each table (insert_messages_one, insert_orders): the row is
// written into the owner's database, and nothing is sent to anyone, even
// when a column holds a message or an address.
func graphQLInsert(n *n8nschema.Node, u string) bool {
	path := strings.ToLower(strings.SplitN(u, "?", 2)[0])
	if !strings.HasSuffix(strings.TrimRight(path, "/ "), "graphql") {
		return false
	}
	insert := false
	for _, p := range []string{"jsonBody", "body", "bodyParameters"} {
		n.Params().Get(p).Scalars(func(v n8nschema.Value) bool {
			insert = insert || v.Kind() == n8nschema.String && insertMutationRE.MatchString(v.Str())
			return true
		})
	}
	return insert
}

// graphQLUpsert reports whether a GraphQL insert names what to do on a
// conflict (Hasura's on_conflict): an upsert, whose repeat updates the
// same row, as SQL's INSERT … ON CONFLICT.
func graphQLUpsert(n *n8nschema.Node) bool {
	upsert := false
	for _, p := range []string{"jsonBody", "body", "bodyParameters"} {
		n.Params().Get(p).Scalars(func(v n8nschema.Value) bool {
			upsert = upsert || v.Kind() == n8nschema.String && strings.Contains(v.Str(), "on_conflict")
			return true
		})
	}
	return upsert
}

// insertMutationRE finds a GraphQL mutation whose first field is a
// Hasura insert: mutation M($c: String!) { insert_messages_one(object: …).
var insertMutationRE = lazyregexp.New(`\bmutation\b[^{]*\{\s*insert_\w+\s*\(`)

// doNotSave reports whether a call asks the API not to keep what it makes
// (doNotSave=true in the URL or the query parameters): an analysis.
func doNotSave(n *n8nschema.Node, u string) bool {
	if strings.Contains(strings.ToLower(u), "donotsave=true") {
		return true
	}
	for _, p := range n.Params().Get("queryParameters.parameters").ElemsSeq() {
		if strings.EqualFold(p.Get("name").Str(), "doNotSave") && strings.EqualFold(strings.TrimPrefix(p.Get("value").Str(), "="), "true") {
			return true
		}
	}
	return false
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
	// A word is a run of s: one capital or none, then small letters.
	var words []string
	start := -1
	flush := func(end int) {
		if start >= 0 {
			words = append(words, strings.ToLower(s[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			flush(i)
			start = i
		case c >= 'a' && c <= 'z':
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
	return words
}

// CleanupURL reports whether an HTTP call goes to an endpoint named for a
// delete ("…/points/delete", "…/remove"): its failure ("already gone") is
// usually meant to be ignored, as for app nodes' delete operations.
func CleanupURL(n *n8nschema.Node) bool {
	for _, w := range urlVerbs(n) {
		switch w {
		case "delete", "remove", "clear", "purge", "trash", "archive":
			return true
		}
	}
	return false
}

// destFieldRE matches a body field that names where a copy or move goes:
// "dstKey", "destination", "target_path", "to".
var destFieldRE = lazyregexp.New(`(?i)["']?\b(dst|dest|destination|target|to)[_-]?(key|path|name|file|folder|id|url)?["']?\s*:`)

// copyPathRE matches a copy or move endpoint anywhere in the path
// (/files/copy/{bucket}, /objects/move).
var copyPathRE = lazyregexp.New(`(?i)/(copy|move|rename)(/|$)`)

// namedCopy reports whether an HTTP POST copies or moves an object onto a
// destination the request names ({"srcKey": …, "dstKey": …} to …/copy): a
// repeat writes the same object under the same name, not a second one.
func namedCopy(n *n8nschema.Node) bool {
	if n8nschema.HTTPMethod(n) != "POST" {
		return false
	}
	if !copyPathRE.MatchString(strings.SplitN(n.Params().Get("url").Str(), "?", 2)[0]) {
		return false
	}
	body := n.Params().Get("jsonBody").Str()
	for _, p := range n.Params().Get("bodyParameters.parameters").ElemsSeq() {
		body += " " + p.Get("name").Str() + ":"
	}
	return destFieldRE.MatchString(body)
}

// namedUploadKeys are the upload APIs where the caller may name the
// stored asset, and the field that names it. Cloudinary's upload
// (POST /v1_1/:cloud_name/:resource_type/upload) stores the file under
// public_id when one is given: with overwrite (the default of a signed
// upload) a repeat replaces that asset, without it the upload answers with
// the asset already there; a random id is made only when none is given
// (https://cloudinary.com/documentation/image_upload_api_reference#upload).
var namedUploadKeys = map[string]string{"api.cloudinary.com": "public_id"}

// namedUpload reports an HTTP upload to a fixed destination: an upload API
// of namedUploadKeys given a name that is the same on every repeat for an
// item (written in the node or read from the item, not the time or a
// random value), as a file written at a fixed path is.
func namedUpload(n *n8nschema.Node) bool {
	if n8nschema.HTTPMethod(n) != "POST" {
		return false
	}
	u := strings.ToLower(strings.TrimSpace(n.Params().Get("url").Str()))
	key := namedUploadKeys[hostOf(u)]
	if key == "" || !strings.HasSuffix(strings.TrimRight(pathOf(u), "/"), "/upload") {
		return false
	}
	var names []string
	for _, at := range []string{"bodyParameters.parameters", "queryParameters.parameters"} {
		for _, p := range n.Params().Get(at).ElemsSeq() {
			if strings.TrimSpace(p.Get("name").Str()) == key {
				names = append(names, p.Get("value").Str())
			}
		}
	}
	for _, m := range bodyFieldRE.FindAllStringSubmatch(n.Params().Get("jsonBody").Str(), -1) {
		if m[1] == key {
			names = append(names, strings.Trim(m[2], `"'`))
		}
	}
	for _, v := range names {
		if k, _ := n8nschema.ClassifyKey(v); k == n8nschema.KeyStable || k == n8nschema.KeyConstant {
			return true
		}
	}
	return false
}

// settingPOST reports whether an HTTP POST goes to an endpoint named for
// setting state (…/update-meta, …/setStatus) or for a delete, and not for
// creating or sending: a repeat re-applies the same fields.
func settingPOST(n *n8nschema.Node) bool {
	if n8nschema.HTTPMethod(n) != "POST" {
		return false
	}
	u := strings.TrimRight(strings.SplitN(n.Params().Get("url").Str(), "?", 2)[0], "/ ")
	if updateByIDRE.MatchString(u) || oneReplyRE.MatchString(u) || bodyNamesRecord(n) || actionOnOne(n, u) || containerPublish(n) {
		return true
	}
	set := false
	for _, w := range urlVerbs(n) {
		switch w {
		case "update", "set", "edit", "modify", "rename", "mark":
			set = true
		case "delete", "remove", "trash", "archive", "purge":
			set = true // named for a delete (Qdrant …/points/delete, Slack chat.delete): what is gone stays gone
		case "create", "insert", "add", "send", "post", "publish", "upload", "charge", "pay", "append", "new":
			return false
		}
	}
	return set
}

// containerPublish reports Meta's second publishing step: POST
// …/{ig-user-id}/media_publish (Instagram) or …/threads_publish (Threads)
// with the creation_id of a container an earlier call made. It publishes
// that one container, whose status_code then reads PUBLISHED
// (developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container,
// …/reference/ig-user/media_publish): a repeat names the same container and
// makes no second post. The first step, …/media, makes a new container on
// every call.
func containerPublish(n *n8nschema.Node) bool {
	u := n.Params().Get("url").Str()
	if !containerPublishRE.MatchString(u) {
		return false
	}
	if strings.Contains(u, "creation_id=") {
		return true
	}
	for _, at := range []string{"queryParameters.parameters", "bodyParameters.parameters"} {
		for _, p := range n.Params().Get(at).ElemsSeq() {
			if strings.TrimSpace(p.Get("name").Str()) == "creation_id" {
				return true
			}
		}
	}
	return bodyCreationIDRE.MatchString(n.Params().Get("jsonBody").Str())
}

var (
	containerPublishRE = lazyregexp.New(`/(media|threads)_publish([?'"/\s]|$)`)
	bodyCreationIDRE   = lazyregexp.New(`["']?\bcreation_id["']?\s*:`)
)

// igContainer reports Meta's first publishing step on Instagram: POST
// …/{ig-user-id}/media (graph.facebook.com or graph.instagram.com) with
// the media it stages (image_url, video_url, media_type, is_carousel_item,
// children). It makes an unpublished container that nothing shows: only
// media_publish with its id posts it, and one left unpublished reads
// status_code EXPIRED after 24 hours
// (developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container).
// A repeat leaves a second container no one sees; the publish step names
// the one the successful try returned (containerPublish). WhatsApp's
// …/{phone-number-id}/media upload names none of those fields.
func igContainer(n *n8nschema.Node) bool {
	u := n.Params().Get("url").Str()
	if !igMediaRE.MatchString(u) {
		return false
	}
	if igStageFieldRE.MatchString(u) || igStageFieldRE.MatchString(n.Params().Get("jsonBody").Str()) {
		return true
	}
	for _, at := range []string{"queryParameters.parameters", "bodyParameters.parameters"} {
		for _, p := range n.Params().Get(at).ElemsSeq() {
			if igStageFieldRE.MatchString(strings.TrimSpace(p.Get("name").Str()) + "=") {
				return true
			}
		}
	}
	return false
}

var (
	igMediaRE      = lazyregexp.New(`(?i)graph\.(facebook|instagram)\.com/[^?'"\s]*/media([?'"\s]|$)`)
	igStageFieldRE = lazyregexp.New(`\b(image_url|video_url|media_type|is_carousel_item|children)["']?\s*[=:]`)
)

// actionPathRE matches a URL that ends with an action on one resource
// named by id in the path: /messages/{{ $json.id }}/trash,
// /orders/123456/cancel. The id is an expression or a literal holding a
// digit; the action is one segment after it.
var actionPathRE = lazyregexp.New(`/[A-Za-z_-]+/(\{\{[^{}]*\}\}|[A-Za-z0-9_:.-]*[0-9][A-Za-z0-9_:.-]*)/([A-Za-z_-]+)$`)

// actionPathID is actionPathRE's id (its first group) in u, ok when it
// matches: read back from the end, where each part is fixed by the slash
// before it, not tried from every byte (TestActionPathAsRegexp).
func actionPathID(u string) (id string, ok bool) {
	slug := func(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-' }
	idByte := func(c byte) bool { return slug(c) || '0' <= c && c <= '9' || c == ':' || c == '.' }
	// back returns the start of the run of f's bytes ending at end, and
	// whether it is not empty and a slash comes before it.
	back := func(end int, f func(byte) bool) (int, bool) {
		i := end
		for i > 0 && f(u[i-1]) {
			i--
		}
		return i, i < end && i > 0 && u[i-1] == '/'
	}
	a, ok := back(len(u), slug) // the action
	if !ok {
		return "", false
	}
	end := a - 1 // the id ends at the slash before the action
	start := 0
	if strings.HasSuffix(u[:end], "}}") {
		i := end - 2
		for i > 0 && u[i-1] != '{' && u[i-1] != '}' {
			i--
		}
		if i < 3 || u[i-1] != '{' || u[i-2] != '{' || u[i-3] != '/' {
			return "", false
		}
		start = i - 2
	} else {
		if start, ok = back(end, idByte); !ok || !strings.ContainsAny(u[start:end], "0123456789") {
			return "", false
		}
	}
	if _, ok := back(start-1, slug); !ok {
		return "", false
	}
	return u[start:end], true
}

// versionSegRE matches a path segment that names an API version, not a
// resource: v1, v2beta, v1.0, 2025-01.
var versionSegRE = lazyregexp.New(`^(v\d+[a-z]*\d*(\.\d+)*|\d{4}-\d{2}(-\d{2})?)$`)

// actionOnOne reports whether a POST applies an action that sets the state
// of the one resource its path names by id (Gmail's users.messages.trash,
// POST …/users/{userId}/messages/{id}/trash with an empty body, "moves the
// specified message to the trash", and untrash and modify alike,
// developers.google.com/gmail/api/reference/rest/v1/users.messages/trash;
// Graph's …/messages/{id}/move; an order's
// …/orders/{id}/cancel): the action is a state (stateVerbs), not a thing
// made under the resource (…/{id}/comments, …/{id}/runs) nor a send
// (…/{id}/send, …/{id}/reply, …/{id}/forward), so a repeat leaves the
// resource in the state the first call left it. URL is u without query.
func actionOnOne(n *n8nschema.Node, u string) bool {
	id, ok := actionPathID(u)
	if !ok || versionSegRE.MatchString(id) {
		return false
	}
	words := urlVerbs(n)
	if len(words) == 1 && transitionSends[words[0]] {
		return true // …/posts/{id}/publish moves that draft to published: a second call finds it so
	}
	return len(words) > 0 && stateVerbs[words[0]] && !slices.ContainsFunc(words, func(w string) bool { return sendVerbs[w] })
}

// transitionSends are send words that, as the whole last segment after
// the id of one record, move that record to a state rather than make
// another thing: …/posts/{id}/publish publishes the draft the path names
// (WordPress, Ghost and Strapi keep it as the post's status), while
// …/{id}/publish_to_feed or a bare …/publish makes something new.
var transitionSends = map[string]bool{"publish": true, "unpublish": true}

// sendVerbs name an action that sends or makes something, whatever state
// word comes with it (…/{id}/send_by_email).
var sendVerbs = map[string]bool{"send": true, "reply": true, "forward": true, "post": true, "publish": true,
	"create": true, "add": true, "copy": true, "duplicate": true, "clone": true, "invite": true, "notify": true,
	"charge": true, "pay": true, "refund": true, "capture": true, "new": true}

// resolutionRE matches PostgREST's upsert preference, sent in the Prefer
// header: resolution=merge-duplicates updates the row that has the same
// primary key (or the on_conflict columns), resolution=ignore-duplicates
// keeps it and inserts nothing (PostgREST "Upsert",
// docs.postgrest.org/en/stable/references/api/tables_views.html#upsert;
// supabase-js upsert() sends the same header).
var resolutionRE = lazyregexp.New(`(?i)resolution\s*=\s*(merge|ignore)-duplicates`)

// postgrestUpsert reports whether an HTTP POST asks PostgREST or Supabase
// (…/rest/v1/<table>) to upsert: a Prefer header with a duplicate
// resolution, as name/value pairs or JSON headers. A repeat of the same
// rows leaves the table as the first call did, as SQL's INSERT … ON
// CONFLICT does.
func postgrestUpsert(n *n8nschema.Node) bool {
	if n8nschema.HTTPMethod(n) != "POST" {
		return false
	}
	p := n.Params()
	for _, at := range []string{"headerParameters.parameters", "headerParametersUi.parameter"} {
		for _, h := range p.Get(at).ElemsSeq() {
			if strings.EqualFold(strings.TrimSpace(h.Get("name").Str()), "prefer") && resolutionRE.MatchString(h.Get("value").Str()) {
				return true
			}
		}
	}
	for _, at := range []string{"jsonHeaders", "headerParametersJson"} {
		if v := p.Get(at).Str(); strings.Contains(strings.ToLower(v), "prefer") && resolutionRE.MatchString(v) {
			return true
		}
	}
	return false
}

// bodyParams are where an HTTP Request node keeps a body: v3+ sendBody
// with bodyParameters, jsonBody or a binary field; v1/v2 bodyParametersUi,
// bodyParametersJson and sendBinaryData (nodes-base/nodes/HttpRequest/V3
// and V2 descriptions).
var bodyParams = []string{"bodyParameters", "jsonBody", "body", "bodyParametersUi", "bodyParametersJson", "inputDataFieldName", "binaryPropertyName"}

// itemlessPOST reports whether an HTTP POST carries nothing of the item:
// no body at all, and no parameter (URL, query, header) that reads the
// item or another node's output. It sends the same bytes on every run
// for every item, so what it leaves is whatever the server does when
// asked (start a job, claim the next task), not a record, message or
// charge made from the data.
func itemlessPOST(n *n8nschema.Node) bool {
	if n8nschema.HTTPMethod(n) != "POST" {
		return false
	}
	p := n.Params()
	if p.Get("sendBody").True() || p.Get("sendBinaryData").True() || p.Get("jsonParameters").True() {
		return false
	}
	for _, b := range bodyParams {
		if v := p.Get(b); v.Exists() && strings.TrimSpace(strings.TrimPrefix(v.Raw(), "=")) != `""` && v.Raw() != "{}" && v.Raw() != "[]" && v.Kind() != n8nschema.Null {
			return false
		}
	}
	item := false
	p.Scalars(func(v n8nschema.Value) bool {
		item = item || v.Kind() == n8nschema.String && readsItem(v.Str())
		return true
	})
	return !item
}

// idKeyRE matches a body field that names a record by id: id, orderId,
// order_id, recordId.
var idKeyRE = lazyregexp.New(`^(id|ID|[A-Za-z]+(Id|ID|_id|-id))$`)

// fedIDRE matches a value read from the model's arguments ({orderId} of
// the HTTP Request tool, $fromAI) or from the item ($json, $('Node')).
var fedIDRE = lazyregexp.New(`^\{[A-Za-z0-9_-]+\}$|\$fromAI|\$json|\$\(|\$node\[`)

// stateVerbs name an endpoint that sets the state of one existing record
// (…/design/configure, …/confirm, …/set-status): the action, not the
// thing made.
var stateVerbs = map[string]bool{"configure": true, "update": true, "set": true, "edit": true, "modify": true,
	"confirm": true, "cancel": true, "complete": true, "approve": true, "reject": true, "close": true,
	"reopen": true, "assign": true, "unassign": true, "mark": true, "pause": true, "resume": true,
	"archive": true, "unarchive": true, "enable": true, "disable": true, "activate": true, "deactivate": true,
	"status": true, "accept": true, "decline": true, "finish": true, "finalize": true, "lock": true, "unlock": true,
	"trash": true, "untrash": true, "restore": true, "move": true, "star": true, "unstar": true, "pin": true,
	"unpin": true, "mute": true, "unmute": true, "hide": true, "unhide": true,
	// The moves of a review or a claim (…/approvals/{id}/resolve): the
	// record ends in the state the word names, and a second call finds it
	// there; the API refuses it or leaves it.
	"resolve": true, "unresolve": true, "dismiss": true, "acknowledge": true, "ack": true, "verify": true,
	"revoke": true, "suspend": true, "unsuspend": true, "reinstate": true, "void": true, "expire": true,
	"snooze": true, "unsnooze": true, "claim": true, "unclaim": true, "deny": true, "withdraw": true,
	"retract": true, "block": true, "unblock": true}

// bodyNamesRecord reports whether a POST names the one existing record it
// acts on by an id in its body ({"orderId": "{orderId}"} to
// …/design/configure), read from the model's arguments or the item, at an
// endpoint named for setting a state (stateVerbs), not a collection
// (…/orders, where an id in the body names the customer of a new order)
// nor a create or a send: a repeat re-applies the action to that record,
// as an id in the URL path does.
func bodyNamesRecord(n *n8nschema.Node) bool {
	words := urlVerbs(n)
	if len(words) == 0 || !stateVerbs[words[0]] {
		return false
	}
	named := false
	check := func(key, val string) {
		if !named && idKeyRE.MatchString(key) && !recipientKey(key) && fedIDRE.MatchString(strings.TrimSpace(val)) {
			named = true
		}
	}
	p := n.Params()
	for _, at := range []string{"bodyParameters.parameters", "parametersBody.values"} {
		for _, e := range p.Get(at).ElemsSeq() {
			val := e.Get("value").Str()
			if strings.Contains(e.Get("valueProvider").Str(), "model") || at == "parametersBody.values" && !e.Get("valueProvider").Exists() {
				val = "{" + e.Get("name").Str() + "}" // the model fills it
			}
			check(e.Get("name").Str(), val)
		}
	}
	for _, m := range bodyFieldRE.FindAllStringSubmatch(p.Get("jsonBody").Str(), -1) {
		check(m[1], strings.Trim(m[2], `"'`))
	}
	return named
}

// updateByIDRE matches a URL that ends with a collection and an id taken
// from the item (/tasks/{{ $json.id }}): the REST convention of Todoist,
// Stripe and others for POST as an update of that one resource.
var updateByIDRE = lazyregexp.New(`/[A-Za-z_]+s/\{\{[^{}]*\}\}$`)

// oneReplyRE matches Trustpilot's company reply to a service review,
// POST /v1/private/reviews/{reviewId}/reply. The reply has no id of its
// own: the Service Reviews API posts and deletes it at that one path
// (developers.trustpilot.com/service-reviews-api, "Reply to a review",
// "Delete a reply to a review"), so a review holds one company reply and a
// repeat posts the same reply again, not a second one.
var oneReplyRE = lazyregexp.New(`(?i)^=?https://api\.trustpilot\.com/v1/private/reviews/[^/]+/reply$`)

// commandSepRE splits a shell command into its statements.
var commandSepRE = lazyregexp.New(`&&|\|\||;|\n|\|`)

// removeCmdRE matches a statement that removes files or directories: rm,
// rmdir, unlink, shred, del, Remove-Item, find … -delete.
var removeCmdRE = lazyregexp.New(`(?i)^(sudo\s+)?(rm|rmdir|unlink|shred|del|erase|remove-item)\b|^(sudo\s+)?find\b.*\s-delete\b`)

// harmlessCmdRE matches statements that change nothing: echo, true, exit,
// cd, a comment.
var harmlessCmdRE = lazyregexp.New(`(?i)^(echo|true|exit|cd|:|#)\b|^#`)

// CleanupCommand reports whether a command run over SSH or by Execute
// Command only removes files (rm -f of a temporary file, a cleanup of a
// work directory): its failure ("already gone") is meant to be ignored, as
// for deletes.
func CleanupCommand(n *n8nschema.Node) bool {
	if n.Type != "n8n-nodes-base.ssh" && n.Type != "n8n-nodes-base.executeCommand" {
		return false
	}
	cmd := strings.TrimSpace(strings.TrimPrefix(n.Params().Get("command").Str(), "="))
	if inner, ok := strings.CutPrefix(cmd, "{{"); ok && strings.HasSuffix(cmd, "}}") {
		// The whole command one expression: {{ `rm -f ${$json.path}` }}.
		cmd = strings.Trim(strings.TrimSpace(strings.TrimSuffix(inner, "}}")), "`'\"")
	}
	removes := false
	for _, st := range strings.Split(commandSepRE.ReplaceAllString(cmd, "\n"), "\n") {
		st = strings.TrimSpace(st)
		switch {
		case st == "":
		case removeCmdRE.MatchString(st):
			removes = true
		case harmlessCmdRE.MatchString(st):
		default:
			return false
		}
	}
	return removes
}
