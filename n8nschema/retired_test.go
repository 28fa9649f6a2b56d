package n8nschema

import (
	"slices"
	"strings"
	"testing"
)

// TestRetiredModelCall: a model the provider's page says it shut down on
// or before RetiredAsOf, named literally on a node that calls that
// provider's own API, is refused; a live model beside it, a date after
// RetiredAsOf, a gateway's id, a stored empty id, an expression and another
// base URL are not judged.
func TestRetiredModelCall(t *testing.T) {
	for _, c := range []struct {
		node string
		want string // "" when not retired
	}{
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"gpt-4-turbo-preview"}}}`, `"gpt-4-turbo-preview", which OpenAI shut down on 2026-03-26`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1,"parameters":{"model":"gpt-3.5-turbo-0613"}}`, `shut down on 2024-09-13`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"gpt-4"}}}`, `"gpt-4", which OpenAI shut down on 2026-10-23`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"gpt-4o"}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"gpt-4o-2024-08-06"}}}`, ``}, // 2027-01-14
		// OpenAI retired o1-mini, o1-preview and gpt-4.5-preview as models:
		// their dated snapshots went too. Where the page names snapshots one
		// by one, an unnamed one stays live.
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.8,"parameters":{"modelId":{"__rl":true,"mode":"list","value":"o1-mini-2024-09-12"},"messages":{"values":[{"content":"hi"}]}}}`, `"o1-mini-2024-09-12", which OpenAI shut down on 2025-10-27`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"o1-preview-2024-09-12"}}}`, `"o1-preview-2024-09-12", which OpenAI shut down on 2025-07-28`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"gpt-4.5-preview-2025-02-27"}}}`, `shut down on 2025-07-14`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"o1-mini-2024-09"}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"o1-mini-high"}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"gpt-4o-2024-08-06"}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"gpt-4-turbo-2099-01-01"}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenRouter","typeVersion":1,"parameters":{"model":"openai/o1-mini-2024-09-12"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"gpt-4"},"options":{"baseURL":"https://openrouter.ai/api/v1"}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"gpt-4"},"options":{"baseURL":"https://api.openai.com/v1"}}}`, `shut down on 2026-10-23`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":"={{ $json.model }}"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenRouter","typeVersion":1,"parameters":{"model":"google/gemini-2.0-flash-001"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatAzureOpenAi","typeVersion":1,"parameters":{"model":"gpt-4"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleVertex","typeVersion":1,"parameters":{"modelName":"gemini-2.0-flash"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-2.0-flash"}}`, `"gemini-2.0-flash", which Google shut down on 2026-06-01 (Gemini API changelog`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-2.0-flash-exp"}}`, ``},
		// Gemini 1.5 at Vertex AI's date, and Gemini 1.0 Pro with its alias.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-1.5-flash"}}`, `"gemini-1.5-flash", which Google shut down on 2025-09-24 (Vertex AI's date`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-1.5-pro-latest"}}`, `shut down on 2025-09-24`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-1.5-flash-8b-001"}}`, `shut down on 2025-09-24`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-pro"}}`, `"gemini-pro", which Google shut down on 2025-02-15 (Gemini API models page`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-pro-latest"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleVertex","typeVersion":1,"parameters":{"modelName":"gemini-1.5-flash"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenRouter","typeVersion":1,"parameters":{"model":"google/gemini-1.5-flash"}}`, ``},
		// Seen refused by the API, not dated by a page: "by" its day; its
		// April twin, with no answer quoted, is not judged.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-2.5-flash-preview-05-20"}}`, `"gemini-2.5-flash-preview-05-20", which Google shut down by 2025-11-26 (the Gemini API's 404`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-2.5-flash-preview-04-17"}}`, ``},
		// Routed to a newer model from 2026-12-01: it keeps answering.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-2.5-flash"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-2.5-pro"}}`, ``},
		// Perplexity removed sonar-reasoning (2025-12-15) and R1-1776; its
		// other Sonar ids, the Llama-era ids (no dated page), n8n's default
		// "sonar" and a gateway's id answer.
		{`{"type":"n8n-nodes-base.perplexityTool","typeVersion":1,"parameters":{"model":"sonar-reasoning","options":{}}}`, `"sonar-reasoning", which Perplexity shut down on 2025-12-15 (Perplexity API changelog`},
		{`{"type":"n8n-nodes-base.perplexity","typeVersion":1,"parameters":{"model":"r1-1776"}}`, `shut down on 2025-08-01`},
		{`{"type":"n8n-nodes-base.perplexity","typeVersion":1,"parameters":{"model":"sonar-reasoning-pro"}}`, ``},
		{`{"type":"n8n-nodes-base.perplexity","typeVersion":1,"parameters":{"model":"llama-3.1-sonar-small-128k-online"}}`, ``},
		{`{"type":"n8n-nodes-base.perplexity","typeVersion":1,"parameters":{}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenRouter","typeVersion":1,"parameters":{"model":"perplexity/sonar-reasoning"}}`, ``},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.perplexity.ai/chat/completions","authentication":"genericCredentialType","genericAuthType":"httpHeaderAuth","sendBody":true,"specifyBody":"json","jsonBody":"={\"model\": \"sonar-reasoning\", \"messages\": [{\"role\": \"user\", \"content\": {{ JSON.stringify($json.q) }}}]}"}}`, `"sonar-reasoning", which Perplexity shut down on 2025-12-15`},
		// xAI's API was seen refusing its Grok 2 ids, n8n's default for the
		// xAI Grok chat model among them; the alias grok-2, which no source
		// saw refused, and OpenRouter's slug (a gateway's id) are not judged.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenRouter","typeVersion":1,"parameters":{"model":"x-ai/grok-2-1212"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatXAiGrok","typeVersion":1,"parameters":{"model":"grok-2-1212"}}`, `"grok-2-1212", which xAI shut down by 2026-07-24 (xAI's 400 "Model not found" for it`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatXAiGrok","typeVersion":1,"parameters":{"options":{}}}`, `"grok-2-vision-1212", which xAI shut down by 2026-03-09`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatXAiGrok","typeVersion":1,"parameters":{"model":"grok-2-latest"}}`, `"grok-2-latest", which xAI shut down by 2026-02-26`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatXAiGrok","typeVersion":1,"parameters":{"model":"grok-2"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatXAiGrok","typeVersion":1,"parameters":{"model":"grok-3"}}`, ``}, // routed to grok-4.3
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.x.ai/v1/chat/completions","authentication":"predefinedCredentialType","nodeCredentialType":"xAiApi","sendBody":true,"specifyBody":"json","jsonBody":"={\"model\": \"grok-2-vision-latest\", \"messages\": [{\"role\": \"user\", \"content\": {{ JSON.stringify($json.q) }}}]}"}}`, `"grok-2-vision-latest", which xAI shut down by 2026-03-09`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-2.5-pro-exp-03-25"}}`, ``},
		// Mistral's legacy table; n8n's default alias "mistral-small", the
		// -latest aliases and a gateway's id answer.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatMistralCloud","typeVersion":1,"parameters":{"model":"mistral-small-2402","options":{}}}`, `"mistral-small-2402", which Mistral shut down on 2025-06-16 (Mistral models overview`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatMistralCloud","typeVersion":1,"parameters":{"model":"open-mixtral-8x7b"}}`, `which Mistral shut down on 2025-03-30`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatMistralCloud","typeVersion":1,"parameters":{"options":{}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatMistralCloud","typeVersion":1,"parameters":{"model":"mistral-large-latest"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenRouter","typeVersion":1,"parameters":{"model":"mistralai/mistral-large-2402"}}`, ``},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.mistral.ai/v1/chat/completions","authentication":"predefinedCredentialType","nodeCredentialType":"mistralCloudApi","sendBody":true,"specifyBody":"json","jsonBody":"={\"model\": \"mistral-large-2402\", \"messages\": [{\"role\": \"user\", \"content\": {{ JSON.stringify($json.q) }}}]}"}}`, `"mistral-large-2402", which Mistral shut down on 2025-06-16`},
		// Google's deprecations page gives gemini-2.5-flash-image only an
		// earliest date (October 2026), and no page read says it was shut
		// down: it answers.
		{`{"type":"@n8n/n8n-nodes-langchain.googleGemini","typeVersion":1,"parameters":{"resource":"image","operation":"generate","modelId":{"__rl":true,"mode":"list","value":"models/gemini-2.5-flash-image"}}}`, ``},
		// DeepSeek's legacy names, n8n's default among them; the V4 names answer.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatDeepSeek","typeVersion":1,"parameters":{"options":{}}}`, `"deepseek-chat", which DeepSeek shut down on 2026-07-24 (DeepSeek API docs`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatDeepSeek","typeVersion":1,"parameters":{"model":"deepseek-reasoner"}}`, `"deepseek-reasoner", which DeepSeek shut down on 2026-07-24`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatDeepSeek","typeVersion":1,"parameters":{"model":"deepseek-v4-flash"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatDeepSeek","typeVersion":1,"parameters":{"model":"={{ $json.m }}"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenRouter","typeVersion":1,"parameters":{"model":"deepseek/deepseek-chat"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{}}`, ``}, // n8n's default
		// The id Google serves for the September 2025 Flash preview, and the changelog's spelling.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-2.5-flash-preview-09-2025"}}`, `"gemini-2.5-flash-preview-09-2025", which Google shut down on 2026-02-17`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-2.5-flash-preview-09-25"}}`, `shut down on 2026-02-17`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-2.5-flash-lite-preview-09-2025"}}`, ``}, // no dated page
		// The OpenAI app node's conversation resource sends no model.
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"resource":"conversation","operation":"create","modelId":{"__rl":true,"mode":"list","value":"gpt-4-0613"}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":2.1,"parameters":{"resource":"text","operation":"response","modelId":{"__rl":true,"mode":"list","value":"gpt-4-0613"}}}`, `shut down on 2026-10-23`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{"model":{"__rl":true,"mode":"list","value":"claude-3-5-sonnet-20241022"}}}`, `which Anthropic shut down on 2025-10-28`},
		// A node that stores no model sends n8n's default for its version.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.2,"parameters":{}}`, `"claude-3-5-sonnet-20240620", which Anthropic shut down on 2025-10-28`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{"options":{}}}`, `"claude-sonnet-4-5-20250929", which Anthropic shut down on 2026-11-30`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.4,"parameters":{}}`, ``},                                               // claude-sonnet-4-6
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{"model":{"__rl":true,"mode":"list","value":""}}}`, ``}, // stored, empty: not the default
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{"model":"={{ $json.m }}"}}`, ``},
		// Embeddings: only a stored id (both nodes' defaults are live).
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/text-embedding-004"}}`, `"text-embedding-004", which Google shut down on 2026-01-14`},
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsGoogleGemini","typeVersion":1,"parameters":{"modelName":"=models/text-embedding-004"}}`, `"text-embedding-004", which Google shut down on 2026-01-14`},
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/gemini-embedding-001"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsGoogleGemini","typeVersion":1,"parameters":{}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsGoogleGemini","typeVersion":1,"parameters":{"modelName":"={{ $json.m }}"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsOpenAi","typeVersion":1.2,"parameters":{"model":"text-similarity-ada-001"}}`, `"text-similarity-ada-001", which OpenAI shut down on 2024-01-04`},
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsOpenAi","typeVersion":1.2,"parameters":{"model":"text-similarity-ada-001","options":{"baseURL":"https://llm.example.com/v1"}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsOpenAi","typeVersion":1,"parameters":{}}`, ``}, // text-embedding-ada-002
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsGoogleVertex","typeVersion":1,"parameters":{"modelName":"text-embedding-004"}}`, ``},
		// Groq: the ids its page dates, n8n's default llama3-8b-8192 among them.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{"model":"llama-3.3-70b-versatile"}}`, `"llama-3.3-70b-versatile", which Groq shut down on 2026-08-16`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{"model":"openai/gpt-oss-120b"}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{}}`, `"llama3-8b-8192", which Groq shut down on 2025-08-30 (Groq model deprecations, console.groq.com/docs/deprecations)`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{"model":"gemma2-9b-it"}}`, `"gemma2-9b-it", which Groq shut down on 2025-10-08`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{"model":"mixtral-8x7b-32768"}}`, `"mixtral-8x7b-32768", which Groq shut down on 2025-03-20`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{"model":"llama3-70b-8192"}}`, `"llama3-70b-8192", which Groq shut down on 2025-08-30`},
		// Groq's 2026 sections; a date after RetiredAsOf is kept, not yet applied.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{"model":"meta-llama/llama-4-maverick-17b-128e-instruct"}}`, `"meta-llama/llama-4-maverick-17b-128e-instruct", which Groq shut down on 2026-03-09 (Groq model deprecations, console.groq.com/docs/deprecations)`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{"model":"meta-llama/llama-4-scout-17b-16e-instruct"}}`, `which Groq shut down on 2026-07-17 (Groq model deprecations, console.groq.com/docs/deprecations, for free and developer-tier accounts)`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{"model":"moonshotai/kimi-k2-instruct-0905"}}`, `shut down on 2026-04-15`},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGroq","typeVersion":1,"parameters":{"model":"qwen/qwen3.8-27b"}}`, ``},
		// OpenAI's GPT-5 ids shut down on 2026-12-11, after RetiredAsOf:
		// still served, set or left at n8n's default.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":{"__rl":true,"mode":"list","value":"gpt-5-mini"}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"options":{}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatAnthropic","typeVersion":1.3,"parameters":{"model":{"__rl":true,"mode":"list","value":"claude-sonnet-4-6"}}}`, ``},
		{`{"type":"@n8n/n8n-nodes-langchain.anthropic","typeVersion":1,"parameters":{"modelId":{"__rl":true,"mode":"list","value":"claude-3-haiku-20240307"}}}`, `shut down on 2026-04-20`},
		// The legacy OpenAI node reads chatModel for chat after v1.
		{`{"type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"chat","model":"gpt-4-1106-preview"}}`, `shut down on 2026-03-26`},
		{`{"type":"n8n-nodes-base.openAi","typeVersion":1.1,"parameters":{"resource":"chat","model":"gpt-4-1106-preview"}}`, ``},
		{`{"type":"n8n-nodes-base.openAi","typeVersion":1.1,"parameters":{"resource":"chat","chatModel":"gpt-4-1106-preview"}}`, `shut down on 2026-03-26`},
		// Only an operation its resource defines sends the model: n8n's
		// routing applies the option matching the stored operation and
		// skips hidden properties, at any typeVersion of the legacy node.
		{`{"type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"resource":"text","operation":"completion","model":"text-davinci-003"}}`, ``},
		{`{"type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"operation":"completion","model":"text-davinci-003"}}`, ``},
		{`{"type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"resource":"chat","operation":"completion","chatModel":"gpt-4-0314"}}`, ``},
		{`{"type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"resource":"image","operation":"generate"}}`, ``},
		{`{"type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"operation":"={{ $json.op }}","model":"text-davinci-003"}}`, ``},
		{`{"type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"model":"text-davinci-003"}}`, `"text-davinci-003", which OpenAI shut down on 2024-01-04`},
		{`{"type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"resource":"text","operation":"edit","model":"text-davinci-edit-001"}}`, `"text-davinci-edit-001", which OpenAI shut down on 2024-01-04`},
		{`{"type":"n8n-nodes-base.openAi","typeVersion":1.8,"parameters":{"resource":"image","operation":"create"}}`, `"dall-e-2", which OpenAI shut down on 2026-05-12`},
		{`{"type":"@n8n/n8n-nodes-langchain.anthropic","typeVersion":1,"parameters":{"resource":"text","operation":"complete","modelId":{"__rl":true,"mode":"list","value":"claude-3-haiku-20240307"}}}`, ``},
		// HTTP Requests to the provider's generation endpoint, with the
		// provider's credential (without a key the API answers 401 first).
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent","jsonBody":"{}","authentication":"predefinedCredentialType","nodeCredentialType":"googlePalmApi"}}`, `"gemini-2.0-flash", which Google shut down on 2026-06-01`},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent","jsonBody":"{}"}}`, ``},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.openai.com/v1/chat/completions","jsonBody":"{\"model\": \"gpt-4-0613\", \"messages\": []}","authentication":"predefinedCredentialType","nodeCredentialType":"openAiApi"}}`, `"gpt-4-0613", which OpenAI shut down on 2026-10-23`},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-pro:generateContent","jsonBody":"{}","authentication":"predefinedCredentialType","nodeCredentialType":"googlePalmApi"}}`, `"gemini-1.5-pro", which Google shut down on 2025-09-24`},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.deepseek.com/chat/completions","jsonBody":"{\"model\": \"deepseek-chat\", \"messages\": []}","authentication":"predefinedCredentialType","nodeCredentialType":"deepSeekApi"}}`, `"deepseek-chat", which DeepSeek shut down on 2026-07-24`},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.deepseek.com/chat/completions","jsonBody":"{\"model\": \"deepseek-v4-flash\", \"messages\": []}","authentication":"predefinedCredentialType","nodeCredentialType":"deepSeekApi"}}`, ``},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://openrouter.ai/api/v1/chat/completions","jsonBody":"{\"model\": \"google/gemini-2.0-flash-001\"}"}}`, ``},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://openrouter.ai/api/v1/chat/completions","jsonBody":"{\"model\": \"gpt-4\"}"}}`, ``},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+strings.Replace(c.node, `{`, `{"name":"n",`, 1)+`],"connections":{}}`)))
		n := f.Workflows[0].Nodes[0]
		r, ok := RetiredModelCall(n)
		if ok != (c.want != "") || !strings.Contains(r.Why(), c.want) {
			t.Errorf("%s: retired %v (%s), want %q", c.node, ok, r.Why(), c.want)
		}
		if ref, refused := RefusedCall(n); ok && (!refused || !ref.Fails || ref.NoCall || ref.Why != r.Why()) {
			t.Errorf("%s: RefusedCall %+v %v, want the retirement, sent and failing", c.node, ref, refused)
		}
	}
}

