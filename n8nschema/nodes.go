package n8nschema

import (
	"iter"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// This file reads the node table generated from n8n's own node
// descriptions (zz_nodes_generated.go, written by scripts/gencatalog from
// an installed n8n): what each node type is at each version, its default
// resource and operation, and what each operation does.

// nodeTable is the node table, built when first used or by Prepare.
var nodeTable = sync.OnceValue(func() map[string][]nodeEntry {
	t := newNodeTable()
	n := 0
	for _, es := range t {
		n += len(es)
	}
	// Each entry's room for its declared set and its required
	// parameters, one block for all.
	memos := make([]entryMemo, n)
	for _, es := range t {
		for i := range es {
			es[i].memo, memos = &memos[0], memos[1:]
		}
	}
	return t
})

// Prepare builds the node table and the catalog now, for a goroutine to
// run while the program does something else before it parses: built in
// package initialisation they delayed every run's start, on one core.
func Prepare() {
	nodeTable()
	catalog()
}

// displayNames are the node types' display names, built when first used.
var displayNames = sync.OnceValue(newDisplayNames)

// ImportName is the name the editor gives a node of type typ that has
// none when it imports a workflow: the display name of the type's newest
// version, made unique with a number after it when taken (n8n-editor-ui
// useCanvasOperations importWorkflowData: getNodeType(type)?.displayName,
// then uniqueNodeName). It is false for a type the table does not hold
// (a community node, a tool variant), whose display name it cannot say.
func ImportName(typ string) (string, bool) {
	name, ok := displayNames()[typ]
	return name, ok
}

// nodeFlag marks what a node type is, from its description.
type nodeFlag uint8

const (
	flagTrigger     nodeFlag = 1 << iota // group "trigger": starts executions
	flagPolling                          // polling: true, n8n calls poll() on a schedule
	flagWebhook                          // declares webhooks: a request starts (or resumes) it
	flagTool                             // usableAsTool: n8n also loads it as <type>Tool
	flagDeclarative                      // requestDefaults: n8n runs it through its RoutingNode
)

// nodeEntry is one row of the table: a node type at a run of versions.
type nodeEntry struct {
	v        []float64
	flags    nodeFlag
	outputs  int    // fixed main outputs; -1 computed from parameters
	creds    string // credential types, space separated; "type:a,b" when required for authentication a or b
	gate     string // the parameter the "type:a,b" credentials hang on, when not authentication
	auth     string // that parameter's default, when a credential hangs on it
	model    string // default model when the parameter is absent
	resource string // default resource ("" when the node has none)
	ops      []resourceOps
	// required are the parameters n8n finds missing when empty and shown
	// ("+name": only a stored "" is missing, its default is not empty;
	// "~name": a resource locator; "name:resource=a,b;operation=c":
	// shown only at resource a or b and operation c, "key!x" hidden at
	// x, "select()=channel" at another option, default ""); MissingRequired
	// reads them.
	required string
	// params are the names of the top-level parameters declared at these
	// versions, sorted, space separated (DeclaresParam).
	params string
	// shown indexes hideableSets: the top-level string parameters n8n
	// shows only for some values, with their conditions (Hidden).
	shown uint16
	// memo holds what is made of the entry once a process; nil for an
	// entry made outside the table.
	memo *entryMemo
}

// entryMemo is what is made of a table entry once a process: params as
// a set (declaredSet), the required parameters cut out of required
// (requiredOf).
type entryMemo struct {
	set atomic.Pointer[map[string]bool]
	req atomic.Pointer[reqs]
}

// resourceOps are a resource's operations: the default, and every
// operation value, followed by ":" and its kind letter when it is not a
// read ("create:c get getAll send:s").
type resourceOps struct{ resource, def, ops string }

// NodeVersion is what n8n's description says about one node type at one
// version. The zero value is an unknown type.
type NodeVersion struct {
	Type    string
	Version float64 // the version described (the node's, or the nearest known)
	e       *nodeEntry
}

// DescribeNode returns the description of a node type at a version. A
// <type>Tool variant is its base node (n8n loads usableAsTool nodes again
// as <type>Tool, cli/src/node-types.ts). A version n8n does not list takes
// the nearest lower one; a missing version (0) the default version, as
// VersionedNodeType.getNodeType does (n8n-workflow versioned-node-type.js).
func DescribeNode(typ string, version float64) (NodeVersion, bool) {
	es, ok := entriesOf(typ)
	if !ok {
		return NodeVersion{Type: typ}, false
	}
	e, at := nearest(typ, version, es)
	return NodeVersion{Type: typ, Version: e.v[at], e: e}, true
}

// nearest is the entry of es, typ's entries, that describes version, and
// the index of the version it takes in the entry's versions (DescribeNode).
func nearest(typ string, version float64, es []nodeEntry) (*nodeEntry, int) {
	if version <= 0 {
		version = defaultVersion(typ, es)
	}
	best, at, bestV := &es[0], 0, es[0].v[0]
	for i := range es {
		for k, v := range es[i].v {
			if v <= version && v >= bestV {
				best, at, bestV = &es[i], k, v
			}
		}
	}
	return best, at
}

// describe finds the node's description once, at parse (Describe): the
// facts about a node ask it many times, and each search of the table by
// the type's name cost a map lookup and the version search.
func (n *Node) describe() {
	es, ok := entriesOf(n.Type)
	if !ok {
		n.described = true
		return
	}
	if e, at := nearest(n.Type, n.TypeVersion, es); at <= math.MaxUint8 {
		n.desc, n.descAt, n.described = e, uint8(at), true
	}
}

// Describe is DescribeNode(n.Type, n.TypeVersion), found when the node
// was parsed.
func (n *Node) Describe() (NodeVersion, bool) {
	if !n.described {
		return DescribeNode(n.Type, n.TypeVersion)
	}
	if n.desc == nil {
		return NodeVersion{Type: n.Type}, false
	}
	return NodeVersion{Type: n.Type, Version: n.desc.v[n.descAt], e: n.desc}, true
}

// describeAs is DescribeNode(typ, n.TypeVersion), typ being n's type or
// its base type (a <type>Tool's): Describe when it is n's.
func (n *Node) describeAs(typ string) (NodeVersion, bool) {
	if typ == n.Type {
		return n.Describe()
	}
	return DescribeNode(typ, n.TypeVersion)
}

// DeclaresParam reports whether the node's description declares a
// top-level parameter of that name at the node's own version. n8n keeps
// only declared parameters when it loads a workflow (n8n-workflow
// workflow.js, the constructor's NodeHelpers.getNodeParameters), so
// another never reaches a run. It is true whenever the table cannot
// tell: a type it does not describe, a <type>Tool variant (n8n adds
// properties to those), a version it does not list.
func DeclaresParam(typ string, version float64, name string) bool {
	e, ok := declaringEntry(typ, version)
	return !ok || declared(e, name)
}

// declaringEntry is the table's entry whose parameter lists DeclaresParam
// reads, when the table can tell: not a <type>Tool variant, a type and an
// exact version it lists, with the lists written.
func declaringEntry(typ string, version float64) (*nodeEntry, bool) {
	if strings.HasSuffix(typ, "Tool") {
		return nil, false
	}
	d, ok := DescribeNode(typ, version)
	return declaringIn(d, ok, version)
}

// declaringIn is declaringEntry of what DescribeNode(typ, version) gave.
func declaringIn(d NodeVersion, ok bool, version float64) (*nodeEntry, bool) {
	if !ok || d.e == nil || version > 0 && d.Version != version || d.e.params == "" {
		return nil, false
	}
	return d.e, true
}

// entriesOf returns the table's entries for typ, or for the base node of
// a <type>Tool variant when the base is usable as a tool.
func entriesOf(typ string) ([]nodeEntry, bool) {
	if es, ok := nodeTable()[typ]; ok {
		return es, true
	}
	base, isTool := strings.CutSuffix(typ, "Tool")
	if !isTool {
		return nil, false
	}
	if es, ok := nodeTable()[base]; ok && es[len(es)-1].flags&flagTool != 0 {
		return es, true
	}
	return nil, false
}

// DefaultVersion is the version n8n runs a node of type typ at when the
// node has no typeVersion: a VersionedNodeType's defaultVersion, else its
// newest (n8n-workflow dist/cjs/versioned-node-type.js, getNodeType). It is
// false for a type n8n does not describe.
func DefaultVersion(typ string) (float64, bool) {
	d, ok := DescribeNode(typ, 0)
	return d.Version, ok
}

func defaultVersion(typ string, es []nodeEntry) float64 {
	if v, ok := defaultVersions[typ]; ok {
		return v
	}
	if v, ok := defaultVersions[strings.TrimSuffix(typ, "Tool")]; ok {
		return v
	}
	last := &es[len(es)-1]
	return last.v[len(last.v)-1]
}

// Known reports whether n8n describes the node type.
func (d NodeVersion) Known() bool { return d.e != nil }

func (d NodeVersion) has(f nodeFlag) bool { return d.e != nil && d.e.flags&f != 0 }

// Declarative reports a node n8n runs through its RoutingNode, which asks
// for the node's credential before it reads the resource and operation
// (n8n-core/dist/execution-engine/routing-node.js runNode, prepareCredentials).
func (d NodeVersion) Declarative() bool { return d.has(flagDeclarative) }

// Trigger reports a trigger node (starts executions).
func (d NodeVersion) Trigger() bool { return d.has(flagTrigger) }

// Outputs is the number of main outputs the description fixes: 1 for most
// nodes, 2 for If, 0 for sub-nodes, -1 when parameters decide (Switch).
func (d NodeVersion) Outputs() int {
	if d.e == nil {
		return 1
	}
	return d.e.outputs
}

// Credentials lists the credential types the node accepts.
func (d NodeVersion) Credentials() []string {
	if d.e == nil || d.e.creds == "" {
		return nil
	}
	out := strings.Fields(d.e.creds)
	for i, c := range out {
		c, _, _ = strings.Cut(c, ":")
		out[i] = strings.TrimSuffix(c, "?")
	}
	return out
}

// takesCredential reports whether typ is one of the credential types
// Credentials lists, without building the list.
func (d NodeVersion) takesCredential(typ string) bool {
	// The table writes one space between types, and a type's name ends
	// at "?", ":" or that space (so a typ holding one is no listed name):
	// typ is listed where it starts the text or follows a space and one
	// of those (or the end) follows it. RefusedCall asks this of every
	// credential of a node.
	if d.e == nil || typ == "" || strings.ContainsAny(typ, " ?:") {
		return false
	}
	s := d.e.creds
	for from := 0; ; {
		i := strings.Index(s[from:], typ)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(typ)
		if (i == 0 || s[i-1] == ' ') && (end == len(s) || s[end] == ' ' || s[end] == '?' || s[end] == ':') {
			return true
		}
		from = i + 1 // the byte before the next match is s[i]'s, not a start
	}
}

// AsksCredential reports whether the node asks for one of its credential
// types in every configuration: a required credential shown always, or
// for values of one parameter (CredentialParam). A node whose credentials
// are all optional or shown only for several parameters' values (the AI
// Agent's, for the SQL agent's data source) may ask for none.
func (d NodeVersion) AsksCredential() bool {
	if d.e == nil {
		return false
	}
	// A type not marked optional: one whose last byte is not "?" (the
	// table writes one space between types).
	for s := d.e.creds; s != ""; {
		c, rest, _ := strings.Cut(s, " ")
		if c != "" && c[len(c)-1] != '?' {
			return true
		}
		s = rest
	}
	return false
}

// RequiredCredentials returns the credential types the node requires in
// every configuration, whatever its parameters hold: n8n refuses to
// publish a workflow whose enabled node lacks one ("Missing required
// credential", n8n-workflow/dist/cjs/node-validation.js
// validateNodeCredentials, called for every enabled node that is connected
// or a trigger by cli/dist/workflows/workflow-validation.service.js
// validateNodeConfiguration).
func (d NodeVersion) RequiredCredentials() []string {
	if d.e == nil {
		return nil
	}
	var out []string
	for c := range strings.FieldsSeq(d.e.creds) {
		if !strings.ContainsAny(c, ":?") {
			out = append(out, c)
		}
	}
	return out
}

// requiresPlain reports a credential required in every configuration,
// whatever the credential parameter holds.
func (d NodeVersion) requiresPlain() bool {
	for c := range strings.FieldsSeq(d.e.creds) {
		if !strings.ContainsAny(c, ":?") {
			return true
		}
	}
	return false
}

// AuthCredential is a credential type that n8n requires only for some
// values of the node's credential parameter (CredentialParam: its
// authentication, Ghost's source, Jira's jiraVersion).
type AuthCredential struct {
	Type   string
	values string // the values, comma separated
}

// For reports whether n8n requires the credential when the parameter
// holds v.
func (a AuthCredential) For(v string) bool {
	for val := range strings.SplitSeq(a.values, ",") {
		if val == v {
			return true
		}
	}
	return false
}

// AuthCredentials yields, in the table's order, each credential type that
// hangs on the node's credential parameter; nothing when none does.
// DefaultAuthentication is the parameter's default. A node whose parameter
// (or its default) has a required credential it does not name cannot be
// activated (n8n-workflow/dist/cjs/node-validation.js
// validateNodeCredentials). Read from the table in place: the rules ask it
// of every node with a credential.
func (d NodeVersion) AuthCredentials() iter.Seq[AuthCredential] {
	return func(yield func(AuthCredential) bool) {
		if d.e == nil || !strings.Contains(d.e.creds, ":") {
			return
		}
		// The table writes one space between types (TestCredentialSearch).
		for s := d.e.creds; s != ""; {
			c, rest, _ := strings.Cut(s, " ")
			if name, vals, ok := strings.Cut(c, ":"); ok && !yield(AuthCredential{name, vals}) {
				return
			}
			s = rest
		}
	}
}

// holdsByte is strings.ContainsAny(s, string(bs)) for ASCII bytes bs,
// without the set ContainsAny builds on each call.
func holdsByte(s string, bs ...byte) bool {
	for _, b := range bs {
		if strings.IndexByte(s, b) >= 0 {
			return true
		}
	}
	return false
}

// AuthCredentialsFor yields, in the table's order, the type of each
// credential AuthCredentials yields that n8n requires when the parameter
// holds v (For). RS007 asks it of every node that names a credential
// hanging on the parameter: only the fields that hold v are read.
func (d NodeVersion) AuthCredentialsFor(v string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if d.e == nil {
			return
		}
		if v == "" || holdsByte(v, ' ', ',', ':') {
			for a := range d.AuthCredentials() { // what the search below cannot find
				if a.For(v) && !yield(a.Type) {
					return
				}
			}
			return
		}
		// A value is a piece of its field (the table writes one space
		// between fields): read each field that holds v once.
		s := d.e.creds
		for from := 0; ; {
			i := strings.Index(s[from:], v)
			if i < 0 {
				return
			}
			i += from
			start := strings.LastIndexByte(s[:i], ' ') + 1
			end := len(s)
			if j := strings.IndexByte(s[i:], ' '); j >= 0 {
				end = i + j
			}
			if name, vals, ok := strings.Cut(s[start:end], ":"); ok && (AuthCredential{name, vals}).For(v) && !yield(name) {
				return
			}
			from = end
		}
	}
}

