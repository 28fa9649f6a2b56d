package n8nschema

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestGateThrows: under strict type validation n8n-workflow's filter
// refuses a right value of the wrong type for the operator (a string for
// a boolean or a number, anything but a string for a string), and the If
// and Filter nodes v2 throw on every item; a one-value operator, a value
// of the right type, an expression, loose validation, a later condition
// and If v1 are not judged.
func TestGateThrows(t *testing.T) {
	cond := func(opts, op, right string) string {
		return `{"conditions":{` + opts + `"conditions":[{"leftValue":"={{ $json.a }}","rightValue":` + right + `,"operator":` + op + `}],"combinator":"and"}}`
	}
	leftIs := func(opts, op, left string) string {
		l, _ := json.Marshal(left)
		return `{"conditions":{` + opts + `"conditions":[{"leftValue":` + string(l) + `,"rightValue":"x","operator":` + op + `}],"combinator":"and"}}`
	}
	const (
		strict = `"options":{"typeValidation":"strict","version":2},`
		boolEq = `{"type":"boolean","operation":"equals"}`
		numGt  = `{"type":"number","operation":"gt"}`
		strEq  = `{"type":"string","operation":"equals"}`
	)
	for _, c := range []struct {
		typ     string
		version float64
		params  string
		why     string // "" when the test may pass
	}{
		{TypeIf, 2.2, cond(strict, boolEq, `"=true"`), `compares a boolean with "true", a string`},
		{TypeIf, 2, cond("", boolEq, `"false"`), `compares a boolean with "false", a string`},
		{TypeFilter, 2.2, cond(strict, numGt, `"95"`), `compares a number with "95", a string`},
		{TypeIf, 2.1, cond(strict, numGt, `true`), `compares a number with "true", a boolean`},
		{TypeIf, 2.2, cond(strict, strEq, `5`), `compares a string with "5", a number`},
		{TypeIf, 2.2, cond(strict, `{"type":"array","operation":"lengthGt","rightType":"number"}`, `"3"`), `compares a number with "3", a string`},
		{TypeIf, 2.2, cond(strict, boolEq, `true`), ""},
		{TypeIf, 2.2, cond(strict, boolEq, `null`), ""},
		{TypeIf, 2.2, cond(strict, boolEq, `"={{ true }}"`), ""},
		{TypeIf, 2.2, cond(strict, `{"type":"boolean","operation":"true","singleValue":true}`, `""`), ""},
		{TypeIf, 2.2, cond(strict, `{"type":"boolean","operation":"notEmpty"}`, `""`), ""},
		{TypeIf, 2.3, cond(`"options":{"typeValidation":"strict","version":3},`, numGt, `""`), ""},
		{TypeIf, 2.2, cond(`"options":{"typeValidation":"loose"},`, boolEq, `"true"`), ""},
		{TypeIf, 2.2, `"looseTypeValidation":true,` + cond(strict, boolEq, `"true"`)[1:], ""},
		{TypeIf, 2, `"options":{"looseTypeValidation":true},` + cond(strict, boolEq, `"true"`)[1:], ""},
		{TypeIf, 2.2, cond(strict, `{"type":"dateTime","operation":"after"}`, `5`), ""},
		{TypeIf, 1, cond(strict, boolEq, `"true"`), ""},
		{TypeIf, 2.2, `{"conditions":{` + strict + `"conditions":[{"leftValue":"={{ $json.a }}","rightValue":true,"operator":` + boolEq + `},{"leftValue":"={{ $json.b }}","rightValue":"true","operator":` + boolEq + `}]}}`, ""},
		{TypeIf, 2.2, leftIs(strict, strEq, `={{ $json.attachments ? true : false }}`), `is always a boolean, compared as a string`},
		{TypeIf, 2, leftIs("", strEq, `={{ !!$json.file }}`), `is always a boolean, compared as a string`},
		{TypeFilter, 2.2, leftIs(strict, `{"type":"string","operation":"exists","singleValue":true}`, `={{ !$('Read mail').item.json.attachments?.length }}`), `compared as a string`},
		{TypeIf, 2.2, leftIs(strict, numGt, `={{ Boolean($json.count) }}`), `compared as a number`},
		{TypeIf, 2.2, leftIs(strict, `{"type":"boolean","operation":"true","singleValue":true}`, `={{ $json.a ? true : false }}`), ""},
		{TypeIf, 2.2, leftIs(strict, strEq, `={{ $json.a ? "yes" : false }}`), ""},
		{TypeIf, 2.2, leftIs(strict, strEq, `={{ $json.a ? b : c ? true : false }}`), ""},
		{TypeIf, 2.2, leftIs(strict, strEq, `={{ !$json.a || $json.b }}`), ""},
		{TypeIf, 2.2, leftIs(strict, strEq, `={{ $json.a ?? true }}`), ""},
		{TypeIf, 2.2, leftIs(strict, strEq, `={{ !!$json.a }} `), ""},
		{TypeIf, 2.2, leftIs(strict, strEq, `=x {{ !!$json.a }}`), ""},
		{TypeIf, 2.2, leftIs(strict, strEq, `={{ () => $json.a ? true : false }}`), ""},
		{TypeIf, 2.2, leftIs(`"options":{"typeValidation":"loose"},`, strEq, `={{ !!$json.a }}`), ""},
	} {
		params := c.params
		if !strings.HasPrefix(params, "{") {
			params = "{" + params
		}
		src := `{"nodes":[{"name":"n","type":"` + c.typ + `","typeVersion":` + strconv.FormatFloat(c.version, 'f', -1, 64) + `,"parameters":` + params + `}],"connections":{}}`
		f := Parse(NewSource("n.json", []byte(src)))
		if len(f.Workflows) != 1 {
			t.Fatalf("%s: does not parse: %v", src, f.Problems)
		}
		why, ok := GateThrows(f.Workflows[0].Nodes[0])
		if ok != (c.why != "") || !strings.Contains(why, c.why) {
			t.Errorf("%s:\n got %v %q, want %q", src, ok, why, c.why)
		}
	}
}

