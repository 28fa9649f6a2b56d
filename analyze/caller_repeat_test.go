package analyze

import (
	"strings"
	"testing"
)

// TestQuietAfter: which nodes of a sub-workflow a retrying caller does not
// repeat. "S" is the start; each case lists nodes as name:kind and the
// main connections as from>to (from>>to from the error output).
func TestQuietAfter(t *testing.T) {
	kinds := map[string]string{
		"zoho":     `"type":"n8n-nodes-base.zohoCrm","typeVersion":1,"onError":"continueRegularOutput"`,
		"http":     `"type":"n8n-nodes-base.httpRequest","typeVersion":4.2`,
		"httpCont": `"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"onError":"continueRegularOutput"`,
		"httpErr":  `"type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"onError":"continueErrorOutput"`,
		"set":      `"type":"n8n-nodes-base.set","typeVersion":3.4`,
		"throw":    `"type":"n8n-nodes-base.code","typeVersion":2,"parameters":{"jsCode":"if ($json.error) throw new Error('x'); return $input.all();"}`,
		"code":     `"type":"n8n-nodes-base.code","typeVersion":2,"parameters":{"jsCode":"return $input.all();"}`,
	}
	for _, c := range []struct {
		name, nodes, edges, quiet string
	}{
		{"continuing alone", "Z:zoho", "S>Z", "S Z"},
		{"something fails after", "Z:zoho H:http", "S>Z Z>H", ""},
		{"fails before, on every path", "H:http Z:zoho", "S>H H>Z", "Z"},
		{"fails on a branch beside", "Z:zoho H:http", "S>Z S>H", ""},
		{"reaches it past the failing node too", "H:http Z:zoho", "S>H H>Z S>Z", ""},
		{"json error goes back", "C:httpCont", "S>C", ""},
		{"error output to nothing", "E:httpErr", "S>E", "S E"},
		// X runs after E only, and E does not fail the run again after it.
		{"error output connected", "E:httpErr X:set", "S>E E>>X", "X"},
		{"code that throws after", "Z:zoho T:throw", "S>Z Z>T", ""},
		{"code that does not", "Z:zoho K:code", "S>Z Z>K", "S Z K"},
	} {
		var ns []string
		ns = append(ns, `{"name":"S","type":"n8n-nodes-base.executeWorkflowTrigger","typeVersion":1.1,"parameters":{}}`)
		for _, nk := range strings.Fields(c.nodes) {
			name, kind, _ := strings.Cut(nk, ":")
			k := kinds[kind]
			if !strings.Contains(k, `"parameters"`) {
				k += `,"parameters":{}`
			}
			ns = append(ns, `{"name":"`+name+`",`+k+`}`)
		}
		conns := map[string][2][]string{}
		for _, e := range strings.Fields(c.edges) {
			out := 0
			from, to, ok := strings.Cut(e, ">>")
			if ok {
				out = 1
			} else {
				from, to, _ = strings.Cut(e, ">")
			}
			o := conns[from]
			o[out] = append(o[out], `{"node":"`+to+`","type":"main","index":0}`)
			conns[from] = o
		}
		var cs []string
		for from, o := range conns {
			cs = append(cs, `"`+from+`":{"main":[[`+strings.Join(o[0], ",")+`],[`+strings.Join(o[1], ",")+`]]}`)
		}
		s := buildJSON(t, `{"name":"w","nodes":[`+strings.Join(ns, ",")+`],"connections":{`+strings.Join(cs, ",")+`}}`)
		g := s.Graph(s.Workflows[0])
		quiet := make([]bool, len(g.Nodes))
		quietAfter(g, quiet)
		var got []string
		for i, n := range g.Nodes {
			if quiet[i] {
				got = append(got, n.Name)
			}
		}
		if strings.Join(got, " ") != c.quiet {
			t.Errorf("%s: quiet %q, want %q", c.name, strings.Join(got, " "), c.quiet)
		}
	}
}
