package n8nschema

import (
	"slices"
	"strconv"
	"strings"
)

// RetiredAsOf is the day the table of shut-down models was last checked
// against the providers' pages. A model counts as shut down when its date
// is on or before it: the tool never reads the clock, so the same input
// gives the same findings on any day. The table is refreshed by hand, with
// its sources (docs/n8n-facts.md, "Models the providers shut down").
const RetiredAsOf = "2026-12-02"

// retiredSource names the provider page a date was read from. An observed
// source dates no shutdown: it quotes the provider's API refusing the id on
// that day, so the model had shut down by then (RetiredModel.When).
type retiredSource struct {
	provider, page string
	observed       bool
}

var (
	openAIDeprecations    = retiredSource{provider: "OpenAI", page: "OpenAI API deprecations, developers.openai.com/api/docs/deprecations"}
	anthropicDeprecations = retiredSource{provider: "Anthropic", page: "Anthropic model deprecations, platform.claude.com/docs/en/about-claude/model-deprecations"}
	anthropicSonnet45     = retiredSource{provider: "Anthropic", page: "Anthropic's Claude Sonnet 4.5 page, platform.claude.com/docs/en/models/sonnet-4-5/overview"}
	geminiChangelog       = retiredSource{provider: "Google", page: "Gemini API changelog, ai.google.dev/gemini-api/docs/changelog"}
	geminiDeprecations    = retiredSource{provider: "Google", page: "Gemini API deprecations, ai.google.dev/gemini-api/docs/deprecations"}
	// Groq's shutdown of 2026-08-16 is for free and developer-tier
	// accounts; a committed-spend enterprise contract keeps the model.
	groqDeprecations = retiredSource{provider: "Groq", page: "Groq model deprecations, console.groq.com/docs/deprecations, for free and developer-tier accounts"}
	// The page's earlier sections date a shutdown for every account.
	groqShutdowns = retiredSource{provider: "Groq", page: "Groq model deprecations, console.groq.com/docs/deprecations"}
	// No Gemini API page read dates the Gemini 1.5 shutdown; Vertex AI's
	// lifecycle page does, and the Gemini API's own deprecations page,
	// which lists every stable model it serves, names none of them from
	// its 2025-12 copies on. The source says both.
	geminiV15 = retiredSource{provider: "Google", page: "Vertex AI's date, cloud.google.com/vertex-ai/generative-ai/docs/learn/model-versions; " +
		"the Gemini API's deprecations page lists no 1.5 model from 2025-12 on"}
	geminiModelsPage = retiredSource{provider: "Google", page: "Gemini API models page, ai.google.dev/models/gemini"}
	// DeepSeek's "Your First API Call" page: the two names "will be
	// deprecated on 2026/07/24 15:59 UTC"; its later copy lists the old
	// names still accepted, and these are not among them.
	deepseekNames = retiredSource{provider: "DeepSeek", page: "DeepSeek API docs, api-docs.deepseek.com, \"Your First API Call\""}
	// Perplexity's changelog: "As of December 15, 2025, the sonar-reasoning
	// model has been deprecated and removed from the API"; "as of August 1,
	// 2025, R1-1776 will be removed from the available models".
	perplexityChangelog = retiredSource{provider: "Perplexity", page: "Perplexity API changelog, docs.perplexity.ai/docs/resources/changelog"}
	// Mistral's models overview, "Legacy models": "When a model is retired
	// from la Plateforme, it is no longer available for use, and when
	// prompted, it will return an error response."
	mistralLegacy = retiredSource{provider: "Mistral", page: "Mistral models overview, Legacy models, docs.mistral.ai/getting-started/models/models_overview"}
	// No Google page dates the shutdown of the May 2025 Flash preview; the
	// Gemini API's own answer does: on 2025-11-26 a user quoted it, 404
	// "models/gemini-2.5-flash-preview-05-20 is not found for API version
	// v1beta, or is not supported for generateContent"
	// (github.com/chatboxai/chatbox/issues/2748).
	gemini0520Refused = retiredSource{provider: "Google", page: "the Gemini API's 404 for it, quoted in github.com/chatboxai/chatbox/issues/2748", observed: true}
	// xAI's Grok 2 ids: no xAI page read dates their end (its May 15, 2026
	// retirement page lists Grok 3 and 4 ids, and only those redirect to
	// grok-4.3), but xAI's API was seen refusing each of these, so each is
	// dated by the day it was seen (docs/n8n-facts.md, "xAI's Grok 2").
	// grok-2-latest: 400 {'code': 'Client specified an invalid argument',
	// 'error': 'Model not found: grok-2-latest'} on 2026-02-26.
	xaiGrok2LatestRefused = retiredSource{provider: "xAI", page: "xAI's 400 \"Model not found: grok-2-latest\", quoted in github.com/definableai/definable.ai/issues/112", observed: true}
	// The vision and image ids: "xAI has shut down the Grok 2 models
	// (grok-2-vision-1212, grok-2-vision, grok-2-vision-latest,
	// grok-2-image, grok-2-image-1212, grok-2-image-latest) in their
	// API", "they are in fact all shut down, which I verified" (the AI
	// SDK's maintainer, 2026-03-09); xAI's own answer for the image id,
	// "grok-2-image-1212 has been fully deprecated and is no longer
	// available", is quoted in github.com/SillyTavern/SillyTavern/pull/5334.
	// n8n's xAI Grok chat model defaults to grok-2-vision-1212.
	xaiGrok2VisionRefused = retiredSource{provider: "xAI", page: "xAI's API as the AI SDK's maintainers checked it, github.com/vercel/ai/pull/13271: \"shut down in their API\"", observed: true}
	// grok-2-1212: "selecting any of them returns 400 - Model not found"
	// for grok-2-1212 with the vision and image ids (2026-07-24).
	xaiGrok2Refused = retiredSource{provider: "xAI", page: "xAI's 400 \"Model not found\" for it, as github.com/lum3on/comfyui_LLM_Polymath/pull/23 reports", observed: true}
)

