package n8nschema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// oddConnections holds a connections object of every odd shape the parser
// reports on, below source names and connection types that need escaping.
const oddConnections = `{
 "A": {"main": [[{"node": "B", "type": "main", "index": 0}, null, {"node": "Gone", "type": "main", "index": 0}],
                {"node": "C", "type": "main", "index": 1},
                "x", 7,
                ["B", "main", 0],
                [["B", "main", 0]],
                [{"index": 3}]],
       "m@in": {"0": [{"node": "C", "type": "main", "index": 0}], "01": [{"node": "B"}], "x.y": [], "2": null},
       "ma.in": null,
       "ai tool": {},
       "s": "str",
       "arr": ["B", "main", 0]},
 "a.b": {"main": [[{"node": "C", "type": "main", "index": 2}]], "ai_tool": [[{"node": "Gmail1", "type": "ai_tool", "index": 0}]]},
 "no\u0064e": {"main": [[{"node": "\u0042", "type": "main", "index": 0}]]},
 "Ü.x": {"main": [[{"node": "B", "type": "main", "index": 0}]]},
 "Missing": {"main": [[{"node": "B", "type": "main", "index": 0}]]},
 "id-c": {"main": [[{"node": "B", "type": "main", "index": 0}]]},
 "B": [[{"node": "C"}]],
 "C": {"main": null, "x": {"k": [[]]}},
 "Ü.x": {"main": [[{"node": "C", "type": "main", "index": 0}], [{"node": "Gone"}]]}
}`

