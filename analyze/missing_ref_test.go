package analyze

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestNextNamedRefAsPattern checks nextNamedRef against the pattern it
// stands for, match by match, on random strings of the pieces the pattern
// reads.
func TestNextNamedRefAsPattern(t *testing.T) {
	re := regexp.MustCompile(`\$(?:\(|items\(|node\[)\s*(?:'([^'"\\]+)'|"([^'"\\]+)")\s*[)\]]`)
	pieces := []string{"$", "$(", "$items(", "$node[", "items(", "node[", "(", ")", "[", "]", "'", `"`, `\`, " ", "\t",
		"\n", "\v", "\f", "\r", "Lead", "A b", "x", "é", "\xff", "$('Lead')", `$node["Config"]`, ".json"}
	rng := rand.New(rand.NewPCG(7, 29))
	found := 0
	for i := 0; i < 200000; i++ {
		var b strings.Builder
		for k := rng.IntN(10); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		var got [][]int
		for at := 0; ; {
			start, end, _, ok := nextNamedRef(s, at)
			if !ok {
				break
			}
			got = append(got, []int{start, end})
			at = end
		}
		found += len(got)
		want := re.FindAllStringSubmatchIndex(s, -1)
		if len(got) != len(want) {
			t.Fatalf("nextNamedRef finds %v in %q, the pattern %v", got, s, want)
		}
		for j, m := range want {
			ref := m[2:4]
			if m[2] < 0 {
				ref = m[4:6]
			}
			_, _, name, _ := nextNamedRef(s, got[j][0])
			if got[j][0] != m[0] || got[j][1] != m[1] || name != s[ref[0]:ref[1]] {
				t.Fatalf("nextNamedRef finds %v (%q) in %q, the pattern %v", got[j], name, s, m)
			}
		}
	}
	if found < 1000 {
		t.Fatalf("only %d matches: the pieces miss the pattern", found)
	}
}

func TestReadsByName(t *testing.T) {
	for s, want := range map[string]bool{
		`{{ $('Lead').item.json.email }}`: true,
		`{{ $node["Config"].json.x }}`:    true,
		`{{ $items("Old Sheet") }}`:       true,
		`{{ $json.x }} and $`:             false,
		`$$ $json $input.first()`:         false,
		``:                                false,
		`$`:                               false,
	} {
		if got := readsByName(s); got != want {
			t.Errorf("readsByName(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestThrowsUnrun(t *testing.T) {
	for _, c := range []struct {
		form, after string
		want        bool
	}{
		{"$(", ".first().json.x", true},
		{"$(", ".item.json.x", true},
		{"$(", ".itemMatching(0)", true},
		{"$(", ".all()", true},
		{"$(", ".isExecuted", false},
		{"$(", ".params.url", false},
		{"$(", "?.first()", false},
		{"$node[", ".json.id", true},
		{"$node[", ".parameter.url", false},
		{"$items(", "[0].json.id", true},
	} {
		if got := throwsUnrun(c.form, c.after); got != c.want {
			t.Errorf("throwsUnrun(%q, %q) = %v, want %v", c.form, c.after, got, c.want)
		}
	}
}

// TestLaterSiblingRead judges a reader fed by the branch above (Above)
// that reads the branch below (Fetch B), both under one trigger, with the
// Above node varied: whether the read is judged, and whether sure.
func TestLaterSiblingRead(t *testing.T) {
	const tmpl = `{"name": "w", "settings": {"executionOrder": "%s"}, "nodes": [
	  {"name": "Start", "type": "n8n-nodes-base.scheduleTrigger", "typeVersion": 1.2, "position": [0, 300], "parameters": {}},
	  %s,
	  {"name": "Fetch B", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [250, %s], "parameters": {"url": "https://api.example.org/b"}},
	  {"name": "Reader", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [500, 300], "parameters": {"jsCode": %q}}
	], "connections": {
	  "Start": {"main": [[{"node": "Above", "type": "main", "index": 0}, {"node": "Fetch B", "type": "main", "index": 0}]]},
	  "Above": {"main": [[{"node": "Reader", "type": "main", "index": 0}]]},
	  "Fetch B": {"main": [[{"node": "Reader", "type": "main", "index": 0}]]}
	}}`
	above := func(typ string, ver float64, params, extra string) string {
		return fmt.Sprintf(`{"name": "Above", "type": %q, "typeVersion": %v, "position": [250, 200], "parameters": %s%s}`, typ, ver, params, extra)
	}
	set := above("n8n-nodes-base.set", 3.4, `{}`, "")
	const read = "const b = $('Fetch B').first().json;\nreturn [{ json: b }];"
	for _, c := range []struct {
		name, order, above, belowY, code string
		ok, sure                         bool
	}{
		{"set above", "v1", set, "400", read, true, true},
		{"no-op above", "v1", above("n8n-nodes-base.noOp", 1, `{}`, ""), "400", read, true, true},
		{"code returning a literal", "v1", above("n8n-nodes-base.code", 2, `{"jsCode": "return [{ json: { a: 1 } }];"}`, ""), "400", read, true, true},
		{"code returning a variable", "v1", above("n8n-nodes-base.code", 2, `{"jsCode": "const r = [];\nreturn r;"}`, ""), "400", read, true, false},
		{"code returning an empty list", "v1", above("n8n-nodes-base.code", 2, `{"jsCode": "return [];"}`, ""), "400", read, true, false},
		{"http json answer", "v1", above("n8n-nodes-base.httpRequest", 4.2, `{"url": "https://api.example.org/a"}`, ""), "400", read, true, false},
		{"http text answer", "v1", above("n8n-nodes-base.httpRequest", 4.2, `{"url": "https://api.example.org/a", "options": {"response": {"response": {"responseFormat": "text"}}}}`, ""), "400", read, true, true},
		{"http full response", "v1", above("n8n-nodes-base.httpRequest", 4.2, `{"url": "https://api.example.org/a", "options": {"response": {"response": {"fullResponse": true}}}}`, ""), "400", read, true, true},
		{"http v2 full response", "v1", above("n8n-nodes-base.httpRequest", 2, `{"url": "https://api.example.org/a", "options": {"fullResponse": true}}`, ""), "400", read, true, false},
		{"always output data", "v1", above("n8n-nodes-base.postgres", 2.6, `{"operation": "executeQuery", "query": "SELECT 1"}`, `, "alwaysOutputData": true`), "400", read, true, true},
		{"postgres read", "v1", above("n8n-nodes-base.postgres", 2.6, `{"operation": "executeQuery", "query": "SELECT 1"}`, ""), "400", read, true, false},
		{"openai message a model", "v1", above("@n8n/n8n-nodes-langchain.openAi", 1.8, `{"modelId": {"__rl": true, "value": "gpt-4o-mini", "mode": "list"}, "messages": {"values": [{"content": "hi"}]}}`, ""), "400", read, true, true},
		{"openai v2 response", "v1", above("@n8n/n8n-nodes-langchain.openAi", 2, `{"resource": "text", "operation": "response", "modelId": {"__rl": true, "value": "gpt-5-mini", "mode": "list"}}`, ""), "400", read, true, true},
		{"anthropic message a model", "v1", above("@n8n/n8n-nodes-langchain.anthropic", 1, `{"modelId": {"__rl": true, "value": "claude-sonnet-4-5", "mode": "list"}, "messages": {"values": [{"content": "hi"}]}}`, ""), "400", read, true, true},
		{"openai image", "v1", above("@n8n/n8n-nodes-langchain.openAi", 1.8, `{"resource": "image", "operation": "analyze"}`, ""), "400", read, true, false},
		{"basic llm chain", "v1", above("@n8n/n8n-nodes-langchain.chainLlm", 1.7, `{"promptType": "define", "text": "hi"}`, ""), "400", read, true, true},
		{"hubspot search", "v1", above("n8n-nodes-base.hubspot", 2.1, `{"resource": "deal", "operation": "search"}`, ""), "400", read, true, false},
		{"set with error output", "v1", above("n8n-nodes-base.set", 3.4, `{}`, `, "onError": "continueErrorOutput"`), "400", read, true, false},
		{"disabled above", "v1", above("n8n-nodes-base.set", 3.4, `{}`, `, "disabled": true`), "400", read, false, false},
		{"legacy order", "v0", set, "400", read, false, false},
		{"equal heights", "v1", set, "200", read, false, false},
		{"branch read is above", "v1", set, "100", read, false, false},
		{"read in try", "v1", set, "400", "let b = {};\ntry { b = $('Fetch B').first().json; } catch (e) {}\nreturn [{ json: b }];", false, false},
		{"read after a return", "v1", set, "400", "if (!$json.x) return [];\nconst b = $('Fetch B').first().json;\nreturn [{ json: b }];", false, false},
		{"read in a callback", "v1", set, "400", "const b = [1].map(() => $('Fetch B').first().json);\nreturn [{ json: b[0] }];", false, false},
		{"isExecuted", "v1", set, "400", "const b = $('Fetch B').isExecuted;\nreturn [{ json: { b } }];", false, false},
	} {
		src := fmt.Sprintf(tmpl, c.order, c.above, c.belowY, c.code)
		f := n8nschema.Parse(n8nschema.NewSource(c.name+".json", []byte(src)))
		if len(f.Problems) > 0 || len(f.Workflows) != 1 {
			t.Fatalf("%s: %v", c.name, f.Problems)
		}
		g := BuildGraph(f.Workflows[0])
		r := g.Node("Reader")
		jr, ok := g.LaterSiblingRead(r)
		if ok != c.ok || ok && jr.Sure != c.sure {
			t.Errorf("%s: LaterSiblingRead = %+v, %v; want ok %v, sure %v", c.name, jr, ok, c.ok, c.sure)
		}
		if _, fails := g.FailsWhy(r); fails != (c.ok && c.sure) {
			t.Errorf("%s: FailsWhy fails = %v, want %v", c.name, fails, c.ok && c.sure)
		}
		if ok && (jr.Name != "Fetch B" || jr.Above.Name != "Above" || jr.From.Name != "Start" || jr.Read != "$('Fetch B').first()") {
			t.Errorf("%s: read %+v", c.name, jr)
		}
	}
}

// TestUnrunNodeRefOnce: asking UnrunNodeRef of each of many nodes that read
// an unrun node walks the triggers' runs once per graph, not once per node
// (quadratic before: K = 20,000 readers took 26 s).
func TestUnrunNodeRefOnce(t *testing.T) {
	const k = 300
	var nodes, conns []string
	nodes = append(nodes, `{"name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0], "parameters": {}}`)
	var starts []string
	for j := range k {
		nodes = append(nodes,
			fmt.Sprintf(`{"name": "Y%d", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [200, %d], "parameters": {}}`, j, j*10),
			fmt.Sprintf(`{"name": "R%d", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [400, %d], "parameters": {"values": {"string": [{"name": "a", "value": "={{ $('Y%d').item.json.a }}"}]}}}`, j, j*10, (j+1)%k))
		starts = append(starts, fmt.Sprintf(`{"node": "Y%d", "type": "main", "index": 0}`, j))
		conns = append(conns, fmt.Sprintf(`"Y%d": {"main": [[{"node": "R%d", "type": "main", "index": 0}]]}`, j, j))
	}
	src := fmt.Sprintf(`{"name": "w", "settings": {"executionOrder": "v1"}, "nodes": [%s], "connections": {"Start": {"main": [[%s]]}, %s}}`,
		strings.Join(nodes, ",\n"), strings.Join(starts, ", "), strings.Join(conns, ",\n"))
	f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(src)))
	if len(f.Problems) > 0 || len(f.Workflows) != 1 {
		t.Fatalf("%v", f.Problems)
	}
	g := BuildGraph(f.Workflows[0])
	for _, n := range g.Nodes {
		g.UnrunNodeRef(n)
	}
	if w := g.runWalks.Load(); w > 1 {
		t.Fatalf("the triggers' runs were walked %d times for %d readers", w, k)
	}
}

