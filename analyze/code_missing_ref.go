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

// bindsDollar reports code that declares or assigns $ itself, or takes
// it as a parameter: a bare $ (not part of a name, nor a property after a
// ".") followed by "=" (not "=="), "=>", "," or ")", or one after const,
// let, var or function. One pass over the code's $ signs; it answers as
// the regexp `(?:^|[^\w$.])\$\s*(?:=[^=]|=>|,|\))|(?:const|let|var|function)\s+\$(?:[^\w$]|$)`
// did (TestBindsDollar), which cost 7 % of an audit's CPU on the corpus.
func bindsDollar(code string) bool {
	for i := strings.IndexByte(code, '$'); i >= 0; {
		j := i + 1
		if j == len(code) || !isWordByte(code[j]) && code[j] != '$' {
			// A bare $: what follows it, past white space.
			k := j
			for k < len(code) && jsSpace(code[k]) {
				k++
			}
			if k < len(code) {
				switch c := code[k]; {
				case c == ',' || c == ')':
					if i == 0 || !isWordByte(code[i-1]) && code[i-1] != '$' && code[i-1] != '.' {
						return true
					}
				case c == '=' && k+1 < len(code) && code[k+1] != '=':
					if i == 0 || !isWordByte(code[i-1]) && code[i-1] != '$' && code[i-1] != '.' {
						return true
					}
				}
			}
			// A declaration: a keyword, then white space, then $.
			b := i
			for b > 0 && jsSpace(code[b-1]) {
				b--
			}
			if b < i {
				for _, kw := range [...]string{"const", "let", "var", "function"} {
					if strings.HasSuffix(code[:b], kw) {
						return true
					}
				}
			}
		}
		n := strings.IndexByte(code[j:], '$')
		if n < 0 {
			return false
		}
		i = j + n
	}
	return false
}