// retiredModels are the model ids a provider's own API stopped serving, by
// the day it did, as the provider's page names them: exact ids, snapshots
// and the aliases the page lists (OpenAI's shut down "gpt-4" and
// "gpt-3.5-turbo" with their snapshots on 2026-10-23; "gpt-4o" is not
// listed and stays live while "gpt-4o-2024-05-13" is not). A family name
// the page does not list is not matched. Dates after RetiredAsOf are kept
// so that the next check only moves RetiredAsOf. Left out for want of a
// provider's dated page: Gemini's embedding-001 and embedding-gecko-001
// (dated only in Google's e-mail to users), the flash-lite twin
// gemini-2.5-flash-lite-preview-09-2025 (no dated shutdown found), the
// 2025 Flash previews gemini-2.5-flash-preview-04-17 and
// gemini-2.5-flash-lite-preview-06-17 (the copies of Google's deprecations
// page found list only the 2.5 Pro previews' date, 2025-12-02; -05-20 is
// in, by the API's own 404 a user quoted: gemini0520Refused), Gemini's
// experimental ids, and gemini-2.5-pro and gemini-2.5-flash, whose calls
// the Gemini API routes from 2026-12-01 to a newer model billed at its
// rate (docs/n8n-facts.md): they keep answering.
var retiredModels = []struct {
	provider string // as HTTPModelCall.Provider: "openai", "anthropic", "google-gemini", "groq", "deepseek", "perplexity", "mistral", "xai"
	date     string
	src      retiredSource
	ids      []string
}{
	// OpenAI, "2023-07-06: GPT and embeddings".
	{"openai", "2024-01-04", openAIDeprecations, []string{"text-ada-001", "text-babbage-001", "text-curie-001",
		"text-davinci-001", "text-davinci-002", "text-davinci-003", "ada", "babbage", "curie", "davinci",
		"code-davinci-002", "text-davinci-edit-001", "code-davinci-edit-001"}},
	// The same entry's first-generation embedding models.
	{"openai", "2024-01-04", openAIDeprecations, []string{"text-similarity-ada-001", "text-search-ada-doc-001",
		"text-search-ada-query-001", "code-search-ada-code-001", "code-search-ada-text-001",
		"text-similarity-babbage-001", "text-search-babbage-doc-001", "text-search-babbage-query-001",
		"code-search-babbage-code-001", "code-search-babbage-text-001", "text-similarity-curie-001",
		"text-search-curie-doc-001", "text-search-curie-query-001", "text-similarity-davinci-001",
		"text-search-davinci-doc-001", "text-search-davinci-query-001"}},
	// "2023-06-13: Updated chat models", "2023-11-06: Chat model updates".
	{"openai", "2024-09-13", openAIDeprecations, []string{"gpt-3.5-turbo-0301", "gpt-3.5-turbo-0613", "gpt-3.5-turbo-16k-0613"}},
	// "2024-06-06: GPT-4-32K and Vision Preview models".
	{"openai", "2024-12-06", openAIDeprecations, []string{"gpt-4-vision-preview", "gpt-4-1106-vision-preview"}},
	{"openai", "2025-06-06", openAIDeprecations, []string{"gpt-4-32k", "gpt-4-32k-0613", "gpt-4-32k-0314"}},
	// "2025-04-14: GPT-4.5-preview", "2025-04-28: o1-preview and o1-mini".
	{"openai", "2025-07-14", openAIDeprecations, []string{"gpt-4.5-preview"}},
	{"openai", "2025-07-28", openAIDeprecations, []string{"o1-preview"}},
	{"openai", "2025-10-27", openAIDeprecations, []string{"o1-mini"}},
	// "2025-11-18: chatgpt-4o-latest snapshot".
	{"openai", "2026-02-17", openAIDeprecations, []string{"chatgpt-4o-latest"}},
	// "2025-09-26: Legacy GPT model snapshots".
	{"openai", "2026-03-26", openAIDeprecations, []string{"gpt-4-0314", "gpt-4-1106-preview", "gpt-4-0125-preview",
		"gpt-4-turbo-preview", "gpt-4-turbo-preview-completions"}},
	{"openai", "2026-09-28", openAIDeprecations, []string{"gpt-3.5-turbo-instruct", "babbage-002", "davinci-002", "gpt-3.5-turbo-1106"}},
	// "2025-11-14: DALL·E model snapshots".
	{"openai", "2026-05-12", openAIDeprecations, []string{"dall-e-2", "dall-e-3"}},
	// "2026-04-22: Legacy GPT model snapshots".
	{"openai", "2026-07-23", openAIDeprecations, []string{"gpt-4o-search-preview-2025-03-11", "gpt-4o-mini-search-preview-2025-03-11",
		"gpt-5-chat-latest", "gpt-5.1-chat-latest", "gpt-5-codex", "gpt-5.1-codex", "gpt-5.1-codex-max", "gpt-5.1-codex-mini", "gpt-5.2-codex"}},
	{"openai", "2026-10-23", openAIDeprecations, []string{"gpt-3.5-turbo", "gpt-3.5-turbo-0125", "gpt-3.5-turbo-completions",
		"gpt-4", "gpt-4-0613", "gpt-4-completions", "gpt-4-0613-completions", "gpt-4-turbo", "gpt-4-turbo-2024-04-09",
		"gpt-4-turbo-completions", "gpt-4.1-nano", "gpt-4.1-nano-2025-04-14", "gpt-4o-2024-05-13", "gpt-image-1",
		"o1", "o1-2024-12-17", "o1-pro", "o1-pro-2025-03-19", "o3-mini", "o3-mini-2025-01-31", "o4-mini", "o4-mini-2025-04-16"}},
	// "2026-05-08: gpt-5.2-chat-latest and gpt-5.3-chat-latest".
	{"openai", "2026-08-10", openAIDeprecations, []string{"gpt-5.2-chat-latest", "gpt-5.3-chat-latest"}},
	// "2026-10-14: GPT-4 family deprecations": not yet.
	{"openai", "2027-01-14", openAIDeprecations, []string{"gpt-4o-2024-08-06", "gpt-4o-2024-11-20", "gpt-4o-mini-2024-07-18",
		"gpt-4.1-2025-04-14", "gpt-4.1-mini-2025-04-14"}},
	// "Upcoming deprecations", notice date Jun 11, 2026: not yet. The
	// aliases shut down with their snapshots; gpt-5-mini is n8n's default
	// for the OpenAI chat model (LmChatOpenAi.node.js L177, L189), so from
	// the check that moves RetiredAsOf past this date, a chat model left at
	// its default is refused. The page's gpt-5-pro, o3 and o3-pro rows were
	// not read (the copy found breaks off before them) and are left out.
	{"openai", "2026-12-11", openAIDeprecations, []string{"gpt-5", "gpt-5-2025-08-07", "gpt-5-mini", "gpt-5-mini-2025-08-07",
		"gpt-5-nano", "gpt-5-nano-2025-08-07"}},

	// Anthropic, the model status table (the Claude API's dates).
	{"anthropic", "2024-11-06", anthropicDeprecations, []string{"claude-1.0", "claude-1.1", "claude-1.2", "claude-1.3",
		"claude-instant-1.0", "claude-instant-1.1", "claude-instant-1.2"}},
	{"anthropic", "2025-07-21", anthropicDeprecations, []string{"claude-2.0", "claude-2.1", "claude-3-sonnet-20240229"}},
	{"anthropic", "2025-10-28", anthropicDeprecations, []string{"claude-3-5-sonnet-20240620", "claude-3-5-sonnet-20241022"}},
	{"anthropic", "2026-01-05", anthropicDeprecations, []string{"claude-3-opus-20240229"}},
	{"anthropic", "2026-02-19", anthropicDeprecations, []string{"claude-3-5-haiku-20241022", "claude-3-7-sonnet-20250219"}},
	{"anthropic", "2026-04-20", anthropicDeprecations, []string{"claude-3-haiku-20240307"}},
	{"anthropic", "2026-06-15", anthropicDeprecations, []string{"claude-opus-4-20250514", "claude-sonnet-4-20250514"}},
	{"anthropic", "2026-08-05", anthropicDeprecations, []string{"claude-opus-4-1-20250805"}},
	{"anthropic", "2026-11-30", anthropicSonnet45, []string{"claude-sonnet-4-5-20250929"}},

	// Google, the Gemini API (not Vertex AI, whose dates differ).
	{"google-gemini", "2025-12-02", geminiDeprecations, []string{"gemini-2.5-pro-preview-03-25", "gemini-2.5-pro-preview-05-06", "gemini-2.5-pro-preview-06-05"}},
	// "14 de enero de 2026: El modelo text-embedding-004 se cerró" (the
	// changelog's Spanish copy, ai.google.dev/gemini-api/docs/changelog?hl=es).
	{"google-gemini", "2026-01-14", geminiChangelog, []string{"text-embedding-004"}},
	{"google-gemini", "2026-01-15", geminiChangelog, []string{"gemini-2.5-flash-image-preview"}},
	// The changelog's 2026-01-15 entry writes the September 2025 Flash
	// preview "gemini-2.5-flash-preview-09-25"; the id Google serves, and
	// n8n sends from its model list, ends "-09-2025", as its twin's model
	// page gives the code (ai.google.dev/gemini-api/docs/models/
	// gemini-2.5-flash-lite-preview-09-2025). Both spellings are kept.
	{"google-gemini", "2026-02-17", geminiChangelog, []string{"gemini-2.5-flash-preview-09-2025", "gemini-2.5-flash-preview-09-25"}},
	{"google-gemini", "2025-11-26", gemini0520Refused, []string{"gemini-2.5-flash-preview-05-20"}},
	{"google-gemini", "2026-03-09", geminiDeprecations, []string{"gemini-3-pro-preview"}},
	{"google-gemini", "2026-05-25", geminiChangelog, []string{"gemini-3.1-flash-lite-preview"}},
	{"google-gemini", "2026-06-01", geminiChangelog, []string{"gemini-2.0-flash", "gemini-2.0-flash-001", "gemini-2.0-flash-lite", "gemini-2.0-flash-lite-001"}},
	// Vertex AI dates gemini-1.5-pro-002 and gemini-1.5-flash-002 "September
	// 24, 2025"; the Gemini API served the same family under these ids and
	// aliases, and its pages no longer list any of them (geminiV15).
	{"google-gemini", "2025-09-24", geminiV15, []string{"gemini-1.5-pro", "gemini-1.5-pro-001", "gemini-1.5-pro-002", "gemini-1.5-pro-latest",
		"gemini-1.5-flash", "gemini-1.5-flash-001", "gemini-1.5-flash-002", "gemini-1.5-flash-latest",
		"gemini-1.5-flash-8b", "gemini-1.5-flash-8b-001", "gemini-1.5-flash-8b-latest"}},
	// The models page: "Gemini 1.0 Pro (Deprecated on 2/15/2025)", model
	// code gemini-1.0-pro; "gemini-pro" is its alias (not gemini-pro-latest,
	// which the changelog moved to Gemini 3 Pro on 2026-01-21).
	{"google-gemini", "2025-02-15", geminiModelsPage, []string{"gemini-1.0-pro", "gemini-1.0-pro-001", "gemini-1.0-pro-latest", "gemini-pro"}},

	// DeepSeek: "The model names deepseek-chat and deepseek-reasoner will be
	// deprecated on 2026/07/24 15:59 UTC. For compatibility, they correspond
	// to the non-thinking mode and thinking mode of deepseek-v4-flash". The
	// later copy (after 2026-09-14) names deepseek-v4-flash as a legacy name
	// still accepted, and not these. deepseek-chat is n8n's default for the
	// DeepSeek chat model (zz_nodes_generated.go, lmChatDeepSeek v1).
	{"deepseek", "2026-07-24", deepseekNames, []string{"deepseek-chat", "deepseek-reasoner"}},

	// Perplexity's Sonar API. Not its Llama-era ids (llama-3.1-sonar-*),
	// which no Perplexity page read dates, nor the Sonar Chat Completions
	// API as a whole: n8n's Perplexity v2 notice says "Sonar service ends
	// September 27, 2026", but Perplexity's own migration page read says
	// it "remains supported" (docs/n8n-facts.md).
	{"perplexity", "2025-08-01", perplexityChangelog, []string{"r1-1776"}},
	{"perplexity", "2025-12-15", perplexityChangelog, []string{"sonar-reasoning"}},

	// Mistral, the "Legacy models" table's "Retirement date" column (the
	// Mistral Medium 1.0 model page gives mistral-medium-2312 the same
	// 2025-06-16). Not the deprecated aliases mistral-tiny, mistral-small
	// and mistral-medium (n8n's default for its Mistral chat model is
	// "mistral-small"), which no page read dates.
	{"mistral", "2025-03-30", mistralLegacy, []string{"open-mistral-7b", "open-mixtral-8x7b", "open-mixtral-8x22b", "mistral-large-2407"}},
	{"mistral", "2025-06-16", mistralLegacy, []string{"mistral-medium-2312", "mistral-small-2402", "mistral-large-2402", "codestral-2405"}},
	{"mistral", "2025-09-30", mistralLegacy, []string{"mistral-saba-2502"}},

	// xAI's Grok 2, each id by the day its API was seen refusing it (the
	// sources above). Not the alias "grok-2", which no source read saw
	// refused: it stays served, priced by its row.
	{"xai", "2026-02-26", xaiGrok2LatestRefused, []string{"grok-2-latest"}},
	{"xai", "2026-03-09", xaiGrok2VisionRefused, []string{"grok-2-vision-1212", "grok-2-vision", "grok-2-vision-latest",
		"grok-2-image-1212", "grok-2-image", "grok-2-image-latest"}},
	{"xai", "2026-07-24", xaiGrok2Refused, []string{"grok-2-1212"}},

	// Groq, "August 16, 2026: llama-3.1-8b-instant and llama-3.3-70b-versatile".
	{"groq", "2026-08-16", groqDeprecations, []string{"llama-3.1-8b-instant", "llama-3.3-70b-versatile"}},
	// Groq, the earlier sections' "Shutdown Date" columns.
	{"groq", "2024-11-25", groqShutdowns, []string{"llama-3.2-90b-text-preview"}},
	{"groq", "2024-12-18", groqShutdowns, []string{"gemma-7b-it"}},
	{"groq", "2025-01-06", groqShutdowns, []string{"llama3-groq-8b-8192-tool-use-preview", "llama3-groq-70b-8192-tool-use-preview"}},
	{"groq", "2025-01-24", groqShutdowns, []string{"llama-3.1-70b-versatile", "llama-3.1-70b-specdec"}},
	{"groq", "2025-03-20", groqShutdowns, []string{"mixtral-8x7b-32768"}},
	{"groq", "2025-03-24", groqShutdowns, []string{"deepseek-r1-distill-llama-70b-specdec"}},
	{"groq", "2025-04-14", groqShutdowns, []string{"llama-3.2-1b-preview", "llama-3.2-3b-preview", "llama-3.2-11b-vision-preview",
		"llama-3.2-90b-vision-preview", "deepseek-r1-distill-qwen-32b", "qwen-2.5-32b", "qwen-2.5-coder-32b", "llama-3.3-70b-specdec"}},
	{"groq", "2025-06-06", groqShutdowns, []string{"llama-guard-3-8b"}},
	{"groq", "2025-07-14", groqShutdowns, []string{"qwen-qwq-32b"}},
	{"groq", "2025-07-30", groqShutdowns, []string{"mistral-saba-24b"}},
	{"groq", "2025-08-23", groqShutdowns, []string{"distil-whisper-large-v3-en"}},
	// "August 30, 2025: llama3-70b-8192 and llama3-8b-8192"; the latter is
	// the default model of n8n's Groq chat model (LmChatGroq.node.js L92).
	{"groq", "2025-08-30", groqShutdowns, []string{"llama3-70b-8192", "llama3-8b-8192"}},
	{"groq", "2025-10-02", groqShutdowns, []string{"deepseek-r1-distill-llama-70b"}},
	{"groq", "2025-10-08", groqShutdowns, []string{"gemma2-9b-it"}},
	{"groq", "2025-10-10", groqShutdowns, []string{"moonshotai/kimi-k2-instruct"}},
	{"groq", "2025-12-31", groqShutdowns, []string{"playai-tts", "playai-tts-arabic"}},
	// The page's 2026 sections: "March 5, 2026: meta-llama/llama-guard-4-12b",
	// "March 9, 2026: meta-llama/llama-4-maverick-17b-128e-instruct",
	// "April 15, 2026: moonshotai/kimi-k2-instruct-0905" and "September 21,
	// 2026: groq/compound and groq/compound-mini" for every account; "July
	// 17, 2026: qwen/qwen3-32b and meta-llama/llama-4-scout-17b-16e-instruct"
	// and "September 14, 2026: qwen/qwen3.6-27b" for free and developer-tier
	// accounts.
	{"groq", "2026-03-05", groqShutdowns, []string{"meta-llama/llama-guard-4-12b"}},
	{"groq", "2026-03-09", groqShutdowns, []string{"meta-llama/llama-4-maverick-17b-128e-instruct"}},
	{"groq", "2026-04-15", groqShutdowns, []string{"moonshotai/kimi-k2-instruct-0905"}},
	{"groq", "2026-07-17", groqDeprecations, []string{"qwen/qwen3-32b", "meta-llama/llama-4-scout-17b-16e-instruct"}},
	{"groq", "2026-09-14", groqDeprecations, []string{"qwen/qwen3.6-27b"}},
	{"groq", "2026-09-21", groqShutdowns, []string{"groq/compound", "groq/compound-mini"}},
}