// AuthCredentialOf returns typ as AuthCredentials yields it, and whether
// it hangs on the credential parameter.
func (d NodeVersion) AuthCredentialOf(typ string) (AuthCredential, bool) {
	if d.e == nil || strings.IndexByte(d.e.creds, ':') < 0 {
		return AuthCredential{}, false // none hangs on the parameter (most entries)
	}
	if typ == "" || holdsByte(typ, ' ', ':') {
		for a := range d.AuthCredentials() { // what the search below cannot find
			if a.Type == typ {
				return a, true
			}
		}
		return AuthCredential{}, false
	}
	// Found in place, as takesCredential finds a type (RS007 asks this of
	// every credential of a node): typ hangs on the parameter where it
	// starts the text or follows a space and a ":" follows it; its values
	// run to the next space. The first such is the one AuthCredentials
	// yields first.
	s := d.e.creds
	for from := 0; ; {
		i := strings.Index(s[from:], typ)
		if i < 0 {
			return AuthCredential{}, false
		}
		i += from
		end := i + len(typ)
		if (i == 0 || s[i-1] == ' ') && end < len(s) && s[end] == ':' {
			vals, _, _ := strings.Cut(s[end+1:], " ")
			return AuthCredential{typ, vals}, true
		}
		from = i + 1
	}
}

