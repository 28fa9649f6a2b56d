package analyze

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// A template leaves some resources for its owner to name: a sheet
// "YOUR_SPREADSHEET_ID", a calendar "<your-calendar>" (n8nschema.BlankTarget),
// or an API key a config Set node holds as "" for the owner to fill in
// (blankKey). As exported, the node that asks its service for such a
// resource, or with such a key, fails on every item, and a run that must
// pass it stops there: what lies behind it happens only once the owner
// fills the blank in, as for a required parameter left blank (RefusedRun).

// Blank is a node of the main flow that names a template's blank and so
// fails on every item as exported (blankOf), as BehindBlank gives it.
type Blank struct {
	Node *n8nschema.Node
	// Fill says what fills the blank in, as a clause ("node "Get rows"'s
	// "documentId", a template's blank, names a real resource").
	Fill string
	// Until says what the node does until then ("fails on every item",
	// "never starts a run" for a trigger).
	Until string
	// Self: the finding's own node is the blank one.
	Self bool
	// Mends says, for a blank whose own fault a finding may name (a
	// template's credential of a type the node does not take:
	// n8nschema.CredentialBlank.WrongType), what the node holds as
	// exported ("it holds no usable credential: ..."); filling it in (the
	// credential field offers only the types the node takes:
	// wrongTypeBlank) mends that fault (Blank.Mended).
	Mends string
}

// BehindBlank reports a node that names a template's blank itself
// (blankOf: its own call fails on every item as exported, whatever else a
// finding says of it), or that every run reaches only past a node of the
// main flow that names one and stops the run when its call fails (it does
// not continue on failure), or sends every failed item to its error
// output and none on (errorItemsOnly: then what its error output leads to
// is reached). A sub-node takes its root's answer.
//
// A sub-node whose own credential is a template's blank (a tool, a model:
// subBlankOf) fails on every call it gets; a sub-node of a root that
// names one (its model's credential, blankOf) is never asked while the
// root fails: that blank lies before it, not on it.
func (g *Graph) BehindBlank(n *n8nschema.Node) (Blank, bool) {
	i, in := g.blankIndex(n)
	if !in {
		return Blank{}, false
	}
	if b, ok := g.ownSubBlank(n, i); ok {
		return b, true
	}
	if b, ok := g.blankAt[int32(i)]; ok && g.blankRun[i] {
		// A node no run reaches, even once the nodes that fail before it
		// are fixed (a branch never taken, no trigger), fails on
		// nothing: its own blank gates no finding about it.
		b.Self = g.Nodes[i] == n
		return b, true
	}
	return g.blankBefore(i)
}

// ownSubBlank returns the blank of sub-node n's own credential
// (subBlankOf), when a run reaches its root (index root).
func (g *Graph) ownSubBlank(n *n8nschema.Node, root int) (Blank, bool) {
	if len(g.blankSub) == 0 || g.Nodes[root] == n || !g.blankRun[root] {
		return Blank{}, false
	}
	j, ok := g.index(n)
	if !ok {
		return Blank{}, false
	}
	b, ok := g.blankSub[int32(j)]
	return b, ok
}

// BlankBefore is BehindBlank without the node's own blank: a blank node
// of the main flow that every run passes before it. A finding about how
// the node's own failure is handled (continued past, retried) holds
// whatever fails it, its own blank too, but not a run that stops before.
func (g *Graph) BlankBefore(n *n8nschema.Node) (Blank, bool) {
	i, in := g.blankIndex(n)
	if !in {
		return Blank{}, false
	}
	return g.blankBefore(i)
}

// blankIndex returns the index of the node whose blanks n takes: n, or
// the root a sub-node works for, once the blank reach is filled; false
// when no node before it names a blank (blankClear), so none gates it.
func (g *Graph) blankIndex(n *n8nschema.Node) (int, bool) {
	if n == nil {
		return 0, false
	}
	for depth := 0; g.IsSubNode(n) && depth <= maxRootLevel; depth++ {
		if n = g.Root(n); n == nil {
			return 0, false
		}
	}
	i, ok := g.index(n)
	if !ok || g.blankClear(i) {
		return 0, false
	}
	g.blankOnce.Do(g.blankReach)
	return i, true
}