// routedModels are ids a provider's API still accepts but serves, and
// bills, as a newer model from the day it says. The Gemini API's, as its
// deprecations page was read on 2026-11-10 (docs/n8n-facts.md): from
// 2026-12-01 "requests to gemini-2.5-pro are automatically routed to
// gemini-3.8-flash", "billed at the new model's rates". gemini-2.5-flash
// goes to gemini-3.5-flash-lite at the rates it had ($0.30/$2.50), so it
// keeps its row. Vertex AI and gateways have their own schedules.
//
// xAI's "Grok Model Retirement on May 15, 2026"
// (docs.x.ai/developers/migration/may-15-retirement, read 2026-12-06):
// "After May 15, 2026 at 12:00 PM PT, requests to the retired model slugs
// above will automatically redirect to grok-4.3. The slugs themselves
// continue to resolve", "billed at grok-4.3 pricing of $1.25 per 1M input
// tokens and $2.50 per 1M output tokens rather than the rates of the
// original model". An earlier copy of the page (and its first URL,
// may-15-deprecation) said the requests "will no longer work"; the later
// copy redirects, so the ids answer and bill, and are not retiredModels.
// grok-imagine-image-pro, an image model, goes to grok-imagine-image-quality
// and is not listed.
var routedModels = []struct{ provider, date, id, to string }{
	{"google-gemini", "2026-12-01", "gemini-2.5-pro", "gemini-3.8-flash"},
	{"xai", "2026-05-15", "grok-4-1-fast-reasoning", "grok-4.3"},
	{"xai", "2026-05-15", "grok-4-1-fast-non-reasoning", "grok-4.3"},
	{"xai", "2026-05-15", "grok-4-fast-reasoning", "grok-4.3"},
	{"xai", "2026-05-15", "grok-4-fast-non-reasoning", "grok-4.3"},
	{"xai", "2026-05-15", "grok-4-0709", "grok-4.3"},
	{"xai", "2026-05-15", "grok-code-fast-1", "grok-4.3"},
	{"xai", "2026-05-15", "grok-3", "grok-4.3"},
}

