package n8nschema

import (
	"testing"
)

// searchedEntry is requiredEntry as missingRequired found it before it
// took the entry found at parse: the table searched by type, then by
// exact version.
func searchedEntry(n *Node) (*nodeEntry, bool) {
	es, ok := nodeTable()[n.Type]
	tool := false
	if !ok {
		if es, ok = entriesOf(n.Type); !ok {
			return nil, false
		}
		tool = true
	}
	var e *nodeEntry
	for i := range es {
		for _, v := range es[i].v {
			if v == n.TypeVersion {
				e = &es[i]
			}
		}
	}
	return e, tool
}

// TestRequiredEntry: the entry MissingRequired reads (requiredEntry,
// which takes the one found at parse when it lists the node's version
// exactly) is the table's searched one, on every node of the three
// corpora and on nodes written to reach each way: an exact version, one
// the table does not list (the nearest entry found at parse is not it),
// none (parse reads the default), a negative one, a type the table does not list, a <type>Tool variant, and a
// type ending in "Tool" that the table lists itself (agentTool, no
// variant).
func TestRequiredEntry(t *testing.T) {
	var exact, other int
	check := func(where string, n *Node) {
		t.Helper()
		got, gotTool := requiredEntry(n)
		want, wantTool := searchedEntry(n)
		if got != want || gotTool != wantTool {
			t.Fatalf("%s: node %q (%s v%v): entry %p tool %v, searched %p tool %v", where, n.Name, n.Type, n.TypeVersion, got, gotTool, want, wantTool)
		}
		if n.described && n.desc != nil && got == n.desc {
			exact++
		} else {
			other++
		}
	}
	for _, set := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		eachCorpusFile(t, set, func(path string, src []byte) {
			for _, w := range Parse(NewSource(path, src)).Workflows {
				for _, n := range w.Nodes {
					check(path, n)
				}
			}
		})
	}
	const src = `{"nodes": [
	 {"name": "exact", "type": "n8n-nodes-base.slack", "typeVersion": 2.2, "parameters": {}},
	 {"name": "between", "type": "n8n-nodes-base.slack", "typeVersion": 2.15, "parameters": {}},
	 {"name": "none", "type": "n8n-nodes-base.slack", "parameters": {}},
	 {"name": "negative", "type": "n8n-nodes-base.slack", "typeVersion": -1, "parameters": {}},
	 {"name": "unknown", "type": "n8n-nodes-base.noSuchNode", "typeVersion": 1, "parameters": {}},
	 {"name": "variant", "type": "n8n-nodes-base.slackTool", "typeVersion": 2.2, "parameters": {}},
	 {"name": "listed tool", "type": "@n8n/n8n-nodes-langchain.agentTool", "typeVersion": 3, "parameters": {}}],
	 "connections": {}}`
	for _, n := range Parse(NewSource("w.json", []byte(src))).Workflows[0].Nodes {
		check("written", n)
		e, tool := requiredEntry(n)
		switch n.Name {
		case "exact", "none", "listed tool": // none: parse reads the default version
			if e == nil || tool {
				t.Errorf("%s: entry %p tool %v, want the type's own entry", n.Name, e, tool)
			}
		case "between", "negative", "unknown":
			if e != nil {
				t.Errorf("%s: entry %p, want none", n.Name, e)
			}
		case "variant":
			if e == nil || !tool {
				t.Errorf("%s: entry %p tool %v, want the base type's entry as a variant", n.Name, e, tool)
			}
		}
	}
	if exact == 0 || other == 0 {
		t.Errorf("%d nodes took the entry found at parse, %d searched the table: the comparison proves nothing for one way", exact, other)
	}
}