// TestBranchRead judges a reader with one main input deep in a branch
// of a fan-out ("Fan") that reads a node of another branch: judged and
// sure when the reader's branch sits strictly higher, on one output.
func TestBranchRead(t *testing.T) {
	const tmpl = `{"name": "w", "settings": {"executionOrder": "%s"}, "nodes": [
	  {"name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 300], "parameters": {}},
	  {"name": "Fan", "type": "n8n-nodes-base.if", "typeVersion": 2.2, "position": [200, 300], "parameters": {}},
	  {"name": "Y", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [400, %s], "parameters": {}},
	  {"name": "Gate", "type": "n8n-nodes-base.if", "typeVersion": 2.2, "position": [600, 200], "parameters": {}},
	  {"name": "Inner", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [800, 100], "parameters": {}},
	  {"name": "Reader", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [1000, 200], "parameters": {"x": "={{ $('%s').first().json.id }}"}},
	  {"name": "Z", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [400, 400], "parameters": {}},
	  {"name": "X", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [600, 400], "parameters": {}}
	], "connections": {
	  "Start": {"main": [[{"node": "Fan", "type": "main", "index": 0}]]},
	  "Fan": {"main": [[{"node": "Y", "type": "main", "index": 0}%s], [%s]]},
	  "Y": {"main": [[{"node": "Gate", "type": "main", "index": 0}]]},
	  "Gate": {"main": [[{"node": "Inner", "type": "main", "index": 0}, {"node": "Reader", "type": "main", "index": 0}]]},
	  "Z": {"main": [[{"node": "X", "type": "main", "index": 0}]]}%s
	}}`
	const zSame, zOther = `, {"node": "Z", "type": "main", "index": 0}`, `{"node": "Z", "type": "main", "index": 0}`
	for _, c := range []struct {
		name, order, yY, read, same, other string
		ok, stops                          bool
		join                               string // more connections
		doubt                              bool   // judged, not sure
	}{
		{"below a join of both branches", "v1", "200", "X", zSame, "", true, false, `, "X": {"main": [[{"node": "Gate", "type": "main", "index": 0}]]}`, true},
		{"below a join of both branches, reads the lower head", "v1", "200", "Z", zSame, "", true, false, `, "X": {"main": [[{"node": "Gate", "type": "main", "index": 0}]]}`, true},
		{"deep node of the lower branch", "v1", "200", "X", zSame, "", true, false, "", false},
		{"fan-out in a loop, a gate on the way", "v1", "200", "X", zSame, "", false, false, `, "X": {"main": [[{"node": "Fan", "type": "main", "index": 0}]]}`, false},
		{"head of the lower branch", "v1", "200", "Z", zSame, "", true, false, "", false},
		{"lower branch reads as upper", "v1", "500", "X", zSame, "", false, false, "", false},
		{"equal heights", "v1", "400", "X", zSame, "", false, false, "", false},
		{"two outputs", "v1", "200", "X", "", zOther, false, false, "", false},
		{"legacy order", "v0", "200", "X", zSame, "", false, false, "", false},
		{"same branch, other child of the inner fan-out", "v1", "200", "Inner", zSame, "", false, false, "", false},
		{"an ancestor", "v1", "200", "Y", zSame, "", false, false, "", false},
	} {
		src := fmt.Sprintf(tmpl, c.order, c.yY, c.read, c.same, c.other, c.join)
		f := n8nschema.Parse(n8nschema.NewSource(c.name+".json", []byte(src)))
		if len(f.Problems) > 0 || len(f.Workflows) != 1 {
			t.Fatalf("%s: %v", c.name, f.Problems)
		}
		g := BuildGraph(f.Workflows[0])
		r := g.Node("Reader")
		jr, ok := g.LaterSiblingRead(r)
		if ok != c.ok || ok && (jr.Sure == c.doubt || jr.Stops != c.stops || (jr.Via != nil) != c.doubt) {
			t.Errorf("%s: LaterSiblingRead = %+v, %v; want ok %v, stops %v", c.name, jr, ok, c.ok, c.stops)
		}
		if ok && (jr.Name != c.read || jr.Above.Name != "Y" || jr.From.Name != "Fan" || jr.Below.Name != "Z" || jr.Param == "") {
			t.Errorf("%s: read %+v", c.name, jr)
		}
		// On two outputs of an If the read is unrunNodeRef's: an item
		// takes one of them (the other branch has not run).
		if why, fails := g.FailsWhy(r); fails != (c.ok && !c.doubt || c.other != "") {
			t.Errorf("%s: FailsWhy fails = %v (%s), want %v", c.name, fails, why, c.ok)
		}
	}
}
