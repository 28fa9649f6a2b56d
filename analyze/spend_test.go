package analyze

import (
	"math"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func spendNode(t *testing.T, js string) *n8nschema.Node {
	t.Helper()
	f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(`{"nodes":[`+js+`],"connections":{}}`)))
	if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
		t.Fatalf("bad test node %s", js)
	}
	return f.Workflows[0].Nodes[0]
}

func TestFillSpend(t *testing.T) {
	tests := []struct {
		name      string
		node      string
		attempts  int
		calls     int
		unbounded bool
		opts      Options
		model     string
		maxOut    int
		capped    bool
		perItem   float64
		perExec   float64
		execOK    bool
	}{
		{
			name:     "openai no cap: model ceiling",
			node:     `{"name":"m","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"value":"gpt-4o","mode":"list"}}}`,
			attempts: 3, calls: 10, opts: Options{Items: 100},
			// 10 calls × 3 attempts × 16384 tokens × $10/1M
			model: "gpt-4o", maxOut: 16384, perItem: 4.9152, perExec: 491.52, execOK: true,
		},
		{
			name:     "openai capped",
			node:     `{"name":"m","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"value":"gpt-4o-mini","mode":"list"},"options":{"maxTokens":500}}}`,
			attempts: 3, calls: 1, opts: Options{Items: 1},
			model: "gpt-4o-mini", maxOut: 500, capped: true, perItem: 3 * 500 * 0.60 / 1e6, perExec: 3 * 500 * 0.60 / 1e6, execOK: true,
		},
		{
			name:     "anthropic default cap",
			node:     `{"name":"m","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{"model":{"__rl":true,"value":"claude-3-5-sonnet-20241022","mode":"list"}}}`,
			attempts: 7, calls: 1, opts: Options{Items: 1},
			model: "claude-3-5-sonnet-20241022", maxOut: 4096, capped: true, perItem: 7 * 4096 * 15 / 1e6, perExec: 7 * 4096 * 15 / 1e6, execOK: true,
		},
		{
			// @langchain/anthropic's per-model table: claude-sonnet-4 8192.
			name:     "anthropic sonnet 4 default cap",
			node:     `{"name":"m","type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{"model":{"__rl":true,"value":"claude-sonnet-4-20250514","mode":"list"}}}`,
			attempts: 7, calls: 1, opts: Options{Items: 1},
			model: "claude-sonnet-4-20250514", maxOut: 8192, capped: true, perItem: 7 * 8192 * 15 / 1e6, perExec: 7 * 8192 * 15 / 1e6, execOK: true,
		},
		{
			// options {} sends no maxOutputTokens: the model's ceiling.
			name:     "gemini options {} no cap",
			node:     `{"name":"m","type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-2.5-flash","options":{}}}`,
			attempts: 7, calls: 1, opts: Options{Items: 1},
			model: "models/gemini-2.5-flash", maxOut: 65536, perItem: 7 * 65536 * 2.50 / 1e6, perExec: 7 * 65536 * 2.50 / 1e6, execOK: true,
		},
		{
			name:     "price override from config",
			node:     `{"name":"m","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"modelId":{"__rl":true,"value":"gpt-4o","mode":"list"},"options":{"maxTokens":1000}}}`,
			attempts: 5, calls: 1, opts: Options{Items: 2, Prices: map[string]ModelPrice{"gpt-4o": {InputPerM: 1, OutputPerM: 20}}},
			model: "gpt-4o", maxOut: 1000, capped: true, perItem: 5 * 1000 * 20 / 1e6, perExec: 2 * 5 * 1000 * 20 / 1e6, execOK: true,
		},
		{
			name:     "unbounded",
			node:     `{"name":"m","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"modelId":{"__rl":true,"value":"gpt-4o","mode":"list"}}}`,
			attempts: 5, calls: 1, unbounded: true, opts: Options{Items: 1},
			model: "gpt-4o", maxOut: 16384,
		},
		{
			name:     "unknown model",
			node:     `{"name":"m","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"value":"my-finetune","mode":"id"}}}`,
			attempts: 3, calls: 1, opts: Options{Items: 1},
			model: "my-finetune",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op := &Operation{Node: spendNode(t, tt.node), Paid: true, Attempts: tt.attempts, CallsPerItem: tt.calls, Unbounded: tt.unbounded}
			op.Type = op.Node.Type
			FillSpend(op, &tt.opts)
			if op.Model != tt.model || op.MaxOutputTokens != tt.maxOut || op.OutputCapped != tt.capped {
				t.Errorf("model, max output, capped = %q, %d, %v; want %q, %d, %v", op.Model, op.MaxOutputTokens, op.OutputCapped, tt.model, tt.maxOut, tt.capped)
			}
			if math.Abs(op.SpendPerItemUSD-tt.perItem) > 1e-9 {
				t.Errorf("SpendPerItemUSD = %v, want %v", op.SpendPerItemUSD, tt.perItem)
			}
			if op.SpendUnbounded != tt.unbounded {
				t.Errorf("SpendUnbounded = %v, want %v", op.SpendUnbounded, tt.unbounded)
			}
			got, ok := op.SpendPerExecution(&tt.opts)
			if ok != tt.execOK || math.Abs(got-tt.perExec) > 1e-9 {
				t.Errorf("SpendPerExecution = %v, %v; want %v, %v", got, ok, tt.perExec, tt.execOK)
			}
		})
	}
}

