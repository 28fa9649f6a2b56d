package analyze

import (
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// buildJSON builds an analysis set from one workflow's JSON.
func buildJSON(t *testing.T, js string) *Set {
	t.Helper()
	f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(js)))
	if len(f.Problems) > 0 || len(f.Workflows) != 1 {
		t.Fatalf("bad workflow: %v", f.Problems)
	}
	return Build([]*n8nschema.File{f}, DefaultOptions())
}

// chainWith is a Basic LLM Chain on a manual trigger driving one model.
func chainWith(model string) string {
	return `{"name":"w","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1},
	  {"name":"Chain","type":"@n8n/n8n-nodes-langchain.chainLlm","typeVersion":1.5,"parameters":{}},
	  {"name":"Model","type":"` + model + `","typeVersion":1,"parameters":{"options":{}}}],
	 "connections":{"Start":{"main":[[{"node":"Chain","type":"main","index":0}]]},
	  "Model":{"ai_languageModel":[[{"node":"Chain","type":"ai_languageModel","index":0}]]}}}`
}

// TestModelSDKAttempts checks the hidden attempts of model nodes against
// n8n's installed code and the engine (docs/n8n-facts.md): chat models send
// one request per try of their root, whatever maxRetries says, as n8n's
// failed-attempt handler stops LangChain's retries; embeddings keep
// AsyncCaller's 7.
func TestModelSDKAttempts(t *testing.T) {
	for _, c := range []struct {
		typ, options string
		want         int
	}{
		{"@n8n/n8n-nodes-langchain.lmChatOllama", `{}`, 1},
		{"@n8n/n8n-nodes-langchain.lmChatAwsBedrock", `{}`, 3}, // AWS SDK standard retry, no AsyncCaller
		{"@n8n/n8n-nodes-langchain.lmChatOpenAi", `{}`, 1},
		{"@n8n/n8n-nodes-langchain.lmChatOpenAi", `{"maxRetries":4}`, 1},
		{"@n8n/n8n-nodes-langchain.lmChatMistralCloud", `{"maxRetries":4}`, 1},
		{"@n8n/n8n-nodes-langchain.lmChatAnthropic", `{}`, 1},
		{"@n8n/n8n-nodes-langchain.lmChatGoogleGemini", `{}`, 1},
		{"@n8n/n8n-nodes-langchain.lmOllama", `{}`, 1},
		{"@n8n/n8n-nodes-langchain.openAiAssistant", `{}`, 3}, // the OpenAI SDK's own maxRetries ?? 2
	} {
		s := buildJSON(t, strings.Replace(chainWith(c.typ), `{"options":{}}`, `{"options":`+c.options+`}`, 1))
		if o := op(t, s, "w", "Model"); o.Attempts != c.want || o.CallsPerItem != 1 {
			t.Errorf("%s %s: %d attempts, %d calls per item; want %d, 1", c.typ, c.options, o.Attempts, o.CallsPerItem, c.want)
		}
	}
}

// TestFallbackModelCalls: with needsFallback the fallback model is called
// once per failed call of the first, so each model node makes at most K
// calls per item, not 2K.
func TestFallbackModelCalls(t *testing.T) {
	s := buildJSON(t, `{"name":"w","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1},
	  {"name":"Agent","type":"@n8n/n8n-nodes-langchain.agent","typeVersion":2.2,"parameters":{"promptType":"define","text":"={{ $json.q }}","needsFallback":true,"options":{"maxIterations":4}}},
	  {"name":"Main model","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"options":{}}},
	  {"name":"Fallback model","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"options":{}}},
	  {"name":"Search","type":"n8n-nodes-base.httpRequestTool","typeVersion":4.2,"parameters":{"url":"https://x.example"}}],
	 "connections":{"Start":{"main":[[{"node":"Agent","type":"main","index":0}]]},
	  "Main model":{"ai_languageModel":[[{"node":"Agent","type":"ai_languageModel","index":0}]]},
	  "Fallback model":{"ai_languageModel":[[{"node":"Agent","type":"ai_languageModel","index":1}]]},
	  "Search":{"ai_tool":[[{"node":"Agent","type":"ai_tool","index":0}]]}}}`)
	for _, name := range []string{"Main model", "Fallback model"} {
		if o := op(t, s, "w", name); o.CallsPerItem != 4 || o.Attempts != 1 {
			t.Errorf("%s: %d calls per item, %d attempts; want 4, 1", name, o.CallsPerItem, o.Attempts)
		}
	}
}

