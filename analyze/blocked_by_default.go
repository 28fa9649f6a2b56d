package analyze

import (
	"strings"

	"github.com/stormcheck/stormcheck/internal/ascii"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Two reads a default n8n install refuses, set by the instance's
// environment, which an export does not show (RS010 tells them as notes).

// requireRE matches a call of require with, when it is a literal, the
// module's name.
var requireRE = lazyregexp.New(`\brequire\s*\(\s*(?:'([^'\n]*)'|"([^"\n]*)"|` + "`([^`$\\n]*)`" + `)?`)

// jsOf is the JavaScript of a Code (language JavaScript), Function or
// Function Item node, as the node stores it.
func jsOf(nd *n8nschema.Node) (string, bool) {
	param := "functionCode"
	switch nd.Type {
	case n8nschema.TypeFunction, n8nschema.TypeFunctionItem:
	case n8nschema.TypeCode:
		return jsCode(nd)
	default:
		return "", false
	}
	c, ok := nd.Param(param)
	if !ok || c.Kind() != n8nschema.String || c.IsExpr() {
		return "", false
	}
	return c.Str(), true
}

// BlockedRequire reports a JavaScript Code, Function or Function Item node
// whose code calls require() where it surely runs (unguardedAt: outside
// every block, with no try in the code, no return, branch or callback
// before it), and the module named when it is a literal ("" if not).
// Every sandbox n8n runs such code in resolves require through allow
// lists that are empty by default: n8n 2's JavaScript task runner
// (@n8n/task-runner dist/config/js-runner-config.js L16-29:
// allowedBuiltInModules and allowedExternalModules the empty string, from
// NODE_FUNCTION_ALLOW_BUILTIN and NODE_FUNCTION_ALLOW_EXTERNAL;
// dist/js-task-runner/require-resolver.js createRequireResolver L56-67
// throws DisallowedModuleError "Module '...' is disallowed" for any module
// not listed, built in or not), and n8n 1.x's in-process vm2 sandbox, which
// the Function nodes keep (n8n-nodes-base dist/nodes/Code/JavaScriptSandbox.js
// L9-18 vmResolver: builtin NODE_FUNCTION_ALLOW_BUILTIN split or [],
// external false unless NODE_FUNCTION_ALLOW_EXTERNAL is set;
// Function/Function.node.js L124), both in n8n 2.8.4. So the call throws
// on every run of a default install. A node that declares require itself
// is not judged.
func BlockedRequire(nd *n8nschema.Node) (module string, ok bool) {
	code, ok := jsOf(nd)
	if !ok || ascii.Index(code, "require", requireAt) < 0 {
		return "", false
	}
	if declaresRequire(code) {
		return "", false
	}
	for _, m := range requireRE.FindAllStringSubmatchIndex(code, 8) { // a few calls: each look is one pass
		if m[0] > 0 && (isIdent(code[m[0]-1]) || code[m[0]-1] == '.' || code[m[0]-1] == '$') {
			continue // x.require(, $require(
		}
		if !unguardedAt(code, m[0]) {
			continue
		}
		for k := 2; k+1 < len(m); k += 2 {
			if m[k] >= 0 {
				module = code[m[k]:m[k+1]]
			}
		}
		return module, true
	}
	return "", false
}

// requireAt is where "require" is searched from: its q, which code holds
// seldom (ascii.Rarest), where its r stands every few words.
const requireAt = 2

// declaresRequire reports code that binds require itself: "const
// require", "let", "var" or "function require", or "require =" (not
// "=="), the name not a member (x.require) nor part of another. One look
// at each "require" in the code (a regular expression with no literal to
// start from cost 4 % of an audit).
func declaresRequire(code string) bool {
	for at := 0; ; {
		i := ascii.Index(code[at:], "require", requireAt)
		if i < 0 {
			return false
		}
		i += at
		at = i + len("require")
		if i > 0 && (isIdent(code[i-1]) || code[i-1] == '.' || code[i-1] == '$') ||
			at < len(code) && (isIdent(code[at]) || code[at] == '$') {
			continue
		}
		after := strings.TrimLeft(code[at:], " \t\r\n")
		if strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "==") {
			return true
		}
		before := strings.TrimRight(code[:i], " \t\r\n")
		if len(before) == len(code[:i]) {
			continue // no space before: not a declaration
		}
		for _, kw := range []string{"const", "let", "var", "function"} {
			if strings.HasSuffix(before, kw) && (len(before) == len(kw) || !isIdent(before[len(before)-len(kw)-1])) {
				return true
			}
		}
	}
}

// nodeBuiltins are the modules Node.js builds in (node:module
// builtinModules, Node 22), which n8n allows by NODE_FUNCTION_ALLOW_BUILTIN;
// any other it allows by NODE_FUNCTION_ALLOW_EXTERNAL.
var nodeBuiltins = map[string]bool{
	"assert": true, "assert/strict": true, "async_hooks": true, "buffer": true, "child_process": true,
	"cluster": true, "console": true, "constants": true, "crypto": true, "dgram": true,
	"diagnostics_channel": true, "dns": true, "dns/promises": true, "domain": true, "events": true,
	"fs": true, "fs/promises": true, "http": true, "http2": true, "https": true, "inspector": true,
	"module": true, "net": true, "os": true, "path": true, "path/posix": true, "path/win32": true,
	"perf_hooks": true, "process": true, "punycode": true, "querystring": true, "readline": true,
	"readline/promises": true, "repl": true, "stream": true, "stream/consumers": true,
	"stream/promises": true, "stream/web": true, "string_decoder": true, "timers": true,
	"timers/promises": true, "tls": true, "trace_events": true, "tty": true, "url": true, "util": true,
	"util/types": true, "v8": true, "vm": true, "wasi": true, "worker_threads": true, "zlib": true,
}

