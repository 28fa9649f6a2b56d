package report

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
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
	// This runs for every member of every workflow a snippet shows, and
	// most names ("name", "type", "value", "parameters") end otherwise
	// than every credential key and suffix: their last two bytes say so
	// before the fold, when both are ASCII letters (else the fold
	// decides).
	if n := len(k); n >= 2 {
		a, z := k[n-2]|0x20, k[n-1]|0x20
		if 'a' <= a && a <= 'z' && 'a' <= z && z <= 'z' && credentialEnds[z]&(1<<(a-'a')) == 0 {
			return false
		}
	}
	// ASCII keys (nearly all) are folded in a stack buffer.
	var buf [48]byte
	n := 0
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= 0x80 || n == len(buf):
			return isCredentialKeyFolded(strings.ToLower(keySeparators.Replace(k)))
		case c == '-' || c == '_' || c == '.':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	return isCredentialKeyFolded(string(buf[:n]))
}

func isCredentialKeyFolded(k string) bool {
	if k == "" {
		return false
	}
	// Every member of every workflow a snippet shows is tested: only the
	// keys and suffixes ending in k's last byte can match.
	c := k[len(k)-1]
	if slices.Contains(credentialKeysByLast[c], k) {
		return true
	}
	for _, suf := range credentialSuffixesByLast[c] {
		if strings.HasSuffix(k, suf) {
			return true
		}
	}
	return false
}

// credentialEnds are, by the last letter of a credential key or suffix,
// the letters before it (bit c-'a' for c). A word that ends otherwise
// than in two letters needs none: the test reads only keys that do.
var credentialEnds = func() (ends [256]uint32) {
	for _, w := range append(slices.Clone(credentialKeys), credentialSuffixes...) {
		if a, z := w[len(w)-2], w[len(w)-1]; 'a' <= a && a <= 'z' && 'a' <= z && z <= 'z' {
			ends[z] |= 1 << (a - 'a')
		}
	}
	return ends
}()

// credentialKeysByLast and credentialSuffixesByLast are credentialKeys
// and credentialSuffixes by their last byte.
var credentialKeysByLast, credentialSuffixesByLast = byLastByte(credentialKeys), byLastByte(credentialSuffixes)

func byLastByte(words []string) *[256][]string {
	var by [256][]string
	for _, w := range words {
		by[w[len(w)-1]] = append(by[w[len(w)-1]], w)
	}
	return &by
}

// The patterns of secrets. URL queries and userinfo, members ("key":
// "value", also inside JSON held in a string as \"key\": \"value\"),
// name/value pairs and long runs are found by the scanners below, which
// match what these expressions match (secretSpansRE in the tests is the
// reference) in one pass and many times faster; the rest are regular
// expressions run only when a literal they need is present.
//
//	query:  [?&;]([A-Za-z0-9_.-]+)=([^&"'\s#\\<>]+)
//	member: \\?"([A-Za-z0-9_.-]+)\\?"\s*:\s*\\?"([^"\\]+)
//	pair:   \\?"name\\?"\s*:\s*\\?"([A-Za-z0-9_.-]+)\\?"\s*,\s*\\?"value\\?"\s*:\s*\\?"([^"\\]+)
//	long:   [A-Za-z0-9_+/=-]{32,} that looks random
//	hex:    \b[0-9a-fA-F]{32,}\b
//	userinfo: userinfoRE
var (
	// Authorization: Bearer xxx / Basic xxx / Token xxx.
	schemeRE = lazyregexp.New(`(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/=-]{8,})|\btoken\s+([A-Za-z0-9._~+/=-]{16,})`)
	// scheme://user:password@host and scheme://token@host.
	userinfoRE = lazyregexp.New(`(?i)\b[a-z][a-z0-9+.-]*://([^/\s@"'\\<>]+)@`)
	// Tokens with well-known prefixes.
	prefixedRE = lazyregexp.New(`\b(?:sk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}|-----BEGIN [A-Z ]*PRIVATE KEY-----)`)
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
	if schemeWord(s) || foldsToASCII(s) {
		schemeSpans(s, add)
	}
	members(s, func(key string, vs, ve int, name string, isPair bool) {
		if (isCredentialKey(key) || isPair && isCredentialKey(name)) && !isPlaceholder(s[vs:ve]) {
			add(vs, ve)
		}
	})
	queries(s, func(ks, ke, vs, ve int) {
		if isCredentialKey(s[ks:ke]) && !isPlaceholder(s[vs:ve]) {
			add(vs, ve)
		}
	})
	userinfos(s, func(a, b int) {
		if i := strings.IndexByte(s[a:b], ':'); i >= 0 {
			add(a+i+1, b)
		} else if b-a >= 16 {
			add(a, b)
		}
	})
	if hasSecretPrefix(s) {
		for _, m := range prefixedRE.FindAllStringIndex(s, -1) {
			add(m[0], m[1])
		}
	}
	if !hasLongRun(s) {
		return mergeSpans(spans)
	}
	longRuns(s, func(a, b int) {
		if looksRandom(s[a:b]) {
			add(a, b)
		}
		// A hex run of 32 or more lies inside a long run of as many.
		hexRuns(s, a, b, add)
	})
	return mergeSpans(spans)
}

