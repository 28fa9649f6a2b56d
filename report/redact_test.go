package report

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestRedact(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		// Authorization schemes.
		{`Authorization: Bearer abcdef0123456789`, `Authorization: Bearer [REDACTED]`},
		{`"Basic dXNlcjpwYXNzd29yZA=="`, `"Basic [REDACTED]"`},
		{`token ghx_0123456789abcdefABCD`, `token [REDACTED]`},
		// The shortest texts the scheme and prefix patterns match.
		{`basic abcdefgh`, `basic [REDACTED]`},
		{`basic abcdefg`, `basic abcdefg`},
		{`xoxb-abcdefghij`, `[REDACTED]`},
		{"Bearer\u212a abcdefgh", "Bearer\u212a abcdefgh"},
		{"to\u212aen abcdefghijklmnop", "to\u212aen [REDACTED]"},
		// JSON members, also as escaped JSON inside a string.
		{`{"x-api-key": "k3y-Zq9Wx8Vy7Ut6"}`, `{"x-api-key": "[REDACTED]"}`},
		{`{"access_token": "abcd1234"}`, `{"access_token": "[REDACTED]"}`},
		{`"jsonHeaders": "{\"Authorization\": \"Token abc\", \"X-Trace\": \"1\"}"`, `"jsonHeaders": "{\"Authorization\": \"[REDACTED]\", \"X-Trace\": \"1\"}"`},
		{`{"password": "={{ $env.DB_PASSWORD }}"}`, `{"password": "={{ $env.DB_PASSWORD }}"}`},
		// name/value pairs of header and query parameters.
		{`{"name": "X-API-Key", "value": "k3y-Zq9Wx8Vy7Ut6"}`, `{"name": "X-API-Key", "value": "[REDACTED]"}`},
		{`{"name": "page", "value": "2"}`, `{"name": "page", "value": "2"}`},
		// URLs: query keys and userinfo.
		{`https://api.x.io/v1?api_key=Sk9Xq2Lm&page=2`, `https://api.x.io/v1?api_key=[REDACTED]&page=2`},
		{`https://x.io/a?sig=abc123&key=AIzaSyA`, `https://x.io/a?sig=[REDACTED]&key=[REDACTED]`},
		{`https://ops:Hunter2@db.x.io/`, `https://ops:[REDACTED]@db.x.io/`},
		{`https://ghp_abcdefghijklmnop1234@github.com/o/r.git`, `https://[REDACTED]@github.com/o/r.git`},
		{`mailto:ops@x.io and https://host/path`, `mailto:ops@x.io and https://host/path`},
		// Well-known prefixes and long random strings.
		{`key sk-proj-abcdefghijklmnopqrstu`, `key [REDACTED]`},
		{`xoxb-1234567890-abcdefghij`, `[REDACTED]`},
		{`AKIAIOSFODNN7EXAMPLE`, `[REDACTED]`},
		{`jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlMTIzNA`, `jwt [REDACTED]`},
		{`opaque Xk29vLq8Zr4Tn7Wc1Yb5Hs3Jd6Mf0Pa2`, `opaque [REDACTED]`},
		{`sha 3f786850e387550fdab836ed7e6dc881de23001b`, `sha [REDACTED]`},
		// What must stay: ids, URLs, names, numbers, expressions.
		{`node "OpenAI" (gpt-4o) makes 15 attempts`, `node "OpenAI" (gpt-4o) makes 15 attempts`},
		{`webhook 3f2a6c1e-1111-4aaa-8bbb-123456789abc`, `webhook 3f2a6c1e-1111-4aaa-8bbb-123456789abc`},
		{`https://api.openai.com/v1/chat/completions`, `https://api.openai.com/v1/chat/completions`},
		{`"maxTokens": "1000"`, `"maxTokens": "1000"`},
		{`$('HTTP Request').item.json.orderIdentifier`, `$('HTTP Request').item.json.orderIdentifier`},
		// n8n's marker of a $fromAI() override is words, not a token.
		{`{{ /*n8n-auto-generated-fromAI-override*/ $fromAI('To') }}`, `{{ /*n8n-auto-generated-fromAI-override*/ $fromAI('To') }}`},
		{`opaque Xk29-vLq8-Zr4Tn7-Wc1Yb5-Hs3Jd6Mf0Pa2`, `opaque [REDACTED]`},
	} {
		if got := Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestRedactorMasksSplitPairs(t *testing.T) {
	src := n8nschema.NewSource("w.json", []byte(`{
  "name": "W",
  "nodes": [
    {
      "name": "Call",
      "type": "n8n-nodes-base.httpRequest",
      "parameters": {
        "headerParameters": {"parameters": [
          {
            "name": "X-API-Key",
            "value": "k3y-Zq9Wx8Vy7Ut6"
          },
          {
            "name": "Accept",
            "value": "application/json"
          }
        ]},
        "password": "plain-secret-9",
        "note": "ünïcode before a secret", "token": "tök3n-abc"
      }
    }
  ],
  "connections": {}
}`))
	f := n8nschema.Parse(src)
	r := NewRedactor(&analyze.Set{Workflows: f.Workflows})
	for _, tt := range []struct {
		line int
		want string
	}{
		{11, `            "value": "****************"`},
		{15, `            "value": "application/json"`},
		{18, `        "password": "**************",`},
		// One star per rune keeps the caret's column.
		{19, `        "note": "ünïcode before a secret", "token": "*********"`},
	} {
		if got, _ := r.Snippet(src, n8nschema.Pos{Line: tt.line, Col: 1}); got != tt.want {
			t.Errorf("line %d\n got %q\nwant %q", tt.line, got, tt.want)
		}
	}
}

// The expressions the scanners of secretSpans replace, and secretSpans as
// it was with them: the reference the scanners are checked against.
var (
	memberRE = regexp.MustCompile(`\\?"([A-Za-z0-9_.-]+)\\?"\s*:\s*\\?"([^"\\]+)`)
	pairRE   = regexp.MustCompile(`\\?"name\\?"\s*:\s*\\?"([A-Za-z0-9_.-]+)\\?"\s*,\s*\\?"value\\?"\s*:\s*\\?"([^"\\]+)`)
	longRE   = regexp.MustCompile(`[A-Za-z0-9_+/=-]{32,}`)
	hexRE    = regexp.MustCompile(`\b[0-9a-fA-F]{32,}\b`)
	queryRE  = regexp.MustCompile(`[?&;]([A-Za-z0-9_.-]+)=([^&"'\s#\\<>]+)`)
)

func secretSpansRE(s string) [][2]int {
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

// masked is the set of bytes spans cover.
func masked(n int, spans [][2]int) []bool {
	m := make([]bool, n)
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			m[i] = true
		}
	}
	return m
}

