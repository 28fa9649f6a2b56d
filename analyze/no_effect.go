package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A run that only reads leaves nothing behind: a GET whose answer a Set
// and an Aggregate shape and pass to no one. When it fails, nothing is
// lost that a run that worked would have kept, so nothing needs telling.

// LeavesNothing reports whether no node of reach can leave an effect
// outside the run (HasEffect): a failed run of such nodes loses nothing.
func LeavesNothing(reach Reach) bool {
	// Code nodes last: their test runs a pattern over all the code, and
	// most runs have a write of another node that settles the answer.
	for _, n := range reach.Nodes() {
		if !n8nschema.IsCode(n.Type) && HasEffect(n) {
			return false
		}
	}
	for _, n := range reach.Nodes() {
		if n8nschema.IsCode(n.Type) && HasEffect(n) {
			return false
		}
	}
	return true
}

// HasEffect reports whether a node may leave something behind when it
// runs: a write or a message (n8nschema.WriteOp), an answer to a caller
// (Respond to Webhook, a Form page), documents put in a vector store, a sub-workflow, a command, a file
// written, code that sends requests itself, or an app node whose
// operation is not known. Triggers, flow control, data shaping, model
// calls and reads have none of their own (an agent's tools are its
// sub-nodes, judged each).
func HasEffect(n *n8nschema.Node) bool {
	if n.Disabled {
		return false
	}
	if strings.HasPrefix(n.Type, "@n8n/n8n-nodes-langchain.vectorStore") {
		// Insert and update store documents; the default mode,
		// retrieve, reads (@n8n/ai-utilities createVectorStoreNode.js mode).
		m := n.Params().Get("mode").Str()
		return m == "insert" || m == "update"
	}
	sp := n8nschema.Lookup(n.Type)
	switch sp.Role {
	case n8nschema.RoleTrigger, n8nschema.RoleFlow, n8nschema.RoleNote, n8nschema.RoleSubNode, n8nschema.RoleAgent, n8nschema.RoleModel:
		return false
	case n8nschema.RoleCallWorkflow:
		return true
	case n8nschema.RoleExternal:
		if InProcess(n) || n8nschema.IsHTTPRequest(n.Type) {
			// A POST that only asks a model API for an answer (a
			// generation, an embedding, an OCR) stores nothing.
			w, _ := n8nschema.WriteOp(n)
			return w && !n8nschema.ComputeOnlyCall(n)
		}
		// An operation the catalog cannot read (most of a community
		// node's) may write; a community node's operation that runs a
		// job and answers with its output is read (n8nschema.AppOperation).
		w, op, _ := n8nschema.WriteOpConf(n)
		return w || op == ""
	}
	switch n.Type {
	case n8nschema.TypeRespondToWebhook, "n8n-nodes-base.executeCommand", "n8n-nodes-base.writeBinaryFile",
		"n8n-nodes-base.form":
		return true
	case "n8n-nodes-base.readWriteFile":
		return n.Params().Get("operation").Str() == "write"
	}
	if !n8nschema.IsCode(n.Type) {
		return false
	}
	code := codeOf(n)
	return codeSends(code) && !codeOnlyGets(code)
}

// codeSendsREs match code that sends requests or writes by itself. One
// pattern each, not one alternation: each starts with its literal, which
// a byte search finds (lazyregexp), where Go's regexp tried the
// alternation at every byte of the code.
var codeSendsREs = [...]*lazyregexp.Regexp{
	lazyregexp.New(`helpers\.(httpRequest|request)`),
	lazyregexp.New(`\bfetch\s*\(`),
	lazyregexp.New(`\baxios\b`),
	lazyregexp.New(`\brequire\s*\(`),
	lazyregexp.New(`\bimport\b`),
}

// codeSends reports code that one of codeSendsREs matches.
func codeSends(code string) bool {
	for _, re := range codeSendsREs {
		if re.MatchString(code) {
			return true
		}
	}
	return false
}

// codeWritesRE matches what code may write with besides a request whose
// method it states: a module (axios, fs, child_process), or a method not
// given as a literal.
var codeWritesRE = lazyregexp.New(`\baxios\b|\brequire\s*\(|\bimport\b`)

// methodRE matches a request's method as code states it: method: 'POST',
// "method": "GET", opts.method = 'PUT'. The value's first token is kept.
var methodRE = lazyregexp.New(`(?i)["']?\bmethod["']?\s*(?::|=)\s*(["'\x60]?)([A-Za-z_$][\w$]*)`)

// codeOnlyGets reports code whose every request is a GET or a HEAD: each
// method it states is a literal one of those, and a request that states
// none is a GET (this.helpers.httpRequest passes an absent method on to
// axios, which sends GET: packages/core/src/execution-engine/
// node-execution-context/utils/request-helper-functions.ts
// convertN8nRequestToAxios; fetch sends GET too). Such code only reads, as
// an HTTP Request node set to GET does. A module it loads may write
// anything.
func codeOnlyGets(code string) bool {
	if codeWritesRE.MatchString(code) {
		return false
	}
	for _, m := range methodRE.FindAllStringSubmatch(code, -1) {
		if m[1] == "" { // a variable or an expression: not known
			return false
		}
		switch strings.ToUpper(m[2]) {
		case "GET", "HEAD":
		default:
			return false
		}
	}
	return true
}