// blankClear reports that no node names a blank (blankReach's blankOf,
// subBlankOf or fillInGate) among node i and every node with a way to it
// along any edge, its sub-nodes among them (a sub-node's edge leads to
// its root). Only such a node can stand in the reach's answer for i or
// for a sub-node of i's: a blank node or gate before i (blankOnly), i's
// own blank or its models' (blankAt), the sub-node's own (blankSub). So
// the reach is filled only for a graph where a node asked about has a
// blank before it; the nodes read are kept (blankSeen), so each is
// judged once whatever the order of the questions. Most graphs name no
// blank, and a finding's node has the nodes before it to read, not the
// whole graph (the nodes after the last finding are never judged).
func (g *Graph) blankClear(i int) bool {
	g.blankMu.Lock()
	defer g.blankMu.Unlock()
	if g.blankFound {
		return false
	}
	if g.blankSeen == nil {
		g.blankSeen = make([]uint8, len(g.Nodes))
		g.noSet, g.noOldSet = true, true
		for _, n := range g.Nodes {
			if n.Type == n8nschema.TypeSet && !n.Disabled {
				g.noSet = false
				g.noOldSet = g.noOldSet && n.TypeVersion >= 3
			}
		}
	}
	// In a published export no value is a template's blank (blankOf) but
	// a tool's target (subBlankOf), and the reach reads no gate.
	shown := RunStateOf(g.Workflow) == RunShown
	var stack []int32
	push := func(k int32) {
		if g.blankSeen[k] == 0 {
			g.blankSeen[k] = seenQueued
			stack = append(stack, k)
		}
	}
	push(int32(i))
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if g.namesBlank(int(k), shown) {
			g.blankFound = true
			return false
		}
		g.blankSeen[k] = seenClear
		for _, e := range g.ins(int(k)) {
			push(e.from)
		}
	}
	return true
}

// What blankClear knows of a node (Graph.blankSeen): queued to be read,
// or read and found to name no blank (namesBlank), which blankReach then
// need not ask again.
const (
	seenQueued = 1 + iota
	seenClear
)

// cleared reports a node blankClear read and found to name no blank.
func (g *Graph) cleared(i int) bool { return g.blankSeen != nil && g.blankSeen[i] == seenClear }

// namesBlank reports a node (index i) that blankReach would keep: an
// enabled sub-node subBlankOf reports, or an enabled node of the main
// flow blankOf or fillInGate does. blankSub is empty while blankClear
// asks, so modelBlank answers no: a root's blank models are its sub-nodes,
// read as the nodes before it.
func (g *Graph) namesBlank(i int, shown bool) bool {
	n := g.Nodes[i]
	if n.Disabled {
		return false
	}
	if g.sub[i] {
		_, ok := g.subBlankOf(i)
		return ok
	}
	if shown {
		return false
	}
	if _, ok := g.blankOf(i); ok {
		return true
	}
	if n.Type == n8nschema.TypeIf || n.Type == n8nschema.TypeFilter {
		_, ok := g.fillInGate(i)
		return ok
	}
	return false
}

func (g *Graph) blankBefore(i int) (Blank, bool) {
	if g.blankOnly == nil {
		return Blank{}, false
	}
	at, found := g.blankOnly[int32(i)]
	if !found {
		return Blank{}, false
	}
	if b, ok := g.blankAt[at]; ok {
		return b, true
	}
	b, ok := g.blankGate[at]
	return b, ok
}

