package lazyregexp

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestSameAsRegexp: each method gives what regexp's does.
func TestSameAsRegexp(t *testing.T) {
	const expr, s = `(\w)(\d+)`, "a1 b22 c333"
	r, want := New(expr), regexp.MustCompile(expr)
	if r.String() != want.String() || r.MatchString(s) != want.MatchString(s) ||
		r.FindString(s) != want.FindString(s) ||
		!slices.Equal(r.FindStringIndex(s), want.FindStringIndex(s)) ||
		!slices.Equal(r.FindStringSubmatch(s), want.FindStringSubmatch(s)) ||
		!slices.Equal(r.FindStringSubmatchIndex(s), want.FindStringSubmatchIndex(s)) ||
		!slices.Equal(r.FindAllString(s, -1), want.FindAllString(s, -1)) ||
		len(r.FindAllStringIndex(s, -1)) != 3 || len(r.FindAllStringSubmatch(s, 2)) != 2 ||
		len(r.FindAllStringSubmatchIndex(s, -1)) != 3 ||
		r.ReplaceAllString(s, "$2") != want.ReplaceAllString(s, "$2") ||
		r.ReplaceAllStringFunc(s, func(string) string { return "x" }) != "x x x" ||
		string(r.ReplaceAll([]byte(s), []byte("$1"))) != "a b c" ||
		string(r.ReplaceAllFunc([]byte(s), func([]byte) []byte { return nil })) != "  " {
		t.Errorf("%s differs from regexp's", expr)
	}
}

// TestCompiledWhenNeeded: a pattern is compiled only once a string holds
// its literal, and then matches as regexp's does.
func TestCompiledWhenNeeded(t *testing.T) {
	r := New(`(?i)headers?\d`)
	if r.MatchString("no literal here") || r.FindString("none") != "" || r.rx != nil {
		t.Fatalf("compiled for strings without its literal (%v)", r.needs)
	}
	if !r.MatchString("x HEADER7") || r.rx == nil {
		t.Error("no match where the literal is")
	}
	if n := New(`[a-z]+\d`); !n.MatchString("ab1") || n.rx == nil {
		t.Error("a pattern without a literal does not match")
	}
}

// TestCompileWhileStops: CompileWhile compiles until told to stop, and
// never a rare pattern.
func TestCompileWhileStops(t *testing.T) {
	mu.Lock()
	before := all
	all = nil
	mu.Unlock()
	defer func() { mu.Lock(); all = before; mu.Unlock() }()
	a, rare, b := New(`a+`), NewRare(`r+`), New(`b+`)
	asked := 0
	CompileWhile(func() bool { asked++; return asked <= 3 })
	if a.rx == nil || rare.rx != nil || b.rx == nil {
		t.Errorf("compiled a %v, rare %v, b %v; want a and b", a.rx != nil, rare.rx != nil, b.rx != nil)
	}
	c := New(`c+`)
	CompileWhile(func() bool { return false })
	if c.rx != nil {
		t.Error("compiled after being told to stop")
	}
}

// TestCheckFindsBadPattern: Check reports a bad pattern, rare or not,
// before anything uses it.
func TestCheckFindsBadPattern(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatalf("before: %v", err)
	}
	for _, make := range []func(string) *Regexp{New, NewRare} {
		mu.Lock()
		before := all
		mu.Unlock()
		make(`(`)
		if Check() == nil {
			t.Error("Check passed a bad pattern")
		}
		mu.Lock()
		all = before
		mu.Unlock()
	}
}

