package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// n8nVersion is the release scripts/e2e-n8n.sh installs; the table says
// which one it was read from.
const n8nVersion = "2.41.1"

// packages are the node packages read, with the prefix n8n gives their types.
var packages = []struct{ dir, prefix string }{
	{"n8n-nodes-base", "n8n-nodes-base."},
	{"@n8n/n8n-nodes-langchain", "@n8n/n8n-nodes-langchain."},
}

// description is the part of n8n's INodeTypeDescription the table uses.
type description struct {
	Name      string          `json:"name"`
	Display   string          `json:"displayName"`
	Version   json.RawMessage `json:"version"`
	Group     []string        `json:"group"`
	Polling   bool            `json:"polling"`
	Webhooks  []any           `json:"webhooks"`
	UsableAsT any             `json:"usableAsTool"` // true, or an object of replacements
	Outputs   json.RawMessage `json:"outputs"`
	// RequestDefaults is set on a declarative node, which n8n runs through
	// its RoutingNode (no execute method of its own).
	RequestDefaults json.RawMessage `json:"requestDefaults"`
	Credentials     []struct {
		Name           string          `json:"name"`
		Required       bool            `json:"required"`
		DisplayOptions *displayOptions `json:"displayOptions"`
	} `json:"credentials"`
	Properties []property `json:"properties"`

	// DefaultVersion is the version n8n runs a node whose typeVersion is
	// missing (n8n-workflow VersionedNodeType: defaultVersion, else the
	// newest version).
	DefaultVersion *float64 `json:"defaultVersion"`

	// loaded holds the options of loadOptions methods, read from the
	// node's code (loadOptions).
	loaded map[string][]option
}

type property struct {
	Name           string          `json:"name"`
	Type           string          `json:"type"`
	Default        any             `json:"default"`
	Required       bool            `json:"required"`
	Options        []option        `json:"options"`
	DisplayOptions *displayOptions `json:"displayOptions"`
	TypeOptions    struct {
		// LoadOptionsMethod names the node's method that lists the
		// options at edit time, when the description holds none.
		LoadOptionsMethod string `json:"loadOptionsMethod"`
		MultipleValues    any    `json:"multipleValues"`
	} `json:"typeOptions"`
}

type option struct {
	Name   string `json:"name"`
	Value  any    `json:"value"`
	Action string `json:"action"`
}

type displayOptions struct {
	Show map[string][]any `json:"show"`
	Hide map[string][]any `json:"hide"`
}

// entry is one row of the table: what a node type is at a run of versions.
type entry struct {
	versions []float64
	flags    []string
	outputs  int // fixed main outputs; -1 when computed from parameters
	creds    string
	gate     string // the parameter gated credentials hang on, when not authentication
	auth     string // that parameter's default, when credentials hang on it
	model    string
	resource string
	ops      []resOps
	required string
	params   string // the top-level parameters declared at these versions, space separated
	shown    string // display conditions of the string parameters n8n may hide (hideable)
}

type resOps struct{ resource, def, ops string }

// same reports whether two entries differ only in their versions.
func (e entry) same(o entry) bool {
	return slices.Equal(e.flags, o.flags) && e.outputs == o.outputs && e.creds == o.creds && e.gate == o.gate && e.auth == o.auth &&
		e.model == o.model && e.resource == o.resource && slices.Equal(e.ops, o.ops) && e.required == o.required &&
		e.params == o.params && e.shown == o.shown
}

