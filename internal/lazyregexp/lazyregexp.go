// Package lazyregexp is a package-level regexp compiled when first needed.
// stormcheck's packages declare some two hundred patterns; compiling them
// all in package initialisation took a third of the start of a run, on
// one core, before anything else could begin. An audit compiles them on
// the other core while it lists its inputs, and stops when the listing
// does (CompileWhile): an audit of one file no longer waits for all of
// them, most of which it never needs.
//
// A pattern that holds a literal (`(?i)headers…` holds "header") looks
// for it first, with a byte search: most strings an audit tests hold no
// match, and Go's regexp scans the whole string for one. Such a pattern
// not compiled yet is compiled only when a string holds its literal.
//
// Go's regexp skips ahead to a pattern's literal prefix, but not past a
// \b before it (`\bbody\.(\w+)`), nor to one of several (`\b(?:return|try)`),
// nor to one without case: such a pattern is tried at every byte. It is
// tried anchored at each place one of its literals starts a word (next).
package lazyregexp

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/internal/ascii"
)

// Regexp is a regexp.Regexp compiled when first needed, with the methods
// stormcheck calls.
type Regexp struct {
	expr string
	rare bool
	// needs are literals one of which every match holds (none when
	// nothing is known), read from the pattern when first asked.
	needsOnce sync.Once
	needs     []need
	// leads are the literals after the \b one of which every match
	// starts with (leads), read with needs; fold when one is matched
	// without case.
	leads []need
	fold  bool
	once  sync.Once
	rx    *regexp.Regexp
	// at is the pattern anchored at the start, ^(?:expr), for a pattern
	// with leads: tried at each place a lead starts a word (next),
	// compiled when first tried (anchored).
	atOnce sync.Once
	at     *regexp.Regexp
}

// A need is a literal, lowercased when fold (matched without case); a
// fold one is searched from its byte at (ascii.Rarest): from its first,
// a common letter stopped the search every few bytes of English text.
type need struct {
	s    string
	fold bool
	at   int
}

var (
	mu  sync.Mutex
	all []*Regexp
)

// New returns the pattern expr, to be compiled when first needed or by
// CompileWhile; an invalid pattern panics then, as regexp.MustCompile does
// (Check finds it in a test first).
func New(expr string) *Regexp { return add(&Regexp{expr: expr}) }

// NewRare is New for a pattern only some runs use (error messages, one
// command): CompileWhile leaves it.
func NewRare(expr string) *Regexp { return add(&Regexp{expr: expr, rare: true}) }

func add(r *Regexp) *Regexp {
	mu.Lock()
	all = append(all, r)
	mu.Unlock()
	return r
}

// Check compiles every pattern made so far, rare ones too, and returns the
// first that is not valid: a test of a package that links them all calls
// it, so that a bad pattern fails the tests, not a later run.
func Check() error {
	mu.Lock()
	rs := all
	mu.Unlock()
	for _, r := range rs {
		if _, err := regexp.Compile(r.expr); err != nil {
			return err
		}
	}
	return nil
}

// CompileWhile compiles the patterns New made so far, one by one, while
// more reports true: for a goroutine to run while the program does
// something else, and to stop when that is done.
func CompileWhile(more func() bool) {
	mu.Lock()
	rs := all
	mu.Unlock()
	for _, r := range rs {
		if !more() {
			return
		}
		if !r.rare {
			r.readNeeds()
			r.re()
		}
	}
}

func (r *Regexp) re() *regexp.Regexp {
	r.once.Do(func() {
		r.rx = regexp.MustCompile(r.expr)
		r.readNeeds()
	})
	return r.rx
}

// anchored returns at, compiled when first asked: most patterns with
// leads run on few strings, and many of those hold no lead at a word's
// start.
func (r *Regexp) anchored() *regexp.Regexp {
	r.atOnce.Do(func() { r.at = regexp.MustCompile("^(?:" + r.expr + ")") })
	return r.at
}

