package report

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Secrets never reach a report. Every text a report shows that may quote
// the input (messages, fixes, related notes, snippets) goes through Redact
// or, for snippets, through a Redactor that also knows the JSON structure
// around the line (a header's name one line above its value).

const redacted = "[REDACTED]"

// Redact replaces credential-like values in s with [REDACTED].
func Redact(s string) string {
	spans := secretSpans(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		b.WriteString(redacted)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// credentialKeys are names (lowercased, without - and _) whose values are
// secrets: header names, JSON members, query parameters.
var credentialKeys = []string{
	"authorization", "proxyauthorization", "apikey", "key", "token", "secret", "password", "passwd", "pwd",
	"cookie", "setcookie", "privatekey", "accesskey", "secretkey", "signature", "sig", "credential", "credentials",
	"clientsecret", "sessionid",
}

// credentialSuffixes catch x-api-key, access_token, client_secret, db_password….
var credentialSuffixes = []string{"apikey", "token", "secret", "password", "passwd", "authorization", "privatekey", "accesskey", "secretkey"}

// keySeparators are dropped before a key is compared; built once, as
// building a Replacer per key dominated text rendering.
var keySeparators = strings.NewReplacer("-", "", "_", "", ".", "")

func isCredentialKey(k string) bool {
	k = strings.ToLower(keySeparators.Replace(k))
	if slices.Contains(credentialKeys, k) {
		return true
	}
	for _, suf := range credentialSuffixes {
		if strings.HasSuffix(k, suf) {
			return true
		}
	}
	return false
}

var (
	// Authorization: Bearer xxx / Basic xxx / Token xxx.
	schemeRE = regexp.MustCompile(`(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/=-]{8,})|\btoken\s+([A-Za-z0-9._~+/=-]{16,})`)
	// "key": "value" members, also inside JSON held in a string (\"key\": \"value\").
	memberRE = regexp.MustCompile(`\\?"([A-Za-z0-9_.-]+)\\?"\s*:\s*\\?"([^"\\]+)`)
	// {"name": "Authorization", "value": "…"} header and query parameter pairs.
	pairRE = regexp.MustCompile(`\\?"name\\?"\s*:\s*\\?"([A-Za-z0-9_.-]+)\\?"\s*,\s*\\?"value\\?"\s*:\s*\\?"([^"\\]+)`)
	// key=value in URL queries and form bodies.
	queryRE = regexp.MustCompile(`[?&;]([A-Za-z0-9_.-]+)=([^&"'\s#\\<>]+)`)
	// scheme://user:password@host and scheme://token@host.
	userinfoRE = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://([^/\s@"'\\<>]+)@`)
	// Tokens with well-known prefixes.
	prefixedRE = regexp.MustCompile(`\b(?:sk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}|-----BEGIN [A-Z ]*PRIVATE KEY-----)`)
	// Long runs that look random: mixed case and digits, or long hex.
	longRE = regexp.MustCompile(`[A-Za-z0-9_+/=-]{32,}`)
	hexRE  = regexp.MustCompile(`\b[0-9a-fA-F]{32,}\b`)
)

// secretSpans returns the byte ranges of s that hold secrets, sorted and
// merged.
func secretSpans(s string) [][2]int {
	if !mayHoldSecret(s) {
		return nil
	}
	var spans [][2]int
	add := func(a, b int) {
		if a >= 0 && b > a {
			spans = append(spans, [2]int{a, b})
		}
	}
	for _, m := range schemeRE.FindAllStringSubmatchIndex(s, -1) {
		add(m[2], m[3])
		add(m[4], m[5])
	}
	for _, re := range []*regexp.Regexp{memberRE, pairRE, queryRE} {
		for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
			if isCredentialKey(s[m[2]:m[3]]) && !isPlaceholder(s[m[4]:m[5]]) {
				add(m[4], m[5])
			}
		}
	}
	for _, m := range userinfoRE.FindAllStringSubmatchIndex(s, -1) {
		info := s[m[2]:m[3]]
		if i := strings.IndexByte(info, ':'); i >= 0 {
			add(m[2]+i+1, m[3])
		} else if len(info) >= 16 {
			add(m[2], m[3])
		}
	}
	for _, m := range prefixedRE.FindAllStringIndex(s, -1) {
		add(m[0], m[1])
	}
	for _, m := range longRE.FindAllStringIndex(s, -1) {
		if looksRandom(s[m[0]:m[1]]) {
			add(m[0], m[1])
		}
	}
	for _, m := range hexRE.FindAllStringIndex(s, -1) {
		add(m[0], m[1])
	}
	return mergeSpans(spans)
}

// secretPrefixes are literals at least one of which every prefixedRE match
// holds.
var secretPrefixes = []string{"sk-", "sk_", "rk_", "xox", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "AKIA", "AIza", "eyJ", "-----BEGIN"}

// mayHoldSecret is a cheap test that s can match none of the patterns of
// secretSpans when it is false: most messages and snippet lines hold no
// secret, and running the regular expressions over them dominated
// rendering. Each clause is a necessary condition of one pattern.
func mayHoldSecret(s string) bool {
	run, longest := 0, 0 // longRE and hexRE need 32 characters of [A-Za-z0-9_+/=-]
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '+' || c == '/' || c == '=' || c == '-' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	if longest >= 32 {
		return true
	}
	if strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f") {
		return true // K (Kelvin) and ſ fold to k and s under (?i)
	}
	for _, p := range secretPrefixes { // prefixedRE
		if strings.Contains(s, p) {
			return true
		}
	}
	if wordThenSpace(s, "bearer") || wordThenSpace(s, "basic") || wordThenSpace(s, "token") { // schemeRE
		return true
	}
	if quoteColon(s) { // memberRE, pairRE: `"key"` then `:`
		return true
	}
	if strings.ContainsAny(s, "?&;") && strings.Contains(s, "=") { // queryRE
		return true
	}
	return strings.Contains(s, "://") && strings.Contains(s, "@") // userinfoRE
}

