// Package lazyregexp is a package-level regexp compiled when first used.
// stormcheck's packages declare some sixty patterns; compiling them all in
// package initialisation took a third of the start of a run, on one core,
// before anything else could begin. An audit compiles them on the other
// core while it lists its inputs (CompileAll); a run that never uses one
// (a flag error, --version) never compiles it.
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled on first use, with the methods
// stormcheck calls.
type Regexp struct {
	expr string
	rare bool
	once sync.Once
	rx   *regexp.Regexp
}

var (
	mu  sync.Mutex
	all []*Regexp
)

// New returns the pattern expr, to be compiled when first used or by
// CompileAll; an invalid pattern panics then, as regexp.MustCompile does
// (Check finds it in a test first).
func New(expr string) *Regexp { return add(&Regexp{expr: expr}) }

// NewRare is New for a pattern only some runs use (error messages, one
// command): CompileAll leaves it, so that an audit never compiles it.
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

// CompileAll compiles every pattern New made so far that is not compiled
// yet, for a goroutine to run while the program does something else.
func CompileAll() {
	mu.Lock()
	rs := all
	mu.Unlock()
	for _, r := range rs {
		if !r.rare {
			r.re()
		}
	}
}

func (r *Regexp) re() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.expr) })
	return r.rx
}

func (r *Regexp) String() string { return r.expr }

func (r *Regexp) MatchString(s string) bool { return r.re().MatchString(s) }

func (r *Regexp) FindString(s string) string { return r.re().FindString(s) }

func (r *Regexp) FindStringIndex(s string) []int { return r.re().FindStringIndex(s) }

func (r *Regexp) FindStringSubmatch(s string) []string { return r.re().FindStringSubmatch(s) }

func (r *Regexp) FindStringSubmatchIndex(s string) []int { return r.re().FindStringSubmatchIndex(s) }

func (r *Regexp) FindAllString(s string, n int) []string { return r.re().FindAllString(s, n) }

func (r *Regexp) FindAllStringIndex(s string, n int) [][]int { return r.re().FindAllStringIndex(s, n) }

func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.re().FindAllStringSubmatch(s, n)
}

func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.re().FindAllStringSubmatchIndex(s, n)
}

func (r *Regexp) ReplaceAllString(src, repl string) string { return r.re().ReplaceAllString(src, repl) }

func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.re().ReplaceAllStringFunc(src, repl)
}

func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.re().ReplaceAll(src, repl) }

func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.re().ReplaceAllFunc(src, repl)
}
