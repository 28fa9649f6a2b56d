package analyze

import (
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Who calls an open Webhook, as its workflow shows it: a workflow of the
// same set (CalledInSet), or a caller whose credential header a branch or
// code node of its runs tests (CallerChecks). RS306 and RS307 leave such a
// webhook out: its callers are known to the owner, or must show a key.

// CalledInSet reports whether a workflow of the set calls webhook t: its
// callers are n8n workflows, known to the owner.
func CalledInSet(s *Set, w *n8nschema.Workflow, t *n8nschema.Node) bool {
	for _, c := range s.CallsTo(w) {
		if c.Kind == CallWebhook && slices.Contains(c.Entry, t) {
			return true
		}
	}
	return false
}

// callerCheckRE matches a test of the request's credentials: a header
// that carries a key, a token, a secret or a signature.
var callerCheckRE = lazyregexp.New(`(?i)headers[\w.\[\]'"]*(authorization|x-api-key|api[_-]?key|token|secret|signature|x-hub|x-auth)`)

// CallerChecks are the branch and code nodes that test who calls: they
// read a credential header. A webhook whose run passes one checks its
// callers itself.
func CallerChecks(g *Graph) []*n8nschema.Node {
	var out []*n8nschema.Node
	for _, n := range g.Nodes {
		if !n.Disabled && (n8nschema.IsBranch(n.Type) || n8nschema.IsCode(n.Type)) && readsCredentialHeader(n.Params().Raw()) {
			out = append(out, n)
		}
	}
	return out
}

// readsCredentialHeader is callerCheckRE.MatchString(s) with byte tests
// (TestReadsCredentialHeaderAsPattern): the pattern has no literal Go's
// regexp skips to without case, so it ran over all the code of every
// node that reads a header. A text with the long s or the Kelvin sign,
// which fold to s and k, is left to the pattern.
func readsCredentialHeader(s string) bool {
	if strings.Contains(s, "\u017f") || strings.Contains(s, "\u212a") {
		return callerCheckRE.MatchString(s)
	}
	tried := 0 // the positions before it after a "headers" are tried
	for i := 0; i+len("headers") <= len(s); i++ {
		if s[i]|0x20 != 'h' || !ascii.HasPrefixFold(s[i:], "headers") {
			continue
		}
		// [\w.\[\]'"]* then a word: the word may start anywhere in the
		// run of those bytes, or right after it.
		for j := i + len("headers"); ; j++ {
			if j >= tried && credentialWordAt(s[j:]) {
				return true
			}
			if j >= len(s) || !headerPathByte(s[j]) {
				tried = max(tried, j+1)
				break
			}
		}
	}
	return false
}

// credentialWordAt reports whether s starts with one of callerCheckRE's
// words, in any case.
func credentialWordAt(s string) bool {
	for _, w := range [...]string{"authorization", "x-api-key", "token", "secret", "signature", "x-hub", "x-auth"} {
		if ascii.HasPrefixFold(s, w) {
			return true
		}
	}
	if !ascii.HasPrefixFold(s, "api") {
		return false
	}
	s = s[3:]
	if s != "" && (s[0] == '_' || s[0] == '-') {
		s = s[1:]
	}
	return ascii.HasPrefixFold(s, "key")
}

// headerPathByte is a byte of [\w.\[\]'"].
func headerPathByte(c byte) bool {
	return ascii.IsWord(c) || c == '.' || c == '[' || c == ']' || c == '\'' || c == '"'
}
