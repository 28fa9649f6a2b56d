package analyze

import (
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

// A Code, Function or Function Item node whose JavaScript surely reads,
// by name, a node the workflow does not have.
//
// The JavaScript Code node runs its code on the task runner, which builds
// the workflow from every node the execution has (n8n
// dist/task-runners/task-managers/data-request-response-builder.js L48,
// nodes: Object.values(workflow.nodes)) and hands the code the same
// WorkflowDataProxy an expression reads (@n8n/task-runner
// dist/js-task-runner/js-task-runner.js L132-135, L195-198 and L245-246,
// createDataProxy L301-306). So $('X') throws "Referenced node doesn't
// exist" when the workflow lacks X (n8n-workflow
// dist/cjs/workflow-data-proxy.js L961-970), as do $node["X"] (nodeGetter,
// L645-652) and $items("X") (L1283, getNodeExecutionData L386-393). The
// runner catches it and fails the node, or answers {error} for each run
// when it continues on fail (js-task-runner.js runForAllItems L226-233,
// runForEachItem L286-295; nodes-base Code/JsTaskRunnerSandbox.js
// throwExecutionError). The Function and Function Item nodes (nodes-base
// dist/nodes/Function/Function.node.js L82-119, FunctionItem L127-128)
// spread getWorkflowDataProxy into their vm2 sandbox: the same $, $node
// and $items, and the same failure unless they continue on fail
// (Function.node.js L161-163). Python is not judged here: n8n 2's Python
// runner defines no _("X") (pythonGlobals).
//
// Only a read that runs whenever the code does is judged (sureAt): one at
// the top of the code, or in the body of a for...of over the node's own
// input items (n8n runs no node on an empty input: n8n-core
// dist/execution-engine/workflow-execute.js L555-557), not in a function,
// a branch, a try, another loop or after a return; code that binds $
// itself (cheerio's $ = cheerio.load(html)) is not judged.

// codeBindsDollarRE matches code that declares or assigns $ itself, or
// takes it as a parameter.
var codeBindsDollarRE = lazyregexp.New(`(?:^|[^\w$.])\$\s*(?:=[^=]|=>|,|\))|(?:const|let|var|function)\s+\$(?:[^\w$]|$)`)

// codeMissingRef reports a Code (JavaScript), Function or Function Item
// node i whose code surely reads a node the workflow does not have: the
// code's parameter, the read as written ($('X').all()) and the name.
func codeMissingRef(g *Graph, i int) (param, read, name string, ok bool) {
	nd := g.Nodes[i]
	if g.sub[i] {
		return "", "", "", false
	}
	code, isCode := staticCode(nd)
	if !isCode || !readsByName(code) || codeBindsDollarRE.MatchString(code) {
		return "", "", "", false
	}
	param = "functionCode"
	if _, js := jsCode(nd); js {
		param = "jsCode"
	}
	at := 0
	for k := 0; k < 8; k++ { // a few reads of missing nodes: each sureAt is one pass
		start, end, ref, found := nextNamedRef(code, at)
		if !found {
			break
		}
		at = end
		if g.Workflow.Node(ref) != nil || start > 0 && (isIdent(code[start-1]) || code[start-1] == '.') {
			k--
			continue
		}
		if sureAt(code, start) {
			read = code[start:end]
			for _, p := range [...]string{".first()", ".last()", ".all()", ".item"} {
				if strings.HasPrefix(code[end:], p) {
					read += p
					break
				}
			}
			return param, read, ref, true
		}
	}
	return "", "", "", false
}

// codeMissingRefWhy says why such a node fails.
func codeMissingRefWhy(read, name string) string {
	return "its code reads node " + strconv.Quote(name) + " (" + read + "), which the workflow does not have, in a statement that runs on every run: n8n throws \"Referenced node doesn't exist\" before the node returns anything"
}

// sureAt reports whether offset at of JavaScript code (a function's
// body, as n8n runs it) runs whenever the code does: every bracket open
// there is a parenthesis, a square bracket, an object literal's brace, or
// the block of a for...of over the node's input items ($input.all(),
// items), which runs at least once; no return, break or continue outside
// a function comes before its statement (return $('X').all() counts);
// and the statement it is in starts with no
// word that may skip it (if, else, for, while, do, switch, case, default,
// try, catch, finally, function, class) and holds before it no ?, &&, ||
// or => (a branch, optional chaining, a default, a callback). Strings,
// template literals and comments are stepped over (skipLiteral); a read
// inside one is not code. One pass up to at.
func sureAt(code string, at int) bool {
	type frame struct {
		open     int  // the bracket's offset
		block    bool // a statement block (not an object literal)
		sure     bool // the block of a for...of over the input's items
		fn       bool // a function's body
		outerStm int  // the statement start outside it
	}
	var stack []frame
	stmt := 0       // the current statement's start
	lastParen := -1 // the ( of the last ) closed
	inFn := 0       // function bodies open
	stop := -1      // the last return, break or continue outside a function
	for i := 0; i < at; i++ {
		c := code[i]
		switch c {
		case '"', '\'', '`', '/':
			if j := skipLiteral(code, i); j != i {
				if j >= at {
					return false // the read is in a string or a comment
				}
				i = j
			}
		case '(', '[':
			stack = append(stack, frame{open: i, outerStm: stmt})
		case '{':
			f := frame{open: i, outerStm: stmt}
			prev := strings.TrimRight(code[:i], " \t\r\n")
			switch {
			case prev == "":
				f.block = true
			case strings.HasSuffix(prev, "=>"):
				f.block, f.fn = true, true
			case strings.HasSuffix(prev, ")") && lastParen >= 0 && lastParen < len(prev):
				f.block = true
				head := strings.TrimRight(code[:lastParen], " \t\r\n")
				if fnHeadRE.MatchString(head) {
					f.fn = true
				} else if strings.HasSuffix(head, "for") && inputLoopRE.MatchString(code[stmt:i]) {
					f.sure = true
				}
			case strings.ContainsRune("=([,:", rune(prev[len(prev)-1])) || strings.HasSuffix(prev, "return") && (len(prev) == 6 || !isIdent(prev[len(prev)-7])):
				// an object literal
			default:
				f.block = true
			}
			if f.fn {
				inFn++
			}
			stack = append(stack, f)
			if f.block {
				stmt = i + 1
			}
		case ')', ']', '}':
			if len(stack) == 0 {
				return false // not code this reads
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if c == ')' {
				lastParen = f.open
			}
			if f.fn {
				inFn--
			}
			if f.block {
				stmt = i + 1
			}
		case ';':
			if len(stack) == 0 || stack[len(stack)-1].block {
				stmt = i + 1
			}
		default:
			if inFn == 0 && isIdent(c) && (i == 0 || !isIdent(code[i-1])) &&
				(isWordAt(code, i, "return") || isWordAt(code, i, "break") || isWordAt(code, i, "continue")) {
				stop = i
			}
		}
	}
	if stop >= 0 && stop < stmt {
		return false // may end the code, or the loop's pass, before it
	}
	for _, f := range stack {
		if f.block && !f.sure {
			return false
		}
	}
	// The statement it is in, from its start: nothing that may skip it.
	for i := stmt; i < at; i++ {
		c := code[i]
		switch {
		case c == '"' || c == '\'' || c == '`' || c == '/':
			i = skipLiteral(code, i)
		case c == '?', c == '&' && i+1 < at && code[i+1] == '&', c == '|' && i+1 < at && code[i+1] == '|', c == '=' && i+1 < at && code[i+1] == '>':
			return false
		case isIdent(c) && (i == 0 || !isIdent(code[i-1])):
			for _, w := range [...]string{"if", "else", "for", "while", "do", "switch", "case", "default", "try", "catch", "finally", "function", "class"} {
				if isWordAt(code, i, w) {
					return false
				}
			}
		}
	}
	return true
}

var (
	// fnHeadRE matches the text before a function's parameter list.
	fnHeadRE = lazyregexp.New(`(?:^|[^\w$])function\s*\*?\s*[\w$]*$`)
	// inputLoopRE matches a for...of over the node's input items, as the
	// statement before its block.
	inputLoopRE = lazyregexp.New(`^\s*for\s*\(\s*(?:const|let|var)\s+[\w$]+\s+of\s+(?:\$input\.all\(\s*\)|items)\s*\)\s*$`)
)