// wordThenSpace reports whether s holds the lowercase ASCII word in any
// case followed by white space (\s), as schemeRE needs: "max tokens" does not.
func wordThenSpace(s, word string) bool {
	for i := 0; i+len(word) < len(s); i++ {
		j := 0
		for j < len(word) && s[i+j]|0x20 == word[j] {
			j++
		}
		if j == len(word) {
			switch s[i+j] {
			case ' ', '\t', '\n', '\f', '\r':
				return true
			}
		}
	}
	return false
}

// quoteColon reports whether a ':' follows a '"' with only white space and
// one optional backslash between them.
func quoteColon(s string) bool {
	for i := strings.IndexByte(s, ':'); i >= 0; {
		j := i - 1
		for j >= 0 && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r' || s[j] == '\f' || s[j] == '\v') {
			j--
		}
		if j >= 0 && s[j] == '\\' {
			j--
		}
		if j >= 0 && s[j] == '"' {
			return true
		}
		k := strings.IndexByte(s[i+1:], ':')
		if k < 0 {
			break
		}
		i += k + 1
	}
	return false
}

// isPlaceholder reports values that name a secret instead of holding one:
// n8n expressions reading credentials or the environment.
func isPlaceholder(v string) bool {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "={{") || !strings.HasSuffix(v, "}}") {
		return false
	}
	return strings.Contains(v, "$env") || strings.Contains(v, "$credentials") || strings.Contains(v, "$vars")
}

func looksRandom(s string) bool {
	var upper, lower, digit bool
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = true
		case unicode.IsDigit(r):
			digit = true
		}
	}
	return upper && lower && digit
}

