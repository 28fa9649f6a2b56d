package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// maxConfigs bounds the configurations tried per node version; the nodes of
// n8n 2.41.1 need at most a dozen.
const maxConfigs = 256

// absent stands for a gating parameter left unset (not shown).
var absent = &struct{}{}

// operations lists, per resource, every operation that some configuration
// of the node defines at version v: n8n shows an operation parameter for
// the resource and for the values of the other parameters its
// displayOptions name (Ghost's and Storyblok's source, Discord's
// authentication). Each such parameter, a gate, is tried at each of its
// values; the default configuration comes first, so a resource's default
// operation is the one n8n gives a node with every parameter at its
// default. A resource that some configuration leaves hidden (Discord v2
// with webhook authentication) is listed as "".
func (d description) operations(v float64) ([]resOps, error) {
	gates := d.gates()
	base := d.defaults(v, nil)
	values := make([][]any, len(gates))
	combos := 1
	for i, g := range gates {
		values[i] = d.gateValues(g, base)
		combos *= len(values[i])
		if combos > maxConfigs {
			return nil, fmt.Errorf("more than %d configurations of %v", maxConfigs, gates)
		}
	}
	var out []resOps
	add := func(r, def string, ops []string) {
		i := slices.IndexFunc(out, func(x resOps) bool { return x.resource == r })
		if i < 0 {
			out = append(out, resOps{r, def, strings.Join(ops, " ")})
			return
		}
		have := strings.Fields(out[i].ops)
		for _, op := range ops {
			if !slices.Contains(have, op) {
				have = append(have, op)
			}
		}
		out[i].ops = strings.Join(have, " ")
	}
	for c := 0; c < combos; c++ {
		fixed := map[string]any{}
		for i, k := 0, c; i < len(gates); i++ {
			if x := values[i][k%len(values[i])]; x != absent {
				fixed[gates[i]] = x
			}
			k /= len(values[i])
		}
		params := d.defaults(v, fixed)
		if !d.real(v, fixed, params) {
			continue
		}
		res, _ := params["resource"].(string)
		resources := []string{res}
		if p := d.visible("resource", v, params); p != nil && len(p.Options) > 0 {
			resources = resources[:0]
			for _, o := range p.Options {
				if s, ok := o.Value.(string); ok {
					resources = append(resources, s)
				}
			}
		} else if p == nil {
			resources = []string{""}
		}
		for _, r := range resources {
			with := map[string]any{"resource": r}
			if r == "" {
				with = map[string]any{}
			}
			for k, x := range fixed {
				with[k] = x
			}
			params := d.defaults(v, with)
			p := d.visible("operation", v, params)
			if p == nil {
				continue
			}
			opts := p.Options
			if len(opts) == 0 && p.TypeOptions.LoadOptionsMethod != "" {
				opts = d.loaded[p.TypeOptions.LoadOptionsMethod]
			}
			if len(opts) == 0 {
				continue
			}
			def, _ := params["operation"].(string)
			var ops []string
			for _, o := range opts {
				val, ok := o.Value.(string)
				if !ok {
					continue
				}
				if val == "" || strings.ContainsAny(val, " :") {
					return nil, fmt.Errorf("operation value %q cannot be written in the table", val)
				}
				if k := kind(d.Name, val, o.Action, o.Name); k != "" {
					val += ":" + k
				}
				ops = append(ops, val)
			}
			add(r, def, ops)
		}
	}
	for _, r := range out {
		if err := oneKind(r.ops); err != nil {
			return nil, fmt.Errorf("resource %q: %w", r.resource, err)
		}
	}
	return out, nil
}

// oneKind fails when two configurations give one operation two kinds: the
// table holds one.
func oneKind(ops string) error {
	seen := map[string]string{}
	for _, tok := range strings.Fields(ops) {
		name, _, _ := strings.Cut(tok, ":")
		if k, ok := seen[name]; ok && k != tok {
			return fmt.Errorf("operation %q is both %q and %q", name, k, tok)
		}
		seen[name] = tok
	}
	return nil
}

// gates are the parameters, other than resource and operation, whose
// values decide which resource and operation parameters n8n shows.
func (d description) gates() []string {
	var gates []string
	for _, p := range d.Properties {
		if (p.Name != "resource" && p.Name != "operation") || p.DisplayOptions == nil {
			continue
		}
		for _, m := range []map[string][]any{p.DisplayOptions.Show, p.DisplayOptions.Hide} {
			for k := range m {
				k = strings.TrimPrefix(k, "/")
				if k != "resource" && k != "operation" && k != "@version" && !slices.Contains(gates, k) {
					gates = append(gates, k)
				}
			}
		}
	}
	slices.Sort(gates)
	return gates
}

