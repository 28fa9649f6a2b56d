package fix

import (
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// agentWorkflow is an agent that retries, its OpenAI model (3 SDK
// attempts) and, when tool is set, an HTTP Request tool without a retry
// of its own.
func agentWorkflow(tool bool) string {
	nodes := `{"name": "Chat", "type": "@n8n/n8n-nodes-langchain.chatTrigger", "typeVersion": 1.1, "parameters": {}},
    {"name": "Agent", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 1.7, "parameters": {}, "retryOnFail": true, "maxTries": 3},
    {"name": "Model", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "parameters": {"options": {"maxTokens": 500}}}`
	conns := `"Chat": {"main": [[{"node": "Agent", "type": "main", "index": 0}]]},
    "Model": {"ai_languageModel": [[{"node": "Agent", "type": "ai_languageModel", "index": 0}]]}`
	if tool {
		nodes += `,
    {"name": "Lookup", "type": "n8n-nodes-base.httpRequestTool", "typeVersion": 4.2, "parameters": {"url": "https://api.example.com/lookup"}}`
		conns += `,
    "Lookup": {"ai_tool": [[{"node": "Agent", "type": "ai_tool", "index": 0}]]}`
	}
	return "{\n  \"name\": \"Agent\",\n  \"nodes\": [\n    " + nodes + "\n  ],\n  \"connections\": {\n    " + conns + "\n  }\n}\n"
}

func repairsOf(t *testing.T, src string, opts analyze.Options) map[string]*analyze.Repair {
	t.Helper()
	files := []*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}
	set, fs := checker(opts)(files)
	Attach(set, fs, Options{})
	out := map[string]*analyze.Repair{}
	for _, f := range fs {
		out[f.RuleID+" "+f.Node] = f.Repair
	}
	return out
}

func TestRetryOwnerTurnsOffTheAgent(t *testing.T) {
	reps := repairsOf(t, agentWorkflow(false), analyze.DefaultOptions())
	r, ok := reps["RS104 Model"]
	if !ok || r == nil {
		t.Fatalf("RS104 on Model has no repair: %v", reps)
	}
	if r.Safety != analyze.Safe || len(r.Edits) != 1 || r.Edits[0].Text != "false" ||
		r.Description != `Retry in one layer: turn off retryOnFail on "Agent"` {
		t.Errorf("repair: %+v", r)
	}
}

func TestRetryOwnerKeepsTheLastRetryOfACall(t *testing.T) {
	// The agent's retry is the only one the tool's calls have: turning it
	// off would leave them none, so the model's RS104 has no repair.
	reps := repairsOf(t, agentWorkflow(true), analyze.DefaultOptions())
	if _, ok := reps["RS104 Model"]; !ok {
		t.Fatalf("no RS104 on Model: %v", reps)
	}
	if r := reps["RS104 Model"]; r != nil {
		t.Errorf("want no repair, got %+v", r)
	}
}

func TestRetryOwnerLowersTheKeptLayer(t *testing.T) {
	src := `{"name": "Sync", "nodes": [
  {"name": "Cron", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "parameters": {}},
  {"name": "Fetch", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "parameters": {"url": "https://api.example.com/x"},
   "retryOnFail": true, "maxTries": 5}],
 "connections": {"Cron": {"main": [[{"node": "Fetch", "type": "main", "index": 0}]]}}}`
	for _, tt := range []struct {
		budget int
		want   string
	}{{3, `"maxTries": 3`}, {1, `"retryOnFail": false`}} {
		opts := analyze.DefaultOptions()
		opts.MaxAttempts = tt.budget
		files := []*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}
		res, err := Files(files, checker(opts), Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		got := string(res.Files[0].Source.Src)
		if res.Fixed != 1 || !strings.Contains(got, tt.want) {
			t.Errorf("budget %d: fixed %d, want %s in\n%s", tt.budget, res.Fixed, tt.want, got)
		}
	}
}

// TestRetryOwnerModelSharedByTwoAgents: a model under two agents that both
// retry is one finding whose chain names the first agent; once that agent
// is off the same finding names the second, with another repair, which
// the same --fix applies too: a second --fix has nothing left to do.
func TestRetryOwnerModelSharedByTwoAgents(t *testing.T) {
	src := `{"name": "Two agents", "nodes": [
  {"name": "Chat", "type": "@n8n/n8n-nodes-langchain.chatTrigger", "typeVersion": 1.1, "parameters": {}},
  {"name": "Agent A", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 1.7, "parameters": {}, "retryOnFail": true, "maxTries": 3},
  {"name": "Agent B", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 1.7, "parameters": {}, "retryOnFail": true, "maxTries": 3},
  {"name": "Model", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "parameters": {"options": {"maxTokens": 500}}}],
 "connections": {
  "Chat": {"main": [[{"node": "Agent A", "type": "main", "index": 0}]]},
  "Agent A": {"main": [[{"node": "Agent B", "type": "main", "index": 0}]]},
  "Model": {"ai_languageModel": [[{"node": "Agent A", "type": "ai_languageModel", "index": 0}, {"node": "Agent B", "type": "ai_languageModel", "index": 0}]]}}}`
	files := []*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}
	res := RoundTrip(t, files, analyze.DefaultOptions(), Options{}, false)
	got := string(res.Files[0].Source.Src)
	if n := strings.Count(got, `"retryOnFail": false`); n != 2 || res.Fixed != 1 {
		t.Errorf("fixed %d, turned off %d agents, want 1 and 2:\n%s", res.Fixed, n, got)
	}
}