// checkScanners compares secretSpans with the reference on s: it must
// mask every byte the reference masks; it may mask more only where the
// reference's leftmost matches overlap (counted in extra).
func checkScanners(t *testing.T, s string) (extra int) {
	t.Helper()
	got, want := masked(len(s), secretSpans(s)), masked(len(s), secretSpansRE(s))
	for i := range s {
		if want[i] && !got[i] {
			t.Fatalf("secretSpans leaves byte %d unmasked that the expressions mask:\n%q\n got %v\nwant %v", i, s, secretSpans(s), secretSpansRE(s))
		}
		if got[i] && !want[i] {
			extra++
		}
	}
	return extra
}

// TestScannersMatchExpressions: generated texts made of the pieces the
// patterns look for, in every order, mask what the expressions mask.
func TestScannersMatchExpressions(t *testing.T) {
	pieces := []string{`"`, `\"`, `:`, ` `, `,`, "\n", `name`, `value`, `token`, `apiKey`, `X-API-Key`, `page`, `abc`, `={{ $env.K }}`,
		`Bearer `, `?key=`, `&`, `;`, `=`, `?`, `@`, `://`, `https://`, `u:p@`, `x.y+z-`, `-1`, `#`, `sig`, `a1B2c3D4e5F6g7H8`, `Xk29vLq8Zr4Tn7Wc1Yb5Hs3Jd6Mf0Pa2`, `3f786850e387550fdab836ed7e6dc881de23001b`, `g`, `sk-proj-abcdefghijklmnopqrstu`}
	rng := rand.New(rand.NewPCG(1, 2))
	extra, secrets := 0, 0
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(14) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		extra += checkScanners(t, b.String())
		if len(secretSpansRE(b.String())) > 0 {
			secrets++
		}
	}
	if secrets < 5000 {
		t.Errorf("only %d of the generated texts hold a secret; the test says little", secrets)
	}
	t.Logf("%d texts with secrets; bytes masked beyond the expressions: %d", secrets, extra)
}

