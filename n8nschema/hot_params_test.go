package n8nschema

import (
	"strconv"
	"strings"
	"testing"
)

// TestHotParams checks that Param reads the hot parameters (Node.hot)
// exactly as a search of the parameters finds them: the same Value, path
// and all, for keys spelled with escapes, repeated, far from their value,
// below a hot parameter, and for parameters that are no object.
func TestHotParams(t *testing.T) {
	many := make([]string, 300)
	for i := range many {
		many[i] = `"k` + strconv.Itoa(i) + `":1`
	}
	cases := []struct {
		name, params string
		typ          string
		indexed      bool
	}{
		{"plain", `{"operation":"send","resource":"message","url":"=https://x","options":{"timeout":5,"a.b":{"c":1},"":2},"jsCode":"x","mode":1,"model":{"value":"m"}}`, "", true},
		{"escaped", `{"oper\u0061tion":"a","\u0075rl":"u","m\u006fde":"m"}`, "", true},
		{"repeated", `{"operation":"a","operation":"b","options":{"x":1},"options":{"y":2}}`, "", true},
		{"far", `{"url"` + strings.Repeat(" ", 70000) + `:"u","operation":"o"}`, "", true},
		{"nested only", `{"x":{"operation":"y","url":"z"},"resourceX":1,"operatio":2}`, "", true},
		{"empty", `{}`, "", true},
		{"string", `"operation"`, "", true},
		{"array", `[1,{"operation":"a"}]`, "", true},
		{"null", `null`, "", true},
		{"absent", ``, "", true},
		{"sticky", `{"content":"c","operation":"o"}`, "n8n-nodes-base.stickyNote", false},
		{"credentials", `{"url":"u"},"credentials":{"httpHeaderAuth":{"id":"1","name":"h"}}`, "", true},
		{"credentials escaped", `{"url":"u"},"cred\u0065ntials":{"httpHeaderAuth":{"id":"1"}}`, "", true},
		{"many", `{` + strings.Join(many, ",") + `,"operation":"o"}`, "", false},
	}
	paths := []string{
		"operation", "resource", "url", "authentication", "method", "options", "language", "jsCode",
		"content", "mode", "model", "sendBody", "sendHeaders", "sendQuery", "jsonBody",
		"options.timeout", "options.missing", `options.a\.b.c`, "options.a.b", "options.", "options.timeout.x",
		"model.value", "mode.x", "x.operation", "operatio", "operationX", "0", "k3", "url.0",
	}
	for h, k := range hotKeys {
		if hotParam(k) != h {
			t.Errorf("hotParam(%q) = %d, want %d (hotKeys and hotParam disagree)", k, hotParam(k), h)
		}
	}
	for _, c := range cases {
		typ := c.typ
		if typ == "" {
			typ = "n8n-nodes-base.httpRequest"
		}
		node := `{"name":"n","type":"` + typ + `","typeVersion":4`
		if c.params != "" {
			node += `,"parameters":` + c.params
		}
		node += `}`
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+node+`],"connections":{}}`)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("%s: no node parsed", c.name)
		}
		n := f.Workflows[0].Nodes[0]
		if n.indexed != c.indexed {
			t.Errorf("%s: indexed %v, want %v", c.name, n.indexed, c.indexed)
		}
		for _, k := range []string{"credentials", "credentials.httpHeaderAuth", "name"} {
			if got, want := n.Field(k), n.Value.Get(k); got != want || got.Path() != want.Path() {
				t.Errorf("%s: Field(%q) = %+v; want %+v", c.name, k, got, want)
			}
		}
		for _, p := range paths {
			want := n.Params().Get(p)
			got, ok := n.Param(p)
			if got != want || ok != want.Exists() || got.Path() != want.Path() {
				t.Errorf("%s: Param(%q) = %+v, %v; want %+v (%q)", c.name, p, got, ok, want, want.Path())
			}
		}
	}
}
