package analyze

import (
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// failsFirstEvery is failsFirst as it was before it asked a node only the
// checks of its type (failPlan): every check, in order, of every node.
func failsFirstEvery(g *Graph, i int) (string, bool) {
	for _, c := range failChecks {
		if why, ok := c.check(g, i); ok {
			return why, true
		}
	}
	return "", false
}

// sameFailsFirst fails t where failsFirst and failsFirstEvery differ on a
// node of g, and counts the nodes that fail.
func sameFailsFirst(t *testing.T, g *Graph) (fails int) {
	t.Helper()
	for i, nd := range g.Nodes {
		why, ok := g.failsFirst(i)
		wantWhy, want := failsFirstEvery(g, i)
		if why != wantWhy || ok != want {
			t.Errorf("%s (%s): failsFirst = %q, %v; every check: %q, %v", nd.Name, nd.Type, why, ok, wantWhy, want)
		}
		if ok {
			fails++
		}
	}
	return fails
}

// TestFailsFirstByType: a node is judged by the checks of its type
// (failPlan) and by modelRefused, which reads its inputs (a Set node fed a
// refused chat model on ai_languageModel fails there too, and so does a
// Code node); each answers what every check in order answers, on nodes
// that fail and nodes that do not.
func TestFailsFirstByType(t *testing.T) {
	const src = `{"nodes": [
	 {"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
	 {"name": "Set fed a model", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [0, 0], "parameters": {}},
	 {"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [0, 0], "parameters": {}},
	 {"name": "Code fed a model", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [0, 0], "parameters": {"jsCode": "return $input.all();"}},
	 {"name": "Code", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [0, 0], "parameters": {"jsCode": "return $input.all();"}},
	 {"name": "Placeholder", "type": "n8n-nodes-base.function", "typeVersion": 1, "position": [0, 0], "parameters": {"functionCode": "__PREPARE_CODE__"}},
	 {"name": "Merge", "type": "n8n-nodes-base.merge", "typeVersion": 3, "position": [0, 0], "parameters": {"mode": "combine", "combineBy": "combineByFields"}},
	 {"name": "Agent", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 2.2, "position": [0, 0], "parameters": {}},
	 {"name": "M", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "position": [0, 0], "parameters": {}, "credentials": {"openAIApi": {"id": "1", "name": "x"}}}],
	 "connections": {
	  "S": {"main": [[{"node": "Set fed a model", "type": "main", "index": 0}, {"node": "Set", "type": "main", "index": 0}, {"node": "Code fed a model", "type": "main", "index": 0}, {"node": "Code", "type": "main", "index": 0}, {"node": "Placeholder", "type": "main", "index": 0}, {"node": "Merge", "type": "main", "index": 0}, {"node": "Agent", "type": "main", "index": 0}]]},
	  "M": {"ai_languageModel": [[{"node": "Set fed a model", "type": "ai_languageModel", "index": 0}, {"node": "Code fed a model", "type": "ai_languageModel", "index": 0}]]}}}`
	g := BuildGraph(parseOne(t, src))
	sameFailsFirst(t, g)
	for name, want := range map[string]bool{
		"Set fed a model": true, "Set": false, "Code fed a model": true, "Code": false,
		"Placeholder": true, "Merge": true, "Agent": true, "M": false,
	} {
		i, _ := g.index(g.Node(name))
		if _, got := g.failsFirst(i); got != want {
			t.Errorf("failsFirst(%s) = %v, want %v", name, got, want)
		}
	}
}

// TestFailPlan: on every node of the repository's fixtures and of the
// three corpora, failsFirst answers what every check in order answers,
// and each check, asked alone, judges no node of a type failPlan leaves
// it out for; each check judges some node there. It fails when a clause
// of a check's type test (failChecks' judges) is dropped, with
// TestFailPlanHandWritten for the clauses no such node fails at.
func TestFailPlan(t *testing.T) {
	var workflows []*n8nschema.Workflow
	for _, dir := range []string{"testdata", "../testdata", "../rules/testdata", "../rules/examples"} {
		for _, f := range corpustest.Dir(t, dir) {
			workflows = append(workflows, f.Workflows...)
		}
	}
	workflows = append(workflows, corpustest.Workflows(t)...)
	fails := 0
	var judged [len(failChecks)]int
	for _, w := range workflows {
		g := BuildGraph(w)
		fails += sameFailsFirst(t, g)
		for i, nd := range g.Nodes {
			plan := failPlan(nd.Type)
			for k, c := range failChecks {
				why, ok := c.check(g, i)
				if !ok {
					continue
				}
				judged[k]++
				if plan&(1<<k) == 0 {
					t.Errorf("%s: node %q (%s) fails at check %d (%s), which failPlan leaves out for its type", w.Source.Name, nd.Name, nd.Type, k, why)
				}
			}
		}
	}
	if fails == 0 {
		t.Error("no node fails first: the comparison proves nothing")
	}
	for k, n := range judged {
		if n == 0 {
			t.Errorf("check %d judges no fixture or corpus node: the comparison proves nothing for it", k)
		}
	}
}

// TestFailPlanHandWritten: nodes of the types a clause of failChecks'
// judges names that no fixture or corpus node fails at (so TestFailPlan
// cannot see the clause dropped), each fed by a schedule, fail first at
// their check: a Function Item whose code is a placeholder
// (placeholderCode, funcType) and a Question and Answer chain with a
// model that reads chatInput from items that have none (noPrompt,
// promptType).
func TestFailPlanHandWritten(t *testing.T) {
	const src = `{"nodes": [
	 {"name": "S", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 0], "parameters": {}},
	 {"name": "Item placeholder", "type": "n8n-nodes-base.functionItem", "typeVersion": 1, "position": [0, 0], "parameters": {"functionCode": "__PREPARE_CODE__"}},
	 {"name": "QA", "type": "@n8n/n8n-nodes-langchain.chainRetrievalQa", "typeVersion": 1.5, "position": [0, 0], "parameters": {}},
	 {"name": "M", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "position": [0, 0], "parameters": {}, "credentials": {"openAiApi": {"id": "1", "name": "x"}}}],
	 "connections": {
	  "S": {"main": [[{"node": "Item placeholder", "type": "main", "index": 0}, {"node": "QA", "type": "main", "index": 0}]]},
	  "M": {"ai_languageModel": [[{"node": "QA", "type": "ai_languageModel", "index": 0}]]}}}`
	g := BuildGraph(parseOne(t, src))
	sameFailsFirst(t, g)
	for name, want := range map[string]string{
		"Item placeholder": "a name nothing defines",
		"QA":               "chatInput",
	} {
		i, _ := g.index(g.Node(name))
		if why, ok := g.failsFirst(i); !ok || !strings.Contains(why, want) {
			t.Errorf("failsFirst(%s) = %q, %v; want a reason holding %q", name, why, ok, want)
		}
	}
}