// DefaultAuthentication is the credential parameter's default when
// credentials hang on it ("" otherwise, or when the parameter is not shown
// with every parameter at its default).
func (d NodeVersion) DefaultAuthentication() string {
	if d.e == nil {
		return ""
	}
	return d.e.auth
}

// CredentialParam is the parameter whose value decides which credential
// the node requires (AuthCredentials): "authentication" unless the
// description gates them on another (Ghost's and Storyblok's source).
func (d NodeVersion) CredentialParam() string {
	if d.e == nil || d.e.gate == "" {
		return "authentication"
	}
	return d.e.gate
}

// DefaultModel is the model the node calls when its model parameter is
// absent ("" when the node has none or no default).
func (d NodeVersion) DefaultModel() string {
	if d.e == nil {
		return ""
	}
	return d.e.model
}

// DefaultResource is the resource when the parameter is absent.
func (d NodeVersion) DefaultResource() string {
	if d.e == nil {
		return ""
	}
	return d.e.resource
}

func (d NodeVersion) resourceOps(resource string) *resourceOps {
	if d.e == nil {
		return nil
	}
	for i := range d.e.ops {
		if d.e.ops[i].resource == resource {
			return &d.e.ops[i]
		}
	}
	return nil
}

// DefaultOperation is the operation of a resource when the parameter is
// absent ("" when the resource has no operations).
func (d NodeVersion) DefaultOperation(resource string) string {
	if r := d.resourceOps(resource); r != nil {
		return r.def
	}
	return ""
}

