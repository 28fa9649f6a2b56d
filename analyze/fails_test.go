package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// gateWorkflow is a schedule feeding the gate node (named G), whose
// outputs lead to True, False and, for continueErrorOutput, Err.
func gateWorkflow(gate string) string {
	return `{"nodes": [
	 {"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
	 ` + gate + `,
	 {"name": "True", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "False", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "Err", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}],
	 "connections": {
	  "S": {"main": [[{"node": "G", "type": "main", "index": 0}]]},
	  "G": {"main": [[{"node": "True", "type": "main", "index": 0}], [{"node": "False", "type": "main", "index": 0}], [{"node": "Err", "type": "main", "index": 0}]]}}}`
}

// gate is an If or Filter node named G with one condition.
func gate(typ string, version float64, operator, right, options, extra string) string {
	return fmt.Sprintf(`{"name": "G", "type": %q, "typeVersion": %v, "position": [0, 0], %s
	  "parameters": {"conditions": {%s "conditions": [{"leftValue": "={{ $json.ok }}", "rightValue": %s, "operator": %s}], "combinator": "and"}}}`,
		typ, version, extra, options, right, operator)
}

// TestGateThatAlwaysThrows: an If or Filter v2 whose first condition
// compares against a literal of the wrong type under strict validation
// throws on every item (n8n-workflow filter-parameter.js), so nothing
// leaves it, unless it continues on fail: then every item leaves by the
// false output (IfV2.node.js catch).
func TestGateThatAlwaysThrows(t *testing.T) {
	const (
		boolEq  = `{"type": "boolean", "operation": "equals"}`
		numGte  = `{"type": "number", "operation": "gte"}`
		strict  = `"options": {"caseSensitive": true, "leftValue": "", "typeValidation": "strict", "version": 2},`
		strict3 = `"options": {"typeValidation": "strict", "version": 3},`
		loose   = `"options": {"typeValidation": "loose", "version": 2},`
		if2     = "n8n-nodes-base.if"
	)
	for _, c := range []struct {
		name                string
		node                string
		true_, false_, err_ bool
	}{
		{"boolean against =true", gate(if2, 2.2, boolEq, `"=true"`, strict, ""), false, false, false},
		{"boolean against a string", gate(if2, 2.2, boolEq, `"true"`, strict, ""), false, false, false},
		{"boolean against an empty string", gate(if2, 2.2, boolEq, `""`, strict, ""), false, false, false},
		{"strict by default", gate(if2, 2.2, boolEq, `"=true"`, "", ""), false, false, false},
		{"boolean against true", gate(if2, 2.2, boolEq, `true`, strict, ""), true, true, false},
		{"boolean against an expression", gate(if2, 2.2, boolEq, `"={{ true }}"`, strict, ""), true, true, false},
		{"loose validation", gate(if2, 2.2, boolEq, `"=true"`, loose, ""), true, true, false},
		{"looseTypeValidation set", gate(if2, 2.2, boolEq, `"=true"`, strict, "")[:0] +
			`{"name": "G", "type": "n8n-nodes-base.if", "typeVersion": 2.2, "position": [0, 0], "parameters": {"looseTypeValidation": true, "conditions": {` + strict + ` "conditions": [{"leftValue": "={{ $json.ok }}", "rightValue": "=true", "operator": ` + boolEq + `}]}}}`, true, true, false},
		{"a one-value operator", gate(if2, 2.2, `{"type": "boolean", "operation": "true", "singleValue": true}`, `""`, strict, ""), true, true, false},
		{"number against a string", gate(if2, 2.2, numGte, `"95"`, strict, ""), false, false, false},
		{"number against a number", gate(if2, 2.2, numGte, `95`, strict, ""), true, true, false},
		{"number against empty, filter v3", gate(if2, 2.3, numGte, `""`, strict3, ""), true, true, false},
		{"string against a number", gate(if2, 2.2, `{"type": "string", "operation": "equals"}`, `5`, strict, ""), false, false, false},
		{"string against a string", gate(if2, 2.2, `{"type": "string", "operation": "equals"}`, `"5"`, strict, ""), true, true, false},
		{"If v1", gate(if2, 1, boolEq, `"=true"`, strict, ""), true, true, false},
		{"continues on the regular output", gate(if2, 2.2, boolEq, `"=true"`, strict, `"onError": "continueRegularOutput",`), false, true, false},
		{"continues on the error output", gate(if2, 2.2, boolEq, `"=true"`, strict, `"onError": "continueErrorOutput",`), false, true, false},
		{"legacy continueOnFail", gate(if2, 2.2, boolEq, `"=true"`, strict, `"continueOnFail": true,`), false, true, false},
		{"filter", gate("n8n-nodes-base.filter", 2.2, boolEq, `"=true"`, strict, ""), false, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := BuildGraph(parseOne(t, gateWorkflow(c.node)))
			for name, want := range map[string]bool{"True": c.true_, "False": c.false_, "Err": c.err_} {
				if got := g.Reachable(g.Node(name)); got != want {
					t.Errorf("%s: reachable %v, want %v", name, got, want)
				}
			}
		})
	}
}

