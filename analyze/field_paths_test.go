package analyze

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestReadPaths: the ways JavaScript reads one field are written as one
// dotted path; a node named in $node["…"], a ternary before a decimal and
// a variable bound to something other than a request body are left alone.
func TestReadPaths(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{{ $json.body?.email || '' }}", "{{ $json.body.email || '' }}"},
		{`{{ $json?.["body"]?.['first_name'] }}`, "{{ $json.body.first_name }}"},
		{`{{ $json["body"][ "email" ] }}`, "{{ $json.body.email }}"},
		{`{{ $node["Webhook"].json["body"]["email"] }}`, `{{ $node["Webhook"].json.body.email }}`},
		{`{{ $json.body["first name"] }}`, `{{ $json.body["first name"] }}`},
		{`{{ $json.items[0].id }}`, `{{ $json.items[0].id }}`},
		{"{{ $json.ok ?.5 : 1 }}", "{{ $json.ok ?.5 : 1 }}"},
		{"const body = $json.body || {};\nreturn body.email;", "const body = $json.body || {};\nreturn $json.body.email;"},
		{"let b = $input.item.json.body\nx = b.name + a.b.name", "let b = $input.item.json.body\nx = $input.item.json.body.name + a.b.name"},
		{"const p = $('Hook').first().json.body ?? {}; p.phone", "const p = $('Hook').first().json.body ?? {}; $('Hook').first().json.body.phone"},
		{"const body = $json.body.data;\nbody.email", "const body = $json.body.data;\nbody.email"},
		{"const b = $json.body || {};\nconst { email, name } = b;\nconst c = b;", "const b = $json.body || {};\nconst { email, name } = $json.body;\nconst c = b;"},
		{"const d = $json;\nd.email", "const d = $json;\nd.email"},
		{"const lead = $json.body ?? $json;\nlead.email", "const lead = $json.body ?? $json;\n$json.body.email"},
		{"const lead = $json.body || $input.item.json; lead.phone", "const lead = $json.body || $input.item.json; $json.body.phone"},
		{"const lead = $json.body ?? $json.data;\nlead.email", "const lead = $json.body ?? $json.data;\nlead.email"},
		{"const b = ($input.first().json.body) || {};\nb.from", "const b = ($input.first().json.body) || {};\n$input.first().json.body.from"},
		{"const b = ($json.body || {});\nb.text", "const b = ($json.body || {});\n$json.body.text"},
		{"const m = $node[\"WhatsApp Webhook\"].json.body;\nm.from", "const m = $node[\"WhatsApp Webhook\"].json.body;\n$node[\"WhatsApp Webhook\"].json.body.from"},
		{"const r = parse($json.body);\nr.from", "const r = parse($json.body);\nr.from"},
	} {
		if got := readPaths(tc.in); got != tc.want {
			t.Errorf("readPaths(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

// TestBodyAliasesAsPattern checks bodyAliases against the pattern it runs
// faster, on declarations cut and joined at random.
func TestBodyAliasesAsPattern(t *testing.T) {
	parts := []string{"const ", "let ", "var ", "xconst ", "$let ", "b", "body", " = ", "=", "$json.body", "json .\n body",
		"$input.item.json.body", " || {}", "(", ")", " ?? { }", ";", "\n", " ", "{", "}", "|", "?", ".", "e", "_x", "\t", "const b = $json.body;"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(16) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		want := bodyAliasRE.FindAllStringSubmatch(s, maxAliases)
		if got := bodyAliases(s, maxAliases); !reflect.DeepEqual(got, want) {
			t.Fatalf("bodyAliases(%q) = %q; the pattern finds %q", s, got, want)
		}
	}
}
