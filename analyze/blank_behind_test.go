package analyze

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestBehindBlank: a node every run reaches only past a read of a
// template's blank sheet, or past a call whose key a config Set node
// leaves empty, is behind it; one another path reaches, or one behind a
// blank call that continues on failure or never errs, is not.
func TestBehindBlank(t *testing.T) {
	read := func(name, onError string) string {
		return `{"name":"` + name + `","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,` + onError + `"parameters":{"documentId":{"__rl":true,"mode":"id","value":"YOUR_SPREADSHEET_ID"},"sheetName":{"__rl":true,"mode":"list","value":"gid=0"}}}`
	}
	s := buildJSON(t, `{"name":"w","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{}},
	  `+read("Blank read", "")+`,
	  `+read("Blank read, continues", `"onError":"continueRegularOutput",`)+`,
	  {"name":"Behind","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Also fed","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Past the continuing one","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Keyed call","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.apollo.io/v1/people","sendHeaders":true,"headerParameters":{"parameters":[{"name":"X-Api-Key","value":"={{ $('Config').item.json.key }}"}]}}},
	  {"name":"Keyed call, never erring","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.apollo.io/v1/people","sendHeaders":true,"headerParameters":{"parameters":[{"name":"X-Api-Key","value":"={{ $('Config').item.json.key }}"}]},"options":{"response":{"response":{"neverError":true}}}}},
	  {"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[{"name":"key","value":"","type":"string"}]}}},
	  {"name":"Past the key","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Past the key that never errs","type":"n8n-nodes-base.noOp","typeVersion":1}],
	 "connections":{
	  "Start":{"main":[[{"node":"Blank read","type":"main","index":0},{"node":"Also fed","type":"main","index":0},{"node":"Blank read, continues","type":"main","index":0},{"node":"Config","type":"main","index":0}]]},
	  "Blank read":{"main":[[{"node":"Behind","type":"main","index":0},{"node":"Also fed","type":"main","index":0}]]},
	  "Blank read, continues":{"main":[[{"node":"Past the continuing one","type":"main","index":0}]]},
	  "Config":{"main":[[{"node":"Keyed call","type":"main","index":0},{"node":"Keyed call, never erring","type":"main","index":0}]]},
	  "Keyed call":{"main":[[{"node":"Past the key","type":"main","index":0}]]},
	  "Keyed call, never erring":{"main":[[{"node":"Past the key that never errs","type":"main","index":0}]]}}}`)
	g := s.Graph(s.Workflows[0])
	for name, want := range map[string]string{"Behind": `"documentId"`, "Also fed": "", "Past the continuing one": "", "Blank read": `"documentId"`, "Start": "",
		"Past the key": `header "X-Api-Key"`, "Past the key that never errs": ""} {
		b, ok := g.BehindBlank(g.Node(name))
		fill := b.Fill
		if ok != (want != "") || ok && !strings.Contains(fill, want) {
			t.Errorf("%s: behind a blank %v (%s), want %q", name, ok, fill, want)
		}
	}
}

