package n8nschema

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestHTTPModelCallURLChoice: an expression that only chooses between
// quoted model endpoints of one provider is a model call; one that builds
// the host from data, mixes providers or adds an unknown endpoint is not.
func TestHTTPModelCallURLChoice(t *testing.T) {
	for _, tt := range []struct {
		url      string
		provider string
		capped   bool
	}{
		{`={{ $json.engine === 'jev' ? 'https://openrouter.ai/api/alpha/decisions' : 'https://openrouter.ai/api/v1/chat/completions' }}`, "openrouter", false},
		{`={{ $json.fast ? "https://openrouter.ai/api/alpha/decisions" : ("https://openrouter.ai/api/alpha/decisions") }}`, "openrouter", true},
		{`https://openrouter.ai/api/alpha/decisions`, "openrouter", true},
		{`=https://api.openai.com/v1/{{ $json.kind }}/completions`, "", false},
		{`=https://api.anthropic.com/v1/messages?beta={{ $json.beta }}`, "anthropic", false},
		{`={{ $json.a ? 'https://openrouter.ai/api/v1/chat/completions' : 'https://api.openai.com/v1/chat/completions' }}`, "", false},
		{`={{ $json.a ? 'https://openrouter.ai/api/v1/chat/completions' : 'https://openrouter.ai/api/v1/credits' }}`, "", false},
		{`={{ $json.url || 'https://openrouter.ai/api/v1/chat/completions' }}`, "", false},
		{`={{ 'https://openrouter.ai/api/v1/' + $json.path }}`, "", false},
		{`={{ $json.base }}/api/v1/chat/completions`, "", false},
		// A host in any case; Gemini's path with its capital letter.
		{`https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent`, "google-gemini", false},
		{`https://GenerativeLanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, "google-gemini", false},
		{`https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:countTokens`, "", false},
		// Gemini on Vertex AI, at the global host or a region's.
		{`https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-flash:generateContent`, "google-vertex", false},
		{`https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.0-flash:streamGenerateContent`, "google-vertex", false},
		{`https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-flash:countTokens`, "", false},
		{`https://evil-aiplatform.googleapis.com.example.com/v1/publishers/google/models/gemini-2.5-flash:generateContent`, "", false},
		// Hugging Face's Inference Providers router: its chat, not its model list.
		{`https://router.huggingface.co/v1/chat/completions`, "huggingface", false},
		{`https://router.huggingface.co/v1/models`, "", false},
	} {
		n := node(t, `{"name":"m","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":`+jsonString(tt.url)+`}}`)
		c, ok := HTTPModelCallOf(n)
		if ok != (tt.provider != "") || c.Provider != tt.provider || ok && c.Capped != tt.capped {
			t.Errorf("%s: got %+v %v, want provider %q capped %v", tt.url, c, ok, tt.provider, tt.capped)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestHTTPModelCallByCredential: a URL the run decides, sent with a
// predefined credential only a model provider accepts, is that provider's
// model call when its literal path (if any) is a generation endpoint and
// its body is JSON; a generic credential, another path or an upload is not.
func TestHTTPModelCallByCredential(t *testing.T) {
	for _, tt := range []struct {
		params   string
		provider string
	}{
		{`"url":"={{ $json.apiUrl }}","authentication":"predefinedCredentialType","nodeCredentialType":"anthropicApi"`, "anthropic"},
		{`"url":"={{ $json.base }}/v1/messages","authentication":"predefinedCredentialType","nodeCredentialType":"anthropicApi"`, "anthropic"},
		{`"url":"={{ $json.base }}/v1/chat/completions?x=1","authentication":"predefinedCredentialType","nodeCredentialType":"openAiApi"`, "openai"},
		{`"url":"={{ $json.base }}/v1/files","authentication":"predefinedCredentialType","nodeCredentialType":"openAiApi"`, ""},
		{`"url":"={{ $json.base }}{{ $json.path }}","authentication":"predefinedCredentialType","nodeCredentialType":"openAiApi"`, ""},
		{`"url":"={{ $json.apiUrl }}","authentication":"predefinedCredentialType","nodeCredentialType":"openAiApi","contentType":"multipart-form-data"`, ""},
		{`"url":"={{ $json.apiUrl }}","authentication":"predefinedCredentialType","nodeCredentialType":"notionApi"`, ""},
		{`"url":"={{ $json.apiUrl }}","authentication":"genericCredentialType","genericAuthType":"httpHeaderAuth"`, ""},
		{`"url":"={{ $json.apiUrl }}","nodeCredentialType":"anthropicApi"`, ""},
	} {
		n := node(t, `{"name":"m","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST",`+tt.params+`}}`)
		c, ok := HTTPModelCallOf(n)
		if ok != (tt.provider != "") || c.Provider != tt.provider {
			t.Errorf("%s: got %+v %v, want provider %q", tt.params, c, ok, tt.provider)
		}
	}
	// The Messages API's max_tokens check needs the path: not judged.
	n := node(t, `{"name":"m","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"={{ $json.apiUrl }}","authentication":"predefinedCredentialType","nodeCredentialType":"anthropicApi","sendBody":true,"specifyBody":"json","jsonBody":"{\"model\":\"claude-sonnet-4-5\",\"messages\":[]}"}}`)
	if AnthropicNoMaxTokens(n) {
		t.Error("AnthropicNoMaxTokens judged a URL the run decides")
	}
}

// TestObjectKeyAsRegexp: objectKey answers as the patterns it replaced on
// random strings of the keys' pieces, quotes, spaces (\v is not \s),
// colons, brackets and word bytes around them.
func TestObjectKeyAsRegexp(t *testing.T) {
	pieces := []string{"model", "mo", "del", "messages", "message", "role", "rol", "e", "s", `"`, "'", "`", " ", "\t", "\n", "\f", "\v", "\r",
		":", "[", "{", "_", "x", "9", "é", "\xff", ",", "super"}
	for _, c := range []struct {
		key  string
		list bool
		re   *regexp.Regexp
	}{
		{"model", false, regexp.MustCompile(`["']?\bmodel["']?\s*:`)},
		{"messages", true, regexp.MustCompile(`["']?\bmessages["']?\s*:\s*\[`)},
		{"role", false, regexp.MustCompile(`["']?\brole["']?\s*:`)},
	} {
		rng := rand.New(rand.NewPCG(1, 2))
		for range 100_000 {
			var b strings.Builder
			for range rng.IntN(8) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			s := b.String()
			if got, want := objectKey(s, c.key, c.list), c.re.MatchString(s); got != want {
				t.Fatalf("objectKey(%q, %q) = %v, want %v", s, c.key, got, want)
			}
		}
	}
}