// OpKind is what running an operation once more does outside n8n.
type OpKind int

const (
	OpRead    OpKind = iota // reads, or works inside n8n
	OpCreate                // a second record, file or post
	OpSend                  // a second message, mail or call
	OpUpdate                // sets the same state again
	OpDelete                // removes; a repeat finds nothing more
	OpExecute               // runs something remote the name does not describe
)

var opKindNames = [...]string{"read", "create", "send", "update", "delete", "execute"}

func (k OpKind) String() string {
	if k >= 0 && int(k) < len(opKindNames) {
		return opKindNames[k]
	}
	return "unknown"
}

// Writes reports whether the operation changes state outside n8n.
func (k OpKind) Writes() bool { return k != OpRead }

// Duplicates reports whether repeating the operation leaves a second
// effect (another row, message, charge or run).
func (k OpKind) Duplicates() bool { return k == OpCreate || k == OpSend || k == OpExecute }

var kindLetters = map[byte]OpKind{'c': OpCreate, 's': OpSend, 'u': OpUpdate, 'd': OpDelete, 'x': OpExecute}

// Operation returns the kind of an operation of a resource, and false when
// the description does not list it.
func (d NodeVersion) Operation(resource, op string) (OpKind, bool) {
	r := d.resourceOps(resource)
	if r == nil || op == "" {
		return OpRead, false
	}
	for s := r.ops; s != ""; {
		tok, rest, _ := strings.Cut(s, " ")
		s = rest
		name, k, _ := strings.Cut(tok, ":")
		if name != op {
			continue
		}
		if k == "" {
			return OpRead, true
		}
		return kindLetters[k[0]], true
	}
	return OpRead, false
}