// TestScannersOnCorpus: over real workflows (every 16th file: the
// expressions are slow), as they are and as JSON held in a string, the
// scanners mask exactly what the expressions mask.
func TestScannersOnCorpus(t *testing.T) {
	for i, f := range corpustest.Files(t) {
		if i%16 != 0 {
			continue
		}
		src := string(f.Source.Src)
		quoted, _ := json.Marshal(src)
		for _, s := range []string{src, string(quoted)} {
			for i := 0; i < len(s); i += 4096 {
				if n := checkScanners(t, s[i:min(len(s), i+4096)]); n > 0 {
					t.Errorf("%s: %d bytes masked beyond the expressions", f.Source.Name, n)
				}
			}
		}
	}
}

// isCredentialKeyFolded looks only at the keys and suffixes ending in the
// key's last byte: it must say what a test of every one says.
func TestIsCredentialKeyFoldedByLastByte(t *testing.T) {
	reference := func(k string) bool {
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
	keys := []string{"", "y", "n", "name", "type", "value", "parameters", "xapikey", "accesstoken", "tokens", "keys", "monkey", "dbpassword", "pass"}
	for _, w := range append(slices.Clone(credentialKeys), credentialSuffixes...) {
		keys = append(keys, w, "x"+w, w+"x", w[1:], w[:len(w)-1])
	}
	for _, k := range keys {
		if got, want := isCredentialKeyFolded(k), reference(k); got != want {
			t.Errorf("isCredentialKeyFolded(%q) = %v, want %v", k, got, want)
		}
	}
}

// mayHoldSecretByClauses is mayHoldSecret as its clauses read, one pass
// each: the reference the one-pass test must agree with.
func mayHoldSecretByClauses(s string) bool {
	run, long, equals := 0, false, false
	for i := 0; i < len(s); i++ {
		if isLongByte(s[i]) {
			run++
			long = long || run >= 32
			equals = equals || s[i] == '='
		} else {
			run = 0
		}
	}
	query := strings.ContainsAny(s, "?&;")
	high := strings.IndexFunc(s, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0
	return quoteColon(s) || long || query && equals || strings.Contains(s, "@") && strings.Contains(s, "://") ||
		len(s) >= 14 && (high && foldsToASCII(s) || schemeWordByBytes(s) || hasSecretPrefixByBytes(s))
}

// schemeWordByBytes is schemeWord tried at every byte.
func schemeWordByBytes(s string) bool {
	for i := range len(s) {
		if schemeWordAt(s, i) {
			return true
		}
	}
	return false
}

// hasSecretPrefixByBytes is hasSecretPrefix tried at every byte.
func hasSecretPrefixByBytes(s string) bool {
	for i := range len(s) {
		for _, p := range secretPrefixes {
			if strings.HasPrefix(s[i:], p) {
				return true
			}
		}
	}
	return false
}

// TestLiteralsFromSeldomBytes: looking for the scheme words and secret
// prefixes only where the byte each is found from stands finds what a
// try at every byte finds, in every case of a scheme word and at every
// place in the eight-byte words mayHoldSecret reads.
func TestLiteralsFromSeldomBytes(t *testing.T) {
	var lits []string
	for _, w := range []string{"bearer", "basic", "token"} {
		lits = append(lits, w+" ", strings.ToUpper(w)+"\t", w[:1]+strings.ToUpper(w[1:])+"\n", strings.ToUpper(w[:3])+w[3:]+" ", w, w+"s ")
	}
	for _, p := range secretPrefixes {
		lits = append(lits, p, p[:len(p)-1], p[1:], strings.ToLower(p), strings.ToUpper(p))
	}
	fills := []string{"", ".", "a", "ab ", "x", "-", "_", "k", "K", "B", "b", "J", "z", "t", "to", "e", "ey", "gh", "A", " "}
	rng := rand.New(rand.NewPCG(7, 8))
	check := func(s string) {
		t.Helper()
		if got, want := hasLiteral(s, true), schemeWordByBytes(s); got != want {
			t.Fatalf("hasLiteral(%q, true) = %v, a try at every byte says %v", s, got, want)
		}
		if got, want := hasLiteral(s, false), hasSecretPrefixByBytes(s); got != want {
			t.Fatalf("hasLiteral(%q, false) = %v, a try at every byte says %v", s, got, want)
		}
		if got, want := mayHoldSecret(s), mayHoldSecretByClauses(s); got != want {
			t.Fatalf("mayHoldSecret(%q) = %v, its clauses say %v", s, got, want)
		}
	}
	for _, l := range lits {
		for pad := range 17 {
			check(strings.Repeat(".", pad) + l + strings.Repeat(".", 16-pad))
			check(strings.Repeat("k", pad) + l)
		}
	}
	for range 50000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			if rng.IntN(2) == 0 {
				b.WriteString(lits[rng.IntN(len(lits))])
			} else {
				b.WriteString(fills[rng.IntN(len(fills))])
			}
		}
		check(b.String())
	}
}