// promptWorkflow feeds an Agent or chain (A) from the nodes given, the
// last of which is wired to A; A calls the model M.
func promptWorkflow(root string, feed ...string) string {
	var nodes, conns []string
	for i, f := range feed {
		nodes = append(nodes, f)
		to := "A"
		if i+1 < len(feed) {
			to = fmt.Sprintf("F%d", i+1)
		}
		conns = append(conns, fmt.Sprintf(`"F%d": {"main": [[{"node": %q, "type": "main", "index": 0}]]}`, i, to))
	}
	return `{"nodes": [` + strings.Join(nodes, ",") + `, ` + root + `,
	 {"name": "M", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "position": [0, 0], "parameters": {"model": "gpt-4o-mini"}},
	 {"name": "After", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}],
	 "connections": {` + strings.Join(conns, ",") + `,
	  "M": {"ai_languageModel": [[{"node": "A", "type": "ai_languageModel", "index": 0}]]},
	  "A": {"main": [[{"node": "After", "type": "main", "index": 0}]]}}}`
}

func feeder(i int, typ string, version float64, params string) string {
	return fmt.Sprintf(`{"name": "F%d", "type": %q, "typeVersion": %v, "position": [0, 0], "parameters": {%s}}`, i, typ, version, params)
}

func root(typ string, version float64, params, extra string) string {
	return fmt.Sprintf(`{"name": "A", "type": "@n8n/n8n-nodes-langchain.%s", "typeVersion": %v, "position": [0, 0], %s "parameters": {%s}}`, typ, version, extra, params)
}

