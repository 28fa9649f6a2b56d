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
// "Scrape single URL"; "Get …" reads a run or dataset that exists),
// Firecrawl's (@mendable/n8n-nodes-firecrawl), and an HTTP Request that
// starts the same work (api.apify.com …/runs or …/run-sync…,
// api.firecrawl.dev /vN/scrape and the like, which are POSTs).
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
	// run-sync endpoints (GET or POST start one).
	apifyRunPath  = lazyregexp.New(`^v2/(acts|actor-tasks)/[^/]+/(runs\b|run-sync)`)
	firecrawlPath = lazyregexp.New(`^v\d+/(scrape|crawl|map|search|extract|batch)\b`)
)