// TestGateThrowsOnePass: GateThrows, which reads each object's members in
// one pass, answers what the reading by Get did (gateThrowsByGet) on
// every If and Filter of the corpora and on hand-written ones: escaped
// keys, a conditions object with a member "0", an operator that is no
// object, singleValue and rightType present and absent.
func TestGateThrowsOnePass(t *testing.T) {
	check := func(where string, n *Node) {
		t.Helper()
		why, ok := GateThrows(n)
		wantWhy, wantOK := gateThrowsByGet(n)
		if why != wantWhy || ok != wantOK {
			t.Errorf("%s: node %q: %q %v, want %q %v", where, n.Name, why, ok, wantWhy, wantOK)
		}
	}
	judged, throws := 0, 0
	for _, set := range []string{"n8n-real", "n8n-more", "n8n-fresh"} {
		eachCorpusFile(t, set, func(path string, src []byte) {
			for _, w := range Parse(NewSource(path, src)).Workflows {
				for _, n := range w.Nodes {
					if n.Type == TypeIf || n.Type == TypeFilter {
						judged++
						if _, ok := GateThrows(n); ok {
							throws++
						}
						check(path, n)
					}
				}
			}
		})
	}
	if judged == 0 || throws == 0 {
		t.Errorf("%d gates judged, %d throw: the corpora should hold both", judged, throws)
	}
	for _, conds := range []string{
		`{"conditions":[{"leftValue":"={{ $json.a }}","rightValue":"5","operator":{"type":"number","operation":"equals"}}]}`,
		`{"conditions":[{"leftValue":"={{ $json.a }}","rightValue":"5","operator":{"type":"number","operation":"equals","singleValue":true}}]}`,
		`{"conditions":[{"leftValue":"={{ $json.a }}","rightValue":5,"operator":{"type":"string","operation":"equals","rightType":"number"}}]}`,
		`{"conditions":[{"leftValue":"={{ $json.a }}","rightValue":5,"operator":{"type":"string","operation":"equals","rightType":7}}]}`,
		`{"c\u006fnditions":[{"leftValue":"={{ $json.a }}","right\u0056alue":"5","operator":{"typ\u0065":"number","operation":"equals"}}]}`,
		`{"conditions":{"0":{"leftValue":"={{ $json.a }}","rightValue":"5","operator":{"type":"number","operation":"equals"}}}}`,
		`{"conditions":[{"leftValue":"={{ $json.a }}","rightValue":"5","operator":"number"}]}`,
		`{"conditions":[{"leftValue":"={{ $json.a ? true : false }}","rightValue":"x","operator":{"type":"string","operation":"equals"}}]}`,
		`{"options":{"typeValidation":"loose"},"conditions":[{"leftValue":"={{ $json.a }}","rightValue":"5","operator":{"type":"number","operation":"equals"}}]}`,
		`{"options":{"version":3},"combinator":"or","conditions":[{"leftValue":"={{ $json.a }}","rightValue":"","operator":{"type":"number","operation":"equals"}}]}`,
		`{"combinator":"xor","conditions":[{"leftValue":"={{ $json.a }}","rightValue":"5","operator":{"type":"number","operation":"equals"}}]}`,
		`{"options":"x","conditions":[{"leftValue":"={{ $json.a }}","rightValue":"5","operator":{"type":"number","operation":"equals"}}]}`,
	} {
		src := `{"nodes":[{"name":"If","type":"n8n-nodes-base.if","typeVersion":2.2,"parameters":{"conditions":` + conds + `}}],"connections":{}}`
		for _, w := range Parse(NewSource("x.json", []byte(src))).Workflows {
			check(conds, w.Nodes[0])
		}
	}
}

