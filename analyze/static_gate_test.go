package analyze

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestStaticUses: the gates on static data a Code node's code is, and
// what it writes; what stays out (a fallback, a write before the test, a
// return before it, a try round it).
func TestStaticUses(t *testing.T) {
	for _, c := range []struct {
		name, code string
		gate       bool
		key        string
		empty      bool
		writes     int
	}{
		{"read then throw", "const sd = $getWorkflowStaticData('global');\nconst s = sd[$json.user];\nif (!s) {\n  throw new Error('none');\n}\nreturn [{json: s}];", true, "", false, 0},
		{"tested where read", "const sd = this.getWorkflowStaticData('global');\nif (!sd.lastId) return [];\nreturn [{json: {id: sd.lastId}}];", true, "lastId", true, 0},
		{"a fallback is no gate", "const sd = $getWorkflowStaticData('global');\nconst s = sd.state || {};\nif (!s) throw new Error('x');\nreturn [{json: s}];", false, "", false, 0},
		{"a return before the test", "const sd = $getWorkflowStaticData('global');\nif ($json.new) return [{json: {}}];\nconst s = sd.state;\nif (!s) throw new Error('x');\nreturn [{json: s}];", false, "", false, 0},
		{"in a try", "try {\nconst sd = $getWorkflowStaticData('global');\nconst s = sd.state;\nif (!s) throw new Error('x');\n} catch (e) {}\nreturn [{json: {}}];", false, "", false, 0},
		{"writes what it tests", "const sd = $getWorkflowStaticData('global');\nconst s = sd.state;\nif (!s) throw new Error('x');\nsd.state = null;\nreturn [{json: s}];", false, "", false, 1},
		{"writer", "const sd = $getWorkflowStaticData('global');\nsd[$json.user] = {a: 1};\nsd.count++;\ndelete sd.old;\nreturn [];", false, "", false, 2},
		{"handed on", "const sd = $getWorkflowStaticData('global');\nObject.assign(sd, {a: 1});\nreturn [];", false, "", false, 1},
		// review23 #5: a test that may not run on every pass is no gate.
		{"a return between the read and the test", "const s = $getWorkflowStaticData('global');\nconst v = s.token;\nif (items.length > 5) return items;\nif (!v) throw new Error('no token');\nreturn items;", false, "", false, 0},
		{"a statement between the read and the test", "const s = $getWorkflowStaticData('global');\nconst v = s.token;\nconst n = items.length;\nif (!v) throw new Error('no token');\nreturn items;", false, "", false, 0},
		{"a comment between the read and the test", "const s = $getWorkflowStaticData('global');\nconst v = s.token; // the token\n/* set by Login */\nif (!v) throw new Error('no token');\nreturn items;", true, "token", false, 0},
		{"a test in a function", "const s = $getWorkflowStaticData('global');\nfunction need() { if (!s.token) throw new Error('x'); }\nif (items.length > 5) need();\nreturn items;", false, "", false, 0},
		{"a test in a callback", "const s = $getWorkflowStaticData('global');\nconst out = items.filter(i => i.json.x);\nout.forEach(i => { if (!s.token) throw new Error('x'); });\nreturn items;", false, "", false, 0},
		{"a read in a callback", "const s = $getWorkflowStaticData('global');\nitems.forEach(i => {\n  const v = s.token;\n  if (!v) throw new Error('x');\n});\nreturn items;", false, "", false, 0},
		{"a test in a block", "const s = $getWorkflowStaticData('global');\nif ($json.check) {\n  if (!s.token) throw new Error('x');\n}\nreturn items;", false, "", false, 0},
		{"a test behind an if", "const s = $getWorkflowStaticData('global');\nif ($json.check) if (!s.token) throw new Error('x');\nreturn items;", false, "", false, 0},
		{"a test behind an else", "const s = $getWorkflowStaticData('global');\nif ($json.skip) {} else if (!s.token) throw new Error('x');\nreturn items;", false, "", false, 0},
		{"braces in a string before the test", "const s = $getWorkflowStaticData('global');\nconst open = '{';\nif (!s.token) throw new Error('x }');\nreturn items;", true, "token", false, 0},
		{"no semicolons", "const s = $getWorkflowStaticData('global')\nif (!s.token) throw new Error('x')\nreturn items", true, "token", false, 0},
		{"a name ending in $ written", "const s$ = $getWorkflowStaticData('global');\ns$.token = 'abc';\nreturn items;", false, "", false, 1},
		{"a name ending in $ tested", "const s$ = $getWorkflowStaticData('global');\nif (!s$.token) throw new Error('x');\nreturn items;", true, "token", false, 0},
		{"a longer name is another object", "const sd = $getWorkflowStaticData('global');\nconst sd$x = {};\nsd$x.token = 1;\nsdx.token = 2;\nif (!sd.token) throw new Error('x');\nreturn items;", true, "token", false, 0},
		{"code past the cap writes anything", "const sd = $getWorkflowStaticData('global');\nif (!sd.token) throw new Error('x');\n" + strings.Repeat("x();\n", maxStaticCode/5) + "return items;", false, "", false, 2},
	} {
		raw, _ := json.Marshal(map[string]any{"nodes": []any{map[string]any{"name": "C", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": []int{0, 0}, "parameters": map[string]any{"jsCode": c.code}}}, "connections": map[string]any{}})
		f := n8nschema.Parse(n8nschema.NewSource("s.json", raw))
		nd := f.Workflows[0].Nodes[0]
		gate, writes, _ := staticUses(nd)
		if (gate != nil) != c.gate || gate != nil && (gate.key != c.key || gate.empty != c.empty) || len(writes) != c.writes {
			t.Errorf("%s: gate %+v, writes %v", c.name, gate, writes)
		}
	}
}

// TestStaticGatesBound: gates behind themselves are shut up to
// maxStaticGates; past it every gate stays open, so the fixpoint's work
// stays bounded on a hostile file. A code that declares the static data
// more than four times writes anything.
func TestStaticGatesBound(t *testing.T) {
	build := func(n int) (*Graph, []*n8nschema.Node) {
		nodes := []any{map[string]any{"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": []int{0, 0}, "parameters": map[string]any{}}}
		conns := map[string]any{}
		var outs []any
		for i := 0; i < n; i++ {
			g, w := fmt.Sprintf("G%d", i), fmt.Sprintf("W%d", i)
			nodes = append(nodes,
				map[string]any{"name": g, "type": "n8n-nodes-base.code", "typeVersion": 2, "position": []int{0, 0}, "parameters": map[string]any{"jsCode": fmt.Sprintf("const sd = $getWorkflowStaticData('global');\nif (!sd.k%d) throw new Error('x');\nreturn $input.all();", i)}},
				map[string]any{"name": w, "type": "n8n-nodes-base.code", "typeVersion": 2, "position": []int{0, 0}, "parameters": map[string]any{"jsCode": fmt.Sprintf("const sd = $getWorkflowStaticData('global');\nsd.k%d = 1;\nreturn $input.all();", i)}})
			outs = append(outs, map[string]any{"node": g, "type": "main", "index": 0})
			conns[g] = map[string]any{"main": []any{[]any{map[string]any{"node": w, "type": "main", "index": 0}}}}
		}
		conns["T"] = map[string]any{"main": []any{outs}}
		raw, _ := json.Marshal(map[string]any{"nodes": nodes, "connections": conns})
		w := n8nschema.Parse(n8nschema.NewSource("s.json", raw)).Workflows[0]
		return BuildGraph(w), w.Nodes
	}
	for _, c := range []struct {
		n    int
		shut bool
	}{{2, true}, {maxStaticGates, true}, {maxStaticGates + 1, false}} {
		g, nodes := build(c.n)
		g.failing()
		for _, nd := range nodes[1:] {
			i, _ := g.index(nd)
			gate := nd.Name[0] == 'G'
			if got := g.empty != nil && g.empty[i]; got != (gate && c.shut) {
				t.Errorf("%d gates: %s marked %v", c.n, nd.Name, got)
			}
		}
	}
	code := strings.Repeat("const a = $getWorkflowStaticData('global');\n", 5) + "if (!a.k) throw new Error('x');\nreturn [];"
	raw, _ := json.Marshal(map[string]any{"nodes": []any{map[string]any{"name": "C", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": []int{0, 0}, "parameters": map[string]any{"jsCode": code}}}, "connections": map[string]any{}})
	if gate, writes, _ := staticUses(n8nschema.Parse(n8nschema.NewSource("s.json", raw)).Workflows[0].Nodes[0]); gate != nil || len(writes) != 2 {
		t.Errorf("five declarations: gate %+v, writes %v", gate, writes)
	}
}

// TestStaticUsesLinear: reading a Code node that reads its static data
// k times takes at most 6× the CPU time for 4× the reads (both under
// maxStaticCode). Each read used to run two regexps over the code before
// it, and each declaration compiled a regexp: a 1.4 MB node took 19 s.
func TestStaticUsesLinear(t *testing.T) {
	node := func(k int) *n8nschema.Node {
		code := "const s = $getWorkflowStaticData('global');\n" + strings.Repeat("x(s.a);\nconst v = s.b, w = s[i];\n", k) + "return items;"
		raw, _ := json.Marshal(map[string]any{"nodes": []any{map[string]any{"name": "C", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": []int{0, 0}, "parameters": map[string]any{"jsCode": code}}}, "connections": map[string]any{}})
		return n8nschema.Parse(n8nschema.NewSource("s.json", raw)).Workflows[0].Nodes[0]
	}
	const k = 800
	small, large := node(k), node(4*k)
	if c, _ := staticCode(large); len(c) > maxStaticCode {
		t.Fatalf("the large node's code is %d bytes, past maxStaticCode", len(c))
	}
	st, lt := cputime.Scales(3, 3, 6, func() { staticUses(small) }, func() { staticUses(large) })
	t.Logf("%d reads: %v; %d: %v", 3*k, st, 12*k, lt)
	if lt > 6*st {
		t.Errorf("staticUses: %d reads take %v, %d take %v: more than 6×", 3*k, st, 12*k, lt)
	}
}

// TestStaticGatesLinear: a workflow of g gates on a key and an exported
// staticData of 10·g keys takes at most 6× the CPU time for 4× both
// (BuildGraph and failing). The export's keys used to be walked once per
// gate, before the maxStaticGates cap: an 8,000-gate file took 20 s.
func TestStaticGatesLinear(t *testing.T) {
	build := func(n int) *n8nschema.Workflow {
		nodes := []any{map[string]any{"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": []int{0, 0}, "parameters": map[string]any{}}}
		var outs []any
		for i := range n {
			name := fmt.Sprintf("G%d", i)
			nodes = append(nodes, map[string]any{"name": name, "type": "n8n-nodes-base.code", "typeVersion": 2, "position": []int{0, 0}, "parameters": map[string]any{"jsCode": "const sd = $getWorkflowStaticData('global');\nif (!sd.want) throw new Error('x');\nreturn items;"}})
			outs = append(outs, map[string]any{"node": name, "type": "main", "index": 0})
		}
		keys := map[string]any{}
		for j := range 10 * n {
			keys[fmt.Sprintf("k%d", j)] = 1
		}
		raw, _ := json.Marshal(map[string]any{"nodes": nodes, "connections": map[string]any{"T": map[string]any{"main": []any{outs}}}, "staticData": map[string]any{"global": keys}})
		return n8nschema.Parse(n8nschema.NewSource("s.json", raw)).Workflows[0]
	}
	const n = 200
	small, large := build(n), build(4*n)
	st, lt := cputime.Scales(3, 3, 6, func() { BuildGraph(small).failing() }, func() { BuildGraph(large).failing() })
	t.Logf("%d gates: %v; %d: %v", n, st, 4*n, lt)
	if lt > 6*st {
		t.Errorf("static gates: %d gates take %v, %d take %v: more than 6×", n, st, 4*n, lt)
	}
}
