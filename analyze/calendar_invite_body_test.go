package analyze

import (
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestInvitesFromDataToolBody: ConsequenceIn and RS307 read an event's
// guests with one reader (httpAttendees), the HTTP Request tool's
// parametersBody too, where the model fills a body parameter in unless its
// valueProvider is fieldValue (review28 item 7).
func TestInvitesFromDataToolBody(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{`{"values":[{"name":"attendees"}]}`, true},
		{`{"values":[{"name":"attendees","valueProvider":"modelOptional"}]}`, true},
		{`{"values":[{"name":"attendees","valueProvider":"fieldValue","value":"owner@example.com"}]}`, false},
		{`{"values":[{"name":"attendees","valueProvider":"fieldValue","value":"={{ $json.email }}"}]}`, true},
		{`{"values":[{"name":"summary"}]}`, false},
	} {
		src := `{"name":"x","nodes":[{"name":"Book","type":"@n8n/n8n-nodes-langchain.toolHttpRequest","typeVersion":1.1,"position":[0,0],"parameters":{"method":"POST","url":"https://graph.microsoft.com/v1.0/me/events","sendBody":true,"parametersBody":` + tc.body + `}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("x.json", []byte(src)))
		n := f.Workflows[0].Nodes[0]
		if got := invitesFromData(n); got != tc.want {
			t.Errorf("invitesFromData(parametersBody %s) = %v, want %v (attendees %q)", tc.body, got, tc.want, httpAttendees(n))
		}
	}
}