// TestBehindTypedBlanks: a key typed as a template's blank, a credential
// id n8n never generates (on a trigger: it never starts a run) and a
// fill-in host make their node a blank, which a finding on it or behind
// it reads; a credential id blank in a workflow the export shows published
// does not (its runs used real ids).
func TestBehindTypedBlanks(t *testing.T) {
	wf := func(active string) string {
		return `{"name":"w",` + active + `"nodes":[
	  {"name":"Sheet rows","type":"n8n-nodes-base.googleSheetsTrigger","typeVersion":1,"parameters":{},"credentials":{"googleSheetsTriggerOAuth2Api":{"id":"GOOGLE_SHEETS_PORTFOLIO_CREDENTIAL_ID","name":"Sheets"}}},
	  {"name":"After the trigger","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Every hour","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{}},
	  {"name":"Typed key","type":"n8n-nodes-base.httpRequest","typeVersion":1,"parameters":{"url":"https://api.tips.org/daily","headerParametersUi":{"parameter":[{"name":"Authorization","value":"Bearer YOUR_API_KEY"}]}}},
	  {"name":"Past the typed key","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Push","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"method":"POST","url":"https://push-service.yourdomain.com/send"}},
	  {"name":"Example host","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.example.com/v1"}}],
	 "connections":{
	  "Sheet rows":{"main":[[{"node":"After the trigger","type":"main","index":0}]]},
	  "Every hour":{"main":[[{"node":"Typed key","type":"main","index":0},{"node":"Push","type":"main","index":0},{"node":"Example host","type":"main","index":0}]]},
	  "Typed key":{"main":[[{"node":"Past the typed key","type":"main","index":0}]]}}}`
	}
	for _, c := range []struct {
		active string
		want   map[string]string
	}{
		{"", map[string]string{"After the trigger": "never starts a run", "Sheet rows": "never starts a run", "Past the typed key": `header "Authorization"`,
			"Typed key": `header "Authorization"`, "Push": `host "push-service.yourdomain.com"`, "Example host": "", "Every hour": ""}},
		// An export shown published has no blanks: the author blanked
		// out real values to share it, and the live workflow runs.
		{`"active":true,`, map[string]string{"After the trigger": "", "Sheet rows": "", "Past the typed key": "", "Typed key": "", "Push": ""}},
	} {
		s := buildJSON(t, wf(c.active))
		g := s.Graph(s.Workflows[0])
		for name, want := range c.want {
			b, ok := g.BehindBlank(g.Node(name))
			if ok != (want != "") || ok && !strings.Contains(b.Fill+" "+b.Until, want) {
				t.Errorf("%s%s: behind a blank %v (%s: %s), want %q", c.active, name, ok, b.Fill, b.Until, want)
			}
			if ok && b.Self != (b.Node == g.Node(name)) {
				t.Errorf("%s: Self %v for blank node %q", name, b.Self, b.Node.Name)
			}
		}
	}
}

// TestConfigTargetBlank: a target parameter whose whole value reads a
// field a config Set node writes as a template's blank id (by name, or as
// $json from the Set node feeding it) makes its node a blank, named with
// both nodes; a real-looking id, a field the value only embeds, a Set
// field that is an expression, and an export shown published do not.
func TestConfigTargetBlank(t *testing.T) {
	wf := func(active string) string {
		post := func(name, channel string) string {
			return `{"name":"` + name + `","type":"n8n-nodes-base.slack","typeVersion":2.3,"parameters":{"select":"channel","channelId":{"__rl":true,"mode":"id","value":"` + channel + `"},"text":"hi"}}`
		}
		return `{"name":"w",` + active + `"nodes":[
	  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{}},
	  {"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[
	    {"name":"slackChannel","type":"string","value":"C0XXXXXXXXX"},{"name":"realChannel","type":"string","value":"C05AB12CD"},
	    {"name":"sheetId","type":"string","value":"YOUR_SPREADSHEET_ID"},{"name":"computed","type":"string","value":"={{ $json.channel }}"}]}}},
	  ` + post("By name", `={{ $('Config').first().json.slackChannel }}`) + `,
	  ` + post("Real id", `={{ $('Config').item.json.realChannel }}`) + `,
	  ` + post("Embedded", `=C0{{ $('Config').item.json.slackChannel }}`) + `,
	  ` + post("Computed", `={{ $('Config').item.json.computed }}`) + `,
	  {"name":"From its feed","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"parameters":{"operation":"append","documentId":{"__rl":true,"mode":"id","value":"={{ $json.sheetId }}"},"sheetName":{"__rl":true,"mode":"list","value":"gid=0"}}}],
	 "connections":{
	  "Start":{"main":[[{"node":"Config","type":"main","index":0}]]},
	  "Config":{"main":[[{"node":"By name","type":"main","index":0},{"node":"Real id","type":"main","index":0},{"node":"Embedded","type":"main","index":0},{"node":"Computed","type":"main","index":0},{"node":"From its feed","type":"main","index":0}]]}}}`
	}
	for _, c := range []struct {
		active string
		want   map[string]string
	}{
		{"", map[string]string{"By name": `node "By name"'s "channelId", read from "Config"'s "slackChannel", a template's blank`,
			"From its feed": `"documentId", read from "Config"'s "sheetId"`, "Real id": "", "Embedded": "", "Computed": "", "Config": ""}},
		{`"active":true,`, map[string]string{"By name": "", "From its feed": ""}},
	} {
		s := buildJSON(t, wf(c.active))
		g := s.Graph(s.Workflows[0])
		for name, want := range c.want {
			b, ok := g.BehindBlank(g.Node(name))
			if ok != (want != "") || ok && !strings.Contains(b.Fill, want) {
				t.Errorf("%s%s: behind a blank %v (%s), want %q", c.active, name, ok, b.Fill, want)
			}
		}
	}
}