// schemeSpans calls add with the credential after each scheme word
// (schemeRE's first or second group) of its matches, in order. Every
// match starts at a scheme word (schemeWordAt) after no word byte, and
// then its run of credential bytes is all there is to read: the
// expression, which has no literal to skip to, tried every byte of the
// text. (?i) also reads the Kelvin sign and the long s as k and s: with
// one of them in s, the expression decides.
func schemeSpans(s string, add func(a, b int)) {
	if foldsToASCII(s) {
		for _, m := range schemeRE.FindAllStringSubmatchIndex(s, -1) {
			add(m[2], m[3])
			add(m[4], m[5])
		}
		return
	}
	for i := 0; i < len(s); i++ {
		if !schemeWordAt(s, i) || i > 0 && isWordByteRE(s[i-1]) {
			continue
		}
		j, least := i+len("token"), 16
		if s[i]|0x20 == 'b' {
			j, least = i+len("basic"), 8
			if s[i+1]|0x20 == 'e' {
				j = i + len("bearer")
			}
		}
		for j < len(s) && isSpaceRE(s[j]) {
			j++
		}
		k := j
		for k < len(s) && isSchemeByte(s[k]) {
			k++
		}
		if k-j >= least {
			add(j, k)
			i = k - 1 // the next match starts after this one
		}
	}
}

// isSchemeByte is schemeRE's [A-Za-z0-9._~+/=-].
func isSchemeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=' || c == '-'
}

