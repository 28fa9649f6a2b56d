package n8nschema

import "testing"

// TestRetryNeverRepeats: only a node that hands its error on beside json,
// and only when it continues on fail (onError wins over the legacy flag).
func TestRetryNeverRepeats(t *testing.T) {
	for _, c := range []struct {
		typ, settings string
		want          bool
		version       string // "1" when empty
	}{
		{"n8n-nodes-base.zohoCrm", `"onError":"continueRegularOutput"`, true, ""},
		{"n8n-nodes-base.clickUp", `"onError":"continueErrorOutput"`, true, ""},
		{"n8n-nodes-base.clickUpTool", `"onError":"continueErrorOutput"`, true, ""},
		{"n8n-nodes-base.Brandfetch", `"continueOnFail":true`, true, ""},
		{"n8n-nodes-base.zohoCrm", `"onError":"stopWorkflow","continueOnFail":true`, false, ""},
		{"n8n-nodes-base.zohoCrm", `"retryOnFail":true`, false, ""},
		{"n8n-nodes-base.baserow", `"onError":"continueRegularOutput"`, false, ""},
		{"n8n-nodes-base.httpRequest", `"onError":"continueRegularOutput"`, false, ""},
		{"@n8n/n8n-nodes-langchain.chainLlm", `"onError":"continueErrorOutput"`, false, ""},
		// Google Sheets hands the input item on with the error beside it
		// from typeVersion 3 (its v2 router); v1 and 2 put it in json.
		{"n8n-nodes-base.googleSheets", `"onError":"continueRegularOutput"`, true, "4.4"},
		{"n8n-nodes-base.googleSheets", `"continueOnFail":true`, true, "3"},
		{"n8n-nodes-base.googleSheets", `"onError":"continueRegularOutput"`, false, "2"},
		{"n8n-nodes-base.seaTable", `"onError":"continueRegularOutput"`, false, "1"},
		{"n8n-nodes-base.seaTable", `"onError":"continueRegularOutput"`, true, "2"},
	} {
		v := c.version
		if v == "" {
			v = "1"
		}
		node := `{"name":"n","type":"` + c.typ + `","typeVersion":` + v + `,"parameters":{},` + c.settings + `}`
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+node+`],"connections":{}}`)))
		if got := RetryNeverRepeats(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("RetryNeverRepeats(%s, %s) = %v, want %v", c.typ, c.settings, got, c.want)
		}
	}
}