// TestRequired: the literal a pattern looks for first is one every match
// holds, and none when a branch may skip it; one matched without case is
// searched from its least common letter (at).
func TestRequired(t *testing.T) {
	for _, c := range []struct {
		expr  string
		needs []need
	}{
		{`(?i)headers[\w.\[\]'"]*(authorization|token)`, []need{{s: "header", fold: true, at: 3}}},
		{`\bbody\.message\.(toolCalls|toolCallList)\b`, []need{{s: "body.message.", fold: false}}},
		{`(?i)(^|[^a-z])\$?drafts?([^a-z]|$)`, []need{{s: "draft", fold: true, at: 3}}},
		{`(?i)\bkey\b`, []need{{s: "ey", fold: true, at: 1}}}, // k matches the Kelvin sign too
		{`(?i)\bmask\b`, []need{{s: "ma", fold: true}}},       // s matches the long s
		{`(ab)+c`, []need{{s: "ab", fold: false}}},            // a repetition of at least one holds it
		{`(abc)?d`, []need{{s: "d", fold: false}}},            // an optional group holds nothing sure
		{`(abcd){0,2}x`, []need{{s: "x", fold: false}}},       // nor a repetition of none
		{`abc|defg`, []need{{s: "abc", fold: false}, {s: "defg", fold: false}}},
		{`x(abc|defg)`, []need{{s: "abc", fold: false}, {s: "defg", fold: false}}}, // the longer shortest
		{`(abc|)d`, []need{{s: "d", fold: false}}},                                 // a branch may hold nothing
		{`(?i)café`, []need{{s: "caf", fold: true, at: 2}}},                        // ASCII only
		{`[a-z]+`, nil}, // no literal
		{`^\{\{\s*\$json\.(\w+)\s*\}\}$`, []need{{s: "$json.", fold: false}}},
	} {
		r := New(c.expr)
		r.absent("")
		if !slices.Equal(r.needs, c.needs) {
			t.Errorf("%s: needs %v, want %v", c.expr, r.needs, c.needs)
		}
	}
}

// TestPrefilterAsRegexp: with the literal looked for first, every method
// answers as regexp's does, on strings that hold the literal in any case,
// in part, or next to the runes that fold to k and s.
func TestPrefilterAsRegexp(t *testing.T) {
	exprs := []string{
		`(?i)headers[\w.\[\]'"]*(authorization|x-api-key|api[_-]?key|token|secret|signature|x-hub|x-auth)`,
		`(?i)(^|[^a-z])\$?drafts?([^a-z]|$)`,
		`(?i)\b(chat|from|sender|token|user(_?id)?)\b`,
		`body(?:["']\s*\])?((?:\s*(?:\.\s*\w+|\[\s*["']\w+["']\s*\]))+)`,
		`\bbody\.call\.call_id\b`,
		`(?i)\bkeys?\b`,
		`(?i)/(logs?|audit|activit(y|ies)|history)(/|$)`,
		`(ab)+c`,
		`(?i)(^|[^a-z])(log|logs|logging|logger|audit|activity|history|tracking|tracker|journal)([^a-z]|$)`,
		`(?i)/(charges?|payments?|orders?|bookings?|tickets?|opportunit(y|ies))(/|$)`,
		`(?i)^(to|to_?number|chat_?id|recipient|remote_?jid|reply_?token)$`,
	}
	pieces := []string{"", "LOG", "logger", "Audit", "histor", "HISTORY", "tracker", "journal", "/charges", "/PAYMENT", "/tic\u212aet",
		"bookings/", "opportunities", "to", "TO_NUMBER", "chat_id", "remote_jid", "reply_token", "headers", "HEADERS", "HeAdErS", "header", "eaders", ".authorization", "[\"x-api-key\"]",
		"draft", "DRAFTS", "$draft", "dra", "ft", "body", ".call", ".call_id", "body.call.call_id", "token",
		"\u212aey", "key", "KEY", "\u017fender", "sender", "/LOGS/", "/history", "activities", "abab", "c", "x",
		" ", "\n", "_", "é", "\xff", "{", "}"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, expr := range exprs {
		r, want := New(expr), regexp.MustCompile(expr)
		for range 3000 {
			var b strings.Builder
			for range rng.IntN(6) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			s := b.String()
			if r.MatchString(s) != want.MatchString(s) ||
				!slices.Equal(r.FindStringSubmatch(s), want.FindStringSubmatch(s)) ||
				len(r.FindAllStringSubmatchIndex(s, -1)) != len(want.FindAllStringSubmatchIndex(s, -1)) ||
				r.ReplaceAllString(s, "<$0>") != want.ReplaceAllString(s, "<$0>") {
				t.Fatalf("%s on %q differs from regexp's", expr, s)
			}
		}
	}
}

// TestLead: a pattern whose every match starts with \b and a literal
// (one of a group's branches, matched with or without case) whose first
// byte is a word's, is searched from where the literals are.
func TestLead(t *testing.T) {
	for expr, want := range map[string][]need{
		`\bbody\.message\.(toolCalls)\b`:  {{s: "body.message."}},
		`\breturn\b\s*(\[\s*)?`:           {{s: "return"}},
		`(?i)\bkey\b`:                     {{s: "key", fold: true, at: 0}}, // the Kelvin sign too: led reads it
		`(?i)\bSay\s+so\b`:                {{s: "say", fold: true, at: 2}},
		`\b\$json`:                        nil, // \b reads the byte before: no word's
		`\bfoo|bar`:                       nil, // a branch starts otherwise
		`\b(foo|bar)`:                     {{s: "foo"}, {s: "bar"}},
		`\b(?:return|try)\b`:              {{s: "return"}, {s: "try"}},
		`\bfoo|\bbar\d`:                   {{s: "foo"}, {s: "bar"}},
		`(?i)\b(?:do\s+not|don'?t|never)`: {{s: "do", fold: true}, {s: "never", fold: true, at: 2}},
		`\b(its (?:a|b) )x`:               {{s: "its "}},
		`\b((?i)its)`:                     {{s: "its", fold: true, at: 2}},
		`\b(?:café|x)`:                    {{s: "caf"}, {s: "x"}}, // ASCII only
		`\b(?:éa|x)`:                      nil,
		`\b(?:x?foo|bar)`:                 nil, // a branch may start with either
		`\b(?:foo|)bar`:                   nil,
		`\b(?:foo|[ab]c)`:                 nil,
		`x\bfoo`:                          nil,
		`\b`:                              nil,
	} {
		r := New(expr)
		r.absent("")
		if !slices.Equal(r.leads, want) {
			t.Errorf("%s: leads %v, want %v", expr, r.leads, want)
		}
	}
}

// TestFoldToASCII: the only runes outside ASCII that match an ASCII byte
// under (?i) are the Kelvin sign and the long s, which led looks for
// before it searches a text from leads without case.
func TestFoldToASCII(t *testing.T) {
	for c := rune(0); c < utf8.RuneSelf; c++ {
		for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
			if f >= utf8.RuneSelf && f != '\u212a' && f != '\u017f' {
				t.Errorf("%q folds to %q", c, f)
			}
		}
	}
}

