package n8nschema

import (
	"slices"
	"strings"
	"testing"
)

// TestDroppedParams pins which stored parameters n8n drops when it builds
// the workflow (n8n-workflow dist/cjs/workflow.js constructor,
// node-helpers.js getNodeParameters): those the node's version does not
// define, holding a value, at a version the table lists exactly.
func TestDroppedParams(t *testing.T) {
	cases := []struct {
		js   string
		want []string
	}{
		// v1 reads requestMethod and headerParametersUi: method and headers are dropped.
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"url":"u","method":"POST","headers":{"K":"v"},"requestMethod":"POST"}}`, []string{"method", "headers"}},
		// v4.2 defines method; headers is no parameter of any version.
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"u","method":"POST","headers":{"K":"v"}}}`, []string{"headers"}},
		// Values that hold nothing are not reported.
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"url":"u","method":"","headers":{},"qs":[],"body":null,"sendBody":false,"x":"="}}`, nil},
		// A version the table does not list, a missing typeVersion, a community node, a tool variant: not judged.
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":9,"parameters":{"headers":{"K":"v"}}}`, nil},
		{`{"type":"n8n-nodes-base.httpRequest","parameters":{"headers":{"K":"v"}}}`, nil},
		{`{"type":"n8n-nodes-example.thing","typeVersion":1,"parameters":{"headers":{"K":"v"}}}`, nil},
		{`{"type":"n8n-nodes-base.httpRequestTool","typeVersion":4.2,"parameters":{"toolDescription":"d","headers":{"K":"v"}}}`, nil},
		// AI Agent v1 has no promptType (v1.3 and later do).
		{`{"type":"@n8n/n8n-nodes-langchain.agent","typeVersion":1,"parameters":{"promptType":"define","text":"t"}}`, []string{"promptType"}},
		{`{"type":"@n8n/n8n-nodes-langchain.agent","typeVersion":1.7,"parameters":{"promptType":"define","text":"t"}}`, nil},
	}
	for _, c := range cases {
		var got []string
		for _, p := range DroppedParams(node(t, c.js)) {
			got = append(got, p.Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("DroppedParams(%s) = %q, want %q", c.js, got, c.want)
		}
	}
	if got := DeclaringRuns(TypeHTTPRequest, "requestMethod"); !slices.Equal(got, []VersionRun{{1, 2}}) {
		t.Errorf("DeclaringRuns(httpRequest, requestMethod) = %v, want [{1 2}]", got)
	}
	if got := DeclaringRuns(TypeHTTPRequest, "headers"); got != nil {
		t.Errorf("DeclaringRuns(httpRequest, headers) = %v, want none", got)
	}
	// Postgres v2 and v2.1 lack "columns", which v1 and v2.2 to v2.7 have.
	if got := DeclaringRuns("n8n-nodes-base.postgres", "columns"); len(got) != 2 || got[0] != (VersionRun{1, 1}) || got[1].First != 2.2 {
		t.Errorf("DeclaringRuns(postgres, columns) = %v, want [{1 1} {2.2 ...}]", got)
	}
}

// TestDroppedParamsAsEach: DroppedParams, which reads the parameters'
// members off the tree, lists what the reading through Each and the
// declared set lists, name, path and text, on every node of the corpora
// and on hand-made ones (an escaped key, a key with a dot, an empty key,
// pretty-printed text).
func TestDroppedParamsAsEach(t *testing.T) {
	byEach := func(n *Node) []DroppedParam {
		if !n.TypeVersionSet || n.TypeVersion <= 0 || n.Params().Kind() != Object || strings.HasSuffix(n.Type, "Tool") {
			return nil
		}
		d, ok := n.Describe()
		e, ok := declaringIn(d, ok, n.TypeVersion)
		if !ok {
			return nil
		}
		var out []DroppedParam
		n.Params().Each(func(k string, v Value) bool {
			if !declared(e, k) && !blankParam(v) {
				out = append(out, DroppedParam{Name: k, Value: v})
			}
			return true
		})
		return out
	}
	dropped := 0
	check := func(where string, n *Node) {
		got, want := DroppedParams(n), byEach(n)
		dropped += len(want)
		if len(got) != len(want) {
			t.Fatalf("%s: node %q: DroppedParams lists %d, Each %d", where, n.Name, len(got), len(want))
		}
		for i := range got {
			if got[i].Name != want[i].Name || got[i].Value.Path() != want[i].Value.Path() || got[i].Value.Raw() != want[i].Value.Raw() || got[i].Value.Pos() != want[i].Value.Pos() {
				t.Fatalf("%s: node %q: DroppedParams lists %q at %q, Each %q at %q", where, n.Name, got[i].Name, got[i].Value.Path(), want[i].Name, want[i].Value.Path())
			}
		}
	}
	for _, js := range []string{
		`{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"u","he\u0061ders":{"K":"v"},"a.b":1,"":"x","method":"POST","options":{}}}`,
		"{\n  \"name\": \"b\",\n  \"type\": \"n8n-nodes-base.httpRequest\",\n  \"typeVersion\": 1,\n  \"parameters\": {\n    \"url\": \"u\",\n    \"method\": \"POST\",\n    \"headers\": {\"K\": \"v\"}\n  }\n}",
		`{"name":"c","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"x\"y":true,"z":[1],"assignments":{}}}`,
	} {
		check("hand-made", node(t, js))
	}
	for _, corpus := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		eachCorpusFile(t, corpus, func(p string, src []byte) {
			for _, w := range Parse(NewSource(p, src)).Workflows {
				for _, n := range w.Nodes {
					check(p, n)
				}
			}
		})
	}
	if dropped == 0 {
		t.Fatal("no parameter dropped anywhere: the comparison tested nothing")
	}
	t.Logf("%d parameters dropped", dropped)
}