func mergeSpans(spans [][2]int) [][2]int {
	if len(spans) == 0 {
		return nil
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp[0] <= last[1] {
			last[1] = max(last[1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
}

// memo remembers what Redact made of each text within one render: many
// findings share a fix or a message, and the regexes are the slow part.
type memo map[string]string

func (m memo) Redact(s string) string {
	if m == nil {
		return Redact(s)
	}
	r, ok := m[s]
	if !ok {
		r = Redact(s)
		m[s] = r
	}
	return r
}

// Redactor gives snippets with secrets masked (Snippet). It masks what
// Redact finds around the snippet, and also values whose meaning is given
// elsewhere in the JSON: {"name": "X-API-Key", "value": "…"} pretty-printed
// over lines.
type Redactor struct {
	// structural holds, per source, the sorted byte ranges of string values
	// that the JSON structure marks as secrets.
	structural map[*n8nschema.Source][][2]int
	wfs        map[*n8nschema.Source][]*n8nschema.Workflow
	texts      memo
	// blocks caches the secret spans of line blocks (snippet.go).
	blocks map[blockKey][][2]int
	// scanned counts the bytes snippets ran the secret patterns over: the
	// work a snippet costs, which tests bound.
	scanned int
}

// Redact is the package's Redact, remembered for texts seen before.
func (r *Redactor) Redact(s string) string { return r.texts.Redact(s) }

// NewRedactor prepares masking for the sources of an analysis set.
func NewRedactor(set *analyze.Set) *Redactor {
	r := &Redactor{structural: map[*n8nschema.Source][][2]int{}, wfs: map[*n8nschema.Source][]*n8nschema.Workflow{}, texts: memo{}, blocks: map[blockKey][][2]int{}}
	if set != nil {
		for _, w := range set.Workflows {
			r.wfs[w.Source] = append(r.wfs[w.Source], w)
		}
	}
	return r
}

// structuralSpans returns the secret string values of src (without their
// quotes), found once per source from the workflows' JSON.
func (r *Redactor) structuralSpans(src *n8nschema.Source) [][2]int {
	if spans, ok := r.structural[src]; ok {
		return spans
	}
	var spans [][2]int
	add := func(off, rawLen int) {
		if off > 0 && rawLen > 2 && off+rawLen <= len(src.Src) {
			spans = append(spans, [2]int{off + 1, off + rawLen - 1}) // keep the quotes
		}
	}
	for _, w := range r.wfs[src] {
		// One pass over the workflow's text; with a repeated key the
		// members a path names differ, and the walk below decides.
		if w.Value.StringMembers(func(m n8nschema.StringMember) {
			secret := false
			if m.Key == "value" {
				secret = m.NameIsString && isCredentialKey(m.Name)
			} else {
				secret = isCredentialKey(m.Key)
			}
			if secret && !isPlaceholder(m.Str) {
				add(m.Offset, m.RawLen)
			}
		}) {
			continue
		}
		root := w.Value
		paths := &pathCache{root: root, heads: map[string]n8nschema.Value{}}
		root.Walk(func(rel string, v n8nschema.Value) {
			if v.Kind() != n8nschema.String {
				return
			}
			parent, key := splitPath(rel)
			secret := false
			if key == "value" {
				name := paths.get(joinRel(parent, "name"))
				secret = name.Kind() == n8nschema.String && isCredentialKey(name.Str())
			} else {
				secret = isCredentialKey(key)
			}
			if !secret || isPlaceholder(v.Str()) {
				return
			}
			add(v.ValuePos().Offset, len(v.Raw()))
		})
	}
	spans = mergeSpans(spans)
	r.structural[src] = spans
	return spans
}

// pathCache resolves paths below root as root.Get does, remembering the
// value of each path's first two elements ("nodes.12"): gjson resolves a
// path one element after another, so the rest can start from there
// instead of skipping every earlier node of the workflow again.
type pathCache struct {
	root  n8nschema.Value
	heads map[string]n8nschema.Value
}

func (c *pathCache) get(path string) n8nschema.Value {
	i := secondDot(path)
	if i < 0 {
		return c.root.Get(path)
	}
	head := path[:i]
	h, ok := c.heads[head]
	if !ok {
		h = c.root.Get(head)
		c.heads[head] = h
	}
	return h.Get(path[i+1:])
}

// secondDot returns the index of the unescaped '.' that ends the second
// element of a gjson path, or -1.
func secondDot(p string) int {
	n := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '.':
			if n++; n == 2 {
				return i
			}
		}
	}
	return -1
}

// splitPath cuts a gjson path into its parent and last key, honouring
// backslash escapes.
func splitPath(p string) (parent, key string) {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != '.' {
			continue
		}
		n := 0
		for j := i - 1; j >= 0 && p[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return p[:i], unescapeKey(p[i+1:])
		}
	}
	return "", unescapeKey(p)
}

func unescapeKey(k string) string {
	if !strings.Contains(k, `\`) {
		return k
	}
	var b strings.Builder
	for i := 0; i < len(k); i++ {
		if k[i] == '\\' && i+1 < len(k) {
			i++
		}
		b.WriteByte(k[i])
	}
	return b.String()
}

func joinRel(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}