// blankOf reports a node that names a template's blank, so that its call
// fails on every item as exported: a target (n8nschema.BlankTarget), or
// one a config Set node holds as a template's blank (configTarget), a key
// a config Set node leaves blank (blankKey), a key typed as a blank
// (n8nschema.BlankKey: "Bearer YOUR_API_KEY", "<your_api_key>"), a
// credential whose id is a blank or that names no credential at all
// (n8nschema.BlankCredential; one stored by name alone is the owner's,
// bound by name on import, no blank), a required credential the node
// does not name at all in an export that keeps the others'
// (LacksCredential), in a workflow
// the export does not show published: one shown so ran with real ids,
// which the author replaced to share it, as RS007 reads it), or an HTTP
// Request to a host that only holds a place (n8nschema.FillInHost:
// push.yourdomain.com) or whose URL names a resource by a fill-in
// (n8nschema.BlankURL: /v4/YOUR_ACCOUNT/locations/YOUR_LOCATION). A
// trigger counts for its credential and its target only: it never starts
// a run.
//
// In a workflow the export shows published (`active: true`, an
// activeVersion: RunStateOf), no value is a template's blank: the
// workflow ran with real ids, keys and URLs, and the author blanked them
// out to share it (as RS007 reads a credential and RS010 a required
// parameter of such an export), so the defect is live and a finding on
// the node, or behind it, keeps its severity.
func (g *Graph) blankOf(i int) (Blank, bool) {
	n := g.Nodes[i]
	role := g.specs[i].Role
	if g.sub[i] || RunStateOf(g.Workflow) == RunShown {
		return Blank{}, false
	}
	if b, ok := g.modelBlank(i); ok {
		return b, true
	}
	if role != n8nschema.RoleExternal && role != n8nschema.RoleTrigger {
		return Blank{}, false
	}
	if c, ok := n8nschema.BlankCredential(n); ok {
		b := Blank{Node: n, Fill: fmt.Sprintf("node %q's %q credential, %s, names a credential of the instance", n.Name, c.Type, CredentialBlankIs(c)),
			Until: "fails on every item"}
		if role == n8nschema.RoleTrigger {
			b.Until = "never starts a run"
		}
		if c.WrongType {
			b.Mends = fmt.Sprintf("it holds no usable credential: %q, %s, is of a type the node does not take", c.Type, CredentialBlankIs(c))
		}
		return b, true
	}
	if role == n8nschema.RoleTrigger {
		// A trigger that watches a blank (a folder, sheet or channel
		// "[Your folder ID]") starts no run: a poller's first poll, made
		// when the workflow is published, throws and n8n refuses the
		// publish (n8n-core/dist/execution-engine/
		// active-workflow-triggers.js activatePollTrigger, executePollTrigger(true)),
		// or it watches nothing that exists.
		if param, ok := n8nschema.BlankLocator(n); ok {
			return Blank{Node: n, Fill: fmt.Sprintf("node %q's %q, a template's blank, names a real resource", n.Name, param), Until: "never starts a run"}, true
		}
		return Blank{}, false
	}
	// A required credential the node does not name, in an export that
	// keeps the other nodes' credentials (LacksCredential: one that strips
	// them all leaves nothing a blank): the node throws "Node does not
	// have any credentials set" at its getCredentials call, on every item
	// (n8n-core/dist/execution-engine/node-execution-context/
	// node-execution-context.js L223-233), and n8n refuses to publish the
	// workflow (n8n-workflow/dist/cjs/node-validation.js
	// validateNodeCredentials), until the owner sets one.
	// Only a node that names no credential at all (an empty credentials
	// block): one that holds a credential of another type has a fault of
	// its own, which RS010 reports as live.
	if c, ok := g.lacksCredential(n); ok {
		return Blank{Node: n, Fill: fmt.Sprintf("node %q's required %q credential is set", n.Name, c), Until: "fails on every item"}, true
	}
	if param, src, field, ok := g.targetBlank(n); ok && src == nil {
		return Blank{Node: n, Fill: fmt.Sprintf("node %q's %q, a template's blank, names a real resource", n.Name, param), Until: "fails on every item"}, true
	} else if ok {
		return Blank{Node: n, Fill: fmt.Sprintf("node %q's %q, read from %q's %q, a template's blank, names a real resource", n.Name, param, src.Name, field),
			Until: "fails on every item"}, true
	}
	if g.noSet {
		// No Set node leaves a key blank for blankKey to read.
	} else if where, ok := g.blankKey(n); ok {
		return Blank{Node: n, Fill: fmt.Sprintf("node %q's %s carries a key (it reads a field a Set node leaves blank for the owner)", n.Name, where),
			Until: "fails on every item"}, true
	}
	if where, ok := n8nschema.BlankKey(n); ok {
		return Blank{Node: n, Fill: fmt.Sprintf("node %q's %s, a template's blank, carries a real key", n.Name, where), Until: "fails on every item"}, true
	}
	if n8nschema.IsHTTPRequest(n.Type) {
		if !mayFillInHost(n) {
			// No host to read as a fill-in.
		} else if h := URLHost(n); n8nschema.FillInHost(h) {
			return Blank{Node: n, Fill: fmt.Sprintf("node %q's host %q, a template's blank, names a real server", n.Name, h), Until: "fails on every item"}, true
		}
		if part, ok := n8nschema.BlankURL(n); ok {
			return Blank{Node: n, Fill: fmt.Sprintf("node %q's URL %s, a template's blank, names a real resource", n.Name, part), Until: "fails on every item"}, true
		}
	}
	return Blank{}, false
}