// isWordByteRE is \b's word byte: [0-9A-Za-z_] (a byte of a longer rune
// is none, as the rune is not).
func isWordByteRE(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

func foldsToASCII(s string) bool {
	return strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f") // K (Kelvin) and ſ fold to k and s under (?i)
}

// schemeWord reports whether s holds "bearer", "basic" or "token" in any
// case followed by white space, as schemeRE needs: "max tokens" does not.
func schemeWord(s string) bool { return hasLiteral(s, true) }

// hasSecretPrefix reports whether s holds one of secretPrefixes.
func hasSecretPrefix(s string) bool { return hasLiteral(s, false) }

// hasLiteral reports whether s holds a scheme word (scheme) or a secret
// prefix (!scheme), looking only where a byte one is found from stands.
func hasLiteral(s string, scheme bool) bool {
	for p := 0; p < len(s); p++ {
		if secretClass[s[p]]&literalByte == 0 {
			continue
		}
		ls := literalsAt[s[p]]
		for k := range ls {
			if ls[k].scheme == scheme && ls[k].standsAt(s, p) {
				return true
			}
		}
	}
	return false
}

// wordAt reports whether the lowercase ASCII word stands at s[i:] in any
// case, followed by white space (\s).
func wordAt(s string, i int, word string) bool {
	if i+len(word) >= len(s) {
		return false
	}
	for j := 0; j < len(word); j++ {
		if s[i+j]|0x20 != word[j] {
			return false
		}
	}
	switch s[i+len(word)] {
	case ' ', '\t', '\n', '\f', '\r':
		return true
	}
	return false
}
func isSpaceRE(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' } // \s

func isKeyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}

// members calls f for every `"key": "value` in s (quotes optionally
// escaped), with the value's byte range; for a "value" member right after
// a "name" member whose value is a key, also that name (a pair).
func members(s string, f func(key string, vs, ve int, name string, isPair bool)) {
	for c := strings.IndexByte(s, ':'); c >= 0; {
		if ks, ke, ok := keyBefore(s, c); ok {
			if vs, ve, ok := valueAfter(s, c); ok {
				name, isPair := "", false
				if s[ks:ke] == "value" {
					name, isPair = pairName(s, ks)
				}
				f(s[ks:ke], vs, ve, name, isPair)
			}
		}
		next := strings.IndexByte(s[c+1:], ':')
		if next < 0 {
			return
		}
		c += next + 1
	}
}

// keyBefore matches \\?"(key)\\?"\s* ending just before s[c]; it returns the
// key's byte range.
func keyBefore(s string, c int) (ks, ke int, ok bool) {
	j := c - 1
	for j >= 0 && isSpaceRE(s[j]) {
		j--
	}
	if j < 0 || s[j] != '"' {
		return 0, 0, false
	}
	j--
	if j >= 0 && s[j] == '\\' {
		j--
	}
	ke = j + 1
	for j >= 0 && isKeyByte(s[j]) {
		j--
	}
	ks = j + 1
	if ks == ke || j < 0 || s[j] != '"' {
		return 0, 0, false
	}
	return ks, ke, true
}

// valueAfter matches \s*\\?"([^"\\]+) starting just after s[c].
func valueAfter(s string, c int) (vs, ve int, ok bool) {
	k := c + 1
	for k < len(s) && isSpaceRE(s[k]) {
		k++
	}
	if k < len(s) && s[k] == '\\' {
		k++
	}
	if k >= len(s) || s[k] != '"' {
		return 0, 0, false
	}
	vs = k + 1
	ve = vs
	for ve < len(s) && s[ve] != '"' && s[ve] != '\\' {
		ve++
	}
	return vs, ve, ve > vs
}

// pairName matches \\?"name\\?"\s*:\s*\\?"(key)\\?"\s*,\s*\\? before the
// "value" key starting at ks, and returns that key.
func pairName(s string, ks int) (string, bool) {
	j := ks - 2 // before the key's opening quote
	if j >= 0 && s[j] == '\\' {
		j--
	}
	for j >= 0 && isSpaceRE(s[j]) {
		j--
	}
	if j < 0 || s[j] != ',' {
		return "", false
	}
	j--
	for j >= 0 && isSpaceRE(s[j]) {
		j--
	}
	if j < 0 {
		return "", false
	}
	// The name's value: key bytes between quotes, then ":" and "name".
	nks, nke, ok := keyBefore(s, j+1)
	if !ok {
		return "", false
	}
	j = nks - 2
	if j >= 0 && s[j] == '\\' {
		j--
	}
	for j >= 0 && isSpaceRE(s[j]) {
		j--
	}
	if j < 0 || s[j] != ':' {
		return "", false
	}
	if ks2, ke2, ok := keyBefore(s, j); !ok || s[ks2:ke2] != "name" {
		return "", false
	}
	return s[nks:nke], true
}

// queries calls f with the key and value ranges of every
// [?&;]key=value in s (queryRE).
func queries(s string, f func(ks, ke, vs, ve int)) {
	for e := strings.IndexByte(s, '='); e >= 0; {
		k := e
		for k > 0 && isKeyByte(s[k-1]) {
			k--
		}
		if k < e && k > 0 && (s[k-1] == '?' || s[k-1] == '&' || s[k-1] == ';') {
			v := e + 1
			for v < len(s) && !strings.ContainsRune("&\"'#\\<> \t\n\f\r", rune(s[v])) {
				v++
			}
			if v > e+1 {
				f(k, e, e+1, v)
			}
		}
		next := strings.IndexByte(s[e+1:], '=')
		if next < 0 {
			return
		}
		e += next + 1
	}
}

// userinfos calls f with the range of every userinfo in s: what lies
// between "scheme://" and "@" (userinfoRE). Under (?i) a scheme may hold
// the Kelvin sign or a long s; then the expression decides.
func userinfos(s string, f func(a, b int)) {
	if !strings.Contains(s, "://") || !strings.Contains(s, "@") {
		return
	}
	if foldsToASCII(s) {
		for _, m := range userinfoRE.FindAllStringSubmatchIndex(s, -1) {
			f(m[2], m[3])
		}
		return
	}
	for p := strings.Index(s, "://"); p >= 0; {
		if hasScheme(s, p) {
			a := p + 3
			b := a
			for b < len(s) && !strings.ContainsRune("/@\"'\\<> \t\n\f\r", rune(s[b])) {
				b++
			}
			if b > a && b < len(s) && s[b] == '@' {
				f(a, b)
			}
		}
		next := strings.Index(s[p+1:], "://")
		if next < 0 {
			return
		}
		p += next + 1
	}
}

// hasScheme reports whether \b[a-z][a-z0-9+.-]* (any case) ends at p.
func hasScheme(s string, p int) bool {
	ok := false
	for q := p - 1; q >= 0; q-- {
		c := s[q] | 0x20
		letter := 'a' <= c && c <= 'z'
		if !letter && !('0' <= s[q] && s[q] <= '9' || s[q] == '+' || s[q] == '.' || s[q] == '-') {
			break
		}
		if letter && (q == 0 || !ascii.IsWord(s[q-1])) {
			ok = true
		}
	}
	return ok
}

func isLongByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '+' || c == '/' || c == '=' || c == '-'
}

