package analyze

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// fanInPrompts is a Webhook whose items reach a No Operation node through
// k If nodes side by side, and k agents after it whose prompt is
// {{ $json.Question }}, each with its chat model. With auto the trigger
// is a Schedule Trigger (named Webhook still) and the agents read the
// chatInput field (promptType "auto", the default).
func fanInPrompts(t *testing.T, k int, auto bool) *Set {
	t.Helper()
	trigger := map[string]any{"id": "w", "name": "Webhook", "type": n8nschema.TypeWebhook, "typeVersion": 2, "position": []int{0, 0},
		"parameters": map[string]any{"path": "ask", "httpMethod": "POST"}}
	prompt := map[string]any{"promptType": "define", "text": "={{ $json.Question }}"}
	if auto {
		trigger["type"], trigger["typeVersion"], trigger["parameters"] = "n8n-nodes-base.scheduleTrigger", 1.2, map[string]any{"rule": map[string]any{"interval": []any{map[string]any{}}}}
		prompt = map[string]any{}
	}
	nodes := []any{
		trigger,
		map[string]any{"id": "hub", "name": "Hub", "type": n8nschema.TypeNoOp, "typeVersion": 1, "position": []int{400, 0}, "parameters": map[string]any{}},
	}
	conns := map[string]any{}
	link := func(from, to, typ string) {
		conns[from] = map[string]any{typ: [][]map[string]any{{{"node": to, "type": typ, "index": 0}}}}
	}
	var ifs []map[string]any
	for i := range k {
		name := fmt.Sprintf("If %d", i)
		nodes = append(nodes, map[string]any{"id": name, "name": name, "type": n8nschema.TypeIf, "typeVersion": 2, "position": []int{200, i * 100}, "parameters": map[string]any{}})
		ifs = append(ifs, map[string]any{"node": name, "type": "main", "index": 0})
		link(name, "Hub", "main")
	}
	conns["Webhook"] = map[string]any{"main": [][]map[string]any{ifs}}
	var agents []map[string]any
	for i := range k {
		agent, model := fmt.Sprintf("Agent %d", i), fmt.Sprintf("Model %d", i)
		nodes = append(nodes,
			map[string]any{"id": agent, "name": agent, "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 1.7, "position": []int{600, i * 100},
				"parameters": prompt},
			map[string]any{"id": model, "name": model, "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1, "position": []int{600, i*100 + 50},
				"parameters": map[string]any{"model": "gpt-4o-mini"}, "credentials": map[string]any{"openAiApi": map[string]any{"id": "1", "name": "OpenAI"}}})
		agents = append(agents, map[string]any{"node": agent, "type": "main", "index": 0})
		link(model, agent, "ai_languageModel")
	}
	conns["Hub"] = map[string]any{"main": [][]map[string]any{agents}}
	src, err := json.Marshal(map[string]any{"name": "Fan-in", "nodes": nodes, "connections": conns})
	if err != nil {
		t.Fatal(err)
	}
	return Build([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("fanin.json", src))}, DefaultOptions())
}

// TestPromptFanIn: k agents behind one wide fan-in of k If nodes from a
// Webhook (or a Schedule Trigger) each fail on their undefined prompt, and
// the pass-through nodes are judged once per depth for the whole graph,
// not once per agent (a walk back from each grew with k²), however often
// FailsWhy asks.
func TestPromptFanIn(t *testing.T) {
	const k = 300
	for _, auto := range []bool{false, true} {
		s := fanInPrompts(t, k, auto)
		g := s.Graph(s.Workflows[0])
		want, m := "no top-level Question", &g.webhookFed
		if auto {
			want, m = "chatInput field", &g.noChatInput
		}
		for i := range k {
			why, ok := g.FailsWhy(g.Node(fmt.Sprintf("Agent %d", i)))
			if !ok || !strings.Contains(why, want) {
				t.Fatalf("auto=%v, Agent %d: FailsWhy = %q, %v; want %q", auto, i, why, ok, want)
			}
		}
		if limit := (maxFeedDepth + 1) * (k + 1); m.judged == 0 || m.judged > limit {
			t.Errorf("auto=%v: %d judgements of pass-through nodes for %d agents behind %d If nodes, want 1 to %d", auto, m.judged, k, k, limit)
		}
	}
}