// Generate reads the installed packages under modules and returns the Go
// source of the table.
func Generate(modules string) ([]byte, error) {
	versions := map[string]string{}
	for _, p := range append([]struct{ dir, prefix string }{{"n8n", ""}}, packages...) {
		b, err := os.ReadFile(filepath.Join(modules, p.dir, "package.json"))
		if err != nil {
			return nil, fmt.Errorf("n8n is not installed in %s: %w", modules, err)
		}
		var pkg struct{ Version string }
		if err := json.Unmarshal(b, &pkg); err != nil {
			return nil, fmt.Errorf("%s/package.json: %w", p.dir, err)
		}
		versions[p.dir] = pkg.Version
	}
	if versions["n8n"] != n8nVersion {
		return nil, fmt.Errorf("%s holds n8n %s, the table is for %s", modules, versions["n8n"], n8nVersion)
	}
	table := map[string][]entry{}
	defaults := map[string]float64{} // the types whose default is not their newest version
	type shown struct {
		v    float64
		name string
	}
	display := map[string]shown{} // each type's display name at its newest version
	versioned := map[string][]float64{}
	for _, p := range packages {
		b, err := os.ReadFile(filepath.Join(modules, p.dir, "dist/types/nodes.json"))
		if err != nil {
			return nil, err
		}
		var descs []description
		if err := json.Unmarshal(b, &descs); err != nil {
			return nil, fmt.Errorf("%s nodes.json: %w", p.dir, err)
		}
		if err := loadOptions(modules, p.dir, descs); err != nil {
			return nil, err
		}
		vt, err := versionedTypes(modules, p.dir)
		if err != nil {
			return nil, err
		}
		for name, vs := range vt {
			versioned[p.prefix+name] = vs
		}
		ds, err := oldDefaults(descs)
		if err != nil {
			return nil, err
		}
		for name, v := range ds {
			defaults[p.prefix+name] = v
		}
		for _, d := range descs {
			vs, err := d.versions()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", d.Name, err)
			}
			for _, v := range vs {
				e, err := d.at(v)
				if err != nil {
					return nil, fmt.Errorf("%s v%v: %w", d.Name, v, err)
				}
				table[p.prefix+d.Name] = append(table[p.prefix+d.Name], e)
				if old, ok := display[p.prefix+d.Name]; !ok || v >= old.v {
					display[p.prefix+d.Name] = shown{v, d.Display}
				}
			}
		}
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// Code generated by scripts/gencatalog from n8n %s (n8n-nodes-base %s, @n8n/n8n-nodes-langchain %s). DO NOT EDIT.\n\n",
		versions["n8n"], versions["n8n-nodes-base"], versions["@n8n/n8n-nodes-langchain"])
	buf.WriteString("package n8nschema\n\n")
	fmt.Fprintf(&buf, "// N8nVersion is the n8n release the node table was read from.\nconst N8nVersion = %q\n\n", versions["n8n"])
	buf.WriteString("// newNodeTable builds the node table (nodeTable builds it once, when first\n// used: as a package variable it was built at start, on one core).\nfunc newNodeTable() map[string][]nodeEntry {\nreturn map[string][]nodeEntry{\n")
	types := make([]string, 0, len(table))
	for t := range table {
		types = append(types, t)
	}
	slices.Sort(types)
	sets := map[string]int{"": 0}
	list := []string{""}
	for _, t := range types {
		fmt.Fprintf(&buf, "%q: {\n", t)
		for _, e := range merge(table[t]) {
			if _, ok := sets[e.shown]; !ok {
				sets[e.shown] = len(list)
				list = append(list, e.shown)
			}
			writeEntry(&buf, e, sets[e.shown])
		}
		buf.WriteString("},\n")
	}
	buf.WriteString("}\n}\n\n")
	buf.WriteString("// hideableSets are the distinct lists of hideable parameters of the\n// table's entries (nodeEntry.shown indexes them; 0 is none).\nvar hideableSets = [...]string{\n")
	for _, x := range list {
		fmt.Fprintf(&buf, "%q,\n", x)
	}
	buf.WriteString("}\n\n")
	buf.WriteString("// defaultVersions are the node types whose default version, the one n8n\n// runs when a node has no typeVersion, is not their newest.\nvar defaultVersions = map[string]float64{\n")
	for _, t := range slices.Sorted(maps.Keys(defaults)) {
		fmt.Fprintf(&buf, "%q: %s,\n", t, strconv.FormatFloat(defaults[t], 'f', -1, 64))
	}
	buf.WriteString("}\n\n")
	buf.WriteString("// versionedTypes are the node types built by a VersionedNodeType, with\n// the versions its nodeVersions map holds: n8n cannot build such a node\n// at another (n8n-workflow dist/cjs/versioned-node-type.js getNodeType).\nvar versionedTypes = map[string][]float64{\n")
	for _, t := range slices.Sorted(maps.Keys(versioned)) {
		vs := make([]string, len(versioned[t]))
		for i, v := range versioned[t] {
			vs[i] = strconv.FormatFloat(v, 'f', -1, 64)
		}
		fmt.Fprintf(&buf, "%q: {%s},\n", t, strings.Join(vs, ", "))
	}
	buf.WriteString("}\n\n")
	buf.WriteString("// newDisplayNames builds the display name of each node type at its newest\n// version, which the editor gives a node imported without a name.\nfunc newDisplayNames() map[string]string {\nreturn map[string]string{\n")
	for _, t := range slices.Sorted(maps.Keys(display)) {
		fmt.Fprintf(&buf, "%q: %q,\n", t, display[t].name)
	}
	buf.WriteString("}\n}\n")
	return format.Source(buf.Bytes())
}

