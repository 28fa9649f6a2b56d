package analyze

import (
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// A retry layer decided by the model: when a tool call fails, the agent
// may hand the error to the model as the tool's answer, and the model may
// call the tool again, up to the agent's iterations. Around a write with
// no idempotency key, a call that timed out on the client may have
// committed, and the model's second call writes again.

// KindModelRetry is the chain layer of a model calling a tool again.
const KindModelRetry = "model-retry"

// errorToModel are the tools that catch their own failure and answer the
// model with it ("There was an error: …"): the LangChain HTTP Request
// tool (nodes/tools/ToolHttpRequest/utils.ts), the Code tool
// (nodes/tools/ToolCode/ToolCode.node.ts) and the Call Workflow tool v1
// (nodes/tools/ToolWorkflow/v1/ToolWorkflowV1.node.ts).
func errorToModel(n *n8nschema.Node) bool {
	switch n.Type {
	case n8nschema.TypeToolHTTPRequest, n8nschema.TypeToolCode:
		return true
	case n8nschema.TypeToolWorkflow:
		return n.TypeVersion < 2
	}
	return false
}

// ModelRecalls returns the agent that may call tool n again after it
// fails, and how many calls its iterations allow: an Agent v3 or later
// hands every tool's error back to the model as the tool's result
// (utils/agent-execution/buildSteps.ts); older agents only the errors of
// the tools that answer with them (errorToModel), since a thrown tool
// error ends their run. It returns nil for a node that is no tool of an
// agent, or an agent allowed one iteration.
func ModelRecalls(g *Graph, n *n8nschema.Node) (*n8nschema.Node, int) {
	if !g.IsSubNode(n) {
		return nil, 0
	}
	r := g.Root(n)
	if r == nil || !n8nschema.IsAgent(r.Type) || r.Disabled {
		return nil, 0
	}
	isTool := false
	for _, e := range g.Out(n) {
		if e.Type == ConnTool && e.To == r {
			isTool = true
		}
	}
	if !isTool || !(r.TypeVersion >= 3 && strings.HasPrefix(r.Type, n8nschema.TypeAgent) || errorToModel(n)) {
		return nil, 0
	}
	k := AgentIterations(r)
	if k < 2 {
		return nil, 0
	}
	return r, k
}

// An instruction not to call a tool again after it fails is the model's
// own bound on this layer, and RS205's third fix. noRetryRE finds the
// imperative ("Do not retry", "don't call it again", "never try again",
// "stop immediately", "stop all further tool calls", "stop and …");
// failRE the condition it must share a line, or the line before, with ("If
// any tool call returns an error:", "On failure:"): without it the words
// may be about something else.
var (
	noRetryRE = lazyregexp.New(`(?i)\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t)\s+(?:re-?try|try\s+again|re-?attempt|repeat\s+(?:it|the\s+call|the\s+request|the\s+tool\s+call)|call\s+(?:it|the\s+tool|this\s+tool|that\s+tool|any\s+tool|the\s+same\s+tool|[\w-]+)\s+again)\b|\bstop\s+(?:immediately|all\b|calling|and\b)`)
	failRE    = lazyregexp.New(`(?i)\b(?:errors?|fails?|failed|failure|failing)\b`)
	// noRepeatRE is a rule against calling a tool again at all ("Never call
	// the same tool twice", "Do NOT duplicate tool calls", "Never create
	// duplicate events"): it covers a call after a failure too, so it needs
	// no failure condition beside it.
	noRepeatRE = lazyregexp.New(`(?i)\b(?:do\s+not|don'?t|never|must\s+not|should\s+not)\s+(?:call\s+(?:the\s+same|a|any|this|that|one)\s+tool\s+(?:twice|more\s+than\s+once)|(?:make\s+)?duplicates?\s+(?:of\s+)?(?:any\s+)?(?:tool\s+)?calls?|create\s+duplicates?|repeat\s+(?:a|the\s+same|any)\s+tool\s+call)\b`)
)

// maxInstructions bounds the text read for an instruction.
const maxInstructions = 64 << 10

// ToldNotToRetry reports whether the model is told not to call tool n of
// agent again after it fails: in the tool's description (toolDescription,
// description), or in the agent's instructions (options.systemMessage, and
// the prompt text, where some agents put them). An instruction in the
// agent's text covers every tool, unless its lines name another of the
// agent's tools and not n ("If send_sms fails, do not retry" leaves
// book_appointment to the model).
func ToldNotToRetry(g *Graph, agent, n *n8nschema.Node) bool {
	for _, p := range []string{"toolDescription", "description"} {
		if len(noRetryLines(instructionText(n.Params().Get(p)))) > 0 {
			return true
		}
	}
	var others []string
	names := func(s string) bool {
		return strings.Contains(s, strings.ToLower(n.Name)) || toolName(n) != "" && strings.Contains(s, toolName(n))
	}
	for _, e := range g.In(agent) {
		if e.Type == ConnTool && e.From != n {
			if len(e.From.Name) >= 3 {
				others = append(others, strings.ToLower(e.From.Name))
			}
			if t := toolName(e.From); t != "" {
				others = append(others, t)
			}
		}
	}
	for _, p := range []string{"options.systemMessage", "text"} {
		for _, window := range noRetryLines(instructionText(agent.Params().Get(p))) {
			w := strings.ToLower(window)
			if names(w) || !slices.ContainsFunc(others, func(o string) bool { return strings.Contains(w, o) }) {
				return true
			}
		}
	}
	return false
}

// toolName is the name a tool gives the model when it sets one (the Call
// Workflow and Code tools' "name"), lower-cased, or "".
func toolName(n *n8nschema.Node) string {
	if v := n.Params().Get("name"); v.Kind() == n8nschema.String && len(strings.TrimSpace(v.Str())) >= 3 {
		return strings.ToLower(strings.TrimSpace(v.Str()))
	}
	return ""
}

// instructionText is the text an instruction parameter gives the model.
// In an expression the prose often sits in JavaScript string literals
// ({{ "Current date: " + $now + "\n\n1. …\n6. If a tool fails, …" }}),
// whose \n escapes n8n renders as line breaks: they split its lines as
// the model reads them.
func instructionText(v n8nschema.Value) string {
	s := v.Str()
	if v.IsExpr() && strings.Contains(s, `\n`) {
		s = strings.ReplaceAll(strings.ReplaceAll(s, `\r\n`, "\n"), `\n`, "\n")
	}
	return s
}

// noRetryLines returns, for each line of s holding a no-retry imperative,
// that line, with the one before it when only that one holds the failure
// condition; each line holding a rule against repeating a tool call at
// all; and each line that tells the model to answer with the failure
// (reportLine).
func noRetryLines(s string) []string {
	if len(s) > maxInstructions {
		s = s[:maxInstructions]
	}
	// The patterns run line by line, never over the whole text first: a
	// match in a line is one in the text, and a line is short enough for
	// the backtracker, where the text sent the patterns (hundreds of
	// instructions) through the slower machine at every byte.
	var out []string
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if noRepeatRE.MatchString(l) {
			out = append(out, l)
			continue
		}
		prev := ""
		if i > 0 {
			prev = lines[i-1]
		}
		if reportLine(prev, l) {
			out = append(out, l)
			continue
		}
		if !noRetryRE.MatchString(l) {
			continue
		}
		// The line before counts only for its condition: its other words
		// (a tool it names) are another instruction's.
		switch {
		case failRE.MatchString(l):
			out = append(out, l)
		case failRE.MatchString(prev):
			out = append(out, prev+"\n"+l)
		}
	}
	return out
}

