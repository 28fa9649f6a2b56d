package analyze

import (
	"reflect"
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestTypeFacts: what factsOf keeps per type is what n8nschema.Lookup,
// Unshipped, RefusalChecksOf, RequiresParams and failPlan answer of it, asked twice (the second from the cache), for
// hand-picked types both ways and every type of the three corpora.
func TestTypeFacts(t *testing.T) {
	types := []string{"", "nopackage", "n8n-nodes-base.start", "n8n-nodes-base.httpRequest", "n8n-nodes-base.slackTool",
		"n8n-nodes-base.noSuchNode", "@n8n/n8n-nodes-langchain.agent", "@n8n/n8n-nodes-langchain.noSuchNode",
		"n8n-nodes-evolution-api.evolutionApi", "n8n-nodes-base.webhook"}
	for _, w := range corpustest.Workflows(t) {
		for _, n := range w.Nodes {
			types = append(types, n.Type)
		}
	}
	shipped, unshipped := 0, 0
	for _, typ := range types {
		for range 2 {
			f := factsOf(typ)
			if f.refusal != n8nschema.RefusalChecksOf(typ) || f.requires != n8nschema.RequiresParams(typ) || f.fails != failPlan(typ) {
				t.Errorf("%q: refusal %b, requires %v, fails %b", typ, f.refusal, f.requires, f.fails)
			}
			if f.unshipped != n8nschema.Unshipped(typ) {
				t.Errorf("%q: unshipped %v, Unshipped %v", typ, f.unshipped, !f.unshipped)
			}
			if want := n8nschema.Lookup(typ); !reflect.DeepEqual(f.spec, want) || !reflect.DeepEqual(*specOf(typ), want) {
				t.Errorf("%q: spec %+v, Lookup %+v", typ, f.spec, want)
			}
		}
		if n8nschema.Unshipped(typ) {
			unshipped++
		} else {
			shipped++
		}
	}
	if shipped == 0 || unshipped == 0 {
		t.Errorf("%d types shipped, %d not: one side untested", shipped, unshipped)
	}
}