// gateThrowsByGet is GateThrows as it read its members, one Get each.
func gateThrowsByGet(n *Node) (string, bool) {
	if n.Type != TypeIf && n.Type != TypeFilter || n.TypeVersion < 2 {
		return "", false
	}
	cond, ok := n.Param("conditions")
	if !ok || cond.Kind() != Object {
		return "", false
	}
	loose := "looseTypeValidation"
	if n.TypeVersion < 2.1 {
		loose = "options.looseTypeValidation"
	}
	if v, ok := n.Param(loose); ok && (v.Kind() != Bool || v.True()) {
		return "", false
	}
	opts := cond.Get("options")
	if opts.Exists() && opts.Kind() != Object {
		return "", false
	}
	if tv := opts.Get("typeValidation"); tv.Exists() && (tv.Kind() != String || tv.IsExpr() || tv.Str() != "strict") {
		return "", false
	}
	if c := cond.Get("combinator"); c.Exists() && (c.Kind() != String || c.IsExpr() || c.Str() != "and" && c.Str() != "or") {
		return "", false
	}
	first := cond.Get("conditions.0")
	if first.Kind() != Object {
		return "", false
	}
	op := first.Get("operator")
	typ, operation := op.Get("type"), op.Get("operation")
	if why, ok := leftAlwaysBoolean(first.Get("leftValue"), typ.Str()); ok && typ.Kind() == String {
		return why, true
	}
	if typ.Kind() != String || operation.Kind() != String || op.Get("singleValue").True() || oneValueOperation[operation.Str()] {
		return "", false
	}
	want := typ.Str()
	if rt := op.Get("rightType"); rt.Exists() {
		if rt.Kind() != String {
			return "", false
		}
		want = rt.Str()
	}
	right := first.Get("rightValue")
	if right.IsExpr() {
		return "", false
	}
	got, wrong := wrongType(right, want, filterVersion(opts))
	if !wrong {
		return "", false
	}
	text := right.Raw()
	if right.Kind() == String {
		text = right.Str()
	}
	return "its first condition compares a " + want + " with " + strconv.Quote(text) + ", " + got +
		", and strict type validation throws \"Wrong type\" on every item", true
}
