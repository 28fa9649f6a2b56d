package n8nschema

import (
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// HTTPModelCall is an HTTP Request node that calls a paid model API's
// generation endpoint directly: each call bills like a model node's.
type HTTPModelCall struct {
	Provider string // "openai", "anthropic", ...
	Model    string // from the body ("model": "gpt-4o") or Gemini's URL; "" when an expression decides
	// MaxTokens is the output cap the body sets (max_tokens and its
	// spellings); Capped is false when the body sets none.
	MaxTokens int
	Capped    bool
	// CapAtRunTime: the cap is decided at run time, like a max-tokens
	// expression's: the body sets it by an expression, or the whole body
	// is one expression that does not build the request itself
	// ("={{ JSON.stringify($json.body) }}": a node before it does), and
	// what that node builds is not an object literal read (fedBody).
	CapAtRunTime bool
	// FedBody is the object literal a Code or Set node before it builds
	// the body from, when the body is one expression reading it and the
	// literal was read (fedBody); "" otherwise.
	FedBody string
}

// modelEndpoints are the generation endpoints of paid model APIs, by host
// and path (each provider's API reference: OpenAI chat/completions,
// responses, completions and images/generations; Anthropic messages;
// Gemini models/*:generateContent, on Vertex AI too; the OpenAI-compatible chat/completions
// of Perplexity, Mistral, Groq, DeepSeek, xAI, OpenRouter, Together,
// Fireworks and Hugging Face's router), and OpenRouter's Decisions API (alpha/decisions: a decision
// model answers typed questions with probabilities, billed per input
// token, and writes no text, so no output cap applies: typed).
var modelEndpoints = []modelEndpointSpec{
	{"api.openai.com", "openai", lazyregexp.New(`/v1/(chat/completions|completions|responses|images/generations)\b`), false},
	{"api.anthropic.com", "anthropic", lazyregexp.New(`/v1/messages\b`), false},
	{"generativelanguage.googleapis.com", "google-gemini", lazyregexp.New(`:(generateContent|streamGenerateContent)\b`), false},
	// Gemini on Vertex AI: the global host or a region's
	// (us-central1-aiplatform.googleapis.com), a publisher model's
	// generateContent (cloud.google.com/vertex-ai/generative-ai/docs/reference/rest,
	// projects.locations.publishers.models.generateContent), billed per
	// token to the Google Cloud project.
	{"*-aiplatform.googleapis.com", "google-vertex", lazyregexp.New(`/publishers/google/models/[^/:]+:(generateContent|streamGenerateContent)\b`), false},
	{"api.perplexity.ai", "perplexity", lazyregexp.New(`/chat/completions\b`), false},
	{"api.mistral.ai", "mistral", lazyregexp.New(`/v1/chat/completions\b`), false},
	{"api.groq.com", "groq", lazyregexp.New(`/chat/completions\b`), false},
	{"api.deepseek.com", "deepseek", lazyregexp.New(`/chat/completions\b`), false},
	{"api.x.ai", "xai", lazyregexp.New(`/v1/chat/completions\b`), false},
	{"openrouter.ai", "openrouter", lazyregexp.New(`/api/v1/chat/completions\b`), false},
	{"openrouter.ai", "openrouter", lazyregexp.New(`/api/alpha/decisions\b`), true},
	{"api.together.xyz", "together", lazyregexp.New(`/chat/completions\b`), false},
	{"api.fireworks.ai", "fireworks", lazyregexp.New(`/chat/completions\b`), false},
	// Hugging Face's Inference Providers router, billed per provider use.
	{"router.huggingface.co", "huggingface", lazyregexp.New(`/v1/chat/completions\b`), false},
}

var (
	bodyModelRE   = lazyregexp.New(`["']?\bmodel["']?\s*:\s*["']([\w.:/-]+)["']`)
	bodyCapRE     = lazyregexp.New(`["']?\b(max_tokens|max_completion_tokens|max_output_tokens|maxOutputTokens)["']?\s*:\s*["']?(\d+)`)
	bodyCapExprRE = lazyregexp.New(`["']?\b(max_tokens|max_completion_tokens|max_output_tokens|maxOutputTokens)["']?\s*:\s*["']?(\{\{|=)`)
	geminiPathRE  = lazyregexp.New(`/models/([\w.-]+):`)
)

// HTTPModelCallOf reports whether an HTTP Request node (or its tool
// variant) posts to a paid model API's generation endpoint, and what its
// body says about the model and the output cap.
func HTTPModelCallOf(n *Node) (HTTPModelCall, bool) {
	if strings.TrimSuffix(n.Type, "Tool") != TypeHTTPRequest {
		return HTTPModelCall{}, false
	}
	// The analysis asks this of an HTTP node up to three times (its
	// operation, its spend, RS302), and its body regexes were most of
	// the cost: the answer is kept on the node.
	return n.httpModel.get(n, httpModelCallOf)
}

// httpModelCallOf is HTTPModelCallOf for an HTTP Request node.
func httpModelCallOf(n *Node) (HTTPModelCall, bool) {
	if HTTPMethod(n) != "POST" {
		return HTTPModelCall{}, false
	}
	urls, ok := literalURLs(paramStr(n, "url"))
	// Every URL the node may call is a model endpoint of one provider.
	provider, typed, path := "", true, ""
	if !ok {
		e, p, ok := credentialEndpoint(n)
		if !ok {
			return HTTPModelCall{}, false
		}
		provider, typed, path = e.provider, e.typed, p
	}
	for _, url := range urls {
		e, p, ok := modelEndpoint(url)
		if !ok || provider != "" && e.provider != provider {
			return HTTPModelCall{}, false
		}
		provider, typed, path = e.provider, typed && e.typed, p
	}
	c := HTTPModelCall{Provider: provider}
	body := paramStr(n, "jsonBody") + " " + paramStr(n, "body")
	for _, p := range n.Params().Get("bodyParameters.parameters").ElemsSeq() {
		body += " " + p.Get("name").Str() + ": " + strconv.Quote(p.Get("value").Str())
	}
	if m := bodyModelRE.FindStringSubmatch(body); m != nil {
		c.Model = m[1]
	} else if m := geminiPathRE.FindStringSubmatch(path); m != nil && len(urls) == 1 {
		c.Model = m[1]
	}
	if m := bodyCapRE.FindStringSubmatch(body); m != nil {
		if v, err := strconv.Atoi(m[2]); err == nil && v > 0 {
			c.MaxTokens, c.Capped = v, true
		}
	}
	raw, _ := n.Param("jsonBody")
	whole := wholeExpr(raw.Str()) && n.Params().Get("bodyParameters.parameters").Len() == 0
	c.CapAtRunTime = !c.Capped && (bodyCapExprRE.MatchString(body) || c.Model == "" && whole)
	// A raw body (v3 and later) is sent as the text it holds
	// (HttpRequestV3.node.js, contentType "raw"): one expression reading
	// JSON text a node before builds is read as a JSON body is.
	expr, rawBody := paramStr(n, "jsonBody"), false
	if rb, _ := n.Param("body"); !whole && n.TypeVersion >= 3 && paramStr(n, "contentType") == "raw" && c.Model == "" && wholeExpr(rb.Str()) {
		expr, rawBody, whole = paramStr(n, "body"), true, true
	}
	if whole && !c.Capped {
		// The body a node before builds, when it is a literal that node
		// writes: its cap, or its model and no cap, is known.
		if lit, ok := fedBody(n, expr, rawBody); ok {
			if model, max, capped, decided := readFedBody(lit, c.Model); decided {
				c.Model, c.MaxTokens, c.Capped, c.CapAtRunTime, c.FedBody = model, max, capped, false, lit
			} else {
				c.CapAtRunTime = true
			}
		}
	}
	if typed && !c.Capped {
		c.Capped = true // a typed answer: no text to cap
	}
	return c, true
}

// AnthropicNoMaxTokens reports an HTTP Request (v3 and later) that posts
// to Anthropic's Messages API a body, written in the node, with no
// max_tokens: the API requires it (platform.claude.com/docs/en/api, Create
// a Message: "required maxTokens") and answers 400 without it, so nothing
// is billed. A body another node builds is judged only when it is the
// object literal of a Code or Set node before it (FedBody); one that may
// spread or add keys by an expression, and a body in another format, are
// not judged.
func AnthropicNoMaxTokens(n *Node) bool {
	if n.Type != TypeHTTPRequest || n.TypeVersion < 3 {
		return false
	}
	c, ok := HTTPModelCallOf(n)
	if !ok || c.Provider != "anthropic" || c.Capped || c.CapAtRunTime {
		return false
	}
	urls, ok := literalURLs(paramStr(n, "url"))
	if !ok {
		return false // the path is the run's: it may not be the Messages API
	}
	for _, u := range urls {
		if _, _, ok := endpointIn(anthropicMessages, u); !ok {
			return false // a batch or a token count: another body
		}
	}
	if v, ok := n.Param("sendBody"); !ok || v.Kind() != Bool || !v.True() {
		return false
	}
	body := paramStr(n, "jsonBody")
	if c.FedBody != "" {
		body = c.FedBody // the literal the node before builds it from
	}
	if sb := paramStr(n, "specifyBody"); sb == "keypair" || sb == "" {
		body = ""
		for _, p := range n.Params().Get("bodyParameters.parameters").ElemsSeq() {
			body += " " + p.Get("name").Str()
		}
	} else if sb != "json" {
		return false
	}
	if ct := paramStr(n, "contentType"); ct != "" && ct != "json" {
		return false
	}
	return strings.Contains(body, "messages") && !strings.Contains(body, "max_tokens") &&
		!strings.Contains(body, "...") && !strings.Contains(body, "Object.assign") && !exprAtKeyRE.MatchString(body) &&
		!strings.Contains(body, "={{") // a body parameter whose name is an expression
}

// modelCredentials are the predefined credential types whose key only a
// model provider's API accepts, by provider. The HTTP Request node sends
// the credential's key with the request (authentication
// predefinedCredentialType: HttpRequestV3.node.js,
// requestWithAuthentication with nodeCredentialType), so a node whose URL
// an expression decides calls that provider's API (or a gateway in front
// of it, the credential's Base URL): a model's answer.
var modelCredentials = map[string]string{
	"anthropicApi":    "anthropic",
	"openAiApi":       "openai",
	"googlePalmApi":   "google-gemini",
	"groqApi":         "groq",
	"mistralCloudApi": "mistral",
	"deepSeekApi":     "deepseek",
	"xAiApi":          "xai",
	"openRouterApi":   "openrouter",
	"perplexityApi":   "perplexity",
}

// credentialEndpoint reads the model endpoint of an HTTP Request whose URL
// an expression decides from its predefined credential's provider. A
// literal path after the expression ("={{ $json.base }}/v1/messages")
// must be one of that provider's generation endpoints. A URL that is one
// whole expression names no path: it is read as a generation call only
// when it sends a JSON body, since the provider's other POSTs that keep a
// record (a file upload) send a multipart or binary one. Several
// expressions, or a tail that is no path, are not read.
func credentialEndpoint(n *Node) (modelEndpointSpec, string, bool) {
	if paramStr(n, "authentication") != "predefinedCredentialType" {
		return modelEndpointSpec{}, "", false
	}
	provider, ok := modelCredentials[paramStr(n, "nodeCredentialType")]
	if !ok {
		return modelEndpointSpec{}, "", false
	}
	v, _ := n.Param("url")
	url := strings.TrimSpace(v.Str())
	end := strings.LastIndex(url, "}}")
	if !strings.HasPrefix(url, "={{") || end < 0 {
		return modelEndpointSpec{}, "", false
	}
	tail := url[end+2:]
	if i := strings.IndexAny(tail, "?#"); i >= 0 {
		tail = tail[:i]
	}
	if tail == "" {
		if !wholeExpr(url) {
			return modelEndpointSpec{}, "", false // a path the data builds apart
		}
		if ct := paramStr(n, "contentType"); ct != "" && ct != "json" && ct != "raw" {
			return modelEndpointSpec{}, "", false
		}
		if v, _ := n.Param("sendBinaryData"); v.Kind() == Bool && v.True() {
			return modelEndpointSpec{}, "", false
		}
		return modelEndpointSpec{provider: provider}, "", true
	}
	if !strings.HasPrefix(tail, "/") {
		return modelEndpointSpec{}, "", false // the path is the run's too
	}
	for _, e := range modelEndpoints {
		if e.provider == provider && e.path.MatchString(tail) {
			return e, tail, true
		}
	}
	return modelEndpointSpec{}, "", false
}

// anthropicMessages is the Messages API's create endpoint itself.
var anthropicMessages = []modelEndpointSpec{{"api.anthropic.com", "anthropic", lazyregexp.New(`^/v1/messages/?$`), false}}

// exprAtKeyRE finds an expression where a JSON body expects a key, which
// may add members.
var exprAtKeyRE = lazyregexp.New(`[{,]\s*\{\{`)

// computeEndpoints are model API endpoints that compute an answer from the
// request and store nothing: embeddings, moderation, speech to text, text
// to speech, OCR (OpenAI's API reference: embeddings, moderations, audio;
// Mistral's: embeddings, moderations, ocr; Gemini's embedContent).
var computeEndpoints = []modelEndpointSpec{
	{"api.openai.com", "openai", lazyregexp.New(`^/v1/(embeddings|moderations|audio/(transcriptions|translations|speech))$`), false},
	{"api.mistral.ai", "mistral", lazyregexp.New(`^/v1/(embeddings|moderations|chat/moderations|ocr)$`), false},
	{"generativelanguage.googleapis.com", "google-gemini", lazyregexp.New(`:(embedContent|batchEmbedContents)$`), false},
}

// mistralFiles is Mistral's files API, where a file for OCR is uploaded
// with purpose "ocr" (POST /v1/files, purpose fine-tune, batch or ocr).
var mistralFiles = []modelEndpointSpec{{"api.mistral.ai", "mistral", lazyregexp.New(`^/v1/files$`), false}}

// ComputeOnlyCall reports an HTTP Request that asks a model API for an
// answer and leaves nothing behind of its own: a generation endpoint
// (HTTPModelCallOf), one of computeEndpoints, or an upload to Mistral's
// files API with purpose "ocr", the input the OCR call after it reads.
// Its answer is the run's to use; what the run does with it is judged at
// the nodes that use it.
func ComputeOnlyCall(n *Node) bool {
	if _, ok := HTTPModelCallOf(n); ok {
		return true
	}
	if !IsHTTPRequest(n.Type) || HTTPMethod(n) != "POST" {
		return false
	}
	urls, ok := literalURLs(paramStr(n, "url"))
	if !ok {
		return false
	}
	for _, u := range urls {
		if _, _, ok := endpointIn(computeEndpoints, u); ok {
			continue
		}
		if _, _, ok := endpointIn(mistralFiles, u); ok && formParam(n, "purpose") == "ocr" {
			continue
		}
		return false
	}
	return true
}

// modelAPIOnly reports an HTTP Request whose every URL is a model API's
// generation or compute endpoint, whatever method it sends: a v1 node
// that stores "method" sends a GET there (IgnoredMethod), which the
// provider refuses as it does a POST when no key comes with it.
func modelAPIOnly(n *Node) bool {
	urls, ok := literalURLs(paramStr(n, "url"))
	if !ok {
		return false
	}
	for _, u := range urls {
		if _, _, ok := modelEndpoint(u); !ok {
			if _, _, ok := endpointIn(computeEndpoints, u); !ok {
				return false
			}
		}
	}
	return true
}

// formParam is the literal value of body parameter name, "" when absent.
func formParam(n *Node, name string) string {
	for _, p := range n.Params().Get("bodyParameters.parameters").ElemsSeq() {
		if p.Get("name").Str() == name {
			return p.Get("value").Str()
		}
	}
	return ""
}

// wholeExpr reports a parameter value that is one {{ }} expression and
// nothing else.
func wholeExpr(v string) bool {
	x, ok := strings.CutPrefix(strings.TrimSpace(v), "=")
	x = strings.TrimSpace(x)
	return ok && strings.HasPrefix(x, "{{") && strings.HasSuffix(x, "}}") && strings.Count(x, "{{") == 1
}

// modelEndpointSpec is a model API's endpoint: its host and path.
type modelEndpointSpec struct {
	host, provider string
	path           *lazyregexp.Regexp
	typed          bool
}

// modelEndpoint finds the model endpoint a URL names, and its path.
func modelEndpoint(url string) (e modelEndpointSpec, path string, ok bool) {
	return endpointIn(modelEndpoints, url)
}

// endpointIn finds the endpoint of table a URL names, and its path.
func endpointIn(table []modelEndpointSpec, url string) (e modelEndpointSpec, path string, ok bool) {
	if i := strings.IndexAny(url, "?#"); i >= 0 {
		url = url[:i]
	}
	if len(url) < len("https://") || !strings.EqualFold(url[:len("https://")], "https://") {
		return e, "", false
	}
	// A host is read in any case; a path is not (Gemini's
	// :generateContent has a capital letter, and the API's paths are
	// matched as written).
	host, path, _ := strings.Cut(url[len("https://"):], "/")
	host, path = strings.ToLower(host), "/"+path
	for _, e := range table {
		if hostIs(host, e.host) && e.path.MatchString(path) {
			return e, path, true
		}
	}
	return e, "", false
}

// hostIs reports whether host is the table's: the same, or for "*-x"
// x itself or a region's host ending in "-x".
func hostIs(host, table string) bool {
	if rest, ok := strings.CutPrefix(table, "*-"); ok {
		return host == rest || strings.HasSuffix(host, "-"+rest)
	}
	return host == table
}

// ternaryURLRE finds a quoted URL in an expression and what comes before
// it; what follows is read by literalURLs.
var ternaryURLRE = lazyregexp.New(`([?:(]|\{\{)\s*(?:'(https?://[^'\s]*)'|"(https?://[^"\s]*)"|` + "`" + `(https?://[^` + "`" + `$\s]*)` + "`" + `)`)

// literalURLs returns the URLs a url parameter may hold: the value itself
// when it starts with its host, or, for an expression that only chooses
// between quoted URLs ({{ cond ? 'https://a' : 'https://b' }}), each of
// them. It is false when the host comes from the data.
func literalURLs(v string) ([]string, bool) {
	v = strings.TrimSpace(v)
	x := strings.TrimSpace(strings.TrimPrefix(v, "="))
	if !strings.HasPrefix(x, "{{") {
		// A literal host: the path may hold expressions.
		return []string{x}, x != ""
	}
	if !strings.HasSuffix(x, "}}") || strings.Count(x, "{{") != 1 {
		return nil, false
	}
	// Every quoted URL stands alone between ?, :, ( and ), and the
	// expression holds no other quoted text that starts a URL.
	var out []string
	for _, m := range ternaryURLRE.FindAllStringSubmatchIndex(x, -1) {
		rest := strings.TrimLeft(x[m[1]:], " \t\n")
		if rest == "" || !strings.ContainsRune(":)}", rune(rest[0])) {
			return nil, false // the URL goes on: 'https://…/' + path
		}
		for k := 4; k < len(m); k += 2 {
			if m[k] >= 0 {
				out = append(out, x[m[k]:m[k+1]])
			}
		}
	}
	if len(out) < 2 || strings.Count(x, "://") != len(out) {
		return nil, false
	}
	return out, true
}

// ChatRequestBody reports whether an HTTP Request node posts a chat
// model's request (a "model" key and a "messages" list of entries with a
// "role", as OpenAI-compatible APIs and Anthropic's take), wherever it
// goes: a URL only the run decides ("={{ $env.LLM_URL }}"), a proxy or a
// self-hosted model. It is a model's answer, not a write, though which
// provider bills it, if any, HTTPModelCallOf alone can tell.
func ChatRequestBody(n *Node) bool {
	if strings.TrimSuffix(n.Type, "Tool") != TypeHTTPRequest || HTTPMethod(n) != "POST" {
		return false
	}
	body := paramStr(n, "jsonBody")
	return objectKey(body, "model", false) && objectKey(body, "messages", true) && objectKey(body, "role", false)
}

// objectKey reports whether body names key as a key of a JSON or
// JavaScript object: the word, maybe quoted, then a colon
// (["']?\bkey["']?\s*:), and with list an opening bracket after it
// (…:\s*\[). It looks for the word: a regexp tried at every byte of a long
// body cost 1% of an audit.
func objectKey(body, key string, list bool) bool {
	skip := func(j int) int {
		for j < len(body) && ascii.IsSpace(body[j]) {
			j++
		}
		return j
	}
	for from := 0; ; {
		i := strings.Index(body[from:], key)
		if i < 0 {
			return false
		}
		i += from
		from = i + 1
		if i > 0 && ascii.IsWord(body[i-1]) {
			continue // \b: not the word's start
		}
		j := i + len(key)
		if j < len(body) && (body[j] == '"' || body[j] == '\'') {
			j++
		}
		if j = skip(j); j == len(body) || body[j] != ':' {
			continue
		}
		if j = skip(j + 1); !list || j < len(body) && body[j] == '[' {
			return true
		}
	}
}
