package analyze

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// joinWorkflow builds a workflow from "Name=type" nodes (a short type
// is n8n-nodes-base's) and "From>To" edges ("From:1>To" for output 1,
// "From>To:1" for input 1).
func joinWorkflow(nodes, edges []string) string {
	var ns []string
	for k, n := range nodes {
		name, typ, _ := strings.Cut(n, "=")
		if !strings.Contains(typ, ".") {
			typ = "n8n-nodes-base." + typ
		}
		ns = append(ns, fmt.Sprintf(`{"name":%q,"type":%q,"typeVersion":1,"position":[%d,0],"parameters":{}}`, name, typ, 200*k))
	}
	con := map[string][][]map[string]any{}
	for _, e := range edges {
		from, to, _ := strings.Cut(e, ">")
		out, in := 0, 0
		if f, o, ok := strings.Cut(from, ":"); ok {
			from = f
			fmt.Sscan(o, &out)
		}
		if t, i, ok := strings.Cut(to, ":"); ok {
			to = t
			fmt.Sscan(i, &in)
		}
		for len(con[from]) <= out {
			con[from] = append(con[from], nil)
		}
		con[from][out] = append(con[from][out], map[string]any{"node": to, "type": "main", "index": in})
	}
	main := map[string]any{}
	for k, v := range con {
		main[k] = map[string]any{"main": v}
	}
	c, _ := json.Marshal(main)
	return `{"name":"w","nodes":[` + strings.Join(ns, ",") + `],"connections":` + string(c) + `}`
}

