package fix

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// storeWorkflow is a vector store that retries and its OpenAI embeddings
// (LangChain's 7 attempts); qdrant picks a store that calls out itself,
// so that the store's retry is the only one its own calls have. (A chat
// model is no such inner layer: n8n stops LangChain's retries at its first
// failure, so the agent's retry is the model's only one.)
func storeWorkflow(qdrant bool) string {
	store := `{"name": "Store", "type": "@n8n/n8n-nodes-langchain.vectorStoreInMemory", "typeVersion": 1.3, "parameters": {"mode": "insert"}, "retryOnFail": true, "maxTries": 3}`
	if qdrant {
		store = `{"name": "Store", "type": "@n8n/n8n-nodes-langchain.vectorStoreQdrant", "typeVersion": 1.1, "parameters": {"mode": "insert", "qdrantCollection": {"__rl": true, "value": "docs", "mode": "id"}}, "retryOnFail": true, "maxTries": 3}`
	}
	nodes := `{"name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
    ` + store + `,
    {"name": "Embeddings", "type": "@n8n/n8n-nodes-langchain.embeddingsOpenAi", "typeVersion": 1.2, "parameters": {}}`
	conns := `"Start": {"main": [[{"node": "Store", "type": "main", "index": 0}]]},
    "Embeddings": {"ai_embedding": [[{"node": "Store", "type": "ai_embedding", "index": 0}]]}`
	return "{\n  \"name\": \"Index\",\n  \"nodes\": [\n    " + nodes + "\n  ],\n  \"connections\": {\n    " + conns + "\n  }\n}\n"
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

func TestRetryOwnerTurnsOffTheStore(t *testing.T) {
	opts := analyze.DefaultOptions()
	opts.MaxAttempts = 100 // RS104, not RS101
	reps := repairsOf(t, storeWorkflow(false), opts)
	r, ok := reps["RS104 Embeddings"]
	if !ok || r == nil {
		t.Fatalf("RS104 on Embeddings has no repair: %v", reps)
	}
	if r.Safety != analyze.Safe || len(r.Edits) != 1 || r.Edits[0].Text != "false" ||
		r.Description != `Retry in one layer: turn off retryOnFail on "Store"` {
		t.Errorf("repair: %+v", r)
	}
}

func TestRetryOwnerKeepsTheLastRetryOfACall(t *testing.T) {
	// The store's retry is the only one its own Qdrant calls have: turning
	// it off would leave them none, so the embeddings' RS104 has no repair.
	opts := analyze.DefaultOptions()
	opts.MaxAttempts = 100
	reps := repairsOf(t, storeWorkflow(true), opts)
	if _, ok := reps["RS104 Embeddings"]; !ok {
		t.Fatalf("no RS104 on Embeddings: %v", reps)
	}
	if r := reps["RS104 Embeddings"]; r != nil {
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

// TestRetryOwnerEmbeddingsSharedByTwoStores: embeddings under two stores
// that both retry are one finding whose chain names the first store; once
// that store is off the same finding names the second, with another
// repair, which the same --fix applies too: a second --fix has nothing
// left to do.
func TestRetryOwnerEmbeddingsSharedByTwoStores(t *testing.T) {
	src := `{"name": "Two stores", "nodes": [
  {"name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
  {"name": "Store A", "type": "@n8n/n8n-nodes-langchain.vectorStoreInMemory", "typeVersion": 1.3, "parameters": {"mode": "insert"}, "retryOnFail": true, "maxTries": 3},
  {"name": "Store B", "type": "@n8n/n8n-nodes-langchain.vectorStoreInMemory", "typeVersion": 1.3, "parameters": {"mode": "insert"}, "retryOnFail": true, "maxTries": 3},
  {"name": "Embeddings", "type": "@n8n/n8n-nodes-langchain.embeddingsOpenAi", "typeVersion": 1.2, "parameters": {}}],
 "connections": {
  "Start": {"main": [[{"node": "Store A", "type": "main", "index": 0}]]},
  "Store A": {"main": [[{"node": "Store B", "type": "main", "index": 0}]]},
  "Embeddings": {"ai_embedding": [[{"node": "Store A", "type": "ai_embedding", "index": 0}, {"node": "Store B", "type": "ai_embedding", "index": 0}]]}}}`
	files := []*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))}
	opts := analyze.DefaultOptions()
	opts.MaxAttempts = 100
	res := RoundTrip(t, files, opts, Options{}, false)
	got := string(res.Files[0].Source.Src)
	if n := strings.Count(got, `"retryOnFail": false`); n != 2 || res.Fixed != 1 {
		t.Errorf("fixed %d, turned off %d stores, want 1 and 2:\n%s", res.Fixed, n, got)
	}
}

