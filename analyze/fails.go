package analyze

import (
	"encoding/json"
	"math/bits"
	"strconv"
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// What n8n fails on every item as the workflow is exported, found from
// the workflow's own data (failing marks the nodes; dead and rootFlags
// read the marks).

const langchain = "@n8n/n8n-nodes-langchain."

// failsFirst reports a root node that fails on every item before it asks
// any of its sub-nodes for a call, and why:
//
//   - an AI Agent or chain with no enabled chat model connected (noModel);
//   - an AI Agent or chain left on the default prompt source, "auto", fed
//     only by nodes whose items carry no chatInput (noPrompt);
//   - an Information Extractor, Text Classifier, or an agent or chain at
//     promptType "define", whose text is a field of the answer of a file
//     response it is fed (filePrompt, fileText);
//   - an AI Agent whose memory takes the session ID from items that
//     carry none (noSession), or from its Key, which is empty (emptyKey);
//   - a vector store, Vector Store Tool or Question and Answer chain
//     whose searches or writes go through embeddings the provider refuses
//     (embedderRefused);
//   - a Question and Answer chain whose ai_retriever input is a vector
//     store, not a retriever (vectorStoreAsRetriever);
//   - a Code or Function node whose code is a placeholder name
//     (placeholderCode), or a Python Code node that reads a global n8n 2
//     does not define (pythonGlobals) or cannot compile for a block left
//     unindented (pythonIndentation), which have no sub-nodes to ask;
//   - a node that reads a binary field its items cannot carry
//     (missingBinary), before it sends anything;
//   - a Function, Function Item or JavaScript Code node that reads
//     $credentials, which no sandbox defines (credentialsRead);
//   - a JavaScript Code node that calls $env as a function (envCall), or
//     a Merge that combines by matching fields and names none
//     (mergeNoFields): both throw before they return an item;
//   - a JavaScript Code node that reads a field of the answer from the
//     error items an HTTP Request that fails on every item and continues
//     hands on (errorItemRead);
//   - a JavaScript Code, Function or Function Item node fed only by
//     triggers whose fixed item lacks a field its code surely reads a
//     member of (triggerFieldThrow);
//   - an HTTP Request whose URL host, or a Gmail send whose To, reads a
//     body field off an app trigger's items, which have none
//     (bodylessFails).
//
// Each check but modelRefused, which reads the node's inputs, answers no
// at its test of the node's type, and most nodes are of types none judges:
// each check names the types it can judge (judges), a node's type is
// read once into the set of checks that judge it (failPlan, kept in the
// type's facts), and a node is asked only those, in their order
// (TestFailPlan asks every check of every node and compares).
func (g *Graph) failsFirst(i int) (string, bool) {
	for m := g.types[i].fails; m != 0; m &= m - 1 {
		if why, ok := failChecks[bits.TrailingZeros32(m)].check(g, i); ok {
			return why, true
		}
	}
	return "", false
}

// failPlan is the set of failChecks (bit k for failChecks[k]) that may
// judge a node of type typ: failsFirst asks a node only those.
func failPlan(typ string) uint32 {
	var m uint32
	for k, c := range failChecks {
		if c.judges(typ) {
			m |= 1 << k
		}
	}
	return m
}

// The types failChecks' checks judge, each the test of the type the
// check itself makes first: any other type it answers no.
func anyType(string) bool       { return true }
func codeType(typ string) bool  { return n8nschema.IsCode(typ) }
func jsType(typ string) bool    { return typ == n8nschema.TypeCode } // jsCode's, pythonGlobals', pythonIndentation's
func agentType(typ string) bool { return typ == n8nschema.TypeAgent }
func funcType(typ string) bool {
	return typ == n8nschema.TypeFunction || typ == n8nschema.TypeFunctionItem || typ == n8nschema.TypeCode
}

// failChecks are failsFirst's checks in the order it asks them, each with
// the test of the types it can judge (failPlan). At most 32.
var failChecks = [...]struct {
	judges func(typ string) bool
	check  func(g *Graph, i int) (string, bool)
}{
	{funcType, func(g *Graph, i int) (string, bool) { return placeholderCode(g.Nodes[i]) }},
	{jsType, func(g *Graph, i int) (string, bool) { return envCall(g.Nodes[i]) }},
	{funcType, func(g *Graph, i int) (string, bool) { return credentialsRead(g.Nodes[i]) }},
	{jsType, (*Graph).errorItemRead},
	{codeType, (*Graph).triggerFieldThrow},
	{func(typ string) bool { return typ == "n8n-nodes-base.merge" }, func(g *Graph, i int) (string, bool) { return mergeNoFields(g.Nodes[i]) }},
	{binaryType, (*Graph).missingBinary},
	{func(typ string) bool { name, ok := strings.CutPrefix(typ, langchain); return ok && modelRoots[name] }, (*Graph).noModel},
	{jsType, func(g *Graph, i int) (string, bool) { return pythonGlobals(g.Nodes[i], g.ver) }},
	{jsType, func(g *Graph, i int) (string, bool) { return pythonIndentation(g.Nodes[i]) }},
	{promptType, (*Graph).noPrompt},
	{fileTextType, (*Graph).fileText},
	{anyType, (*Graph).modelRefused},
	{embedderType, (*Graph).embeddingRefused},
	{agentType, (*Graph).noSession},
	{agentType, (*Graph).emptyKey},
	{bodylessType, (*Graph).bodylessFails},
	{func(typ string) bool { return typ == langchain+"chainRetrievalQa" }, (*Graph).vectorStoreAsRetriever},
}

// modelRoots are the root nodes whose ai_languageModel input is required
// at every version: the AI Agent (agents/Agent/V1/AgentV1.node.js
// getInputs, required for the model of every agent type; V2/utils.js,
// V3), the Basic LLM Chain (chains/ChainLLM/methods/config.js), the
// Summarization chain, Text Classifier, Information Extractor, Sentiment
// Analysis and Question and Answer chain (their *.node.js inputs). Each
// asks for its model before it reads a prompt or calls a tool
// (ToolsAgent/V1/execute.js L25, V2/execute.js L173 getChatModel;
// ChainLLM/methods/processItem.js L13; ChainRetrievalQA/processItem.js
// L13; TextClassifier L172, SentimentAnalysis L140, InformationExtractor
// L214, ChainSummarizationV1 L150).
var modelRoots = map[string]bool{
	"agent": true, "chainLlm": true, "chainSummarization": true, "textClassifier": true,
	"informationExtractor": true, "sentimentAnalysis": true, "chainRetrievalQa": true,
}

// noModel judges a root of modelRoots with no enabled node on its
// ai_languageModel input: getInputConnectionData keeps the enabled
// parents only (n8n-core node-execution-context.js getConnectedNodes) and
// validateInputConfiguration throws "A Chat Model sub-node must be
// connected and enabled" (get-input-connection-data.js L215-230), on
// every item, so its tools, memory and other sub-nodes are never called.
func (g *Graph) noModel(i int) (string, bool) {
	nd := g.Nodes[i]
	name, ok := strings.CutPrefix(nd.Type, langchain)
	if !ok || !modelRoots[name] {
		return "", false
	}
	for _, e := range g.ins(i) {
		if e.Type == ConnModel && !e.From.Disabled {
			return "", false
		}
	}
	return "no enabled chat model is connected to it: n8n stops at \"A Chat Model sub-node must be connected and enabled\" before any call", true
}

// modelRefused judges a root node whose every chat model fails on every
// call (n8nschema.RefusedCall with Fails: a credential of a type the
// model node does not take, say). The root asks its model sub-node for
// the model when it runs (getInputConnectionData, n8n-core
// execution-engine/node-execution-context/utils/get-input-connection-data.js),
// the sub-node's supplyData throws, and the root fails with that error
// before any call. A disabled model, or one that may answer, is not judged.
func (g *Graph) modelRefused(i int) (string, bool) {
	_, why, ok := g.subRefused(i, ConnModel)
	if !ok {
		return "", false
	}
	return "its model " + why, true
}

// subRefused reports a node whose every sub-node on input conn is enabled
// and refused on every call (RefusedCall with Fails), the first of them,
// and "NAME fails: WHY".
func (g *Graph) subRefused(i int, conn string) (int, string, bool) {
	first, why := -1, ""
	for _, e := range g.ins(i) {
		if e.Type != conn {
			continue
		}
		r, ok := g.refused(int(e.from))
		if e.From.Disabled || !ok || !r.Fails {
			return -1, "", false
		}
		if first < 0 {
			first, why = int(e.from), strconv.Quote(e.From.Name)+" fails: "+r.Why
		}
	}
	return first, why, first >= 0
}

// embedderRefused judges a node whose every search or write goes through
// an embeddings sub-node the provider refuses on every call (a model it
// shut down, RetiredModelCall), and returns that sub-node. The embeddings
// node's supplyData only builds the client; the calls fail
// (@n8n/ai-utilities/dist/cjs/utils/log-wrapper.js L17-35, L161-196:
// embedDocuments and embedQuery rethrow the provider's error as a
// NodeOperationError). Which nodes fail with it, by how n8n runs them:
//
//   - a vector store at mode insert, load or update, or a legacy *Insert
//     node: execute asks for the embeddings and, per item, calls
//     embedQuery (load) or the store's addDocuments, which embeds first
//     (insert, update), before it searches or writes; the error is
//     rethrown (createVectorStoreNode.js L373-407, operations/loadOperation.js
//     L17, insertOperation.js L18-34, updateOperation.js; the legacy
//     VectorStorePineconeInsert.node.js L88-105 fromDocuments);
//   - a vector store at mode retrieve-as-tool: the agent runs it as a tool
//     (execute, retrieveAsToolExecuteOperation.js) and the tool fails on
//     every call; n8n hands the error to the agent as the tool's answer
//     unless the tool's onError is stopWorkflow (n8n-core
//     workflow-execute.js L1068-1079; n8n-nodes-langchain
//     utils/agent-execution/buildSteps.js L115-127), so the agent goes on
//     and only the tool is marked;
//   - a Vector Store Tool, or a Vector Store Retriever, fed by a vector
//     store at mode retrieve (or a legacy *Load node) whose embeddings are
//     so refused: the store's search calls embedQuery when the tool or
//     the retriever's chain asks it (retrieveOperation.js: the store is
//     handed over as it is);
//   - a Question and Answer chain whose retriever is such a Vector Store
//     Retriever: createRetrievalChain asks the retriever before the model,
//     and the chain rethrows unless it continues on fail
//     (chains/ChainRetrievalQA/ChainRetrievalQa.node.js L181-240).
//
// A store at mode retrieve is not judged itself: it only hands the store
// on, and its consumer fails.
func (g *Graph) embedderRefused(i int, depth int) (int, string, bool) {
	nd := g.Nodes[i]
	name, ok := strings.CutPrefix(nd.Type, langchain)
	if !ok || depth > 3 {
		return -1, "", false
	}
	via := func(conn, from string) (int, string, bool) {
		for _, e := range g.ins(i) {
			if e.Type != conn || e.From.Disabled {
				continue
			}
			if from != "" && e.From.Type != from {
				return -1, "", false // a store wired straight in: vectorStoreAsRetriever
			}
			if k, why, ok := g.embedderRefused(int(e.from), depth+1); ok {
				return k, strconv.Quote(e.From.Name) + " fails: " + why, true
			}
			return -1, "", false
		}
		return -1, "", false
	}
	switch {
	case name == "toolVectorStore" || name == "retrieverVectorStore":
		return via(ConnVectorStore, "")
	case name == "chainRetrievalQa":
		return via(ConnRetriever, langchain+"retrieverVectorStore")
	case !strings.HasPrefix(name, "vectorStore"):
		return -1, "", false
	}
	if depth > 0 && !suppliesVectorStore(nd) {
		return -1, "", false // a consumer asks only a store at mode retrieve
	}
	if depth == 0 && !storeCallsEmbedder(nd) {
		return -1, "", false
	}
	k, why, ok := g.subRefused(i, ConnEmbedder)
	if !ok {
		return -1, "", false
	}
	return k, "its embeddings " + why, true
}

// embedderType reports a type embedderRefused judges (at depth 0).
func embedderType(typ string) bool {
	name, ok := strings.CutPrefix(typ, langchain)
	return ok && (name == "toolVectorStore" || name == "retrieverVectorStore" || name == "chainRetrievalQa" || strings.HasPrefix(name, "vectorStore"))
}

// storeCallsEmbedder reports a vector store that embeds when it runs
// itself: a legacy *Insert node, or a store at mode insert, load, update
// or retrieve-as-tool (not retrieve, the default, nor an expression).
func storeCallsEmbedder(nd *n8nschema.Node) bool {
	name := strings.TrimPrefix(nd.Type, langchain+"vectorStore")
	if strings.HasSuffix(name, "Insert") {
		return true
	}
	if strings.HasSuffix(name, "Load") {
		return false
	}
	m, ok := nd.Param("mode")
	if !ok || m.Kind() != n8nschema.String || m.IsExpr() {
		return false
	}
	switch m.Str() {
	case "insert", "load", "update", "retrieve-as-tool":
		return true
	}
	return false
}

// embeddingRefused is embedderRefused as failsFirst reads it.
func (g *Graph) embeddingRefused(i int) (string, bool) {
	_, why, ok := g.embedderRefused(i, 0)
	return why, ok
}

// RefusedEmbedder reports the embeddings sub-node whose refused calls make
// n fail (embedderRefused).
func (g *Graph) RefusedEmbedder(n *n8nschema.Node) (*n8nschema.Node, bool) {
	i, ok := g.index(n)
	if !ok {
		return nil, false
	}
	k, _, ok := g.embedderRefused(i, 0)
	if !ok {
		return nil, false
	}
	return g.Nodes[k], true
}

// noPrompt judges a node that reads its prompt with getPromptInputByType
// (@n8n/n8n-nodes-langchain/dist/utils/helpers.js): at promptType "auto"
// it reads {{ $json["chatInput"] }} and throws "No prompt specified" when
// the item has none, before the model is called. promptType defaults to
// "auto" (utils/descriptions.js promptTypeOptions and
// promptTypeOptionsDeprecated) at the versions that read it:
//
//   - the AI Agent from v1.3 (earlier ones read "text"; agents/Agent/agents/*/execute.js),
//     except the SQL agent, which hides promptType (V1/AgentV1.node.js), and
//     the OpenAI Functions agent, which reads "text"; the agent type
//     defaults to conversationalAgent up to v1.5, toolsAgent after;
//   - the Basic LLM Chain from v1.4 (chains/ChainLLM/methods/processItem.js);
//   - the Question and Answer chain from v1.3 (chains/ChainRetrievalQA/processItem.js).
//
// Only items that certainly carry no chatInput are judged (fieldFree).
func (g *Graph) noPrompt(i int) (string, bool) {
	nd := g.Nodes[i]
	v := nd.TypeVersion
	switch promptName(nd.Type) {
	case "agent":
		if v < 1.3 {
			return "", false
		}
		if v < 2 {
			agent := "toolsAgent"
			if v <= 1.5 {
				agent = "conversationalAgent"
			}
			if a, ok := nd.Param("agent"); ok {
				if a.Kind() != n8nschema.String || a.IsExpr() {
					return "", false
				}
				agent = a.Str()
			}
			switch agent {
			case "toolsAgent", "conversationalAgent", "reActAgent", "planAndExecuteAgent":
			default:
				return "", false
			}
		}
	case "chainLlm":
		if v < 1.4 {
			return "", false
		}
	case "chainRetrievalQa":
		if v < 1.3 {
			return "", false
		}
	default:
		return "", false
	}
	if p, ok := nd.Param("promptType"); ok && (p.Kind() != n8nschema.String || p.IsExpr() || p.Str() != "auto") {
		if p.Kind() == n8nschema.String && !p.IsExpr() && p.Str() == "define" {
			if why, ok := g.webhookPrompt(i); ok {
				return why, true
			}
			return g.filePrompt(i)
		}
		return "", false
	}
	if !g.everyMainInput(i, func(e *Edge) bool { return !e.Error && g.fieldFree(int(e.from), "chatInput") }) {
		return "", false
	}
	return "it reads its prompt from the chatInput field (promptType \"auto\"), which the items it is fed do not have: n8n stops at \"No prompt specified\"", true
}

// promptName is the name noPrompt tests a node's type by.
func promptName(typ string) string { return strings.TrimPrefix(typ, langchain) }

// promptType reports a type noPrompt judges.
func promptType(typ string) bool {
	switch promptName(typ) {
	case "agent", "chainLlm", "chainRetrievalQa":
		return true
	}
	return false
}

// maxFeedDepth bounds how far back through pass-through nodes fieldFree
// looks.
const maxFeedDepth = 8

// fieldFree reports a node whose every output item certainly has no
// top-level field named field (chatInput, sessionId):
//
//   - a Schedule Trigger or Cron ({timestamp, ...}), a Manual Trigger
//     ({}), a Webhook ({headers, params, query, body, ...}: Webhook.node.js),
//     a Telegram Trigger (the update Telegram posts, {update_id, message, ...}:
//     Telegram/TelegramTrigger.node.js), a WhatsApp Trigger (each change's
//     value Meta signs and posts, {messaging_product, metadata, contacts,
//     messages, ..., field}: WhatsApp/WhatsAppTrigger.node.js L235-253;
//     not the Gmail Trigger, whose simple items take every mail header's
//     name as a key: Google/Gmail/GenericFunctions.js L383-388);
//   - an Edit Fields (Set) node v3 or later in manual mode that sets no
//     such field and keeps no input field (includeOtherFields false, the
//     default from v3.3; include "none" before: nodes/Set/v2/SetV2.node.js),
//     or that keeps them and is fed only by such nodes;
//   - an If, Switch, Filter or No Operation node fed only by such nodes:
//     each passes its input items on unchanged;
//   - a JavaScript Code node whose every return hands back new items,
//     [{ json: { ... } }] written out, with no spread, Object.assign or
//     field of that name anywhere in the code, or one fed only by such
//     nodes that spreads only its input items' whole JSON into the items
//     it writes out (codeItems).
//   - an AI Agent: every agent type returns its executor's answer
//     ({output, intermediateSteps}, the inputs it was given, {input, ...},
//     left out or kept under their own names) or {error} on a failure it
//     continues after, never a field of the item it read (ToolsAgent/V1/
//     execute.js L78, V2/execute.js L279, V3/helpers/finalizeResult.js L19;
//     ConversationalAgent, ReActAgent, PlanAndExecuteAgent and SqlAgent
//     execute.js push the executor's response; n8n 2.41.1).
//
// field is chatInput or sessionId, each with its table (feedTable).
func (g *Graph) fieldFree(i int, field string) bool {
	m := &g.noChatInput
	if field == "sessionId" {
		m = &g.noSessionID
	} else if field != "chatInput" {
		panic("fieldFree: no table for " + field)
	}
	return m.table(g, func(nd *n8nschema.Node) (leaf, passes bool) {
		switch nd.Type {
		case "n8n-nodes-base.scheduleTrigger", "n8n-nodes-base.cron", "n8n-nodes-base.manualTrigger", "n8n-nodes-base.webhook", n8nschema.TypeTelegramTrigger, "n8n-nodes-base.whatsAppTrigger":
			return !nd.Disabled, false
		case n8nschema.TypeSet:
			keeps, ok := setFields(nd, field)
			return ok, ok && keeps
		case n8nschema.TypeIf, n8nschema.TypeSwitch, n8nschema.TypeFilter, n8nschema.TypeNoOp:
			return false, !nd.Disabled
		case n8nschema.TypeCode:
			if nd.Disabled {
				return false, false
			}
			return codeItems(nd, field)
		case langchain + "agent":
			return !nd.Disabled, false
		}
		return false, false
	})[i]
}

// A feedMemo holds a table of feedTable, made once.
type feedMemo struct {
	once   sync.Once
	at     []bool
	judged int // passing nodes judged, counted once per level (tests bound it)
}

// table returns m's table, made with judge on first need.
func (m *feedMemo) table(g *Graph, judge func(nd *n8nschema.Node) (leaf, passes bool)) []bool {
	m.once.Do(func() { m.at, m.judged = g.feedTable(judge) })
	return m.at
}

// feedTable marks the nodes whose every output item is of a kind judge
// knows: a node judge takes outright (leaf), or one that passes its
// input items on (passes) and is fed only by marked nodes, at most
// maxFeedDepth such nodes back. It is made level by level from the
// deepest up, each node judged once a level, so that every agent of the
// graph reads it and many agents behind one wide fan-in stay linear (a
// walk back from each grew with their square). A cycle of passing nodes
// runs into the bound and proves nothing.
func (g *Graph) feedTable(judge func(nd *n8nschema.Node) (leaf, passes bool)) (at []bool, judged int) {
	leaf, passes := make([]bool, len(g.Nodes)), make([]bool, len(g.Nodes))
	for i, nd := range g.Nodes {
		leaf[i], passes[i] = judge(nd)
	}
	for d := maxFeedDepth; d >= 0; d-- {
		deeper := at
		at = make([]bool, len(g.Nodes))
		for i := range g.Nodes {
			if !passes[i] {
				at[i] = leaf[i]
				continue
			}
			judged++
			at[i] = d < maxFeedDepth && g.everyMainInput(i, func(e *Edge) bool { return !e.Error && deeper[e.from] })
		}
	}
	return at, judged
}

// SetKeepsField reports an enabled Set node v3+ that hands on its input's
// fields and sets none whose name starts with field: an item's field
// passes it unchanged.
func SetKeepsField(nd *n8nschema.Node, field string) bool {
	keeps, ok := setFields(nd, field)
	return ok && keeps
}

// setFields reads an enabled Set node v3+ in manual mode: ok when none of
// the fields it sets is field (nor one whose name is an expression), and
// whether it keeps its input fields.
func setFields(nd *n8nschema.Node, field string) (keeps, ok bool) {
	if nd.Disabled || nd.TypeVersion < 3 {
		return false, false
	}
	if m, has := nd.Param("mode"); has && (m.Kind() != n8nschema.String || m.Str() != "manual") {
		if m.Kind() != n8nschema.String || m.Str() != "raw" || nd.TypeVersion < 3.3 || !rawSetsNo(nd, field) {
			return false, false
		}
		// Raw mode (JSON): the fields are the keys of its literal object.
		inc, has := nd.Param("includeOtherFields")
		if has && inc.Kind() != n8nschema.Bool {
			return false, false
		}
		return inc.True(), true
	}
	list := "fields.values"
	if nd.TypeVersion >= 3.3 {
		list = "assignments.assignments"
	}
	if fs, has := nd.Param(list); has {
		if fs.Kind() != n8nschema.Array {
			return false, false
		}
		for _, f := range fs.ElemsSeq() {
			name := f.Get("name")
			if name.Kind() != n8nschema.String || name.IsExpr() || strings.HasPrefix(name.Str(), field) {
				return false, false
			}
		}
	}
	if nd.TypeVersion >= 3.3 {
		inc, has := nd.Param("includeOtherFields")
		if has && inc.Kind() != n8nschema.Bool {
			return false, false
		}
		return inc.True(), true
	}
	inc, has := nd.Param("include")
	if !has {
		return true, true // "all" by default
	}
	if inc.Kind() != n8nschema.String || inc.IsExpr() {
		return false, false
	}
	return inc.Str() != "none", true
}

// rawSetsNo reports a Set node in raw mode whose JSON output is a literal
// object (no expression) with no top-level key that starts with field:
// the node's item holds only those keys, and its input's fields when
// includeOtherFields is on (nodes-base Set/v2/raw.mode.js,
// Set/v2/helpers/utils.js composeReturnItem).
func rawSetsNo(nd *n8nschema.Node, field string) bool {
	v, ok := nd.Param("jsonOutput")
	if !ok || v.Kind() != n8nschema.String || v.IsExpr() || strings.Contains(v.Str(), "{{") {
		return false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(v.Str()), &obj) != nil {
		return false
	}
	for k := range obj {
		if strings.HasPrefix(k, field) {
			return false
		}
	}
	return true
}

// sessionMemories are the memory nodes that take their session ID from
// getSessionId (@n8n/n8n-nodes-langchain/dist/utils/helpers.js), from the
// version given (earlier ones read a sessionKey parameter: e.g.
// nodes/memory/MemoryBufferWindow/MemoryBufferWindow.node.js supplyData).
var sessionMemories = map[string]float64{
	"memoryBufferWindow": 1.2, "memoryRedisChat": 1.2, "memoryXata": 1.2, "memoryZep": 1.2,
	"memoryMotorhead": 1.2, "memoryPostgresChat": 0, "memoryMongoDbChat": 0,
}

// agentMemory returns the one enabled memory of an AI Agent that asks for
// it before its first model call (ToolsAgent V1 execute.js L25–26, V2
// execute.js L172, V3 helpers/buildExecutionContext.js L15,
// ConversationalAgent execute.js L20), of a type that reads getSessionId
// at its version (sessionMemories). With Session ID "Connected Chat
// Trigger Node" (sessionIdType "fromInput", the default:
// nodes/memory/descriptions.js sessionIdOption; sessionMemory) getSessionId
// then reads {{ $json.sessionId }} of the agent's input item, failing that
// the sessionId of the workflow's Chat Trigger when it ran in this
// execution, and throws "No session ID found" otherwise; the agent fails
// with "Error in sub-node" (get-input-connection-data.js L304–325).
func (g *Graph) agentMemory(i int) (*n8nschema.Node, bool) {
	nd := g.Nodes[i]
	if nd.Type != n8nschema.TypeAgent || nd.Disabled {
		return nil, false
	}
	if v := nd.TypeVersion; v < 2 {
		agent := "toolsAgent"
		if v <= 1.5 {
			agent = "conversationalAgent"
		}
		if a, ok := nd.Param("agent"); ok {
			if a.Kind() != n8nschema.String || a.IsExpr() {
				return nil, false
			}
			agent = a.Str()
		}
		if agent != "toolsAgent" && agent != "conversationalAgent" {
			return nil, false
		}
	}
	var mem *n8nschema.Node
	for _, e := range g.ins(i) {
		if e.Type != ConnMemory || e.From.Disabled {
			continue
		}
		if mem != nil {
			return nil, false
		}
		mem = e.From
	}
	if mem == nil {
		return nil, false
	}
	from, ok := sessionMemories[strings.TrimPrefix(mem.Type, langchain)]
	if !ok || !strings.HasPrefix(mem.Type, langchain) || mem.TypeVersion < from {
		return nil, false
	}
	return mem, true
}

// sessionMemory returns the memory of an AI Agent that asks for it before
// its first model call (agentMemory) when that memory takes the session
// ID from the input: Session ID "Connected Chat Trigger Node"
// (sessionIdType "fromInput", the default).
func (g *Graph) sessionMemory(i int) (*n8nschema.Node, bool) {
	mem, ok := g.agentMemory(i)
	if !ok {
		return nil, false
	}
	if s, has := mem.Param("sessionIdType"); has && (s.Kind() != n8nschema.String || s.IsExpr() || s.Str() != "fromInput") {
		return nil, false
	}
	return mem, true
}

// emptyKey judges an AI Agent whose memory (agentMemory) takes its
// session ID from its Key, which is empty. getSessionId
// (@n8n/n8n-nodes-langchain/dist/utils/helpers.js L85-121) reads
// sessionIdType; any value but "fromInput" reads sessionKey, and an empty
// one throws "Key parameter is empty" (L115-120). The options value is
// not checked against its list (n8n-core validate-value-against-schema.js),
// so an expression that yields a session id lands there too. Decided:
// sessionIdType a literal other than "fromInput", or an expression that
// does not name "fromInput" (it yields data, not that option); and a Key
// stored as "" or, under a literal sessionIdType, absent (the "Define
// below" Key defaults to "", and getNodeParameter's fallback is "";
// nodes/memory/descriptions.js sessionKeyProperty L39-50). A Key set by an
// expression may be empty only at run time: not judged.
func (g *Graph) emptyKey(i int) (string, bool) {
	mem, ok := g.agentMemory(i)
	if !ok {
		return "", false
	}
	s, has := mem.Param("sessionIdType")
	if !has || s.Kind() != n8nschema.String || s.Str() == "fromInput" || s.IsExpr() && strings.Contains(s.Str(), "fromInput") {
		return "", false
	}
	k, set := mem.Param("sessionKey")
	switch {
	case !set && !s.IsExpr():
	case set && k.Kind() == n8nschema.String && k.Str() == "":
	default:
		return "", false
	}
	how := "Session ID is " + strconv.Quote(s.Str())
	if s.IsExpr() {
		how = "Session ID is set by an expression that does not name \"fromInput\", so it yields data"
	}
	return "its memory " + strconv.Quote(mem.Name) + " reads the session ID from its Key (" + how + "), and the Key is empty: n8n stops at \"Key parameter is empty\" before any model call", true
}

// EmptyKeyMemory returns the memory of an AI Agent that fails on its
// empty Key (emptyKey), for the repair.
func (g *Graph) EmptyKeyMemory(n *n8nschema.Node) (*n8nschema.Node, bool) {
	i, ok := g.index(n)
	if !ok {
		return nil, false
	}
	if _, empty := g.emptyKey(i); !empty {
		return nil, false
	}
	return g.agentMemory(i)
}

// sessionless reports a main edge into agent i whose items certainly
// carry no sessionId (fieldFree) in a run no Chat Trigger started: no
// enabled Chat Trigger reaches the edge's source. n8n evaluates
// $('Chat Trigger') only for a node that ran in this execution.
func (g *Graph) sessionless(e *Edge) bool {
	if e.Type != ConnMain || e.Error || !g.fieldFree(int(e.from), "sessionId") {
		return false
	}
	return !g.chatReached()[e.from]
}

// chatReached marks the nodes an enabled Chat Trigger reaches along main
// connections (any output), built on first need.
func (g *Graph) chatReached() []bool {
	if g.chatReach != nil {
		return g.chatReach
	}
	g.chatReach = make([]bool, len(g.Nodes))
	var queue []int
	for i, nd := range g.Nodes {
		if nd.Type == n8nschema.TypeChatTrigger && !nd.Disabled {
			g.chatReach[i] = true
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, e := range g.outs(i) {
			if e.Type == ConnMain && !g.chatReach[e.to] {
				g.chatReach[e.to] = true
				queue = append(queue, int(e.to))
			}
		}
	}
	return g.chatReach
}

// noSession judges an AI Agent whose memory takes the session ID from the
// input (sessionMemory) and whose every main input is sessionless: it
// fails on every item before its first model call.
func (g *Graph) noSession(i int) (string, bool) {
	mem, ok := g.sessionMemory(i)
	if !ok {
		return "", false
	}
	if !g.everyMainInput(i, func(e *Edge) bool { return g.sessionless(e) }) {
		return "", false
	}
	return sessionWhy(mem), true
}

// everyMainInput reports whether node i has a main input and ok holds for
// each: what noPrompt and noSession ask of the items an agent is fed.
func (g *Graph) everyMainInput(i int, ok func(e *Edge) bool) bool {
	fed := false
	for _, e := range g.ins(i) {
		if e.Type != ConnMain {
			continue
		}
		if !ok(e) {
			return false
		}
		fed = true
	}
	return fed
}

// sessionWhy says why an agent fails at its memory mem.
func sessionWhy(mem *n8nschema.Node) string {
	return "its memory " + strconv.Quote(mem.Name) + " reads the session ID from the sessionId field (Session ID \"Connected Chat Trigger Node\"), which the items it is fed do not have, and no Chat Trigger ran before it: n8n stops at \"No session ID found\" before any model call"
}

// sessionEdges marks the sessionless main edges into an AI Agent that
// has others (noSession judges one that has no other): the agent fails on
// their items, and the execution stops there.
func (g *Graph) sessionEdges(i int) {
	if _, ok := g.sessionMemory(i); !ok {
		return
	}
	for _, e := range g.ins(i) {
		if g.sessionless(e) {
			if g.noSess == nil {
				g.noSess = map[*Edge]bool{}
			}
			g.noSess[e] = true
		}
	}
}

// SessionMemory returns the memory of an AI Agent that takes the session
// ID from its input items (sessionMemory), for the repair.
func (g *Graph) SessionMemory(n *n8nschema.Node) (*n8nschema.Node, bool) {
	i, ok := g.index(n)
	if !ok {
		return nil, false
	}
	return g.sessionMemory(i)
}

// SessionlessFrom reports, for an AI Agent that fails on some of its
// inputs only (sessionMemory; sessionless edges, which carry no item on:
// dead), the nodes those items come from and why the agent fails on them.
func (g *Graph) SessionlessFrom(n *n8nschema.Node) ([]*n8nschema.Node, string) {
	i, ok := g.index(n)
	if !ok || g.noSess == nil {
		return nil, ""
	}
	var from []*n8nschema.Node
	for _, e := range g.ins(i) {
		if g.noSess[e] {
			from = append(from, e.From)
		}
	}
	if len(from) == 0 {
		return nil, ""
	}
	mem, _ := g.sessionMemory(i)
	return from, sessionWhy(mem)
}

// vectorStoreAsRetriever judges a Question and Answer chain
// (chainRetrievalQa) whose ai_retriever input is wired straight from a
// vector store node that supplies a vector store: one in mode "retrieve"
// (the default: @n8n/ai-utilities createVectorStoreNode.js, whose
// supplyData returns the store itself, retrieveOperation.js) or a legacy
// "...Load" node (its only output is ai_vectorStore). n8n does not check
// the type of what a sub-node supplies (get-input-connection-data.js);
// processItem.js hands it to @langchain/classic createRetrievalChain,
// which takes anything without invoke for a runnable and calls its
// withConfig while building the chain: "retrieveDocumentsChain.withConfig
// is not a function", before any search or model call. A Vector Store
// Retriever node in between supplies a retriever.
func (g *Graph) vectorStoreAsRetriever(i int) (string, bool) {
	if g.Nodes[i].Type != langchain+"chainRetrievalQa" {
		return "", false
	}
	from := ""
	for _, e := range g.ins(i) {
		if e.Type != ConnRetriever {
			continue
		}
		if from != "" || !suppliesVectorStore(e.From) {
			return "", false
		}
		from = e.From.Name
	}
	if from == "" {
		return "", false
	}
	return "its retriever input is the vector store \"" + from + "\", not a retriever: LangChain's createRetrievalChain stops at \"retrieveDocumentsChain.withConfig is not a function\"", true
}

// suppliesVectorStore reports an enabled vector store node whose output
// is a vector store (ai_vectorStore).
func suppliesVectorStore(nd *n8nschema.Node) bool {
	name, ok := strings.CutPrefix(nd.Type, langchain+"vectorStore")
	if !ok || name == "" || nd.Disabled || strings.HasSuffix(name, "Insert") {
		return false
	}
	if strings.HasSuffix(name, "Load") {
		return true
	}
	m, has := nd.Param("mode")
	return !has || m.Kind() == n8nschema.String && !m.IsExpr() && m.Str() == "retrieve"
}

// FailsWhy reports a node that n8n fails on every item as the workflow is
// exported, so nothing leaves its regular outputs (failing), and why, in
// the words of the fact that decides it: a call n8n or the provider
// refuses (n8nschema.RefusedCall), a root that fails before it calls its
// sub-nodes (failsFirst), an If or Filter whose test throws
// (gateThrows). A node with an error output
// (continueErrorOutput) is reported too: its items leave by that output.
func (g *Graph) FailsWhy(n *n8nschema.Node) (string, bool) {
	i, ok := g.index(n)
	if !ok || g.fails == nil || !g.fails[i] {
		return "", false
	}
	if r, ok := g.refused(i); ok && r.Fails {
		return r.Why, true
	}
	if why, ok := g.failsFirst(i); ok {
		return why, true
	}
	if why, ok := g.respondWhy[int32(i)]; ok {
		return why, true
	}
	if why, ok := g.issueWhy[int32(i)]; ok {
		return why, true
	}
	return gateThrows(n)
}

// StartRefused reports a trigger whose every run n8n refuses before any
// node runs, since a node it reaches misses a required parameter
// (refusedStarts). n8n also refuses to publish such a workflow, naming
// the node and the parameter.
// It returns that node and the parameter.
func (g *Graph) StartRefused(n *n8nschema.Node) (*n8nschema.Node, string, bool) {
	i, ok := g.index(n)
	is, refused := g.issueAt[int32(i)]
	return is.node, is.param, ok && refused
}

// RefusalNames reports a node that StartRefused names for a trigger other
// than itself, and the parameter it misses.
func (g *Graph) RefusalNames(n *n8nschema.Node) (string, bool) {
	i, ok := g.index(n)
	param, named := g.issueNamed[int32(i)]
	return param, ok && named
}

// LiveFrom returns the nodes runs started at starts reach along main
// connections that carry items (not a dead output: the regular outputs of
// a node that fails on every item, a done output that never fires), the
// starts included. Sub-nodes are not followed.
func LiveFrom(g *Graph, starts ...*n8nschema.Node) Reach {
	known := make([]*n8nschema.Node, 0, len(starts))
	for _, t := range starts {
		if g.Has(t) {
			known = append(known, t)
		}
	}
	return g.walkFrom(false, true, known)
}

// BehindFrom returns the nodes that runs started at starts would reach if
// no node failed on every item, but that LiveFrom does not reach, each with
// the node that fails first before it (on the nearest path). Such a node's
// own defect is unseen while that node fails, and fails every run once it
// is fixed. Every other dead output (a Stop and Error, a gate decided by
// literals, an empty output, a done output that never fires) still ends the
// walk: what it cuts off is not behind a failure.
func BehindFrom(g *Graph, starts ...*n8nschema.Node) map[*n8nschema.Node]*n8nschema.Node {
	first, _ := behindFrom(g, starts, false)
	return first
}

// BehindNearest is BehindFrom, with, for each node behind a failure, the
// failing node nearest before it on the same path: the one the run would
// stop at once every failure before that one is fixed. It is the first
// (BehindFrom) unless another node that fails on every item stands
// between.
func BehindNearest(g *Graph, starts ...*n8nschema.Node) (first, nearest map[*n8nschema.Node]*n8nschema.Node) {
	return behindFrom(g, starts, true)
}

func behindFrom(g *Graph, starts []*n8nschema.Node, withNearest bool) (behind, nearest map[*n8nschema.Node]*n8nschema.Node) {
	if g.fails == nil {
		return nil, nil // no node fails on every item: nothing is behind one
	}
	live := LiveFrom(g, starts...)
	behind = map[*n8nschema.Node]*n8nschema.Node{}
	if withNearest {
		nearest = map[*n8nschema.Node]*n8nschema.Node{}
	}
	var queue []*n8nschema.Node
	for _, n := range g.Nodes { // file order: deterministic
		if live.Has(n) {
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		blocker, near := behind[u], nearest[u] // a nil map reads nil
		if i, ok := g.index(u); ok && g.runFails(i) {
			if blocker == nil {
				blocker = u
			}
			near = u
		}
		for _, e := range g.Out(u) {
			v := e.To
			if e.Type != ConnMain || live.Has(v) || behind[v] != nil || g.deadBesidesFailing(e) {
				continue
			}
			b, nb := blocker, near
			if b == nil {
				b = g.failCut[e] // a sibling v1 runs after a failing one
				nb = b
			}
			if b == nil {
				continue
			}
			behind[v] = b
			if nearest != nil {
				nearest[v] = nb
			}
			queue = append(queue, v)
		}
	}
	return behind, nearest
}

// FailsBefore reports the node that fails on every item (FailsWhy)
// before n on every path a run takes to n, from the triggers Reachable
// starts at: n would run if that node did not fail, and no run reaches it
// while it does (BehindFrom). A sub-node takes its root's answer. It is
// decided once per graph: every rule that judges what a run does reads it
// here and leaves n to RS010, which reports the cause. A node no run
// would reach anyway (an orphan, a gate's dead branch) is not behind a
// failure.
func (g *Graph) FailsBefore(n *n8nschema.Node) (*n8nschema.Node, bool) {
	g.behindOnce.Do(func() {
		if g.fails == nil {
			return
		}
		var starts []*n8nschema.Node
		for _, i := range g.starts(nil) {
			starts = append(starts, g.Nodes[i])
		}
		g.behind = BehindFrom(g, starts...)
	})
	if g.behind == nil {
		return nil, false
	}
	for depth := 0; g.IsSubNode(n) && depth <= maxRootLevel; depth++ {
		r := g.Root(n)
		if r == nil {
			return nil, false
		}
		n = r
	}
	first := g.behind[n]
	return first, first != nil
}

// RunReach is what runs started at starts reach before they must fail:
// LiveFrom, with the sub-nodes of the roots it reaches (not those of a
// root that fails before it calls them, failsFirst), less the nodes that
// fail on every item (FailsWhy), which run but leave nothing. The one
// home of that reach: a rule that asks what a run does reads it here.
// The reach of one start is read once per graph (RS306, RS307 and RS402
// ask it of the same triggers) and the same Reach, marks and list, is
// handed to every rule, on both cores: no caller changes it.
func RunReach(g *Graph, starts ...*n8nschema.Node) Reach {
	if len(starts) == 1 {
		if i, ok := g.index(starts[0]); ok {
			g.runReachOnce.Do(func() {
				g.runReachEach = make([]sync.Once, len(g.Nodes))
				g.runReaches = make([]*Reach, len(g.Nodes)) // a pointer: most nodes start none
			})
			g.runReachEach[i].Do(func() {
				r := runReach(g, starts)
				g.runReaches[i] = &r
			})
			return *g.runReaches[i]
		}
	}
	return runReach(g, starts)
}

// runReach is RunReach, read afresh.
func runReach(g *Graph, starts []*n8nschema.Node) Reach {
	known := make([]*n8nschema.Node, 0, len(starts))
	for _, t := range starts {
		if g.Has(t) {
			known = append(known, t)
		}
	}
	var reach Reach
	if len(known) > 0 && g.mayBind() {
		// Less the ways that tests decided by a field a Set node gave a
		// literal on the way never take (boundWalk).
		reach = g.boundWalk(known)
	} else {
		reach = g.walkFrom(true, true, known)
	}
	if g.fails == nil {
		return reach
	}
	kept := reach.nodes[:0]
	for _, n := range reach.nodes {
		if i, ok := g.index(n); ok && g.runFails(i) {
			reach.mark[i] = 0
		} else {
			kept = append(kept, n)
		}
	}
	reach.nodes = kept
	return reach
}

// placeholderCode judges a Code, Function or Function Item node whose
// whole JavaScript is one name that nothing defines, a placeholder a build
// step was to replace ("__PREPARE_MESSAGE_CODE__"). n8n runs the code as
// the body of an async function (@n8n/task-runner
// js-task-runner/js-task-runner.js createVmExecutableCode and runDirectly;
// nodes-base Function/Function.node.js and FunctionItem/FunctionItem.node.js
// vm.run), where a name defined nowhere throws a ReferenceError, on every
// item. Only a name of capitals, digits and underscores with an underscore
// in it is judged: neither JavaScript, Node nor n8n's sandbox ($input,
// items, DateTime, ...) defines a global so spelt.
func placeholderCode(nd *n8nschema.Node) (string, bool) {
	param := "functionCode"
	switch nd.Type {
	case n8nschema.TypeFunction, n8nschema.TypeFunctionItem:
	case n8nschema.TypeCode:
		param = "jsCode"
		// Code v1 runs JavaScript whatever its language; v2 reads it.
		if l, ok := nd.Param("language"); ok && nd.TypeVersion >= 2 && (l.Kind() != n8nschema.String || l.Str() != "javaScript") {
			return "", false
		}
	default:
		return "", false
	}
	c, ok := nd.Param(param)
	// A placeholder has no lower-case letter, and one that no JSON escape
	// spells (g to z but n, r, t and u) in the raw text is the code's own:
	// most code is judged without unescaping it (twice, for IsExpr and Str).
	if !ok || c.Kind() != n8nschema.String || strings.ContainsAny(c.Raw(), "ghijklmopqsvwxyz") || c.IsExpr() {
		return "", false
	}
	name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c.Str()), ";"))
	if !placeholderName(name) {
		return "", false
	}
	return "its code is only " + strconv.Quote(name) + ", a name nothing defines, so it throws a ReferenceError", true
}