// TestJoinRuns pins the runs per execution joinFacts counts: parallel
// branches on one input add up; exclusive outputs, triggers and a node
// with two inputs do not.
func TestJoinRuns(t *testing.T) {
	for _, tc := range []struct {
		name  string
		nodes []string
		edges []string
		want  map[string]int
	}{
		{"three branches of one output", []string{"T=manualTrigger", "A=noOp", "B=noOp", "C=noOp", "J=noOp", "K=noOp"},
			[]string{"T>A", "T>B", "T>C", "A>J", "B>J", "C>J", "J>K"}, map[string]int{"A": 1, "J": 3, "K": 3}},
		{"if true and false meet", []string{"T=manualTrigger", "I=if", "A=noOp", "B=noOp", "J=noOp"},
			[]string{"T>I", "I>A", "I:1>B", "A>J", "B>J"}, map[string]int{"J": 1}},
		{"if output fans out beside its other output", []string{"T=manualTrigger", "I=if", "X=noOp", "J=noOp"},
			[]string{"T>I", "I>J", "I>X", "I:1>J"}, map[string]int{"J": 1}},
		{"a branch through an if beside a parallel one", []string{"T=manualTrigger", "A=noOp", "B=noOp", "I=if", "J=noOp"},
			[]string{"T>A", "T>B", "A>I", "I>J", "B>J"}, map[string]int{"J": 2}},
		{"one output to the join and to a node before it", []string{"T=manualTrigger", "F=noOp", "K=noOp", "J=noOp"},
			[]string{"T>F", "F>J", "F>K", "K>J"}, map[string]int{"J": 2}},
		{"a merge waits for both inputs", []string{"T=manualTrigger", "A=noOp", "B=noOp", "M=merge", "K=noOp"},
			[]string{"T>A", "T>B", "A>M", "B>M:1", "M>K"}, map[string]int{"M": 1, "K": 1}},
		{"a merge wired on input 0 only does not wait", []string{"T=manualTrigger", "A=noOp", "B=noOp", "M=merge"},
			[]string{"T>A", "T>B", "A>M", "B>M"}, map[string]int{"M": 2}},
		{"two triggers", []string{"T=manualTrigger", "S=scheduleTrigger", "J=noOp"},
			[]string{"T>J", "S>J"}, map[string]int{"J": 1}},
		{"switch alternatives meet through joins", []string{"T=manualTrigger", "S=switch", "A=noOp", "B=noOp", "OK=noOp", "Fail=noOp", "J=noOp"},
			[]string{"T>S", "S>A", "S:1>B", "S:2>Fail", "A>OK", "B>OK", "A:1>Fail", "OK>J", "Fail>J"}, map[string]int{"OK": 1, "Fail": 1, "J": 1}},
		{"exclusive outputs with a fan-out on one way", []string{"T=manualTrigger", "I=if", "P=noOp", "Q=noOp", "R=noOp", "J=noOp"},
			[]string{"T>I", "I>P", "P>Q", "P>R", "Q>J", "I:1>J"}, map[string]int{"J": 1}},
		{"a loop's back edge is not a branch", []string{"T=manualTrigger", "L=splitInBatches", "W=noOp", "D=noOp"},
			[]string{"T>L", "L:1>W", "W>L", "L>D"}, map[string]int{"L": 1, "D": 1}},
		{"no trigger reaches it", []string{"T=manualTrigger", "A=noOp", "X=noOp", "Y=noOp"},
			[]string{"T>A", "X>Y"}, map[string]int{"Y": 0}},
		{"a fork on one branch of another fork adds up", []string{"T=manualTrigger", "A=noOp", "B=noOp", "A1=noOp", "A2=noOp", "J=noOp"},
			[]string{"T>A", "T>B", "A>A1", "A>A2", "A1>J", "A2>J", "B>J"}, map[string]int{"J": 3}},
		{"forks two levels down add up", []string{"T=manualTrigger", "A=noOp", "B=noOp", "A1=noOp", "A2=noOp", "C=noOp", "C1=noOp", "C2=noOp", "J=noOp"},
			[]string{"T>A", "T>B", "A>A1", "A>A2", "A2>C", "C>C1", "C>C2", "A1>J", "C1>J", "C2>J", "B>J"}, map[string]int{"J": 4}},
		{"forks on the two ways of an if are alternatives", []string{"T=manualTrigger", "I=if", "X=noOp", "Y=noOp", "X1=noOp", "X2=noOp", "Y1=noOp", "Y2=noOp", "Y3=noOp", "J=noOp"},
			[]string{"T>I", "I>X", "I:1>Y", "X>X1", "X>X2", "Y>Y1", "Y>Y2", "Y>Y3", "X1>J", "X2>J", "Y1>J", "Y2>J", "Y3>J"}, map[string]int{"J": 3}},
		{"a fork beside an if's other way", []string{"T=manualTrigger", "A=noOp", "B=noOp", "I=if", "P=noOp", "Q=noOp", "J=noOp"},
			[]string{"T>A", "T>B", "A>I", "I>P", "I>Q", "I:1>J", "P>J", "Q>J", "B>J"}, map[string]int{"J": 3}},
	} {
		g := BuildGraph(parseOne(t, joinWorkflow(tc.nodes, tc.edges)))
		for name, want := range tc.want {
			if got := g.runs(g.Node(name)); got != want {
				t.Errorf("%s: Runs(%s) = %d, want %d", tc.name, name, got, want)
			}
		}
		checkMayRepeat(t, tc.name, g)
	}
}