// keyWorkflow is a webhook and a retried Stripe POST whose parameters are
// extra; the webhook workflow is called by a caller when caller is set
// (its Execute Workflow node tries 3 times when retries is set).
func keyWorkflows(extra string, caller, retries bool) string {
	pay := `{"id": "PaySub", "name": "Pay", "nodes": [
  {"name": "Start", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "parameters": {"httpMethod": "POST", "path": "pay"}, "webhookId": "w1"},
  {"name": "Create charge", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "retryOnFail": true, "maxTries": 3,
   "parameters": {"method": "POST", "url": "https://api.stripe.com/v1/charges", "sendBody": true` + extra + `}}],
 "connections": {"Start": {"main": [[{"node": "Create charge", "type": "main", "index": 0}]]}}}`
	if !caller {
		return pay
	}
	pay = strings.Replace(pay, `{"name": "Start", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "parameters": {"httpMethod": "POST", "path": "pay"}, "webhookId": "w1"}`,
		`{"name": "Start", "type": "n8n-nodes-base.executeWorkflowTrigger", "typeVersion": 1.1, "parameters": {"inputSource": "passthrough"}}`, 1)
	retry := ""
	if retries {
		retry = `, "retryOnFail": true, "maxTries": 3`
	}
	return `[{"id": "Orders", "name": "Orders", "nodes": [
  {"name": "Cron", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "parameters": {}},
  {"name": "Pay order", "type": "n8n-nodes-base.executeWorkflow", "typeVersion": 1.2, "onError": "continueRegularOutput",
   "parameters": {"workflowId": {"__rl": true, "value": "PaySub", "mode": "id"}}` + retry + `}],
 "connections": {"Cron": {"main": [[{"node": "Pay order", "type": "main", "index": 0}]]}}}, ` + pay + `]`
}

// TestIdempotencyKeyFromTheItem: the key repair uses an id of the item the
// node already reads, which every re-send of the item repeats; with none,
// it offers the execution-id key only where nothing but the node's own
// retries sends the write again: not under a retrying caller (each try is
// a new execution), not where a person's retry of the failed execution
// runs the node again (its failure stops the execution, and failed
// executions are kept).
func TestIdempotencyKeyFromTheItem(t *testing.T) {
	const continues = `, "options": {}}, "onError": "continueErrorOutput", "x": {"y": 1`
	const continuesRegular = `, "options": {}}, "onError": "continueRegularOutput", "x": {"y": 1`
	for _, tt := range []struct {
		name, src, want string
	}{
		{"id in the body", keyWorkflows(`, "bodyParameters": {"parameters": [{"name": "order", "value": "={{ $json.orderId }}"}]}`, false, false),
			`={{ $json.orderId }}-create-charge`},
		{"id of a paired item", keyWorkflows(`, "bodyParameters": {"parameters": [{"name": "metadata[order]", "value": "=order {{ $('Start').item.json.body.order.id }}"}]}`, false, false),
			`={{ $('Start').item.json.body.order.id }}-create-charge`},
		{"id under a retrying caller", keyWorkflows(`, "bodyParameters": {"parameters": [{"name": "invoice", "value": "={{ $json[\"invoice_id\"] }}"}]}`, true, true),
			`={{ $json["invoice_id"] }}-create-charge`},
		{"id in the pinned body of the webhook", strings.Replace(keyWorkflows(``, false, false), `"connections"`,
			`"pinData": {"Start": [{"json": {"headers": {"x-request-id": "r1"}, "body": {"customer_id": "c1", "order_id": "A-1"}}}]}, "connections"`, 1),
			`={{ $json.body.order_id }}-create-charge`},
		{"a customer names many writes", keyWorkflows(`, "bodyParameters": {"parameters": [{"name": "customer", "value": "={{ $json.customerId }}"}]}`, false, false), ""},
		{"the same for every item", keyWorkflows(`, "bodyParameters": {"parameters": [{"name": "order", "value": "={{ $('Start').first().json.orderId }}"}]}`, false, false), ""},
		{"no id, retried by hand", keyWorkflows(``, false, false), ""},
		{"no id, failures not kept", strings.Replace(keyWorkflows(``, false, false), `"connections"`, `"settings": {"saveDataErrorExecution": "none"}, "connections"`, 1),
			`={{ $execution.id }}-create-charge-{{ $itemIndex }}`},
		{"no id, continues on error", keyWorkflows(continues, false, false), `={{ $execution.id }}-create-charge-{{ $itemIndex }}`},
		// Its {json: {error}} item is the sub-workflow's answer, which the
		// caller's retry reruns (testdata/engine/caller-exec-retry-continue-regular).
		{"no id, continues on error, under a retrying caller", keyWorkflows(continuesRegular, true, true), ""},
		// An error output connected to nothing hands the caller no error: its
		// retry never reruns the charge (caller-exec-retry-continue-error).
		{"no id, continues on an unconnected error output, under a retrying caller", keyWorkflows(continues, true, true),
			`={{ $execution.id }}-create-charge-{{ $itemIndex }}`},
		{"no id, continues on error, under a caller without retries", keyWorkflows(continues, true, false), `={{ $execution.id }}-create-charge-{{ $itemIndex }}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reps := repairsOf(t, tt.src, analyze.DefaultOptions())
			r, ok := reps["RS201 Create charge"]
			if !ok {
				t.Fatalf("no RS201 on the charge: %v", reps)
			}
			switch {
			case tt.want == "" && r != nil:
				t.Errorf("want no repair, got %q", r.Description)
			case tt.want != "" && r == nil:
				t.Errorf("no repair, want the key %s", tt.want)
			case tt.want != "" && !strings.Contains(r.Edits[len(r.Edits)-1].Text, strconv.Quote(tt.want)):
				t.Errorf("repair %q writes %q, want the key %s", r.Description, r.Edits[len(r.Edits)-1].Text, tt.want)
			}
		})
	}
}