// oldDefaults returns the node types whose default version is not their
// newest. A versioned type is one description per version in nodes.json,
// each carrying the defaultVersion of the VersionedNodeType; n8n runs a node
// with no typeVersion at that version, else at the newest
// (n8n-workflow dist/cjs/versioned-node-type.js).
func oldDefaults(descs []description) (map[string]float64, error) {
	newest, defaults := map[string]float64{}, map[string]float64{}
	for _, d := range descs {
		vs, err := d.versions()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		newest[d.Name] = max(newest[d.Name], slices.Max(vs))
		if d.DefaultVersion != nil {
			defaults[d.Name] = *d.DefaultVersion
		}
	}
	for name, v := range defaults {
		if v == newest[name] {
			delete(defaults, name)
		}
	}
	return defaults, nil
}

// merge sorts a type's per-version entries and joins neighbours that
// differ only in their version.
func merge(es []entry) []entry {
	slices.SortFunc(es, func(a, b entry) int {
		switch {
		case a.versions[0] < b.versions[0]:
			return -1
		case a.versions[0] > b.versions[0]:
			return 1
		}
		return 0
	})
	var out []entry
	for _, e := range es {
		if n := len(out); n > 0 && out[n-1].same(e) {
			out[n-1].versions = append(out[n-1].versions, e.versions...)
			continue
		}
		out = append(out, e)
	}
	return out
}

func writeEntry(buf *bytes.Buffer, e entry, shown int) {
	vs := make([]string, len(e.versions))
	for i, v := range e.versions {
		vs[i] = strconv.FormatFloat(v, 'f', -1, 64)
	}
	fmt.Fprintf(buf, "{v: []float64{%s}, outputs: %d", strings.Join(vs, ", "), e.outputs)
	if len(e.flags) > 0 {
		fmt.Fprintf(buf, ", flags: %s", strings.Join(e.flags, "|"))
	}
	if e.creds != "" {
		fmt.Fprintf(buf, ", creds: %q", e.creds)
	}
	if e.gate != "" {
		fmt.Fprintf(buf, ", gate: %q", e.gate)
	}
	if e.auth != "" {
		fmt.Fprintf(buf, ", auth: %q", e.auth)
	}
	if e.model != "" {
		fmt.Fprintf(buf, ", model: %q", e.model)
	}
	if e.resource != "" {
		fmt.Fprintf(buf, ", resource: %q", e.resource)
	}
	if e.required != "" {
		fmt.Fprintf(buf, ", required: %q", e.required)
	}
	if e.params != "" {
		fmt.Fprintf(buf, ", params: %q", e.params)
	}
	if shown != 0 {
		fmt.Fprintf(buf, ", shown: %d", shown)
	}
	if len(e.ops) > 0 {
		buf.WriteString(", ops: []resourceOps{\n")
		for _, r := range e.ops {
			fmt.Fprintf(buf, "{%q, %q, %q},\n", r.resource, r.def, r.ops)
		}
		buf.WriteString("}")
	}
	buf.WriteString("},\n")
}

