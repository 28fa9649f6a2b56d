package cmd

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestEngineAttempts audits the workflows of testdata/engine, which were run
// in real n8n against a server that always fails, and checks that each
// operation's attempts equal the requests n8n sent (testdata/engine/README.md).
func TestEngineAttempts(t *testing.T) {
	tests := []struct {
		files []string
		node  string
		want  int
	}{
		{[]string{"chain-openai.json"}, "OpenAI Chat Model", 1},
		{[]string{"chain-openai-retry3.json"}, "OpenAI Chat Model", 3},
		{[]string{"chain-openai-maxretries4.json"}, "OpenAI Chat Model", 1},
		{[]string{"chain-openai-model-retry3.json"}, "OpenAI Chat Model", 1},
		{[]string{"agent-v2.2-openai.json"}, "OpenAI Chat Model", 1},
		{[]string{"agent-v3-openai.json"}, "OpenAI Chat Model", 1},
		{[]string{"agent-v2.2-openai-retry2.json"}, "OpenAI Chat Model", 2},
		{[]string{"chain-anthropic.json"}, "Anthropic Chat Model", 1},
		{[]string{"chain-gemini.json"}, "Google Gemini Chat Model", 1},
		{[]string{"vectorstore-embeddings-openai.json"}, "Embeddings OpenAI", 7},
		{[]string{"executeworkflow-retry3-parent.json", "executeworkflow-retry3-child.json"}, "HTTP Request", 9},
	}
	for _, tt := range tests {
		t.Run(tt.files[0], func(t *testing.T) {
			args := []string{"audit", "--n8n-version", "2.8.4", "--format", "json", "--fail-on", "never"}
			for _, f := range tt.files {
				args = append(args, filepath.Join("..", "testdata", "engine", f))
			}
			r := run(t, args...)
			if r.code != ExitOK {
				t.Fatalf("exit %d; stderr: %s", r.code, r.stderr)
			}
			var rep struct {
				Workflows []struct {
					Operations []struct {
						Node     string `json:"node"`
						Attempts int    `json:"attempts"`
					} `json:"operations"`
				} `json:"workflows"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, w := range rep.Workflows {
				for _, o := range w.Operations {
					if o.Node == tt.node {
						got = append(got, o.Attempts)
					}
				}
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("%s: attempts %v, want [%d]", tt.node, got, tt.want)
			}
		})
	}
}