// mayFillInHost reports an HTTP Request whose URL, as written, may hold a
// host FillInHost reads as a fill-in: its authority (after the first
// "://", up to "/", "?" or "#", as URLHost reads it once lowered) holds
// '<', '>', '[' or ']', or "your" in any case. A byte past ASCII, which
// may lower to a letter, says yes too.
func mayFillInHost(n *n8nschema.Node) bool {
	v, _ := n.Param("url")
	_, u, ok := strings.Cut(v.Str(), "://")
	if !ok {
		return false
	}
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case c == '/', c == '?', c == '#':
			return false
		case c == '<', c == '>', c == '[', c == ']', c >= utf8.RuneSelf:
			return true
		case c|0x20 == 'y' && i+3 < len(u) && u[i+1]|0x20 == 'o' && u[i+2]|0x20 == 'u' && u[i+3]|0x20 == 'r':
			return true
		}
	}
	return false
}

// subBlankOf reports a sub-node whose own credential is a template's
// blank (n8nschema.BlankCredential): a model asked on every item, or a
// tool whose every call fails (the agent hands the error back to its
// model as the tool's answer and goes on: n8n-nodes-langchain
// dist/utils/agent-execution, so the root does not stop). In a workflow
// the export shows published, none is (blankOf).
func (g *Graph) subBlankOf(i int) (Blank, bool) {
	n := g.Nodes[i]
	if !g.sub[i] {
		return Blank{}, false
	}
	// An agent's tool that asks its service for a template's blank
	// resource (a calendar "YOUR_CALENDAR_EMAIL_HERE") fails on every
	// call as its root's own target would (blankOf). A published export
	// does not say otherwise: a tool's failed call goes back to the
	// model as its answer and fails no run, so the owner may never see it
	// (docs/n8n-facts.md, "A tool's failure never fails its agent").
	if slices.ContainsFunc(g.outs(i), func(e *Edge) bool { return e.Type == ConnTool }) {
		if param, ok := n8nschema.BlankTarget(n); ok {
			return Blank{Node: n, Fill: fmt.Sprintf("node %q's %q, a template's blank, names a real resource", n.Name, param),
				Until: "fails on every call", Self: true}, true
		}
	}
	if RunStateOf(g.Workflow) == RunShown {
		return Blank{}, false
	}
	if c, ok := n8nschema.BlankCredential(n); ok {
		return Blank{Node: n, Fill: fmt.Sprintf("node %q's %q credential, %s, names a credential of the instance", n.Name, c.Type, CredentialBlankIs(c)),
			Until: "fails on every call", Self: true}, true
	}
	return Blank{}, false
}

// modelBlank reports a root (an agent, a chain) whose every enabled chat
// model sub-node names a template's blank as its credential
// (n8nschema.BlankCredential): the root asks its model first on every
// item (a fallback model only when the first fails), and with no model
// that answers it fails, so what lies after it is never reached. It reads
// the root's (index i) edges in, as SubNodes lists them, without the list,
// and a model's blank as blankSub holds it: blankReach fills that first.
func (g *Graph) modelBlank(i int) (Blank, bool) {
	if len(g.blankSub) == 0 {
		return Blank{}, false
	}
	root := g.Nodes[i]
	var first *n8nschema.Node
	for _, e := range g.ins(i) {
		m := e.From
		if e.Type != ConnModel || m.Disabled {
			continue
		}
		if _, ok := g.blankSub[e.from]; !ok {
			return Blank{}, false
		}
		if first == nil {
			first = m
		}
	}
	if first == nil {
		return Blank{}, false
	}
	fc, _ := n8nschema.BlankCredential(first)
	return Blank{Node: root, Fill: fmt.Sprintf("node %q's model, %q, names a credential of the instance (its %q credential is %s)", root.Name, first.Name, fc.Type, CredentialBlankIs(fc)),
		Until: "fails on every item"}, true
}