// BilledModel is the model a call to model on node n is served and billed
// as: the newer model its provider routes the id to (routedModels), else
// model itself.
func BilledModel(n *Node, model string) string {
	provider := providerNodes[strings.TrimSuffix(n.Type, "Tool")]
	if c, ok := HTTPModelCallOf(n); ok {
		provider = c.Provider
	}
	m := NormalizeModel(model) // "models/gemini-2.5-pro" too
	for _, r := range routedModels {
		if r.provider == provider && r.id == m && r.date <= RetiredAsOf {
			return r.to
		}
	}
	return model
}

// RetiredModel is a model a provider shut down, as its page says.
type RetiredModel struct {
	Model    string // as the node sends it
	Provider string // "OpenAI", "Anthropic", "Google", "Groq", "DeepSeek", "Perplexity", "Mistral", "xAI"
	Date     string // the day the provider's API stopped serving it
	Source   string // the page the date was read from
	// Observed: Date is a day the API was seen refusing the id, not the
	// shutdown's own day.
	Observed bool
}

// When says when the model stopped answering: "on DATE", or "by DATE" when
// the source saw the API refuse it that day.
func (r RetiredModel) When() string {
	if r.Observed {
		return "by " + r.Date
	}
	return "on " + r.Date
}

// Why says what the call meets, in the words RS010 reports.
func (r RetiredModel) Why() string {
	return "it calls the model " + strconv.Quote(r.Model) + ", which " + r.Provider + " shut down " + r.When() +
		" (" + r.Source + "): " + r.Provider + " refuses every call to it and nothing is generated or billed"
}