// gateValues are the values a gate is tried at: its default first (or
// absent when it has none), then its options, the plain values conditions
// compare it with, and absent.
func (d description) gateValues(g string, base map[string]any) []any {
	var vals []any
	put := func(x any) {
		if (x == absent || comparable(x)) && !slices.ContainsFunc(vals, func(y any) bool { return y == x }) {
			vals = append(vals, x)
		}
	}
	if x, ok := base[g]; ok && comparable(x) {
		put(x)
	} else {
		put(absent)
	}
	for _, p := range d.Properties {
		if p.Name == g {
			for _, o := range p.Options {
				put(o.Value)
			}
			if p.Type == "boolean" {
				put(true)
				put(false)
			}
		}
		if p.DisplayOptions == nil {
			continue
		}
		for _, m := range []map[string][]any{p.DisplayOptions.Show, p.DisplayOptions.Hide} {
			for _, c := range append(m[g], m["/"+g]...) {
				put(c)
			}
		}
	}
	put(absent)
	return vals
}

func comparable(x any) bool {
	switch x.(type) {
	case string, float64, bool:
		return true
	}
	return false
}

// real reports whether a configuration can be stored: n8n keeps a gate's
// value only when its parameter is shown.
func (d description) real(v float64, fixed, params map[string]any) bool {
	for g := range fixed {
		if d.visible(g, v, params) == nil {
			return false
		}
	}
	return true
}

// loadedOption is one option of a loadOptions method: an object literal
// that starts with its name and value (TheHive.node.js loadAlertOptions:
// `{ name: 'Create', value: 'create', description: ... }`).
var loadedOption = regexp.MustCompile(`\{\s*name:\s*'([^']+)',\s*value:\s*'([^']+)'`)

// loadOptions reads, for the nodes whose operation parameter lists its
// options through a loadOptions method instead of the description
// (TheHive v1: loadAlertOptions, loadCaseOptions, loadObservableOptions,
// loadTaskOptions), the literal options that method returns, from the
// node's compiled file in the package. A method it cannot read stops the
// generator: the table would miss the node's operations.
func loadOptions(modules, pkg string, descs []description) error {
	var files []string
	for i := range descs {
		d := &descs[i]
		for _, p := range d.Properties {
			m := p.TypeOptions.LoadOptionsMethod
			if p.Name != "operation" || len(p.Options) > 0 || m == "" {
				continue
			}
			if files == nil {
				var err error
				if files, err = nodeFiles(modules, pkg); err != nil {
					return err
				}
			}
			opts, err := methodOptions(modules, pkg, files, d.Name, m)
			if err != nil {
				return fmt.Errorf("%s: %w", d.Name, err)
			}
			if d.loaded == nil {
				d.loaded = map[string][]option{}
			}
			d.loaded[m] = opts
		}
	}
	return nil
}

// nodeFiles lists the package's node files (package.json n8n.nodes).
func nodeFiles(modules, pkg string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(modules, pkg, "package.json"))
	if err != nil {
		return nil, err
	}
	var p struct {
		N8n struct{ Nodes []string } `json:"n8n"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s/package.json: %w", pkg, err)
	}
	return p.N8n.Nodes, nil
}

// methodOptions reads the options of a loadOptions method from the node's
// file, <Name>.node.js (any case).
func methodOptions(modules, pkg string, files []string, name, method string) ([]option, error) {
	for _, f := range files {
		if !strings.EqualFold(filepath.Base(f), name+".node.js") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(modules, pkg, f))
		if err != nil {
			return nil, err
		}
		src := string(b)
		i := strings.Index(src, "async "+method+"(")
		if i < 0 {
			continue
		}
		body := src[i:]
		if j := strings.Index(body, "return "); j >= 0 {
			body = body[:j]
		}
		var opts []option
		for _, m := range loadedOption.FindAllStringSubmatch(body, -1) {
			opts = append(opts, option{Name: m[1], Value: m[2]})
		}
		if len(opts) == 0 {
			return nil, fmt.Errorf("%s: %s returns no literal options", f, method)
		}
		return opts, nil
	}
	return nil, fmt.Errorf("no node file defines %s", method)
}
