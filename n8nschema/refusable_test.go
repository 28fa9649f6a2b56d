package n8nschema

import (
	"maps"
	"slices"
	"strconv"
	"testing"
)

// TestRefusableType: a node of a type RefusalChecksOf finds no check for,
// holding no credential, is refused by no check of RefusedCall. Hand-written nodes
// that each check of RefusedCall refuses (the HTTP checks, Google Sheets,
// Aggregate, Supabase, the OpenAI nodes, a model that calls a retired
// model, an embeddings node, a node that throws first, a Merge with a
// mode it lacks, an operation a node does not define; tool variants too)
// are of types it lists, and nodes of types no check judges are not; then
// every node of the three corpora and of the repository's fixtures is
// asked with its credentials taken away (each fails when a clause of
// RefusalChecksOf is dropped).
func TestRefusableType(t *testing.T) {
	refusable := func(typ string) bool { return RefusalChecksOf(typ) != 0 }
	parse := func(node string) *Node {
		t.Helper()
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+node+`],"connections":{}}`)))
		if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != 1 {
			t.Fatalf("%s: no node", node)
		}
		return f.Workflows[0].Nodes[0]
	}
	for _, node := range []string{
		`{"name":"n","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://example.com","sendBody":true,"specifyBody":"json","jsonBody":"{\"a\":"}}`,
		`{"name":"n","type":"n8n-nodes-base.httpRequestTool","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.anthropic.com/v1/messages","sendBody":true,"specifyBody":"json","jsonBody":"{\"model\":\"claude-sonnet-4-5\",\"messages\":[]}"}}`,
		`{"name":"n","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"parameters":{"operation":"update","columns":{"mappingMode":"defineBelow","value":{},"matchingColumns":["id"]}}}`,
		`{"name":"n","type":"n8n-nodes-base.googleSheetsTool","typeVersion":4.5,"parameters":{"operation":"update","columns":{"mappingMode":"defineBelow","value":{},"matchingColumns":["id"]}}}`,
		`{"name":"n","type":"n8n-nodes-base.aggregate","typeVersion":1,"parameters":{"fieldsToAggregate":{"fieldToAggregate":[{"fieldToAggregate":"a"},{"fieldToAggregate":"a"}]}}}`,
		`{"name":"n","type":"n8n-nodes-base.supabase","typeVersion":1,"parameters":{"operation":"get"}}`,
		`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.3,"parameters":{"model":"gpt-3.5-turbo","messages":{"messageValues":[{"content":"Hi"}]}}}`,
		`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"gpt-4","prompt":"Hi"}}`,
		`{"name":"n","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1,"parameters":{"model":"gpt-4-32k"}}`,
		`{"name":"n","type":"@n8n/n8n-nodes-langchain.embeddingsOpenAi","typeVersion":1.2,"parameters":{"model":"text-similarity-ada-001"}}`,
		`{"name":"n","type":"n8n-nodes-base.orbit","typeVersion":1,"parameters":{"resource":"member","operation":"upsert"}}`,
		`{"name":"n","type":"n8n-nodes-base.merge","typeVersion":2.1,"parameters":{"mode":"mergeByIndex"}}`,
		`{"name":"n","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"resource":"message","operation":"sendCarrierPigeon"}}`,
		`{"name":"n","type":"n8n-nodes-base.notion","typeVersion":2,"parameters":{"resource":"database","operation":"create"}}`,
	} {
		n := parse(node)
		if r, ok := RefusedCall(n); !ok {
			t.Errorf("%s: not refused (the fixture no longer stands for its check)", node)
		} else if !refusable(n.Type) {
			t.Errorf("%s: refused (%s), but RefusalChecksOf(%q) is empty", node, r.Why, n.Type)
		}
	}
	for _, typ := range []string{"n8n-nodes-base.set", "n8n-nodes-base.if", "n8n-nodes-base.code", "n8n-nodes-base.noOp", "n8n-nodes-base.manualTrigger", "n8n-nodes-base.someCommunityNode", "n8n-nodes-base.setTool"} {
		if refusable(typ) {
			t.Errorf("RefusalChecksOf(%q) is %b: no check of RefusedCall judges that type", typ, RefusalChecksOf(typ))
		}
	}

	nodes, skipped := 0, 0
	eachFixtureNode(t, func(where string, n *Node) {
		nodes++
		if refusable(n.Type) {
			return
		}
		skipped++
		creds := n.Credentials
		n.Credentials = nil
		r, ok := RefusedCall(n)
		n.Credentials = creds
		if ok {
			t.Errorf("%s: node %q (%s v%v) with no credential is refused (%s), but RefusalChecksOf is empty", where, n.Name, n.Type, n.TypeVersion, r.Why)
		}
	})
	if skipped == 0 || skipped == nodes {
		t.Fatalf("%d of %d nodes of types RefusalChecksOf finds no check for", skipped, nodes)
	}
}