// LookupRetired reports a model id that provider's API (as
// HTTPModelCall.Provider names it) no longer serves as of RetiredAsOf.
// Gemini's "models/" prefix is dropped; nothing else is: an id is matched
// exactly, so "openai/gpt-4" (a gateway's name) and "gpt-4o" are not.
func LookupRetired(provider, model string) (RetiredModel, bool) {
	m := strings.TrimSpace(model)
	if provider == "google-gemini" {
		m = strings.TrimPrefix(m, "models/")
	}
	id := m
	if base, ok := datedSnapshotOf(m); ok && slices.Contains(retiredWithSnapshots[provider], base) {
		id = base
	}
	for _, e := range retiredModels {
		if e.provider != provider || e.date > RetiredAsOf {
			continue
		}
		if slices.Contains(e.ids, id) {
			return RetiredModel{Model: m, Provider: e.src.provider, Date: e.date, Source: e.src.page, Observed: e.src.observed}, true
		}
	}
	return RetiredModel{}, false
}

// retiredWithSnapshots are the table's ids whose provider page retires the
// model itself, not one snapshot of it, so its dated snapshots ("o1-mini-
// 2024-09-12") went with it. OpenAI's deprecations page: "2025-04-28:
// o1-preview and o1-mini", "we notified developers using o1-preview and
// o1-mini of their deprecations and removal from the API"; "2025-04-14:
// GPT-4.5-preview", "the gpt-4.5-preview model is deprecated and will be
// removed from the API". Where the page names snapshots one by one (the
// 2026 entries: "gpt-4o-2024-05-13" but not "gpt-4o"), an unnamed snapshot
// or alias is not matched.
var retiredWithSnapshots = map[string][]string{
	"openai": {"o1-preview", "o1-mini", "gpt-4.5-preview"},
}