// jsSpace is the regexp class \s: tab, newline, form feed, carriage
// return, space.
func jsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// codeMissingRef reports a Code (JavaScript), Function or Function Item
// node i whose code surely reads a node the workflow does not have: the
// code's parameter, the read as written ($('X').all()) and the name.
func codeMissingRef(g *Graph, i int) (param, read, name string, ok bool) {
	nd := g.Nodes[i]
	if g.sub[i] {
		return "", "", "", false
	}
	code, isCode := staticCode(nd)
	if !isCode || len(code) > maxStaticCode || !readsByName(code) || bindsDollar(code) {
		return "", "", "", false // longer code is not judged (as staticUses)
	}
	param = "functionCode"
	if _, js := jsCode(nd); js {
		param = "jsCode"
	}
	at := 0
	var sure sureScanner     // the reads come in code order: one pass in all
	for k := 0; k < 8; k++ { // a few reads of missing nodes
		start, end, ref, found := nextNamedRef(code, at)
		if !found {
			break
		}
		at = end
		if g.Workflow.Node(ref) != nil || start > 0 && (isIdent(code[start-1]) || code[start-1] == '.') {
			k--
			continue
		}
		if sure.at(code, start) {
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
// items), which runs at least once; no return, break, continue or throw outside
// a function comes before its statement (return $('X').all() counts);
// and the statement it is in starts with no
// word that may skip it (if, else, for, while, do, switch, case, default,
// try, catch, finally, function, class) and holds before it no ?, &&, ||
// or => (a branch, optional chaining, a default, a callback). Strings,
// template literals, regex literals and comments are stepped over (the
// shared nester and skipLiteral, js_scan.go); a read inside one is not
// code. Code past maxStaticCode is not judged (false, the narrow answer).
// One pass up to at: a caller that asks several offsets keeps one
// sureScanner.
//
// static_gate.go's gate test asks a narrower question of its own: a read
// at brace depth 0 with no return or try written anywhere before it (in a
// function or a string too), since a gate's throw must not be caught nor
// passed by; sureAt lets a read follow a closed try or a function that
// returns, and sit in a for...of over the input's items.
func sureAt(code string, at int) bool {
	var s sureScanner
	return s.at(code, at)
}

// sureScanner answers sureAt for offsets of one code in one forward pass:
// an offset before the last one asked starts the pass again.
type sureScanner struct {
	code   string
	nest   nester
	asked  int
	frames []sureFrame // one for each bracket open (nest.open)
	unsure int         // frames that are blocks and not a sure loop's

	stmt      int  // the current statement's start
	lastParen int  // the ( of the last ) closed
	inFn      int  // function bodies open
	stop      int  // the last return, break, continue or throw outside a function
	broken    bool // a close with nothing open, or not of its opener's kind: not code this reads
	// skips holds the last two offsets where the statement text shows
	// something that may skip what follows (?, &&, ||, =>, if, ...): the
	// end of the token's first byte pair for && || =>, so that a token
	// cut by the offset asked does not count, as the old second pass did.
	skips [2]int
}

type sureFrame struct {
	open  int  // the bracket's offset
	kind  byte // the bracket: (, [ or {
	block bool // a statement block (not an object literal)
	sure  bool // the block of a for...of over the input's items
	fn    bool // a function's body
}

func (s *sureScanner) reset(code string) {
	*s = sureScanner{code: code, lastParen: -1, stop: -1, skips: [2]int{-1, -1}}
	s.nest.visit = s.visit
}

func (s *sureScanner) at(code string, at int) bool {
	if len(code) > maxStaticCode {
		return false
	}
	if s.nest.visit == nil || code != s.code || at < s.asked {
		s.reset(code)
	}
	s.asked = at
	s.nest.at(code, at)
	switch {
	case s.nest.i > at:
		return false // the read is in a string or a comment
	case s.broken:
		return false
	case s.stop >= 0 && s.stop < s.stmt:
		return false // may end the code, or the loop's pass, before it
	case s.unsure > 0:
		return false
	}
	for _, k := range s.skips {
		if k >= s.stmt && k < at {
			return false
		}
	}
	return true
}

func (s *sureScanner) skip(k int) { s.skips = [2]int{s.skips[1], k} }

// visit reads byte i of the code: nest has counted its bracket.
func (s *sureScanner) visit(i int) {
	if s.broken {
		return
	}
	code := s.code
	c := code[i]
	switch c {
	case '(', '[':
		s.frames = append(s.frames, sureFrame{open: i, kind: c})
	case '{':
		f := sureFrame{open: i, kind: c}
		prev := strings.TrimRight(code[:i], " \t\r\n")
		switch {
		case prev == "":
			f.block = true
		case strings.HasSuffix(prev, "=>"):
			f.block, f.fn = true, true
		case strings.HasSuffix(prev, ")") && s.lastParen >= 0 && s.lastParen < len(prev):
			f.block = true
			head := strings.TrimRight(code[:s.lastParen], " \t\r\n")
			if fnHead(head) {
				f.fn = true
			} else if strings.HasSuffix(head, "for") && inputLoopRE.MatchString(code[s.stmt:i]) {
				f.sure = true
			}
		case strings.ContainsRune("=([,:", rune(prev[len(prev)-1])) || strings.HasSuffix(prev, "return") && (len(prev) == 6 || !isIdent(prev[len(prev)-7])):
			// an object literal
		default:
			f.block = true
		}
		if f.fn {
			s.inFn++
		}
		if f.block && !f.sure {
			s.unsure++
		}
		s.frames = append(s.frames, f)
		if f.block {
			s.stmt = i + 1
		}
	case ')', ']', '}':
		if s.nest.depth < 0 || len(s.frames) == 0 || s.frames[len(s.frames)-1].kind != "([{"[strings.IndexByte(")]}", c)] {
			s.broken = true // a misread (a regex or a string that is not one) leaves the rest unread
			return
		}
		f := s.frames[len(s.frames)-1]
		s.frames = s.frames[:len(s.frames)-1]
		if c == ')' {
			s.lastParen = f.open
		}
		if f.fn {
			s.inFn--
		}
		if f.block && !f.sure {
			s.unsure--
		}
		if f.block {
			s.stmt = i + 1
		}
	case ';':
		if len(s.frames) == 0 || s.frames[len(s.frames)-1].block {
			s.stmt = i + 1
		}
	case '?':
		s.skip(i)
	case '&', '|', '=':
		if i+1 < len(code) && code[i+1] == "&|>"[strings.IndexByte("&|=", c)] {
			s.skip(i + 1)
		}
	default:
		if isIdent(c) && (i == 0 || !isIdent(code[i-1])) {
			if s.inFn == 0 && (isWordAt(code, i, "return") || isWordAt(code, i, "break") || isWordAt(code, i, "continue") || isWordAt(code, i, "throw")) {
				s.stop = i
			}
			for _, w := range [...]string{"if", "else", "for", "while", "do", "switch", "case", "default", "try", "catch", "finally", "function", "class"} {
				if isWordAt(code, i, w) {
					s.skip(i)
					break
				}
			}
		}
	}
}

// fnHead reports the text before a function's parameter list, as the
// regexp (?:^|[^\w$])function\s*\*?\s*[\w$]*$ would, reading back from its
// end only (the regexp, unanchored, read the whole prefix at each brace).
func fnHead(head string) bool {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	j := len(head)
	for j > 0 && isIdent(head[j-1]) {
		j--
	}
	if strings.HasPrefix(head[j:], "function") {
		return true // function, or functionName glued: the name follows
	}
	for j > 0 && isSpace(head[j-1]) {
		j--
	}
	if j > 0 && head[j-1] == '*' {
		for j--; j > 0 && isSpace(head[j-1]); j-- {
		}
	}
	return strings.HasSuffix(head[:j], "function") && (j == 8 || !isIdent(head[j-9]))
}

var (
	// inputLoopRE matches a for...of over the node's input items, as the
	// statement before its block.
	inputLoopRE = lazyregexp.New(`^\s*for\s*\(\s*(?:const|let|var)\s+[\w$]+\s+of\s+(?:\$input\.all\(\s*\)|items)\s*\)\s*$`)
)