// placeholderName reports a name of capitals, digits and underscores,
// with a capital and an underscore, not starting with a digit.
func placeholderName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' || !strings.Contains(s, "_") || strings.Trim(s, "_0123456789") == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// DoesNoWork reports a node that runs on every item but never does its
// work, and why: a declarative node at a resource or operation its
// description lacks sends only a bare request to its service's base URL
// (n8nschema.Refusal.Bare, n8n-core routing-node.js runNode). It does
// not fail as such (what the service answers decides), so no rule reads
// it as a stop.
func (g *Graph) DoesNoWork(n *n8nschema.Node) (string, bool) {
	i, ok := g.index(n)
	if !ok {
		return "", false
	}
	r, ok := g.refused(i)
	if !ok || !r.Bare || r.Fails {
		return "", false
	}
	return r.Why, true
}

// ErrorsGoNowhere reports a node that continues on error by its error
// output (continueErrorOutput) with nothing wired to it: a failed item
// leaves by that output and no node runs after it
// (n8n-core workflow-execute.js L970, L1603 handleNodeErrorOutput), so a node that fails on
// every item ends its branch there on every run, and n8n does not mark
// the execution failed.
func (g *Graph) ErrorsGoNowhere(n *n8nschema.Node) bool {
	return n.OnError == "continueErrorOutput" && len(g.ErrorOutputs(n)) == 0
}