// longRuns calls f for every maximal run of [A-Za-z0-9_+/=-] of 32 bytes or more.
func longRuns(s string, f func(a, b int)) {
	for i := 0; i < len(s); {
		if !isLongByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isLongByte(s[j]) {
			j++
		}
		if j-i >= 32 {
			f(i, j)
		}
		i = j
	}
}

func isHexByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// hexRuns calls f for every maximal run of 32 or more hex digits within
// s[from:to] with no word character on either side in s
// (\b[0-9a-fA-F]{32,}\b).
func hexRuns(s string, from, to int, f func(a, b int)) {
	for i := from; i < to; {
		if !isHexByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < to && isHexByte(s[j]) {
			j++
		}
		if j-i >= 32 && (i == 0 || !ascii.IsWord(s[i-1])) && (j == len(s) || !ascii.IsWord(s[j])) {
			f(i, j)
		}
		i = j
	}
}

// secretPrefixes are literals at least one of which every prefixedRE match
// holds.
var secretPrefixes = []string{"sk-", "sk_", "rk_", "xox", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "AKIA", "AIza", "eyJ", "-----BEGIN"}

// mayHoldSecret is a cheap test that s can match none of the patterns of
// secretSpans when it is false: most messages and snippet lines hold no
// secret, and running the regular expressions over them dominated
// rendering. Each clause is a necessary condition of one pattern.
func mayHoldSecret(s string) bool {
	// Cheapest first: JSON nearly always has a member.
	if quoteColon(s) { // members and pairs: `"key"` then `:`
		return true
	}
	// One pass notes the classes of the bytes the other patterns need, a
	// word of eight bytes at a time: a name or message is read once, not
	// once a pattern. schemeRE and prefixedRE match 14 bytes or more
	// ("basic", a space and 8 characters); their literals are looked for
	// only where a byte that prose holds seldom stands (literalAt), and
	// most words of a message hold none.
	wordy := len(s) >= 14
	var seen uint8
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		class := secretClass[w[0]] | secretClass[w[1]] | secretClass[w[2]] | secretClass[w[3]] |
			secretClass[w[4]] | secretClass[w[5]] | secretClass[w[6]] | secretClass[w[7]]
		seen |= class
		if class&literalByte != 0 && wordy {
			for p := i; p < i+8; p++ {
				if secretClass[s[p]]&literalByte != 0 && literalAt(s, p) {
					return true // schemeRE, prefixedRE
				}
			}
		}
	}
	for ; i < len(s); i++ {
		class := secretClass[s[i]]
		seen |= class
		if class&literalByte != 0 && wordy && literalAt(s, i) {
			return true // schemeRE, prefixedRE
		}
	}
	if seen&queryByte != 0 && strings.IndexByte(s, '=') >= 0 { // queries
		return true
	}
	if seen&atByte != 0 && strings.Contains(s, "://") { // userinfo
		return true
	}
	if hasLongRun(s) { // long and hex runs
		return true
	}
	return wordy && seen&highByte != 0 && foldsToASCII(s) // schemeRE or prefixedRE in (?i) folds
}

// literalAt reports whether a scheme word (schemeWordAt) or a secret
// prefix stands in s with the byte it is found from at s[p].
func literalAt(s string, p int) bool {
	ls := literalsAt[s[p]]
	for k := range ls {
		// Most bytes a literal is found from stand in other words: its
		// first byte says so before a call.
		if i := p - ls[k].at; i >= 0 && s[i]|ls[k].fold == ls[k].lit[0] && ls[k].standsAt(s, p) {
			return true
		}
	}
	return false
}

// literal is a word schemeWordAt finds (any case, then white space) or a
// secretPrefixes entry, found from its byte at: the one of its bytes that
// comes first in seldom ("token" from its k, "AKIA" from its K), else its
// first. The bytes 's', 'r', 'e' and 't' that start them start most
// words of a message too.
type literal struct {
	lit    string
	at     int
	scheme bool
	fold   byte // 0x20 for a scheme word: what lowers its first byte
}

