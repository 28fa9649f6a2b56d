package n8nschema

import (
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// BilledService names the service that bills the owner's account for the
// work a node's call starts, when it is not a model: an Apify Actor run,
// billed per result or per compute unit to the account whose credential
// starts it (docs.apify.com/platform/actors/running/actors-in-store,
// "Pricing models"), or a Firecrawl scrape, crawl, map, search or extract,
// billed in credits per page (firecrawl.dev/pricing). It reads Apify's
// community node (@apify/n8n-nodes-apify: its "Run …" operations and
// "Scrape single URL"; "Get …" reads a run or dataset that exists, "Abort
// run" stops one), Firecrawl's (@mendable/n8n-nodes-firecrawl), and an
// HTTP Request that starts the same work (api.apify.com …/runs or
// …/run-sync…, api.firecrawl.dev /vN/scrape and the like, which are
// POSTs). Neither community package is installed with n8n 2.41.1, so the
// operation names were not checked against an installed copy: they were
// read from the packages' repositories (apify/n8n-nodes-apify 0.6.4,
// nodes/Apify/resources/actors and actor-tasks; firecrawl/n8n-nodes-firecrawl
// 2.1.0), and a workflow's stored operation is read by its first word.
// So are the speech and voice APIs a bot calls beside its models
// (billedEndpoints: ElevenLabs, OpenAI's audio API, Google Cloud
// Speech-to-Text and Text-to-Speech, by an HTTP Request's POST) and
// ElevenLabs' own node (@elevenlabs/n8n-nodes-elevenlabs, its speech
// resource; read from elevenlabs/elevenlabs-n8n, not installed).
// Whether the call is made, and with an account, is analyze.BilledService's
// question (SendsAccount).
func BilledService(n *Node) (string, bool) {
	typ := strings.TrimSuffix(n.Type, "Tool")
	switch typ {
	case "@apify/n8n-nodes-apify.apify":
		if w := opWords(paramStr(n, "operation")); len(w) > 0 && (w[0] == "run" || w[0] == "scrape") {
			return "Apify", true
		}
		return "", false
	case "@mendable/n8n-nodes-firecrawl.firecrawl":
		if w := opWords(paramStr(n, "operation")); len(w) > 0 && slices.Contains(firecrawlBilled, w[0]) {
			return "Firecrawl", true
		}
		return "", false
	case "@elevenlabs/n8n-nodes-elevenlabs.elevenLabs":
		// Its speech resource (textToSpeech, its default operation;
		// speechToText; speechToSpeech): elevenlabs/elevenlabs-n8n
		// nodes/elevenlabs/Descriptions/speech.ts. The voice resource
		// reads or manages voices. The resource is read as stored: the
		// node's default was not checked against an installed copy.
		if paramStr(n, "resource") == "speech" {
			switch paramStr(n, "operation") {
			case "", "textToSpeech", "speechToText", "speechToSpeech":
				return "ElevenLabs", true
			}
		}
		return "", false
	case TypeHTTPRequest:
	default:
		return "", false
	}
	u := strings.ToLower(strings.TrimSpace(paramStr(n, "url")))
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	host, path, _ := strings.Cut(u, "/")
	switch {
	case host == "api.apify.com" && apifyRunPath.MatchString(path) && (HTTPMethod(n) == "POST" || strings.Contains(path, "run-sync")):
		return "Apify", true
	case host == "api.firecrawl.dev" && firecrawlPath.MatchString(path) && HTTPMethod(n) == "POST":
		return "Firecrawl", true
	}
	if e, ok := billedEndpointOf(host, path); ok && HTTPMethod(n) == "POST" {
		return e.svc, true
	}
	return "", false
}

// billedEndpoint is a speech or voice API billed per use, reached by an
// HTTP Request's POST, and the query and header names that carry the
// account's key (SendsAccount).
type billedEndpoint struct {
	host, svc      string
	path           *lazyregexp.Regexp
	query, headers []string
}

// billedEndpoints are the speech and voice APIs a bot calls beside its
// models, each billed per use to the account whose key the call sends
// (no price is kept: what is billed is said). ElevenLabs: text to speech
// in credits per character of text, speech to text per minute of audio,
// speech to speech and sound generation in credits
// (elevenlabs.io/pricing; key header xi-api-key,
// elevenlabs.io/docs/api-reference/authentication). OpenAI's audio API:
// transcriptions and translations per minute of audio (whisper-1) or per
// token (gpt-4o-transcribe), speech per character (tts-1) or per token
// (openai.com/api/pricing; Authorization: Bearer). Google Cloud
// Speech-to-Text per second of audio and Text-to-Speech per character
// (cloud.google.com/speech-to-text/pricing, /text-to-speech/pricing; an
// API key as the key query parameter or x-goog-api-key, or OAuth2).
var billedEndpoints = []billedEndpoint{
	{"api.elevenlabs.io", "ElevenLabs", lazyregexp.New(`^v1/(text-to-speech|speech-to-text|speech-to-speech|sound-generation|text-to-dialogue)\b`), nil, []string{"xi-api-key"}},
	{"api.openai.com", "OpenAI", lazyregexp.New(`^v1/audio/(transcriptions|translations|speech)\b`), nil, []string{"authorization"}},
	{"speech.googleapis.com", "Google Cloud Speech-to-Text", lazyregexp.New(`^v[0-9a-z]+/(speech:(recognize|longrunningrecognize)|projects/.*:(recognize|batchRecognize))\b`), []string{"key"}, []string{"authorization", "x-goog-api-key"}},
	{"texttospeech.googleapis.com", "Google Cloud Text-to-Speech", lazyregexp.New(`^v[0-9a-z]+/text:synthesize\b`), []string{"key"}, []string{"authorization", "x-goog-api-key"}},
}

// billedEndpointOf finds the billedEndpoints entry of a lower-cased host
// and path.
func billedEndpointOf(host, path string) (billedEndpoint, bool) {
	for _, e := range billedEndpoints {
		if host == e.host && e.path.MatchString(path) {
			return e, true
		}
	}
	return billedEndpoint{}, false
}

// firecrawlBilled are the first words of Firecrawl's operations that spend
// credits; status reads and cancels do not.
var firecrawlBilled = []string{"scrape", "crawl", "map", "search", "extract", "batch"}

var (
	// apifyRunPath: an Actor's or a task's runs (POST starts one) or its
	// run-sync endpoints (GET or POST start one); not a run that exists
	// (runs/{runId}/abort, /metamorph, /resurrect, runs/last/…), which
	// starts no billed work.
	apifyRunPath  = lazyregexp.New(`^v2/(acts|actor-tasks)/[^/]+/(runs/?([?#]|$)|run-sync)`)
	firecrawlPath = lazyregexp.New(`^v\d+/(scrape|crawl|map|search|extract|batch)\b`)
)

// SendsAccount reports an HTTP Request that names an account for the
// service to bill: it reads a credential (authentication not "none",
// predefined or generic, or v1's basicAuth … oAuth2; the node reads none
// otherwise, the versions' code cited at noKey), or it sends a token query
// parameter or an Authorization header whose value is not a template's
// placeholder ("YOUR_APIFY_TOKEN", "Bearer <key>"). Apify answers a run
// with no token or a wrong one 401 (docs.apify.com/api/v2,
// "Authentication"), Firecrawl a request with no Bearer key alike
// (docs.firecrawl.dev, "Authentication"): nothing is billed. A name or
// value an expression gives, and headers or a query written as JSON that
// name a token or an authorization, are taken to send one.
func SendsAccount(n *Node) bool {
	if a, ok := n.Param("authentication"); ok && (a.Kind() != String || a.IsExpr() || a.Str() != "none" && a.Str() != "") {
		return true
	}
	// The names the service reads its key from: Apify's and
	// Firecrawl's token query parameter and Authorization header, or a
	// billedEndpoints entry's own.
	query, headers := []string{"token"}, []string{"authorization"}
	u := strings.ToLower(strings.TrimSpace(paramStr(n, "url")))
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	host, path, _ := strings.Cut(u, "/")
	if e, ok := billedEndpointOf(host, path); ok {
		query, headers = e.query, e.headers
	}
	if _, q, ok := strings.Cut(paramStr(n, "url"), "?"); ok {
		for _, kv := range strings.Split(q, "&") {
			if k, v, _ := strings.Cut(kv, "="); slices.Contains(query, strings.ToLower(strings.TrimSpace(k))) && accountValue(v) {
				return true
			}
		}
	}
	for _, l := range [...]struct {
		list  string
		names []string
	}{
		{"queryParameters.parameters", query}, {"queryParametersUi.parameter", query},
		{"headerParameters.parameters", headers}, {"headerParametersUi.parameter", headers},
	} {
		list, _ := n.Param(l.list)
		for _, e := range list.ElemsSeq() {
			name := e.Get("name")
			if name.IsExpr() || strings.Contains(name.Str(), "{{") {
				return true
			}
			if slices.Contains(l.names, strings.ToLower(strings.TrimSpace(name.Str()))) && accountValue(e.Get("value").Str()) {
				return true
			}
		}
	}
	for _, p := range [...]string{"jsonHeaders", "headerParametersJson", "jsonQuery", "queryParametersJson"} {
		t := strings.ToLower(paramStr(n, p))
		for _, name := range append(append([]string{"token"}, query...), headers...) {
			if name != "key" && strings.Contains(t, name) || name == "key" && strings.Contains(t, `"key"`) {
				return true
			}
		}
	}
	return false
}

// accountValue reports a token or Authorization value that names an
// account: not blank, not a template's placeholder (YOUR_APIFY_TOKEN,
// <token>, xxx, APIFY_TOKEN); an n8n expression
// ({{ $env.APIFY_TOKEN }}) is taken to give one.
func accountValue(v string) bool {
	v = strings.TrimSpace(strings.TrimPrefix(v, "="))
	if strings.Contains(v, "{{") && strings.Contains(v, "$") {
		return true
	}
	if len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
		v = strings.TrimSpace(v[7:])
	}
	if v == "" {
		return false
	}
	// Placeholder's third form (words joined by _) is a real key's too
	// (Apify's are apify_api_…): only in capitals does it hold a place.
	return !placeholderWords(v) && !(v == strings.ToUpper(v) && placeholderREs[1].MatchString(v))
}
