package analyze

import (
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Two nodes whose own parameters make them throw whenever they run,
// found by failsFirst (see docs/n8n-facts.md).

// envCallRE matches a call of $env itself, "$env('KEY')", not of a member.
var envCallRE = lazyregexp.New(`\$env\s*\(\s*(?:'([^']*)'|"([^"]*)"|` + "`([^`]*)`" + `)?`)

// envCall judges a JavaScript Code node that calls $env as a function
// ($env('API_KEY')) in its top-level statements, before any return and
// with no try in the code. n8n gives the code's $env as a Proxy over a
// plain object with get and has traps only (n8n-workflow
// dist/cjs/workflow-data-proxy-env-provider.js L35-58 createEnvProvider;
// the task runner builds the same proxy, @n8n/task-runner
// dist/js-task-runner/js-task-runner.js L302), and calling an object
// throws "TypeError: $env is not a function": the node fails on every run
// (per item, or once for all of them). A call inside a block or a
// function may not run, and one in a try may be caught: neither is
// judged.
func envCall(nd *n8nschema.Node) (string, bool) {
	code, ok := jsCode(nd)
	if !ok {
		return "", false
	}
	var loc []int
	for _, m := range envCallRE.FindAllStringSubmatchIndex(code, -1) {
		if m[0] == 0 || !isIdent(code[m[0]-1]) && code[m[0]-1] != '.' {
			loc = m // $env itself, not my$env or x.$env
			break
		}
	}
	if loc == nil || !topLevel(code, loc[0]) {
		return "", false
	}
	call := "$env(...)"
	for k := 2; k+1 < len(loc); k += 2 {
		if loc[k] >= 0 {
			call = "$env(" + strconv.Quote(code[loc[k]:loc[k+1]]) + ")"
		}
	}
	return "its code calls " + call + ", but $env is an object, not a function: it throws \"TypeError: $env is not a function\"", true
}

// topLevel reports whether offset at of code lies outside every block,
// bracket and parenthesis, with no "try" or "return" word before it and
// no "try" anywhere, reading past strings, template literals and
// comments. One pass over the code.
func topLevel(code string, at int) bool {
	depth, atDepth := 0, -1
	for i := 0; i < len(code); i++ {
		if i == at {
			atDepth = depth
		}
		ch := code[i]
		switch {
		case ch == '/' && i+1 < len(code) && code[i+1] == '/':
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case ch == '/' && i+1 < len(code) && code[i+1] == '*':
			i += 2
			for i+1 < len(code) && !(code[i] == '*' && code[i+1] == '/') {
				i++
			}
			i++
		case ch == '\'' || ch == '"' || ch == '`':
			for i++; i < len(code) && code[i] != ch; i++ {
				if code[i] == '\\' {
					i++
				}
			}
		case ch == '{' || ch == '(' || ch == '[':
			depth++
		case ch == '}' || ch == ')' || ch == ']':
			depth--
		case isWordAt(code, i, "try"):
			return false
		case i < at && isWordAt(code, i, "return"):
			return false
		}
	}
	return atDepth == 0 // -1: the call was inside a string or comment
}

// isWordAt reports whether word starts at i in s as a whole word.
func isWordAt(s string, i int, word string) bool {
	if i+len(word) > len(s) || s[i:i+len(word)] != word {
		return false
	}
	if i > 0 && isIdent(s[i-1]) {
		return false
	}
	return i+len(word) == len(s) || !isIdent(s[i+len(word)])
}

// mergeNoFields judges a Merge v3 or later in mode "combine" by matching
// fields (combineBy's default) with the simple field list (advanced off)
// left empty: the node splits "" into one empty pair and
// checkMatchFieldsInput throws 'You need to define at least one pair of
// fields in "Fields to Match" to match on' before it reads its inputs
// (n8n-nodes-base dist/nodes/Merge/v3/actions/mode/combineByFields.js
// L240-253, v3/helpers/utils.js L236-239; router.js L41-46 reads
// combineBy, mode/index.js L114 its default), so on every run.
func mergeNoFields(nd *n8nschema.Node) (string, bool) {
	if nd.Type != "n8n-nodes-base.merge" || nd.TypeVersion < 3 {
		return "", false
	}
	literal := func(name, want string, missingOK bool) bool {
		v, ok := nd.Param(name)
		if !ok || v.Kind() == n8nschema.Missing {
			return missingOK
		}
		return v.Kind() == n8nschema.String && !v.IsExpr() && v.Str() == want
	}
	if !literal("mode", "combine", false) || !literal("combineBy", "combineByFields", true) || !literal("fieldsToMatchString", "", true) {
		return "", false
	}
	if a, ok := nd.Param("advanced"); ok && a.Kind() != n8nschema.Missing && (a.Kind() != n8nschema.Bool || a.True()) {
		return "", false
	}
	return "it combines by matching fields and names none to match: n8n throws \"You need to define at least one pair of fields in \\\"Fields to Match\\\" to match on\"", true
}

// starvedMerges marks empty (nothing leaves its output) each Merge v3 or
// later that combines by matching fields in a join mode that stops on an
// empty input (mergeStops) when the runs reach it but no live main
// connection can bring items to such an input: n8n runs a combining Merge
// with data on any one input (requiredInputs 1 unless the mode is
// chooseBranch, n8n-nodes-base dist/nodes/Merge/v3/actions/versionDescription.js
// L138-140), and combineByFields returns no output when the input it needs
// is empty ("Stop the execution", v3/actions/mode/combineByFields.js
// L272-288). One walk from the starts, which opens such a Merge's output
// only once every input it needs has been reached: linear.
func (g *Graph) starvedMerges() {
	if len(g.Unloadable) > 0 {
		return
	}
	var need map[int32][2]bool // by Merge: the inputs it needs
	for i, nd := range g.Nodes {
		if in, ok := mergeStops(nd); ok {
			if need == nil {
				need = map[int32][2]bool{}
			}
			need[int32(i)] = in
		}
	}
	if need == nil {
		return
	}
	got := make(map[int32][2]bool, len(need))
	seen := make([]bool, len(g.Nodes))
	queue := g.starts(nil)
	for _, s := range queue {
		seen[s] = true
	}
	for h := 0; h < len(queue); h++ {
		for _, e := range g.outs(int(queue[h])) {
			if e.Type != ConnMain || g.dead(e) {
				continue
			}
			v := e.to
			in, merge := need[v]
			if !merge {
				if !seen[v] {
					seen[v] = true
					queue = append(queue, v)
				}
				continue
			}
			had := got[v]
			now := had
			if e.Input == 0 || e.Input == 1 {
				now[e.Input] = true
			}
			got[v] = now
			seen[v] = true
			open := func(g [2]bool) bool { return (g[0] || !in[0]) && (g[1] || !in[1]) }
			if open(now) && !open(had) {
				queue = append(queue, v)
			}
		}
	}
	for v, in := range need {
		now := got[v]
		if seen[v] && !((now[0] || !in[0]) && (now[1] || !in[1])) {
			if g.empty == nil {
				g.empty = make([]bool, len(g.Nodes))
			}
			g.empty[v] = true
			if g.starved == nil {
				g.starved = map[int32][2]bool{}
			}
			g.starved[v] = [2]bool{in[0] && !now[0], in[1] && !now[1]}
		}
	}
}

// StarvedInput reports a Merge that a run reaches but that outputs
// nothing on any run because its main input (0 or 1), which it needs, is
// fed by no run (starvedMerges): what only it leads to never runs.
func (g *Graph) StarvedInput(n *n8nschema.Node, input int) bool {
	i, ok := g.index(n)
	return ok && input >= 0 && input < 2 && g.starved[int32(i)][input]
}

// mergeStops reports an enabled Merge v3 or later in mode "combine" that
// returns nothing when an input it needs is empty, and which inputs it
// needs: by matching fields (combineBy's default) in a join mode that
// stops, keepMatches (joinMode's default) both, enrichInput1 the first,
// enrichInput2 the second (combineByFields.js L272-288); by all
// combinations, both ("if (!input1 || !input2) return [returnData]",
// combineAll.js L42); by position without unpaired items, both (the
// first two: Math.min of the inputs' lengths, 0 returns nothing,
// combineByPosition.js L63-70). A node that always outputs data turns no
// output into an empty item, and is left out (as needsBothInputs).
func mergeStops(nd *n8nschema.Node) ([2]bool, bool) {
	if nd.Type != "n8n-nodes-base.merge" || nd.TypeVersion < 3 || nd.Disabled || nd.AlwaysOutputData {
		return [2]bool{}, false
	}
	lit := func(name, def string) (string, bool) {
		v, ok := nd.Param(name)
		if !ok || v.Kind() == n8nschema.Missing {
			return def, def != ""
		}
		if v.Kind() != n8nschema.String || v.IsExpr() {
			return "", false
		}
		return v.Str(), true
	}
	if m, _ := lit("mode", ""); m != "combine" {
		return [2]bool{}, false
	}
	switch c, ok := lit("combineBy", "combineByFields"); {
	case !ok:
		return [2]bool{}, false
	case c == "combineAll":
		return [2]bool{true, true}, true
	case c == "combineByPosition":
		u, ok := nd.Param("options.includeUnpaired")
		if !ok || u.Kind() == n8nschema.Missing || u.Kind() == n8nschema.Bool && !u.True() {
			return [2]bool{true, true}, true
		}
		return [2]bool{}, false
	case c != "combineByFields":
		return [2]bool{}, false
	}
	switch j, _ := lit("joinMode", "keepMatches"); j {
	case "keepMatches":
		return [2]bool{true, true}, true
	case "enrichInput1":
		return [2]bool{true, false}, true
	case "enrichInput2":
		return [2]bool{false, true}, true
	}
	return [2]bool{}, false
}

// spreadRE matches a spread (...obj, ...$json), not an ellipsis in text.
var spreadRE = lazyregexp.New(`\.\.\.\s*[A-Za-z_$(\[{]`)

// returnRE matches a return statement and what follows it.
var returnRE = lazyregexp.New(`\breturn\b\s*(\[\s*\{\s*json\s*:\s*\{)?`)

// inputSpreadRE matches a spread of a whole input item's JSON
// (...$json, ...($input.first().json)) closed by "," or "}": the keys it
// adds are the input's own.
var inputSpreadRE = lazyregexp.New(`\.\.\.\s*(\(\s*)?(?:\$json|\$input\.(?:first|last)\(\)\.json|\$input\.item\.json|\$input\.all\(\)\[\d+\]\.json|\bitems\[\d+\]\.json)\s*\)?\s*[,}]`)

// codeItems reads a JavaScript Code node whose every return hands back
// items written out as [{ json: { ... } }] and that nowhere names field
// or copies an object (Object.assign). With no spread (...) in the code
// its items cannot carry field (leaf): a Code node returns exactly the
// items its code returns (@n8n/task-runner dist/js-task-runner/
// js-task-runner.js L194-226 runForAllItems returns the code's result).
// With every spread of an input item's whole JSON (inputSpreadRE), its
// items carry field only when its input's do (passes). Any other code is
// neither.
func codeItems(nd *n8nschema.Node, field string) (leaf, passes bool) {
	code, ok := jsCode(nd)
	if !ok || strings.Contains(code, field) || strings.Contains(code, "Object.assign") {
		return false, false
	}
	returns := returnRE.FindAllStringSubmatchIndex(code, -1)
	if len(returns) == 0 {
		return false, false
	}
	for _, m := range returns {
		if m[2] < 0 {
			return false, false // returns something else: its input, a variable
		}
	}
	spreads := len(spreadRE.FindAllStringIndex(code, -1))
	if spreads == 0 {
		return true, false
	}
	return false, len(inputSpreadRE.FindAllStringIndex(code, -1)) == spreads
}

// errorItemPathRE matches a read of a field of the item a JavaScript Code
// node is fed ($json.candidates, $input.first().json["text"]) and what
// follows it (group 4): another member or index, or a ")".
var errorItemPathRE = lazyregexp.New(`(?:\$json|\$input\.item\.json|\$input\.first\(\)\.json|\$input\.all\(\)\[0\]\.json|\bitems\[0\]\.json)(?:\.([A-Za-z_$][\w$]*)|\[\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*\])(\s*(?:\.[A-Za-z_$]|\[)|\s*\))?`)

// jsonParseRE matches the end of "JSON.parse(" as the text before a read.
var jsonParseRE = lazyregexp.New(`JSON\.parse\(\s*$`)

// errorItemRead judges a JavaScript Code node fed only by HTTP Requests
// that fail on every item (n8nschema.RefusedCall with Fails: a model the
// provider shut down, a URL or body n8n cannot send) and continue on fail
// by their regular output. HTTP Request v3 and later then hands on, for
// each item, one item {error: ...} (and details from v4.5) in place of the
// answer (nodes-base HttpRequest/V3/HttpRequestV3.node.js L605-611,
// L636-651, L850-856). A top-level statement of the code, run
// unconditionally (unguardedAt), that reads a field of the answer the
// error item lacks one step further ($json.candidates[0],
// $json.choices[0].message) or parses it (JSON.parse($json.text)) throws a
// TypeError or SyntaxError on it, and a Code node fails on a thrown error
// unless it continues on fail itself (@n8n/task-runner
// dist/js-task-runner/js-task-runner.js L226-233 runForAllItems, L286-295
// runForEachItem; $json is the first item in the all-items mode, L195).
// So the run stops there every time.
//
// Only code is judged, not another node's parameter expressions: both of
// n8n's expression engines catch what an expression throws as it runs (a
// TypeError, JSON.parse's SyntaxError) and yield undefined, rethrowing
// only n8n's own ExpressionError (the VM engine, 2.41.1's default:
// @n8n/expression-runtime dist/cjs/bridge/isolated-vm-bridge.js L87-100,
// the E handler Tournament's try/catch calls; the legacy engine:
// n8n-workflow dist/cjs/expression.js L58-61 and renderExpression
// L668-686, which returns null; run on 2.41.1: undefined, no throw). An app node whose column reads
// {{ $json.choices[0].message.content }} of the error item writes an
// empty value and does not fail: RS403 reports the call
// (rules/testdata/RS010/app_expression_reads_answer_of_a_retired_model_call_that_continues.json).
func (g *Graph) errorItemRead(i int) (string, bool) {
	nd := g.Nodes[i]
	if nd.Type != n8nschema.TypeCode {
		return "", false
	}
	if l, ok := nd.Param("language"); ok && nd.TypeVersion >= 2 && (l.Kind() != n8nschema.String || l.Str() != "javaScript") {
		return "", false
	}
	from, fromAt := "", -1
	if !g.everyMainInput(i, func(e *Edge) bool {
		if e.Error || !g.handsErrorItem(int(e.from)) {
			return false
		}
		if from == "" {
			from, fromAt = e.From.Name, int(e.from)
		}
		return true
	}) {
		return "", false
	}
	c, ok := nd.Param("jsCode")
	if !ok || c.Kind() != n8nschema.String || c.IsExpr() {
		return "", false
	}
	code := c.Str()
	for _, m := range errorItemPathRE.FindAllStringSubmatchIndex(code, -1) {
		start := m[0]
		if start > 0 && (isIdent(code[start-1]) || code[start-1] == '.') {
			continue // my$json, x.items[0]
		}
		key := ""
		for k := 2; k <= 6; k += 2 {
			if m[k] >= 0 {
				key = code[m[k]:m[k+1]]
			}
		}
		if m[8] < 0 || key == "error" || key == "details" {
			continue
		}
		after := strings.TrimSpace(code[m[8]:m[9]])
		parse := after == ")"
		if parse && !jsonParseRE.MatchString(code[max(0, start-32):start]) {
			continue // f($json.a) may read undefined without throwing
		}
		if !unguardedAt(code, start) {
			return "", false // the first such read decides
		}
		read := strings.TrimSpace(code[start:m[8]])
		why, how := "its code reads a member of "+read+", which the error items lack", "TypeError"
		if parse {
			why, how = "its code parses "+read+", which the error items lack (JSON.parse(undefined))", "SyntaxError"
		}
		msg := why + ": " + strconv.Quote(from) + " fails on every item and continues, handing on {error: ...} in place of its answer, so the code throws a " + how + " on every run"
		if r, _ := g.refused(fromAt); r.Why != "" {
			msg += " (" + strconv.Quote(from) + ": " + r.Why + ")" // the node continues, so no finding of its own says why
		}
		return msg, true
	}
	return "", false
}

// handsErrorItem reports an enabled HTTP Request v3 or later that fails
// on every item and continues on fail by its regular output: each item
// it hands on is {error: ...}.
func (g *Graph) handsErrorItem(i int) bool {
	nd := g.Nodes[i]
	if nd.Type != n8nschema.TypeHTTPRequest || nd.TypeVersion < 3 || nd.Disabled {
		return false
	}
	if nd.OnError != "continueRegularOutput" && !(nd.ContinueOnFail && nd.OnError != "continueErrorOutput") {
		return false
	}
	r, ok := g.refused(i)
	return ok && r.Fails
}

// unguardedAt reports whether offset at of code runs whenever the code
// does and nothing there can turn a thrown error aside: outside every
// block (braces), with no try anywhere, and before it no return, no
// control word (if, else, for, while, do, switch, case, function) and no
// ?, &&, || or => that may skip or catch it (a guard, optional chaining, a
// default, a callback). Strings, template literals and comments are read
// past; a read inside one is not code. One pass over the code.
func unguardedAt(code string, at int) bool {
	depth, atDepth := 0, -1
	for i := 0; i < len(code); i++ {
		if i == at {
			atDepth = depth
		}
		ch := code[i]
		switch {
		case ch == '/' && i+1 < len(code) && code[i+1] == '/':
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case ch == '/' && i+1 < len(code) && code[i+1] == '*':
			i += 2
			for i+1 < len(code) && !(code[i] == '*' && code[i+1] == '/') {
				i++
			}
			i++
		case ch == '\'' || ch == '"' || ch == '`':
			for i++; i < len(code) && code[i] != ch; i++ {
				if code[i] == '\\' {
					i++
				}
			}
		case ch == '{':
			depth++
		case ch == '}':
			depth--
		case isWordAt(code, i, "try"):
			return false
		case i < at && (ch == '?' || ch == '&' && i+1 < len(code) && code[i+1] == '&' || ch == '|' && i+1 < len(code) && code[i+1] == '|' || ch == '=' && i+1 < len(code) && code[i+1] == '>'):
			return false
		case i < at && isIdent(ch) && (i == 0 || !isIdent(code[i-1])):
			for _, w := range []string{"return", "if", "else", "for", "while", "do", "switch", "case", "function"} {
				if isWordAt(code, i, w) {
					return false
				}
			}
		}
	}
	return atDepth == 0 // -1: the read was inside a string or comment
}

// credentialsRE matches a read of $credentials itself, not of a member
// (x.$credentials) or a longer name.
var credentialsRE = lazyregexp.New(`\$credentials\b`)

// credentialsRead judges a Function, Function Item or JavaScript Code node
// that reads $credentials in its top-level statements, before any return
// and with no try in the code. No sandbox n8n gives code defines it: the
// Function node's vm2 sandbox holds only its helpers, items and the
// workflow data proxy (n8n-nodes-base dist/nodes/Function/Function.node.js
// L82-129), the proxy has no $credentials (n8n-workflow
// dist/cjs/workflow-data-proxy.js), and neither does the Code node's task
// runner (@n8n/task-runner dist/js-task-runner). Reading an undeclared
// name throws "ReferenceError: $credentials is not defined" on every run.
// A read in a comment, a string, a block or a try is not judged, nor is
// typeof $credentials or code that declares the name itself.
func credentialsRead(nd *n8nschema.Node) (string, bool) {
	param := "functionCode"
	switch nd.Type {
	case n8nschema.TypeFunction, n8nschema.TypeFunctionItem:
	case n8nschema.TypeCode:
		param = "jsCode"
		if l, ok := nd.Param("language"); ok && nd.TypeVersion >= 2 && (l.Kind() != n8nschema.String || l.Str() != "javaScript") {
			return "", false
		}
	default:
		return "", false
	}
	c, ok := nd.Param(param)
	if !ok || c.Kind() != n8nschema.String || c.IsExpr() || !strings.Contains(c.Raw(), "credentials") {
		return "", false
	}
	code := c.Str()
	if credentialsDeclRE.MatchString(code) {
		return "", false
	}
	for _, m := range credentialsRE.FindAllStringIndex(code, 8) { // a few reads: each look is one pass
		if m[0] > 0 && (isIdent(code[m[0]-1]) || code[m[0]-1] == '.') {
			continue // my$credentials, x.$credentials
		}
		if strings.HasSuffix(strings.TrimRight(code[:m[0]], " \t"), "typeof") {
			continue // typeof of an undeclared name throws nothing
		}
		if topLevel(code, m[0]) {
			return "its code reads $credentials, which no sandbox n8n gives code defines: it throws \"ReferenceError: $credentials is not defined\"", true
		}
	}
	return "", false
}

// credentialsDeclRE matches code that declares $credentials itself (a
// variable, a function or a parameter named so).
var credentialsDeclRE = lazyregexp.New(`(?:\b(?:const|let|var|function)\s+|[(,]\s*)\$credentials\b|\$credentials\s*=[^=]`)
