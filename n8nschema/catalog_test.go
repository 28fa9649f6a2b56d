package n8nschema

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLookupFacts(t *testing.T) {
	tests := []struct {
		typ  string
		want Spec
	}{
		{"@n8n/n8n-nodes-langchain.lmChatOpenAi", Spec{Type: "@n8n/n8n-nodes-langchain.lmChatOpenAi", Role: RoleModel, Known: true,
			Provider: "openai", Paid: true,
			MaxTokensParam: "options.maxTokens", TimeoutParam: "options.timeout", TimeoutDefaultMS: 600000, TimeoutEditorMS: 60000}},
		{"@n8n/n8n-nodes-langchain.lmChatAzureOpenAi", Spec{Type: "@n8n/n8n-nodes-langchain.lmChatAzureOpenAi", Role: RoleModel, Known: true,
			Provider: "azure-openai", Paid: true,
			MaxTokensParam: "options.maxTokens", TimeoutParam: "options.timeout", TimeoutDefaultMS: 600000, TimeoutEditorMS: 60000}},
		// The output cap comes from @langchain/anthropic's per-model table
		// (DefaultOutputCap), not a node default.
		{"@n8n/n8n-nodes-langchain.lmChatAnthropic", Spec{Type: "@n8n/n8n-nodes-langchain.lmChatAnthropic", Role: RoleModel, Known: true,
			Provider: "anthropic", Paid: true, MaxTokensParam: "options.maxTokensToSample", HangMS: 600000}},
		// No cap unless the option is set.
		{"@n8n/n8n-nodes-langchain.lmChatGoogleGemini", Spec{Type: "@n8n/n8n-nodes-langchain.lmChatGoogleGemini", Role: RoleModel, Known: true,
			Provider: "google-gemini", Paid: true, MaxTokensParam: "options.maxOutputTokens", HangMS: 300000}},
		// How long an untimed call can hang (HangMS): the Anthropic SDK's
		// 600 s, undici's 300 s under Gemini's global fetch, n8n's AI
		// dispatcher's hour under Mistral and Ollama, n8n's request helper's
		// 300 s under the OpenAI app node; none found under Vertex.
		{"@n8n/n8n-nodes-langchain.lmChatGoogleVertex", Spec{Type: "@n8n/n8n-nodes-langchain.lmChatGoogleVertex", Role: RoleModel, Known: true,
			Provider: "google-vertex", Paid: true, MaxTokensParam: "options.maxOutputTokens"}},
		// Chat models: n8n's failed-attempt handler stops LangChain's
		// retries at the first failure, so no SDK retries. Not billed.
		{"@n8n/n8n-nodes-langchain.lmChatOllama", Spec{Type: "@n8n/n8n-nodes-langchain.lmChatOllama", Role: RoleModel, Known: true,
			Provider: "ollama", HangMS: 3600000}},
		// The AWS SDK's 3 attempts: 2 retries.
		{"@n8n/n8n-nodes-langchain.lmChatAwsBedrock", Spec{Type: "@n8n/n8n-nodes-langchain.lmChatAwsBedrock", Role: RoleModel, Known: true,
			Provider: "aws-bedrock", Paid: true, SDKRetryDefault: 2, MaxTokensParam: "options.maxTokensToSample"}},
		// AsyncCaller's 4 attempts × the AWS SDK's 3: 12 attempts.
		{"@n8n/n8n-nodes-langchain.embeddingsAwsBedrock", Spec{Type: "@n8n/n8n-nodes-langchain.embeddingsAwsBedrock", Role: RoleModel, Known: true,
			Provider: "aws-bedrock", Paid: true, SDKRetryDefault: 11}},
		{"@n8n/n8n-nodes-langchain.lmChatCohere", Spec{Type: "@n8n/n8n-nodes-langchain.lmChatCohere", Role: RoleModel, Known: true,
			Provider: "cohere", Paid: true}},
		{"@n8n/n8n-nodes-langchain.lmChatMistralCloud", Spec{Type: "@n8n/n8n-nodes-langchain.lmChatMistralCloud", Role: RoleModel, Known: true,
			Provider: "mistral", Paid: true, MaxTokensParam: "options.maxTokens", HangMS: 3600000}},
		{"@n8n/n8n-nodes-langchain.openAiAssistant", Spec{Type: "@n8n/n8n-nodes-langchain.openAiAssistant", Role: RoleModel, Known: true,
			Provider: "openai", Paid: true, SDKRetryParam: "options.maxRetries", SDKRetryDefault: 2, TimeoutParam: "options.timeout", TimeoutDefaultMS: 10000}},
		{"n8n-nodes-base.httpRequest", Spec{Type: "n8n-nodes-base.httpRequest", Role: RoleExternal, Known: true,
			TimeoutParam: "options.timeout", TimeoutDefaultMS: 300000}},
		{"n8n-nodes-base.httpRequestTool", Spec{Type: "n8n-nodes-base.httpRequestTool", Role: RoleExternal, Known: true,
			TimeoutParam: "options.timeout", TimeoutDefaultMS: 300000, Tool: true, ToolRetry: true}},
		{"n8n-nodes-base.slackTool", Spec{Type: "n8n-nodes-base.slackTool", Role: RoleExternal, Known: true, Provider: "slack", Tool: true, ToolRetry: true}},
		{"n8n-nodes-base.slack", Spec{Type: "n8n-nodes-base.slack", Role: RoleExternal, Known: true, Provider: "slack"}},
		{"n8n-nodes-community.fooBar", Spec{Type: "n8n-nodes-community.fooBar", Role: RoleExternal, Provider: "fooBar"}},
		// Described by n8n but not in the hand catalog: known, and its tool
		// variant honours retryOnFail like every usableAsTool node.
		{"n8n-nodes-base.actionNetwork", Spec{Type: "n8n-nodes-base.actionNetwork", Role: RoleExternal, Known: true, Provider: "actionNetwork"}},
		{"n8n-nodes-base.actionNetworkTool", Spec{Type: "n8n-nodes-base.actionNetworkTool", Role: RoleExternal, Known: true, Provider: "actionNetwork", Tool: true, ToolRetry: true}},
		{"n8n-nodes-base.clockifyTrigger", Spec{Type: "n8n-nodes-base.clockifyTrigger", Role: RoleTrigger, Known: true}},
		{"n8n-nodes-community.fooBarTool", Spec{Type: "n8n-nodes-community.fooBarTool", Role: RoleExternal, Provider: "fooBar", Tool: true}},
		{"n8n-nodes-base.shopifyTrigger", Spec{Type: "n8n-nodes-base.shopifyTrigger", Role: RoleTrigger, Known: true}},
		{"n8n-nodes-base.splitInBatches", Spec{Type: "n8n-nodes-base.splitInBatches", Role: RoleFlow, Known: true}},
		{"@n8n/n8n-nodes-langchain.openAi", Spec{Type: "@n8n/n8n-nodes-langchain.openAi", Role: RoleModel, Known: true,
			Provider: "openai", Paid: true, MaxTokensParam: "options.maxTokens", HangMS: 300000}},
		{"@n8n/n8n-nodes-langchain.toolWorkflow", Spec{Type: "@n8n/n8n-nodes-langchain.toolWorkflow", Role: RoleCallWorkflow, Known: true, Tool: true, ToolRetry: true}},
		{"@n8n/n8n-nodes-langchain.memoryBufferWindow", Spec{Type: "@n8n/n8n-nodes-langchain.memoryBufferWindow", Role: RoleSubNode, Known: true}},
		{"@n8n/n8n-nodes-langchain.embeddingsOpenAi", Spec{Type: "@n8n/n8n-nodes-langchain.embeddingsOpenAi", Role: RoleModel, Known: true,
			Provider: "openai", Paid: true, SDKRetryDefault: 6}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Lookup(tt.typ)); diff != "" {
			t.Errorf("Lookup(%q) mismatch (-want +got):\n%s", tt.typ, diff)
		}
	}
}