// TestRetiredTable: every entry is dated, sourced and named once, and
// RetiredAsOf is a date.
// TestBilledModel: the Gemini API serves gemini-2.5-pro as gemini-3.8-flash
// from 2026-12-01, on its chat model, its app node and an HTTP Request to
// it; Vertex AI, OpenRouter and the other 2.5 ids are not routed.
func TestBilledModel(t *testing.T) {
	for _, c := range []struct{ node, model, want string }{
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1}`, "models/gemini-2.5-pro", "gemini-3.8-flash"},
		{`{"type":"@n8n/n8n-nodes-langchain.googleGemini","typeVersion":1}`, "models/gemini-2.5-pro", "gemini-3.8-flash"},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent"}}`, "gemini-2.5-pro", "gemini-3.8-flash"},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleVertex","typeVersion":1}`, "gemini-2.5-pro", "gemini-2.5-pro"},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenRouter","typeVersion":1}`, "google/gemini-2.5-pro", "google/gemini-2.5-pro"},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1}`, "models/gemini-2.5-pro-exp-03-25", "models/gemini-2.5-pro-exp-03-25"},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatGoogleGemini","typeVersion":1}`, "models/gemini-2.5-flash", "models/gemini-2.5-flash"},
		// xAI redirects its May 15, 2026 slugs to grok-4.3; grok-4 and
		// OpenRouter's x-ai/ ids are not.
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatXAiGrok","typeVersion":1}`, "grok-4-0709", "grok-4.3"},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatXAiGrok","typeVersion":1}`, "grok-3", "grok-4.3"},
		{`{"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.x.ai/v1/chat/completions"}}`, "grok-4-fast-reasoning", "grok-4.3"},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatXAiGrok","typeVersion":1}`, "grok-4", "grok-4"},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenRouter","typeVersion":1}`, "x-ai/grok-3", "x-ai/grok-3"},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+strings.Replace(c.node, `{`, `{"name":"n",`, 1)+`],"connections":{}}`)))
		if got := BilledModel(f.Workflows[0].Nodes[0], c.model); got != c.want {
			t.Errorf("%s %s: billed as %q, want %q", c.node, c.model, got, c.want)
		}
	}
}

