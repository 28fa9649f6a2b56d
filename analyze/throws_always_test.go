package analyze

import (
	"strconv"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestEnvCall: a JavaScript Code node that calls $env itself in its
// top-level statements throws on every run; a member read, a call in a
// block, a function, a string, a comment, after a return or anywhere in a
// file with a try is not judged.
func TestEnvCall(t *testing.T) {
	for _, c := range []struct {
		code string
		want bool
	}{
		{"const k = $env('XAI_API_KEY');\nreturn [{json: {k}}];", true},
		{"const k = $env(\"A\") || '';", true},
		{"const k = $env ( `A` );", true},
		{"const k = $env.XAI_API_KEY;", false},
		{"const k = $env['A'];", false},
		{"if (x) { const k = $env('A'); }", false},
		{"function f() { return $env('A'); }", false},
		{"const s = \"$env('A')\";", false},
		{"// $env('A')\nreturn items;", false},
		{"/* $env('A') */ return items;", false},
		{"if (!items.length) return [];\nconst k = $env('A');", false},
		{"let k; try { k = 1; } catch (e) {}\nk = $env('A');", false},
		{"const k = my$env('A');", false},
	} {
		src := `{"nodes":[{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"parameters":{"jsCode":` + strconv.Quote(c.code) + `}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("bad test node %q", c.code)
		}
		if _, got := envCall(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("envCall(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}

// TestMergeNoFields: a Merge v3 that combines by matching fields with the
// simple field list empty throws; named fields, the advanced list, another
// mode or combineBy, and Merge v2 are not judged.
func TestMergeNoFields(t *testing.T) {
	for _, c := range []struct {
		params  string
		version float64
		want    bool
	}{
		{`{"mode":"combine","options":{}}`, 3, true},
		{`{"mode":"combine","combineBy":"combineByFields","fieldsToMatchString":""}`, 3.2, true},
		{`{"mode":"combine","advanced":false}`, 3.1, true},
		{`{"mode":"combine","fieldsToMatchString":"id"}`, 3, false},
		{`{"mode":"combine","advanced":true}`, 3, false},
		{`{"mode":"combine","combineBy":"combineByPosition"}`, 3, false},
		{`{"mode":"append"}`, 3, false},
		{`{}`, 3, false},
		{`{"mode":"combine"}`, 2.1, false},
		{`{"mode":"={{ 'combine' }}"}`, 3, false},
	} {
		src := `{"nodes":[{"name":"M","type":"n8n-nodes-base.merge","typeVersion":` + strconv.FormatFloat(c.version, 'f', -1, 64) + `,"parameters":` + c.params + `}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("bad test node %s", c.params)
		}
		if _, got := mergeNoFields(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("mergeNoFields(%s v%v) = %v, want %v", c.params, c.version, got, c.want)
		}
	}
}

// TestNewItemsOnly: a Code node whose every return writes out new items,
// with no spread, copy or mention of the field, cannot hand the field on.
func TestNewItemsOnly(t *testing.T) {
	for _, c := range []struct {
		code string
		want bool
	}{
		{"const t = 'a...';\nreturn [{ json: { title: t } }];", true},
		{"if (!x) return [{json: {ok: false}}];\nreturn [{json:{ok: true}}];", true},
		{"return [{ json: { ...$json, title: 1 } }];", false},
		{"return [{ json: Object.assign({}, $json) }];", false},
		{"return [{ json: item.json }];", false},
		{"return $input.all();", false},
		{"return items.map(i => ({json: {a: 1}}));", false},
		{"return [{ json: { chatInput: 'hi' } }];", false},
		{"const a = 1;", false},
	} {
		src := `{"nodes":[{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"parameters":{"jsCode":` + strconv.Quote(c.code) + `}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("bad test node %q", c.code)
		}
		if got := newItemsOnly(f.Workflows[0].Nodes[0], "chatInput"); got != c.want {
			t.Errorf("newItemsOnly(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}