func (r *Regexp) readNeeds() {
	r.needsOnce.Do(func() {
		if re, err := syntax.Parse(r.expr, syntax.Perl); err == nil {
			r.needs = required(re)
			if ls, ok := leads(re, false); ok && len(ls) <= maxNeeds {
				r.leads = ls
			}
			for _, ns := range [][]need{r.needs, r.leads} {
				for i := range ns {
					if ns[i].fold {
						ns[i].at = ascii.Rarest(ns[i].s)
					}
				}
			}
			r.fold = slices.ContainsFunc(r.leads, func(n need) bool { return n.fold })
		}
	})
}

// leads returns the literals one of which every match of re starts
// with, right after a \b (afterB: one was read before re): re's first
// literal after the \b it starts with (a group's, a concatenation's first
// part's), each branch's for an alternation. Only a literal's first ASCII
// runes are taken, lowercased when it is matched without case, and its
// first byte must be a word's, so that \b before it reads only the byte
// before. ok is false when a match may start otherwise.
func leads(re *syntax.Regexp, afterB bool) (ls []need, ok bool) {
	switch re.Op {
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return nil, false
		}
		if re.Sub[0].Op == syntax.OpWordBoundary {
			if len(re.Sub) < 2 {
				return nil, false
			}
			return leads(re.Sub[1], true)
		}
		return leads(re.Sub[0], afterB)
	case syntax.OpCapture:
		return leads(re.Sub[0], afterB)
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			l, ok := leads(sub, afterB)
			if !ok {
				return nil, false
			}
			ls = append(ls, l...)
		}
		return ls, true
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		var b []byte
		for _, c := range re.Rune {
			if c >= utf8.RuneSelf {
				break
			}
			if fold {
				c = rune(lower(byte(c)))
			}
			b = append(b, byte(c))
		}
		if !afterB || len(b) == 0 || !isWordByte(b[0]) {
			return nil, false
		}
		return []need{{s: string(b), fold: fold}}, true
	}
	return nil, false
}

// led reports whether s is searched from the places a lead starts a word
// (next): the pattern has leads, and when one is matched without case s
// holds no rune that folds to an ASCII letter (the Kelvin sign, the long
// s), which a search of ASCII letters in either case would miss.
func (r *Regexp) led(s string) bool {
	return r.leads != nil && (!r.fold || !strings.Contains(s, "\u212a") && !strings.Contains(s, "\u017f"))
}

// A place is where a search of s from its leads stands: tries counts the
// places tried in s, across the calls of one search (all), and next[k]
// is one more than where lead k next starts at or after the last place
// looked from (len(s)+2 when nowhere; 0 before it is looked for).
type place struct {
	tries int
	next  [maxNeeds]int
}

// start returns the first place at or after i where a lead starts, -1
// when there is none.
func (r *Regexp) start(s string, i int, at *place) int {
	p := len(s) + 2
	for k, l := range r.leads {
		if at.next[k] <= i {
			var j int
			if l.fold {
				j = ascii.IndexFold(s[i:], l.s, l.at)
			} else {
				j = strings.Index(s[i:], l.s)
			}
			at.next[k] = len(s) + 2
			if j >= 0 {
				at.next[k] = i + j + 1
			}
		}
		p = min(p, at.next[k])
	}
	if p > len(s)+1 {
		return -1
	}
	return p - 1
}

