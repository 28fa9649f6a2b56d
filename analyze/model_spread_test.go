package analyze

import (
	"encoding/json"
	"os"
	"testing"
)

// TestReachBeforeModel: a node every way to which passes a model's
// generation (an agent with its chat model, a chain, an HTTP Request to a
// generation endpoint, a vendor model node) is not reached before a model;
// the generating node and its sub-nodes are. A disabled generating node, one
// that hands a failure on by its regular output, or an agent with no enabled
// chat model waits for no generation; an error output carries failures, and
// a branch around the model reaches the node without one. So does a
// vendor node's file operation, which generates nothing.
func TestReachBeforeModel(t *testing.T) {
	read := func(name string, edit func(map[string]any)) *Graph {
		t.Helper()
		src, err := os.ReadFile("../rules/testdata/RS501/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			var w map[string]any
			if err := json.Unmarshal(src, &w); err != nil {
				t.Fatal(err)
			}
			edit(w)
			if src, err = json.Marshal(w); err != nil {
				t.Fatal(err)
			}
		}
		return BuildGraph(parseOne(t, string(src)))
	}
	set := func(node, key string, v any) func(map[string]any) {
		return func(w map[string]any) {
			for _, n := range w["nodes"].([]any) {
				if m := n.(map[string]any); m["name"] == node {
					m[key] = v
				}
			}
		}
	}
	vendor := func(w map[string]any) {
		set("Summarise", "type", "@n8n/n8n-nodes-langchain.openAi")(w)
		set("Summarise", "typeVersion", 1.8)(w)
		set("Summarise", "parameters", map[string]any{"modelId": map[string]any{"__rl": true, "mode": "list", "value": "gpt-4o-mini"},
			"messages": map[string]any{"values": []any{map[string]any{"content": "={{ $json.body.text }}"}}}})(w)
		delete(w["connections"].(map[string]any), "OpenAI Chat Model")
	}
	for _, tc := range []struct {
		name, fixture, node string
		edit                func(map[string]any)
		reached             bool
	}{
		{"agent, then a loop", "webhook_agent_then_retried_call_in_loop", "Schedule post", nil, false},
		{"the agent itself", "webhook_agent_then_retried_call_in_loop", "Write posts", nil, true},
		{"the agent's chat model", "webhook_agent_then_retried_call_in_loop", "OpenAI Chat Model", nil, true},
		{"agent disabled", "webhook_agent_then_retried_call_in_loop", "Schedule post", set("Write posts", "disabled", true), true},
		{"agent's chat model disabled", "webhook_agent_then_retried_call_in_loop", "Schedule post", set("OpenAI Chat Model", "disabled", true), true},
		{"agent continues on failure", "webhook_agent_then_retried_call_in_loop", "Schedule post", set("Write posts", "onError", "continueRegularOutput"), true},
		{"legacy continueOnFail", "webhook_agent_then_retried_call_in_loop", "Schedule post", set("Write posts", "continueOnFail", true), true},
		{"chain", "webhook_chain_then_retried_call", "Post summary", nil, false},
		{"vendor model node", "webhook_chain_then_retried_call", "Post summary", vendor, false},
		{"vendor node managing files", "webhook_chain_then_retried_call", "Post summary", func(w map[string]any) {
			vendor(w)
			set("Summarise", "parameters", map[string]any{"resource": "file", "operation": "list"})(w)
		}, true},
		{"HTTP Request to a generation endpoint", "webhook_http_model_call_then_retried_call", "Update CRM", nil, false},
		{"a call before the agent", "webhook_retried_call_before_agent", "Look up lead", nil, true},
		{"a call after the agent", "webhook_retried_call_before_agent", "Send reply", nil, false},
		{"a branch around the agent", "webhook_branch_around_agent", "Publish", nil, true},
		{"the agent's error output", "webhook_agent_error_output_retried", "Report failure", nil, true},
		{"the agent's success output", "webhook_agent_error_output_retried", "Save draft", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := read(tc.fixture, tc.edit)
			n := g.Node(tc.node)
			if n == nil {
				t.Fatalf("no node %q", tc.node)
			}
			if got := ReachBeforeModel(g, g.Triggers()[0])[n]; got != tc.reached {
				t.Errorf("ReachBeforeModel(%q) = %v, want %v", tc.node, got, tc.reached)
			}
		})
	}
}
