package analyze

import (
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A graph may hold many Webhooks that all start the same nodes (one per
// caller, or per path, of one job). Each webhook's pacing facts
// (RelaysChat, AnswersBrowser, answersVoiceTool, RelayOf, postsPersonForm,
// senderReads, AnswersStarter) read what its runs reach, so T such
// webhooks before N nodes cost T × N. Two webhooks whose runs reach the
// same nodes, and that differ in nothing those facts read, have the same
// facts: a class reads them once, for its first webhook.

// classMin is the number of webhooks a graph must hold before its
// webhooks are put in classes: below it, reading each is cheaper than
// comparing them. A variable so that a test can class every graph.
var classMin = 16

// sameFacts returns the first webhook of the graph's triggers whose
// pacing facts are t's (t itself when none before it has them): both have
// no incoming connection and the same outgoing ones, so that their runs
// reach the same nodes but themselves; the same fields and parameters but
// the path, each path a plain word that no fact reads (pathInert); and a
// name that is the only node's of that name and that no node's parameters
// hold, so that no expression reads either by name.
func (g *Graph) sameFacts(t *n8nschema.Node) *n8nschema.Node {
	g.classOnce.Do(g.classTriggers)
	if r, ok := g.classOf[t]; ok {
		return r
	}
	return t
}

// classTriggers fills classOf, for graphs of classMin webhooks or more.
func (g *Graph) classTriggers() {
	var hooks []*n8nschema.Node
	for _, t := range g.Triggers() {
		if t.Type == n8nschema.TypeWebhook {
			hooks = append(hooks, t)
		}
	}
	if len(hooks) < classMin {
		return
	}
	names := make(map[string]int, len(g.Nodes))
	for _, n := range g.Nodes {
		names[n.Name]++
	}
	keys := make(map[*n8nschema.Node]string, len(hooks))
	plain := map[string]bool{}
	for _, t := range hooks {
		if names[t.Name] != 1 || !plainName(t.Name) || len(g.In(t)) > 0 {
			continue
		}
		if k, ok := g.factsKey(t); ok {
			keys[t] = k
			plain[t.Name] = true
		}
	}
	if len(keys) < 2 {
		return
	}
	texts := make([]string, 0, len(g.Nodes))
	for _, n := range g.Nodes {
		raw := n.Params().Raw()
		if strings.Contains(raw, `\u`) {
			return // an escape may spell any name
		}
		texts = append(texts, raw)
	}
	held := held(texts, plain)
	first := map[string]*n8nschema.Node{}
	g.classOf = map[*n8nschema.Node]*n8nschema.Node{}
	for _, t := range hooks {
		k, ok := keys[t]
		if !ok || held[t.Name] {
			continue
		}
		if r, ok := first[k]; ok {
			g.classOf[t] = r
		} else {
			first[k] = t
		}
	}
}

// plainName reports a name of printable ASCII without quote or
// backslash: one that a node's parameters (their JSON text) hold as
// written wherever an expression names it.
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return false
		}
	}
	return s != ""
}

// factsKey is what t's pacing facts read of t but its name and path, and
// its outgoing connections; ok is false when its path is no inert word.
func (g *Graph) factsKey(t *n8nschema.Node) (string, bool) {
	var b strings.Builder
	paths := 0
	t.Params().Each(func(k string, v n8nschema.Value) bool {
		if k == "path" {
			paths++
			if v.Kind() != n8nschema.String || !pathInert(t, v.Str()) {
				paths++
			}
			return true
		}
		b.WriteString(strconv.Quote(k))
		b.WriteByte(':')
		b.WriteString(v.Raw())
		b.WriteByte(',')
		return true
	})
	if paths > 1 {
		return "", false
	}
	b.WriteByte(0)
	for _, s := range []string{t.Type, strconv.FormatFloat(t.TypeVersion, 'g', -1, 64), strconv.FormatBool(t.TypeVersionSet),
		strconv.FormatBool(t.Disabled), strconv.FormatBool(t.RetryOnFail), strconv.FormatBool(t.ContinueOnFail),
		strconv.FormatBool(t.ExecuteOnce), strconv.FormatBool(t.AlwaysOutputData), t.OnError, t.Notes,
		t.MaxTries().Raw(), t.WaitBetweenTries().Raw(), strings.Join(t.Credentials, ",")} {
		b.WriteString(strconv.Quote(s))
		b.WriteByte(',')
	}
	b.WriteString(g.outKey(t))
	return b.String(), true
}