// TestRepeatedRuns pins which runs repeat one output: a node that reads
// the branches by name, not one that maps its own items.
func TestRepeatedRuns(t *testing.T) {
	src := func(jParams string) string {
		return `{"name":"w","nodes":[
{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}},
{"name":"A","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[200,0],"parameters":{"url":"https://a.example.com"}},
{"name":"B","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[200,200],"parameters":{"url":"https://b.example.com"}},
{"name":"J","type":"n8n-nodes-base.code","typeVersion":2,"position":[400,0],"parameters":` + jParams + `},
{"name":"K","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[600,0],"parameters":{}}],
"connections":{"T":{"main":[[{"node":"A","type":"main","index":0},{"node":"B","type":"main","index":0}]]},
"A":{"main":[[{"node":"J","type":"main","index":0}]]},"B":{"main":[[{"node":"J","type":"main","index":0}]]},
"J":{"main":[[{"node":"K","type":"main","index":0}]]}}}`
	}
	for _, tc := range []struct {
		name, code string
		want       bool
	}{
		{"reads the branches by name", `return [{json: {a: $('A').first().json, b: $('B').all().length}}];`, true},
		{"declares its own items variable", `const items = $('A').all(); return items.map(item => item);`, true},
		{"reads nothing", `return [{json: {at: Date.now()}}];`, true},
		{"maps its input", `return $input.all().map(i => ({json: i.json}));`, false},
		{"the legacy items variable", `return items;`, false},
		{"the legacy item variable", `item.json.x = 1; return item;`, false},
	} {
		params, _ := json.Marshal(map[string]string{"jsCode": tc.code})
		g := BuildGraph(parseOne(t, src(string(params))))
		rr, ok := g.RepeatedRuns(g.Node("K"))
		if ok != tc.want {
			t.Errorf("%s: RepeatedRuns(K) ok = %v, want %v", tc.name, ok, tc.want)
			continue
		}
		if ok && (rr.Join.Name != "J" || rr.Same.Name != "J" || rr.Runs != 2 || len(rr.Branches) != 2) {
			t.Errorf("%s: RepeatedRuns(K) = join %s, same %s, runs %d, %d branches; want J, J, 2, 2", tc.name, rr.Join.Name, rr.Same.Name, rr.Runs, len(rr.Branches))
		}
	}
}

// TestRepeatedRunsV1Throws pins that under v1 an expression reading two
// branches by name is left to the throw of its first run: nothing repeats.
func TestRepeatedRunsV1Throws(t *testing.T) {
	src := func(order string) string {
		return `{"name":"w","settings":{"executionOrder":"` + order + `"},"nodes":[
{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}},
{"name":"A","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[200,0],"parameters":{"url":"https://a.example.com"}},
{"name":"B","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[200,200],"parameters":{"url":"https://b.example.com"}},
{"name":"J","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[400,0],"parameters":{"assignments":{"assignments":[{"id":"1","name":"x","value":"={{ $('A').first().json.a }} {{ $('B').first().json.b }}","type":"string"}]}}}],
"connections":{"T":{"main":[[{"node":"A","type":"main","index":0},{"node":"B","type":"main","index":0}]]},
"A":{"main":[[{"node":"J","type":"main","index":0}]]},"B":{"main":[[{"node":"J","type":"main","index":0}]]}}}`
	}
	for order, want := range map[string]bool{"v1": false, "v0": true} {
		g := BuildGraph(parseOne(t, src(order)))
		if _, ok := g.RepeatedRuns(g.Node("J")); ok != want {
			t.Errorf("executionOrder %s: RepeatedRuns(J) ok = %v, want %v", order, ok, want)
		}
	}
}

// A v1 Code join that reads a lower branch at its top level throws on its
// first run with items (laterSiblingRead), so its runs cannot repeat; in a
// try the read is caught and every branch's run repeats the output.
func TestRepeatedRunsV1CodeThrows(t *testing.T) {
	src := func(code string) string {
		return `{"name":"w","settings":{"executionOrder":"v1"},"nodes":[
{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}},
{"name":"A","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[200,0],"parameters":{"url":"https://a.example.com"}},
{"name":"B","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"position":[200,200],"parameters":{"url":"https://b.example.com"}},
{"name":"J","type":"n8n-nodes-base.code","typeVersion":2,"position":[400,0],"parameters":{"jsCode":` + strconv.Quote(code) + `}}],
"connections":{"T":{"main":[[{"node":"A","type":"main","index":0},{"node":"B","type":"main","index":0}]]},
"A":{"main":[[{"node":"J","type":"main","index":0}]]},"B":{"main":[[{"node":"J","type":"main","index":0}]]}}}`
	}
	for code, want := range map[string]bool{
		"const a = $('A').first().json;\nconst b = $('B').first().json;\nreturn [{json: {a, b}}];":                    false,
		"let b = null;\ntry { b = $('B').first().json; } catch (e) {}\nreturn [{json: {a: $('A').first().json, b}}];": true,
	} {
		g := BuildGraph(parseOne(t, src(code)))
		if _, ok := g.RepeatedRuns(g.Node("J")); ok != want {
			t.Errorf("code %q: RepeatedRuns(J) ok = %v, want %v", code, ok, want)
		}
	}
}