// TestRefusalChecksOf: each check of RefusedCall, asked alone
// (RefusedCallBy with its one bit, the node's credentials taken away),
// refuses no node of a type RefusalChecksOf leaves it out for, on every
// node of the repository's fixtures and of the three corpora; each
// refuses some node there, and a hand-written node per check is refused
// by RefusedCallBy with its type's checks. RefusedCallBy with the type's
// checks answers what RefusedCall answers, credentials kept. It fails
// when a clause of RefusalChecksOf is dropped.
func TestRefusalChecksOf(t *testing.T) {
	const checks = 10
	if AllRefusalChecks != 1<<checks-1 {
		t.Fatalf("AllRefusalChecks is %b: %d checks expected", AllRefusalChecks, checks)
	}
	for node, want := range map[string]RefusalChecks{
		`{"name":"n","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://example.com","sendBody":true,"specifyBody":"json","jsonBody":"{\"a\":"}}`:                                                                                                                                       checkHTTP,
		`{"name":"n","type":"n8n-nodes-base.httpRequestTool","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.anthropic.com/v1/messages","sendBody":true,"specifyBody":"json","jsonBody":"{\"model\":\"claude-sonnet-4-5\",\"messages\":[]}"}}`:                                                                       checkHTTP,
		`{"name":"n","type":"n8n-nodes-base.googleSheetsTool","typeVersion":4.5,"parameters":{"operation":"update","columns":{"mappingMode":"defineBelow","value":{},"matchingColumns":["id"]}}}`:                                                                                                                                       checkSheets,
		`{"name":"n","type":"n8n-nodes-base.aggregate","typeVersion":1,"parameters":{"fieldsToAggregate":{"fieldToAggregate":[{"fieldToAggregate":"a"},{"fieldToAggregate":"a"}]}}}`:                                                                                                                                                    checkAggregate,
		`{"name":"n","type":"n8n-nodes-base.orbit","typeVersion":1,"parameters":{"resource":"member","operation":"upsert"}}`:                                                                                                                                                                                                            checkThrowsFirst,
		`{"name":"n","type":"n8n-nodes-base.telegram","typeVersion":1.2,"parameters":{"resource":"message","operation":"sendCarrierPigeon"}}`:                                                                                                                                                                                           checkOperations,
		`{"name":"n","type":"n8n-nodes-base.notion","typeVersion":2,"parameters":{"resource":"database","operation":"create"}}`:                                                                                                                                                                                                         checkOperations,
		`{"name":"n","type":"n8n-nodes-base.merge","typeVersion":2.1,"parameters":{"mode":"mergeByIndex"}}`:                                                                                                                                                                                                                             checkModes,
		`{"name":"n","type":"n8n-nodes-base.supabase","typeVersion":1,"parameters":{"operation":"get"}}`:                                                                                                                                                                                                                                checkSupabase,
		`{"name":"n","type":"n8n-nodes-base.openAi","typeVersion":1,"parameters":{"model":"gpt-4","prompt":"Hi"}}`:                                                                                                                                                                                                                      checkLegacy,
		`{"name":"n","type":"@n8n/n8n-nodes-langchain.openAi","typeVersion":1.3,"parameters":{"model":"gpt-3.5-turbo","messages":{"messageValues":[{"content":"Hi"}]}}}`:                                                                                                                                                                checkOpenAiV1,
		`{"name":"n","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1,"parameters":{"model":"gpt-4-32k"}}`:                                                                                                                                                                                                                checkRetired,
		`{"name":"n","type":"@n8n/n8n-nodes-langchain.embeddingsOpenAi","typeVersion":1.2,"parameters":{"model":"text-similarity-ada-001"}}`:                                                                                                                                                                                            checkRetired,
		`{"name":"n","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://api.openai.com/v1/chat/completions","authentication":"predefinedCredentialType","nodeCredentialType":"openAiApi","sendBody":true,"specifyBody":"json","jsonBody":"{\"model\":\"gpt-4-32k\",\"messages\":[]}"}}`: checkRetired,
	} {
		f := Parse(NewSource("n.json", []byte(`{"nodes":[`+node+`],"connections":{}}`)))
		n := f.Workflows[0].Nodes[0]
		if _, ok := RefusedCallBy(n, want); !ok {
			t.Errorf("%s: not refused by its check alone (the fixture no longer stands for it)", node)
		}
		if c := RefusalChecksOf(n.Type); c&want == 0 {
			t.Errorf("%s: RefusalChecksOf(%q) = %b, without its check %b", node, n.Type, c, want)
		}
	}
	var fired [checks]int
	eachFixtureNode(t, func(where string, n *Node) {
		c := RefusalChecksOf(n.Type)
		r, ok := RefusedCallBy(n, c)
		if wantR, want := RefusedCall(n); ok != want || r != wantR {
			t.Errorf("%s: node %q (%s): RefusedCallBy its type's checks = %+v, %v; RefusedCall %+v, %v", where, n.Name, n.Type, r, ok, wantR, want)
		}
		creds := n.Credentials
		n.Credentials = nil
		for k := range checks {
			r, ok := RefusedCallBy(n, 1<<k)
			if !ok {
				continue
			}
			fired[k]++
			if c&(1<<k) == 0 {
				t.Errorf("%s: node %q (%s v%v) is refused by check %b alone (%s), which RefusalChecksOf leaves out", where, n.Name, n.Type, n.TypeVersion, 1<<k, r.Why)
			}
		}
		n.Credentials = creds
	})
	for k, n := range fired {
		if n == 0 && RefusalChecks(1<<k) != checkOpenAiV1 {
			t.Errorf("check %b refuses no fixture or corpus node: the comparison proves nothing for it", 1<<k)
		}
	}
}