// TestLeadAsRegexp: a pattern with a lead answers every method as regexp's
// does, on strings that hold its literal inside and at the start of words,
// beside runes of several bytes, and matches that abut.
func TestLeadAsRegexp(t *testing.T) {
	exprs := []string{
		`\bbody(?:\.([\p{L}_][\p{L}\p{N}_]*)|\[\s*["']([^"']+)["']\s*\])`,
		`\bjson\s*(?:\.\s*body|\[\s*["']body["']\s*\])\s*(?:\.\s*([\p{L}_][\p{L}\p{N}_]*)|\[\s*["']([^"']+)["']\s*\])`,
		`\breturn\b\s*(\[\s*)?(\{)?`,
		`\btry\s*\{[\s\S]*\}\s*catch\b`,
		`\bbody\b(?m:^)?`,
		`\bab(ab)*`,
		`\b(its (?:model|tool) )"[^"]*"`,
		`\b(?:return|try)\b`,
		`\bbody\b|\b(?:json|key)\.(\w*)`,
		`(?i)\bkeys?\b`,
		`(?i)\b(?:return|tr(y))\s*\{?`,
		`(?i)\b(?:do\s+not|don'?t|never|must\s+not)\s+(?:re-?try|try\s+again)\b|\bstop\s+(?:now|all\b)`,
		`(?i)\b(?:its|(?-i:Body))\b`,
	}
	pieces := []string{"", "its ", "bits ", "model ", "tool ", "body", "xbody", "_body", "1body", "ébody", "body.", ".email", ".é", "[", "]", `"`, "'", "key", "json", "json.body",
		"return", "returns", "try", "catch", "{", "}", "ab", "aab", " ", "\n", ".", "x", "é", "\xff", "_", "9",
		"KEY", "\u212aey", "\u212a", "\u017f", "RETURN", "Try", "tr\u017f", "do not", "DON'T", "dont", "never", "must not", "\u017ftop", "stop", "STOP", "all", "now",
		"retry", "re-try", "try again", "ITS", "Its", "BODY", "Body"}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, expr := range exprs {
		r, want := New(expr), regexp.MustCompile(expr)
		if r.absent(""); r.leads == nil {
			t.Fatalf("%s: no lead", expr)
		}
		for k := range 20000 {
			var b strings.Builder
			// One string in eight is long: more places to try than
			// next tries before it searches the rest at once.
			for range rng.IntN([]int{10, 10, 10, 10, 10, 10, 10, 120}[k%8]) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			s, n := b.String(), rng.IntN(4)-1
			if r.MatchString(s) != want.MatchString(s) ||
				r.FindString(s) != want.FindString(s) ||
				!slices.Equal(r.FindStringIndex(s), want.FindStringIndex(s)) ||
				!slices.Equal(r.FindStringSubmatch(s), want.FindStringSubmatch(s)) ||
				!slices.Equal(r.FindStringSubmatchIndex(s), want.FindStringSubmatchIndex(s)) ||
				!slices.Equal(r.FindAllString(s, n), want.FindAllString(s, n)) ||
				!slices.EqualFunc(r.FindAllStringIndex(s, n), want.FindAllStringIndex(s, n), slices.Equal) ||
				!slices.EqualFunc(r.FindAllStringSubmatch(s, n), want.FindAllStringSubmatch(s, n), slices.Equal) ||
				!slices.EqualFunc(r.FindAllStringSubmatchIndex(s, n), want.FindAllStringSubmatchIndex(s, n), slices.Equal) ||
				r.ReplaceAllString(s, `<$1|$0>`) != want.ReplaceAllString(s, `<$1|$0>`) ||
				r.ReplaceAllString(s, "x") != want.ReplaceAllString(s, "x") ||
				r.ReplaceAllStringFunc(s, strings.ToUpper) != want.ReplaceAllStringFunc(s, strings.ToUpper) {
				t.Fatalf("%s on %q (n %d) differs from regexp's", expr, s, n)
			}
		}
	}
}