func TestRetiredTable(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range retiredModels {
		if len(e.date) != len("2006-01-02") || e.src.page == "" || e.src.provider == "" {
			t.Errorf("entry %v: want a date and a source", e.ids)
		}
		for _, id := range e.ids {
			if seen[e.provider+" "+id] {
				t.Errorf("%s %s listed twice", e.provider, id)
			}
			seen[e.provider+" "+id] = true
		}
	}
	// A date after RetiredAsOf is kept and not applied: the next check
	// moves only RetiredAsOf (OpenAI's gpt-5-mini, 2026-12-11).
	if e, ok := lookupDated("openai", "gpt-5-mini"); !ok || e <= RetiredAsOf {
		t.Errorf("gpt-5-mini: dated %q, want a date after RetiredAsOf %s", e, RetiredAsOf)
	}
	if _, ok := LookupRetired("openai", "gpt-5-mini"); ok {
		t.Errorf("gpt-5-mini: read as shut down before its date")
	}
	if len(RetiredAsOf) != len("2006-01-02") {
		t.Errorf("RetiredAsOf %q is not a date", RetiredAsOf)
	}
}

// lookupDated returns the date the table gives a provider's model, whether
// or not it is past RetiredAsOf.
func lookupDated(provider, model string) (string, bool) {
	for _, e := range retiredModels {
		if e.provider == provider && slices.Contains(e.ids, model) {
			return e.date, true
		}
	}
	return "", false
}

