package analyze

import (
	"encoding/json"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestThrowsOnErrorItem pins which node fails on the {error: …} item a
// node that continues on failure hands on: code that reads past a field of
// its input item throws (observed on n8n 2.41.1); an expression never does
// (observed: a Set reading $json.data.url stores null), nor optional
// chaining, a default taken before the read, another node's item, code in
// a try, or a node that continues on failure itself.
func TestThrowsOnErrorItem(t *testing.T) {
	code := func(js, extra string) string {
		q, _ := json.Marshal(js)
		return `{"name": "N", "type": "n8n-nodes-base.code", "typeVersion": 2` + extra + `, "parameters": {"jsCode": ` + string(q) + `}}`
	}
	for _, tc := range []struct {
		node string
		want bool
	}{
		{code("return { json: { u: $json.data.url } };", ""), true},
		{code("return { json: { c: $json.candidates[0].text } };", ""), true},
		{code(`return { json: { c: $json["data"].url } };`, ""), true},
		{code("const u = $input.item.json.file.uri;", ""), true},
		{code("const u = $input.first().json.data.url;", ""), true},
		{code("return items.map(item => ({ json: { u: item.json.data.url } }));", ""), true},
		{code("return { json: JSON.parse($json.output) };", ""), true},
		{code("$input.item.json.industry = JSON.parse($input.item.json.text).industry;", ""), true},
		{code("return { json: { u: $json.data?.url } };", ""), false},
		{code("return { json: JSON.parse($json.output || '{}') };", ""), false},
		{code("return { json: { u: ($json.data || {}).url } };", ""), false},
		{code("return { json: { u: $('Upload').item.json.data.url } };", ""), false},
		{code("try { return { json: { u: $json.data.url } }; } catch (e) { return { json: {} }; }", ""), false},
		{code("return { json: { u: $json.data.url } };", `, "onError": "continueRegularOutput"`), false},
		{`{"name": "N", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "parameters": {"assignments": {"assignments": [
		   {"name": "u", "type": "string", "value": "={{ $json.data.url.replace('a', 'b') }}"}]}}}`, false},
		{`{"name": "N", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "parameters": {"url": "={{ $json.data.url }}"}}`, true},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(`{"name": "w", "connections": {}, "nodes": [`+tc.node+`]}`)))
		s := Build([]*n8nschema.File{f}, DefaultOptions())
		g := s.Graph(s.Workflows[0])
		if got := ThrowsOnErrorItem(g, g.Nodes[0]); got != tc.want {
			t.Errorf("ThrowsOnErrorItem(%s) = %v, want %v", tc.node, got, tc.want)
		}
	}
}

// TestNamesTargetWithItem pins which call names what it acts on with a
// field of its item, whether or not it continues on failure: a URL or an
// id from $json, and a body field that names the resource (a URI or URL,
// an "id" alone) set from a field of the item; not a body's other ids
// (a record's user_id), nor text that only mentions a field.
func TestNamesTargetWithItem(t *testing.T) {
	http := func(params, extra string) string {
		return `{"name": "N", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2` + extra + `, "parameters": {"method": "POST", "url": "https://api.acme-ops.io/v1/run", "sendBody": true, ` + params + `}}`
	}
	body := func(js string) string {
		q, _ := json.Marshal(js)
		return `"specifyBody": "json", "jsonBody": ` + string(q)
	}
	for _, tc := range []struct {
		node string
		want bool
	}{
		{http(body("={\"parts\": [{\"fileData\": {\"fileUri\": \"{{ $json.file.uri }}\"}}]}"), `, "onError": "continueRegularOutput"`), true},
		{http(body("={\n  \"image_url\": \"{{ $json.data.url }}\",\n  \"prompt\": \"describe\"\n}"), ""), true},
		{http(body("={\"id\": {{ $json.id }}}"), ""), true},
		{http(body("={\"user_id\": \"{{ $json.user_id }}\", \"text\": \"hi\"}"), ""), false},
		{http(body("={\"text\": \"Summarise {{ $json.file.uri }}\"}"), ""), false},
		{http(`"bodyParameters": {"parameters": [{"name": "url", "value": "={{ $json.link }}"}]}`, ""), true},
		{http(`"bodyParameters": {"parameters": [{"name": "title", "value": "={{ $json.link }}"}]}`, ""), false},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(`{"name": "w", "connections": {}, "nodes": [`+tc.node+`]}`)))
		s := Build([]*n8nschema.File{f}, DefaultOptions())
		g := s.Graph(s.Workflows[0])
		if got := NamesTargetWithItem(g, g.Nodes[0]); got != tc.want {
			t.Errorf("NamesTargetWithItem(%s) = %v, want %v", tc.node, got, tc.want)
		}
	}
}