// operationOf is Operation for a node whose resource parameter may be
// absent: n8n leaves it out where a configuration hides it (Discord v2 with
// webhook authentication shows only sendLegacy, listed under resource ""),
// so an operation the default resource lacks is looked up there too.
func (d NodeVersion) operationOf(resource string, absent bool, op string) (OpKind, bool) {
	k, ok := d.Operation(resource, op)
	if !ok && absent && resource != "" {
		return d.Operation("", op)
	}
	return k, ok
}

// resourceless reports a node with no resource parameter in any
// configuration: its code never reads one.
func (d NodeVersion) resourceless() bool {
	return d.e != nil && len(d.e.ops) == 1 && d.e.ops[0].resource == ""
}

// IsPollingTrigger reports a polling trigger at any version (Gmail, Drive,
// Sheets, Outlook, Notion, RSS, Airtable triggers).
func IsPollingTrigger(typ string) bool { return anyVersion(typ, flagPolling) }

// IsWebhookNode reports a node type that declares webhooks at some version.
func IsWebhookNode(typ string) bool { return anyVersion(typ, flagWebhook) }

// Unshipped reports a node type of n8n's own packages that the node table
// (generated from the n8n release it names) does not hold: a name no
// release had ("n8n-nodes-base.httpTrigger"), or a node a release dropped
// (the Start node, gone from 2.x); or a type that names no package
// ("httpRequest"). n8n cannot load a workflow that holds
// one, so nothing such a node would start ever runs.
func Unshipped(typ string) bool {
	pkg, _, dot := strings.Cut(typ, ".")
	if !dot && typ != "" {
		// No package: n8n's loader looks the package up by the part
		// before the dot and has none of that name (n8n/dist/
		// load-nodes-and-credentials.js getNode).
		return true
	}
	if pkg != "n8n-nodes-base" && pkg != "@n8n/n8n-nodes-langchain" {
		return false
	}
	_, ok := entriesOf(typ) // DescribeNode's test, without its version search
	return !ok
}

