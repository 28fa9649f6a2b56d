package n8nschema

import (
	"fmt"
	"strings"
	"testing"
)

// eachTargetByEach is EachTarget as Each reads the members: a Value for
// each, its kind, and field for a locator's members.
func eachTargetByEach(n *Node, fn func(param, s string, nameMode bool) bool) {
	n.Params().Each(func(k string, v Value) bool {
		var s string
		nameMode := false
		switch v.Kind() {
		case Object:
			if rl, _ := v.field("__rl"); !rl.True() {
				return true
			}
			val, _ := v.field("value")
			mode, _ := v.field("mode")
			s, nameMode = val.Str(), mode.Str() == "name"
		case String:
			if !strings.HasSuffix(k, "Id") && !strings.HasSuffix(k, "ID") && k != "from" {
				return true
			}
			s = v.Str()
		default:
			return true
		}
		if unsentTarget(n, k) {
			return true
		}
		return fn(k, s, nameMode)
	})
}

// targetsOf lists what each of the two readings calls fn with, stopping
// after stop calls (0: none).
func targetsOf(n *Node, each func(*Node, func(string, string, bool) bool), stop int) []string {
	var out []string
	each(n, func(k, s string, nameMode bool) bool {
		out = append(out, fmt.Sprintf("%q=%q name=%v", k, s, nameMode))
		return len(out) != stop
	})
	return out
}

// TestEachTargetAsEach: EachTarget, which reads the parameters off the
// tree, gives what the reading through Each gives, in order, and stops
// where it does: on hand-written parameters (a locator whose "__rl" is
// not its first member, one whose "__rl" is false or a string, a
// locator in name mode, one with no value, an escaped key, a repeated
// key, an id that is no string, Discord's unsent guild) and on every
// node of the three corpora.
func TestEachTargetAsEach(t *testing.T) {
	params := []string{
		`{"documentId":{"__rl":true,"value":"YOUR_ID","mode":"id"},"sheetName":{"mode":"name","value":"Sheet1","__rl":true}}`,
		`{"a":{"__rl":false,"value":"x"},"b":{"__rl":"true","value":"y"},"c":{"value":"z"},"d":{"__rl":true}}`,
		`{"chatId":"123","userID":"=YOUR_USER","from":"+1555","fromId":7,"to":"x","channelId":{"__rl":true,"value":"C0XXXX","mode":"list"}}`,
		`{"chat\u0049d":"C0XXXXXXXX","sheet\u004eame":{"__rl":true,"value":"v","mode":"name"}}`,
		`{"chatId":"first","chatId":"second","x":{"__rl":true,"value":"a","value":"b"}}`,
		`{"a.b":{"__rl":true,"value":"dotted"},"c*Id":"starred"}`,
		`{}`,
	}
	var nodes []*Node
	for _, p := range params {
		nodes = append(nodes, node(t, `{"name":"a","type":"n8n-nodes-base.googleSheets","parameters":`+p+`}`))
	}
	nodes = append(nodes, node(t, `{"name":"d","type":"n8n-nodes-base.discord","typeVersion":2,"parameters":{"authentication":"webhook","guildId":{"__rl":true,"value":"YOUR_GUILD"},"channelId":{"__rl":true,"value":"c"}}}`))
	nodes = append(nodes, node(t, `{"name":"s","type":"n8n-nodes-base.set","parameters":"text"}`))
	compare := func(where string, n *Node) int {
		want := targetsOf(n, eachTargetByEach, 0)
		for stop := 0; stop <= len(want); stop++ {
			got, w := targetsOf(n, EachTarget, stop), targetsOf(n, eachTargetByEach, stop)
			if fmt.Sprint(got) != fmt.Sprint(w) {
				t.Errorf("%s: node %q, stopping after %d: EachTarget gives %q, Each %q", where, n.Name, stop, got, w)
			}
		}
		return len(want)
	}
	found := 0
	for i, n := range nodes {
		found += compare(fmt.Sprint("fixture ", i), n)
	}
	if found < 14 {
		t.Errorf("the fixtures name %d targets (fix the test)", found)
	}
	for _, corpus := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		nodes, targets := 0, 0
		eachCorpusFile(t, corpus, func(p string, src []byte) {
			for _, w := range Parse(NewSource(p, src)).Workflows {
				for _, n := range w.Nodes {
					nodes++
					targets += compare(p, n)
				}
			}
		})
		t.Logf("%s: %d nodes, %d targets", corpus, nodes, targets)
	}
}
