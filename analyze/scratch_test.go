package analyze

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/stormcheck/stormcheck/internal/benchgen"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// fingerprint prints what a set keeps from its build: graphs (edges by
// node, flags, components, loops) and operations with their chains.
func fingerprint(s *Set) string {
	var b strings.Builder
	for _, w := range s.Workflows {
		g := s.Graph(w)
		fmt.Fprintf(&b, "W %s triggers %d loops %d\n", w.Label(), len(g.Triggers()), len(g.Loops))
		for _, n := range g.Nodes {
			fmt.Fprintf(&b, " %s r%v e%v t%v c%v s%v sub%v self%v nd%v", n.Name, g.Reachable(n), g.OnErrorPath(n), g.FromErrorTrigger(n),
				g.InCycle(n), len(g.Cycle(n)), g.IsSubNode(n), g.OnSelfTrigger(n), g.NeverDone(n))
			for _, e := range g.Out(n) {
				fmt.Fprintf(&b, " >%s/%s/%d/%v", e.To.Name, e.Type, e.Output, e.Error)
			}
			for _, e := range g.In(n) {
				fmt.Fprintf(&b, " <%s", e.From.Name)
			}
			if l := g.LoopOf(n); l != nil {
				fmt.Fprintf(&b, " loop %s %s %v %d", l.Head.Name, l.Back.Name, l.Unbounded, len(l.Nodes))
			}
			b.WriteByte('\n')
		}
	}
	for _, op := range s.Operations {
		fmt.Fprintf(&b, "O %s %s %d %v %d %v %v", op.Workflow.Label(), op.Node.Name, op.Attempts, op.Unbounded, op.CallsPerItem, op.CallsUnbounded, op.Live)
		for _, f := range op.Factors {
			fmt.Fprintf(&b, " [%s %d %s %s %s %v]", f.Kind, f.Value, f.Node, f.Workflow, f.Via, f.Unbounded)
		}
		b.WriteByte('\n')
	}
	for _, c := range s.Calls {
		fmt.Fprintf(&b, "C %v %s %v %v\n", c.Kind, c.From.Label(), c.Cycle, c.Branch != nil)
	}
	return b.String()
}

// TestScratchNotKept builds sets one after another, as an audit builds
// its groups, and checks that each set still reads as it did when built:
// nothing a set keeps may point into the scratch the next builds reuse.
func TestScratchNotKept(t *testing.T) {
	var srcs [][]byte
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, b)
	}
	srcs = append(srcs, benchgen.Workflow(300), benchgen.Chain(60))
	if len(srcs) < 5 {
		t.Fatalf("only %d inputs", len(srcs))
	}
	var sets []*Set
	var prints []string
	for round := range 2 {
		for i, src := range srcs {
			f := n8nschema.Parse(n8nschema.NewSource(fmt.Sprint(round, i, ".json"), src))
			s := Build([]*n8nschema.File{f}, DefaultOptions())
			sets, prints = append(sets, s), append(prints, fingerprint(s))
		}
	}
	for i, s := range sets {
		if got := fingerprint(s); got != prints[i] {
			t.Errorf("set %d changed after later builds:\n%s\nwas\n%s", i, got, prints[i])
		}
	}
	// The same input gives the same set whatever scratch it had.
	for i := range srcs {
		if prints[i] != prints[len(srcs)+i] {
			t.Errorf("input %d: the second build differs from the first", i)
		}
	}
}

// TestPutScratchDropsPointers: putScratch clears every arena whose
// elements hold pointers (the scratch's doc: a pooled scratch keeps no
// workflow alive), each filled here to its end with values that point
// somewhere; an arena added without its clear fails.
func TestPutScratchDropsPointers(t *testing.T) {
	s := new(scratch)
	sv := reflect.ValueOf(s).Elem()
	var held []string
	for i := range sv.NumField() {
		buf := sv.Field(i).FieldByName("buf")
		if !holdsPointers(buf.Type().Elem()) {
			continue
		}
		held = append(held, sv.Type().Field(i).Name)
		b := reflect.MakeSlice(buf.Type(), 3, 3)
		for k := range b.Len() {
			pointSomewhere(b.Index(k))
		}
		settable(buf).Set(b)
		settable(sv.Field(i).FieldByName("n")).SetInt(int64(b.Len()))
	}
	if len(held) < 8 {
		t.Fatalf("%d arenas hold pointers (%v): the reading of scratch's fields is off", len(held), held)
	}
	putScratch(s)
	for i := range sv.NumField() {
		buf := sv.Field(i).FieldByName("buf")
		if !holdsPointers(buf.Type().Elem()) {
			continue
		}
		for k := range buf.Len() {
			if !buf.Index(k).IsZero() {
				t.Errorf("scratch.%s[%d] still holds what it was given after putScratch", sv.Type().Field(i).Name, k)
			}
		}
	}
}

// holdsPointers reports whether a value of type ty holds a pointer.
func holdsPointers(ty reflect.Type) bool {
	switch ty.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func, reflect.Interface, reflect.String, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return ty.Len() > 0 && holdsPointers(ty.Elem())
	case reflect.Struct:
		for i := range ty.NumField() {
			if holdsPointers(ty.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// pointSomewhere sets every pointer in v (addressable) to a new value.
func pointSomewhere(v reflect.Value) {
	v = settable(v)
	switch ty := v.Type(); ty.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(ty.Elem()))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(ty, 1, 1))
	case reflect.Map:
		v.Set(reflect.MakeMap(ty))
	case reflect.Chan:
		v.Set(reflect.MakeChan(ty, 0))
	case reflect.Func:
		v.Set(reflect.MakeFunc(ty, func([]reflect.Value) []reflect.Value { return nil }))
	case reflect.String:
		v.SetString("x")
	case reflect.Interface:
		if ty.NumMethod() == 0 {
			v.Set(reflect.ValueOf(new(int)))
		}
	case reflect.Array:
		for i := range v.Len() {
			pointSomewhere(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if holdsPointers(ty.Field(i).Type) {
				pointSomewhere(v.Field(i))
			}
		}
	}
}

// settable is v, addressable, with its unexported fields writable.
func settable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}