// datedSnapshotOf splits a dated snapshot id, base + "-YYYY-MM-DD" (OpenAI's
// naming), into its base.
func datedSnapshotOf(id string) (string, bool) {
	const n = len("-2024-09-12")
	if len(id) <= n {
		return "", false
	}
	base, date := id[:len(id)-n], id[len(id)-n:]
	for i, c := range date {
		switch i {
		case 0, 5, 8:
			if c != '-' {
				return "", false
			}
		default:
			if c < '0' || c > '9' {
				return "", false
			}
		}
	}
	return base, true
}

// providerNodes are the model nodes that call their provider's own API
// with the provider's credential: the chat model sub-nodes and the app
// nodes of OpenAI, Anthropic and the Gemini API, the Groq and DeepSeek
// chat models, the Perplexity node (not Vertex AI, Azure OpenAI or
// OpenRouter, whose schedules differ).
var providerNodes = map[string]string{
	"@n8n/n8n-nodes-langchain.lmChatOpenAi":       "openai",
	"@n8n/n8n-nodes-langchain.lmOpenAi":           "openai",
	"@n8n/n8n-nodes-langchain.openAi":             "openai",
	"n8n-nodes-base.openAi":                       "openai",
	"@n8n/n8n-nodes-langchain.lmChatAnthropic":    "anthropic",
	"@n8n/n8n-nodes-langchain.anthropic":          "anthropic",
	"@n8n/n8n-nodes-langchain.lmChatGoogleGemini": "google-gemini",
	"@n8n/n8n-nodes-langchain.googleGemini":       "google-gemini",
	"@n8n/n8n-nodes-langchain.lmChatGroq":         "groq",
	"@n8n/n8n-nodes-langchain.lmChatDeepSeek":     "deepseek",
	"n8n-nodes-base.perplexity":                   "perplexity",
	// ChatMistralAI with the credential's key and the SDK's own server,
	// api.mistral.ai (LmChatMistralCloud.node.js supplyData); the model id
	// is sent as stored.
	"@n8n/n8n-nodes-langchain.lmChatMistralCloud": "mistral",
	// ChatOpenAI with the credential's key and its url, xAI's API
	// (LmChatXAiGrok.node.js L235-250 supplyData); the model id is sent as
	// stored ("model", default grok-2-vision-1212: zz_nodes_generated.go).
	"@n8n/n8n-nodes-langchain.lmChatXAiGrok": "xai",
}

