package n8nschema

import (
	"slices"
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
