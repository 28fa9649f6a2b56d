package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A node that continues on failure (onError continueRegularOutput, or the
// legacy continueOnFail) hands on, for a failed item, an item holding only
// {error: …} where its result would be. Whether the node after it then
// fails, so that the run fails where the failure is seen, is one fact the
// rules share (ThrowsOnErrorItem).
//
// An expression never does: both of n8n's expression engines swallow any
// error but an ExpressionError, and yield nothing for a TypeError or for
// the SyntaxError of JSON.parse(undefined) (n8n-workflow
// dist/cjs/expression.js L58-61 and L668-683; the default VM engine's
// @n8n/expression-runtime dist/cjs/bridge/isolated-vm-bridge.js L87-100).
// Observed on n8n 2.41.1 and 2.8.4 (`n8n execute`): an HTTP Request with
// continueRegularOutput that fails, then a Set 3.4 assigning
// {{ $json.data.url.replace('a','b') }}, {{ $json.data.url }} or
// {{ JSON.parse($json.candidates[0].content.parts[0].text).amount }}:
// the Set stores null and the run succeeds. So a Set, If, Switch or any
// parameter's expression passes the error item on with empty values; only
// code throws. A Code node that reads a field of its input item two levels
// deep ($json.data.url: data is missing, reading url of undefined) throws
// a TypeError, which fails the node (observed on n8n 2.41.1: "Cannot read
// properties of undefined (reading 'url')", the run fails); $json.data?.url
// does not.

// ThrowsOnErrorItem reports whether node m, handed the error item of the
// node before it, fails and so fails the run there: it does not continue
// on failure itself, and it is a Code node whose code reaches past a field
// of its input item (itemDerefRE) outside a try, or an external call that
// names what it acts on with a field of the item (NamesTargetWithItem).
func ThrowsOnErrorItem(g *Graph, m *n8nschema.Node) bool {
	if m.Disabled || m.ContinuesOnFail() {
		return false
	}
	if n8nschema.IsCode(m.Type) {
		for _, k := range []string{"jsCode", "functionCode"} {
			if v, ok := m.Param(k); ok && itemDerefRE.MatchString(v.Str()) && !tryRE.MatchString(v.Str()) {
				return true
			}
		}
		return false
	}
	return NamesTargetWithItem(g, m)
}

// NamesTargetWithItem reports whether m is an external call that names
// what it acts on with a field of its input item, so that it fails for an
// error item, which lacks the field, whether or not m continues on failure:
// a URL or an id built from $json (it goes to ".../undefined"), or a body
// field that names the resource the call reads (bodyTargetKey: a URL or
// URI, "fileUri" of a Gemini generateContent request, or a key that is only
// "id") set from a field of the item: the expression yields nothing
// (its TypeError is swallowed) and the service refuses the empty name.
func NamesTargetWithItem(g *Graph, m *n8nschema.Node) bool {
	if m.Disabled || g.Spec(m).Role != n8nschema.RoleExternal {
		return false
	}
	found := false
	m.Params().Walk(func(rel string, v n8nschema.Value) {
		if found || v.Kind() != n8nschema.String || !strings.Contains(v.Str(), "$json") {
			return
		}
		key := rel[strings.LastIndexByte(rel, '.')+1:]
		if key == "url" || key == "value" && strings.Contains(rel, "Id.") || strings.HasSuffix(key, "Id") || key == "id" {
			found = true
		}
		// A target named by the id the failed node should have returned
		// (folder: {{ $json.id }}), not a column or field being written.
		if idRefRE.MatchString(v.Str()) && !strings.Contains(rel, "columns") && !strings.Contains(rel, "fields") &&
			!strings.Contains(rel, "assignments") && !strings.Contains(rel, "body") {
			found = true
		}
		// A body field that names the resource: in a JSON body
		// ("fileUri": "{{ $json.file.uri }}"), or a body parameter whose
		// name is such a key and whose value reads the item.
		switch {
		case key == "jsonBody" || key == "body":
			found = bodyTargetRE.MatchString(v.Str())
		case key == "value" && strings.HasPrefix(rel, "bodyParameters."):
			name := m.Params().Get(strings.TrimSuffix(rel, "value") + "name").Str()
			found = bodyTargetKey.MatchString(name) && onlyItemFieldRE.MatchString(v.Str())
		}
	})
	return found
}

// bodyTargetKey matches a body field that names the resource a call acts
// on: a URL or URI (url, fileUri, image_url) or an id alone ("id"). Other
// ids in a body (user_id, customer_id) may be a record's fields, which the
// service stores empty: they are not read as its target.
var bodyTargetKey = lazyregexp.New(`^(\w*([Uu]r[il]|UR[IL])|id)$`)

// bodyTargetRE matches, in a JSON body, such a field whose value is only a
// field of the item, quoted or not: "fileUri": "{{ $json.file.uri }}".
var bodyTargetRE = lazyregexp.New(`"(\w*([Uu]r[il]|UR[IL])|id)"\s*:\s*"?\{\{\s*\$json(\.\w+|\[["']\w+["']\])+\s*\}\}"?\s*[,}\n]`)

// onlyItemFieldRE matches a parameter that is only a field of the item:
// ={{ $json.file.uri }}, {{ $json["url"] }}.
var onlyItemFieldRE = lazyregexp.New(`^=?\{\{\s*\$json(\.\w+|\[["']\w+["']\])+\s*\}\}$`)

// idRefRE matches a parameter that is only a reference to an id of the
// item: ={{ $json.id }}, ={{ $json["folder_id"] }}.
var idRefRE = lazyregexp.New(`^=?\{\{\s*\$json(\.|\[["'])\w*(id|Id|ID)["']?\]?\s*\}\}$`)

// tryRE matches a try block, whose catch may take the failed read.
var tryRE = lazyregexp.New(`\btry\s*\{`)

// itemDerefRE matches code that reads past a field of its input item: the
// item as $json, $input.item.json, $input.first().json, $input.last().json,
// $input.all()[0].json, items[0].json or a loop's item.json (not another
// node's, $('Name').item.json), then a field, then a property read or an
// index (data.url, candidates[0]; data?.url stops at the missing field);
// or JSON.parse of a field of it (JSON.parse(undefined) throws).
var itemDerefRE = lazyregexp.New(derefItem + derefField + `(\.\w|\[)|JSON\.parse\(\s*` + derefItem + derefField + `\s*\)`)

const (
	derefItem  = `(\$json|\$input\.(item|first\(\)|last\(\)|all\(\)\[\d+\])\.json|\bitems\[\d+\]\.json|(^|[^.\w$])item\.json)`
	derefField = `(\.\w+|\[["']\w+["']\])`
)