// CredentialBlankIs says, as a clause, how a credentials entry is a
// template's blank (n8nschema.TemplateCredential): `a template's blank
// (id "REPLACE_ME")`, `stored with no id and no name`. An entry stored by
// name alone (ByName) is the owner's credential, no blank, and is never
// worded here.
func CredentialBlankIs(c n8nschema.CredentialBlank) string {
	if !c.NameOnly {
		return fmt.Sprintf("a template's blank (id %q)", c.ID)
	}
	return "stored with no id and no name"
}

// lacksCredential is LacksCredential for a node that names no credential
// at all, asked first.
func (g *Graph) lacksCredential(n *n8nschema.Node) (string, bool) {
	if len(n.Credentials) > 0 {
		return "", false
	}
	return g.LacksCredential(n)
}

// targetBlank is n8nschema.BlankTarget, then configTarget (src not nil),
// in one walk of the node's targets (n8nschema.EachTarget): a target that
// is a template's blank as written comes first, wherever it stands. A
// graph with no Set node has no config node for configTarget to read.
func (g *Graph) targetBlank(n *n8nschema.Node) (param string, src *n8nschema.Node, field string, found bool) {
	n8nschema.EachTarget(n, func(k, s string, nameMode bool) bool {
		if n8nschema.BlankID(s, nameMode) {
			param, src, field, found = k, nil, "", true
			return false
		}
		if !found && !g.noSet {
			src, field, found = g.configTarget(s, n, nameMode)
			if found {
				param = k
			}
		}
		return true
	})
	return param, src, field, found
}

// configTarget reports a target parameter's value s of node n
// (n8nschema.EachTarget: a resource locator's value, an id-named string
// parameter, an SMS sender) that is an expression that reads, whole, one
// field a Set node writes as a template's blank id (n8nschema.BlankID:
// "C0XXXXXXXXX", "YOUR_SPREADSHEET_ID"):
// ={{ $('Config').first().json.slackChannel }}, or {{ $json.sheetId }}
// from the Set node that feeds it (setFixes). A Set node in manual mode
// writes each field it names with the literal written in it on every item
// (nodes-base/nodes/Set/v2/manual.mode.js), and the node resolves its
// parameter from that field, so every call asks its service for the
// resource the blank names, as a literal one would (n8nschema.BlankTarget):
// the one config node at a template's start that holds every id for the
// owner to fill in. It returns the Set node (the first, when $json reads
// several that all write it so) and the field. Only such an expression is
// resolved.
func (g *Graph) configTarget(s string, n *n8nschema.Node, nameMode bool) (*n8nschema.Node, string, bool) {
	body, ok := wholeExpr(s)
	if !ok || !strings.Contains(body, "json") {
		return nil, "", false
	}
	srcs, f := setSources(g, n, body)
	if len(srcs) == 0 {
		return nil, "", false
	}
	for _, from := range srcs {
		v, ok := setLiteral(from, f)
		if !ok || !n8nschema.BlankID(v, nameMode) {
			return nil, "", false
		}
	}
	return srcs[0], f, true
}

// wholeExpr returns what the one {{ }} of a parameter's expression holds
// when it is the whole value ("={{ $json.sheetId }}").
func wholeExpr(s string) (string, bool) {
	s, ok := strings.CutPrefix(strings.TrimSpace(s), "=")
	if !ok {
		return "", false
	}
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{{") || !strings.HasSuffix(s, "}}") || len(s) < 4 {
		return "", false
	}
	body := s[2 : len(s)-2]
	if strings.Contains(body, "{{") || strings.Contains(body, "}}") {
		return "", false
	}
	return strings.TrimSpace(body), true
}

