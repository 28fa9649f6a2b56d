package n8nschema

import "testing"

// TestBillingOf pins what marks a managed credential: n8n's own flag and
// fixed name (packages/cli/src/constants.ts, ai-gateway.service.ts), on
// the credential type they belong to, not a word in a name.
func TestBillingOf(t *testing.T) {
	for _, c := range []struct {
		creds string
		want  Billing
	}{
		{`{"openAiApi":{"id":"a1","name":"n8n free OpenAI API credits"}}`, BilledToFreeCredits},
		{`{"openAiApi":{"id":null,"name":"","__aiGatewayManaged":true}}`, BilledToGatewayCredits},
		{`{"googlePalmApi":{"id":null,"name":"","__aiGatewayManaged":true}}`, BilledToGatewayCredits},
		{`{"openAiApi":{"id":null,"name":"","__aiGatewayManaged":false}}`, BilledToKey},
		{`{"openAiApi":{"id":"a1","name":"n8n free OpenAI API credits 2"}}`, BilledToKey},
		{`{"openAiApi":{"id":"a1","name":"My free OpenAI API credits"}}`, BilledToKey},
		{`{"anthropicApi":{"id":"a1","name":"n8n free OpenAI API credits"}}`, BilledToKey},
		{`{"openAiApi":{"id":"a1","name":"OpenAi account"}}`, BilledToKey},
		{`{"openAiApi":"n8n free OpenAI API credits"}`, BilledToKey},
		{`{}`, BilledToKey},
	} {
		src := `{"nodes":[{"name":"m","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","parameters":{},"credentials":` + c.creds + `}],"connections":{}}`
		f := Parse(NewSource("m.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("%s: did not parse", c.creds)
		}
		if got := BillingOf(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("%s: BillingOf = %d, want %d", c.creds, got, c.want)
		}
	}
	if BillingOf(nil) != BilledToKey {
		t.Error("BillingOf(nil) is not BilledToKey")
	}
}