// standsAt reports whether l stands in s with its byte at at s[p].
func (l *literal) standsAt(s string, p int) bool {
	i := p - l.at
	if l.scheme {
		return i >= 0 && wordAt(s, i, l.lit)
	}
	return i >= 0 && strings.HasPrefix(s[i:], l.lit)
}

// seldom are bytes that prose, names and messages hold seldom, the rarest
// first.
const seldom = "JZjzQqXx_KkBb-"

// literalsAt are the literals by the byte each is found from: a scheme
// word's in both cases.
var literalsAt = func() *[256][]literal {
	var by [256][]literal
	add := func(lit string, scheme bool) {
		rank := func(c byte) int {
			if k := strings.IndexByte(seldom, c); k >= 0 {
				return k
			}
			return len(seldom)
		}
		at := 0
		for j := range len(lit) {
			if rank(lit[j]) < rank(lit[at]) {
				at = j
			}
		}
		c := lit[at]
		l := literal{lit: lit, at: at, scheme: scheme}
		if scheme {
			l.fold = 0x20
		}
		by[c] = append(by[c], l)
		if up := c &^ 0x20; scheme && 'A' <= up && up <= 'Z' {
			by[up] = append(by[up], l)
		}
	}
	for _, w := range []string{"bearer", "basic", "token"} {
		add(w, true)
	}
	for _, p := range secretPrefixes {
		add(p, false)
	}
	return &by
}()

// hasLongRun reports whether s holds a run of 32 bytes or more of
// [A-Za-z0-9_+/=-] (longRuns). A run of 32 holds every 32nd byte of s
// somewhere in it: only where that byte is one of the run's does it read
// back, and the next byte it reads is the 32nd from where the run it met
// starts. A message's words are short, so it reads a few bytes of 32.
func hasLongRun(s string) bool {
	for i := 31; i < len(s); {
		if !longBytes[s[i]] {
			i += 32
			continue
		}
		j := i // the first of the run's bytes, down to i-31
		for j > i-31 && longBytes[s[j-1]] {
			j--
		}
		if j == i-31 {
			return true
		}
		i = j + 31
	}
	return false
}

// The classes of bytes mayHoldSecret reads.
const (
	literalByte = 1 << iota // a byte a literal is found from (literalsAt)
	queryByte               // '?', '&' or ';', which start a query's key
	atByte                  // '@', which ends a userinfo
	highByte                // a byte of a rune past ASCII
)

var secretClass = func() (class [256]uint8) {
	for c := range 256 {
		switch {
		case c == '?' || c == '&' || c == ';':
			class[c] |= queryByte
		case c == '@':
			class[c] |= atByte
		case c >= utf8.RuneSelf:
			class[c] |= highByte
		}
		if len(literalsAt[c]) > 0 {
			class[c] |= literalByte
		}
	}
	return class
}()

// longBytes marks isLongByte's bytes.
var longBytes = func() (long [256]bool) {
	for c := range 256 {
		long[c] = isLongByte(byte(c))
	}
	return long
}()