// TestPagesMaxRequests: maxRequests stops pagination only when truthy
// (request-helper-functions.js L1165–1166): 0 is no limit.
func TestPagesMaxRequests(t *testing.T) {
	for _, c := range []struct {
		pagination string
		pages      int
		unbounded  bool
	}{
		{``, 1, false},
		{`"limitPagesFetched":true,"maxRequests":5`, 5, false},
		{`"limitPagesFetched":true`, 100, false},
		{`"limitPagesFetched":true,"maxRequests":0`, 0, true},
		{`"limitPagesFetched":true,"maxRequests":-3`, 1, false},
		{`"maxRequests":5`, 0, true},
	} {
		params := `{"url":"https://x.example"}`
		if c.pagination != "" {
			params = `{"url":"https://x.example","options":{"pagination":{"pagination":{"paginationMode":"updateAParameterInEachRequest",` + c.pagination + `}}}}`
		}
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(`{"nodes":[{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":`+params+`}],"connections":{}}`)))
		pages, unb := Pages(f.Workflows[0].Nodes[0])
		if pages != c.pages || unb != c.unbounded {
			t.Errorf("%s: Pages = %d, %v; want %d, %v", c.pagination, pages, unb, c.pages, c.unbounded)
		}
	}
}

// TestAgentV3ToolRetry: Agent V3 runs tools as engine requests through the
// main loop, so a tool with its own execute() honours retryOnFail there
// (toolWikipedia has supplyData and execute); older agents call its
// supplyData tool once. toolHttpRequest has supplyData only.
func TestAgentV3ToolRetry(t *testing.T) {
	wf := func(agentVersion, toolType string) string {
		return `{"name":"w","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1},
	  {"name":"Agent","type":"@n8n/n8n-nodes-langchain.agent","typeVersion":` + agentVersion + `,"parameters":{"options":{"maxIterations":2}}},
	  {"name":"Model","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"options":{}}},
	  {"name":"Tool","type":"` + toolType + `","typeVersion":1,"retryOnFail":true,"maxTries":4,"parameters":{"url":"https://x.example"}}],
	 "connections":{"Start":{"main":[[{"node":"Agent","type":"main","index":0}]]},
	  "Model":{"ai_languageModel":[[{"node":"Agent","type":"ai_languageModel","index":0}]]},
	  "Tool":{"ai_tool":[[{"node":"Agent","type":"ai_tool","index":0}]]}}}`
	}
	for _, c := range []struct {
		agent, tool string
		want        int
	}{
		{"3", "@n8n/n8n-nodes-langchain.toolWikipedia", 4},
		{"2.2", "@n8n/n8n-nodes-langchain.toolWikipedia", 1},
		{"3", "@n8n/n8n-nodes-langchain.toolHttpRequest", 1},
		{"3", "n8n-nodes-base.httpRequestTool", 4},
		{"2.2", "n8n-nodes-base.httpRequestTool", 4},
	} {
		s := buildJSON(t, wf(c.agent, c.tool))
		if o := op(t, s, "w", "Tool"); o.Attempts != c.want {
			t.Errorf("agent v%s, %s: %d attempts, want %d", c.agent, c.tool, o.Attempts, c.want)
		}
	}
}

// TestSummarizationCalls: map_reduce (the default) calls the model once
// per chunk and once to combine: at least 2 per item.
func TestSummarizationCalls(t *testing.T) {
	for _, c := range []struct {
		version, params string
		want            int
	}{
		{"2", `{}`, 2},
		{"2", `{"options":{"summarizationMethodAndPrompts":{"values":{"summarizationMethod":"map_reduce"}}}}`, 2},
		{"2", `{"options":{"summarizationMethodAndPrompts":{"values":{"summarizationMethod":"stuff"}}}}`, 1},
		{"2", `{"options":{"summarizationMethodAndPrompts":{"values":{"summarizationMethod":"refine"}}}}`, 1},
		{"1", `{}`, 2},
		{"1", `{"type":"stuff"}`, 1},
	} {
		s := buildJSON(t, `{"name":"w","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1},
	  {"name":"Summarize","type":"@n8n/n8n-nodes-langchain.chainSummarization","typeVersion":`+c.version+`,"parameters":`+c.params+`},
	  {"name":"Model","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"options":{}}}],
	 "connections":{"Start":{"main":[[{"node":"Summarize","type":"main","index":0}]]},
	  "Model":{"ai_languageModel":[[{"node":"Summarize","type":"ai_languageModel","index":0}]]}}}`)
		if o := op(t, s, "w", "Model"); o.CallsPerItem != c.want {
			t.Errorf("v%s %s: %d calls per item, want %d", c.version, c.params, o.CallsPerItem, c.want)
		}
	}
}

