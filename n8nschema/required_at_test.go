package n8nschema

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestRequiredAtLeavesOutOnlyHidden checks reqs.at, the index missingOf
// reads at a node's resource and operation: on every entry of the table,
// at every resource it lists operations for and every operation (listed,
// the default, none, an unknown one, an expression), each required
// parameter the index leaves out is one shown refuses there, by a
// condition on the resource or the operation, and the index leaves some
// out (else it would test nothing).
func TestRequiredAtLeavesOutOnlyHidden(t *testing.T) {
	left, kept := 0, 0
	for _, typ := range slices.Sorted(maps.Keys(nodeTable())) {
		es := nodeTable()[typ]
		for i := range es {
			e := &es[i]
			if e.required == "" || len(e.ops) == 0 {
				continue
			}
			rq := requiredOf(e)
			for _, r := range e.ops {
				ops := []string{"", r.def, "nothing", "={{ $json.o }}"}
				for op := range strings.FieldsSeq(r.ops) {
					op, _, _ = strings.Cut(op, ":")
					ops = append(ops, op)
				}
				for _, op := range ops {
					params := map[string]any{"resource": r.resource}
					if op != "" {
						params["operation"] = op
					}
					node, err := json.Marshal(map[string]any{"name": "A", "type": typ, "typeVersion": e.v[0], "parameters": params})
					if err != nil {
						t.Fatal(err)
					}
					n := Parse(NewSource("w.json", []byte(`{"nodes": [`+string(node)+`], "connections": {}}`))).Workflows[0].Nodes[0]
					d := display{n: n, e: e}
					at := rq.at(&display{n: n, e: e})
					for k, req := range rq.all {
						if slices.Contains(at, uint16(k)) {
							kept++
							continue
						}
						left++
						if !req.gated {
							t.Fatalf("%s: %s v%v at %s: %q is shown always, and left out", node, typ, e.v, r.resource, req.name)
						}
						shown, failed := d.shown(req.conds)
						if shown {
							t.Fatalf("%s: %s v%v: %q (%s) is shown, and left out", node, typ, e.v, req.name, req.conds)
						}
						// The index reads the resource and the operation
						// only: the condition that hides the parameter
						// must be one of theirs, not one a node that
						// stores more would pass.
						cond := req.conds[:failed]
						cond = cond[strings.LastIndex(cond, ";")+1:]
						if key := cond[:strings.IndexAny(cond+"=", "=!")]; key != "resource" && key != "operation" {
							t.Fatalf("%s: %s v%v: %q (%s) is left out, hidden by %q, which the index does not read", node, typ, e.v, req.name, req.conds, cond)
						}
					}
					if !slices.IsSorted(at) {
						t.Fatalf("%s: %s v%v: %v not in the table's order", node, typ, e.v, at)
					}
				}
			}
		}
	}
	if left == 0 || kept == 0 {
		t.Fatalf("%d parameters left out, %d kept: the index tested nothing", left, kept)
	}
	t.Logf("%d parameters left out, %d kept", left, kept)
}

// TestExactEntry: the entry (requiredEntry) MissingRequired judges a node by, read from
// what the parse found (Node.describe), is the one the table's search by
// type and exact version finds (exactSearch, the search it replaced), and
// so is whether the type is a <type>Tool variant: for every type of the
// table and its Tool variant, at every version listed, between, above,
// below, 0 and negative, described at parse and made by hand (not
// described); and a node's entry when its version changed after the parse.
func TestExactEntry(t *testing.T) {
	types := []string{"community.unknown", "", "n8n-nodes-base.stickyNote"}
	for typ := range nodeTable() {
		types = append(types, typ, typ+"Tool")
	}
	slices.Sort(types)
	judged, tools := 0, 0
	for _, typ := range types {
		vs := []float64{0, -1, 0.5, 99}
		for _, e := range nodeTable()[strings.TrimSuffix(typ, "Tool")] {
			for _, v := range e.v {
				vs = append(vs, v, v+0.05)
			}
		}
		for _, v := range vs {
			wantE, wantTool := exactSearch(typ, v)
			for _, described := range []bool{true, false} {
				n := &Node{Type: typ, TypeVersion: v}
				if described {
					n.describe()
				}
				e, tool := requiredEntry(n)
				if e != wantE || e != nil && tool != wantTool {
					t.Fatalf("%s v%v (described %v): entry %p tool %v, want %p %v", typ, v, described, e, tool, wantE, wantTool)
				}
				if e != nil {
					judged++
					if tool {
						tools++
					}
				}
			}
		}
	}
	if judged == 0 || tools == 0 {
		t.Fatalf("%d entries found, %d of tools: the test reads nothing", judged, tools)
	}
	n := &Node{Type: "n8n-nodes-base.httpRequest", TypeVersion: 4.2}
	n.describe()
	n.TypeVersion = 4.25
	if e, _ := requiredEntry(n); e != nil {
		t.Fatal("a version no entry lists, set after the parse, found an entry")
	}
}

// exactSearch is the search of the table MissingRequired made before it
// read the parse's entry: the last entry of typ (or of its base type, for
// a <type>Tool variant the table does not list) that lists version.
func exactSearch(typ string, version float64) (e *nodeEntry, tool bool) {
	es, ok := nodeTable()[typ]
	if !ok {
		if es, ok = entriesOf(typ); !ok {
			return nil, false
		}
		tool = true
	}
	for i := range es {
		for _, v := range es[i].v {
			if v == version {
				e = &es[i]
			}
		}
	}
	return e, tool
}