// TestBlankClearOrder: blankClear reads only the nodes before the one
// asked about, so a blank that lies after it is not read then; asked next
// about a node behind that blank (and about a sub-node whose model names
// one), BehindBlank still finds it, and a node before it stays clear.
func TestBlankClearOrder(t *testing.T) {
	const wf = `{"name":"w","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{}},
	  {"name":"Before","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Blank read","type":"n8n-nodes-base.googleSheets","typeVersion":4.5,"parameters":{"documentId":{"__rl":true,"mode":"id","value":"YOUR_SPREADSHEET_ID"},"sheetName":{"__rl":true,"mode":"list","value":"gid=0"}}},
	  {"name":"Behind","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Chain","type":"@n8n/n8n-nodes-langchain.chainLlm","typeVersion":1.5,"parameters":{"promptType":"define","text":"Say hi"}},
	  {"name":"Model","type":"@n8n/n8n-nodes-langchain.lmChatOpenAi","typeVersion":1,"parameters":{"options":{}},"credentials":{"openAiApi":{"id":"YOUR_CREDENTIAL_ID","name":"OpenAI"}}},
	  {"name":"After the chain","type":"n8n-nodes-base.noOp","typeVersion":1}],
	 "connections":{
	  "Start":{"main":[[{"node":"Before","type":"main","index":0},{"node":"Chain","type":"main","index":0}]]},
	  "Before":{"main":[[{"node":"Blank read","type":"main","index":0}]]},
	  "Blank read":{"main":[[{"node":"Behind","type":"main","index":0}]]},
	  "Model":{"ai_languageModel":[[{"node":"Chain","type":"ai_languageModel","index":0}]]},
	  "Chain":{"main":[[{"node":"After the chain","type":"main","index":0}]]}}}`
	want := map[string]string{"Behind": `"documentId"`, "Blank read": `"documentId"`, "After the chain": `"Model"`, "Chain": `"Model"`, "Model": "fails on every call"}
	for _, order := range [][]string{
		{"Before", "Start", "Behind", "Before", "After the chain"},
		{"Start", "After the chain", "Before", "Behind"},
		{"Before", "Model", "Behind", "Start"},
		{"Start", "Before", "Chain", "Blank read"},
	} {
		s := buildJSON(t, wf) // a fresh graph, nothing read yet
		g := s.Graph(s.Workflows[0])
		for _, name := range order {
			b, ok := g.BehindBlank(g.Node(name))
			if w := want[name]; ok != (w != "") || ok && !strings.Contains(b.Fill+" "+b.Until, w) {
				t.Errorf("%v, %s: behind a blank %v (%s: %s), want %q", order, name, ok, b.Fill, b.Until, w)
			}
		}
	}
}

// TestBlankClearAsReach: on every workflow of the corpora, BehindBlank and
// BlankBefore answer for each node, asked in a shuffled order, what they
// answer once the whole reach is filled first (blankReach alone, before
// blankClear read any node).
func TestBlankClearAsReach(t *testing.T) {
	for _, name := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		files := corpustest.FilesOf(t, name)
		lazy, whole := Build(files, DefaultOptions()), Build(files, DefaultOptions())
		rnd := rand.New(rand.NewPCG(29, uint64(len(files))))
		found, clear := 0, 0
		for _, w := range lazy.Workflows {
			g, h := lazy.Graph(w), whole.Graph(w)
			h.blankFound = true
			h.blankOnce.Do(h.blankReach)
			nodes := slices.Clone(g.Nodes)
			rnd.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
			for _, n := range nodes {
				b, ok := g.BehindBlank(n)
				wb, wok := h.BehindBlank(n)
				if ok != wok || b != wb {
					t.Errorf("%s %q node %q: BehindBlank %v %+v, the whole reach %v %+v", name, w.Name, n.Name, ok, b, wok, wb)
				}
				b, ok = g.BlankBefore(n)
				wb, wok = h.BlankBefore(n)
				if ok != wok || b != wb {
					t.Errorf("%s %q node %q: BlankBefore %v %+v, the whole reach %v %+v", name, w.Name, n.Name, ok, b, wok, wb)
				}
				if wok {
					found++
				} else {
					clear++
				}
			}
		}
		if found == 0 || clear == 0 {
			t.Errorf("%s: %d nodes behind a blank, %d not: the corpus tests one side only", name, found, clear)
		}
	}
}