// TestMainOutputs: the error output of continueErrorOutput comes after
// the node's main outputs, which the generated table fixes or n8n's
// outputs expression computes from the parameters.
func TestMainOutputs(t *testing.T) {
	for _, c := range []struct {
		node string
		want int
	}{
		{`{"name":"a","type":"n8n-nodes-base.if","typeVersion":2.2}`, 2},
		{`{"name":"a","type":"n8n-nodes-base.splitInBatches","typeVersion":1}`, 1},
		{`{"name":"a","type":"n8n-nodes-base.splitInBatches","typeVersion":3}`, 2},
		{`{"name":"a","type":"n8n-nodes-base.compareDatasets","typeVersion":2.3}`, 4},
		{`{"name":"a","type":"n8n-nodes-base.set","typeVersion":3.4}`, 1},
		{`{"name":"a","type":"n8n-nodes-base.switch","typeVersion":1}`, 4},
		{`{"name":"a","type":"n8n-nodes-base.switch","typeVersion":2,"parameters":{"rules":{"rules":[{},{}]}}}`, 2},
		{`{"name":"a","type":"n8n-nodes-base.switch","typeVersion":2,"parameters":{"mode":"expression","outputsAmount":3}}`, 3},
		{`{"name":"a","type":"n8n-nodes-base.switch","typeVersion":3.2,"parameters":{"rules":{"values":[{},{},{}]},"options":{"fallbackOutput":"extra"}}}`, 4},
		{`{"name":"a","type":"n8n-nodes-base.switch","typeVersion":3.2,"parameters":{"mode":"expression"}}`, 4},
		{`{"name":"a","type":"n8n-nodes-base.webhook","typeVersion":2,"parameters":{"multipleMethods":true,"httpMethod":["GET","POST"]}}`, 2},
		{`{"name":"a","type":"n8n-nodes-base.webhook","typeVersion":2,"parameters":{"multipleMethods":true}}`, 2},
		{`{"name":"a","type":"n8n-nodes-base.webhook","typeVersion":2,"parameters":{"multipleMethods":true,"httpMethod":["PUT","PATCH","POST"]}}`, 3},
		{`{"name":"a","type":"n8n-nodes-base.webhook","typeVersion":2,"parameters":{"httpMethod":"POST"}}`, 1},
		{`{"name":"a","type":"n8n-nodes-base.webhook","typeVersion":2}`, 1},
		{`{"name":"a","type":"n8n-nodes-base.respondToWebhook","typeVersion":1.4,"parameters":{"enableResponseOutput":true}}`, 2},
		{`{"name":"a","type":"n8n-nodes-base.respondToWebhook","typeVersion":1.4}`, 1},
		{`{"name":"a","type":"@n8n/n8n-nodes-langchain.textClassifier","typeVersion":1.1,"parameters":{"categories":{"categories":[{},{}]}}}`, 2},
		{`{"name":"a","type":"@n8n/n8n-nodes-langchain.textClassifier","typeVersion":1.1,"parameters":{"categories":{"categories":[{},{}]},"options":{"fallback":"other"}}}`, 3},
		{`{"name":"a","type":"@n8n/n8n-nodes-langchain.sentimentAnalysis","typeVersion":1.1}`, 3},
		{`{"name":"a","type":"@n8n/n8n-nodes-langchain.sentimentAnalysis","typeVersion":1.1,"parameters":{"options":{"categories":"Happy, Sad"}}}`, 2},
		{`{"name":"a","type":"n8n-nodes-community.thing","typeVersion":1}`, 1},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		if got := mainOutputs(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("%s: %d outputs, want %d", c.node, got, c.want)
		}
	}
}

// TestMainInputs: the main inputs n8n gives a node (mainInputs), 0 where
// stormcheck cannot tell; a connection to a higher index is Unrun.
func TestMainInputs(t *testing.T) {
	for _, c := range []struct {
		node string
		want int
	}{
		{`{"name":"a","type":"n8n-nodes-base.twilio","typeVersion":1}`, 1},
		{`{"name":"a","type":"n8n-nodes-base.httpRequest","typeVersion":4.2}`, 1},
		{`{"name":"a","type":"n8n-nodes-base.merge","typeVersion":2.1}`, 2},
		{`{"name":"a","type":"n8n-nodes-base.merge","typeVersion":3.2}`, 2},
		{`{"name":"a","type":"n8n-nodes-base.merge","typeVersion":3.2,"parameters":{"numberInputs":4}}`, 4},
		{`{"name":"a","type":"n8n-nodes-base.merge","typeVersion":3.2,"parameters":{"numberInputs":"={{ 3 }}"}}`, 0},
		{`{"name":"a","type":"n8n-nodes-base.compareDatasets","typeVersion":2.3}`, 2},
		{`{"name":"a","type":"n8n-nodes-base.evaluation","typeVersion":4.8}`, 0},
		{`{"name":"a","type":"n8n-nodes-base.webhook","typeVersion":2}`, 0},
		{`{"name":"a","type":"@n8n/n8n-nodes-langchain.agent","typeVersion":2}`, 0},
		{`{"name":"a","type":"n8n-nodes-community.thing","typeVersion":1}`, 0},
	} {
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(`{"nodes":[`+c.node+`],"connections":{}}`)))
		if got := MainInputs(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("%s: %d inputs, want %d", c.node, got, c.want)
		}
	}
}