func TestLookupRoles(t *testing.T) {
	want := map[string]Role{
		"n8n-nodes-base.webhook":                          RoleTrigger,
		"n8n-nodes-base.executeWorkflowTrigger":           RoleTrigger,
		"n8n-nodes-base.errorTrigger":                     RoleTrigger,
		"@n8n/n8n-nodes-langchain.chatTrigger":            RoleTrigger,
		"n8n-nodes-base.set":                              RoleInternal,
		"n8n-nodes-base.code":                             RoleInternal,
		"n8n-nodes-base.if":                               RoleFlow,
		"n8n-nodes-base.wait":                             RoleFlow,
		"n8n-nodes-base.executeWorkflow":                  RoleCallWorkflow,
		"@n8n/n8n-nodes-langchain.agent":                  RoleAgent,
		"@n8n/n8n-nodes-langchain.chainLlm":               RoleAgent,
		"@n8n/n8n-nodes-langchain.lmChatGoogleGemini":     RoleModel,
		"@n8n/n8n-nodes-langchain.outputParserStructured": RoleSubNode,
		"@n8n/n8n-nodes-langchain.vectorStoreQdrant":      RoleExternal,
		"n8n-nodes-base.stickyNote":                       RoleNote,
		"n8n-nodes-base.googleSheets":                     RoleExternal,
	}
	for typ, r := range want {
		if got := Lookup(typ).Role; got != r {
			t.Errorf("Lookup(%q).Role = %v, want %v", typ, got, r)
		}
	}
}