// embeddingNodes are the embeddings sub-nodes that call their provider's
// own API, and the parameter that names the model: Embeddings OpenAI's
// "model" (EmbeddingsOpenAI/EmbeddingsOpenAi.node.js L63-65, L106-124,
// L240: default text-embedding-ada-002 at v1, text-embedding-3-small
// after) and Embeddings Google Gemini's "modelName"
// (EmbeddingsGoogleGemini/EmbeddingsGoogleGemini.node.js L55, L104, L111:
// default models/gemini-embedding-001). Both defaults are live, so only a
// stored id is judged.
var embeddingNodes = map[string]struct{ provider, param string }{
	"@n8n/n8n-nodes-langchain.embeddingsOpenAi":       {"openai", "model"},
	"@n8n/n8n-nodes-langchain.embeddingsGoogleGemini": {"google-gemini", "modelName"},
}

// retiredEmbedding reports an embeddings sub-node whose literal model id
// its provider shut down. n8n builds the client in supplyData without a
// call (EmbeddingsGoogleGemini.node.js L109-121, EmbeddingsOpenAi.node.js
// L217-250); the provider refuses each embedDocuments or embedQuery the
// root makes. An OpenAI node whose options.baseURL points elsewhere calls
// another API and is not judged.
func retiredEmbedding(n *Node) (RetiredModel, bool) {
	e, ok := embeddingNodes[n.Type]
	if !ok {
		return RetiredModel{}, false
	}
	if v, set := n.Param("options.baseURL"); set && (v.Kind() != String || v.Str() != "" && !strings.HasPrefix(strings.TrimSpace(v.Str()), "https://api.openai.com/")) {
		return RetiredModel{}, false
	}
	v, ok := n.Param(e.param)
	if !ok || v.Kind() != String || strings.Contains(v.Str(), "{{") {
		return RetiredModel{}, false
	}
	// "=" with no {{ }} evaluates to the text after it.
	return LookupRetired(e.provider, strings.TrimPrefix(v.Str(), "="))
}