// TestNoPromptFromTheFeed: an Agent or chain on promptType "auto" reads
// $json.chatInput and throws "No prompt specified" when the item has none
// (@n8n/n8n-nodes-langchain utils/helpers.js getPromptInputByType),
// before its model is called; only feeds that certainly carry no
// chatInput are judged.
func TestNoPromptFromTheFeed(t *testing.T) {
	schedule := feeder(0, "n8n-nodes-base.scheduleTrigger", 1.2, "")
	manual := feeder(0, "n8n-nodes-base.manualTrigger", 1, "")
	webhook := feeder(0, "n8n-nodes-base.webhook", 2, `"path": "x"`)
	chat := feeder(0, "@n8n/n8n-nodes-langchain.chatTrigger", 1.1, "")
	setOnly := feeder(1, "n8n-nodes-base.set", 3.4, `"assignments": {"assignments": [{"name": "propertyData", "value": "={{ $json.body }}", "type": "string"}]}`)
	setKeeps := feeder(1, "n8n-nodes-base.set", 3.4, `"includeOtherFields": true, "assignments": {"assignments": [{"name": "x", "value": "1", "type": "string"}]}`)
	setChat := feeder(1, "n8n-nodes-base.set", 3.4, `"assignments": {"assignments": [{"name": "chatInput", "value": "={{ $json.body.q }}", "type": "string"}]}`)
	set32 := feeder(1, "n8n-nodes-base.set", 3.2, `"fields": {"values": [{"name": "x", "stringValue": "1"}]}`)
	setRaw := feeder(1, "n8n-nodes-base.set", 3.4, `"mode": "raw", "jsonOutput": "{\"chatInput\": \"hi\"}"`)
	for _, c := range []struct {
		name  string
		src   string
		calls bool // whether the model is called
		after bool // whether After runs
	}{
		{"agent 1.7 after a schedule", promptWorkflow(root("agent", 1.7, "", ""), schedule), false, false},
		{"agent 3 after a manual trigger", promptWorkflow(root("agent", 3, "", ""), manual), false, false},
		{"agent auto after a webhook", promptWorkflow(root("agent", 2.2, `"promptType": "auto"`, ""), webhook), false, false},
		{"agent after a Set that drops fields", promptWorkflow(root("agent", 1.6, "", ""), webhook, setOnly), false, false},
		{"agent after a Set that keeps a webhook's fields", promptWorkflow(root("agent", 2, "", ""), webhook, setKeeps), false, false},
		{"agent after a Set 3.2 that keeps a schedule's fields", promptWorkflow(root("agent", 2, "", ""), schedule, set32), false, false},
		{"agent 1.5, conversational by default", promptWorkflow(root("agent", 1.5, "", ""), schedule), false, false},
		{"basic chain 1.4", promptWorkflow(root("chainLlm", 1.4, "", ""), schedule), false, false},
		{"continues on fail", promptWorkflow(root("agent", 2.2, "", `"onError": "continueRegularOutput",`), schedule), false, true},
		{"agent after a chat trigger", promptWorkflow(root("agent", 2.2, "", ""), chat), true, true},
		{"agent after a Set that sets chatInput", promptWorkflow(root("agent", 2.2, "", ""), webhook, setChat), true, true},
		{"agent after a Set in raw mode", promptWorkflow(root("agent", 2.2, "", ""), webhook, setRaw), true, true},
		{"agent with a defined prompt", promptWorkflow(root("agent", 2.2, `"promptType": "define", "text": "={{ $json.body }}"`, ""), webhook), true, true},
		{"agent 1.2", promptWorkflow(root("agent", 1.2, "", ""), schedule), true, true},
		{"SQL agent", promptWorkflow(root("agent", 1.5, `"agent": "sqlAgent"`, ""), schedule), true, true},
		{"basic chain 1.3", promptWorkflow(root("chainLlm", 1.3, "", ""), schedule), true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := BuildGraph(parseOne(t, c.src))
			if got := g.Reachable(g.Node("M")); got != c.calls {
				t.Errorf("model reached %v, want %v", got, c.calls)
			}
			if got := g.Reachable(g.Node("After")); got != c.after {
				t.Errorf("After reached %v, want %v", got, c.after)
			}
			i, _ := g.index(g.Node("A"))
			if _, got := g.failsFirst(i); got == c.calls {
				t.Errorf("failsFirst %v, want %v", got, !c.calls)
			}
		})
	}
}

// TestVectorStoreAsRetriever: a vector store wired straight into a
// Question and Answer chain's retriever input supplies a store, not a
// retriever, and createRetrievalChain throws before any search or model
// call; a Vector Store Retriever in between supplies a retriever.
func TestVectorStoreAsRetriever(t *testing.T) {
	src := func(store string, viaRetriever bool) string {
		into := `"VS": {"ai_retriever": [[{"node": "Q", "type": "ai_retriever", "index": 0}]]}`
		if viaRetriever {
			into = `"VS": {"ai_vectorStore": [[{"node": "R", "type": "ai_vectorStore", "index": 0}]]},
			 "R": {"ai_retriever": [[{"node": "Q", "type": "ai_retriever", "index": 0}]]}`
		}
		return `{"nodes": [
		 {"name": "Chat", "type": "@n8n/n8n-nodes-langchain.chatTrigger", "typeVersion": 1.1, "position": [0, 0], "parameters": {}},
		 {"name": "Q", "type": "@n8n/n8n-nodes-langchain.chainRetrievalQa", "typeVersion": 1.6, "position": [0, 0], "parameters": {}},
		 {"name": "M", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "position": [0, 0], "parameters": {"model": "gpt-4o-mini"}},
		 ` + store + `,
		 {"name": "R", "type": "@n8n/n8n-nodes-langchain.retrieverVectorStore", "typeVersion": 1, "position": [0, 0], "parameters": {}},
		 {"name": "E", "type": "@n8n/n8n-nodes-langchain.embeddingsOpenAi", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
		 {"name": "After", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}],
		 "connections": {
		  "Chat": {"main": [[{"node": "Q", "type": "main", "index": 0}]]},
		  "M": {"ai_languageModel": [[{"node": "Q", "type": "ai_languageModel", "index": 0}]]},
		  "E": {"ai_embedding": [[{"node": "VS", "type": "ai_embedding", "index": 0}]]},
		  ` + into + `,
		  "Q": {"main": [[{"node": "After", "type": "main", "index": 0}]]}}}`
	}
	store := func(typ, params string) string {
		return `{"name": "VS", "type": "@n8n/n8n-nodes-langchain.` + typ + `", "typeVersion": 1.1, "position": [0, 0], "parameters": {` + params + `}}`
	}
	for _, c := range []struct {
		name  string
		src   string
		calls bool
	}{
		{"qdrant in retrieve mode", src(store("vectorStoreQdrant", `"mode": "retrieve"`), false), false},
		{"qdrant, retrieve by default", src(store("vectorStoreQdrant", ""), false), false},
		{"a legacy load node", src(store("vectorStorePineconeLoad", ""), false), false},
		{"through a Vector Store Retriever", src(store("vectorStoreQdrant", `"mode": "retrieve"`), true), true},
		{"a mode from an expression", src(store("vectorStoreQdrant", `"mode": "={{ 'retrieve' }}"`), false), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := BuildGraph(parseOne(t, c.src))
			for _, name := range []string{"M", "E", "After"} {
				if got := g.Reachable(g.Node(name)); got != c.calls {
					t.Errorf("%s reached %v, want %v", name, got, c.calls)
				}
			}
		})
	}
}