func TestCatalogSortedUnique(t *testing.T) {
	c := specs()
	for i := 1; i < len(c); i++ {
		if c[i-1].Type >= c[i].Type {
			t.Errorf("catalog not sorted or duplicated at %q, %q", c[i-1].Type, c[i].Type)
		}
	}
	for _, s := range c {
		if !s.Known {
			t.Errorf("catalog entry %q has Known false", s.Type)
		}
		if s.Role == RoleModel && s.Provider == "" {
			t.Errorf("model %q has no provider", s.Type)
		}
	}
}

// TestRunsModel: the vendor app nodes' operations on what the provider
// stores run no model; generations, analyses, audio and video do, and an
// expression for the resource or operation leaves the node counted.
func TestRunsModel(t *testing.T) {
	for _, c := range []struct {
		node string
		want bool
	}{
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"resource":"conversation"}}`, false},
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"resource":"conversation","operation":"remove"}}`, false},
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2,"parameters":{"resource":"file","operation":"list"}}`, false},
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"resource":"assistant","operation":"create"}}`, false},
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"resource":"assistant"}}`, true}, // message, the default
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{}}`, true},                       // text response
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"resource":"image","operation":"edit"}}`, true},
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"resource":"audio","operation":"transcribe"}}`, true},
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"resource":"video"}}`, true},
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"resource":"={{ $json.r }}"}}`, true},
		{`{"type":"@n8n/n8n-nodes-langchain.anthropic","typeVersion":1,"parameters":{"resource":"file","operation":"upload"}}`, false},
		{`{"type":"@n8n/n8n-nodes-langchain.googleGemini","typeVersion":1.1,"parameters":{"resource":"fileSearch","operation":"listStores"}}`, false},
		{`{"type":"@n8n/n8n-nodes-langchain.googleGemini","typeVersion":1.1,"parameters":{"resource":"fileSearch","operation":"uploadToStore"}}`, true},
		{`{"type":"@n8n/n8n-nodes-langchain.googleGemini","typeVersion":1.1,"parameters":{"resource":"video","operation":"download"}}`, false},
		{`{"type":"@n8n/n8n-nodes-langchain.googleGemini","typeVersion":1.1,"parameters":{"resource":"video"}}`, true},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{}}`, true},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+strings.Replace(c.node, `{`, `{"name":"n",`, 1)+`],"connections":{}}`)))
		if got := RunsModel(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("%s: RunsModel %v, want %v", c.node, got, c.want)
		}
	}
}
