package n8nschema

import (
	"slices"
	"strings"
	"sync"
)

// Role says what a node type does to the outside world when it runs.
type Role int

const (
	RoleInternal     Role = iota // transforms data inside n8n (Set, Code, Merge, ...)
	RoleTrigger                  // starts executions (Webhook, Schedule, Cron, Error Trigger, Execute Workflow Trigger, app triggers)
	RoleExternal                 // makes a wire call (HTTP Request, Slack, Postgres, ...); unknown/community node types too
	RoleModel                    // makes a paid model call: LangChain chat/LLM sub-nodes, embeddings, the OpenAI app node
	RoleAgent                    // root that drives model/tool sub-nodes (agent, chainLlm, chainRetrievalQa, ...)
	RoleSubNode                  // AI sub-node with no wire call of its own (memory buffer, output parser, text splitter)
	RoleFlow                     // flow control (If, Switch, Filter, Wait, Loop Over Items, Merge, NoOp)
	RoleCallWorkflow             // Execute Workflow, Call Workflow Tool
	RoleNote                     // sticky note
)

var roleNames = [...]string{"internal", "trigger", "external", "model", "agent", "sub-node", "flow", "call-workflow", "note"}

func (r Role) String() string {
	if r >= 0 && int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "unknown"
}

// Spec is the catalog entry of one node type: what it calls, what it costs,
// and the hidden retries and limits its runtime applies.
type Spec struct {
	Type  string
	Role  Role
	Known bool // false: not in the catalog (community node), treated as RoleExternal with low confidence
	// Provider is the dependency name for app/model nodes: "openai",
	// "anthropic", "google-gemini", "slack", "postgres", ...; "" for HTTP
	// (the host comes from the URL).
	Provider string
	Paid     bool // calls a metered model API
	// SDKRetryParam is the parameter holding the retry count of an SDK
	// that retries on its own ("options.maxRetries" of the legacy OpenAI
	// Assistant), or "" when no such option counts. A chat model's
	// maxRetries is not one: n8n's failed-attempt handler stops
	// LangChain's retries at the first failure (chatModel).
	SDKRetryParam string
	// SDKRetryDefault is the retries (not attempts) when the option is
	// absent: 6 (LangChain AsyncCaller's default) for embeddings, 2 for the
	// AWS SDK and the OpenAI Assistant, 0 for chat models and nodes
	// without an SDK retry loop.
	SDKRetryDefault  int
	MaxTokensParam   string // "options.maxTokens", "options.maxTokensToSample", "options.maxOutputTokens", ...
	MaxTokensDefault int    // output cap when absent; 0 = no cap (-1 stored means none)
	TimeoutParam     string // per-attempt timeout parameter, ms ("options.timeout")
	TimeoutDefaultMS int    // runtime default when absent (HTTP Request 300000; OpenAI-family models 600000); 0 = none known
	// TimeoutEditorMS is what the editor stores once the timeout option is
	// added (60000 for the OpenAI family, nodes.json options.timeout
	// default): a value the user did not choose.
	TimeoutEditorMS int
	// HangMS is how long a call of a model with no client timeout
	// (TimeoutDefaultMS 0, no timeout option set) can hang at worst: the
	// bound its HTTP client keeps on its own (withHang), 0 when none is
	// found. Only a run whose dependency fails reads it (analyze
	// failingSlowSteps).
	HangMS int
	Tool   bool // a <type>Tool variant or a tool sub-node connected via ai_tool
	// ToolRetry is true when n8n honours retryOnFail per tool call: nodes
	// wrapped as tools without supplyData (the <type>Tool variants, through
	// makeHandleToolInvocation) and the Call Workflow Tool v2
	// (docs/n8n-behaviour.md#retries-that-do-nothing). Sub-nodes with supplyData ignore it.
	ToolRetry bool
	// Executes is true for an AI tool sub-node that also has its own
	// execute(): Agent V3 runs its tools as engine requests through the
	// main loop, so such a tool honours retryOnFail there even though
	// older agents call its supplyData tool once (n8n-core
	// workflow-execute.js runNode, get-input-connection-data.js).
	Executes bool
}

