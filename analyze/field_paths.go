package analyze

import (
	"strings"
	"sync"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// How a run reads the fields of a request, written one way for every
// reader (a form's fields, a relay's payload, a chat's sender, a voice
// tool's call). JavaScript reads body?.email, body["email"] and
// body['email'] as body.email (optional chaining only turns a missing
// parent into undefined), and a Code node often names the body once
// (const body = $json.body || {}) and reads body.email after.

// readPaths writes the field paths of an expression or code as plain
// dotted paths: ?. as . (not before a digit: a ? .5 : 1 is a ternary),
// ["x"] and ['x'] as .x when x is a name (not after $node, whose bracket
// names a node), and, in code, a variable bound to a request body
// (const body = $json.body || {}, let b = $input.item.json.body) read
// through as what it is bound to: body.email as $json.body.email. One
// pass over x, and one more per bound variable (at most maxAliases).
func readPaths(x string) string {
	out := x
	if strings.Contains(x, "?.") || strings.Contains(x, `["`) || strings.Contains(x, "['") || strings.Contains(x, "[ ") {
		out = dotPaths(x)
	}
	if !strings.Contains(out, "body") || !strings.Contains(out, "json") {
		return out
	}
	for _, m := range bodyAliases(out, maxAliases) {
		out = inlineAlias(out, m[1], squeeze(m[2]+m[3]))
	}
	return out
}

// squeeze drops the spaces of a path outside its quotes: a node's name
// ($node["WhatsApp Webhook"]) keeps its own.
func squeeze(s string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// dotPaths is readPaths' first pass: ?. and bracketed names as dots.
func dotPaths(x string) string {
	var b strings.Builder
	b.Grow(len(x))
	for i := 0; i < len(x); i++ {
		c := x[i]
		switch {
		case c == '?' && i+1 < len(x) && x[i+1] == '.' && (i+2 >= len(x) || x[i+2] < '0' || x[i+2] > '9'):
			i++
			if i+1 < len(x) && x[i+1] == '[' {
				continue // body?.["email"]: the bracket follows
			}
			b.WriteByte('.')
			continue
		case c == '[':
			if name, n := bracketName(x[i:]); n > 0 && !strings.HasSuffix(b.String(), "$node") {
				b.WriteByte('.')
				b.WriteString(name)
				i += n - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// maxAliases bounds the variables bound to a body that readPaths reads
// through, so that it stays linear.
const maxAliases = 4

// bracketName returns the name of a bracketed string key at the start of
// s (["email"] or [ 'email' ]) and the bytes it takes; 0 when s does not
// start with one or the key is no plain name.
func bracketName(s string) (string, int) {
	i := 1
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i >= len(s) || s[i] != '"' && s[i] != '\'' {
		return "", 0
	}
	q := s[i]
	start := i + 1
	j := start
	for j < len(s) && ascii.IsWord(s[j]) {
		j++
	}
	if j == start || j >= len(s) || s[j] != q || s[start] >= '0' && s[start] <= '9' {
		return "", 0
	}
	name := s[start:j]
	j++
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j >= len(s) || s[j] != ']' {
		return "", 0
	}
	return name, j + 1
}

// bodyAliasRE matches a variable bound to a request body in code, after
// readPaths has written its path with dots: const body = $json.body,
// let b = $input.item.json.body || {}, var p = $('Webhook').first().json.body;
// const lead = $json.body ?? $json or ?? $input.first().json (the item
// itself when a caller sends the fields unwrapped: a Webhook's item
// always has a body), each also in
// parentheses: const b = ($input.first().json.body) || {}. The path is
// the second group, or the third when no parentheses wrap it.
var bodyAliasRE = lazyregexp.New(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:\(\s*([^;\n=|?{}]*?\bjson\s*\.\s*body)\s*(?:(?:\|\||\?\?)\s*(?:\{\s*\}|\$json|\$input\.(?:item|first\(\)|last\(\))\.json|item\.json)\s*)?\)|([^;\n=|?{}]*?\bjson\s*\.\s*body))\s*(?:(?:\|\||\?\?)\s*(?:\{\s*\}|\$json|\$input\.(?:item|first\(\)|last\(\))\.json|item\.json)\s*)?(?:;|\n|$)`)

// bodyAliasAtRE is bodyAliasRE at the start of a declaration.
var bodyAliasAtRE = lazyregexp.New(`^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:\(\s*([^;\n=|?{}]*?\bjson\s*\.\s*body)\s*(?:(?:\|\||\?\?)\s*(?:\{\s*\}|\$json|\$input\.(?:item|first\(\)|last\(\))\.json|item\.json)\s*)?\)|([^;\n=|?{}]*?\bjson\s*\.\s*body))\s*(?:(?:\|\||\?\?)\s*(?:\{\s*\}|\$json|\$input\.(?:item|first\(\)|last\(\))\.json|item\.json)\s*)?(?:;|\n|$)`)

// bodyAliases is bodyAliasRE.FindAllStringSubmatch(s, n) (n > 0), with the
// pattern run only where a declaration starts (const, let or var after no
// word byte) and only up to the statement's first ';' (a match holds none
// before its last byte): the unanchored pattern tried every byte of long
// code. Each ';' is looked for once, so it stays linear.
func bodyAliases(s string, n int) [][]string {
	var out [][]string
	semi := -1 // the first ';' at or after the candidate, or len(s)
	for i := 0; i < len(s) && len(out) < n; {
		j := declaration(s, i)
		if j < 0 {
			break
		}
		if semi < j {
			semi = len(s)
			if k := strings.IndexByte(s[j:], ';'); k >= 0 {
				semi = j + k
			}
		}
		m := bodyAliasAtRE.FindStringSubmatchIndex(s[j:min(semi+1, len(s))])
		if m == nil {
			i = j + 1
			continue
		}
		out = append(out, []string{s[j : j+m[1]], s[j+m[2] : j+m[3]], group(s[j:], m, 2), group(s[j:], m, 3)})
		i = j + m[1]
	}
	return out
}

// group is submatch k of s as FindStringSubmatchIndex gave it, "" when
// it took no part.
func group(s string, m []int, k int) string {
	if m[2*k] < 0 {
		return ""
	}
	return s[m[2*k]:m[2*k+1]]
}

// declaration returns the first index at or after i where const, let or
// var starts after no word byte (as \b reads it), or -1.
func declaration(s string, i int) int {
	for i < len(s) {
		k := strings.IndexAny(s[i:], "clv")
		if k < 0 {
			return -1
		}
		j := i + k
		if (j == 0 || !ascii.IsWord(s[j-1])) &&
			(strings.HasPrefix(s[j:], "const") || strings.HasPrefix(s[j:], "let") || strings.HasPrefix(s[j:], "var")) {
			return j
		}
		i = j + 1
	}
	return -1
}

// inlineAlias writes each read of name's fields (name.email, where name is
// no field of something else) as path.email, an index by a variable
// (name[f]) as path[f], and name taken apart
// (const { email } = name;) as path.
func inlineAlias(s, name, path string) string {
	if name == "json" || name == "$json" {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			break
		}
		j += i
		end := j + len(name)
		if j > 0 && (ascii.IsWord(s[j-1]) || s[j-1] == '.' || s[j-1] == '$') ||
			!(end < len(s) && (s[end] == '.' || s[end] == '[') || destructured(s[:j], s[end:])) {
			i = end
			continue
		}
		b.WriteString(s[last:j])
		b.WriteString(path)
		last = j + len(name)
		i = last
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// destructured reports whether a name between before and after is what a
// destructuring takes apart: "} = " before it, and the statement ends
// after it.
func destructured(before, after string) bool {
	before = strings.TrimRight(before, " \t")
	if !strings.HasSuffix(before, "=") || !strings.HasSuffix(strings.TrimRight(strings.TrimSuffix(before, "="), " \t"), "}") {
		return false
	}
	after = strings.TrimLeft(after, " \t")
	return after == "" || after[0] == ';' || after[0] == '\n' || after[0] == '\r'
}

// paths are the string parameters of the node at i in g.Nodes as
// readPaths writes them, each node read once per graph when first asked:
// each webhook's facts (relayOf, postsPersonForm) read every node its
// runs reach, and chained webhooks reach the same nodes.
func (g *Graph) paths(i int) []string {
	g.pathsOnce.Do(func() {
		g.pathTexts = make([][]string, len(g.Nodes))
		g.pathOnce = make([]sync.Once, len(g.Nodes))
	})
	g.pathOnce[i].Do(func() {
		n := g.Nodes[i]
		if n.Disabled {
			return // what a disabled node reads, no run reads
		}
		n.Params().Scalars(func(v n8nschema.Value) bool {
			if v.Kind() == n8nschema.String {
				g.pathTexts[i] = append(g.pathTexts[i], readPaths(v.Str()))
			}
			return true
		})
	})
	return g.pathTexts[i]
}