// MissingVersion reports a node stored at a typeVersion its type's
// VersionedNodeType does not hold (Airtable at 4: it holds 1, 2, 2.1 and
// 2.2), with the versions it holds, when release v is one that refuses it:
// from 2.41.1 getNodeType throws NodeVersionNotFoundError ("Node type … is
// not available in version 4"), and the Workflow constructor asks for every
// node's type (n8n-workflow dist/cjs/versioned-node-type.js, workflow.js),
// so n8n cannot build the workflow. 2.8.4's getNodeType returned undefined
// instead, and the constructor skipped the node: not judged there. A node
// with no typeVersion runs at the default version; a plain node class
// takes any version and is not judged.
func MissingVersion(n *Node, v Version) ([]float64, bool) {
	if n.TypeVersion <= 0 || v.Compare(Version{2, 41, 0}) < 0 {
		return nil, false
	}
	vs, ok := TypeVersions(n.Type)
	return MissingVersionGiven(vs, ok, n, v)
}

// TypeVersions returns the versions the VersionedNodeType of typ holds
// (of its base node's for a <type>Tool n8n builds from it); false when no
// VersionedNodeType builds typ. MissingVersion reads it.
func TypeVersions(typ string) ([]float64, bool) {
	vs, ok := versionedTypes[typ]
	if !ok && strings.HasSuffix(typ, "Tool") {
		vs, ok = versionedTypes[strings.TrimSuffix(typ, "Tool")] // a tool n8n builds from the node
	}
	return vs, ok
}