// TestJoinRunsAllMatchingSwitch pins that a Switch sending an item down
// every rule it matches (options.allMatchingOutputs) starts parallel
// branches, not alternatives; without the option its rules are
// alternatives.
func TestJoinRunsAllMatchingSwitch(t *testing.T) {
	src := func(all string) string {
		return `{"name":"w","nodes":[
{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}},
{"name":"S","type":"n8n-nodes-base.switch","typeVersion":3.2,"position":[200,0],"parameters":{"rules":{"values":[{"conditions":{"conditions":[{"leftValue":"={{ $json.a }}","rightValue":"","operator":{"type":"string","operation":"notEmpty"}}],"combinator":"and"}},{"conditions":{"conditions":[{"leftValue":"={{ $json.b }}","rightValue":"","operator":{"type":"string","operation":"notEmpty"}}],"combinator":"and"}}]},"options":{` + all + `}}},
{"name":"A","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[400,0],"parameters":{}},
{"name":"B","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[400,200],"parameters":{}},
{"name":"J","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[600,0],"parameters":{}}],
"connections":{"T":{"main":[[{"node":"S","type":"main","index":0}]]},
"S":{"main":[[{"node":"A","type":"main","index":0}],[{"node":"B","type":"main","index":0}]]},
"A":{"main":[[{"node":"J","type":"main","index":0}]]},"B":{"main":[[{"node":"J","type":"main","index":0}]]}}}`
	}
	for _, tc := range []struct {
		name, all string
		want      int
	}{
		{"all matching outputs", `"allMatchingOutputs":true`, 2},
		{"first match only", `"allMatchingOutputs":false`, 1},
		{"default", ``, 1},
	} {
		g := BuildGraph(parseOne(t, src(tc.all)))
		if got := g.runs(g.Node("J")); got != tc.want {
			t.Errorf("%s: Runs(J) = %d, want %d", tc.name, got, tc.want)
		}
		checkMayRepeat(t, tc.name, g)
	}
}

// checkMayRepeat fails when mayRepeat rules out graph g (joins answers
// nil) though a node of it runs twice in one execution (countJoins).
func checkMayRepeat(t *testing.T, name string, g *Graph) (twice bool) {
	t.Helper()
	for i, r := range g.countJoins().runs {
		if r >= 2 {
			if !g.mayRepeat() {
				t.Errorf("%s: node %q runs %d times, but mayRepeat rules the graph out", name, g.Nodes[i].Name, r)
			}
			return true
		}
	}
	return false
}

// TestMayRepeatCorpus holds mayRepeat, the test that spares most graphs
// the joins' count, to that count on every workflow of the corpora.
func TestMayRepeatCorpus(t *testing.T) {
	graphs, pass, twice := 0, 0, 0
	for _, w := range corpustest.Workflows(t) {
		g := BuildGraph(w)
		graphs++
		if g.mayRepeat() {
			pass++
		}
		if checkMayRepeat(t, w.Name, g) {
			twice++
		}
	}
	t.Logf("%d graphs, %d pass mayRepeat, %d with a node run twice", graphs, pass, twice)
}

// runs is how many times n runs in one execution by the joins of
// parallel branches before it (joinFacts): 1 for most nodes, 0 for a node
// no trigger reaches.
func (g *Graph) runs(n *n8nschema.Node) int {
	i, ok := g.index(n)
	if !ok {
		return 0
	}
	f := g.joins()
	if f == nil {
		f = g.countJoins() // no node runs twice; the count tells reached from not
	}
	return int(f.runs[i])
}
