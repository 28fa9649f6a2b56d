package analyze_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/benchgen"
	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/rules"
)

// walkedBy audits files with every rule and returns the nodes the walks
// of its graphs visited.
func walkedBy(files []*n8nschema.File) int64 {
	s := analyze.Build(files, analyze.DefaultOptions())
	analyze.Run(s, rules.All())
	var n int64
	for _, w := range s.Workflows {
		n += analyze.Walked(s.Graph(w))
	}
	return n
}

// TestTriggersLinear: T Webhooks that all start one chain of N nodes
// (benchgen.Triggers) are walked once per class of webhooks, not once per
// webhook: ten times the webhooks add their own nodes to the walks, not
// ten times the chain.
func TestTriggersLinear(t *testing.T) {
	gen := func(hooks int) []*n8nschema.File {
		return []*n8nschema.File{n8nschema.Parse(n8nschema.NewSource("t.json", benchgen.Triggers(hooks, 3000)))}
	}
	few, many := walkedBy(gen(30)), walkedBy(gen(300))
	// Before classes: 540,180 nodes for 30 webhooks, 5,401,800 for 300;
	// with them 36,012 for both.
	if many > few+50*270 {
		t.Fatalf("300 webhooks before 3,000 nodes walked %d nodes, 30 walked %d: the walks grow with webhooks × nodes", many, few)
	}
	t.Logf("walked %d nodes for 30 webhooks, %d for 300", few, many)
}

// TestTriggerClassesSameOutput: webhooks read by class (every graph of
// two webhooks or more, classMin lowered) give the findings and the
// per-trigger facts that reading each webhook gives, on both corpora and
// on generated webhooks that differ in what the facts read: a name some
// node reads, a path that signals a service, another response mode, a
// chat sender's answer.
func TestTriggerClassesSameOutput(t *testing.T) {
	base := string(benchgen.Triggers(24, 30))
	set1 := `{"name":"Step 1","type":"n8n-nodes-base.set","typeVersion":3.4,"position":[0,0],"parameters":{"assignments":{"assignments":[{"id":"a","name":"email","value":"={{ $('Hook 0').item.json.body.email }}","type":"string"}]}}}`
	reply := func(chat string) string {
		return strings.Replace(base, set1, `{"name":"Step 1","type":"n8n-nodes-base.telegram","typeVersion":1.2,"position":[0,0],"parameters":{"chatId":"={{ `+chat+`.message.chat.id }}","text":"ok"}}`, 1)
	}
	variants := map[string]string{
		"plain": base,
		"named": reply(`$('Hook 7').item.json.body`),
		"signal path": strings.Replace(strings.Replace(base, `"path":"hook-3"`, `"path":"x-github-event"`, 1),
			`"path":"hook-5"`, `"path":"stripe"`, 1),
		"response mode": strings.Replace(base, `"path":"hook-4"`, `"path":"hook-4","responseMode":"lastNode"`, 1),
		"reply":         reply(`$json.body`),
	}
	sets := map[string][]*n8nschema.File{}
	for name, v := range variants {
		sets[name] = []*n8nschema.File{n8nschema.Parse(n8nschema.NewSource(name+".json", []byte(v)))}
	}
	for _, name := range []string{"n8n-real", "n8n-more"} {
		if files := corpustest.FilesOf(t, name); len(files) > 0 {
			sets[name] = files
		}
	}
	for name, files := range sets {
		restore := analyze.SetClassMin(1 << 30)
		each := outputOf(files)
		analyze.SetClassMin(2)
		classed := outputOf(files)
		restore()
		if len(each) != len(classed) {
			t.Fatalf("%s: %d lines read per webhook, %d by class", name, len(each), len(classed))
		}
		for i := range each {
			if each[i] != classed[i] {
				t.Fatalf("%s: read per webhook:\n%s\nby class:\n%s", name, each[i], classed[i])
			}
		}
	}
}

// outputOf is what an audit of files says: its findings, and per trigger
// its pace, relay and sender, and per node whether it answers the run's
// starter.
func outputOf(files []*n8nschema.File) []string {
	s := analyze.Build(files, analyze.DefaultOptions())
	var out []string
	for _, f := range analyze.Run(s, rules.All()) {
		out = append(out, fmt.Sprintf("%s %v %s:%d %q %s %s", f.RuleID, f.Severity, f.File, f.Pos.Line, f.Node, f.Message, f.Detail))
	}
	for _, w := range s.Workflows {
		g := s.Graph(w)
		for _, tr := range g.Triggers() {
			key, ev := analyze.SenderOf(g, tr)
			out = append(out, fmt.Sprintf("%s %q pace %v relay %v converses %v sender %s %s", w.Name, tr.Name,
				analyze.TriggerPaceIn(g, tr), analyze.RelayOf(g, tr), analyze.ConversesIn(g, tr), key, ev))
		}
		for _, n := range g.Nodes {
			out = append(out, fmt.Sprintf("%s %q answers starter %v", w.Name, n.Name, g.AnswersStarter(n)))
		}
	}
	return out
}