// TestMayHoldSecretOnePass: the one pass of mayHoldSecret says what its
// clauses say, on generated texts around every length threshold and on
// the corpus's strings.
func TestMayHoldSecretOnePass(t *testing.T) {
	pieces := []string{`"`, `:`, ` `, "\t", `a`, `Z`, `=`, `?`, `&`, `;`, `@`, `://`, `bearer`, `Basic`, `TOKEN`, `b`, `t`, `sk-`, `sk_`, `rk_`, `xox`,
		`ghp_`, `github_pat_`, `glpat-`, `AKIA`, `AIza`, `eyJ`, `-----BEGIN`, `-`, "\u212a", "\u017f", `é`, `0123456789abcdef`}
	rng := rand.New(rand.NewPCG(3, 4))
	trues := 0
	for range 50000 {
		var b strings.Builder
		for range 1 + rng.IntN(10) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := mayHoldSecret(s), mayHoldSecretByClauses(s); got != want {
			t.Fatalf("mayHoldSecret(%q) = %v, its clauses say %v", s, got, want)
		} else if got {
			trues++
		}
	}
	if trues < 10000 || trues > 40000 {
		t.Errorf("%d of 50,000 texts may hold a secret: the texts do not exercise both answers", trues)
	}
	// Every prefix, even one added later that the pieces above lack.
	for _, p := range secretPrefixes {
		for _, s := range []string{p + strings.Repeat(".", 14), "..." + p + "..........."} {
			if !mayHoldSecret(s) || !mayHoldSecretByClauses(s) {
				t.Errorf("mayHoldSecret(%q) = %v, its clauses say %v; want true", s, mayHoldSecret(s), mayHoldSecretByClauses(s))
			}
		}
	}
	for i, f := range corpustest.Files(t) {
		if i%8 != 0 {
			continue
		}
		for _, line := range strings.Split(string(f.Source.Src), "\n") {
			if got, want := mayHoldSecret(line), mayHoldSecretByClauses(line); got != want {
				t.Fatalf("%s: mayHoldSecret(%q) = %v, its clauses say %v", f.Source.Name, line, got, want)
			}
		}
	}
}