// blankKey reports an HTTP Request whose key, a header or query parameter
// named for one (key, auth, token), takes its value from a field that the
// Set node it reads writes as "" or as a template's blank ("YOUR_API_KEY",
// "-put-your-api-key-": n8nschema.BlankKeyText, which reads no key a
// service issues as one, such as "sk_live_…", as Placeholder's
// snake_case pattern would): a config node the owner has not filled in, so
// the service refuses every call. It names the parameter (header "Authorization").
// The key-value lists are read (n8nschema.SentParams), and the headers and
// query parameters written as JSON (n8nschema.SentJSONParams).
func (g *Graph) blankKey(n *n8nschema.Node) (string, bool) {
	if !n8nschema.IsHTTPRequest(n.Type) {
		return "", false
	}
	blank := func(v string) bool { return strings.TrimSpace(v) == "" || n8nschema.BlankKeyText(v) }
	// fromSet: one of the {{ }} parts of s (exprRE's: from a "{{" to the
	// first "}}" after it, found by byte search) reads such a field.
	fromSet := func(s string) bool {
		for {
			i := strings.Index(s, "{{")
			if i < 0 {
				return false
			}
			s = s[i+2:]
			j := strings.Index(s, "}}")
			if j < 0 {
				return false
			}
			if setFixes(g, n, strings.TrimSpace(s[:j]), blank) {
				return true
			}
			s = s[j+2:]
		}
	}
	where, found := "", false
	// Only the lists the node sends (n8nschema.SentParams).
	n8nschema.SentParams(n, func(kind, name string, v n8nschema.Value) bool {
		if kind == "body parameter" || !n8nschema.CredentialField(name) {
			return true
		}
		if fromSet(v.Str()) {
			where, found = fmt.Sprintf("%s %q", kind, name), true
			return false
		}
		return true
	})
	if found {
		return where, true
	}
	// The headers and query parameters written as JSON: an expression's
	// text, whose {{ }} n8n evaluates.
	n8nschema.SentJSONParams(n, func(kind, name, v string, expr bool) bool {
		if !expr || !n8nschema.CredentialField(name) {
			return true
		}
		if fromSet(v) {
			where, found = fmt.Sprintf("%s %q", kind, name), true
			return false
		}
		return true
	})
	return where, found
}

// errorItemsOnly reports a blank node of the main flow that, failing on
// every item, sends each one to its error output and nothing to its main
// output, so what follows its main output is behind its blank as for a
// node that stops the run, while its error branch is reached. That is
// an HTTP Request with onError continueErrorOutput: it catches every
// failure item by item under continueOnFail (its credential, URL and
// headers read in the item's try, the request's rejection in the answer's
// loop) and returns {json: {error, details}} in the item's place
// (nodes-base HttpRequest/V3/HttpRequestV3.node.js L105-151, L563-579,
// L604-651, L850-856; v1 and v2 swallow a credential they cannot read and
// return {json: {error}} for a refused request: V1/HttpRequestV1.node.js
// L580-599, L917-935, V2/HttpRequestV2.node.js L1004-1022), and n8n moves
// such an item, whose json holds only error, message or details, to the
// error output and leaves the main output empty (n8n-core
// dist/execution-engine/workflow-execute.js processNodeOutput L969-970,
// handleNodeErrorOutput L1603-1662); a node with an empty output runs none
// after it (L1332-1334). A node that throws as a whole instead (a
// Postgres node asks for its credential before any item: Postgres/v2/
// actions/router.js) is continued by handleNodeExecutionError, which
// passes its input items on its main output (L1070-1079:
// nodeSuccessData = [executionData.data.main[0]]), so what follows is
// reached; and under continueRegularOutput the error items go on along
// the main output too. Neither gates anything.
func errorItemsOnly(n *n8nschema.Node) bool {
	return n.OnError == "continueErrorOutput" && n.Type == n8nschema.TypeHTTPRequest
}