// TestOpenAIToolIterations: the OpenAI node's Message a Model calls its
// tools in one round fewer than options.maxToolsIterations ?? 15 from
// v1.5 on (the first model call counts as the first iteration; 0 for no
// limit), with no limit before v1.5; v2's Respond in as many rounds as
// the limit; Message an Assistant runs AgentExecutor's 15 iterations.
func TestOpenAIToolIterations(t *testing.T) {
	for _, c := range []struct {
		version, options string
		calls            int
		unbounded        bool
		resource         string
	}{
		{"1.8", `{}`, 14, false, "text"},
		{"1.8", `{"maxToolsIterations":4}`, 3, false, "text"},
		{"1.8", `{"maxToolsIterations":0}`, 0, true, "text"},
		{"2.1", `{}`, 15, false, "text"}, // Respond: v2's operation
		{"1.4", `{"maxToolsIterations":4}`, 0, true, "text"},
		{"1.1", `{}`, 0, true, "text"},
		// Message an Assistant: AgentExecutor's 15 iterations, any version.
		{"1.1", `{}`, 15, false, "assistant"},
		{"1.8", `{"maxToolsIterations":0}`, 15, false, "assistant"},
	} {
		operation := "message"
		if c.version == "2.1" {
			operation = "response"
		}
		s := buildJSON(t, `{"name":"w","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1},
	  {"name":"OpenAI","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":`+c.version+`,"parameters":{"resource":"`+c.resource+`","operation":"`+operation+`","options":`+c.options+`}},
	  {"name":"Lookup","type":"n8n-nodes-base.httpRequestTool","typeVersion":4.2,"parameters":{"url":"https://x.example"}}],
	 "connections":{"Start":{"main":[[{"node":"OpenAI","type":"main","index":0}]]},
	  "Lookup":{"ai_tool":[[{"node":"OpenAI","type":"ai_tool","index":0}]]}}}`)
		if o := op(t, s, "w", "Lookup"); o.CallsPerItem != c.calls || o.CallsUnbounded != c.unbounded {
			t.Errorf("v%s %s: %d calls per item, unbounded %v; want %d, %v", c.version, c.options, o.CallsPerItem, o.CallsUnbounded, c.calls, c.unbounded)
		}
	}
}

// TestOpenAIAppTimeout: the OpenAI app node reads a request timeout only
// in v1's assistant message (options.timeout, 10000 ms when absent); its
// text message defines none, and a stored one is dropped (TimeoutDropped).
func TestOpenAIAppTimeout(t *testing.T) {
	for _, c := range []struct {
		params  string
		version string
		ms      int
		bounded bool
		dropped bool
	}{
		{`{"resource":"assistant","operation":"message","options":{}}`, "1.8", 10000, true, false},
		{`{"resource":"assistant","operation":"message","options":{"timeout":30000}}`, "1.8", 30000, true, false},
		{`{"modelId":{"__rl":true,"value":"gpt-4o-mini","mode":"list"},"messages":{"values":[{"content":"hi"}]},"options":{"timeout":30000}}`, "1.8", 0, false, true},
		{`{"modelId":{"__rl":true,"value":"gpt-4o-mini","mode":"list"},"messages":{"values":[{"content":"hi"}]},"options":{}}`, "1.8", 0, false, false},
	} {
		js := `{"name":"w","nodes":[
		  {"name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1},
		  {"name":"Model","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":` + c.version + `,"parameters":` + c.params + `}],
		 "connections":{"Start":{"main":[[{"node":"Model","type":"main","index":0}]]}}}`
		o := op(t, buildJSON(t, js), "w", "Model")
		ms, bounded := AttemptTimeoutMS(o)
		if ms != c.ms || bounded != c.bounded || TimeoutDropped(o) != c.dropped {
			t.Errorf("%s: timeout %d %v, dropped %v; want %d %v, %v", c.params, ms, bounded, TimeoutDropped(o), c.ms, c.bounded, c.dropped)
		}
	}
}