// next returns the first match at or after i of a pattern s is searched
// from its leads (led), its submatches' indices when sub is set (else its
// own). Every match starts where a lead starts a word, so the pattern
// anchored there (at) is tried at each such place p in turn: regexp
// cannot skip to a literal behind \b, and a search of s[p:] that fails at
// p went on byte by byte to the end. s[p:] holds every match s holds
// from p: its \b at p reads no word byte before, as s's does. Past
// maxTries places tried (at.tries), each call searches s[p:] at once, so
// a pattern whose tries read far (a [\s\S]* in it) reads s at most
// maxTries times more than one search does.
func (r *Regexp) next(s string, i int, sub bool, at *place) []int {
	for {
		p := r.start(s, i, at)
		if p < 0 {
			return nil
		}
		if p > 0 && isWordByte(s[p-1]) {
			i = p + 1
			continue
		}
		rx := r.anchored()
		if at.tries++; at.tries > maxTries {
			rx = r.rx
		}
		var m []int
		if sub {
			m = rx.FindStringSubmatchIndex(s[p:])
		} else {
			m = rx.FindStringIndex(s[p:])
		}
		if m == nil && rx == r.at {
			i = p + 1
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += p
			}
		}
		return m
	}
}

// maxTries is how many places of one text next tries the anchored
// pattern at before it searches the rest at once.
const maxTries = 16

// all returns up to n (all when n < 0) successive matches of a pattern
// s is searched from its leads, as next gives them: each begins where the
// last ended, and none is empty.
func (r *Regexp) all(s string, n int, sub bool) [][]int {
	var out [][]int
	var at place
	for i := 0; n < 0 || len(out) < n; {
		m := r.next(s, i, sub, &at)
		if m == nil {
			break
		}
		out = append(out, m)
		i = m[1]
	}
	return out
}

// isWordByte reports an ASCII word character, what \b looks for; a byte
// of a longer rune is none, as the rune is not.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// strs returns the texts of submatch indices m of s.
func strs(s string, m []int) []string {
	if m == nil {
		return nil
	}
	out := make([]string, len(m)/2)
	for k := range out {
		if m[2*k] >= 0 {
			out[k] = s[m[2*k]:m[2*k+1]]
		}
	}
	return out
}

// absent reports that s holds no match: it lacks each of the pattern's
// needs.
func (r *Regexp) absent(s string) bool {
	r.readNeeds()
	if len(r.needs) == 0 {
		return false
	}
	for _, n := range r.needs {
		if n.fold && ascii.IndexFold(s, n.s, n.at) >= 0 || !n.fold && strings.Contains(s, n.s) {
			return false
		}
	}
	return true
}

func (r *Regexp) String() string { return r.expr }

func (r *Regexp) MatchString(s string) bool {
	if r.absent(s) {
		return false
	}
	if rx := r.re(); !r.led(s) {
		return rx.MatchString(s)
	}
	return r.next(s, 0, false, new(place)) != nil
}

func (r *Regexp) FindString(s string) string {
	if r.absent(s) {
		return ""
	}
	if rx := r.re(); !r.led(s) {
		return rx.FindString(s)
	}
	if m := r.next(s, 0, false, new(place)); m != nil {
		return s[m[0]:m[1]]
	}
	return ""
}

func (r *Regexp) FindStringIndex(s string) []int {
	if r.absent(s) {
		return nil
	}
	if rx := r.re(); !r.led(s) {
		return rx.FindStringIndex(s)
	}
	return r.next(s, 0, false, new(place))
}

func (r *Regexp) FindStringSubmatch(s string) []string {
	if r.absent(s) {
		return nil
	}
	if rx := r.re(); !r.led(s) {
		return rx.FindStringSubmatch(s)
	}
	return strs(s, r.next(s, 0, true, new(place)))
}

func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	if r.absent(s) {
		return nil
	}
	if rx := r.re(); !r.led(s) {
		return rx.FindStringSubmatchIndex(s)
	}
	return r.next(s, 0, true, new(place))
}

func (r *Regexp) FindAllString(s string, n int) []string {
	if r.absent(s) {
		return nil
	}
	if rx := r.re(); !r.led(s) {
		return rx.FindAllString(s, n)
	}
	var out []string
	for _, m := range r.all(s, n, false) {
		out = append(out, s[m[0]:m[1]])
	}
	return out
}

func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	if r.absent(s) {
		return nil
	}
	if rx := r.re(); !r.led(s) {
		return rx.FindAllStringIndex(s, n)
	}
	return r.all(s, n, false)
}

