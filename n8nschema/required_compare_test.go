package n8nschema

import (
	"encoding/json"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

// TestMissingRequiredAsBefore checks MissingRequired and
// MissingRequiredAlways, which read a node's resource and operation once
// for all its required parameters, against the reading they replaced
// (oldMissingRequired: each condition read them again): on every node of
// n8n-real and n8n-more, and on nodes made from the table, at every
// version, resource and operation it lists, with random parameters
// stored empty, as expressions or set.
func TestMissingRequiredAsBefore(t *testing.T) {
	shownFirstFound := map[bool]int{} // nodes missing a parameter, by publish
	compare := func(where string, n *Node) {
		t.Helper()
		if _, ok := nodeTable()[n.Type]; !ok {
			return // a tool variant, which the old reading did not judge (TestMissingRequired)
		}
		for _, gates := range []bool{true, false} {
			got, gotOK := missingRequired(n, gates, false)
			want, wantOK := oldMissingRequired(n, gates)
			if got != want || gotOK != wantOK {
				t.Fatalf("%s: node %q (%s v%v), gates %v: %q %v, before %q %v", where, n.Name, n.Type, n.TypeVersion, gates, got, gotOK, want, wantOK)
			}
			// missingOf reads a value before its conditions: the same
			// answer as reading the conditions first, in every reading.
			for _, publish := range []bool{false, true} {
				got, gotOK := missingRequired(n, gates, publish)
				want, wantOK := shownFirstMissing(n, gates, publish)
				if got != want || gotOK != wantOK {
					t.Fatalf("%s: node %q (%s v%v), gates %v, publish %v: %q %v, conditions first %q %v", where, n.Name, n.Type, n.TypeVersion, gates, publish, got, gotOK, want, wantOK)
				}
				if gotOK {
					shownFirstFound[publish]++
				}
			}
		}
	}
	nodes := 0
	for _, set := range []string{"n8n-real", "n8n-more"} {
		root := sharedtest.Path(t, "corpus", set)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, w := range Parse(NewSource(p, b)).Workflows {
				for _, n := range w.Nodes {
					compare(p, n)
					nodes++
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	made, missing := 0, 0
	for _, typ := range slices.Sorted(maps.Keys(nodeTable())) { // the same random draws every run
		es := nodeTable()[typ]
		for i := range es {
			e := &es[i]
			if e.required == "" {
				continue
			}
			var names []string
			values := map[string][]string{} // an option's values its conditions name
			for f := range strings.FieldsSeq(e.required) {
				f = strings.TrimLeft(f, "+~")
				name, conds, _ := strings.Cut(f, ":")
				names = append(names, name)
				for c := range strings.SplitSeq(conds, ";") {
					if k, rest, ok := strings.Cut(c, "("); ok {
						names = append(names, k)
						if i := strings.IndexAny(rest, "=!"); i >= 0 {
							values[k] = append(values[k], strings.Split(rest[i+1:], ",")...)
						}
					}
				}
			}
			resources := []string{"", e.resource, "={{ $json.r }}", "nothing"}
			ops := []string{"", "={{ $json.o }}", "nothing"}
			for _, r := range e.ops {
				resources = append(resources, r.resource)
				ops = append(ops, r.def)
				for op := range strings.FieldsSeq(r.ops) {
					op, _, _ = strings.Cut(op, ":")
					ops = append(ops, op)
				}
			}
			for _, v := range e.v {
				for k := 0; k < 12; k++ {
					params := map[string]any{}
					if r := resources[rng.IntN(len(resources))]; r != "" {
						params["resource"] = r
					}
					if op := ops[rng.IntN(len(ops))]; op != "" {
						params["operation"] = op
					}
					for _, name := range names {
						switch rng.IntN(6) {
						case 0:
							params[name] = ""
						case 1:
							params[name] = "={{ $json.x }}"
						case 2:
							params[name] = "set"
							if vs := values[name]; len(vs) > 0 {
								params[name] = vs[rng.IntN(len(vs))]
							}
						case 3:
							params[name] = map[string]any{"__rl": true, "mode": "id", "value": []any{"", "v", nil}[rng.IntN(3)]}
						}
					}
					node, err := json.Marshal(map[string]any{"name": "A", "type": typ, "typeVersion": v, "parameters": params})
					if err != nil {
						t.Fatal(err)
					}
					f := Parse(NewSource("w.json", []byte(`{"nodes": [`+string(node)+`], "connections": {}}`)))
					n := f.Workflows[0].Nodes[0]
					compare(string(node), n)
					made++
					if _, ok := missingRequired(n, true, false); ok {
						missing++
					}
				}
			}
		}
	}
	t.Logf("%d corpus nodes, %d made from the table (%d missing a parameter)", nodes, made, missing)
	if shownFirstFound[false] == 0 || shownFirstFound[true] == 0 {
		t.Errorf("missing by run %d, by publish %d: the value-first comparison proves nothing for one", shownFirstFound[false], shownFirstFound[true])
	}
}

// shownFirstMissing is missingRequired for a type the table lists (no
// tool variant) as missingOf read it before it read a value first: each
// gated parameter's conditions, then its value.
func shownFirstMissing(n *Node, gates, publish bool) (string, bool) {
	if n.Disabled {
		return "", false
	}
	es := nodeTable()[n.Type]
	var e *nodeEntry
	for i := range es {
		for _, v := range es[i].v {
			if v == n.TypeVersion {
				e = &es[i]
			}
		}
	}
	if e == nil || e.required == "" {
		return "", false
	}
	d := display{n: n, e: e}
	rq := requiredOf(e)
	rs := rq.every
	if gates && len(rq.byRes) > 0 {
		rs = rq.at(&d)
	}
	for _, k := range rs {
		r := &rq.all[k]
		if r.name == "path" && webhookPaths[n.Type] {
			continue
		}
		if r.gated {
			if shown, _ := d.shown(r.conds); !gates || !shown {
				continue
			}
		}
		v, ok := n.Param(r.name)
		if r.list {
			if publish && (!ok || !storedConds(n, r.conds)) {
				continue
			}
			if !ok && !r.filled || ok && v.Kind() == Array && v.len() == 0 {
				return r.name, true
			}
			continue
		}
		switch {
		case !ok && !r.filled:
			return r.name, true
		case ok && v.Kind() == String && v.Raw() == `""`:
			return r.name, true
		case ok && r.locator && v.Kind() == Object:
			if x := v.Get("value"); !x.Exists() || x.Kind() == Null || x.Kind() == String && x.Raw() == `""` {
				return r.name, true
			}
		}
	}
	return "", false
}

// oldMissingRequired is missingRequired as it was before display read
// the resource and operation once a node.
func oldMissingRequired(n *Node, gates bool) (string, bool) {
	if n.Disabled {
		return "", false
	}
	es, ok := nodeTable()[n.Type]
	if !ok {
		return "", false
	}
	var e *nodeEntry
	for i := range es {
		for _, v := range es[i].v {
			if v == n.TypeVersion {
				e = &es[i]
			}
		}
	}
	if e == nil || e.required == "" {
		return "", false
	}
	for name := range strings.FieldsSeq(e.required) {
		name, filled := strings.CutPrefix(name, "+")
		name, locator := strings.CutPrefix(name, "~")
		name, list := strings.CutPrefix(name, "*")
		name, conds, gated := strings.Cut(name, ":")
		if name == "path" && webhookPaths[n.Type] {
			continue
		}
		if gated && (!gates || !oldShown(n, e, conds)) {
			continue
		}
		v, ok := n.Param(name)
		switch {
		case list:
			if !ok && !filled || ok && v.Kind() == Array && len(v.Elems()) == 0 {
				return name, true
			}
		case !ok && !filled:
			return name, true
		case ok && v.Kind() == String && v.Raw() == `""`:
			return name, true
		case ok && locator && v.Kind() == Object:
			if x := v.Get("value"); !x.Exists() || x.Kind() == Null || x.Kind() == String && x.Raw() == `""` {
				return name, true
			}
		}
	}
	return "", false
}

func oldShown(n *Node, e *nodeEntry, conds string) bool {
	for cond := range strings.SplitSeq(conds, ";") {
		i := strings.IndexAny(cond, "=!")
		if i < 0 {
			return false
		}
		key, hide, vals := cond[:i], cond[i] == '!', cond[i+1:]
		x, ok := "", false
		switch {
		case key == "resource":
			x, ok = resourceOf(n, e)
		case key == "operation":
			if r, rok := resourceOf(n, e); rok {
				x, ok = operationAt(n, e, r)
			}
		default:
			k, def, _ := strings.Cut(key, "(")
			x, ok = storedOr(n, k, strings.TrimSuffix(def, ")"))
		}
		if !ok || x == "" {
			return false
		}
		if slices.Contains(strings.Split(vals, ","), x) == hide {
			return false
		}
	}
	return true
}