// TestRequiresParams: a node of a type RequiresParams leaves out misses no
// required parameter, by any of the three readings (MissingRequired,
// MissingRequiredAlways, PublishMissing). A node missing a required
// parameter and a tool variant of a node that requires none, whose stored
// "" toolDescription is missing, are of types it lists; then every node of
// the three corpora and of the repository's fixtures is asked (each fails
// when a clause of RequiresParams is dropped).
func TestRequiresParams(t *testing.T) {
	missing := func(n *Node) (string, bool) {
		for _, f := range []func(*Node) (string, bool){
			MissingRequired, MissingRequiredAlways,
			func(n *Node) (string, bool) { return PublishMissing(n, false) },
			func(n *Node) (string, bool) { return PublishMissing(n, true) },
		} {
			if p, ok := f(n); ok {
				return p, true
			}
		}
		return "", false
	}
	nodes := []string{`{"name":"A","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":""}}`}
	// A type usable as a tool that requires nothing and declares no
	// toolDescription, resource or operation: its tool variant requires
	// toolDescription alone.
	for _, typ := range slices.Sorted(maps.Keys(nodeTable())) {
		es := nodeTable()[typ]
		e := &es[len(es)-1]
		if RequiresParams(typ) || e.flags&flagTool == 0 || e.params == "" || declared(e, "toolDescription") || declared(e, "resource") || declared(e, "operation") {
			continue
		}
		nodes = append(nodes, `{"name":"A","type":"`+typ+`Tool","typeVersion":`+strconv.FormatFloat(e.v[0], 'f', -1, 64)+`,"parameters":{"toolDescription":""}}`)
		break
	}
	if len(nodes) != 2 {
		t.Fatal("no tool variant of a type that requires nothing in the table")
	}
	for _, node := range nodes {
		n := Parse(NewSource("n.json", []byte(`{"nodes":[`+node+`],"connections":{}}`))).Workflows[0].Nodes[0]
		if p, ok := MissingRequired(n); !ok {
			t.Errorf("%s: misses nothing (the fixture no longer stands for its case)", node)
		} else if !RequiresParams(n.Type) {
			t.Errorf("%s: misses %q, but RequiresParams(%q) is false", node, p, n.Type)
		}
	}
	for _, typ := range []string{"n8n-nodes-base.noOp", "n8n-nodes-base.manualTrigger", "n8n-nodes-base.someCommunityNode"} {
		if RequiresParams(typ) {
			t.Errorf("RequiresParams(%q) is true", typ)
		}
	}

	all, skipped := 0, 0
	eachFixtureNode(t, func(where string, n *Node) {
		all++
		if RequiresParams(n.Type) {
			return
		}
		skipped++
		if p, ok := missing(n); ok {
			t.Errorf("%s: node %q (%s v%v) misses %q, but RequiresParams is false", where, n.Name, n.Type, n.TypeVersion, p)
		}
	})
	if skipped == 0 || skipped == all {
		t.Fatalf("%d of %d nodes of types RequiresParams leaves out", skipped, all)
	}
}

// eachFixtureNode calls fn on every node of the repository's fixtures and
// of the three corpora, each parsed afresh.
func eachFixtureNode(t *testing.T, fn func(where string, n *Node)) {
	t.Helper()
	each := func(p string, b []byte) {
		for _, w := range Parse(NewSource(p, b)).Workflows {
			for _, n := range w.Nodes {
				fn(p, n)
			}
		}
	}
	for _, root := range []string{"../rules/testdata", "../rules/examples", "../testdata", "../analyze/testdata"} {
		eachJSONFile(t, root, each)
	}
	for _, set := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		eachCorpusFile(t, set, each)
	}
}