// An instruction that answers a tool's failure with a message puts that
// answer where a retry would go: "If a tool fails, say so plainly, then
// answer from your own knowledge", "If a tool returns an error, explain
// the issue politely", "Notify the user if a tool fails", "Tool error or
// empty result: apologize". reportREs find the answer, failCondRE the
// failure it is the answer to (a condition, or a heading ending in ":"),
// retryRE a retry the same line still asks for ("retry once, then tell
// the user"), which keeps the tool the model's to call again.
var (
	// reportREs are the answer's forms, one pattern each: l matches one
	// when it matches their alternation. The alternation had no literal
	// every match holds, so it ran the backtracker at every byte of every
	// line that got this far; each form has one (lazyregexp's needs), and
	// most lines hold none.
	reportREs = [...]*lazyregexp.Regexp{
		lazyregexp.New(`(?i)\b(?:tell|inform|notify|warn|let)\s+(?:the\s+|your\s+)?(?:user|customer|caller|client|patient|person|requester|them)\b`),
		lazyregexp.New(`(?i)\bsay\s+so\b`),
		lazyregexp.New(`(?i)\b(?:explain|report|mention|state|acknowledge|describe)\s+(?:it|this|that|so|the\s+(?:error|issue|problem|failure))\b`),
		lazyregexp.New(`(?i)\bapologi[sz]e`),
		lazyregexp.New(`(?i)\b(?:answer|respond|reply)\s+(?:from\s+your\s+own\s+knowledge|without\b)`),
		lazyregexp.New(`(?i)\breturn\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}(?:error|message)\b`),
		lazyregexp.New(`(?i)\buse\s+(?:a|the)\s+fallback\b`),
	}
	failCondRE = lazyregexp.New(`(?i)\b(?:if|when|whenever|on|upon|after|in\s+case\s+of)\b[^.!?\n]{0,80}?\b(?:errors?|fails?|failed|failure|failing)\b|\b(?:errors?|failures?)\b[^.!?:\n]{0,40}:`)
	personRE   = lazyregexp.New(`(?i)\b(?:user|users|customer|client|patient|caller|lead|buyer|guest|student|member)'?s?\b`)
	retryRE    = lazyregexp.New(`(?i)\b(?:re-?try|retries|retrying|try\s+(?:it\s+)?(?:again|once\s+more)|re-?attempt|call\s+(?:it|the\s+tool|[\w-]+)\s+again|another\s+attempt)\b`)
	// retryNotOwn is what, just before a retry word, makes it no retry
	// of the model's: a negation ("do not retry"), or the user's own try
	// ("suggest the user try again").
	retryNotOwn = lazyregexp.New(`(?i)(?:\b(?:not|never|no|don'?t|n't|without)\b[^.;,]{0,20}|\b(?:suggest(?:ing)?|ask(?:ing)?|propose|offer|invite)\b[^.;,]{0,25}|\b(?:user|users|customer|client|they|them)\s+(?:to\s+|can\s+|could\s+|should\s+|may\s+)?)$`)
)

// toolFails reports whether s holds a failure condition that is no
// person's ("If the customer reports an error" is a topic, not a tool's
// failure).
func toolFails(s string) bool {
	for _, c := range failCondRE.FindAllString(s, -1) {
		if !personRE.MatchString(c) {
			return true
		}
	}
	return false
}

// reportLine reports whether line l tells the model to answer a failure
// with a message, the failure named on l or on the heading before it
// ("If any tool call returns an error:"), and l asks for no retry of the
// model's own.
func reportLine(prev, l string) bool {
	if !slices.ContainsFunc(reportREs[:], func(re *lazyregexp.Regexp) bool { return re.MatchString(l) }) {
		return false
	}
	heading := strings.HasSuffix(strings.TrimSpace(prev), ":") && toolFails(prev)
	if !heading && !toolFails(l) {
		return false
	}
	for _, m := range retryRE.FindAllStringIndex(l, -1) {
		if !retryNotOwn.MatchString(l[max(0, m[0]-30):m[0]]) {
			return false
		}
	}
	return true
}
