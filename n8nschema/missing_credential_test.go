package n8nschema

import "testing"

// TestMissingCredential follows validateNodeCredentials: a required
// credential shown always, or by the authentication stored on the node.
func TestMissingCredential(t *testing.T) {
	for _, c := range []struct {
		node, want string
	}{
		{`{"name":"G","type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{}}`, "groqApi"},
		{`{"name":"G","type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{},"credentials":{"groqApi":{"id":"1","name":"g"}}}`, ""},
		// Slack's credential hangs on authentication: left at its
		// default, the stored parameters show none.
		{`{"name":"S","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{}}`, ""},
		{`{"name":"S","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{"authentication":"oAuth2"}}`, "slackOAuth2Api"},
		{`{"name":"S","type":"n8n-nodes-base.slack","typeVersion":2.2,"parameters":{"authentication":"={{ 'oAuth2' }}"}}`, ""},
		// The HTTP Request's credentials are all optional.
		{`{"name":"H","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://example.com"}}`, ""},
	} {
		f := Parse(NewSource("x.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		got, ok := MissingCredential(f.Workflows[0].Nodes[0])
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: got %q %v, want %q", c.node, got, ok, c.want)
		}
	}
}

func TestExcludedByDefault(t *testing.T) {
	if !ExcludedByDefault(TypeExecuteCommand, Version{Major: 2}) || !ExcludedByDefault(TypeLocalFileTrigger, Version{Major: 2, Minor: 41}) {
		t.Error("n8n 2 excludes Execute Command and the Local File Trigger by default")
	}
	if ExcludedByDefault(TypeExecuteCommand, Version{Major: 1, Minor: 123}) || ExcludedByDefault("n8n-nodes-base.code", Version{Major: 2}) {
		t.Error("n8n 1.x loads them; n8n 2 loads the Code node")
	}
}
