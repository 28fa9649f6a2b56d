package n8nschema

import (
	"strconv"
	"strings"

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
}

// modelEndpoints are the generation endpoints of paid model APIs, by host
// and path (each provider's API reference: OpenAI chat/completions,
// responses, completions and images/generations; Anthropic messages;
// Gemini models/*:generateContent; the OpenAI-compatible chat/completions
// of Perplexity, Mistral, Groq, DeepSeek, xAI, OpenRouter, Together,
// Fireworks).
var modelEndpoints = []struct {
	host, provider string
	path           *lazyregexp.Regexp
}{
	{"api.openai.com", "openai", lazyregexp.New(`/v1/(chat/completions|completions|responses|images/generations)\b`)},
	{"api.anthropic.com", "anthropic", lazyregexp.New(`/v1/messages\b`)},
	{"generativelanguage.googleapis.com", "google-gemini", lazyregexp.New(`:(stream)?generateContent\b`)},
	{"api.perplexity.ai", "perplexity", lazyregexp.New(`/chat/completions\b`)},
	{"api.mistral.ai", "mistral", lazyregexp.New(`/v1/chat/completions\b`)},
	{"api.groq.com", "groq", lazyregexp.New(`/chat/completions\b`)},
	{"api.deepseek.com", "deepseek", lazyregexp.New(`/chat/completions\b`)},
	{"api.x.ai", "xai", lazyregexp.New(`/v1/chat/completions\b`)},
	{"openrouter.ai", "openrouter", lazyregexp.New(`/api/v1/chat/completions\b`)},
	{"api.together.xyz", "together", lazyregexp.New(`/chat/completions\b`)},
	{"api.fireworks.ai", "fireworks", lazyregexp.New(`/chat/completions\b`)},
}

var (
	bodyModelRE  = lazyregexp.New(`["']?\bmodel["']?\s*:\s*["']([\w.:/-]+)["']`)
	bodyCapRE    = lazyregexp.New(`["']?\b(max_tokens|max_completion_tokens|max_output_tokens|maxOutputTokens)["']?\s*:\s*["']?(\d+)`)
	geminiPathRE = lazyregexp.New(`/models/([\w.-]+):`)
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
	url := strings.ToLower(strings.TrimPrefix(paramStr(n, "url"), "="))
	if i := strings.IndexAny(url, "?#"); i >= 0 {
		url = url[:i]
	}
	rest, ok := strings.CutPrefix(url, "https://")
	if !ok {
		return HTTPModelCall{}, false
	}
	host, path, _ := strings.Cut(rest, "/")
	path = "/" + path
	for _, e := range modelEndpoints {
		if host != e.host || !e.path.MatchString(path) {
			continue
		}
		c := HTTPModelCall{Provider: e.provider}
		body := paramStr(n, "jsonBody") + " " + paramStr(n, "body")
		for _, p := range n.Params().Get("bodyParameters.parameters").Elems() {
			body += " " + p.Get("name").Str() + ": " + strconv.Quote(p.Get("value").Str())
		}
		if m := bodyModelRE.FindStringSubmatch(body); m != nil {
			c.Model = m[1]
		} else if m := geminiPathRE.FindStringSubmatch(path); m != nil {
			c.Model = m[1]
		}
		if m := bodyCapRE.FindStringSubmatch(body); m != nil {
			if v, err := strconv.Atoi(m[2]); err == nil && v > 0 {
				c.MaxTokens, c.Capped = v, true
			}
		}
		return c, true
	}
	return HTTPModelCall{}, false
}