// TestMaySetSource: maySetSource says no only where the regular expression's
// reading (fieldRefRE, as setSources read it without maySetSource) finds no
// source or one that is not an enabled Set node, so setFixes and
// configTarget answer as without it; and it says no to most text. Forms
// with spaces, double and mixed quotes, $node[...], .all()[0], a name with
// a parenthesis, a $json read fed by a Set node alone, by a Set node and a
// Code node, by two Set nodes, by a disabled one.
func TestMaySetSource(t *testing.T) {
	s := buildJSON(t, `{"name":"w","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{}},
	  {"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{}},
	  {"name":"Old","type":"n8n-nodes-base.set","typeVersion":2,"parameters":{}},
	  {"name":"My odd) node","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{}},
	  {"name":"Off","type":"n8n-nodes-base.set","typeVersion":3.4,"disabled":true,"parameters":{}},
	  {"name":"Code","type":"n8n-nodes-base.code","typeVersion":2,"parameters":{}},
	  {"name":"Fed","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Fed by two","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Fed by off","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Fed by code","type":"n8n-nodes-base.noOp","typeVersion":1},
	  {"name":"Fed by set and code","type":"n8n-nodes-base.noOp","typeVersion":1}],
	 "connections":{
	  "Start":{"main":[[{"node":"Config","type":"main","index":0},{"node":"Old","type":"main","index":0},{"node":"Off","type":"main","index":0},{"node":"Code","type":"main","index":0}]]},
	  "Config":{"main":[[{"node":"Fed","type":"main","index":0},{"node":"Fed by two","type":"main","index":0},{"node":"Fed by set and code","type":"main","index":0}]]},
	  "Old":{"main":[[{"node":"Fed by two","type":"main","index":0}]]},
	  "Off":{"main":[[{"node":"Fed by off","type":"main","index":0}]]},
	  "Code":{"main":[[{"node":"Fed by code","type":"main","index":0},{"node":"Fed by set and code","type":"main","index":0}]]}}}`)
	g := s.Graph(s.Workflows[0])
	// The reading before maySetSource: fieldRefRE's sources.
	ref := func(n *n8nschema.Node, expr string) []*n8nschema.Node {
		m := fieldRefRE.FindStringSubmatch(expr)
		if m == nil {
			return nil
		}
		if m[3] != "" {
			var srcs []*n8nschema.Node
			for _, e := range g.InOfType(n, ConnMain) {
				srcs = append(srcs, e.From)
			}
			return srcs
		}
		if s := g.Node(m[1] + m[2]); s != nil {
			return []*n8nschema.Node{s}
		}
		return nil
	}
	read := map[string]bool{ // by node, then expression; true: maySetSource says yes
		"Fed\x00$json.key": true, "Fed by two\x00$json.key": true, "Fed by two\x00$json[\"a key\"]": true,
		"Fed by off\x00$json.key": false, "Fed by code\x00$json.key": false, "Fed by set and code\x00$json.key": false,
		"Start\x00$json.key": false, "Fed by code\x00$('Config').item.json.key": true,
		"Fed by code\x00$( 'Config' ).first().json.key": true, "Fed by code\x00$(\t\"Config'\n).last().json.a.b": true,
		"Fed by code\x00$('Config').all()[0].json.key": true, "Fed by code\x00$node[\"Config\"].json.key": true,
		"Fed by code\x00$node[ 'Old' ].json[\"key\"]": true, "Fed by code\x00$('My odd) node').item.json.key": true,
		"Fed by code\x00$('Off').item.json.key": false, "Fed by code\x00$('Code').item.json.key": false,
		"Fed by code\x00$('Nowhere').item.json.key": false, "Fed by code\x00$('').item.json.key": false,
		"Fed by code\x00 $('Config').item.json.key": false, "Fed by code\x00$(Config).item.json.key": false,
		"Fed\x00$input.first().json.key": false, "Fed\x00$jsonx.key": true, "Fed\x00key": false,
		"Fed by code\x00$node": false, "Fed by code\x00$(": false, "Fed by code\x00$('Config": false,
	}
	for k, want := range read {
		name, expr, _ := strings.Cut(k, "\x00")
		n := g.Node(name)
		if n == nil {
			t.Fatalf("no node %q", name)
		}
		got := maySetSource(g, n, expr)
		if got != want {
			t.Errorf("%s, %q: maySetSource %v, want %v", name, expr, got, want)
		}
		srcs := ref(n, expr)
		sets := len(srcs) > 0 && !slices.ContainsFunc(srcs, func(s *n8nschema.Node) bool { return s.Type != n8nschema.TypeSet || s.Disabled })
		if sets && !got {
			t.Errorf("%s, %q: fieldRefRE reads enabled Set nodes, maySetSource says no", name, expr)
		}
		if got, _ := setSources(g, n, expr); sets && !slices.Equal(got, srcs) {
			t.Errorf("%s, %q: setSources %d nodes, fieldRefRE %d", name, expr, len(got), len(srcs))
		}
	}
}