// Lookup returns the catalog entry of a node type. It resolves <type>Tool
// variants to their base node (cli/src/node-types.ts: a node with
// usableAsTool is loaded again as nodeType+'Tool'); an unknown type is
// RoleExternal with Known false, and a type ending in "Trigger" a trigger.
func Lookup(typ string) Spec {
	if s, ok := catalog()[typ]; ok {
		return *s
	}
	if base, ok := strings.CutSuffix(typ, "Tool"); ok {
		if s, ok := catalog()[base]; ok {
			t := *s
			t.Type, t.Tool, t.ToolRetry = typ, true, true
			return t
		}
	}
	// A node n8n describes but the catalog does not list: an app node
	// (or trigger) whose wire calls the catalog knows nothing special
	// about. Its <type>Tool variant is wrapped like every usableAsTool
	// node, so it honours retryOnFail per tool call.
	_, name, _ := strings.Cut(typ, ".")
	if d, ok := DescribeNode(typ, 0); ok {
		if d.Trigger() {
			return Spec{Type: typ, Role: RoleTrigger, Known: true}
		}
		s := Spec{Type: typ, Role: RoleExternal, Known: true, Provider: strings.TrimSuffix(name, "Tool")}
		if _, isBase := nodeTable()[typ]; !isBase { // resolved through its base node
			s.Tool, s.ToolRetry = true, true
		}
		return s
	}
	pkg, _, _ := strings.Cut(typ, ".")
	official := pkg == "n8n-nodes-base" || pkg == "@n8n/n8n-nodes-langchain"
	if strings.HasSuffix(name, "Trigger") {
		return Spec{Type: typ, Role: RoleTrigger, Known: official}
	}
	s := Spec{Type: typ, Role: RoleExternal, Provider: strings.TrimSuffix(name, "Tool")}
	if strings.HasSuffix(name, "Tool") {
		s.Tool = true
	}
	return s
}

const (
	nsBase = "n8n-nodes-base."
	nsLC   = "@n8n/n8n-nodes-langchain."
)

func ext(name, provider string) Spec {
	return Spec{Type: nsBase + name, Role: RoleExternal, Known: true, Provider: provider}
}

func role(typ string, r Role) Spec { return Spec{Type: typ, Role: r, Known: true} }

// openAIFamily is a LangChain chat model built on ChatOpenAI. It sends one
// request per try of its root, whatever options.maxRetries says (see
// chatModel); the timeout is options.timeout with no fallback in n8n 2.8.4,
// so the OpenAI SDK's 600000 ms applies when it is absent
// (llms/LMChatOpenAi/LmChatOpenAi.node.js L709–750,
// @langchain/openai/node_modules/openai/client.js DEFAULT_TIMEOUT;
// docs/n8n-facts.md).
func openAIFamily(name, provider string) Spec {
	s := chatModel(name, provider, true, "options.maxTokens", 0)
	s.TimeoutParam, s.TimeoutDefaultMS, s.TimeoutEditorMS = "options.timeout", 600000, 60000
	return s
}

// How long a model call with no client timeout can hang at worst, per
// HTTP client (Spec.HangMS), read in n8n 2.41.1's installed packages:
//   - requestHelperMS: an app node that calls through n8n's request
//     helpers (requestWithAuthentication, httpRequestWithAuthentication:
//     vendors/OpenAi/transport/index.js, vendors/Anthropic/transport,
//     vendors/GoogleGemini/transport, nodes-base Perplexity and MistralAI
//     GenericFunctions.js) goes through axios, whose default timeout n8n
//     sets to 300000 ms (@n8n/backend-network/dist/http/axios/config.js
//     configureGlobalAxiosDefaults);
//   - anthropicSDKMS: the Anthropic SDK's DEFAULT_TIMEOUT, 600000 ms
//     (@anthropic-ai/sdk 0.115 client.js), which LmChatAnthropic.node.js
//     leaves in place (its clientOptions set a dispatcher, no timeout);
//   - groqSDKMS: groq-sdk's DEFAULT_TIMEOUT, 60000 ms (groq-sdk 0.19
//     index.js), which @langchain/groq passes through as fields.timeout,
//     unset by LmChatGroq.node.js;
//   - globalFetchMS: @google/generative-ai 0.24 calls Node's global fetch
//     with no signal unless requestOptions.timeout is set (index.js
//     buildFetchOptions), and LmChatGoogleGemini.node.js sets none: undici's
//     default Agent ends a request whose headers or body stall for
//     300000 ms (headersTimeout, bodyTimeout);
//   - aiDispatcherMS: LmChatMistralCloud and LmChatOllama fetch through
//     @n8n/ai-utilities proxyFetch, whose undici dispatcher's
//     headersTimeout and bodyTimeout are N8N_AI_TIMEOUT_MAX, 3600000 ms
//     unless set (dist/cjs/utils/http-proxy-agent.js DEFAULT_TIMEOUT).
//
// The OpenAI family's 600000 ms is a timeout of its own
// (TimeoutDefaultMS). None is found for Vertex (google-auth-library's
// gaxios 7 fetches with node-fetch 3 and no timeout: @langchain/google-gauth
// auth.cjs, gaxios build/cjs/src/gaxios.js), Bedrock, Cohere or Hugging
// Face: their calls are taken to hang at worst UnknownHangMS.
const (
	requestHelperMS = 300000
	anthropicSDKMS  = 600000
	groqSDKMS       = 60000
	globalFetchMS   = 300000
	aiDispatcherMS  = 3600000
)