// TestLeadPastTries: after maxTries places that hold no match, next
// searches the rest of the text at once and finds what regexp finds; the
// places count across the matches of one text, so a text of many matches
// is read at most maxTries times more than one search reads it.
func TestLeadPastTries(t *testing.T) {
	const expr = `\bbody\.(\w+)`
	r, want := New(expr), regexp.MustCompile(expr)
	for _, n := range []int{0, maxTries - 1, maxTries, maxTries + 1, 3 * maxTries} {
		s := strings.Repeat("body.- ", n) + "body.email body.name"
		if got, w := r.FindAllStringSubmatchIndex(s, -1), want.FindAllStringSubmatchIndex(s, -1); !slices.EqualFunc(got, w, slices.Equal) {
			t.Errorf("%d places without a match first: %v, want %v", n, got, w)
		}
		if got, w := r.FindStringIndex(s), want.FindStringIndex(s); !slices.Equal(got, w) {
			t.Errorf("%d places without a match first: first %v, want %v", n, got, w)
		}
	}
	s := strings.Repeat(strings.Repeat("body.- ", 3*maxTries)+"body.email ", 5)
	var at place
	found := 0
	for i := 0; ; found++ {
		m := r.next(s, i, false, &at)
		if m == nil {
			break
		}
		i = m[1]
	}
	// maxTries places without a match, the search that finds the first
	// match, then one search for each later match (after the last, no
	// place is left to try).
	if want := maxTries + found; found != 5 || at.tries != want {
		t.Errorf("%d matches after %d places tried; want 5 after %d", found, at.tries, want)
	}
}