// TestFillInGateOldSet: fillInGate reads an If only in a graph with an
// enabled Set v1 or v2 (noOldSet), wherever it stands among the Set
// nodes: a fill-in test of a Set v2 is a gate beside a Set v3 before or
// after it, and not when the Set v2 is disabled or the only Set is v3.
func TestFillInGateOldSet(t *testing.T) {
	wf := func(configVersion string, disabled bool, other string) string {
		off := ""
		if disabled {
			off = `"disabled":true,`
		}
		set := `{"name":"Configure","type":"n8n-nodes-base.set","typeVersion":` + configVersion + `,` + off + `"parameters":{"values":{"string":[{"name":"recipients","value":"[UPDATE ME]"}]},"assignments":{"assignments":[{"name":"recipients","type":"string","value":"[UPDATE ME]"}]}}}`
		nodes := []string{`{"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{}}`}
		v3 := `{"name":"Other","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{}}`
		switch other {
		case "before":
			nodes = append(nodes, v3, set)
		case "after":
			nodes = append(nodes, set, v3)
		default:
			nodes = append(nodes, set)
		}
		nodes = append(nodes, `{"name":"Is it","type":"n8n-nodes-base.if","typeVersion":1,"parameters":{"conditions":{"string":[{"value1":"={{ $('Configure').first().json.recipients }}","operation":"contains","value2":"={{ $json.email }}"}]}}}`,
			`{"name":"Send","type":"n8n-nodes-base.noOp","typeVersion":1}`)
		return `{"name":"w","nodes":[` + strings.Join(nodes, ",") + `],"connections":{
		  "Start":{"main":[[{"node":"Configure","type":"main","index":0}]]},
		  "Configure":{"main":[[{"node":"Is it","type":"main","index":0}]]},
		  "Is it":{"main":[[{"node":"Send","type":"main","index":0}],[]]}}}`
	}
	for _, c := range []struct {
		version  string
		disabled bool
		other    string
		gate     bool
	}{
		{"2", false, "", true}, {"1", false, "before", true}, {"2", false, "after", true},
		{"2", true, "before", false}, {"3.4", false, "", false}, {"3.4", false, "after", false},
	} {
		s := buildJSON(t, wf(c.version, c.disabled, c.other))
		g := s.Graph(s.Workflows[0])
		b, ok := g.BehindBlank(g.Node("Send"))
		if ok != c.gate || ok && !strings.Contains(b.Fill, `"recipients", a template's blank that node "Is it" tests`) {
			t.Errorf("Set v%s disabled %v, a Set v3 %q: behind a blank %v (%s), want %v", c.version, c.disabled, c.other, ok, b.Fill, c.gate)
		}
		if g.noOldSet == c.gate {
			t.Errorf("Set v%s disabled %v, a Set v3 %q: noOldSet %v", c.version, c.disabled, c.other, g.noOldSet)
		}
	}
}

// TestMayFillInHost: every URL whose host FillInHost reads as a fill-in
// (URLHost lowers it) passes mayFillInHost, in any case; a real host does
// not.
func TestMayFillInHost(t *testing.T) {
	for _, c := range []struct {
		url  string
		fill bool
	}{
		{"https://push.yourdomain.com/api", true},
		{"=https://PUSH.YOURDOMAIN.COM/api", true},
		{"  https://YourShop.myshopify.com/admin", true},
		{"https://<your-host>/v1", true},
		{"http://[host]:8080/x", true},
		{"https://your-instance.app.n8n.cloud/webhook", true},
		{"https://api.example.com/v1/users", false},
		{"https://api.yourmembership.com/v1", false},
		{"https://api.github.com/repos", false},
		{"={{ $json.url }}", false},
	} {
		s := buildJSON(t, `{"name":"w","nodes":[{"name":"Call","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"`+c.url+`"}}],"connections":{}}`)
		n := s.Graph(s.Workflows[0]).Node("Call")
		if got := n8nschema.FillInHost(URLHost(n)); got != c.fill {
			t.Errorf("%s: FillInHost %v, want %v", c.url, got, c.fill)
		}
		if c.fill && !mayFillInHost(n) {
			t.Errorf("%s: a fill-in host, mayFillInHost false", c.url)
		}
		if !strings.Contains(strings.ToLower(c.url), "your") && !strings.ContainsAny(c.url, "<>[]") && mayFillInHost(n) {
			t.Errorf("%s: mayFillInHost true", c.url)
		}
	}
}