func (d description) versions() ([]float64, error) {
	var one float64
	if err := json.Unmarshal(d.Version, &one); err == nil {
		return []float64{one}, nil
	}
	var many []float64
	if err := json.Unmarshal(d.Version, &many); err != nil {
		return nil, fmt.Errorf("version %s: %w", d.Version, err)
	}
	return many, nil
}

// at reads the description at one version.
func (d description) at(v float64) (entry, error) {
	e := entry{versions: []float64{v}, outputs: mainOutputs(d.Outputs)}
	if slices.Contains(d.Group, "trigger") {
		e.flags = append(e.flags, "flagTrigger")
	}
	if d.Polling {
		e.flags = append(e.flags, "flagPolling")
	}
	if len(d.Webhooks) > 0 {
		e.flags = append(e.flags, "flagWebhook")
	}
	if d.UsableAsT != nil && d.UsableAsT != false {
		e.flags = append(e.flags, "flagTool")
	}
	if len(d.RequestDefaults) > 0 {
		e.flags = append(e.flags, "flagDeclarative")
	}
	base := d.defaults(v, nil)
	creds, gate, auth, err := d.credentials(base)
	if err != nil {
		return e, err
	}
	e.creds, e.auth = creds, auth
	if gate != "authentication" {
		e.gate = gate
	}
	for _, name := range []string{"model", "modelName"} {
		if m := modelName(base[name]); m != "" {
			e.model = m
			break
		}
	}
	res, _ := base["resource"].(string)
	e.resource = res
	ops, err := d.operations(v)
	if err != nil {
		return e, err
	}
	e.ops = ops
	e.required = d.required(v)
	e.params = d.params(v)
	e.shown = d.hideable(v)
	return e, nil
}

// textTypes are the parameter types that hold text a rule reads (RS012),
// as themselves or as their entries' values.
var textTypes = map[string]bool{"string": true, "json": true, "fixedCollection": true, "collection": true, "resourceLocator": true}

// hideable lists the top-level text parameters (textTypes) n8n shows only for some
// of a node's values, with the display conditions of each property of
// the name at v, of whatever type, as the table writes conditions
// (gate): "name:conds", the properties of one name "|" separated. n8n drops a parameter its display
// options hide when it builds the workflow (n8n-workflow
// dist/cjs/node-helpers.js getNodeParameters, L663: returnNoneDisplayed
// is false when workflow.js L86 calls it), so its value is never read.
// A name is left out when some property of it is shown at every value,
// or has a condition the table cannot write. Space separated, in
// description order.
func (d description) hideable(v float64) string {
	var names []string
	alts := map[string][]string{}
	skip, text := map[string]bool{}, map[string]bool{}
	for i := range d.Properties {
		p := &d.Properties[i]
		if !versionShown(p.DisplayOptions, v) {
			continue
		}
		if !slices.Contains(names, p.Name) {
			names = append(names, p.Name)
		}
		if textTypes[p.Type] {
			text[p.Name] = true
		}
		conds, ok := d.gate(p.DisplayOptions, v)
		if !ok || conds == "" || strings.Contains(conds, "|") {
			skip[p.Name] = true
			continue
		}
		if !slices.Contains(alts[p.Name], conds) {
			alts[p.Name] = append(alts[p.Name], conds)
		}
	}
	var out []string
	for _, n := range names {
		if skip[n] || !text[n] || len(alts[n]) == 0 {
			continue
		}
		out = append(out, n+":"+strings.Join(alts[n], "|"))
	}
	return strings.Join(out, " ")
}

