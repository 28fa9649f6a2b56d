package n8nschema

import (
	"encoding/json"
	"testing"
)

// TestValidJSONAgreesWithEncodingJSON: --fix edits only files that are one
// valid JSON value and trusts Source.ValidJSON for it instead of running
// encoding/json.Valid again, so the two must agree on every file that has
// a workflow to edit: crafted edge cases, then both corpora (broken files
// of odd/ included). Nesting past MaxDepth is the one known difference;
// such a file has no workflow.
func TestValidJSONAgreesWithEncodingJSON(t *testing.T) {
	check := func(name string, src []byte) {
		t.Helper()
		s := NewSource(name, src)
		f := Parse(s)
		want := json.Valid(src)
		if hasBOM(src) {
			want = json.Valid(src[3:])
		}
		if len(f.Workflows) > 0 && s.ValidJSON() != want {
			t.Errorf("%s: ValidJSON() = %v, encoding/json.Valid says %v", name, s.ValidJSON(), want)
		}
	}
	wf := func(v string) string {
		return `{"nodes":[{"name":"A","type":"n8n-nodes-base.set","parameters":{"v":` + v + `}}],"connections":{}}`
	}
	for i, v := range []string{
		`1`, `01`, `-`, `-0`, `1.`, `1e`, `.5`, `0e+1`, `1E-2`, `"\x01"`, `"\q"`, `"\u12"`, `"\ud800"`, `"\/"`,
		`[1,]`, `NaN`, `tru`, `'a'`, "\"\xff\xfe\"", `{"a":1,}`, `{"a":1,"a":2}`, `1 `,
	} {
		check("crafted-value-"+string(rune('a'+i)), []byte(wf(v)))
	}
	for i, s := range []string{"\xef\xbb\xbf" + wf(`1`), wf(`1`) + " trailing", wf(`1`) + "{}", wf(`1`) + "\n\t ", wf(`1`) + "\x00"} {
		check("crafted-text-"+string(rune('a'+i)), []byte(s))
	}
	for _, corpus := range []string{"n8n-real", "n8n-more"} {
		eachCorpusFile(t, corpus, func(p string, src []byte) { check(p, src) })
	}
}