// TestEmbeddingModelOf: an embeddings sub-node names the model it sends,
// stored or its version's default; an expression or another node names none.
func TestEmbeddingModelOf(t *testing.T) {
	for _, c := range []struct{ node, want string }{
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsOpenAi","typeVersion":1.2,"parameters":{"model":"text-embedding-3-large","options":{}}}`, "text-embedding-3-large"},
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsOpenAi","typeVersion":1.2,"parameters":{"options":{}}}`, "text-embedding-3-small"},
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsOpenAi","typeVersion":1,"parameters":{}}`, "text-embedding-ada-002"},
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsGoogleGemini","typeVersion":1,"parameters":{"modelName":"models/text-embedding-004"}}`, "models/text-embedding-004"},
		{`{"type":"@n8n/n8n-nodes-langchain.embeddingsOpenAi","typeVersion":1.2,"parameters":{"model":"={{ $json.m }}"}}`, ""},
		{`{"type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1.2,"parameters":{"model":"gpt-4o"}}`, ""},
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+strings.Replace(c.node, `{`, `{"name":"n",`, 1)+`],"connections":{}}`)))
		if got := EmbeddingModelOf(f.Workflows[0].Nodes[0]); got != c.want {
			t.Errorf("%s: %q, want %q", c.node, got, c.want)
		}
	}
}