// TestBlankKeyExprParts: blankKey reads each {{ }} part of a key's value
// as exprRE did (from a "{{" to the first "}}" after it, over lines): a
// part that reads a field a Set node leaves blank, first or after
// another part, in a header or in a header's JSON text, makes the node a
// blank; a part never closed, or one opened by a third brace, does not.
// Each answer is checked against exprRE's reading too.
func TestBlankKeyExprParts(t *testing.T) {
	const ref = `$('Config').first().json.apiKey`
	cases := []struct {
		name, value string
		json, blank bool
	}{
		{"Whole", `={{ ` + ref + ` }}`, false, true},
		{"Bearer", `=Bearer {{ ` + ref + ` }}`, false, true},
		{"Second part", `={{ $now.toISO() }} {{ ` + ref + ` }}`, false, true},
		{"Adjacent parts", `={{ 'Bearer ' }}{{ ` + ref + ` }}`, false, true},
		{"Over lines", "={{\n  " + ref + "\n}}", false, true},
		{"Closing first", `=}} x {{ ` + ref + ` }}`, false, true},
		{"Set key", `={{ $('Config').first().json.realKey }}`, false, false},
		{"Never closed", `=Bearer {{ ` + ref + ` }`, false, false},
		{"Third brace", `={{{ ` + ref + ` }}}`, false, false},
		{"Closed by the first", `={{ $now }} }} {{ ` + ref, false, false},
		{"JSON", `={{ 1 }} {{ ` + ref + ` }}`, true, true},
		{"JSON set key", `={{ $('Config').first().json.realKey }}`, true, false},
	}
	var nodes, conns []string
	for _, c := range cases {
		v, _ := json.Marshal(c.value)
		params := `"sendHeaders":true,"headerParameters":{"parameters":[{"name":"Authorization","value":` + string(v) + `}]}`
		if c.json {
			params = `"sendHeaders":true,"specifyHeaders":"json","jsonHeaders":{"Authorization":` + string(v) + `}`
		}
		nodes = append(nodes, `{"name":"`+c.name+`","type":"n8n-nodes-base.httpRequest","typeVersion":4.2,"parameters":{"url":"https://api.example.com/v1",`+params+`}}`)
		conns = append(conns, `{"node":"`+c.name+`","type":"main","index":0}`)
	}
	s := buildJSON(t, `{"name":"w","nodes":[
	  {"name":"Start","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1.2,"parameters":{}},
	  {"name":"Config","type":"n8n-nodes-base.set","typeVersion":3.4,"parameters":{"assignments":{"assignments":[
	    {"name":"apiKey","type":"string","value":""},{"name":"realKey","type":"string","value":"k-8f3a9c2e71d04b56"}]}}},
	  `+strings.Join(nodes, ",\n")+`],
	 "connections":{"Start":{"main":[[{"node":"Config","type":"main","index":0}]]},"Config":{"main":[[`+strings.Join(conns, ",")+`]]}}}`)
	g := s.Graph(s.Workflows[0])
	blank := func(v string) bool { return strings.TrimSpace(v) == "" || n8nschema.BlankKeyText(v) }
	for _, c := range cases {
		n := g.Node(c.name)
		b, ok := g.BehindBlank(n)
		if ok != c.blank || ok && !strings.Contains(b.Fill, `header "Authorization" carries a key`) {
			t.Errorf("%s: behind a blank %v (%s), want %v", c.name, ok, b.Fill, c.blank)
		}
		old := false // exprRE's reading
		for _, x := range exprRE.FindAllString(c.value, -1) {
			old = old || setFixes(g, n, strings.TrimSpace(x[2:len(x)-2]), blank)
		}
		if old != c.blank {
			t.Errorf("%s: exprRE's reading %v, want %v", c.name, old, c.blank)
		}
	}
}