func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	if r.absent(s) {
		return nil
	}
	if rx := r.re(); !r.led(s) {
		return rx.FindAllStringSubmatch(s, n)
	}
	var out [][]string
	for _, m := range r.all(s, n, true) {
		out = append(out, strs(s, m))
	}
	return out
}

func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if r.absent(s) {
		return nil
	}
	if rx := r.re(); !r.led(s) {
		return rx.FindAllStringSubmatchIndex(s, n)
	}
	return r.all(s, n, true)
}

// ReplaceAllString and ReplaceAllStringFunc return src itself when it
// holds no match, as regexp's do; a pattern with leads replaces the
// matches next finds.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	if r.absent(src) {
		return src
	}
	if rx := r.re(); !r.led(src) {
		return rx.ReplaceAllString(src, repl)
	}
	return r.replace(src, func(b []byte, m []int) []byte { return r.rx.ExpandString(b, repl, src, m) })
}

func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if r.absent(src) {
		return src
	}
	if rx := r.re(); !r.led(src) {
		return rx.ReplaceAllStringFunc(src, repl)
	}
	return r.replace(src, func(b []byte, m []int) []byte { return append(b, repl(src[m[0]:m[1]])...) })
}

// replace is src with each match of a pattern with leads (all) given by
// add, src itself when there is none.
func (r *Regexp) replace(src string, add func(b []byte, m []int) []byte) string {
	ms := r.all(src, -1, true)
	if ms == nil {
		return src
	}
	var b []byte
	last := 0
	for _, m := range ms {
		b = add(append(b, src[last:m[0]]...), m)
		last = m[1]
	}
	return string(append(b, src[last:]...))
}

func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.re().ReplaceAll(src, repl) }

func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.re().ReplaceAllFunc(src, repl)
}

// required returns literals one of which every match of re holds: a
// literal; each branch's for an alternation; what a group or a repetition
// of at least one holds; for a concatenation, its part's whose shortest
// literal is longest (then the fewest). Nil when nothing is known.
func required(re *syntax.Regexp) []need {
	switch re.Op {
	case syntax.OpLiteral:
		if s, fold := literal(re); s != "" {
			return []need{{s: s, fold: fold}}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []need
		for _, sub := range re.Sub {
			r := required(sub)
			if r == nil || len(out)+len(r) > maxNeeds {
				return nil
			}
			out = append(out, r...)
		}
		return out
	case syntax.OpConcat:
		var best []need
		for _, sub := range re.Sub {
			if r := required(sub); r != nil && (best == nil || better(r, best)) {
				best = r
			}
		}
		return best
	}
	return nil
}

// maxNeeds bounds the searches a string costs before the pattern runs.
const maxNeeds = 16

// better reports whether needs a filter more than b: a longer shortest
// literal, then fewer literals.
func better(a, b []need) bool {
	la, lb := shortest(a), shortest(b)
	return la > lb || la == lb && len(a) < len(b)
}

func shortest(ns []need) int {
	m := len(ns[0].s)
	for _, n := range ns[1:] {
		m = min(m, len(n.s))
	}
	return m
}

// literal returns the longest run of a literal's runes that a byte search
// finds exactly: ASCII, and without case no k or s (which also match the
// Kelvin sign and the long s).
func literal(re *syntax.Regexp) (string, bool) {
	fold := re.Flags&syntax.FoldCase != 0
	best, run := "", []byte(nil)
	for i := 0; i <= len(re.Rune); i++ {
		ok := i < len(re.Rune) && re.Rune[i] < utf8.RuneSelf
		var c byte
		if ok {
			c = byte(re.Rune[i])
			if fold {
				c = lower(c)
				ok = c != 'k' && c != 's'
			}
		}
		if ok {
			run = append(run, c)
			continue
		}
		if len(run) > len(best) {
			best = string(run)
		}
		run = run[:0]
	}
	return best, fold
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
