package n8nschema

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseHazards feeds the damage real files carry (docs/design.md#inputs) and
// checks the exact problem, position and message of each. Positions were
// counted by hand (1-based line, rune column, the BOM not counted).
func TestParseHazards(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		workflows int
		edges     []string // of the first workflow
		problems  []string
	}{
		{
			name: "null output slots are silent",
			src: `{"nodes": [{"name": "If", "type": "n8n-nodes-base.if"}, {"name": "B", "type": "n8n-nodes-base.noOp"}],
 "connections": {"If": {"main": [null, [{"node": "B", "type": "main", "index": 0}]]}}}`,
			workflows: 1,
			edges:     []string{"If main[1] -> B main[0]"},
		},
		{
			// for...in over null reads nothing; n8n 2.41.1's import
			// check refuses it.
			name: "null outputs hold no edge",
			src: `{"nodes": [{"name": "If", "type": "n8n-nodes-base.if"}, {"name": "B", "type": "n8n-nodes-base.noOp"}],
 "connections": {"If": {"main": [null, [{"node": "B", "type": "main", "index": 0}]]}, "B": {"main": null}}}`,
			workflows: 1,
			edges:     []string{"If main[1] -> B main[0]"},
			problems: []string{
				`BrokenConnection 2:93 "B": "main" outputs of "B" are null, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)`,
			},
		},
		{
			name:      "null connection in a slot stops the workflow",
			src:       `{"nodes": [{"name": "A"}, {"name": "B"}], "connections": {"A": {"main": [[null, {"node": "B", "type": "main", "index": 0}], []]}}}`,
			workflows: 1,
			edges:     []string{"A main[0] -> B main[0]"},
			problems: []string{
				`BrokenConnection 1:75 "A": output 0 of "A" holds null where a connection belongs; n8n cannot build the workflow from it (reading .node of null throws), so no execution of it starts`,
			},
		},
		{
			name: "missing node ids are silent",
			src: `{"nodes": [{"name": "A", "type": "n8n-nodes-base.manualTrigger"}, {"name": "B", "type": "n8n-nodes-base.noOp"}],
 "connections": {"A": {"main": [[{"node": "B", "type": "main", "index": 0}]]}}}`,
			workflows: 1,
			edges:     []string{"A main[0] -> B main[0]"},
		},
		{
			name:      "sticky note with null name is silent",
			src:       `{"nodes": [{"name": null, "type": "n8n-nodes-base.stickyNote", "parameters": {"content": "## Notes"}}], "connections": {}}`,
			workflows: 1,
		},
		{
			name: "nodes without a name",
			src: `{"nodes": [
  {"type": "n8n-nodes-base.httpRequest", "parameters": {}},
  {"name": null, "type": "n8n-nodes-base.set"},
  {"name": "", "type": "n8n-nodes-base.code"},
  {"name": null, "type": "n8n-nodes-base.stickyNote"}
], "connections": {}}`,
			workflows: 1,
			problems: []string{
				`BrokenConnection 2:3 "": nodes[0] (n8n-nodes-base.httpRequest) has no name; n8n names it after its type when the workflow is imported, and stormcheck cannot follow connections to that name`,
				`BrokenConnection 3:4 "": nodes[1] (n8n-nodes-base.set) has no name; n8n names it after its type when the workflow is imported, and stormcheck cannot follow connections to that name`,
				`BrokenConnection 4:4 "": nodes[2] (n8n-nodes-base.code) has no name; n8n names it after its type when the workflow is imported, and stormcheck cannot follow connections to that name`,
			},
		},
		{
			name:      "nodes that are not objects",
			src:       `{"nodes": [1, null, "x"], "connections": {}}`,
			workflows: 1,
			problems: []string{
				`BrokenConnection 1:12 "": nodes[0] is a JSON number, expected a node object; skipped`,
				`BrokenConnection 1:21 "": nodes[2] is a JSON string, expected a node object; skipped`,
			},
		},
		{
			name: "node type is not a string",
			src: `{"nodes": [{"name": "A", "type": {"name": "n8n-nodes-base.set"}}, {"name": null, "type": 7},
 {"name": "C", "type": null}], "connections": {}}`,
			workflows: 1,
			// No problem: n8n cannot build the workflow, which RS010
			// reports (analyze.Graph.Unloadable holds nodes with no type).
		},
		{
			name:      "connections is an array",
			src:       `{"nodes": [], "connections": []}`,
			workflows: 1,
			problems: []string{
				`BrokenConnection 1:15 "": "connections" is a JSON array, expected an object keyed by source node name; no connection was read`,
			},
		},
		{
			name:      "connections of a node keyed by an array",
			src:       `{"nodes": [{"name": "A"}], "connections": {"A": [[{"node": "A"}]]}}`,
			workflows: 1,
			problems: []string{
				`BrokenConnection 1:44 "A": connections of "A" are a JSON array, expected an object keyed by connection type; n8n cannot build the workflow from it (object is not iterable), so no execution of it starts`,
			},
		},
		{
			name:      "connections of a node keyed by an array of empty slots",
			src:       `{"nodes": [{"name": "A"}], "connections": {"A": [[], null]}}`,
			workflows: 1,
			problems: []string{
				`BrokenConnection 1:44 "A": connections of "A" are a JSON array, expected an object keyed by connection type`,
			},
		},
		{
			name: "connections keyed by node id",
			src: `{"nodes": [{"id": "n1", "name": "Start"}, {"id": "n2", "name": "Fetch"}],
 "connections": {"n1": {"main": [[{"node": "Fetch", "type": "main", "index": 0}]]}}}`,
			workflows: 1,
			problems: []string{
				`BrokenConnection 2:18 "": connections are keyed by node id "n1" (node "Start"); n8n keys them by node name, so this edge is ignored`,
			},
		},
		{
			name: "output slot is an object",
			src: `{"nodes": [{"name": "A"}, {"name": "B"}],
 "connections": {"A": {"main": [{"node": "B", "type": "main", "index": 0}]}}}`,
			workflows: 1,
			edges:     []string{"A main[0] -> B main[0]"},
			problems: []string{
				`BrokenConnection 2:33 "A": output 0 of "A" is an object, expected an array of connections; n8n cannot build the workflow from it (object is not iterable), so no execution of it starts`,
			},
		},
		{
			name: "connection type value is an object",
			src: `{"nodes": [{"name": "A"}, {"name": "B"}],
 "connections": {"A": {"main": {"0": [{"node": "B", "type": "main", "index": 0}]}}}}`,
			workflows: 1,
			edges:     []string{"A main[0] -> B main[0]"},
			problems: []string{
				`BrokenConnection 2:24 "A": "main" outputs of "A" are an object keyed by output index, expected an array of output slots; n8n follows each member as the output its key names (n8n 2.41.1 refuses to import the file until it is an array)`,
			},
		},
		{
			name:      "output slot is a scalar and a connection has no target",
			src:       `{"nodes": [{"name": "A"}], "connections": {"A": {"main": [7, [{"type": "main"}, "A"]]}}}`,
			workflows: 1,
			problems: []string{
				`BrokenConnection 1:59 "A": output 0 of "A" is a JSON number, expected an array of connections; n8n cannot build the workflow from it (number is not iterable), so no execution of it starts`,
				`BrokenConnection 1:63 "A": a connection from "A" has no target node name; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from "A" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which "A" runs ("Destination node not found", thrown when it looks for the next node)`,
				`BrokenConnection 1:81 "A": a connection from "A" has no target node name; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from "A" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which "A" runs ("Destination node not found", thrown when it looks for the next node)`,
			},
		},
		{
			name: "duplicate names",
			src: `{
  "nodes": [
    {"name": "HTTP Request", "type": "n8n-nodes-base.httpRequest"},
    {"name": "HTTP Request", "type": "n8n-nodes-base.httpRequest", "parameters": {"url": "https://b.example"}},
    {"name": "HTTP Request", "type": "n8n-nodes-base.httpRequest", "parameters": {"url": "https://c.example"}}
  ],
  "connections": {}
}`,
			workflows: 1,
			problems: []string{
				`DuplicateName 4:6 "HTTP Request": node name "HTTP Request" is used by nodes[0], nodes[1] and nodes[2]; connections are keyed by name, so n8n cannot tell them apart; n8n 2.41.1's import:workflow and API refuse this workflow: Duplicate node name "HTTP Request" (2.8.4 takes it, and the editor's own import does not refuse it)`,
			},
		},
		{
			name: "doubled export",
			src: `{
  "nodes": [
    {"name": "HTTP Request", "type": "n8n-nodes-base.httpRequest"},
    {"name": "HTTP Request", "type": "n8n-nodes-base.httpRequest"}
  ],
  "connections": {}
}`,
			workflows: 1,
			problems: []string{
				`DuplicateName 4:6 "": nodes[1] repeats nodes[0] ("HTTP Request") byte for byte: a doubled export; connections cannot tell the copies apart, but each copy is the same node; n8n 2.41.1's import:workflow and API refuse this workflow: Duplicate node name "HTTP Request" (2.8.4 takes it, and the editor's own import does not refuse it)`,
			},
		},
		{
			name: "connections to missing nodes",
			src: `{
  "nodes": [{"name": "A"}],
  "connections": {
    "Ghost": {"main": [[{"node": "A", "type": "main", "index": 0}]]},
    "A": {"main": [[{"node": "Gone", "type": "main", "index": 0}]]}
  }
}`,
			workflows: 1,
			problems: []string{
				`BrokenConnection 4:5 "": connections name source node "Ghost", which does not exist`,
				`BrokenConnection 5:22 "A": connection from "A" goes to node "Gone", which does not exist; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from "A" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which "A" runs ("Destination node not found", thrown when it looks for the next node)`,
			},
		},
		{
			name:      "trailing garbage",
			src:       "{\"name\": \"T\", \"nodes\": [], \"connections\": {}}\nMy title",
			workflows: 1,
			problems:  []string{`InvalidJSON 2:1 "": unexpected data after the JSON value: "My title"`},
		},
		{
			name:      "second object after the first",
			src:       `{"nodes": [], "connections": {}}  {"nodes": [], "connections": {}}`,
			workflows: 1,
			problems:  []string{`InvalidJSON 1:35 "": unexpected data after the JSON value: "{\"nodes\": [], \"connections\": {}}"`},
		},
		{
			name:      "crlf",
			src:       "{\r\n  \"name\": \"CRLF\",\r\n  \"nodes\": [\r\n    {\"name\": \"A\", \"type\": \"x\"}\r\n  ],\r\n  \"connections\": {\"A\": {\"main\": [[{\"node\": \"Gone\"}]]}}\r\n}\r\n",
			workflows: 1,
			problems:  []string{`BrokenConnection 6:36 "A": connection from "A" goes to node "Gone", which does not exist; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from "A" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which "A" runs ("Destination node not found", thrown when it looks for the next node)`},
		},
		{
			name:      "bom",
			src:       "\ufeff{\"name\": \"Bé\", \"nodes\": [{\"name\": \"A\"}, {\"name\": \"A\", \"id\": \"2\"}], \"connections\": {}}",
			workflows: 1,
			problems: []string{
				// The copies differ only in id: the note (runsAlike).
				`DuplicateName 1:42 "": nodes[1] repeats nodes[0] ("A") but for id and canvas position: connections cannot tell the copies apart, but whichever n8n keeps (the last) runs the same: id and position change no run; n8n 2.41.1's import:workflow and API refuse this workflow: Duplicate node name "A" (2.8.4 takes it, and the editor's own import does not refuse it)`,
			},
		},
		{
			name:      "bom then trailing data",
			src:       "\ufeff{\"nodes\": [], \"connections\": {}}x",
			problems:  []string{`InvalidJSON 1:33 "": unexpected data after the JSON value: "x"`},
			workflows: 1,
		},
		{
			name:     "control character in a string",
			src:      "{\n  \"name\": \"Time\ttracker\",\n  \"nodes\": []\n}",
			problems: []string{`InvalidJSON 2:16 "": invalid JSON: invalid character '\t' in string literal`},
		},
		{
			name:     "truncated",
			src:      "{\"nodes\": [\n  {\"name\": \"A\"",
			problems: []string{`InvalidJSON 2:15 "": invalid JSON: unexpected end of file`},
		},
		{
			name:     "empty",
			src:      "",
			problems: []string{`InvalidJSON 1:1 "": file is empty; expected an n8n workflow JSON object`},
		},
		{
			name:     "whitespace only",
			src:      " \r\n\t\n",
			problems: []string{`InvalidJSON 1:1 "": file is empty; expected an n8n workflow JSON object`},
		},
		{
			name:     "bom only",
			src:      "\ufeff",
			problems: []string{`InvalidJSON 1:1 "": file is empty; expected an n8n workflow JSON object`},
		},
		{
			name:     "empty object",
			src:      `{}`,
			problems: []string{`NotWorkflow 1:1 "": empty object is not an n8n workflow (expected "nodes" and "connections")`},
		},
		{
			name:     "number",
			src:      "\n 42",
			problems: []string{`NotWorkflow 2:2 "": a JSON number is not an n8n workflow`},
		},
		{
			name:     "string",
			src:      `"nodes"`,
			problems: []string{`NotWorkflow 1:1 "": a JSON string is not an n8n workflow`},
		},
		{
			name:     "null",
			src:      `null`,
			problems: []string{`NotWorkflow 1:1 "": a JSON null is not an n8n workflow`},
		},
		{
			name:     "flowise",
			src:      `{"nodes": [{"id": "chatOpenAI_0", "data": {}}], "edges": [{"source": "chatOpenAI_0"}]}`,
			problems: []string{`NotWorkflow 1:1 "": object has "nodes" and "edges" but no "connections": this looks like another tool's format (a Flowise chatflow?), not an n8n workflow`},
		},
		{
			name:     "nodes without connections",
			src:      `{"nodes": []}`,
			problems: []string{`NotWorkflow 1:1 "": object has "nodes" but no "connections" object; not an n8n workflow`},
		},
		{
			name:     "nodes is a string",
			src:      `{"nodes": "[", "connections": "{"}`,
			problems: []string{`NotWorkflow 1:1 "": "nodes" is a JSON string, expected an array; not an n8n workflow`},
		},
		{
			name:     "connections without nodes",
			src:      `{"connections": {}}`,
			problems: []string{`NotWorkflow 1:1 "": object has "connections" but no "nodes" array; not an n8n workflow`},
		},
		{
			name:     "other object",
			src:      `{"name": "pkg", "version": "1.0.0", "a": 1, "b": 2, "c": 3, "d": 4, "e": 5}`,
			problems: []string{`NotWorkflow 1:1 "": object with keys "name", "version", "a", "b", "c", "d" is not an n8n workflow (expected "nodes" and "connections")`},
		},
		{
			name:     "array of non-workflows",
			src:      `["Uncategorized", {"name": "x"}]`,
			problems: []string{`NotWorkflow 1:1 "": array of 2 elements holds no n8n workflow (expected objects with "nodes" and "connections")`},
		},
		{
			name:     "empty array",
			src:      `[]`,
			problems: []string{`NotWorkflow 1:1 "": array of 0 elements holds no n8n workflow (expected objects with "nodes" and "connections")`},
		},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.name, " ", "_"), func(t *testing.T) {
			f := parseString(t, tt.src)
			if len(f.Workflows) != tt.workflows {
				t.Fatalf("got %d workflows, want %d", len(f.Workflows), tt.workflows)
			}
			if tt.workflows > 0 {
				if diff := cmp.Diff(tt.edges, summarize(f)[0].Edges); diff != "" {
					t.Errorf("edges mismatch (-want +got):\n%s", diff)
				}
			}
			if diff := cmp.Diff(tt.problems, allProblems(f)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCopiesAreOneNode: n8n keeps one node of a name (setNodes), so the
// later copies of a node that runs alike are no nodes of their own, while
// copies that run differently all stay for RS004 and the rules to judge.
func TestCopiesAreOneNode(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []int // the Index of each node kept
	}{
		{"byte for byte", `{"nodes": [{"name": "A", "type": "x"}, {"name": "B", "type": "y"}, {"name": "A", "type": "x"}], "connections": {}}`, []int{0, 1}},
		{"but for id", `{"nodes": [{"name": "A", "id": "1"}, {"name": "A", "id": "2"}, {"name": "A", "id": "3"}], "connections": {}}`, []int{0}},
		{"edited", `{"nodes": [{"name": "A", "type": "x"}, {"name": "A", "type": "z"}], "connections": {}}`, []int{0, 1}},
	} {
		t.Run(strings.ReplaceAll(tt.name, " ", "_"), func(t *testing.T) {
			w := parseString(t, tt.src).Workflows[0]
			var got []int
			for _, n := range w.Nodes {
				got = append(got, n.Index)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("nodes kept (-want +got):\n%s", diff)
			}
			if w.Node("A") != w.Nodes[0] {
				t.Errorf("Node(%q) is not the first copy", "A")
			}
		})
	}
}