// schemeWordAt is schemeWord's test at s[i].
func schemeWordAt(s string, i int) bool {
	switch s[i] | 0x20 {
	case 'b':
		return wordAt(s, i, "bearer") || wordAt(s, i, "basic")
	case 't':
		return wordAt(s, i, "token")
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

// looksRandom reports a long run that mixes upper case, lower case and
// digits, unless it is a slug of words (wordSlug).
func looksRandom(s string) bool {
	if wordSlug(s) {
		return false
	}
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

// wordSlug reports a run of four or more words joined by hyphens, each of
// at most 16 characters with at most one digit and two capitals, as
// n8n's own marker /*n8n-auto-generated-fromAI-override*/: a random
// token of that length has more of both in its parts.
func wordSlug(s string) bool {
	parts := strings.Split(s, "-")
	if len(parts) < 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 16 {
			return false
		}
		digits, upper := 0, 0
		for i := 0; i < len(p); i++ {
			switch c := p[i]; {
			case '0' <= c && c <= '9':
				digits++
			case 'A' <= c && c <= 'Z':
				upper++
			case 'a' <= c && c <= 'z':
			default:
				return false
			}
		}
		if digits > 1 || upper > 2 {
			return false
		}
	}
	return true
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
	// wfs are set's workflows by source with their byte ranges, sorted by
	// start, indexed on first need: a file that holds many workflows (an
	// array export) finds the few a snippet shows by a binary search, not
	// by measuring every one for every snippet.
	set   *analyze.Set
	wfs   map[*n8nschema.Source]*sourceWorkflows
	texts memo
	// blocks caches the secret spans of line blocks (snippet.go).
	blocks map[blockKey][][2]int
	// scanned counts the bytes snippets ran the secret patterns over: the
	// work a snippet costs, which tests bound.
	scanned int
	// ranged counts the workflow ranges snippets measured and read, which
	// tests bound too.
	ranged int
}

// Redact is the package's Redact, remembered for texts seen before.
func (r *Redactor) Redact(s string) string {
	if r.texts == nil {
		r.texts = memo{}
	}
	return r.texts.Redact(s)
}

// NewRedactor prepares masking for the sources of an analysis set.
// Its maps are made on first need: the two-pass audit makes one per group,
// and most show no snippet.
func NewRedactor(set *analyze.Set) *Redactor {
	return &Redactor{set: set}
}

// structuralSpans returns the secret string values (without their quotes)
// of the workflows of src that overlap [from, to).
func (r *Redactor) structuralSpans(src *n8nschema.Source, from, to int) [][2]int {
	if r.wfs == nil {
		r.wfs = map[*n8nschema.Source]*sourceWorkflows{}
		if r.set != nil {
			for _, w := range r.set.Workflows {
				sw := r.wfs[w.Source]
				if sw == nil {
					sw = &sourceWorkflows{}
					r.wfs[w.Source] = sw
				}
				sw.ws = append(sw.ws, w)
			}
		}
	}
	sw := r.wfs[src]
	if sw == nil {
		return nil
	}
	if sw.spans == nil {
		sw.index()
		r.ranged += len(sw.ws)
	}
	var out [][2]int
	// The workflows that overlap [from, to): those that start before to
	// and end after from; with disjoint ranges the ends are sorted too.
	first := 0
	if sw.disjoint {
		first = sort.Search(len(sw.spans), func(k int) bool { return sw.spans[k][1] > from })
	}
	for i := first; i < len(sw.spans) && sw.spans[i][0] < to; i++ {
		r.ranged++
		if sw.spans[i][1] <= from {
			continue
		}
		out = structuralIn(sw.ws[i], from, to, out)
	}
	return out
}

// sourceWorkflows are the workflows of one source and their byte ranges.
type sourceWorkflows struct {
	ws       []*n8nschema.Workflow
	spans    [][2]int // ws[i]'s range, sorted by start (stable: ws's order breaks ties)
	disjoint bool     // no two ranges overlap (a file's workflows never do)
}

func (sw *sourceWorkflows) index() {
	type ranged struct {
		w    *n8nschema.Workflow
		span [2]int
	}
	rs := make([]ranged, len(sw.ws))
	for i, w := range sw.ws {
		start, end := w.Value.Span()
		rs[i] = ranged{w, [2]int{start, end}}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].span[0] < rs[j].span[0] })
	sw.spans = make([][2]int, len(rs))
	sw.disjoint = true
	for i, x := range rs {
		sw.ws[i], sw.spans[i] = x.w, x.span
		if i > 0 && x.span[0] < sw.spans[i-1][1] {
			sw.disjoint = false
		}
	}
}

// structuralIn appends to out the string values (without their quotes)
// of w that overlap [from, to) and that the JSON structure marks secret:
// a credential key's value, or the "value" beside a "name" that is one.
// Only the members in the range are read.
func structuralIn(w *n8nschema.Workflow, from, to int, out [][2]int) [][2]int {
	src := w.Source
	// Only "value" members and credential keys matter; the others are
	// skipped unread.
	keep := func(k string) bool { return k == "value" || isCredentialKey(k) }
	w.Value.StringMembersIn(from, to, keep, func(m n8nschema.StringMember) {
		secret := false
		if m.Key == "value" {
			secret = m.NameIsString && isCredentialKey(m.Name)
		} else {
			secret = isCredentialKey(m.Key)
		}
		off, rawLen := m.Offset, m.RawLen
		if !secret || off <= 0 || rawLen <= 2 || off+rawLen > len(src.Src) {
			return
		}
		sp := [2]int{off + 1, off + rawLen - 1} // keep the quotes
		if sp[1] > from && sp[0] < to && !isPlaceholder(m.Str) {
			out = append(out, sp)
		}
	})
	return out
}
