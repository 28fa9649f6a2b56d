package analyze

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// ifChain is a workflow of a Limit, a Code node that counts its input
// into the field total, and a chain of k Ifs testing it, each If's true
// and false outputs both wired to the next.
func ifChain(t *testing.T, k int) *n8nschema.Workflow {
	t.Helper()
	nodes := []string{
		`{"name":"T","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}}`,
		`{"name":"L","type":"n8n-nodes-base.limit","typeVersion":1,"position":[0,0],"parameters":{"maxItems":3}}`,
		`{"name":"C","type":"n8n-nodes-base.code","typeVersion":2,"position":[0,0],"parameters":{"jsCode":"return $input.all().map(i => ({ json: { total: $input.all().length } }));"}}`,
	}
	conns := []string{`"T":{"main":[[{"node":"L","type":"main","index":0}]]}`, `"L":{"main":[[{"node":"C","type":"main","index":0}]]}`}
	prev := "C"
	for i := range k {
		name := fmt.Sprint("If", i)
		nodes = append(nodes, fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.if","typeVersion":2,"position":[0,0],"parameters":{"conditions":{"options":{"version":1,"caseSensitive":true,"typeValidation":"strict"},"conditions":[{"leftValue":"={{ $json.total }}","rightValue":10,"operator":{"type":"number","operation":"gt"}}],"combinator":"and"}}}`, name))
		to := fmt.Sprintf(`{"node":%q,"type":"main","index":0}`, name)
		if prev == "C" {
			conns = append(conns, fmt.Sprintf(`%q:{"main":[[%s]]}`, prev, to))
		} else {
			conns = append(conns, fmt.Sprintf(`%q:{"main":[[%s],[%s]]}`, prev, to, to))
		}
		prev = name
	}
	src := `{"nodes":[` + strings.Join(nodes, ",") + `],"connections":{` + strings.Join(conns, ",") + `}}`
	f := n8nschema.Parse(n8nschema.NewSource("chain.json", []byte(src)))
	if len(f.Workflows) != 1 {
		t.Fatalf("parse: %v", f.Problems)
	}
	return f.Workflows[0]
}

// TestCountBoundsLinearInIfChain: reading the count bounds of every If of
// a chain (each If's two outputs wired to the next, what buildGraph and
// DecidedGate ask) takes at most 6× the CPU time for 4× the Ifs.
// fieldBounds read each parent once per connection and kept no memo: the
// work doubled with each If (20 Ifs took 34 s).
func TestCountBoundsLinearInIfChain(t *testing.T) {
	const k = 10
	small, large := ifChain(t, k), ifChain(t, 4*k)
	read := func(w *n8nschema.Workflow) func() {
		return func() {
			for range 20 {
				cb := newCountBounds(w)
				for _, nd := range w.Nodes {
					if nd.Type == n8nschema.TypeIf {
						cb.countBoundDead(nd)
						cb.countGate(nd)
					}
				}
			}
		}
	}
	st, lt := cputime.Scales(3, 3, 6, read(small), read(large))
	t.Logf("%d Ifs: %v; %d Ifs: %v", k, st, 4*k, lt)
	if lt > 6*st {
		t.Errorf("%d Ifs take %v, %d Ifs %v: more than 6×", k, st, 4*k, lt)
	}
	// Every If is read: the test is always false, its true output dead.
	cb := newCountBounds(large)
	if d := cb.countBoundDead(large.Node(fmt.Sprint("If", 4*k-1))); len(d) < 1 || !d[0] {
		t.Errorf("the last If: dead outputs %v, want the true output dead", d)
	}
}

// TestCodeReadersLinear: the Code node readers take at most 6× the CPU
// time for 4× the code: a push of many values (topLevelComma asked the
// nesting from the code's start at every comma) and a map to many keys
// (a regexp built and run over the whole code for every key). Past
// maxReadCode or maxCountKeys the code is not judged.
func TestCodeReadersLinear(t *testing.T) {
	pushed := func(n int) string {
		return "let out = [];\n$input.all().forEach(e => {\n  out.push({" + strings.Repeat("a:1,", n) + "b:1});\n});\nreturn out;"
	}
	mapped := func(n int) *n8nschema.Node {
		var b strings.Builder
		b.WriteString("return $input.all().map(i => ({ json: { total: $input.all().length")
		for k := range n {
			fmt.Fprintf(&b, ", k%d: items.length", k)
		}
		b.WriteString(" } }));")
		return codeNode(t, b.String())
	}
	const n = 900 // 4n commas stay under maxReadCode
	ps, pl := pushed(n), pushed(4*n)
	if len(pl) > maxReadCode {
		t.Fatalf("the large code is %d bytes, past maxReadCode", len(pl))
	}
	st, lt := cputime.Scales(3, 3, 6, func() {
		for range 20 {
			pushedList(ps)
		}
	}, func() {
		for range 20 {
			pushedList(pl)
		}
	})
	t.Logf("pushedList, %d commas: %v; %d: %v", n, st, 4*n, lt)
	if lt > 6*st {
		t.Errorf("pushedList: %d commas take %v, %d take %v: more than 6×", n, st, 4*n, lt)
	}
	const keys = 40
	ms, ml := mapped(keys), mapped(4*keys)
	st, lt = cputime.Scales(3, 3, 6, func() {
		for range 20 {
			countFields(ms)
		}
	}, func() {
		for range 20 {
			countFields(ml)
		}
	})
	t.Logf("countFields, %d keys: %v; %d: %v", keys, st, 4*keys, lt)
	if lt > 6*st {
		t.Errorf("countFields: %d keys take %v, %d take %v: more than 6×", keys, st, 4*keys, lt)
	}
	if fs := countFields(ms); len(fs) != keys+1 {
		t.Errorf("countFields of %d keys: %d fields", keys+1, len(fs))
	}
	if fs := countFields(ml); fs != nil {
		t.Errorf("countFields of %d keys: %v, want none (past maxCountKeys)", 4*keys+1, fs)
	}
	if l, ok := pushedList(pushed(maxReadCode / 4)); ok {
		t.Errorf("pushedList past maxReadCode: %q", l)
	}
}