// MissingVersionGiven is MissingVersion for a caller that has read
// TypeVersions(n.Type) (vs, versioned) once for the type.
func MissingVersionGiven(vs []float64, versioned bool, n *Node, v Version) ([]float64, bool) {
	if !versioned || n.TypeVersion <= 0 || slices.Contains(vs, n.TypeVersion) || v.Compare(Version{2, 41, 0}) < 0 {
		return nil, false
	}
	return vs, true
}

// removedIn2 are the types of n8n's own packages that n8n 1.x ships and
// 2.0 removed: n8n 1.123.81's n8n-nodes-base/dist/types/nodes.json lists
// them, 2.8.4's and 2.41.1's do not (the langchain package lost none).
var removedIn2 = map[string]bool{
	TypeStart:                        true,
	"n8n-nodes-base.automizy":        true,
	"n8n-nodes-base.crowdDev":        true,
	"n8n-nodes-base.crowdDevTrigger": true,
	"n8n-nodes-base.kitemaker":       true,
	"n8n-nodes-base.spontit":         true,
}

// RemovedIn2 reports a node type n8n 1.x ships and n8n 2.0 removed.
func RemovedIn2(typ string) bool { return removedIn2[typ] }

// UnshippedIn reports a node type of n8n's own packages that release v
// does not ship: Unshipped, less the types 2.0 removed when v is a 1.x
// release. n8n refuses to build a workflow that holds one, disabled or
// not (n8n-workflow workflow.js: the Workflow constructor asks the cli's
// NodeTypes for every node's type, and n8n-core directory-loader.js
// getNode throws UnrecognizedNodeTypeError for a name its package does
// not hold, in 1.123.81 as in 2.41.1).
func UnshippedIn(typ string, v Version) bool {
	return UnshippedGiven(Unshipped(typ), typ, v)
}

// UnshippedGiven is UnshippedIn for a caller that has read Unshipped(typ)
// once for many nodes of the type.
func UnshippedGiven(unshipped bool, typ string, v Version) bool {
	return unshipped && (v.Major >= 2 || !removedIn2[typ])
}

// ShippedSpelling returns the type of the node table that differs from typ
// only in letter case ("n8n-nodes-base.mongodb" for mongoDb), the one n8n
// would load had it been spelled so.
func ShippedSpelling(typ string) (string, bool) {
	lowerOnce.Do(func() {
		lowerTypes = map[string]string{}
		for t := range nodeTable() {
			k := strings.ToLower(t)
			if _, dup := lowerTypes[k]; dup {
				lowerTypes[k] = "" // two spellings: say neither
				continue
			}
			lowerTypes[k] = t
		}
	})
	t := lowerTypes[strings.ToLower(typ)]
	return t, t != "" && t != typ
}

var (
	lowerOnce  sync.Once
	lowerTypes map[string]string // node table types by their lower-case spelling
)

// IsTriggerNode reports a node type n8n groups as a trigger.
func IsTriggerNode(typ string) bool { return anyVersion(typ, flagTrigger) }

func anyVersion(typ string, f nodeFlag) bool {
	for _, e := range nodeTable()[typ] {
		if e.flags&f != 0 {
			return true
		}
	}
	return false
}

// ToolVariant reports whether typ is a <type>Tool variant n8n builds from
// a base node usable as a tool (entriesOf), not a node type of its own:
// it runs the base node's execute when the agent calls it.
func ToolVariant(typ string) bool {
	if _, ok := nodeTable()[typ]; ok {
		return false
	}
	_, ok := entriesOf(typ)
	return ok
}
