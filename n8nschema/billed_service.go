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
	return "", false
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
	if _, q, ok := strings.Cut(paramStr(n, "url"), "?"); ok {
		for _, kv := range strings.Split(q, "&") {
			if k, v, _ := strings.Cut(kv, "="); strings.EqualFold(strings.TrimSpace(k), "token") && accountValue(v) {
				return true
			}
		}
	}
	for _, l := range [...]struct{ list, name string }{
		{"queryParameters.parameters", "token"}, {"queryParametersUi.parameter", "token"},
		{"headerParameters.parameters", "authorization"}, {"headerParametersUi.parameter", "authorization"},
	} {
		list, _ := n.Param(l.list)
		for _, e := range list.Elems() {
			name := e.Get("name")
			if name.IsExpr() || strings.Contains(name.Str(), "{{") {
				return true
			}
			if strings.EqualFold(strings.TrimSpace(name.Str()), l.name) && accountValue(e.Get("value").Str()) {
				return true
			}
		}
	}
	for _, p := range [...]string{"jsonHeaders", "headerParametersJson", "jsonQuery", "queryParametersJson"} {
		t := strings.ToLower(paramStr(n, p))
		if strings.Contains(t, "token") || strings.Contains(t, "authorization") {
			return true
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
