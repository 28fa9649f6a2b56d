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
		if len(noRetryLines(n.Params().Get(p).Str())) > 0 {
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
		for _, window := range noRetryLines(agent.Params().Get(p).Str()) {
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

// noRetryLines returns, for each line of s holding a no-retry imperative,
// that line with the one before it, when the two hold a failure condition,
// and each line holding a rule against repeating a tool call at all.
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
		if !noRetryRE.MatchString(l) {
			continue
		}
		w := l
		if i > 0 {
			w = lines[i-1] + "\n" + l
		}
		if failRE.MatchString(w) {
			out = append(out, w)
		}
	}
	return out
}