func TestFillSpendSkipsUnpaid(t *testing.T) {
	op := &Operation{Node: spendNode(t, `{"name":"h","type":"n8n-nodes-base.httpRequest","parameters":{}}`), Attempts: 3}
	FillSpend(op, &Options{Items: 1})
	if op.Model != "" || op.SpendPerItemUSD != 0 || op.SpendKnown() {
		t.Errorf("unpaid operation got spend figures: %+v", op)
	}
}

func TestSpendCapFor(t *testing.T) {
	opts := &Options{SpendCaps: []SpendCap{{Provider: "openai", USD: 50, Period: "day"}, {Provider: "*", USD: 100, Period: "day"}, {Provider: "anthropic", USD: 20, Period: "execution"}}}
	for _, tt := range []struct {
		provider string
		usd      float64
	}{{"openai", 50}, {"OpenAI", 50}, {"anthropic", 20}, {"mistral", 100}} {
		c, ok := SpendCapFor(opts, tt.provider)
		if !ok || c.USD != tt.usd {
			t.Errorf("SpendCapFor(%q) = %v, %v; want %v", tt.provider, c.USD, ok, tt.usd)
		}
	}
	if _, ok := SpendCapFor(&Options{}, "openai"); ok {
		t.Error("SpendCapFor found a cap in empty options")
	}
}

// TestFreeModels: ids nobody bills for make no paid call, whatever paid
// model they share a prefix with; a released model of the same family
// stays paid.
func TestFreeModels(t *testing.T) {
	for model, free := range map[string]bool{
		"deepseek/deepseek-r1:free":           true,
		"mistral-small3.1:latest":             true,
		"models/gemini-2.0-flash-exp":         true,
		"gemini-2.5-pro-exp-03-25":            true,
		"gemini-2.0-flash-thinking-exp-01-21": true,
		"gemini-exp-1206":                     true,
		"learnlm-1.5-pro-experimental":        true,
		"google/gemini-2.0-flash-exp:free":    true,
		"models/gemini-2.0-flash":             false,
		"gemini-2.5-pro-preview-05-06":        false,
		"gemini-2.5-flash-lite":               false,
		"gpt-4o-mini-2024-07-18":              false,
		"claude-3-5-sonnet-latest":            false,
		"o1-exp":                              false,
	} {
		n := spendNode(t, `{"name":"m","type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"`+model+`"}}`)
		op := &Operation{Node: n, Type: n.Type, Paid: true, Attempts: 3, CallsPerItem: 1}
		FillSpend(op, &Options{Items: 1})
		if op.Paid == free {
			t.Errorf("%s: paid %v, want %v", model, op.Paid, !free)
		}
	}
}