// params lists the names of the top-level properties the description
// declares at v, sorted: n8n keeps only those when it loads a workflow
// (n8n-workflow workflow.js, the constructor's getNodeParameters), so a
// stored parameter of another name never reaches a run.
func (d description) params(v float64) string {
	var names []string
	for i := range d.Properties {
		p := &d.Properties[i]
		if versionShown(p.DisplayOptions, v) && !slices.Contains(names, p.Name) {
			names = append(names, p.Name)
		}
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

// required lists the top-level parameters n8n finds an issue with when
// they are empty (n8n-workflow node-helpers.js getParameterIssues): each
// required, a string, options or dateTime of one value, which
// addToIssuesIfMissing finds missing when it is "" or absent, or a
// resource locator, missing when its value is "" (type-guards.js
// isValidResourceLocatorParameterValue), or a multiOptions, missing
// when its value is an empty list (addToIssuesIfMissing; absent, only
// when its default is [], which the Workflow constructor fills in for a
// run's check). A name is written "+name" when its default is not empty:
// only a stored "" (or []) is then missing; "~name" for a resource
// locator, "*name" for a multiOptions. A parameter n8n shows only for some values
// (displayParameter) is written with them, "name:cond;cond", when the
// table can tell them from the node's stored values (gate): judged only
// there. A name two properties share counts when no other property of
// that name can be shown with it; else only a stored empty value counts
// ("+"), and an ungated one is left out. Space separated, in description
// order.
func (d description) required(v float64) string {
	byName := map[string][]int{}
	for i, p := range d.Properties {
		byName[p.Name] = append(byName[p.Name], i)
	}
	var out []string
	for i, p := range d.Properties {
		if !p.Required || p.TypeOptions.MultipleValues != nil && p.TypeOptions.MultipleValues != false {
			continue
		}
		locator, list := false, false
		switch p.Type {
		case "string", "options", "dateTime":
		case "resourceLocator", "workflowSelector", "agentSelector":
			locator = true
		case "multiOptions":
			list = true
		default:
			continue
		}
		if !versionShown(p.DisplayOptions, v) {
			continue
		}
		conds, ok := d.gate(p.DisplayOptions, v)
		if !ok {
			continue
		}
		alone := true // no other property of the name can be shown with it
		for _, j := range byName[p.Name] {
			if j != i && !d.apart(p.DisplayOptions, d.Properties[j].DisplayOptions, v) {
				alone = false
			}
		}
		if !alone && conds == "" {
			continue
		}
		name := p.Name
		if locator {
			name = "~" + name
			if m, ok := p.Default.(map[string]any); ok && m["value"] != "" && m["value"] != nil {
				name = "+" + name
			}
		} else if list {
			name = "*" + name
			if def, ok := p.Default.([]any); !ok || len(def) > 0 {
				name = "+" + name // absent, the default fills in a list (or nothing) that is not empty
			}
		} else if def, ok := p.Default.(string); !ok || def != "" {
			if p.Default != nil {
				name = "+" + name
			}
		}
		if !alone && !strings.HasPrefix(name, "+") {
			name = "+" + name
		}
		if conds != "" {
			name += ":" + conds
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return strings.Join(out, " ")
}

// versionShown reports whether the @version part of display options
// shows a parameter at v.
func versionShown(do *displayOptions, v float64) bool {
	if do == nil {
		return true
	}
	at := &displayOptions{Show: map[string][]any{}, Hide: map[string][]any{}}
	if vs, has := do.Show["@version"]; has {
		at.Show["@version"] = vs
	}
	if vs, has := do.Hide["@version"]; has {
		at.Hide["@version"] = vs
	}
	return shown(at, v, nil)
}

// gate writes the display conditions of a parameter other than @version
// as the table's conditions, ";" separated, resource first, then
// operation, then other keys by name: "key=a,b" (shown only when the
// key's value is a or b), "key!a,b" (hidden when it is). A key other than
// resource and operation is written with its default, "select()=channel",
// and only when it is an options parameter of its own shown whenever the
// gated one's resource and operation conditions hold (Slack's select, at
// message post and schedule): its value is then the stored one or that
// default. Operations are written only for a node whose operation hangs
// on resource alone (gates), so the table's default operation is the
// one n8n fills in. false when a condition cannot be read so: a value
// that is not a plain string, a key of another kind.
func (d description) gate(do *displayOptions, v float64) (string, bool) {
	if do == nil {
		return "", true
	}
	keys := map[string]bool{}
	for _, m := range []map[string][]any{do.Show, do.Hide} {
		for k := range m {
			if k != "@version" {
				keys[k] = true
			}
		}
	}
	order := make([]string, 0, len(keys))
	for k := range keys {
		order = append(order, k)
	}
	rank := func(k string) int {
		switch k {
		case "resource":
			return 0
		case "operation":
			return 1
		}
		return 2
	}
	slices.SortFunc(order, func(a, b string) int {
		if c := rank(a) - rank(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var conds []string
	for _, k := range order {
		head := k
		switch k {
		case "resource":
		case "operation":
			if len(d.gates()) > 0 {
				return "", false
			}
		default:
			def, ok := d.keyShown(k, do, v)
			if !ok {
				return "", false
			}
			head = k + "(" + def + ")"
		}
		for _, c := range []struct {
			op   string
			vals []any
		}{{"=", do.Show[k]}, {"!", do.Hide[k]}} {
			if c.vals == nil {
				continue
			}
			s, ok := plain(c.vals)
			if !ok {
				return "", false
			}
			conds = append(conds, head+c.op+strings.Join(s, ","))
		}
	}
	return strings.Join(conds, ";"), true
}

// plain returns condition values that are all strings the table can
// write; false for any other (a boolean, a _cnd object, "").
func plain(vals []any) ([]string, bool) {
	if len(vals) == 0 {
		return nil, false
	}
	out := make([]string, 0, len(vals))
	for _, x := range vals {
		s, ok := x.(string)
		if !ok || s == "" || strings.ContainsAny(s, " ,;=!():+~") {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// keyShown returns the default of key k, a parameter the display options
// do of another parameter test, when k is an options parameter shown
// whenever do's resource and operation conditions hold, and the one of
// that name that can be shown with do: its own display options hang on
// @version (shown at v), resource and operation alone, each a superset
// of do's. Its value is then the stored one or its default, which n8n
// fills in (getNodeParameters).
func (d description) keyShown(k string, do *displayOptions, v float64) (string, bool) {
	var kp *property
	for i := range d.Properties {
		if p := &d.Properties[i]; p.Name == k && !d.apart(do, p.DisplayOptions, v) {
			if kp != nil {
				return "", false
			}
			kp = p
		}
	}
	if kp == nil || kp.Type != "options" || !versionShown(kp.DisplayOptions, v) {
		return "", false
	}
	def, ok := kp.Default.(string)
	if !ok || strings.ContainsAny(def, " ,;=!():+~") {
		return "", false
	}
	if kp.DisplayOptions == nil {
		return def, true
	}
	for key := range kp.DisplayOptions.Hide {
		if key != "@version" {
			return "", false
		}
	}
	for key, vals := range kp.DisplayOptions.Show {
		switch key {
		case "@version":
		case "resource", "operation":
			need, ok := plain(do.Show[key])
			if !ok {
				return "", false
			}
			has, ok := plain(vals)
			if !ok {
				return "", false
			}
			for _, x := range need {
				if !slices.Contains(has, x) {
					return "", false
				}
			}
		default:
			return "", false
		}
	}
	return def, true
}

// apart reports whether n8n never shows two parameters at once at v: the
// second is hidden at v, or an options key the first is shown for only at
// some values is shown for none of them, or hidden at all of them, by the
// second (or the other way round).
func (d description) apart(a, b *displayOptions, v float64) bool {
	if !versionShown(b, v) {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	excl := func(x, y *displayOptions) bool {
		for k, vals := range x.Show {
			if k == "@version" || !d.optionsKey(k) {
				continue
			}
			xs, ok := plain(vals)
			if !ok {
				continue
			}
			if ys, ok := plain(y.Show[k]); ok && !slices.ContainsFunc(xs, func(s string) bool { return slices.Contains(ys, s) }) {
				return true
			}
			if hs, ok := plain(y.Hide[k]); ok && !slices.ContainsFunc(xs, func(s string) bool { return !slices.Contains(hs, s) }) {
				return true
			}
		}
		return false
	}
	return excl(a, b) || excl(b, a)
}

// optionsKey reports whether every property named k takes one value of a
// list: one value cannot match two disjoint lists.
func (d description) optionsKey(k string) bool {
	found := false
	for _, p := range d.Properties {
		if p.Name == k {
			if p.Type != "options" {
				return false
			}
			found = true
		}
	}
	return found
}

// credentials lists the node's credential types, sorted, space separated.
// A required credential that n8n shows only for some values of one
// parameter (displayOptions.show holds that key alone: authentication for
// most nodes, source for Ghost and Storyblok, jiraVersion for Jira) is
// written with them, "slackOAuth2Api:oAuth2" ("a:x,y" for several): n8n
// refuses to activate a workflow whose node lacks the credential that
// parameter requires (n8n-workflow node-validation.js
// validateNodeCredentials, cli workflow-validation.service.js). gate is
// then that parameter, and auth its default. The table holds one such
// parameter per node: authentication when credentials hang on it and on
// another (the Pipedrive Trigger's incomingAuthentication, for the
// webhook's own basic auth), whose credentials are then written as those
// of several parameters; two others stop the generator.
//
// A credential that is not required, or that n8n shows only for values of
// several parameters (the AI Agent's mySql and postgres, for the SQL
// agent's data source), is written with a trailing "?" ("mySql?"): the
// node asks for it only in some configurations, so holding another type
// proves nothing.
func (d description) credentials(base map[string]any) (creds, gate, auth string, err error) {
	type shownFor struct {
		name, key string
		vals      []string
	}
	var conds []shownFor
	for _, c := range d.Credentials {
		do := c.DisplayOptions
		if do != nil && len(do.Show) == 0 && len(do.Hide) == 0 {
			do = nil // no condition: shown always
		}
		key, vals, ok := credentialGate(c.Required, do)
		switch {
		case ok:
		case c.Required && do == nil:
			key = "*" // asked always
		default:
			key = "?"
		}
		conds = append(conds, shownFor{c.Name, key, vals})
		if !ok || key == gate || gate == "authentication" {
			continue
		}
		if key != "authentication" && gate != "" {
			return "", "", "", fmt.Errorf("credentials hang on both %q and %q", gate, key)
		}
		gate = key
	}
	gated := map[string][]string{}
	plain := map[string]bool{}
	asked := map[string]bool{} // required, and shown always or by the gate alone
	var names []string
	for _, c := range conds {
		if !slices.Contains(names, c.name) {
			names = append(names, c.name)
		}
		if c.key != gate {
			plain[c.name] = true
			asked[c.name] = asked[c.name] || c.key == "*"
			continue
		}
		asked[c.name] = true
		for _, v := range c.vals {
			if !slices.Contains(gated[c.name], v) {
				gated[c.name] = append(gated[c.name], v)
			}
		}
	}
	slices.Sort(names)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if vs := gated[n]; len(vs) > 0 && !plain[n] {
			slices.Sort(vs)
			out[i] += ":" + strings.Join(vs, ",")
			auth, _ = base[gate].(string)
		} else if !asked[n] {
			out[i] += "?"
		}
	}
	creds = strings.Join(out, " ")
	if !strings.Contains(creds, ":") {
		gate = "" // every credential it gates is also shown otherwise
	}
	return creds, gate, auth, nil
}

// credentialGate returns the parameter a required credential is shown for
// and its values, when that parameter alone decides it.
func credentialGate(required bool, do *displayOptions) (string, []string, bool) {
	if !required || do == nil || len(do.Hide) > 0 || len(do.Show) != 1 {
		return "", nil, false
	}
	var key string
	var conds []any
	for k, c := range do.Show {
		key, conds = k, c
	}
	if len(conds) == 0 || strings.HasPrefix(key, "/") || strings.HasPrefix(key, "@") {
		return "", nil, false
	}
	vals := make([]string, 0, len(conds))
	for _, c := range conds {
		s, ok := c.(string)
		if !ok || s == "" || strings.ContainsAny(s, " :,") {
			return "", nil, false
		}
		vals = append(vals, s)
	}
	return key, vals, true
}

// mainOutputs counts the fixed main outputs; -1 when an expression computes
// them (Switch), 0 when there are none.
func mainOutputs(raw json.RawMessage) int {
	var outs []any
	if err := json.Unmarshal(raw, &outs); err != nil {
		return -1
	}
	n := 0
	for _, o := range outs {
		switch o := o.(type) {
		case string:
			if o == "main" {
				n++
			}
		case map[string]any:
			if o["type"] == "main" {
				n++
			}
		}
	}
	return n
}

func modelName(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case map[string]any: // a resource locator {mode, value}
		s, _ := v["value"].(string)
		return s
	}
	return ""
}

// defaults returns the parameters a node has when none are stored: each
// property's default, taken from the first property of that name that is
// shown, in order (workflow/src/node-helpers.ts getNodeParameters), after
// the fixed ones.
func (d description) defaults(v float64, fixed map[string]any) map[string]any {
	params := map[string]any{}
	for k, x := range fixed {
		params[k] = x
	}
	for i := range d.Properties {
		p := &d.Properties[i]
		if _, ok := params[p.Name]; ok {
			continue
		}
		if shown(p.DisplayOptions, v, params) {
			params[p.Name] = p.Default
		}
	}
	return params
}

// visible returns the first property of a name shown with these parameters.
func (d description) visible(name string, v float64, params map[string]any) *property {
	for i := range d.Properties {
		p := &d.Properties[i]
		if p.Name == name && shown(p.DisplayOptions, v, params) {
			return p
		}
	}
	return nil
}

// shown is n8n's displayParameter (workflow/src/node-helpers.ts): every
// show key must match one of its values, no hide key may.
func shown(do *displayOptions, v float64, params map[string]any) bool {
	if do == nil {
		return true
	}
	values := func(key string) []any {
		var x any
		switch {
		case key == "@version":
			x = v
		case strings.HasPrefix(key, "/"):
			x = params[key[1:]]
		default:
			x = params[key]
		}
		if m, ok := x.(map[string]any); ok && m["__rl"] == true {
			x = m["value"]
		}
		if l, ok := x.([]any); ok {
			return l
		}
		return []any{x}
	}
	for key, conds := range do.Show {
		vals := values(key)
		for _, x := range vals {
			if s, ok := x.(string); ok && strings.HasPrefix(s, "=") {
				return true // an expression shows everything
			}
		}
		if len(vals) == 0 || !matches(conds, vals) {
			return false
		}
	}
	for key, conds := range do.Hide {
		if vals := values(key); len(vals) > 0 && matches(conds, vals) {
			return false
		}
	}
	return true
}

// matches is checkConditions: a plain value matches by equality, a
// {_cnd: {op: target}} condition when every value passes it.
func matches(conds []any, vals []any) bool {
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if !ok {
			if slices.ContainsFunc(vals, func(x any) bool { return equal(x, c) }) {
				return true
			}
			continue
		}
		cnd, ok := m["_cnd"].(map[string]any)
		if !ok || len(m) != 1 {
			continue
		}
		all := true
		for op, target := range cnd {
			for _, x := range vals {
				if !cond(op, x, target) {
					all = false
				}
			}
		}
		if all {
			return true
		}
	}
	return false
}

func cond(op string, x, target any) bool {
	xf, xnum := x.(float64)
	tf, tnum := target.(float64)
	xs, _ := x.(string)
	ts, _ := target.(string)
	switch op {
	case "eq":
		return equal(x, target)
	case "not":
		return !equal(x, target)
	case "gte":
		return xnum && tnum && xf >= tf
	case "lte":
		return xnum && tnum && xf <= tf
	case "gt":
		return xnum && tnum && xf > tf
	case "lt":
		return xnum && tnum && xf < tf
	case "between":
		r, _ := target.(map[string]any)
		from, _ := r["from"].(float64)
		to, _ := r["to"].(float64)
		return xnum && xf >= from && xf <= to
	case "startsWith":
		return strings.HasPrefix(xs, ts)
	case "endsWith":
		return strings.HasSuffix(xs, ts)
	case "includes":
		return strings.Contains(xs, ts)
	case "exists":
		return x != nil
	}
	return false
}

func equal(a, b any) bool {
	switch a := a.(type) {
	case string, float64, bool, nil:
		return a == b
	}
	return false
}
