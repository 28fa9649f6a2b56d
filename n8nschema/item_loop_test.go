package n8nschema

import "testing"

func TestStopsAtFirstFailedItem(t *testing.T) {
	for _, c := range []struct {
		typ      string
		version  string
		settings string
		want     bool
	}{
		{"n8n-nodes-base.zohoCrm", "1", `"retryOnFail":true`, true},
		{"n8n-nodes-base.slack", "2.2", `"onError":"stopWorkflow"`, true},
		{"n8n-nodes-base.zohoCrm", "1", `"onError":"continueRegularOutput"`, false},
		{"n8n-nodes-base.slack", "2.2", `"continueOnFail":true`, false},
		{"n8n-nodes-base.httpRequest", "4.2", `"retryOnFail":true`, false},
		{"n8n-nodes-base.httpRequest", "1", `"retryOnFail":true`, false},
		{"n8n-nodes-base.httpRequestTool", "4.2", `"retryOnFail":true`, false},
		{"n8n-nodes-base.rabbitmq", "1.1", `"retryOnFail":true`, false},
		{"n8n-nodes-base.mySql", "1", `"retryOnFail":true`, false},
		{"n8n-nodes-base.mySql", "2.4", `"retryOnFail":true`, true},
	} {
		node := `{"name":"n","type":"` + c.typ + `","typeVersion":` + c.version + `,"parameters":{},` + c.settings + `}`
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+node+`],"connections":{}}`)))
		if got := StopsAtFirstFailedItem(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("StopsAtFirstFailedItem(%s v%s, %s) = %v, want %v", c.typ, c.version, c.settings, got, c.want)
		}
	}
}
