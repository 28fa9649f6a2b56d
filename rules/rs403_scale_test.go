package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
)

// setFeedingIfs is a webhook, a POST that continues on error, a Set that
// derives a field from its answer, and k Ifs after the Set, each testing
// the webhook's own field.
func setFeedingIfs(k int) *analyze.Set {
	nodes := []string{
		`{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"httpMethod":"POST","path":"x","options":{}}}`,
		`{"name":"Fetch","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[0,0],"onError":"continueRegularOutput","parameters":{"method":"POST","url":"https://api.reportly.io/v1/orders","options":{}}}`,
		`{"name":"Shape","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[0,0],"parameters":{"assignments":{"assignments":[{"id":"a","name":"total","value":"={{ $json.data.total }}","type":"number"}]},"options":{}}}`,
	}
	var outs []string
	for i := range k {
		nodes = append(nodes, fmt.Sprintf(`{"name":"If %d","type":"n8n-nodes-base.if","typeVersion":2.2,"position":[0,0],"parameters":{"conditions":{"options":{"caseSensitive":true,"leftValue":"","typeValidation":"strict","version":2},"conditions":[{"id":"c","leftValue":"={{ $('Webhook').item.json.k }}","rightValue":%d,"operator":{"type":"number","operation":"equals"}}],"combinator":"and"},"options":{}}}`, i, i))
		outs = append(outs, fmt.Sprintf(`{"node":"If %d","type":"main","index":0}`, i))
	}
	conns := []string{`"Webhook":{"main":[[{"node":"Fetch","type":"main","index":0}]]}`, `"Fetch":{"main":[[{"node":"Shape","type":"main","index":0}]]}`, `"Shape":{"main":[[` + strings.Join(outs, ",") + `]]}`}
	return generatedSet("fan", nodes, conns)
}

// TestSwallowedFailureLinearInBranches: RS403 over a Set that feeds many
// Ifs reports the POST once and takes at most 6× the CPU time for 4× the
// Ifs. Finding the fields the Set derives once per If, and reading every
// Set's out-edges per condition, made it quadratic (8,000 Ifs: 8.7 s).
func TestSwallowedFailureLinearInBranches(t *testing.T) {
	const k = 500
	small, large := setFeedingIfs(k), setFeedingIfs(4*k)
	var fs, fl []analyze.Finding
	linearIn(t, "RS403 over Ifs", k, func() { fs = analyze.Run(small, []*analyze.Rule{rs403}) }, func() { fl = analyze.Run(large, []*analyze.Rule{rs403}) })
	if len(fs) != 1 || len(fl) != 1 {
		t.Fatalf("RS403 findings: %d and %d, want 1 and 1", len(fs), len(fl))
	}
}
