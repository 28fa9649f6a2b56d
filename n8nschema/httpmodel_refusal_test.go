package n8nschema

import (
	"strconv"
	"testing"
)

// TestAnthropicNoMaxTokensAndComputeOnly: the Messages API's create
// endpoint refuses a written body with no max_tokens; a batch or a body
// built elsewhere is not judged. A POST that only asks for an answer
// stores nothing.
func TestAnthropicNoMaxTokensAndComputeOnly(t *testing.T) {
	node := func(url, body string) *Node {
		src := `{"nodes":[{"name":"H","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"parameters":{"method":"POST","url":` + strconv.Quote(url) + `,"sendBody":true,"specifyBody":"json","jsonBody":` + strconv.Quote(body) + `}}],"connections":{}}`
		f := Parse(NewSource("w.json", []byte(src)))
		if len(f.Workflows) != 1 {
			t.Fatalf("bad workflow %s", src)
		}
		return f.Workflows[0].Nodes[0]
	}
	const msgs = `{"model": "claude-sonnet-4-5", "messages": []}`
	for _, c := range []struct {
		url, body      string
		refused, built bool
	}{
		{"https://api.anthropic.com/v1/messages", msgs, true, false},
		{"https://api.anthropic.com/v1/messages", `{"model": "claude-sonnet-4-5", "max_tokens": 500, "messages": []}`, false, false},
		{"https://api.anthropic.com/v1/messages", `={"model": "claude-sonnet-4-5", "max_tokens": {{ $json.cap }}, "messages": []}`, false, true},
		{"https://api.anthropic.com/v1/messages", `={{ JSON.stringify($json.body) }}`, false, true},
		{"https://api.anthropic.com/v1/messages/batches", `{"requests": [{"params": {"messages": []}}]}`, false, false},
		{"https://api.openai.com/v1/chat/completions", msgs, false, false},
	} {
		n := node(c.url, c.body)
		if got := AnthropicNoMaxTokens(n); got != c.refused {
			t.Errorf("AnthropicNoMaxTokens(%s, %s) = %v, want %v", c.url, c.body, got, c.refused)
		}
		if hc, _ := HTTPModelCallOf(n); hc.CapAtRunTime != c.built {
			t.Errorf("CapAtRunTime(%s, %s) = %v, want %v", c.url, c.body, hc.CapAtRunTime, c.built)
		}
	}
	for url, want := range map[string]bool{
		"https://api.mistral.ai/v1/ocr":                  true,
		"https://api.openai.com/v1/embeddings":           true,
		"https://api.openai.com/v1/audio/transcriptions": true,
		"https://api.openai.com/v1/files":                false,
		"https://api.openai.com/v1/threads":              false,
		"https://hooks.example.test/v1/ocr":              false,
		"https://api.openai.com/v1/chat/completions":     true,
	} {
		if got := ComputeOnlyCall(node(url, msgs)); got != want {
			t.Errorf("ComputeOnlyCall(%s) = %v, want %v", url, got, want)
		}
	}
}
