package n8nschema

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const valueSrc = `{
  "name": "Values",
  "nodes": [
    {
      "parameters": {
        "workflowId": {"__rl": true, "value": "0FLfGN4Nuc0XHrTh", "mode": "list", "cachedResultName": "Child"},
        "source": {"value": "=1.2", "mode": "id"},
        "options": {"maxRetries": "4", "timeout": 30000, "batching": {"batchSize": null}},
        "list": ["a", 2, true],
        "a.b": "dotted"
      },
      "name": "Call child",
      "type": "n8n-nodes-base.executeWorkflow",
      "typeVersion": 1.2,
      "retryOnFail": true,
      "maxTries": 5
    }
  ],
  "connections": {}
}`

func TestValues(t *testing.T) {
	f := parseString(t, valueSrc)
	n := f.Workflows[0].Node("Call child")
	if n == nil {
		t.Fatal("node not found")
	}

	type row struct {
		Kind   Kind
		Str    string
		Expr   bool
		Num    float64
		NumOK  bool
		Pos    string
		ValPos string
		Path   string
	}
	get := func(path string) row {
		v, _ := n.Param(path)
		num, ok := v.Num()
		return row{v.Kind(), v.Str(), v.IsExpr(), num, ok, v.Pos().String(), v.ValuePos().String(), v.Path()}
	}
	got := map[string]row{}
	for _, p := range []string{
		"workflowId", "workflowId.value", "workflowId.__rl", "workflowId.mode", "workflowId.cachedResultName",
		"source.value", "source.__rl", "options.maxRetries", "options.timeout", "options.batching.batchSize",
		"list.1", `a\.b`, "missing.deeper",
	} {
		got[p] = get(p)
	}
	base := "nodes.0.parameters."
	want := map[string]row{
		"workflowId":                  {Kind: Object, Pos: "6:9", ValPos: "6:23", Path: base + "workflowId"},
		"workflowId.value":            {Kind: String, Str: "0FLfGN4Nuc0XHrTh", Pos: "6:38", ValPos: "6:47", Path: base + "workflowId.value"},
		"workflowId.__rl":             {Kind: Bool, Str: "true", Pos: "6:24", ValPos: "6:32", Path: base + "workflowId.__rl"},
		"workflowId.mode":             {Kind: String, Str: "list", Pos: "6:67", ValPos: "6:75", Path: base + "workflowId.mode"},
		"workflowId.cachedResultName": {Kind: String, Str: "Child", Pos: "6:83", ValPos: "6:103", Path: base + "workflowId.cachedResultName"},
		"source.value":                {Kind: String, Str: "1.2", Num: 1.2, NumOK: true, Pos: "7:20", ValPos: "7:29", Path: base + "source.value"},
		"source.__rl":                 {Kind: Missing, Pos: "-", ValPos: "-", Path: base + "source.__rl"},
		"options.maxRetries":          {Kind: String, Str: "4", Num: 4, NumOK: true, Pos: "8:21", ValPos: "8:35", Path: base + "options.maxRetries"},
		"options.timeout":             {Kind: Number, Str: "30000", Num: 30000, NumOK: true, Pos: "8:40", ValPos: "8:51", Path: base + "options.timeout"},
		"options.batching.batchSize":  {Kind: Null, Pos: "8:71", ValPos: "8:84", Path: base + "options.batching.batchSize"},
		"list.1":                      {Kind: Number, Str: "2", Num: 2, NumOK: true, Pos: "9:23", ValPos: "9:23", Path: base + "list.1"},
		`a\.b`:                        {Kind: String, Str: "dotted", Pos: "10:9", ValPos: "10:16", Path: base + `a\.b`},
		"missing.deeper":              {Kind: Missing, Pos: "-", ValPos: "-", Path: base + "missing.deeper"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parameter values (-want +got):\n%s", diff)
	}

	// Walking the parameters yields every scalar with an escaped path.
	var walked []string
	n.Params().Walk(func(rel string, v Value) { walked = append(walked, rel+"="+v.Raw()) })
	wantWalk := []string{
		"workflowId.__rl=true", `workflowId.value="0FLfGN4Nuc0XHrTh"`, `workflowId.mode="list"`, `workflowId.cachedResultName="Child"`,
		`source.value="=1.2"`, `source.mode="id"`,
		`options.maxRetries="4"`, "options.timeout=30000", "options.batching.batchSize=null",
		`list.0="a"`, "list.1=2", "list.2=true", `a\.b="dotted"`,
	}
	if diff := cmp.Diff(wantWalk, walked); diff != "" {
		t.Errorf("Walk (-want +got):\n%s", diff)
	}

	// Node-level settings.
	if !n.RetryOnFail || n.MaxTries().Raw() != "5" || n.MaxTries().Pos().String() != "16:7" || n.TypeVersion != 1.2 {
		t.Errorf("node settings: retryOnFail=%v maxTries=%s at %s typeVersion=%g; want true, 5 at 16:7, 1.2",
			n.RetryOnFail, n.MaxTries().Raw(), n.MaxTries().Pos(), n.TypeVersion)
	}
	if got := n.Field("retryOnFail").Pos().String(); got != "15:7" {
		t.Errorf("retryOnFail key at %s, want 15:7", got)
	}
	// Get on a scalar is missing, not a panic.
	if v := n.Field("maxTries").Get("x"); v.Exists() || v.Kind() != Missing {
		t.Errorf("Get below a scalar = %v, want missing", v.Kind())
	}
}

// TestLiteralExpressions pins how parameters read that are expressions
// with no {{ }}: n8n strips the "=" and renders the rest, which holds no
// code, as text (n8n-workflow expression.js resolveSimpleParameterValue;
// @n8n/tournament ExpressionSplitter.js splitExpression gives one text
// chunk), so Str is the literal and IsExpr is false, at any depth of the
// parameters. Strings outside the parameters (names, notes) are not
// evaluated and keep their "=".
func TestLiteralExpressions(t *testing.T) {
	src := `{"name": "=Lit", "nodes": [{"name": "=Hook", "notes": "=note", "type": "n8n-nodes-base.webhook", "typeVersion": 2,
	  "parameters": {"responseMode": "=responseNode", "path": "=orders", "empty": "=", "text": "=Hi {{ $json.name }}",
	    "esc": "=caf\u00e9", "escExpr": "=\u007b{ $json.x }}", "plain": "responseNode", "half": "=a { b } c",
	    "assignments": {"assignments": [{"name": "=status", "value": "=pending", "type": "string"}, {"name": "n", "value": "={{ 1 }}"}]},
	    "deep": [[{"x": ["=leaf"]}], {}, []]}}],
	  "connections": {}}`
	f := parseString(t, src)
	w := f.Workflows[0]
	n := w.Nodes[0]
	type row struct {
		Str  string
		Expr bool
		Raw  string
	}
	got := map[string]row{}
	for _, p := range []string{"responseMode", "path", "empty", "text", "esc", "escExpr", "plain", "half",
		"assignments.assignments.0.name", "assignments.assignments.0.value", "assignments.assignments.1.value", "deep.0.0.x.0"} {
		v, _ := n.Param(p)
		got[p] = row{v.Str(), v.IsExpr(), v.Raw()}
	}
	want := map[string]row{
		"responseMode":                    {"responseNode", false, `"=responseNode"`},
		"path":                            {"orders", false, `"=orders"`},
		"empty":                           {"", false, `"="`},
		"text":                            {"=Hi {{ $json.name }}", true, `"=Hi {{ $json.name }}"`},
		"esc":                             {"café", false, `"=caf\u00e9"`},
		"escExpr":                         {"={{ $json.x }}", true, `"=\u007b{ $json.x }}"`},
		"plain":                           {"responseNode", false, `"responseNode"`},
		"half":                            {"a { b } c", false, `"=a { b } c"`},
		"assignments.assignments.0.name":  {"status", false, `"=status"`},
		"assignments.assignments.0.value": {"pending", false, `"=pending"`},
		"assignments.assignments.1.value": {"={{ 1 }}", true, `"={{ 1 }}"`},
		"deep.0.0.x.0":                    {"leaf", false, `"=leaf"`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
	if w.Name != "=Lit" || n.Name != "=Hook" || n.Notes != "=note" || !n.Field("name").IsExpr() {
		t.Errorf("outside the parameters: workflow %q, node %q, notes %q, name IsExpr %v; want the text as written",
			w.Name, n.Name, n.Notes, n.Field("name").IsExpr())
	}
}

// TestGetPaths pins the dotted path syntax Get reads on the tree: dotted
// keys with backslash escapes, digits as array indexes (and as keys of
// objects), keys compared unescaped; and the scalar texts Str gives.
func TestGetPaths(t *testing.T) {
	src := "{\"o\": {\"0\": \"zero\", \"\": \"empty\", \"\\u0061\": \"a\", \"a.b\": {\"c\": 1.50}, \"e\": \"\\u003d1\"},\n" +
		" \"l\": [10, 1e3, -0.5, true, null, [\"x\"]]}\n\n"
	f := Parse(NewSource("p.json", []byte(src)))
	if len(f.Problems) != 1 || f.Problems[0].Kind != NotWorkflow {
		t.Fatalf("problems %v", f.Problems)
	}
	root := Value{t: buildTree(f.Source, src, 0).t}
	for path, want := range map[string]string{
		"o.0": "zero", "o.": "empty", "o.a": "a", `o.a\.b.c`: "1.5", "o.e": "=1",
		"l.0": "10", "l.01": "1e3", "l.1": "1e3", "l.2": "-0.5", "l.3": "true", "l.4": "null", "l.5.0": "x",
		"l.6": "", "l.x": "", "o.a.b": "", "l.0.x": "", "o.0.x": "", `o.a\.b.c.d`: "",
	} {
		v := root.Get(path)
		got := v.Raw()
		if v.Kind() == String {
			got = v.Str()
		} else if v.Kind() == Number && path == `o.a\.b.c` {
			got = v.Str()
		}
		if got != want || v.Path() != path {
			t.Errorf("Get(%q) = %q at %q, want %q", path, got, v.Path(), want)
		}
	}
	if n, ok := root.Get("l.1").Num(); !ok || n != 1000 || root.Get("l.1").Str() != "1000" {
		t.Errorf("1e3: Num %v %v, Str %q; want 1000 and \"1000\" (the text of a non-integer)", n, ok, root.Get("l.1").Str())
	}
	if !root.Get("o.e").IsExpr() || root.Get("o.0").IsExpr() {
		t.Error(`"\u003d1" is an expression (it is "=1"); "zero" is not`)
	}
	if got := root.Raw(); got != src {
		t.Errorf("root Raw %q, want the text to its end, white space included", got)
	}
}

// TestFarKeys: a node keeps its key's distance in 16 bits; a key further
// from its value than that is found by scanning back, escaped or not,
// repeated or not.
func TestFarKeys(t *testing.T) {
	pad := strings.Repeat(" ", 70000)
	src := `{"a\"b"` + pad + `: 1, "e\u0078"` + pad + `: [2], "x": 0, "x"` + pad + `: {"y": 3}}`
	f := Parse(NewSource("far.json", []byte(src)))
	root := Value{t: buildTree(f.Source, src, 0).t}
	// The tree Parse read has the earlier "x" blanked; this one is the
	// unblanked text, where the last "x" also wins.
	for path, want := range map[string]int{`a"b`: 1, "ex": len(`{"a\"b"` + pad + `: 1, `), "x.y": 0} {
		v := root.Get(path)
		if !v.Exists() {
			t.Errorf("Get(%q) missing", path)
			continue
		}
		if path == "x.y" {
			if v.Raw() != "3" {
				t.Errorf("x.y = %s, want the last x's 3", v.Raw())
			}
			continue
		}
		if got := v.Pos().Offset; got != want {
			t.Errorf("Get(%q).Pos at %d, want the key's quote at %d", path, got, want)
		}
	}
	var keys []string
	root.Each(func(k string, _ Value) bool { keys = append(keys, k); return true })
	if strings.Join(keys, ",") != `a"b,ex,x` {
		t.Errorf("keys %q", keys)
	}
	if len(f.Problems) != 2 || f.Problems[0].Kind != DuplicateKey || f.Problems[0].Pos.Offset != strings.LastIndex(src, `"x"`) ||
		!strings.Contains(f.Problems[0].Message, fmt.Sprintf("first at 1:%d", strings.Index(src, `"x"`)+1)) {
		t.Errorf("problems %v", f.Problems)
	}
}

// TestEscapeKey pins the escaping of a key as a dotted path component:
// a backslash before each special byte, other bytes (UTF-8 or not) as is.
func TestEscapeKey(t *testing.T) {
	for k, want := range map[string]string{
		"":                   "",
		"plain key-1":        "plain key-1",
		"a.b":                `a\.b`,
		`.*?|#@\!=<>%"`:      `\.\*\?\|\#\@\\\!\=\<\>\%\"`,
		"héllo.wörld":        `héllo\.wörld`,
		"\xff*\xfe":          "\xff\\*\xfe",
		"={{ $json.a }}":     `\={{ $json\.a }}`,
		"X-Api-Key":          "X-Api-Key",
		"name.with.many.dot": `name\.with\.many\.dot`,
	} {
		if got := escapeKey(k); got != want {
			t.Errorf("escapeKey(%q) = %q, want %q", k, got, want)
		}
	}
}

// TestChainedPaths: a value reached through Get, Each, Elems, getMany and
// Walk prints the path each step joined before paths were made lazily: a
// Get path as written (an escape, a special byte, a leading zero kept)
// and the tree's spelling below it; missing values below all of them.
func TestChainedPaths(t *testing.T) {
	src := `{"a": {"b": [{"c": 1, "a*b": {"d": 2}}, [3, {"": {"e": 4}}]]}, "we.ird": {"z": [5]}, "k\u0078": {"y": 6}}`
	root := Value{t: buildTree(NewSource("c.json", []byte(src)), src, 0).t}
	each := func(v Value) (paths []string) {
		v.Each(func(_ string, c Value) bool { paths = append(paths, c.Path()); return true })
		for _, e := range v.Elems() {
			paths = append(paths, e.Path())
		}
		return paths
	}
	var many [2]Value
	root.Get("a.b.0").getMany([]string{"a*b", "nope"}, many[:])
	for _, c := range []struct {
		v    Value
		want string
	}{
		{root.Get("a").Get("b").Get("0").Get("c"), "a.b.0.c"},
		{root.Get("a.b.0").Get(`a\*b`).Get("d"), `a.b.0.a\*b.d`},
		{root.Get("a.b.0").Get("a*b").Get("d"), "a.b.0.a*b.d"},
		{root.Get("a.b.0").Get("a*b").Get("x"), "a.b.0.a*b.x"},
		{root.Get("a.b.00").Get("c"), "a.b.00.c"},
		{root.Get("a.b.1.01").Get("e"), "a.b.1.01.e"},
		{root.Get("a.b.1.1.").Get("e"), "a.b.1.1..e"},
		{root.Get("a.b.1.1").Get("").Get("e"), "a.b.1.1..e"},
		{root.Get(`we\.ird`).Get("z.0"), `we\.ird.z.0`},
		{root.Get(`k\x`).Get("y"), `k\x.y`},
		{root.Get("kx").Get("y"), "kx.y"},
		{root.Get("a.b").Get("7"), "a.b.7"},
		{root.Get("a").Get("b").Get("1").Get("1").Get("nope"), "a.b.1.1.nope"},
		{many[0], "a.b.0.a*b"},
		{many[0].Get("d"), "a.b.0.a*b.d"},
		{many[1], "a.b.0.nope"},
		{root.Get("a").Get("b").Elems()[1].Elems()[1], "a.b.1.1"},
	} {
		if got := c.v.Path(); got != c.want {
			t.Errorf("path %q, want %q", got, c.want)
		}
		if c.v.Exists() && c.v.Pos().Path != c.want {
			t.Errorf("Pos().Path %q, want %q", c.v.Pos().Path, c.want)
		}
	}
	for _, c := range []struct {
		v    Value
		want []string
	}{
		{root, []string{"a", `we\.ird`, "kx"}},
		{root.Get("a.b.0"), []string{"a.b.0.c", `a.b.0.a\*b`}},
		{root.Get("a.b.0").Get("a*b"), []string{"a.b.0.a*b.d"}},
		{root.Get(`k\x`), []string{`k\x.y`}},
		{root.Get("a.b.01"), []string{"a.b.01.0", "a.b.01.1"}},
		{root.Get("a").Get("b"), []string{"a.b.0", "a.b.1"}},
	} {
		if got := each(c.v); !slices.Equal(got, c.want) {
			t.Errorf("children %q, want %q", got, c.want)
		}
	}
	var walked []string
	root.Get("a.b.01").Walk(func(rel string, v Value) { walked = append(walked, rel+"="+v.Path()) })
	if want := []string{"0=a.b.01.0", "1..e=a.b.01.1..e"}; !slices.Equal(walked, want) {
		t.Errorf("Walk %q, want %q", walked, want)
	}
	walked = walked[:0]
	root.Get("a").Walk(func(rel string, v Value) { walked = append(walked, rel+"="+v.Path()) })
	if want := []string{"b.0.c=a.b.0.c", `b.0.a\*b.d=a.b.0.a\*b.d`, "b.1.0=a.b.1.0", "b.1.1..e=a.b.1.1..e"}; !slices.Equal(walked, want) {
		t.Errorf("Walk %q, want %q", walked, want)
	}
	var scalars []string
	root.Get("a.b.01").Scalars(func(v Value) bool { scalars = append(scalars, v.Path()); return true })
	if want := []string{"a.b.01.0", "a.b.01.1..e"}; !slices.Equal(scalars, want) {
		t.Errorf("Scalars %q, want %q", scalars, want)
	}
}

// TestExactFloat: the fast path reads what ParseFloat reads, to the bit,
// and declines what it cannot.
func TestExactFloat(t *testing.T) {
	for _, raw := range []string{"0", "-0", "1", "4.2", "-4.2", "0.1", "0.3", "2.675", "1.005", "123456789012345",
		"12345678901234.5", "0.00000000000001", "999999999999999", "-0.0", "3.14159", "1.10"} {
		got, ok := exactFloat(raw)
		want, _ := strconv.ParseFloat(raw, 64)
		if !ok || math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("exactFloat(%q) = %v, %v; want %v", raw, got, ok, want)
		}
	}
	for _, raw := range []string{"1e3", "1E3", "1234567890123456", "0.0000000000000001", "-", "", "1.2.3"} {
		if _, ok := exactFloat(raw); ok {
			t.Errorf("exactFloat(%q) ok, want declined", raw)
		}
	}
}
