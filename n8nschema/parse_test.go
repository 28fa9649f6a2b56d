package n8nschema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// wfSum is what a test checks of one parsed workflow.
type wfSum struct {
	Path         string
	ID           string
	Name         string
	Published    bool
	DraftDiffers bool
	Nodes        []string // id|name|type|typeVersion
	Edges        []string // from type[output] -> to type[index]
}

func summarize(f *File) []wfSum {
	var out []wfSum
	for i, w := range f.Workflows {
		if w.Ordinal != i {
			panic(fmt.Sprintf("workflow %d has Ordinal %d", i, w.Ordinal))
		}
		s := wfSum{Path: w.Path, ID: w.ID, Name: w.Name, Published: w.Published, DraftDiffers: w.DraftDiffers}
		for _, n := range w.Nodes {
			s.Nodes = append(s.Nodes, fmt.Sprintf("%s|%s|%s|%g", n.ID, n.Name, n.Type, n.TypeVersion))
		}
		for _, c := range w.Connections {
			s.Edges = append(s.Edges, fmt.Sprintf("%s %s[%d] -> %s %s[%d]", c.From, c.FromType, c.Output, c.To, c.ToType, c.ToIndex))
		}
		out = append(out, s)
	}
	return out
}

var kindNames = map[ProblemKind]string{
	InvalidJSON: "InvalidJSON", NotWorkflow: "NotWorkflow", BrokenConnection: "BrokenConnection", DuplicateName: "DuplicateName",
}

// probSum is what a test checks of one problem: "Kind line:col node: message".
func probSum(p Problem) string {
	return fmt.Sprintf("%s %s %q: %s", kindNames[p.Kind], p.Pos, p.Node, p.Message)
}

// allProblems lists the file's problems, then each workflow's.
func allProblems(f *File) []string {
	var out []string
	for _, p := range f.Problems {
		out = append(out, probSum(p))
	}
	for _, w := range f.Workflows {
		for _, p := range w.Problems {
			out = append(out, probSum(p))
		}
	}
	return out
}

func parseString(t *testing.T, src string) *File {
	t.Helper()
	f := Parse(NewSource("test.json", []byte(src)))
	checkFile(t, f)
	return f
}

const (
	wfA = `{"id": "wfA", "name": "Orders", "nodes": [` +
		`{"parameters": {}, "id": "a1", "name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0]}, ` +
		`{"parameters": {"url": "https://example.com"}, "id": "a2", "name": "Fetch", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [220, 0]}], ` +
		`"connections": {"Start": {"main": [[{"node": "Fetch", "type": "main", "index": 0}]]}}, "settings": {"executionOrder": "v1"}}`
	wfB = `{"id": "wfB", "name": "Chat", "nodes": [` +
		`{"parameters": {}, "id": "b1", "name": "Agent", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 1.7, "position": [0, 0]}, ` +
		`{"parameters": {}, "id": "b2", "name": "Model", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "position": [0, 200]}], ` +
		`"connections": {"Model": {"ai_languageModel": [[{"node": "Agent", "type": "ai_languageModel", "index": 0}]]}}}`
	// inner is a workflow object without id and name, as in template wrappers.
	inner = `{"nodes": [{"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0]}], "connections": {}}`
)

var (
	sumA = wfSum{ID: "wfA", Name: "Orders",
		Nodes: []string{"a1|Start|n8n-nodes-base.manualTrigger|1", "a2|Fetch|n8n-nodes-base.httpRequest|4.2"},
		Edges: []string{"Start main[0] -> Fetch main[0]"}}
	sumB = wfSum{ID: "wfB", Name: "Chat",
		Nodes: []string{"b1|Agent|@n8n/n8n-nodes-langchain.agent|1.7", "b2|Model|@n8n/n8n-nodes-langchain.lmChatOpenAi|1.2"},
		Edges: []string{"Model ai_languageModel[0] -> Agent ai_languageModel[0]"}}
	sumInner = wfSum{Nodes: []string{"|Hook|n8n-nodes-base.webhook|2"}}
)