// TestFailsWhy: the graph says why a node fails on every item, in the
// words of the fact that marks it, and LiveFrom stops at its regular
// outputs (a gate that continues on error sends its items to the second).
func TestFailsWhy(t *testing.T) {
	const strict = `"options": {"typeValidation": "strict", "version": 2},`
	for _, c := range []struct {
		name, node, why string
	}{
		{"a gate that throws", gate("n8n-nodes-base.if", 2.2, `{"type": "boolean", "operation": "equals"}`, `"=true"`, strict, ""),
			`its first condition compares a boolean with "true", a string, and strict type validation throws "Wrong type" on every item`},
		{"a credential the node does not take", `{"name": "G", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "position": [0, 0], "parameters": {},
		  "credentials": {"googleSheetsApi": {"id": "1", "name": "Sheets"}}}`,
			`its credential "googleSheetsApi" is not of a type the node takes ("googleApi", "googleSheetsOAuth2Api")`},
		{"a chat model on the completions endpoint", `{"name": "G", "type": "n8n-nodes-base.openAi", "typeVersion": 1, "position": [0, 0], "parameters": {"model": "gpt-4o"}}`,
			`OpenAI's legacy completions endpoint, where text/complete posts, refuses the chat model "gpt-4o"`},
		{"a gate that continues on the error output", gate("n8n-nodes-base.if", 2.2, `{"type": "boolean", "operation": "equals"}`, `"=true"`, strict, `"onError": "continueErrorOutput",`), ""},
		{"a node that runs", `{"name": "G", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4.5, "position": [0, 0], "parameters": {},
		  "credentials": {"googleSheetsOAuth2Api": {"id": "1", "name": "Sheets"}}}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := BuildGraph(parseOne(t, gateWorkflow(c.node)))
			why, ok := g.FailsWhy(g.Node("G"))
			if why != c.why || ok != (c.why != "") {
				t.Errorf("FailsWhy = %q, %v; want %q", why, ok, c.why)
			}
			live := LiveFrom(g, g.Node("S"))
			after := live.Has(g.Node("True")) || live.Has(g.Node("False"))
			if !live.Has(g.Node("G")) || after == ok {
				t.Errorf("LiveFrom reaches G %v, an output %v; want true, %v", live.Has(g.Node("G")), after, !ok)
			}
		})
	}
}

// TestModelRefused: an agent whose every chat model fails on every call
// (here a Gemini model with a credential of a type it does not take)
// fails when it asks for the model, so nothing after it runs and its
// tools are not called; a second model that may answer, or a disabled
// failing one beside a working one, keeps the agent running.
func TestModelRefused(t *testing.T) {
	const bad = `{"name": "%s", "type": "@n8n/n8n-nodes-langchain.lmChatGoogleGemini", "typeVersion": 1, "position": [0, 0], "parameters": {}, "credentials": {"googleGeminiApi": {"id": "", "name": "Gemini"}}%s}`
	const good = `{"name": "%s", "type": "@n8n/n8n-nodes-langchain.lmChatGoogleGemini", "typeVersion": 1, "position": [0, 0], "parameters": {}, "credentials": {"googlePalmApi": {"id": "1", "name": "Gemini"}}}`
	for _, c := range []struct {
		name, m1, m2 string
		fails        bool
	}{
		{"the only model is refused", fmt.Sprintf(bad, "M1", ""), "", true},
		{"both models are refused", fmt.Sprintf(bad, "M1", ""), fmt.Sprintf(bad, "M2", ""), true},
		{"the fallback may answer", fmt.Sprintf(bad, "M1", ""), fmt.Sprintf(good, "M2"), false},
		{"a model that may answer", fmt.Sprintf(good, "M1"), "", false},
		// n8n asks enabled sub-nodes only: none is left (noModel).
		{"the refused model is disabled", fmt.Sprintf(bad, "M1", `, "disabled": true`), "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			nodes := `{"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
			 {"name": "A", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 2.2, "position": [0, 0], "parameters": {"promptType": "define", "text": "Summarise"}},
			 {"name": "After", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
			 ` + c.m1
			conns := `"S": {"main": [[{"node": "A", "type": "main", "index": 0}]]},
			 "A": {"main": [[{"node": "After", "type": "main", "index": 0}]]},
			 "M1": {"ai_languageModel": [[{"node": "A", "type": "ai_languageModel", "index": 0}]]}`
			if c.m2 != "" {
				nodes += ",\n" + c.m2
				conns += `, "M2": {"ai_languageModel": [[{"node": "A", "type": "ai_languageModel", "index": 1}]]}`
			}
			g := BuildGraph(parseOne(t, `{"nodes": [`+nodes+`], "connections": {`+conns+`}}`))
			why, ok := g.FailsWhy(g.Node("A"))
			if ok != c.fails || ok && !strings.HasPrefix(why, `its model "M1" fails: its credential "googleGeminiApi"`) && !strings.HasPrefix(why, "no enabled chat model") {
				t.Errorf("FailsWhy(A) = %q, %v; want fails %v", why, ok, c.fails)
			}
			if got := LiveFrom(g, g.Node("S")).Has(g.Node("After")); got == c.fails {
				t.Errorf("After runs: %v; want %v", got, !c.fails)
			}
		})
	}
}

// TestPlaceholderCode: code that is one undefined name of capitals and
// underscores, however its JSON text spells it.
func TestPlaceholderCode(t *testing.T) {
	for _, c := range []struct {
		code string // JSON text
		want bool
	}{
		{`"__PREPARE_MESSAGE_CODE__"`, true},
		{`"  __PREPARE_CODE__;\n"`, true},
		{`"\u005f_PREPARE_CODE\u005F_"`, true},
		{`"\t__A1_B__\r\n"`, true},
		{`"=__PREPARE_CODE__"`, true}, // an expression with no {{ }} is its text
		{`"={{ 1 }}__PREPARE_CODE__"`, false},
		{`"return items;"`, false},
		{`"__PREPARE_code__"`, false},
		{`"__PREPARE_\u0063ODE__"`, false},
		{`"NOUNDERSCORE"`, false},
	} {
		src := `{"nodes":[{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"parameters":{"jsCode":` + c.code + `}}],"connections":{}}`
		f := n8nschema.Parse(n8nschema.NewSource("t.json", []byte(src)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("bad test node %s", c.code)
		}
		if _, got := placeholderCode(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("placeholderCode(%s) = %v, want %v", c.code, got, c.want)
		}
	}
}

// TestNoModel: a root that requires a chat model fails on every item when
// no enabled node feeds its ai_languageModel input; a sub-node that is
// not a root (a tool) is not judged.
func TestNoModel(t *testing.T) {
	for _, c := range []struct {
		name, typ, model string
		fails            bool
	}{
		{"agent with no model", "agent", "", true},
		{"agent whose model is disabled", "agent", `, "disabled": true`, true},
		{"agent with a model", "agent", `, "disabled": false`, false},
		{"summarization chain with no model", "chainSummarization", "", true},
		{"a tool is no root", "toolCalculator", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			nodes := `{"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
			 {"name": "A", "type": "@n8n/n8n-nodes-langchain.` + c.typ + `", "typeVersion": 1, "position": [0, 0], "parameters": {"promptType": "define", "text": "Hi"}},
			 {"name": "After", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}`
			conns := `"S": {"main": [[{"node": "A", "type": "main", "index": 0}]]}, "A": {"main": [[{"node": "After", "type": "main", "index": 0}]]}`
			if c.model != "" {
				nodes += `, {"name": "M", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1, "position": [0, 0], "parameters": {}` + c.model + `}`
				conns += `, "M": {"ai_languageModel": [[{"node": "A", "type": "ai_languageModel", "index": 0}]]}`
			}
			g := BuildGraph(parseOne(t, `{"nodes": [`+nodes+`], "connections": {`+conns+`}}`))
			why, ok := g.FailsWhy(g.Node("A"))
			if ok != c.fails || ok && !strings.Contains(why, "A Chat Model sub-node must be connected and enabled") {
				t.Errorf("FailsWhy(A) = %q, %v; want fails %v", why, ok, c.fails)
			}
		})
	}
}

// TestEmbedderRefused: embeddings the provider shut down fail the vector
// store that calls them when it runs (insert, load, update, as a tool),
// not a store at mode retrieve, which only hands itself on; the agent a
// tool fails under goes on (n8n hands it the error), and a Question and
// Answer chain behind a Vector Store Retriever fails.
func TestEmbedderRefused(t *testing.T) {
	const retired = `{"name": "E", "type": "@n8n/n8n-nodes-langchain.embeddingsGoogleGemini", "typeVersion": 1, "position": [0, 0], "parameters": {"modelName": "models/text-embedding-004"}`
	src := func(storeType, params, embedder string) string {
		return `{"nodes": [
		 {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0], "parameters": {}},
		 {"name": "A", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 2, "position": [0, 0], "parameters": {"promptType": "define", "text": "hi"}},
		 {"name": "M", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "position": [0, 0], "parameters": {"model": "gpt-4o-mini"}},
		 {"name": "VS", "type": "@n8n/n8n-nodes-langchain.` + storeType + `", "typeVersion": 1.1, "position": [0, 0], "parameters": {` + params + `}},
		 ` + embedder + `}],
		 "connections": {
		  "T": {"main": [[{"node": "VS", "type": "main", "index": 0}, {"node": "A", "type": "main", "index": 0}]]},
		  "M": {"ai_languageModel": [[{"node": "A", "type": "ai_languageModel", "index": 0}]]},
		  "VS": {"ai_tool": [[{"node": "A", "type": "ai_tool", "index": 0}]]},
		  "E": {"ai_embedding": [[{"node": "VS", "type": "ai_embedding", "index": 0}]]}}}`
	}
	for _, c := range []struct {
		name           string
		src            string
		store, agentOK bool
	}{
		{"insert", src("vectorStoreQdrant", `"mode": "insert"`, retired), true, true},
		{"load", src("vectorStoreQdrant", `"mode": "load"`, retired), true, true},
		{"update", src("vectorStoreQdrant", `"mode": "update"`, retired), true, true},
		{"retrieve as a tool", src("vectorStoreQdrant", `"mode": "retrieve-as-tool"`, retired), true, true},
		{"a legacy insert node", src("vectorStorePineconeInsert", ``, retired), true, true},
		{"retrieve, the default", src("vectorStoreQdrant", ``, retired), false, true},
		{"a legacy load node", src("vectorStorePineconeLoad", ``, retired), false, true},
		{"a mode from an expression", src("vectorStoreQdrant", `"mode": "={{ 'insert' }}"`, retired), false, true},
		{"a live model", src("vectorStoreQdrant", `"mode": "insert"`, strings.Replace(retired, "text-embedding-004", "gemini-embedding-001", 1)), false, true},
		{"a disabled embedder", src("vectorStoreQdrant", `"mode": "insert"`, strings.Replace(retired, `"position"`, `"disabled": true, "position"`, 1)), false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := BuildGraph(parseOne(t, c.src))
			why, fails := g.FailsWhy(g.Node("VS"))
			if fails != c.store {
				t.Errorf("store fails %v (%q), want %v", fails, why, c.store)
			}
			if fails && !strings.Contains(why, `its embeddings "E" fails: it calls the model "text-embedding-004"`) {
				t.Errorf("why = %q", why)
			}
			if _, agentFails := g.FailsWhy(g.Node("A")); agentFails == c.agentOK {
				t.Errorf("agent fails %v", agentFails)
			}
			if emb, ok := g.RefusedEmbedder(g.Node("VS")); ok != c.store || ok && emb.Name != "E" {
				t.Errorf("RefusedEmbedder = %v, %v", emb, ok)
			}
		})
	}
}