// UnknownHangMS is how long a model call whose client sets no bound
// (Spec.HangMS 0: Vertex, Bedrock, Cohere, Hugging Face) is taken to hang
// at worst: the longest bound n8n itself puts on a model request, its AI
// dispatcher's hour. An assumption, not a fact read: a request that hangs
// longer is not modelled, so a daily schedule's runs are not taken to
// meet, while an hourly or more frequent one's are.
const UnknownHangMS = aiDispatcherMS

// withHang sets how long s's untimed call can hang at worst (Spec.HangMS).
func withHang(s Spec, ms int) Spec {
	s.HangMS = ms
	return s
}

// chatModel is a LangChain chat or LLM model sub-node that passes n8n's
// failed-attempt handler to LangChain (onFailedAttempt:
// makeN8nLlmFailedAttemptHandler(this), in every llms/*/*.node.js). The
// handler lets LangChain retry only when error.retriesLeft > 0, and
// @langchain/core's AsyncCaller hands it p-retry's bare error, whose
// retriesLeft lives in a separate context object
// (@n8n/ai-utilities/dist/utils/failed-attempt-handler/n8nLlmFailedAttemptHandler.js
// L18–24; @langchain/core/dist/utils/async_caller.cjs callWithRetries:
// onFailedAttempt: ({ error }) => this.onFailedAttempt?.(error)); the
// provider SDK is built with maxRetries: 0 (@langchain/openai
// chat_models/base.cjs, @langchain/anthropic chat_models.cjs). So the
// first failure throws: one request per try, whatever maxRetries says.
// Observed in the engine on n8n 1.123.81, 2.8.4 and 2.41.1
// (docs/n8n-facts.md).
func chatModel(name, provider string, paid bool, maxTokensParam string, maxTokensDefault int) Spec {
	return Spec{Type: nsLC + name, Role: RoleModel, Known: true, Provider: provider, Paid: paid,
		MaxTokensParam: maxTokensParam, MaxTokensDefault: maxTokensDefault}
}

// embeddings is an embeddings sub-node: it passes no failed-attempt
// handler and no maxRetries to LangChain, so AsyncCaller's maxRetries ?? 6
// applies: 7 requests (@langchain/core/dist/utils/async_caller.cjs
// constructor; EmbeddingsOpenAI/EmbeddingsOpenAi.node.js L238–243).
func embeddings(name, provider string, paid bool) Spec {
	return Spec{Type: nsLC + name, Role: RoleModel, Known: true, Provider: provider, Paid: paid, SDKRetryDefault: 6}
}

func subNode(name string) Spec { return Spec{Type: nsLC + name, Role: RoleSubNode, Known: true} }

// execTool is a langchain tool sub-node whose class has both supplyData()
// and execute() (tools/Tool*/Tool*.node.js; the vector stores built by
// vector_store/shared/createVectorStoreNode, retrieve-as-tool mode).
func execTool(s Spec) Spec {
	s.Tool, s.Executes = true, true
	return s
}

// extSub is an AI sub-node that makes wire calls of its own (a vector
// store, a chat memory backed by a database, a search tool).
func extSub(name, provider string, tool bool) Spec {
	return Spec{Type: nsLC + name, Role: RoleExternal, Known: true, Provider: provider, Tool: tool}
}

// specs is the catalog, one entry per node type. Types not listed fall
// back to Lookup's rules. It is built when first used or by Prepare, as
// the node table is: built in package initialisation, with catalog, it
// was a millisecond of every run's start, on one core.
var specs = sync.OnceValue(func() []Spec { return sortedSpecs(specList()) })