func at(s wfSum, path string) wfSum        { s.Path = path; return s }
func named(s wfSum, id, name string) wfSum { s.ID, s.Name = id, name; return s }

func TestParseShapes(t *testing.T) {
	tests := []struct {
		name         string
		src          string
		want         []wfSum
		wantProblems []string
	}{
		{name: "ui object", src: wfA, want: []wfSum{sumA}},
		{name: "cli array", src: "[" + wfA + "," + wfB + "]", want: []wfSum{at(sumA, "0"), at(sumB, "1")}},
		{name: "cli array of one", src: "[" + wfB + "]", want: []wfSum{at(sumB, "0")}},
		{
			name: "api page",
			src:  `{"data": [` + wfA + `, ` + wfB + `], "nextCursor": "eyJsaW1pdCI6Miwib2Zmc2V0IjoyfQ=="}`,
			want: []wfSum{at(sumA, "data.0"), at(sumB, "data.1")},
		},
		{name: "api last page", src: `{"data": [` + wfB + `], "nextCursor": null}`, want: []wfSum{at(sumB, "data.0")}},
		{name: "api empty page", src: `{"data": [], "nextCursor": null}`},
		{name: "template workflow", src: `{"workflow": ` + wfA + `}`, want: []wfSum{at(sumA, "workflow")}},
		{
			name: "template id name workflow",
			// The template's id (1234) is the gallery's, not the workflow's.
			src:  `{"id": 1234, "name": "Webhook to Slack", "workflow": ` + inner + `}`,
			want: []wfSum{named(at(sumInner, "workflow"), "", "Webhook to Slack")},
		},
		{
			name: "template workflow workflow",
			src:  `{"workflow": {"id": 77, "name": "Nested template", "totalViews": 9, "workflow": ` + inner + `}}`,
			want: []wfSum{named(at(sumInner, "workflow.workflow"), "", "Nested template")},
		},
		{
			// api.n8n.io/api/templates/workflows/ID: the wrapper lists the
			// node types it uses in its own "nodes" array.
			name: "template api with node types",
			src: `{"workflow": {"id": 77, "name": "Nested template", "nodes": [{"id": 19, "name": "n8n-nodes-base.webhook", "displayName": "Webhook"}],
				"categories": [], "workflow": ` + inner + `}}`,
			want: []wfSum{named(at(sumInner, "workflow.workflow"), "", "Nested template")},
		},
		{
			name: "template inner name wins",
			src:  `{"id": 5, "name": "Outer", "workflow": ` + wfB + `}`,
			want: []wfSum{at(sumB, "workflow")},
		},
		{name: "array of templates", src: `[{"workflow": ` + wfA + `}]`, want: []wfSum{at(sumA, "0.workflow")}},
		{
			// The inner workflow's own id is the workflow's.
			name: "template with an inner id",
			src:  `{"workflow": {"id": 77, "name": "Nested template", "workflow": {"id": "w9", "nodes": [], "connections": {}}}}`,
			want: []wfSum{{ID: "w9", Name: "Nested template", Path: "workflow.workflow"}},
		},
		{
			name: "array with a stray element",
			src:  "[" + wfA + `, 3]`,
			want: []wfSum{at(sumA, "0")},
			wantProblems: []string{
				`NotWorkflow 1:` + fmt.Sprint(len(wfA)+4) + ` "": array element 1 is not an n8n workflow; skipped`,
			},
		},
		{
			name:         "api page with a stray element",
			src:          `{"data": [{"id": "x"}, ` + wfB + `], "nextCursor": null}`,
			want:         []wfSum{at(sumB, "data.1")},
			wantProblems: []string{`NotWorkflow 1:11 "": data element 0 is not an n8n workflow; skipped`},
		},
		{
			name: "array with a near-workflow element",
			src:  "[" + wfA + `, {"nodes": []}]`,
			want: []wfSum{at(sumA, "0")},
			wantProblems: []string{
				`NotWorkflow 1:` + fmt.Sprint(len(wfA)+4) + ` "": array element 1 is not an n8n workflow; skipped`,
			},
		},
		{
			name:         "data file that is not an api page",
			src:          `{"data": [1, 2, 3]}`,
			wantProblems: []string{`NotWorkflow 1:1 "": object with keys "data" is not an n8n workflow (expected "nodes" and "connections")`},
		},
		{
			name:         "api page of non-workflows",
			src:          `{"data": [{"id": "x"}], "nextCursor": null}`,
			wantProblems: []string{`NotWorkflow 1:1 "": object with keys "data", "nextCursor" is not an n8n workflow (expected "nodes" and "connections")`},
		},
		{
			name: "active version published and differs",
			src: `{"id": "p1", "name": "Pub", "active": true, "nodes": [{"id": "d", "name": "Draft", "type": "n8n-nodes-base.noOp", "typeVersion": 1}], ` +
				`"connections": {}, "activeVersionId": "v2", "activeVersion": {"versionId": "v2", ` +
				`"nodes": [{"id": "p", "name": "Published", "type": "n8n-nodes-base.noOp", "typeVersion": 1}], "connections": {}}}`,
			want: []wfSum{{ID: "p1", Name: "Pub", Published: true, DraftDiffers: true, Nodes: []string{"p|Published|n8n-nodes-base.noOp|1"}}},
		},
		{
			name: "active version same as draft",
			src: `{"id": "p2", "name": "Same", "nodes": [{"name": "N", "type": "t", "typeVersion": 3}], "connections": {"N": {"main": [[]]}}, ` +
				`"activeVersion": {"nodes": [{"name": "N", "type": "t", "typeVersion": 3}], "connections": {"N": {"main": [[]]}}}}`,
			want: []wfSum{{ID: "p2", Name: "Same", Published: true, Nodes: []string{"|N|t|3"}}},
		},
		{
			name: "active version empty beside a draft with nodes",
			src: `{"id": "p4", "name": "Stripped", "active": true, "versionId": "v1", "activeVersionId": "v1", ` +
				`"nodes": [{"name": "N", "type": "t", "typeVersion": 3}], "connections": {}, ` +
				`"activeVersion": {"versionId": "v1", "nodes": [], "connections": {}}}`,
			want: []wfSum{{ID: "p4", Name: "Stripped", Nodes: []string{"|N|t|3"}}},
		},
		{
			name: "active version null",
			src:  `{"id": "p3", "name": "Draft only", "nodes": [], "connections": {}, "activeVersionId": null, "activeVersion": null}`,
			want: []wfSum{{ID: "p3", Name: "Draft only"}},
		},
		{
			name: "type versions",
			src: `{"nodes": [{"name": "A", "type": "a", "typeVersion": 2.1}, {"name": "B", "type": "b", "typeVersion": "3"}, ` +
				`{"name": "C", "type": "c"}, {"name": "D", "type": "d", "typeVersion": "=1"}], "connections": {}}`,
			want: []wfSum{{Nodes: []string{"|A|a|2.1", "|B|b|3", "|C|c|0", "|D|d|0"}}},
		},
		{
			name: "unknown keys are tolerated",
			src: `{"name": "Extra", "meta": {"templateId": "1"}, "pinData": {"A": [{"json": {}}]}, "nodes": [` +
				`{"cid": "x", "creator": "y", "name": "A", "type": "a", "typeVersion": 1, "credentials": {"twitterOAuth1Api": "twitter"}}], "connections": {}}`,
			want: []wfSum{{Name: "Extra", Nodes: []string{"|A|a|1"}}},
		},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.name, " ", "_"), func(t *testing.T) {
			f := parseString(t, tt.src)
			if diff := cmp.Diff(tt.want, summarize(f)); diff != "" {
				t.Errorf("workflows mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantProblems, allProblems(f)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOutputsKeyedByIndex: outputs written as an object are read as n8n
// reads them (for...in over the keys, each an output index); null and an
// empty object hold no edge; a key that is no index holds none either.
func TestOutputsKeyedByIndex(t *testing.T) {
	for _, c := range []struct {
		main  string
		edges []string
		probs int
	}{
		{`{"0":[{"node":"B","type":"main","index":0}],"2":[{"node":"C","type":"main","index":1}]}`, []string{"A main[0] -> B main[0]", "A main[2] -> C main[1]"}, 1},
		{`{"1":null,"01":[{"node":"B","type":"main","index":0}],"x":[{"node":"C","type":"main","index":0}]}`, nil, 3},
		{`null`, nil, 1},
		{`{}`, nil, 1},
	} {
		src := `{"nodes":[{"name":"A","type":"t"},{"name":"B","type":"t"},{"name":"C","type":"t"}],"connections":{"A":{"main":` + c.main + `}}}`
		f := Parse(NewSource("t.json", []byte(src)))
		s := summarize(f)
		if diff := cmp.Diff(c.edges, s[0].Edges); diff != "" {
			t.Errorf("%s: edges (-want +got):\n%s", c.main, diff)
		}
		if got := len(f.Workflows[0].Problems); got != c.probs {
			t.Errorf("%s: %d problems, want %d: %v", c.main, got, c.probs, f.Workflows[0].Problems)
		}
	}
}

// TestOddMainUnderWebhook: a Webhook from v2 (its stored typeVersion) and
// a Form Trigger list the nodes after them on every request and throw on
// "main" outputs that are null or an object; others run the workflow.
func TestOddMainUnderWebhook(t *testing.T) {
	for _, c := range []struct {
		trigger, main string
		fatal         bool
	}{
		{`{"name":"T","type":"n8n-nodes-base.webhook","typeVersion":2}`, `{}`, true},
		{`{"name":"T","type":"n8n-nodes-base.formTrigger","typeVersion":2.2}`, `null`, true},
		{`{"name":"T","type":"n8n-nodes-base.webhook","typeVersion":1.1}`, `null`, false},
		{`{"name":"T","type":"n8n-nodes-base.webhook"}`, `{"0":[]}`, false},
		{`{"name":"T","type":"n8n-nodes-base.webhook","typeVersion":2,"disabled":true}`, `null`, false},
		{`{"name":"T","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2}`, `{}`, false},
	} {
		src := `{"nodes":[` + c.trigger + `,{"name":"A","type":"n8n-nodes-base.set"}],"connections":{"T":{"main":[[{"node":"A","type":"main","index":0}]]},"A":{"main":` + c.main + `}}}`
		f := Parse(NewSource("t.json", []byte(src)))
		ps := f.Workflows[0].Problems
		if len(ps) != 1 || ps[0].Fatal != c.fatal || ps[0].Note == c.fatal {
			t.Errorf("%s, main %s: problems %+v, want one, fatal %v", c.trigger, c.main, ps, c.fatal)
		}
	}
}

// TestConnectionsReadOffTheTree: connections read off the tree's nodes
// (keys compared in place, strings and one-digit indexes read there, paths
// the tree's, made when asked) give what Values give: each edge's fields,
// and its position and path as Get finds it.
func TestConnectionsReadOffTheTree(t *testing.T) {
	far := strings.Repeat(" ", 70000) // past kdist's 16 bits: keyOf scans
	for _, c := range []struct {
		name, from, conns string
		edges             []string
		paths             []string
	}{
		{"plain", "A", `{"A":{"main":[[{"node":"B","type":"main","index":0},{"index":12,"node":"C"}],null,[{"node":"B","type":"","index":"3"}]],"ai_tool":[[{"type":"ai_tool","node":"C","index":1e0}]]}}`,
			[]string{"A main[0] -> B main[0]", "A main[0] -> C main[12]", "A main[2] -> B main[3]", "A ai_tool[0] -> C ai_tool[1]"},
			[]string{"connections.A.main.0.0", "connections.A.main.0.1", "connections.A.main.2.0", "connections.A.ai_tool.0.0"}},
		{"escaped source", "a.b", `{"a.b":{"main":[[{"node":"B","type":"main","index":0}]]},"A":{"main":[[{"node":"C","type":"main","index":1}]]}}`,
			[]string{"a.b main[0] -> B main[0]", "A main[0] -> C main[1]"},
			[]string{`connections.a\.b.main.0.0`, "connections.A.main.0.0"}},
		{"escaped type", "A", `{"A":{"m@in":[[{"node":"B","type":"main","index":0}]]}}`,
			[]string{"A m@in[0] -> B main[0]"},
			[]string{`connections.A.m\@in.0.0`}},
		{"keys with escapes, other keys", "A", `{"A":{"main":[[{"no\u0064e":"B","typ\u0065":"x","nope":"C","indey":4,"index":2}]]}}`,
			[]string{"A main[0] -> B x[2]"},
			[]string{"connections.A.main.0.0"}},
		{"keys far from their values", "A", `{"A":{"main":[[{"node"` + far + `:"C","type"` + far + `:"main","index"` + far + `:7}]]}}`,
			[]string{"A main[0] -> C main[7]"},
			[]string{"connections.A.main.0.0"}},
		{"escaped target", "A", `{"A":{"main":[[{"node":"\u0042","type":"main","index":0}]]}}`,
			[]string{"A main[0] -> B main[0]"},
			[]string{"connections.A.main.0.0"}},
	} {
		src := `{"nodes":[{"name":"A","type":"t"},{"name":"a.b","type":"t"},{"name":"B","type":"t"},{"name":"C","type":"t"}],"connections":` + c.conns + `}`
		f := Parse(NewSource("t.json", []byte(src)))
		w := f.Workflows[0]
		if diff := cmp.Diff(c.edges, summarize(f)[0].Edges); diff != "" {
			t.Errorf("%s: edges (-want +got):\n%s", c.name, diff)
		}
		if len(w.Problems) > 0 {
			t.Errorf("%s: problems %v", c.name, w.Problems)
		}
		for i, e := range w.Connections {
			if i >= len(c.paths) {
				break
			}
			if got, want := f.Source.PosAt(e.Offset, e.Path()), w.Value.Get(c.paths[i]).ValuePos(); got != want || e.Path() != c.paths[i] {
				t.Errorf("%s: edge %d at %v %q, want %v %q", c.name, i, got, e.Path(), want, want.Path)
			}
		}
	}
}

// TestConnectionTypeProblemPaths: a connection type whose key needs
// escaping and whose value holds no slots (null, a string) is a problem
// at the escaped path, whatever the other keys.
func TestConnectionTypeProblemPaths(t *testing.T) {
	for _, c := range []struct{ conns, want string }{
		{`{"A":{"ma.in":null,"main":[[{"node":"B","type":"main","index":0}]]}}`, `connections.A.ma\.in`},
		{`{"A":{"main":[[{"node":"B","type":"main","index":0}]],"m@in":"x"}}`, `connections.A.m\@in`},
		{`{"A":{"m@in":null}}`, `connections.A.m\@in`},
	} {
		src := `{"nodes":[{"name":"A","type":"t"},{"name":"B","type":"t"}],"connections":` + c.conns + `}`
		w := Parse(NewSource("t.json", []byte(src))).Workflows[0]
		if len(w.Problems) != 1 {
			t.Errorf("%s: problems %v, want one", c.conns, w.Problems)
			continue
		}
		if got := w.Problems[0].Pos.Path; got != c.want {
			t.Errorf("%s: problem at %q, want %q", c.conns, got, c.want)
		}
	}
}