// TestSchemeSpansAsExpression: schemeSpans gives exactly the groups of
// schemeRE's matches, in order, on texts dense in scheme words, their
// neighbours and credential runs of every length.
func TestSchemeSpansAsExpression(t *testing.T) {
	pieces := []string{"Bearer ", "bearer", "BASIC\t", "basic ", "Token ", "token\n", "tokens ", "xtoken ", "-token ", "_basic ", "é",
		" ", "  ", "\r\n", "abcdefgh", "abc", "0123456789abcdef", "a.b_c~d+e/f=g-h", "=", "-", ":", "\"", ",", "\u212a", "\u017f"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 50000 {
		var b strings.Builder
		for range 1 + rng.IntN(10) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		var got, want [][2]int
		schemeSpans(s, func(a, b int) {
			if a >= 0 {
				got = append(got, [2]int{a, b})
			}
		})
		for _, m := range schemeRE.FindAllStringSubmatchIndex(s, -1) {
			for k := 2; k < 6; k += 2 {
				if m[k] >= 0 {
					want = append(want, [2]int{m[k], m[k+1]})
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: schemeSpans %v, schemeRE %v", s, got, want)
		}
	}
}

// TestHasLongRun: hasLongRun, which reads every 32nd byte first, finds
// exactly the runs of 32 long bytes or more a byte-by-byte count finds,
// at every offset and around the threshold (runs of 30 to 34 beside
// shorter ones, one non-long byte apart or more).
func TestHasLongRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	count := func(s string) bool {
		run := 0
		for i := 0; i < len(s); i++ {
			if run = run + 1; !isLongByte(s[i]) {
				run = 0
			}
			if run >= 32 {
				return true
			}
		}
		return false
	}
	trues := 0
	for range 50000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(strings.Repeat(" .,:é"[rng.IntN(5):][:1], 1+rng.IntN(3)))
			n := rng.IntN(35)
			if rng.IntN(2) == 0 {
				n = 30 + rng.IntN(5)
			}
			for range n {
				b.WriteByte("aZ09_+/=-"[rng.IntN(9)])
			}
		}
		s := b.String()
		if got, want := hasLongRun(s), count(s); got != want {
			t.Fatalf("hasLongRun(%q) = %v, want %v", s, got, want)
		} else if got {
			trues++
		}
	}
	if trues < 5000 || trues > 45000 {
		t.Errorf("%d of 50,000 texts hold a long run: the texts do not exercise both answers", trues)
	}
}

// TestIsCredentialKeyByEnd: the test of a key's last two bytes before the
// fold answers as the fold of the whole key, on the credential keys and
// suffixes, cut, cased, with separators, runes past ASCII (the Kelvin
// sign lowers to k) and n8n's common member names.
func TestIsCredentialKeyByEnd(t *testing.T) {
	reference := func(k string) bool { return isCredentialKeyFolded(strings.ToLower(keySeparators.Replace(k))) }
	words := []string{"", "a", "Y", "id", "name", "type", "value", "parameters", "position", "typeVersion", "webhookId", "credentials", "@", "[", "é", "\u212a", "\u212aey", "to\u212aen", "sessionI", "d"}
	for _, w := range append(slices.Clone(credentialKeys), credentialSuffixes...) {
		words = append(words, w, strings.ToUpper(w), w[:len(w)-1], w[1:], w[:len(w)-2]+"_"+w[len(w)-2:], w[:len(w)-1]+"-"+w[len(w)-1:]+"..")
	}
	seps := []string{"", "-", "_", ".", "x-", "X_", "__"}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 100000 {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			b.WriteString(seps[rng.IntN(len(seps))])
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteString(seps[rng.IntN(len(seps))])
		k := b.String()
		if got, want := isCredentialKey(k), reference(k); got != want {
			t.Fatalf("isCredentialKey(%q) = %v, the fold of the whole key says %v", k, got, want)
		}
	}
	if !isCredentialKey("x-" + strings.Repeat("a", 60) + "-api-key") {
		t.Error("a key longer than the buffer is not found")
	}
}