// outKey writes t's outgoing connections, "" when t has incoming ones (or
// none at all): two triggers of one outKey reach the same nodes but
// themselves.
func (g *Graph) outKey(t *n8nschema.Node) string {
	if len(g.In(t)) > 0 || len(g.Out(t)) == 0 {
		return ""
	}
	var b strings.Builder
	for _, e := range g.Out(t) {
		b.WriteString(strconv.Quote(e.Type))
		for _, x := range []int{int(e.to), e.Output, e.Input} {
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(x))
		}
		for _, x := range []bool{e.Error, e.Unrun, e.NoInput, g.failsOnEdge(e)} {
			b.WriteByte(' ')
			b.WriteString(strconv.FormatBool(x))
		}
		b.WriteByte(';')
	}
	return b.String()
}

// pathInert reports a webhook path that none of the pacing facts finds
// anything in when they read the webhook's own strings: a word of
// letters, digits and _ . : / - (so no expression, quote or escape), with
// no service's signal (mayRelay, senderSignals), no signature header and
// no request field (requestFields).
func pathInert(t *n8nschema.Node, p string) bool {
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("_.:/-", c) >= 0:
		default:
			return false
		}
	}
	if mayRelay(p) || signatureHeaderRE.MatchString(p) || readPaths(p) != p {
		return false
	}
	fields := false
	requestFields(p, t, false, takesGet(t), func(string) { fields = true })
	if fields {
		return false
	}
	low := strings.ToLower(p)
	for _, s := range senderSignals {
		for _, ws := range [][]string{s.strong, s.events, s.payload} {
			for _, w := range ws {
				if strings.Contains(low, strings.ToLower(w)) {
					return false
				}
			}
		}
	}
	return true
}

// held returns the names of want that some text holds, in one pass over
// the texts per length of name (a rolling hash), not one per name.
func held(texts []string, want map[string]bool) map[string]bool {
	out := map[string]bool{}
	byLen := map[int]map[uint64]bool{}
	for w := range want {
		if byLen[len(w)] == nil {
			byLen[len(w)] = map[uint64]bool{}
		}
		byLen[len(w)][hashOf(w)] = true
	}
	const base = 1099511628211
	for l, hashes := range byLen {
		pow := uint64(1) // base^(l-1)
		for range l - 1 {
			pow *= base
		}
		for _, s := range texts {
			if len(s) < l {
				continue
			}
			h := hashOf(s[:l])
			for i := 0; ; i++ {
				if hashes[h] && want[s[i:i+l]] {
					out[s[i:i+l]] = true
				}
				if i+l == len(s) {
					break
				}
				h = (h-uint64(s[i])*pow)*base + uint64(s[i+l])
			}
		}
	}
	return out
}

// hashOf is held's rolling hash of s.
func hashOf(s string) uint64 {
	var h uint64
	for i := 0; i < len(s); i++ {
		h = h*1099511628211 + uint64(s[i])
	}
	return h
}

// SameRuns returns the first webhook of the graph's triggers whose runs
// reach what t's runs reach but themselves, live (RunReach) or not, and
// that shares t's pacing facts (sameFacts); t itself when none does. A
// rule that reads each trigger's runs may read them once for such a class.
func SameRuns(g *Graph, t *n8nschema.Node) *n8nschema.Node {
	r := g.sameFacts(t)
	if r == t {
		return t
	}
	a, b := g.Out(t), g.Out(r)
	for i := range a {
		if g.dead(a[i]) != g.dead(b[i]) {
			return t
		}
	}
	if g.fails != nil && g.runFails(g.at(t)) != g.runFails(g.at(r)) {
		return t
	}
	return r
}