// catalog indexes specs by type.
var catalog = sync.OnceValue(func() map[string]*Spec { return indexSpecs(specs()) })

func specList() []Spec {
	return []Spec{
		// Triggers.
		role(nsBase+"webhook", RoleTrigger),
		role(nsBase+"formTrigger", RoleTrigger),
		role(nsBase+"scheduleTrigger", RoleTrigger),
		role(nsBase+"cron", RoleTrigger),
		role(nsBase+"interval", RoleTrigger),
		role(nsBase+"manualTrigger", RoleTrigger),
		role(nsBase+"start", RoleTrigger),
		role(nsBase+"errorTrigger", RoleTrigger),
		role(nsBase+"executeWorkflowTrigger", RoleTrigger),
		role(nsBase+"emailReadImap", RoleTrigger),
		role(nsBase+"n8nTrigger", RoleTrigger),
		role(nsBase+"workflowTrigger", RoleTrigger),
		role(nsLC+"chatTrigger", RoleTrigger),
		role(nsLC+"manualChatTrigger", RoleTrigger),
		role(nsLC+"mcpTrigger", RoleTrigger),

		// Data transformation inside n8n.
		role(nsBase+"set", RoleInternal),
		role(nsBase+"code", RoleInternal),
		role(nsBase+"function", RoleInternal),
		role(nsBase+"functionItem", RoleInternal),
		role(nsBase+"splitOut", RoleInternal),
		role(nsBase+"aggregate", RoleInternal),
		role(nsBase+"html", RoleInternal),
		role(nsBase+"htmlExtract", RoleInternal),
		role(nsBase+"extractFromFile", RoleInternal),
		role(nsBase+"convertToFile", RoleInternal),
		role(nsBase+"markdown", RoleInternal),
		role(nsBase+"limit", RoleInternal),
		role(nsBase+"itemLists", RoleInternal),
		role(nsBase+"dateTime", RoleInternal),
		role(nsBase+"sort", RoleInternal),
		role(nsBase+"removeDuplicates", RoleInternal),
		role(nsBase+"summarize", RoleInternal),
		role(nsBase+"renameKeys", RoleInternal),
		role(nsBase+"xml", RoleInternal),
		role(nsBase+"crypto", RoleInternal),
		role(nsBase+"moveBinaryData", RoleInternal),
		role(nsBase+"spreadsheetFile", RoleInternal),
		role(nsBase+"readBinaryFile", RoleInternal),
		role(nsBase+"readBinaryFiles", RoleInternal),
		role(nsBase+"readPDF", RoleInternal),
		role(nsBase+"writeBinaryFile", RoleInternal),
		role(nsBase+"readWriteFile", RoleInternal),
		role(nsBase+"editImage", RoleInternal),
		role(nsBase+"compression", RoleInternal),
		role(nsBase+"executionData", RoleInternal),
		role(nsBase+"executeCommand", RoleInternal),
		role(nsBase+"respondToWebhook", RoleInternal),
		role(nsBase+"stopAndError", RoleInternal),
		role(nsBase+"form", RoleInternal),
		role(nsBase+"debugHelper", RoleInternal),
		role(nsBase+"n8nTrainingCustomerDatastore", RoleInternal),
		role(nsBase+"aiTransform", RoleInternal),
		role(nsBase+"jwt", RoleInternal),
		role(nsBase+"totp", RoleInternal),
		role(nsLC+"code", RoleInternal),
		role(nsLC+"memoryManager", RoleInternal),
		role(nsLC+"chat", RoleInternal),

		// Flow control.
		role(nsBase+"if", RoleFlow),
		role(nsBase+"switch", RoleFlow),
		role(nsBase+"filter", RoleFlow),
		role(nsBase+"wait", RoleFlow),
		role(nsBase+"splitInBatches", RoleFlow),
		role(nsBase+"merge", RoleFlow),
		role(nsBase+"noOp", RoleFlow),
		role(nsBase+"compareDatasets", RoleInternal),
		role(nsBase+"stickyNote", RoleNote),

		// Sub-workflows.
		role(nsBase+"executeWorkflow", RoleCallWorkflow),
		// toolWorkflow v2 honours retryOnFail per call
		// (ToolWorkflow/v2/utils/WorkflowToolService.js L63–65); v1 has only
		// supplyData and does not.
		{Type: nsLC + "toolWorkflow", Role: RoleCallWorkflow, Known: true, Tool: true, ToolRetry: true},

		// Roots that drive model and tool sub-nodes.
		role(nsLC+"agent", RoleAgent),
		{Type: nsLC + "agentTool", Role: RoleAgent, Known: true, Tool: true},
		role(nsLC+"chainLlm", RoleAgent),
		role(nsLC+"chainRetrievalQa", RoleAgent),
		role(nsLC+"chainSummarization", RoleAgent),
		role(nsLC+"informationExtractor", RoleAgent),
		role(nsLC+"textClassifier", RoleAgent),
		role(nsLC+"sentimentAnalysis", RoleAgent),

		// Models. Chat and LLM models send one request per try (chatModel).
		openAIFamily("lmChatOpenAi", "openai"),
		openAIFamily("lmChatAzureOpenAi", "azure-openai"),
		openAIFamily("lmChatDeepSeek", "deepseek"),
		openAIFamily("lmChatOpenRouter", "openrouter"),
		openAIFamily("lmChatXAiGrok", "xai"),
		openAIFamily("lmChatVercelAiGateway", "vercel-ai-gateway"),
		openAIFamily("lmOpenAi", "openai"),
		chatModel("lmChatCohere", "cohere", true, "", 0),
		withHang(chatModel("lmChatMistralCloud", "mistral", true, "options.maxTokens", 0), aiDispatcherMS),
		// lmChatAnthropic: with no options.maxTokensToSample the output cap
		// comes from @langchain/anthropic's per-model table
		// (AnthropicDefaultMaxTokens; LmChatAnthropic.node.js L289–293).
		withHang(chatModel("lmChatAnthropic", "anthropic", true, "options.maxTokensToSample", 0), anthropicSDKMS),
		// Gemini/Vertex: options.maxOutputTokens. The {maxOutputTokens: 1024}
		// (Vertex 2048) fallback of getNodeParameter('options') never applies:
		// n8n fills a missing collection with its default {} when it loads the
		// workflow, so no cap is sent unless the option is set
		// (LmChatGoogleGemini.node.js L116–130; n8n-workflow node-helpers.js
		// getNodeParameters; docs/n8n-facts.md).
		withHang(chatModel("lmChatGoogleGemini", "google-gemini", true, "options.maxOutputTokens", 0), globalFetchMS),
		chatModel("lmChatGoogleVertex", "google-vertex", true, "options.maxOutputTokens", 0),
		withHang(chatModel("lmChatGroq", "groq", true, "options.maxTokensToSample", 0), groqSDKMS),
		// Bedrock: ChatBedrockConverse calls BedrockRuntimeClient.send with no
		// AsyncCaller, so n8n's handler never runs; the AWS SDK's standard
		// strategy makes 3 attempts (LmChatAwsBedrock.node.js L230;
		// @langchain/aws/dist/chat_models.cjs; @smithy/core retry
		// DEFAULT_MAX_ATTEMPTS).
		{Type: nsLC + "lmChatAwsBedrock", Role: RoleModel, Known: true, Provider: "aws-bedrock", Paid: true,
			SDKRetryDefault: 2, MaxTokensParam: "options.maxTokensToSample"},
		withHang(chatModel("lmChatOllama", "ollama", false, "", 0), aiDispatcherMS),
		chatModel("lmOllama", "ollama", false, "", 0),
		chatModel("lmCohere", "cohere", true, "", 0),
		chatModel("lmOpenHuggingFaceInference", "huggingface", true, "", 0),
		embeddings("embeddingsOpenAi", "openai", true),
		embeddings("embeddingsAzureOpenAi", "azure-openai", true),
		embeddings("embeddingsGoogleGemini", "google-gemini", true),
		embeddings("embeddingsGooglePalm", "google-palm", true),
		embeddings("embeddingsMistralCloud", "mistral", true),
		embeddings("embeddingsCohere", "cohere", true),
		embeddings("embeddingsHuggingFaceInference", "huggingface", true),
		embeddings("embeddingsOllama", "ollama", false),
		// Bedrock embeddings: BedrockEmbeddings with maxRetries: 3 runs
		// AsyncCaller's 4 attempts around BedrockRuntimeClient.send, which
		// makes the AWS SDK's 3 each: 12 wire attempts, 11 retries
		// (EmbeddingsAwsBedrock.node.js L118–122; @langchain/aws/dist/embeddings.js
		// L53–56).
		{Type: nsLC + "embeddingsAwsBedrock", Role: RoleModel, Known: true, Provider: "aws-bedrock", Paid: true, SDKRetryDefault: 11},
		// The OpenAI app node calls the API through requestWithAuthentication,
		// not the SDK: no hidden retries (vendors/OpenAi/transport/index.js L32).
		{Type: nsLC + "openAi", Role: RoleModel, Known: true, Provider: "openai", Paid: true, MaxTokensParam: "options.maxTokens", HangMS: requestHelperMS},
		{Type: nsBase + "openAi", Role: RoleModel, Known: true, Provider: "openai", Paid: true, MaxTokensParam: "options.maxTokens", HangMS: requestHelperMS},
		// The Anthropic app node always sends max_tokens: options.maxTokens
		// ?? 1024 (vendors/Anthropic/actions/text/message.operation.js,
		// helpers/baseAnalyze.js).
		{Type: nsLC + "anthropic", Role: RoleModel, Known: true, Provider: "anthropic", Paid: true, MaxTokensParam: "options.maxTokens", MaxTokensDefault: 1024, HangMS: requestHelperMS},
		{Type: nsLC + "googleGemini", Role: RoleModel, Known: true, Provider: "google-gemini", Paid: true, MaxTokensParam: "options.maxOutputTokens", HangMS: requestHelperMS},
		{Type: nsBase + "perplexity", Role: RoleModel, Known: true, Provider: "perplexity", Paid: true, MaxTokensParam: "options.maxTokens", HangMS: requestHelperMS},
		{Type: nsBase + "mistralAi", Role: RoleModel, Known: true, Provider: "mistral", Paid: true, HangMS: requestHelperMS},
		// openAiAssistant (legacy agent) calls the SDK with maxRetries ?? 2 and
		// timeout ?? 10000 (agents/OpenAiAssistant/OpenAiAssistant.node.js
		// L329–330).
		{Type: nsLC + "openAiAssistant", Role: RoleModel, Known: true, Provider: "openai", Paid: true,
			SDKRetryParam: "options.maxRetries", SDKRetryDefault: 2, TimeoutParam: "options.timeout", TimeoutDefaultMS: 10000},

		// AI sub-nodes without a wire call.
		subNode("memoryBufferWindow"),
		subNode("memoryChatRetriever"),
		subNode("outputParserStructured"),
		subNode("outputParserAutofixing"),
		subNode("outputParserItemList"),
		subNode("textSplitterRecursiveCharacterTextSplitter"),
		subNode("textSplitterCharacterTextSplitter"),
		subNode("textSplitterTokenSplitter"),
		subNode("documentDefaultDataLoader"),
		subNode("documentBinaryInputLoader"),
		subNode("documentJsonInputLoader"),
		subNode("retrieverVectorStore"),
		subNode("retrieverMultiQuery"),
		subNode("retrieverContextualCompression"),
		execTool(subNode("vectorStoreInMemory")),
		subNode("vectorStoreInMemoryInsert"),
		subNode("vectorStoreInMemoryLoad"),
		execTool(Spec{Type: nsLC + "toolCalculator", Role: RoleSubNode, Known: true}),
		execTool(Spec{Type: nsLC + "toolCode", Role: RoleSubNode, Known: true}),
		execTool(Spec{Type: nsLC + "toolThink", Role: RoleSubNode, Known: true}),
		execTool(Spec{Type: nsLC + "toolVectorStore", Role: RoleSubNode, Known: true}),

		// AI sub-nodes that call out.
		extSub("memoryPostgresChat", "postgres", false),
		extSub("memoryRedisChat", "redis", false),
		extSub("memoryMongoDbChat", "mongodb", false),
		extSub("memoryMotorhead", "motorhead", false),
		extSub("memoryXata", "xata", false),
		extSub("memoryZep", "zep", false),
		execTool(extSub("vectorStoreQdrant", "qdrant", false)),
		execTool(extSub("vectorStorePinecone", "pinecone", false)),
		execTool(extSub("vectorStoreSupabase", "supabase", false)),
		execTool(extSub("vectorStorePGVector", "postgres", false)),
		execTool(extSub("vectorStoreMilvus", "milvus", false)),
		execTool(extSub("vectorStoreZep", "zep", false)),
		execTool(extSub("vectorStoreWeaviate", "weaviate", false)),
		execTool(extSub("vectorStoreMongoDBAtlas", "mongodb", false)),
		execTool(extSub("vectorStoreRedis", "redis", false)),
		extSub("rerankerCohere", "cohere", false),
		extSub("documentGithubLoader", "github", false),
		{Type: nsLC + "toolHttpRequest", Role: RoleExternal, Known: true, Tool: true,
			TimeoutParam: "options.timeout", TimeoutDefaultMS: 300000},
		execTool(extSub("toolWikipedia", "wikipedia", true)),
		execTool(extSub("toolSerpApi", "serpapi", true)),
		execTool(extSub("toolWolframAlpha", "wolframalpha", true)),
		execTool(extSub("toolSearXng", "searxng", true)),
		execTool(extSub("mcpClientTool", "mcp", true)),
		extSub("mcpClient", "mcp", false),

		// HTTP Request: runtime timeout when absent is 5 minutes
		// (n8n-nodes-base/dist/nodes/HttpRequest/V3/HttpRequestV3.node.js L238–243).
		{Type: nsBase + "httpRequest", Role: RoleExternal, Known: true,
			TimeoutParam: "options.timeout", TimeoutDefaultMS: 300000},
		ext("graphql", "graphql"),
		ext("rssFeedRead", "rss"),
		ext("n8n", "n8n"),
		ext("emailSend", "smtp"),
		ext("ssh", "ssh"),
		ext("ftp", "ftp"),

		// App nodes: one wire call per item to their service.
		ext("googleSheets", "google-sheets"),
		ext("googleDrive", "google-drive"),
		ext("googleDocs", "google-docs"),
		ext("googleCalendar", "google-calendar"),
		ext("googleAnalytics", "google-analytics"),
		ext("googleCloudNaturalLanguage", "google-cloud"),
		ext("googleBigQuery", "google-bigquery"),
		ext("googleContacts", "google-contacts"),
		ext("googleTasks", "google-tasks"),
		ext("googleSlides", "google-slides"),
		ext("googleChat", "google-chat"),
		ext("googleTranslate", "google-translate"),
		ext("gmail", "gmail"),
		ext("youTube", "youtube"),
		ext("telegram", "telegram"),
		ext("airtable", "airtable"),
		ext("slack", "slack"),
		ext("notion", "notion"),
		ext("postgres", "postgres"),
		ext("mySql", "mysql"),
		ext("microsoftSql", "mssql"),
		ext("mongoDb", "mongodb"),
		ext("redis", "redis"),
		ext("snowflake", "snowflake"),
		ext("supabase", "supabase"),
		ext("nocoDb", "nocodb"),
		ext("baserow", "baserow"),
		ext("hubspot", "hubspot"),
		ext("salesforce", "salesforce"),
		ext("pipedrive", "pipedrive"),
		ext("microsoftOutlook", "microsoft-outlook"),
		ext("microsoftTeams", "microsoft-teams"),
		ext("microsoftExcel", "microsoft-excel"),
		ext("microsoftOneDrive", "microsoft-onedrive"),
		ext("microsoftToDo", "microsoft-todo"),
		ext("jira", "jira"),
		ext("github", "github"),
		ext("gitlab", "gitlab"),
		ext("linear", "linear"),
		ext("asana", "asana"),
		ext("trello", "trello"),
		ext("clickUp", "clickup"),
		ext("mondayCom", "monday"),
		ext("todoist", "todoist"),
		ext("spotify", "spotify"),
		ext("wordpress", "wordpress"),
		ext("webflow", "webflow"),
		ext("strapi", "strapi"),
		ext("whatsApp", "whatsapp"),
		ext("discord", "discord"),
		ext("mattermost", "mattermost"),
		ext("matrix", "matrix"),
		ext("twitter", "twitter"),
		ext("linkedIn", "linkedin"),
		ext("reddit", "reddit"),
		ext("facebookGraphApi", "facebook"),
		ext("twilio", "twilio"),
		ext("zendesk", "zendesk"),
		ext("zammad", "zammad"),
		ext("freshdesk", "freshdesk"),
		ext("intercom", "intercom"),
		ext("mautic", "mautic"),
		ext("mailchimp", "mailchimp"),
		ext("lemlist", "lemlist"),
		ext("sendGrid", "sendgrid"),
		ext("mailgun", "mailgun"),
		ext("dropbox", "dropbox"),
		ext("nextCloud", "nextcloud"),
		ext("s3", "s3"),
		ext("awsS3", "aws-s3"),
		ext("awsLambda", "aws-lambda"),
		ext("awsSes", "aws-ses"),
		ext("awsSns", "aws-sns"),
		ext("awsSqs", "aws-sqs"),
		ext("clockify", "clockify"),
		ext("theHive", "thehive"),
		ext("theHiveProject", "thehive"),
		ext("clearbit", "clearbit"),
		ext("hunter", "hunter"),
		ext("bambooHr", "bamboohr"),
		ext("openWeatherMap", "openweathermap"),
		ext("hackerNews", "hackernews"),
		ext("uproc", "uproc"),
		ext("odoo", "odoo"),
		ext("erpNext", "erpnext"),
		ext("wooCommerce", "woocommerce"),
		ext("shopify", "shopify"),
		ext("stripe", "stripe"),
		ext("quickbooks", "quickbooks"),
		ext("xero", "xero"),
		ext("pagerDuty", "pagerduty"),
		ext("signl4", "signl4"),
		ext("zoom", "zoom"),
		ext("orbit", "orbit"),
		ext("humanticAi", "humantic"),
		ext("airtop", "airtop"),
		ext("deepL", "deepl"),
		ext("elasticsearch", "elasticsearch"),
		ext("kafka", "kafka"),
		ext("rabbitmq", "rabbitmq"),
		ext("mqtt", "mqtt"),
		ext("typeform", "typeform"),
		ext("calendly", "calendly"),
		ext("contentful", "contentful"),
		ext("ghost", "ghost"),
		ext("box", "box"),
		ext("jinaAi", "jina"),
	}
}