// TestConnectionPathsOddShapes: the connections' paths and the problems'
// positions are the tree's paths, read when asked, for every odd shape
// and wherever the workflow sits (an element of an array, a template's
// wrapper, a published version): the same as when they were joined while
// reading (the golden was written by that code).
func TestConnectionPathsOddShapes(t *testing.T) {
	nodes := `[{"name": "A", "type": "t"}, {"name": "a.b", "type": "t"}, {"name": "node", "type": "t"}, {"name": "B", "type": "t"},
  {"name": "C", "id": "id-c", "type": "t"}, {"type": "n8n-nodes-base.gmail"}, {"name": "Ü.x", "type": "t"}]`
	wf := `{"nodes": ` + nodes + `, "connections": ` + oddConnections + `}`
	for _, c := range []struct{ name, src string }{
		{"root", wf},
		{"array", `[{"x": 1}, ` + wf + `]`},
		{"template", `{"id": 1, "name": "T", "workflow": {"workflow": ` + wf + `}}`},
		{"published", `{"nodes": [], "connections": {}, "activeVersion": ` + wf + `}`},
	} {
		f := Parse(NewSource("t.json", []byte(c.src)))
		if len(f.Workflows) != 1 {
			t.Fatalf("%s: %d workflows", c.name, len(f.Workflows))
		}
		w := f.Workflows[0]
		base := strings.TrimSuffix(w.Value.Path(), ".")
		if base != "" {
			base += "."
		}
		root := Value{t: w.Value.t}
		var got []string
		for _, e := range w.Connections {
			path := e.Path()
			v := root.Get(path)
			if !strings.HasPrefix(path, base) || v.Offset() != e.Offset || w.ConnectionPos(&e) != v.ValuePos() {
				t.Errorf("%s: connection %s -> %s at %q, offset %d; Get finds offset %d", c.name, e.From, e.To, path, e.Offset, v.Offset())
			}
			got = append(got, fmt.Sprintf("%s -> %s %s", e.From, e.To, strings.TrimPrefix(path, base)))
		}
		for _, p := range w.Problems {
			if !strings.HasPrefix(p.Pos.Path, base) {
				t.Errorf("%s: problem at %q, not below %q", c.name, p.Pos.Path, base)
			}
			if v := root.Get(p.Pos.Path); p.Pos != v.Pos() && p.Pos != v.ValuePos() {
				t.Errorf("%s: problem at %v %q; Get finds %v or %v", c.name, p.Pos, p.Pos.Path, v.Pos(), v.ValuePos())
			}
			got = append(got, fmt.Sprintf("%s %q fatal=%v note=%v: %s", strings.TrimPrefix(p.Pos.Path, base), p.Node, p.Fatal, p.Note, p.Message))
		}
		if c.name == "root" {
			for _, p := range w.Problems {
				got = append(got, p.Pos.String())
			}
		}
		if diff := cmp.Diff(oddConnectionsWant[c.name], got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

var oddConnectionsWant = map[string][]string{
	"root": {
		"A -> B connections.A.main.0.0",
		"A -> C connections.A.main.1",
		"A -> C connections.A.m\\@in.0.0",
		"a.b -> C connections.a\\.b.main.0.0",
		"node -> B connections.node.main.0.0",
		"Ü.x -> C connections.Ü\\.x.main.0.0",
		"nodes.5 \"\" fatal=false note=true: nodes[5] (n8n-nodes-base.gmail) has no name; n8n names it after its type when the workflow is imported, and stormcheck cannot follow connections to that name",
		"connections.A.main.0.1 \"A\" fatal=true note=false: output 0 of \"A\" holds null where a connection belongs; n8n cannot build the workflow from it (reading .node of null throws), so no execution of it starts",
		"connections.A.main.0.2.node \"A\" fatal=true note=false: connection from \"A\" goes to node \"Gone\", which does not exist; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.1 \"A\" fatal=true note=false: output 1 of \"A\" is an object, expected an array of connections; n8n cannot build the workflow from it (object is not iterable), so no execution of it starts",
		"connections.A.main.2 \"A\" fatal=true note=false: output 2 of \"A\" is a JSON string, expected an array of connections; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.3 \"A\" fatal=true note=false: output 3 of \"A\" is a JSON number, expected an array of connections; n8n cannot build the workflow from it (number is not iterable), so no execution of it starts",
		"connections.A.main.4 \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.5.0 \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.6.0 \"A\" fatal=true note=false: a connection from \"A\" has no target node name; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.m\\@in \"A\" fatal=false note=true: \"m@in\" outputs of \"A\" are an object keyed by output index, expected an array of output slots; n8n follows each member as the output its key names (n8n 2.41.1 refuses to import the file until it is an array)",
		"connections.A.m\\@in.01 \"A\" fatal=false note=false: \"m@in\" outputs of \"A\" hold the key \"01\", which is no output index; n8n never follows the connections under it",
		"connections.A.m\\@in.x\\.y \"A\" fatal=false note=false: \"m@in\" outputs of \"A\" hold the key \"x.y\", which is no output index; n8n never follows the connections under it",
		"connections.A.ma\\.in \"A\" fatal=false note=true: \"ma.in\" outputs of \"A\" are null, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"connections.A.ai tool \"A\" fatal=false note=true: \"ai tool\" outputs of \"A\" are an empty object, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"connections.A.s \"A\" fatal=false note=false: \"s\" outputs of \"A\" are a JSON string, expected an array of output slots",
		"connections.A.arr \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n cannot build the workflow from it (number is not iterable), so no execution of it starts",
		"connections.a\\.b.ai_tool.0.0.node \"a.b\" fatal=false note=true: connection from \"a.b\" goes to node \"Gmail1\", which does not exist; it may be a nameless node, named at import",
		"connections.Missing \"\" fatal=false note=false: connections name source node \"Missing\", which does not exist",
		"connections.B \"B\" fatal=true note=false: connections of \"B\" are a JSON array, expected an object keyed by connection type; n8n cannot build the workflow from it (object is not iterable), so no execution of it starts",
		"connections.C.main \"C\" fatal=false note=true: \"main\" outputs of \"C\" are null, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"connections.C.x \"C\" fatal=false note=true: \"x\" outputs of \"C\" are an object keyed by output index, expected an array of output slots; n8n follows each member as the output its key names (n8n 2.41.1 refuses to import the file until it is an array)",
		"connections.C.x.k \"C\" fatal=false note=false: \"x\" outputs of \"C\" hold the key \"k\", which is no output index; n8n never follows the connections under it",
		"connections.Ü\\.x.main.1.0.node \"Ü.x\" fatal=true note=false: connection from \"Ü.x\" goes to node \"Gone\", which does not exist; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"Ü.x\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"Ü.x\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.id-c \"\" fatal=false note=false: connections are keyed by node id \"id-c\" (node \"C\"); n8n keys them by node name, so this edge is ignored",
		"2:45",
		"3:61",
		"3:68",
		"4:17",
		"5:17",
		"5:22",
		"6:17",
		"7:18",
		"8:18",
		"9:8",
		"9:67",
		"9:90",
		"10:8",
		"11:8",
		"12:8",
		"13:15",
		"14:79",
		"17:2",
		"19:2",
		"20:8",
		"20:22",
		"20:28",
		"21:66",
		"18:2",
	},
	"array": {
		"A -> B connections.A.main.0.0",
		"A -> C connections.A.main.1",
		"A -> C connections.A.m\\@in.0.0",
		"a.b -> C connections.a\\.b.main.0.0",
		"node -> B connections.node.main.0.0",
		"Ü.x -> C connections.Ü\\.x.main.0.0",
		"nodes.5 \"\" fatal=false note=true: nodes[5] (n8n-nodes-base.gmail) has no name; n8n names it after its type when the workflow is imported, and stormcheck cannot follow connections to that name",
		"connections.A.main.0.1 \"A\" fatal=true note=false: output 0 of \"A\" holds null where a connection belongs; n8n cannot build the workflow from it (reading .node of null throws), so no execution of it starts",
		"connections.A.main.0.2.node \"A\" fatal=true note=false: connection from \"A\" goes to node \"Gone\", which does not exist; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.1 \"A\" fatal=true note=false: output 1 of \"A\" is an object, expected an array of connections; n8n cannot build the workflow from it (object is not iterable), so no execution of it starts",
		"connections.A.main.2 \"A\" fatal=true note=false: output 2 of \"A\" is a JSON string, expected an array of connections; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.3 \"A\" fatal=true note=false: output 3 of \"A\" is a JSON number, expected an array of connections; n8n cannot build the workflow from it (number is not iterable), so no execution of it starts",
		"connections.A.main.4 \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.5.0 \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.6.0 \"A\" fatal=true note=false: a connection from \"A\" has no target node name; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.m\\@in \"A\" fatal=false note=true: \"m@in\" outputs of \"A\" are an object keyed by output index, expected an array of output slots; n8n follows each member as the output its key names (n8n 2.41.1 refuses to import the file until it is an array)",
		"connections.A.m\\@in.01 \"A\" fatal=false note=false: \"m@in\" outputs of \"A\" hold the key \"01\", which is no output index; n8n never follows the connections under it",
		"connections.A.m\\@in.x\\.y \"A\" fatal=false note=false: \"m@in\" outputs of \"A\" hold the key \"x.y\", which is no output index; n8n never follows the connections under it",
		"connections.A.ma\\.in \"A\" fatal=false note=true: \"ma.in\" outputs of \"A\" are null, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"connections.A.ai tool \"A\" fatal=false note=true: \"ai tool\" outputs of \"A\" are an empty object, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"connections.A.s \"A\" fatal=false note=false: \"s\" outputs of \"A\" are a JSON string, expected an array of output slots",
		"connections.A.arr \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n cannot build the workflow from it (number is not iterable), so no execution of it starts",
		"connections.a\\.b.ai_tool.0.0.node \"a.b\" fatal=false note=true: connection from \"a.b\" goes to node \"Gmail1\", which does not exist; it may be a nameless node, named at import",
		"connections.Missing \"\" fatal=false note=false: connections name source node \"Missing\", which does not exist",
		"connections.B \"B\" fatal=true note=false: connections of \"B\" are a JSON array, expected an object keyed by connection type; n8n cannot build the workflow from it (object is not iterable), so no execution of it starts",
		"connections.C.main \"C\" fatal=false note=true: \"main\" outputs of \"C\" are null, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"connections.C.x \"C\" fatal=false note=true: \"x\" outputs of \"C\" are an object keyed by output index, expected an array of output slots; n8n follows each member as the output its key names (n8n 2.41.1 refuses to import the file until it is an array)",
		"connections.C.x.k \"C\" fatal=false note=false: \"x\" outputs of \"C\" hold the key \"k\", which is no output index; n8n never follows the connections under it",
		"connections.Ü\\.x.main.1.0.node \"Ü.x\" fatal=true note=false: connection from \"Ü.x\" goes to node \"Gone\", which does not exist; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"Ü.x\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"Ü.x\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.id-c \"\" fatal=false note=false: connections are keyed by node id \"id-c\" (node \"C\"); n8n keys them by node name, so this edge is ignored",
	},
	"template": {
		"A -> B connections.A.main.0.0",
		"A -> C connections.A.main.1",
		"A -> C connections.A.m\\@in.0.0",
		"a.b -> C connections.a\\.b.main.0.0",
		"node -> B connections.node.main.0.0",
		"Ü.x -> C connections.Ü\\.x.main.0.0",
		"nodes.5 \"\" fatal=false note=true: nodes[5] (n8n-nodes-base.gmail) has no name; n8n names it after its type when the workflow is imported, and stormcheck cannot follow connections to that name",
		"connections.A.main.0.1 \"A\" fatal=true note=false: output 0 of \"A\" holds null where a connection belongs; n8n cannot build the workflow from it (reading .node of null throws), so no execution of it starts",
		"connections.A.main.0.2.node \"A\" fatal=true note=false: connection from \"A\" goes to node \"Gone\", which does not exist; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.1 \"A\" fatal=true note=false: output 1 of \"A\" is an object, expected an array of connections; n8n cannot build the workflow from it (object is not iterable), so no execution of it starts",
		"connections.A.main.2 \"A\" fatal=true note=false: output 2 of \"A\" is a JSON string, expected an array of connections; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.3 \"A\" fatal=true note=false: output 3 of \"A\" is a JSON number, expected an array of connections; n8n cannot build the workflow from it (number is not iterable), so no execution of it starts",
		"connections.A.main.4 \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.5.0 \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.main.6.0 \"A\" fatal=true note=false: a connection from \"A\" has no target node name; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.A.m\\@in \"A\" fatal=false note=true: \"m@in\" outputs of \"A\" are an object keyed by output index, expected an array of output slots; n8n follows each member as the output its key names (n8n 2.41.1 refuses to import the file until it is an array)",
		"connections.A.m\\@in.01 \"A\" fatal=false note=false: \"m@in\" outputs of \"A\" hold the key \"01\", which is no output index; n8n never follows the connections under it",
		"connections.A.m\\@in.x\\.y \"A\" fatal=false note=false: \"m@in\" outputs of \"A\" hold the key \"x.y\", which is no output index; n8n never follows the connections under it",
		"connections.A.ma\\.in \"A\" fatal=false note=true: \"ma.in\" outputs of \"A\" are null, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"connections.A.ai tool \"A\" fatal=false note=true: \"ai tool\" outputs of \"A\" are an empty object, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"connections.A.s \"A\" fatal=false note=false: \"s\" outputs of \"A\" are a JSON string, expected an array of output slots",
		"connections.A.arr \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n cannot build the workflow from it (number is not iterable), so no execution of it starts",
		"connections.a\\.b.ai_tool.0.0.node \"a.b\" fatal=false note=true: connection from \"a.b\" goes to node \"Gmail1\", which does not exist; it may be a nameless node, named at import",
		"connections.Missing \"\" fatal=false note=false: connections name source node \"Missing\", which does not exist",
		"connections.B \"B\" fatal=true note=false: connections of \"B\" are a JSON array, expected an object keyed by connection type; n8n cannot build the workflow from it (object is not iterable), so no execution of it starts",
		"connections.C.main \"C\" fatal=false note=true: \"main\" outputs of \"C\" are null, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"connections.C.x \"C\" fatal=false note=true: \"x\" outputs of \"C\" are an object keyed by output index, expected an array of output slots; n8n follows each member as the output its key names (n8n 2.41.1 refuses to import the file until it is an array)",
		"connections.C.x.k \"C\" fatal=false note=false: \"x\" outputs of \"C\" hold the key \"k\", which is no output index; n8n never follows the connections under it",
		"connections.Ü\\.x.main.1.0.node \"Ü.x\" fatal=true note=false: connection from \"Ü.x\" goes to node \"Gone\", which does not exist; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"Ü.x\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"Ü.x\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"connections.id-c \"\" fatal=false note=false: connections are keyed by node id \"id-c\" (node \"C\"); n8n keys them by node name, so this edge is ignored",
	},
	"published": {
		"A -> B activeVersion.connections.A.main.0.0",
		"A -> C activeVersion.connections.A.main.1",
		"A -> C activeVersion.connections.A.m\\@in.0.0",
		"a.b -> C activeVersion.connections.a\\.b.main.0.0",
		"node -> B activeVersion.connections.node.main.0.0",
		"Ü.x -> C activeVersion.connections.Ü\\.x.main.0.0",
		"activeVersion.nodes.5 \"\" fatal=false note=true: nodes[5] (n8n-nodes-base.gmail) has no name; n8n names it after its type when the workflow is imported, and stormcheck cannot follow connections to that name",
		"activeVersion.connections.A.main.0.1 \"A\" fatal=true note=false: output 0 of \"A\" holds null where a connection belongs; n8n cannot build the workflow from it (reading .node of null throws), so no execution of it starts",
		"activeVersion.connections.A.main.0.2.node \"A\" fatal=true note=false: connection from \"A\" goes to node \"Gone\", which does not exist; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"activeVersion.connections.A.main.1 \"A\" fatal=true note=false: output 1 of \"A\" is an object, expected an array of connections; n8n cannot build the workflow from it (object is not iterable), so no execution of it starts",
		"activeVersion.connections.A.main.2 \"A\" fatal=true note=false: output 2 of \"A\" is a JSON string, expected an array of connections; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"activeVersion.connections.A.main.3 \"A\" fatal=true note=false: output 3 of \"A\" is a JSON number, expected an array of connections; n8n cannot build the workflow from it (number is not iterable), so no execution of it starts",
		"activeVersion.connections.A.main.4 \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"activeVersion.connections.A.main.5.0 \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"activeVersion.connections.A.main.6.0 \"A\" fatal=true note=false: a connection from \"A\" has no target node name; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"A\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"A\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"activeVersion.connections.A.m\\@in \"A\" fatal=false note=true: \"m@in\" outputs of \"A\" are an object keyed by output index, expected an array of output slots; n8n follows each member as the output its key names (n8n 2.41.1 refuses to import the file until it is an array)",
		"activeVersion.connections.A.m\\@in.01 \"A\" fatal=false note=false: \"m@in\" outputs of \"A\" hold the key \"01\", which is no output index; n8n never follows the connections under it",
		"activeVersion.connections.A.m\\@in.x\\.y \"A\" fatal=false note=false: \"m@in\" outputs of \"A\" hold the key \"x.y\", which is no output index; n8n never follows the connections under it",
		"activeVersion.connections.A.ma\\.in \"A\" fatal=false note=true: \"ma.in\" outputs of \"A\" are null, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"activeVersion.connections.A.ai tool \"A\" fatal=false note=true: \"ai tool\" outputs of \"A\" are an empty object, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"activeVersion.connections.A.s \"A\" fatal=false note=false: \"s\" outputs of \"A\" are a JSON string, expected an array of output slots",
		"activeVersion.connections.A.arr \"A\" fatal=true note=false: a connection from \"A\" to \"B\" is written as an array [node, type, index], where n8n reads an object {\"node\", \"type\", \"index\"}; n8n cannot build the workflow from it (number is not iterable), so no execution of it starts",
		"activeVersion.connections.a\\.b.ai_tool.0.0.node \"a.b\" fatal=false note=true: connection from \"a.b\" goes to node \"Gmail1\", which does not exist; it may be a nameless node, named at import",
		"activeVersion.connections.Missing \"\" fatal=false note=false: connections name source node \"Missing\", which does not exist",
		"activeVersion.connections.B \"B\" fatal=true note=false: connections of \"B\" are a JSON array, expected an object keyed by connection type; n8n cannot build the workflow from it (object is not iterable), so no execution of it starts",
		"activeVersion.connections.C.main \"C\" fatal=false note=true: \"main\" outputs of \"C\" are null, expected an array of output slots; it holds no connection, so n8n runs the workflow as drawn (n8n 2.41.1 refuses to import the file until it is [] or removed)",
		"activeVersion.connections.C.x \"C\" fatal=false note=true: \"x\" outputs of \"C\" are an object keyed by output index, expected an array of output slots; n8n follows each member as the output its key names (n8n 2.41.1 refuses to import the file until it is an array)",
		"activeVersion.connections.C.x.k \"C\" fatal=false note=false: \"x\" outputs of \"C\" hold the key \"k\", which is no output index; n8n never follows the connections under it",
		"activeVersion.connections.Ü\\.x.main.1.0.node \"Ü.x\" fatal=true note=false: connection from \"Ü.x\" goes to node \"Gone\", which does not exist; n8n 2.41.1 will not import the workflow from the CLI or the API (its workflow structure check) and its editor drops the connection at import, so the run does not go on from \"Ü.x\" along it; older n8n (2.8.4) imports it, and then, as a workflow stored before the upgrade does, fails every execution in which \"Ü.x\" runs (\"Destination node not found\", thrown when it looks for the next node)",
		"activeVersion.connections.id-c \"\" fatal=false note=false: connections are keyed by node id \"id-c\" (node \"C\"); n8n keys them by node name, so this edge is ignored",
	},
}
