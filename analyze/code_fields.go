package analyze

import (
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/internal/lazyregexp"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// What a Code node hands on of its input. A JavaScript Code node returns
// the objects it builds as the items after it (nodes-base/dist/nodes/Code/
// result-validation.js validateRunCodeEachItem, validateRunCodeAllItems:
// normalizeItems wraps a plain object as { json: … }), so a field
// it copies from what it read is the same field one node later: the
// request's body spread into the returned object ({ ...data, password })
// with data = $input.item.json.body, a key set from a read
// (email: $json.body.email), or the input item returned as it came
// (return $input.item, return items). codeReads turns such a field of its
// output back into the reads of the node's input it comes from, each as
// an expression a relay's walk (fromRequest) follows on. Python code is
// not read.

// codeRefRE matches a read of an item in code: the input's ($json,
// $input.item.json, $input.first().json, items[0].json) or a named node's
// ($('Name').item.json, $node["Name"].json), with the field path after,
// at the start of a value: codeReads wants only a read its value starts
// with, and a search for one further on would scan the whole value (again
// for each spread of a long bound value).
var codeRefRE = lazyregexp.New(`^(?:(?:\$json|\$input\s*\.\s*(?:item|first\(\s*\)|last\(\s*\)|all\(\s*\)\s*\[\s*\d+\s*\])\s*\.\s*json|items\s*\[\s*\d+\s*\]\s*\.\s*json|\$\(\s*['"][^'"]+['"]\s*\)\s*\.\s*(?:item|first\(\s*\)|last\(\s*\)|all\(\s*\)\s*\[\s*\d+\s*\])\s*\.\s*json|\$node\s*\[\s*['"][^'"]+['"]\s*\]\s*\.\s*json)(?:\s*\??\.\s*[A-Za-z_$][\w$]*|\s*\[\s*['"][^'"]+['"]\s*\])*)`)

// codeDeclRE matches a variable bound to a read or another variable's
// field: const data = $input.item.json.body, let b = data.customer.
var codeDeclRE = lazyregexp.New(`\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*([^;\n]+)`)

// codeLoopRE matches a variable that stands for each input item: for
// (const item of $input.all()), items.map(item => …), .map((i) => …).
var codeLoopRE = lazyregexp.New(`(?:for\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+of\s+(?:\$input\s*\.\s*all\(\s*\)|items)\b|(?:\$input\s*\.\s*all\(\s*\)|\bitems)\s*\.\s*(?:map|forEach|filter)\(\s*\(?\s*([A-Za-z_$][\w$]*))`)

// codeSpreadRE matches a spread in an object literal: ...data,
// ...$json.body.
var codeSpreadRE = lazyregexp.New(`\.\.\.\s*([^,}\n)]+)`)

// codePassRE matches a Code node that returns its input items as they
// came (after changing some fields in place).
var codePassRE = lazyregexp.New(`\breturn\s+(?:\$input\s*\.\s*(?:item|all\(\s*\))|items|\[\s*\$input\s*\.\s*item\s*\])\s*;?\s*(?:\}|$)`)

// codeReads returns what field path of Code node n's output is read
// from: expressions (each in {{ }}) over n's input or a named node's
// items; keeps is true when n returns its input items as they came.
func codeReads(n *n8nschema.Node, path []string) (exprs []string, keeps bool) {
	if !n8nschema.IsCode(n.Type) || len(path) == 0 {
		return nil, false
	}
	if l := n.Params().Get("language").Str(); l != "" && l != "javaScript" {
		return nil, false
	}
	code := n.Params().Get("jsCode").Str() + n.Params().Get("functionCode").Str()
	if code == "" {
		return nil, false
	}
	keeps = codePassRE.MatchString(code)
	binds := map[string]string{}
	for _, m := range codeDeclRE.FindAllStringSubmatch(code, -1) {
		if _, ok := binds[m[1]]; !ok {
			binds[m[1]] = strings.TrimSpace(m[2])
		}
	}
	for _, m := range codeLoopRE.FindAllStringSubmatch(code, -1) {
		v := m[1] + m[2]
		if _, ok := binds[v]; !ok {
			binds[v] = "$input.item" // v.json is the input item's json
		}
	}
	// bound holds ref's answer for a variable's bound value, by name and
	// depth: a value spread many times is read once.
	type boundRef struct {
		name  string
		depth int
	}
	bound := map[boundRef]string{}
	// ref resolves a value to a read of an item (codeRefRE), through the
	// variables it names, a few deep; "" when it is no such read.
	var ref func(v string, depth int) string
	ref = func(v string, depth int) string {
		v = strings.TrimSpace(v)
		if m := codeRefRE.FindStringIndex(v); m != nil {
			r := v[:m[1]]
			if strings.HasPrefix(r, "items") { // items[0].json: the input's
				_, after, _ := strings.Cut(r, "json")
				r = "$input.first().json" + after
			}
			return r
		}
		if depth > 3 {
			return ""
		}
		i := 0
		for i < len(v) && (v[i] == '_' || v[i] == '$' || 'a' <= v[i]|0x20 && v[i]|0x20 <= 'z' || i > 0 && '0' <= v[i] && v[i] <= '9') {
			i++
		}
		b, ok := binds[v[:i]]
		if i == 0 || !ok {
			return ""
		}
		rest := fieldTail(v[i:])
		if b == "$input.item" {
			if !strings.HasPrefix(strings.TrimSpace(rest), ".json") {
				return ""
			}
			return "$input.item" + strings.TrimSpace(rest)
		}
		k := boundRef{v[:i], depth}
		base, ok := bound[k]
		if !ok {
			base = ref(b, depth+1)
			bound[k] = base
		}
		if base == "" {
			return ""
		}
		return base + rest
	}
	field := ""
	for _, p := range path {
		field += "[" + strconv.Quote(p) + "]"
	}
	// An explicit key: value for the field's first name, the last one
	// written, and the spreads written before it.
	lastKey := -1
	keyVal := ""
	for _, m := range codeFieldRE.FindAllStringSubmatchIndex(code, -1) {
		if code[m[2]:m[3]] == path[0] {
			lastKey, keyVal = m[0], code[m[4]:m[5]]
		}
	}
	if lastKey >= 0 {
		if r := ref(keyVal, 0); r != "" {
			rest := ""
			for _, p := range path[1:] {
				rest += "[" + strconv.Quote(p) + "]"
			}
			exprs = append(exprs, "{{ "+r+rest+" }}")
		}
	}
	for _, m := range codeSpreadRE.FindAllStringSubmatchIndex(code, -1) {
		if lastKey >= 0 && m[0] < lastKey {
			continue // the key written after the spread wins
		}
		if r := ref(code[m[2]:m[3]], 0); r != "" {
			exprs = append(exprs, "{{ "+r+field+" }}")
		}
	}
	return exprs, keeps
}

// fieldTail is the field path a value continues with: .customer.email,
// ["e-mail"], up to the first other character.
func fieldTail(s string) string {
	out := ""
	for {
		t := strings.TrimLeft(s, " \t")
		t = strings.TrimPrefix(t, "?")
		switch {
		case strings.HasPrefix(t, "."):
			k := 1
			for k < len(t) && (t[k] == '_' || t[k] == '$' || 'a' <= t[k]|0x20 && t[k]|0x20 <= 'z' || k > 1 && '0' <= t[k] && t[k] <= '9') {
				k++
			}
			if k == 1 {
				return out
			}
			out += t[:k]
			s = t[k:]
		case strings.HasPrefix(t, "[") && len(t) > 2 && (t[1] == '"' || t[1] == '\''):
			end := strings.IndexByte(t[2:], t[1])
			if end < 0 || !strings.HasPrefix(t[3+end:], "]") {
				return out
			}
			out += `[` + strconv.Quote(t[2:2+end]) + `]`
			s = t[4+end:]
		default:
			return out
		}
	}
}