// RetiredModelCall reports a node that calls a model its provider shut
// down, by a literal model id: a chat model or app node of that provider
// at a resource and operation it defines (operationDefined)
// (ModelOf: set on the node, or n8n's default when the node stores no
// model, since n8n fills in a parameter's default when it loads the
// workflow: n8n-workflow/dist/cjs/workflow.js, "Add default values"), or
// an HTTP Request to the provider's generation endpoint (HTTPModelCallOf).
// An OpenAI chat model whose options.baseURL points elsewhere calls
// another API and is not judged; the base URL a credential holds is not in
// the export.
func RetiredModelCall(n *Node) (RetiredModel, bool) {
	typ := strings.TrimSuffix(n.Type, "Tool")
	if c, ok := HTTPModelCallOf(n); ok {
		return LookupRetired(c.Provider, c.Model)
	}
	if _, ok := embeddingNodes[n.Type]; ok {
		return retiredEmbedding(n)
	}
	provider, ok := providerNodes[typ]
	if !ok || !operationDefined(n, typ) || !RunsModel(n) {
		return RetiredModel{}, false
	}
	if v, set := n.Param("options.baseURL"); set && (v.Kind() != String || v.Str() != "" && !strings.HasPrefix(strings.TrimSpace(v.Str()), "https://api.openai.com/")) {
		return RetiredModel{}, false
	}
	model, isDefault := ModelOf(n)
	if typ == openAiLegacy {
		model, isDefault = legacyModel(n)
	}
	if model == "" || isDefault && storesModel(n, typ) {
		return RetiredModel{}, false // an expression, or a stored value ModelOf did not read
	}
	return LookupRetired(provider, model)
}

// operationDefined reports whether the node's resource and operation,
// after their defaults, are ones its description defines (a node whose
// table lists no operations, a chat model, always is). n8n builds a
// declarative node's request only from the option that matches the stored
// value and skips the properties it hides (n8n-core
// dist/execution-engine/routing-node.js getRequestOptionsFromParameters:
// displayParameter, "selectedOption"), and a programmatic node's router
// finds no code to run: with an operation "completion" where the legacy
// OpenAI node's text resource defines complete, edit and moderate, no
// model is sent. The nearest version's description stands for a version
// the table does not list (the legacy node is one description for all);
// an expression leaves the request unknown, and the model unjudged.
func operationDefined(n *Node, typ string) bool {
	d, ok := n.describeAs(typ)
	if !ok || d.e == nil || len(d.e.ops) == 0 {
		return true
	}
	res, rok := literalParam(n, "resource")
	op, ook := literalParam(n, "operation")
	if !rok || !ook {
		return false
	}
	absent := res == ""
	if absent || d.resourceless() {
		res = d.DefaultResource()
	}
	if d.resourceOps(res) == nil {
		return false
	}
	if op == "" {
		op = d.DefaultOperation(res)
	}
	_, listed := d.operationOf(res, absent, op)
	return listed
}

// storesModel reports whether the node stores a model parameter at all:
// only a node that stores none runs with n8n's default.
func storesModel(n *Node, typ string) bool {
	for _, p := range modelParams[typ] {
		if _, ok := n.Param(strings.SplitN(p, ".", 2)[0]); ok {
			return true
		}
	}
	return false
}

// legacyModel is the model the legacy OpenAI node sends: its chat
// resource reads "model" at v1 and "chatModel" after, its text resource
// "model" (n8n-nodes-base/dist/nodes/OpenAi/ChatDescription.js,
// TextDescription.js), its image resource "model" at v1 and "imageModel"
// after (ImageDescription.js). When the node stores none it sends the
// default of its resource and operation: chat completion "gpt-3.5-turbo",
// image create "dall-e-2", text complete "gpt-3.5-turbo-instruct" and
// text edit "text-davinci-edit-001" (TextDescription.js completeOperations
// and editOperations; "text" and "complete" are the node's default
// resource and operation, OpenAi.node.js and TextDescription.js). The
// text resource's moderate operation is not judged.
func legacyModel(n *Node) (string, bool) {
	res, ok := literalParam(n, "resource")
	op, opOK := literalParam(n, "operation")
	if !ok {
		return "", false
	}
	param, def := "model", ""
	switch res {
	case "chat":
		if op == "" || op == "complete" {
			def = legacyDefaultModels[openAiLegacy]
		}
		if n.TypeVersion > 1 {
			param = "chatModel"
		}
	case "image":
		if op == "" || op == "create" {
			def = "dall-e-2" // ImageDescription.js: model at v1, imageModel after, both default dall-e-2
		}
		if n.TypeVersion > 1 {
			param = "imageModel"
		}
	case "", "text":
		switch op {
		case "", "complete":
			def = "gpt-3.5-turbo-instruct"
		case "edit":
			def = "text-davinci-edit-001"
		}
	}
	if _, stored := n.Param(param); !stored {
		if !opOK || def == "" {
			return "", false
		}
		return def, true
	}
	m, ok := literalParam(n, param)
	if !ok || m == "" {
		return "", false
	}
	return m, false
}
