package analyze

import (
	"fmt"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// CallKind is how one workflow starts another.
type CallKind int

const (
	// CallExecute is an Execute Workflow node.
	CallExecute CallKind = iota + 1
	// CallTool is a Call Workflow Tool attached to an agent.
	CallTool
	// CallWebhook is an HTTP request to a webhook path n8n serves.
	CallWebhook
	// CallErrorWorkflow is settings.errorWorkflow: run once per failed execution.
	CallErrorWorkflow
	// CallN8nAPI is the n8n node acting on a workflow through the public API
	// (activate, update, ...). It starts no execution by itself.
	CallN8nAPI
	// CallOwnWrite is an app node writing where a polling or app trigger of
	// its own workflow watches (own_writes.go): the next poll starts the
	// workflow again. The writer does not wait for that run (NoWait).
	CallOwnWrite
)

var callKindNames = [...]string{"", "execute-workflow", "workflow-tool", "webhook", "error-workflow", "n8n-api", "own-write"}

func (k CallKind) String() string {
	if k > 0 && int(k) < len(callKindNames) {
		return callKindNames[k]
	}
	return "unknown"
}

// Call is one edge of the call graph: a node (or, for error workflows, the
// settings) of one workflow that starts another, or itself.
type Call struct {
	Kind CallKind
	From *n8nschema.Workflow
	// Node is the calling node; nil for CallErrorWorkflow.
	Node *n8nschema.Node
	// To is the called workflow; nil when the target is not in the
	// analysis set (then Assumed says what the analysis assumed).
	To *n8nschema.Workflow
	// Entry are the nodes of To where the run starts: its Execute Workflow
	// Trigger, the webhook node, its Error Trigger.
	Entry []*n8nschema.Node
	// Ref is the reference as written: an id, a URL, an expression.
	Ref string
	// Pos is where the reference is written (for resolved calls that close
	// no cycle, the calling node: nothing reports them).
	Pos n8nschema.Pos
	// Self is true when the call names its own workflow.
	Self bool
	// Instance is true for a webhook call whose host is this n8n instance
	// (localhost, $env.WEBHOOK_URL, a configured base URL).
	Instance bool
	// Assumed is what the analysis assumed about an unresolved target.
	Assumed string
	// Missing is the literal id of a target not in the analysis set (for a
	// webhook call, its path; "" when resolved or not a literal), so that
	// one missing workflow is reported once.
	Missing string
	// MissingName is the name the editor cached beside a Missing id
	// (cachedResultName), "" when it holds none.
	MissingName string
	// Dynamic is true when the target is an expression evaluated at run
	// time: such a call may start any workflow (StartedByHand).
	Dynamic bool
	// ByName is set for a settings.errorWorkflow that no workflow of the
	// set has as id but that is a name: a workflow of the set bears it
	// (Named), or it holds a space, which no id n8n gives has (16
	// characters of [0-9A-Za-z], integers before 1.0). n8n looks the error
	// workflow up by id only, so none runs (errorWorkflowByName).
	ByName bool
	// Named is the workflow of the set whose name a ByName call holds.
	Named *n8nschema.Workflow
	// Unnamed are the workflows of the set that may be an unresolved
	// callee: no workflow of the set has its id or bears the name the call
	// caches, and these have neither id nor name while their file's name
	// carries it (unnamed.go). n8n calls by id only, so the call is not
	// tied to them; RS005 says so instead of "not in the set".
	Unnamed []*n8nschema.Workflow
	// Each is true for Execute Workflow in mode "each" (one sub-execution
	// per item); NoWait for options.waitForSubWorkflow false.
	Each, NoWait bool
	// Cycle is true when the call closes a cycle of executions that no
	// guard bounds: the workflow can re-start itself (RS102).
	Cycle bool
	// Branch is an If, Switch or Filter on that cycle: the data may route
	// every run around the call (a dispatcher that calls itself with
	// another job type), so the cycle is less certain. Nil otherwise.
	Branch *n8nschema.Node
	// Inline is what was read of a sub-workflow the node holds as JSON
	// (source "parameter"); nil otherwise or when it could not be read.
	Inline *Inline

	ref    n8nschema.Value // the reference, located only when reported
	inline n8nschema.Value // workflowJson, for source "parameter"
}

// Resolved reports whether the target is in the analysis set.
func (c *Call) Resolved() bool { return c.To != nil }

// callIndex finds workflows and webhook nodes across the set.
type callIndex struct {
	set      *Set
	byID     map[string][]*n8nschema.Workflow
	byName   map[string][]*n8nschema.Workflow
	byLabel  map[string][]*n8nschema.Workflow // labelKeys of fileLabel
	webhooks map[string][]hook
	baseURLs []string
	starts   map[*n8nschema.Workflow][]*n8nschema.Node // subworkflowStart by workflow
}

type hook struct {
	w *n8nschema.Workflow
	n *n8nschema.Node
}

func newCallIndex(s *Set) *callIndex {
	ix := &callIndex{set: s}
	for _, u := range s.Options.BaseURLs {
		if u = strings.TrimRight(strings.TrimSpace(u), "/"); u != "" {
			ix.baseURLs = append(ix.baseURLs, strings.ToLower(u))
		}
	}
	return ix
}

// index fills byID and webhooks on the first look-up: most groups of a
// two-pass audit make no call.
func (ix *callIndex) index() {
	if ix.byID != nil {
		return
	}
	ix.byID, ix.byName, ix.webhooks = map[string][]*n8nschema.Workflow{}, map[string][]*n8nschema.Workflow{}, map[string][]hook{}
	ix.byLabel = map[string][]*n8nschema.Workflow{}
	for _, w := range ix.set.Workflows {
		labelKeys(fileLabel(w), func(k string) {
			if ws := ix.byLabel[k]; len(ws) == 0 || ws[len(ws)-1] != w {
				ix.byLabel[k] = append(ws, w)
			}
		})
		if w.ID != "" && !n8nschema.FillInID(w.ID) { // a redacted export's fill-in is no id
			ix.byID[w.ID] = append(ix.byID[w.ID], w)
		}
		if w.Name != "" {
			ix.byName[w.Name] = append(ix.byName[w.Name], w)
		}
		servedHooks(w, func(n *n8nschema.Node, key string) {
			ix.webhooks[key] = append(ix.webhooks[key], hook{w, n})
		})
	}
}

// servedHooks calls fn for every webhook key under which a node of w is
// served. The call index and Links both read keys through it.
func servedHooks(w *n8nschema.Workflow, fn func(n *n8nschema.Node, key string)) {
	for _, n := range w.Nodes {
		if n.Type != n8nschema.TypeWebhook || n.Disabled {
			continue
		}
		for _, k := range webhookKeys(w, n) {
			fn(n, k)
		}
	}
}

// webhookKeys are the paths after /webhook/ under which n8n serves a
// Webhook node: <path>, or <webhookId>/<path> for a path with a dynamic
// segment, or <workflowId>/<node name>/<path> for legacy nodes without a
// webhookId; an empty path becomes the webhookId (workflow/src/node-helpers.ts
// L1047–1092, docs/n8n-behaviour.md#webhooks).
func webhookKeys(w *n8nschema.Workflow, n *n8nschema.Node) []string {
	p, _ := n.Param("path")
	path := strings.Trim(p.Str(), "/")
	if p.IsExpr() {
		return nil
	}
	switch {
	case path == "" && n.WebhookID != "":
		return []string{n.WebhookID}
	case path == "":
		return nil
	case strings.Contains(path, ":") && n.WebhookID != "":
		return []string{n.WebhookID + "/" + path}
	case strings.Contains(path, ":"):
		return []string{w.ID + "/" + strings.ToLower(n.Name) + "/" + path}
	}
	return []string{path}
}

// resolveID picks the workflow an id names: the caller itself, else one in
// the same file, else the first in the set. Components puts every workflow
// with the id in the caller's group, so a group's set picks the same.
func (ix *callIndex) resolveID(from *n8nschema.Workflow, id string) *n8nschema.Workflow {
	ix.index()
	ws := ix.byID[id]
	if len(ws) == 0 {
		return nil
	}
	for _, w := range ws {
		if w == from {
			return w
		}
	}
	for _, w := range ws {
		if w.Source == from.Source {
			return w
		}
	}
	return ws[0]
}

// resolveName picks the workflow a call's cached name names when no
// workflow of the set has the id it calls: the one workflow of the set
// with that name, when it has no id. A file without an id (a template, a
// hand-made copy) lost the id the instance gave it, which the caller's
// locator holds; the editor caches the callee's name beside it
// (cachedResultName). n8n does not keep workflow names unique, so two
// workflows with the name name neither.
func (ix *callIndex) resolveName(name string) *n8nschema.Workflow {
	ix.index()
	if ws := ix.byName[name]; len(ws) == 1 && ws[0].ID == "" {
		return ws[0]
	}
	return nil
}

// nameMiss says why a call's cached name found no workflow, when
// workflows of the set bear it: several do, or the one that does has
// another id.
func (ix *callIndex) nameMiss(name string) string {
	switch ws := ix.byName[name]; {
	case name == "" || len(ws) == 0:
		return ""
	case len(ws) == 1:
		return fmt.Sprintf(" (the workflow named %q has the id %q)", name, ws[0].ID)
	default:
		return fmt.Sprintf(" (%d workflows of the set are named %q)", len(ws), name)
	}
}

// lookup is what the target of a call is looked up by in the call index:
// a literal workflow id, or a webhook path. Both empty: nothing to look up
// (a self-reference, an expression, another source). name is the callee's
// name the caller's locator caches, looked up when no workflow has the id.
type lookup struct {
	id   string
	name string
	hook string
	// dynamic is true for a webhook path that is an expression.
	dynamic bool
}

// nodeCall reads the call a node makes, before its target is looked up:
// the Call with all the node says, and the key of its target. Nil when the
// node calls no workflow. buildCalls resolves the key; Links keeps it.
func nodeCall(w *n8nschema.Workflow, n *n8nschema.Node) (*Call, lookup) {
	if n.Disabled {
		return nil, lookup{}
	}
	switch strings.TrimSuffix(n.Type, "Tool") {
	case n8nschema.TypeExecuteWorkflow:
		return workflowCall(w, n, CallExecute)
	case n8nschema.TypeToolWorkflow:
		return workflowCall(w, n, CallTool)
	case n8nschema.TypeHTTPRequest, n8nschema.TypeToolHTTPRequest:
		return webhookCall(w, n)
	case n8nschema.TypeN8n:
		return apiCall(w, n)
	}
	return nil, lookup{}
}

// errorWorkflowCall reads settings.errorWorkflow: the id is used as written.
// The value is also its name key, so that Components puts a workflow that
// bears it as a name in the group, for resolve to say so (ByName); n8n
// never resolves it by name.
func errorWorkflowCall(w *n8nschema.Workflow) (*Call, lookup) {
	ref := w.Settings.ErrorWorkflow
	if ref == "" {
		return nil, lookup{}
	}
	return &Call{Kind: CallErrorWorkflow, From: w, Ref: ref, Pos: w.Pos, ref: w.Settings.ErrorWorkflowValue}, lookup{id: ref, name: ref}
}

// buildCalls finds every call edge of the set.
func buildCalls(s *Set) {
	ix := newCallIndex(s)
	for _, w := range s.Workflows {
		g := s.Graph(w)
		// A node that fails on every item before it calls (noCall: a read
		// by name that throws, failing) starts nothing.
		noCall := func(i int) bool { return g.noCall != nil && g.noCall[i] }
		for i, n := range g.Nodes {
			if noCall(i) {
				continue
			}
			if c := ix.resolve(nodeCall(w, n)); c != nil {
				s.Calls = append(s.Calls, c)
			}
		}
		if writes := ownWriteTriggers(g); len(writes) > 0 {
			for i, n := range g.Nodes {
				if t := writes[n]; t != nil && !noCall(i) {
					s.Calls = append(s.Calls, &Call{Kind: CallOwnWrite, From: w, Node: n, To: w, Entry: []*n8nschema.Node{t},
						Ref: t.Name, Pos: n.Pos, Self: true, NoWait: true})
				}
			}
		}
		if c := ix.resolve(errorWorkflowCall(w)); c != nil {
			s.Calls = append(s.Calls, c)
		}
	}
}

// resolve looks up the target of a call that nodeCall or errorWorkflowCall
// read, and says what was assumed when it is not in the set. Nil when the
// call turns out to be none (a webhook path of another service).
func (ix *callIndex) resolve(c *Call, k lookup) *Call {
	if c == nil {
		return nil
	}
	w := c.From
	if c.Kind == CallWebhook {
		return ix.resolveWebhook(c, k)
	}
	if c.inline.Exists() {
		if in := readInline(ix.set, c, c.inline); in != nil {
			c.Inline, c.Assumed, c.ref = in, in.assumed(), c.inline
		}
		return c
	}
	if k.id == "" {
		return c // a self-reference, or a target nodeCall said it cannot know
	}
	c.To = ix.resolveID(w, k.id)
	if c.To == nil && k.name != "" && c.Kind != CallErrorWorkflow {
		c.To = ix.resolveName(k.name)
	}
	if c.To == nil {
		c.Missing, c.MissingName = k.id, k.name
		switch {
		case c.Kind == CallErrorWorkflow && ix.errorWorkflowByName(c, k.id):
			c.Assumed = "n8n looks the error workflow up by id only (workflow-execution.service.js loadErrorWorkflowData), finds none and only logs it, " +
				"and skips this workflow's own Error Trigger too: no error workflow runs when it fails, so its failures are reported nowhere"
		case c.Kind == CallErrorWorkflow:
			c.Assumed = "assumed its calls run once per failed execution and never re-start this workflow"
		case c.Kind == CallN8nAPI:
			c.Assumed = fmt.Sprintf("workflow %q is not in the analysis set; assumed it acts on a workflow outside the set", k.id)
		case k.name != "" && len(ix.byName[k.name]) == 0 && len(ix.byLabel[labelKey(k.name)]) > 0:
			c.Unnamed = ix.byLabel[labelKey(k.name)]
			c.Assumed = fmt.Sprintf("no workflow of the set has the id %q or the name the editor cached, %q; %s and may be it, "+
				"but n8n calls by id only and names no workflow after its file, so it is not followed: assumed it makes no external calls",
				k.id, k.name, unnamedFiles(c.Unnamed))
		default:
			c.Assumed = fmt.Sprintf("workflow %q is not in the analysis set%s; assumed it makes no external calls", k.id, ix.nameMiss(k.name))
		}
		return c
	}
	c.Self = c.To == w
	switch c.Kind {
	case CallErrorWorkflow:
		c.Entry = nodesOfType(ix.set.Graph(c.To), n8nschema.TypeErrorTrigger)
	case CallExecute, CallTool:
		c.Entry = ix.start(c.To)
	}
	return c
}

// start is subworkflowStart, kept by workflow: many calls may start one.
// The calls share the list, which no one changes.
func (ix *callIndex) start(w *n8nschema.Workflow) []*n8nschema.Node {
	if s, ok := ix.starts[w]; ok {
		return s
	}
	if ix.starts == nil {
		ix.starts = map[*n8nschema.Workflow][]*n8nschema.Node{}
	}
	s := subworkflowStart(w)
	ix.starts[w] = s
	return s
}

// errorWorkflowByName marks an error workflow reference no id matched that
// is a name: n8n starts the error workflow of a failed execution by
// loading the workflow with that id (execute-error-workflow.js L56–70,
// workflow-execution.service.js loadErrorWorkflowData L386–411,
// workflowRepository.get({id})), logs "Could not find workflow" for a
// name, and, the setting being non-empty, does not run the workflow's own
// Error Trigger either (the else branch at L83).
func (ix *callIndex) errorWorkflowByName(c *Call, ref string) bool {
	if ws := ix.byName[ref]; len(ws) > 0 {
		c.ByName, c.Named = true, ws[0]
	} else if strings.ContainsAny(ref, " \t") {
		c.ByName = true
	}
	return c.ByName
}

// locateCalls points the calls that rules report (unresolved ones and
// those on a cycle) at their reference. Positions cost a scan of the line
// (compact exports are one line), so the others keep their node's.
func locateCalls(s *Set) {
	for _, c := range s.Calls {
		if (c.To == nil || c.Cycle) && c.ref.Exists() {
			if p := c.ref.Pos(); p.IsValid() {
				c.Pos = p
			}
		}
	}
}

// noRef is workflowRef's reason for a node that names no workflow.
const noRef = "it names no workflow (no workflowId)"

// dynamicRef is workflowRef's reason for a target computed at run time.
const dynamicRef = "its workflowId is an expression evaluated at run time"

// selfRE matches an expression that names the running workflow's own id.
var selfRE = lazyregexp.New(`\$workflow\s*(\.\s*id\b|\[\s*["']id["']\s*\])`)

// workflowRef reads the workflowId of Execute Workflow, Call Workflow Tool
// and the n8n node: a plain string (v1) or a resource locator {__rl, value,
// mode: id|list|url} (ExecuteWorkflow/GenericFunctions.ts L20–28;
// docs/n8n-behaviour.md#expressions-and-resource-locators, docs/n8n-behaviour.md#sub-workflows). It returns the id, or self for
// $workflow.id, or a reason why it cannot be known statically.
func workflowRef(n *n8nschema.Node) (id, raw string, ref n8nschema.Value, self bool, why string) {
	v, ok := n.Param("workflowId")
	if !ok {
		return "", "", v, false, noRef
	}
	ref = v
	mode := ""
	if v.Kind() == n8nschema.Object {
		mode = v.Get("mode").Str()
		v = v.Get("value")
	}
	raw = v.Str()
	s := strings.TrimSpace(raw)
	if v.IsExpr() {
		s = strings.TrimSpace(strings.TrimPrefix(s, "="))
		if selfRE.MatchString(s) {
			return "", raw, ref, true, ""
		}
		if strings.Contains(s, "{{") {
			return "", raw, ref, false, dynamicRef
		}
	}
	if mode == "url" {
		if i := strings.LastIndex(s, "/workflow/"); i >= 0 {
			s = s[i+len("/workflow/"):]
			s, _, _ = strings.Cut(s, "/")
			s, _, _ = strings.Cut(s, "?")
		}
	}
	if s == "" {
		return "", raw, ref, false, "its workflowId is empty"
	}
	return s, raw, ref, false, ""
}

func workflowCall(w *n8nschema.Workflow, n *n8nschema.Node, kind CallKind) (*Call, lookup) {
	c := &Call{Kind: kind, From: w, Node: n, Pos: n.Pos}
	if m, _ := n.Param("mode"); m.Str() == "each" {
		c.Each = true
	}
	if wt, ok := n.Param("options.waitForSubWorkflow"); ok && wt.Kind() == n8nschema.Bool && !wt.True() {
		c.NoWait = true
	}
	// source: "database" (default), "parameter" (inline JSON), "localFile",
	// "url" (ExecuteWorkflow.node.ts, docs/n8n-behaviour.md#sub-workflows).
	if src, _ := n.Param("source"); src.Str() != "" && src.Str() != "database" {
		c.Ref, c.ref = src.Str(), src
		if src.Str() == "parameter" {
			c.inline, _ = n.Param("workflowJson")
		}
		c.Assumed = fmt.Sprintf("the workflow comes from source %q, which stormcheck does not read; assumed it makes no external calls", src.Str())
		return c, lookup{}
	}
	id, raw, ref, self, why := workflowRef(n)
	c.Ref, c.ref = raw, ref
	switch {
	case self:
		c.To, c.Self, c.Entry = w, true, subworkflowStart(w)
	case why == noRef:
		// n8n throws before it loads anything (n8n/dist/
		// workflow-execute-additional-data.js fetchWorkflowData).
		c.Assumed = why + ": n8n throws \"No information about the workflow to execute found\" on every call until one is chosen"
	case why != "":
		c.Dynamic = why == dynamicRef
		c.Assumed = why + "; assumed it calls a workflow outside the set that makes no external calls"
	default:
		k := lookup{id: id}
		if cached := ref.Get("cachedResultName"); !cached.IsExpr() {
			k.name = cached.Str()
		}
		return c, k
	}
	return c, lookup{}
}

// subworkflowStart is where a sub-workflow run begins: its Execute
// Workflow Trigger, else a manual (chat) trigger (cli/src/utils.ts
// findSubworkflowStart L14–38, cli/src/constants.ts STARTING_NODES).
func subworkflowStart(w *n8nschema.Workflow) []*n8nschema.Node {
	var out []*n8nschema.Node
	for _, n := range w.Nodes {
		if n.Type == n8nschema.TypeExecuteWorkflowTrigger && !n.Disabled {
			out = append(out, n)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, n := range w.Nodes {
		if (n.Type == n8nschema.TypeManualTrigger || n.Type == n8nschema.TypeManualChatTrigger) && !n.Disabled {
			return []*n8nschema.Node{n}
		}
	}
	return nil
}

func nodesOfType(g *Graph, typ string) []*n8nschema.Node {
	var out []*n8nschema.Node
	for _, n := range g.Nodes {
		if n.Type == typ && !n.Disabled {
			out = append(out, n)
		}
	}
	return out
}

// apiCall records the n8n node acting on one workflow. It starts no
// execution (the node has no run operation; nodes-base/nodes/N8n,
// docs/n8n-behaviour.md#the-n8n-node), so it never closes a cycle.
func apiCall(w *n8nschema.Workflow, n *n8nschema.Node) (*Call, lookup) {
	res, _ := n.Param("resource")
	op, _ := n.Param("operation")
	if r := res.Str(); r != "" && r != "workflow" {
		return nil, lookup{}
	}
	switch op.Str() {
	case "activate", "deactivate", "update", "delete":
	default:
		return nil, lookup{}
	}
	c := &Call{Kind: CallN8nAPI, From: w, Node: n, Pos: n.Pos}
	id, raw, ref, self, why := workflowRef(n)
	c.Ref, c.ref = raw, ref
	switch {
	case self:
		c.To, c.Self = w, true
	case why != "":
		c.Assumed = why + "; assumed it acts on a workflow outside the set"
	default:
		return c, lookup{id: id}
	}
	return c, lookup{}
}

// instanceHosts are hosts that always mean "this n8n instance".
var instanceHosts = []string{"localhost", "127.0.0.1", "0.0.0.0", "[::1]", "host.docker.internal", "n8n"}

// envURLRE matches the instance's own URL taken from the environment.
var envURLRE = lazyregexp.New(`\$env\s*(\.\s*(WEBHOOK_URL|N8N_HOST|N8N_EDITOR_BASE_URL)\b|\[\s*["'](WEBHOOK_URL|N8N_HOST|N8N_EDITOR_BASE_URL)["']\s*\])`)

// uuidRE matches a webhookId-like path: unique across instances.
var uuidRE = lazyregexp.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(/|$)`)

// webhookCall reads an HTTP request to a webhook path: the production
// URL is <base>/webhook/<path>, the test URL <base>/webhook-test/<path>
// (docs/n8n-behaviour.md#webhooks).
func webhookCall(w *n8nschema.Workflow, n *n8nschema.Node) (*Call, lookup) {
	v, ok := n.Param("url")
	if !ok || v.Kind() != n8nschema.String {
		return nil, lookup{}
	}
	path, ok := webhookPath(webhookURL(v.Str()))
	if !ok {
		return nil, lookup{}
	}
	c := &Call{Kind: CallWebhook, From: w, Node: n, Ref: v.Str(), Pos: n.Pos, ref: v}
	if strings.Contains(path, "{{") {
		return c, lookup{dynamic: true}
	}
	return c, lookup{hook: path}
}

// webhookURL is the URL a url parameter holds, without the expression mark.
func webhookURL(param string) string { return strings.TrimSpace(strings.TrimPrefix(param, "=")) }

// resolveWebhook: a path served by the caller's own workflow is a
// self-trigger whatever the host; another workflow's path counts when the
// host is the instance, or the path is a webhookId-like UUID.
func (ix *callIndex) resolveWebhook(c *Call, k lookup) *Call {
	w := c.From
	c.Instance = ix.isInstance(webhookURL(c.Ref))
	if k.dynamic {
		if !c.Instance {
			return nil
		}
		c.Assumed = "the webhook path is an expression evaluated at run time; assumed it starts a workflow outside the set that never calls back"
		return c
	}
	path := k.hook
	var pick *hook
	ix.index()
	for i, h := range ix.webhooks[path] {
		if h.w == w {
			pick = &ix.webhooks[path][i]
			break
		}
		if pick == nil && (c.Instance || uuidRE.MatchString(path)) {
			pick = &ix.webhooks[path][i]
		}
	}
	if pick == nil {
		if !c.Instance {
			return nil // another service's /webhook/ path
		}
		c.Missing = path
		c.Assumed = fmt.Sprintf("no workflow in the analysis set serves webhook path %q; assumed it starts a workflow outside the set that never calls back", path)
		return c
	}
	c.To, c.Entry, c.Self = pick.w, []*n8nschema.Node{pick.n}, pick.w == w
	return c
}

// webhookPath returns the part of a URL after /webhook/ or /webhook-test/,
// without query or fragment.
func webhookPath(url string) (string, bool) {
	for _, seg := range []string{"/webhook/", "/webhook-test/"} {
		if i := strings.Index(url, seg); i >= 0 {
			p := url[i+len(seg):]
			if j := strings.IndexAny(p, "?#"); j >= 0 {
				p = p[:j]
			}
			p = strings.Trim(p, "/")
			return p, p != ""
		}
	}
	return "", false
}

func (ix *callIndex) isInstance(url string) bool {
	if envURLRE.MatchString(url) {
		return true
	}
	low := strings.ToLower(url)
	for _, b := range ix.baseURLs {
		if strings.HasPrefix(low, b) {
			return true
		}
	}
	h := hostOf(low)
	if hp, _, ok := strings.Cut(h, ":"); ok {
		h = hp
	}
	for _, ih := range instanceHosts {
		if h == ih {
			return true
		}
	}
	return false
}

// hostOf returns the host[:port] of a literal URL (n8nschema.URLHost).
func hostOf(url string) string { return n8nschema.URLHost(url) }
