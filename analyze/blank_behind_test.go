package analyze

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/corpustest"
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