// IsNodeBuiltin reports whether module is one Node.js builds in
// ("crypto", "node:fs"), which n8n's allow list for built-in modules
// governs.
func IsNodeBuiltin(module string) bool {
	return strings.HasPrefix(module, "node:") || nodeBuiltins[module]
}

// collectionOption reports a top-level parameter that is a collection of
// options (options, additionalFields and the like: an object, not a list
// of values), whose members the node table does not judge.
func collectionOption(top string) bool {
	switch top {
	case "options", "additionalFields", "additionalOptions", "additionalParameters":
		return true
	}
	return false
}

// envReadRE matches a read of a member of $env: $env.KEY, $env["KEY"],
// $env?.KEY, with the key when it is written out.
var envReadRE = lazyregexp.New(`\$env\s*(?:\?\.\s*|\.\s*)(?:([A-Za-z_$][\w$]*)|\[\s*(?:'([^'\n]*)'|"([^"\n]*)")?)|\$env\s*\[\s*(?:'([^'\n]*)'|"([^"\n]*)")?`)

// envAt is the first read of $env in s for which ok(start) holds (not a
// member of another name: x.$env, my$env), with the key read when written
// out.
func envAt(s string, ok func(start int) bool) (key string, found bool) {
	for _, m := range envReadRE.FindAllStringSubmatchIndex(s, 8) {
		if m[0] > 0 && (isIdent(s[m[0]-1]) || s[m[0]-1] == '.') {
			continue
		}
		if !ok(m[0]) {
			continue
		}
		for k := 2; k+1 < len(m); k += 2 {
			if m[k] >= 0 {
				key = s[m[k]:m[k+1]]
				break
			}
		}
		return key, true
	}
	return "", false
}

// EnvRead reports a node that surely reads a member of $env when it runs,
// where it reads it ("code", or the parameter's path) and the key read
// ("" when it is not written out). n8n 2 blocks $env by default: the data
// proxy's env provider throws ExpressionError "access to env vars denied"
// on any read unless the instance sets N8N_BLOCK_ENV_ACCESS_IN_NODE to
// "false" (n8n-workflow dist/cjs/workflow-data-proxy-env-provider.js
// createEnvProviderState L10-21, createEnvProvider L49-55, in 2.8.4 and
// 2.41.1; the task runner takes the same state from n8n, n8n dist/
// task-runners/task-managers/data-request-response-stripper.js L87), and
// n8n's expression engines rethrow an ExpressionError (dist/cjs/
// expression.js L58-61), so the node fails. The default changed in 2.0
// (n8n's breaking-change rule process-env-access-v2, n8n dist/modules/
// breaking-changes/rules/v2/process-env-access.rule.js, "Block
// environment variable access from Code node by default"). Judged:
//   - in a parameter expression (a value starting with "="), a read inside
//     {{ }} with no ?, && or || before it there, in a parameter n8n keeps
//     (n8nschema.Hidden); triggers (activated, not run), sub-nodes (a tool
//     evaluates its parameters only when called) and code nodes' other
//     parameters are not judged;
//   - in a JavaScript Code, Function or Function Item node's code, a read
//     that surely runs (unguardedAt), not in a comment or a string.
func (g *Graph) EnvRead(n *n8nschema.Node) (where, key string, ok bool) {
	i, known := g.index(n)
	if !known || g.sub[i] || g.specs[i].Role == n8nschema.RoleTrigger || n8nschema.IsAICode(n.Type) {
		return "", "", false
	}
	if n8nschema.IsCode(n.Type) {
		code, ok := jsOf(n)
		if !ok || ascii.Index(code, "$env", 3) < 0 { // from its v: $ stands on every read of code
			return "", "", false
		}
		key, ok = envAt(code, func(at int) bool { return unguardedAt(code, at) })
		return "code", key, ok
	}
	params := n.Params()
	if n.NoExprs() || !strings.Contains(params.Raw(), "$env") {
		return "", "", false // most nodes read no $env, half hold no expression at all: skip the walk
	}
	params.Scalars(func(v n8nschema.Value) bool {
		if !v.IsExpr() {
			return true
		}
		s := v.Str()
		if !strings.Contains(s, "$env") {
			return true
		}
		for seg := range exprSegments(s) {
			if key, ok = envAt(seg, func(at int) bool { return !branches(seg[:at]) }); ok {
				break
			}
		}
		if ok {
			where = strings.TrimPrefix(v.Path(), params.Path()+".")
			top := where
			if k := strings.IndexAny(top, ".["); k >= 0 {
				top = top[:k]
			}
			// A parameter n8n drops at load is never evaluated: one the
			// version does not declare, one its display options hide, or
			// an option of a collection, whose declared options vary by
			// version and which the node table does not list (n8n keeps a
			// collection's declared options only: Postgres 2.6 drops v1's
			// options.queryParams).
			if !n8nschema.DeclaresParam(n.Type, n.TypeVersion, top) || n8nschema.Hidden(n, top) || collectionOption(top) {
				ok, key, where = false, "", ""
			}
		}
		return !ok
	})
	return where, key, ok
}
