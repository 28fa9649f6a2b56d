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