// blankReach fills blankAt, the enabled nodes blankOf reports, and
// blankOnly: the nodes the runs reach (along the edges
// Reachable follows) only past a blank node, each with the nearest blank
// node that leads to it (file order between blank nodes as near), by
// onlyPast. Two walks: linear in the graph.
func (g *Graph) blankReach() {
	var blank []bool
	var blanks []int32
	// In a published export no value is a template's blank (blankOf) but
	// a tool's target (subBlankOf): its sub-nodes are read, nothing else.
	shown := RunStateOf(g.Workflow) == RunShown
	run := func() {
		if g.blankRun == nil {
			g.blankRun = make([]bool, len(g.Nodes))
			if len(g.Unloadable) == 0 {
				g.bfs(g.starts(nil), g.blankRun, make([]int32, 0, len(g.Nodes)), func(e *Edge) bool { return !g.deadBesidesFailing(e) })
			}
		}
	}
	// The sub-nodes first: a root's model blank is its models' own
	// (modelBlank).
	for i, n := range g.Nodes {
		if n.Disabled || !g.sub[i] || g.cleared(i) {
			continue
		}
		if b, ok := g.subBlankOf(i); ok {
			run()
			if g.blankSub == nil {
				g.blankSub = map[int32]Blank{}
			}
			g.blankSub[int32(i)] = b
		}
	}
	if shown {
		return
	}
	for i, n := range g.Nodes {
		if n.Disabled || g.sub[i] {
			continue
		}
		var b Blank
		var ok bool
		if g.cleared(i) {
			// blankClear found no blank of its own; its models' may
			// be one (blankSub is filled now).
			b, ok = g.modelBlank(i)
		} else {
			b, ok = g.blankOf(i)
		}
		if !ok {
			continue
		}
		run()
		if g.blankAt == nil {
			g.blankAt = map[int32]Blank{}
		}
		g.blankAt[int32(i)] = b
		if n.ContinuesOnFail() && !errorItemsOnly(n) || n8nschema.IgnoresStatus(n) {
			continue // it does not stop the run: its items go on
		}
		if blank == nil {
			blank = make([]bool, len(g.Nodes))
		}
		blank[i] = true
		blanks = append(blanks, int32(i))
	}
	// An If whose test compares a template's fill-in sends nothing to
	// its true output (fillInGate): what only that output reaches lies
	// behind the blank too.
	var gates []int32
	for i, n := range g.Nodes {
		if n.Disabled || g.sub[i] || n.Type != n8nschema.TypeIf && n.Type != n8nschema.TypeFilter || g.cleared(i) {
			continue
		}
		if b, ok := g.fillInGate(i); ok {
			if g.blankGate == nil {
				g.blankGate = map[int32]Blank{}
			}
			g.blankGate[int32(i)] = b
			gates = append(gates, int32(i))
			if blank == nil {
				blank = make([]bool, len(g.Nodes))
			}
		}
	}
	if blank == nil {
		return
	}
	gated := func(e *Edge) bool {
		_, ok := g.blankGate[e.from]
		return ok && !e.Error && e.Output == 0
	}
	// What the runs reach without passing a blank node; the blank nodes
	// themselves are reached, and so is the error output of one whose
	// failed items leave by it alone (errorItemsOnly: only such a node
	// has error edges among the blank ones).
	open := make([]bool, len(g.Nodes))
	g.bfs(g.starts(nil), open, make([]int32, 0, len(g.Nodes)), func(e *Edge) bool { return !g.dead(e) && (!blank[e.from] || e.Error) && !gated(e) })
	// A Code node whose code throws on a trigger's item runs on it and
	// stops that run (fieldThrows): reached, but nothing past it.
	for e := range g.fieldThrows {
		if open[e.from] && !blank[e.from] {
			open[e.to] = true
		}
	}
	var reached []int32
	for _, b := range blanks {
		if open[b] {
			reached = append(reached, b)
		}
	}
	g.blankOnly = g.onlyPast(reached, open)
	// The nodes only a reached gate's true output leads to, each labelled
	// with the gate, where no blank node's label stands already.
	for _, gi := range gates {
		if !open[gi] {
			continue
		}
		var seeds []int32
		for _, e := range g.outs(int(gi)) {
			if e.Type == ConnMain && gated(e) && !g.dead(e) && !open[e.to] {
				seeds = append(seeds, e.to)
			}
		}
		for to := range g.onlyPast(seeds, open) {
			if _, taken := g.blankOnly[to]; taken {
				continue
			}
			if g.blankOnly == nil {
				g.blankOnly = map[int32]int32{}
			}
			g.blankOnly[to] = gi
		}
	}
}