// sortedSpecs sorts the table: it is grouped for readers, Catalog is sorted.
func sortedSpecs(s []Spec) []Spec {
	slices.SortFunc(s, func(a, b Spec) int { return strings.Compare(a.Type, b.Type) })
	return s
}

// indexSpecs maps types to entries; the map holds pointers, as entries
// are too large for the map's fast paths.
func indexSpecs(s []Spec) map[string]*Spec {
	m := make(map[string]*Spec, len(s))
	for i := range s {
		m[s[i].Type] = &s[i]
	}
	return m
}

// storeOps are the vendor app nodes' resources, or resource/operation
// pairs, that manage what the provider stores and run no model: nothing is
// generated or billed per output token (read from the 2.41.1 code, under
// @n8n/n8n-nodes-langchain/dist/nodes/vendors/).
var storeOps = map[string][]string{
	// OpenAi/v1 and v2/actions/file/*.operation.js: POST, GET and DELETE
	// /files; v2/actions/conversation/create.operation.js L86 POST
	// /conversations, get L27 GET, update L39 POST and remove L27 DELETE
	// /conversations/{id}; v1/actions/assistant/create L232,
	// deleteAssistant L18, list L28, update L172: /assistants (only
	// "message" runs a thread, message.operation.js L223–240).
	openAiApp: {"file", "conversation", "assistant/create", "assistant/deleteAssistant", "assistant/list", "assistant/update"},
	// Anthropic/actions/file/{upload,get,list,delete}.operation.js: /v1/files.
	"@n8n/n8n-nodes-langchain.anthropic": {"file"},
	// GoogleGemini/actions/file/upload.operation.js L65 (transferFile);
	// fileSearch/createStore L27, deleteStore L35, listStores L37;
	// video/download.operation.js L45 fetches a generated video. The
	// store upload (uploadToStore) has the store embed the file and stays
	// counted.
	"@n8n/n8n-nodes-langchain.googleGemini": {"file", "fileSearch/createStore", "fileSearch/deleteStore",
		"fileSearch/listStores", "video/download"},
}

// RunsModel reports whether a paid node's resource and operation, after
// their defaults, run a model. A vendor app node also manages what its
// provider stores (files, conversations, assistants, file search stores),
// which generates nothing and is no paid call. An expression for either
// leaves the node counted.
func RunsModel(n *Node) bool {
	typ := strings.TrimSuffix(n.Type, "Tool")
	ops, ok := storeOps[typ]
	if !ok {
		return true
	}
	d, ok := n.describeAs(typ)
	if !ok {
		return true
	}
	res, rok := literalParam(n, "resource")
	op, ook := literalParam(n, "operation")
	if !rok || !ook {
		return true
	}
	if res == "" {
		res = d.DefaultResource()
	}
	if op == "" {
		op = d.DefaultOperation(res)
	}
	return !slices.Contains(ops, res) && !slices.Contains(ops, res+"/"+op)
}
