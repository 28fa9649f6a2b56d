package analyze

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCodeMayDrop(t *testing.T) {
	for _, c := range []struct {
		code string
		want bool
	}{
		{"return [{ json: { text: lines.join('\\n') } }];", false},
		{"for (const item of items) { item.json.x = 1 }\nreturn items;", false},
		{"return $input.all().map(i => i);", false},
		{"const out = [];\nfor (const c of items[0].json) { if (c.p > 10) out.push({json: c}) }\nreturn out;", true},
		{"if (!changed) return [];\nreturn [{json: {changed}}];", true},
		{"const s = $getWorkflowStaticData('global');\nreturn [{json: s}];", true},
		{"const cut = (s) => { if (s.length < 9) return s; return s.slice(0, 9); };\nreturn [{ json: { t: cut($json.t) } }];", false},
		{"const m = (() => { try { return JSON.parse($json.raw) } catch (e) { return null } })();\nreturn [{ json: m || {} }];", false},
		{"function pick(a) { return a.filter(x => x.ok); }\nreturn pick(items);", true},
	} {
		if got := codeMayDrop(c.code); got != c.want {
			t.Errorf("codeMayDrop(%q) = %v, want %v", c.code, got, c.want)
		}
	}
}

// TestCatchBlockAsPattern checks catchBlock against the pattern it
// stands for, on random strings of the bytes the pattern reads.
func TestCatchBlockAsPattern(t *testing.T) {
	re := regexp.MustCompile(`\bcatch\s*(\(\s*\w*\s*\))?\s*\{`)
	ends := func(code string) []int {
		var out []int
		for at := catchBlock(code, 0); at >= 0; at = catchBlock(code, at) {
			out = append(out, at)
		}
		return out
	}
	pieces := []string{"catch", "catc", "h", "(", ")", "{", "}", " ", "\t", "\n", "\v", "\f", "\r", "e", "_", "1", ".", "é", "x catch", "\xff"}
	rng := rand.New(rand.NewPCG(1, 29))
	for i := 0; i < 200000; i++ {
		var b strings.Builder
		for k := rng.IntN(12); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		code := b.String()
		var want []int
		for _, m := range re.FindAllStringIndex(code, -1) {
			want = append(want, m[1])
		}
		if got := ends(code); !slices.Equal(got, want) {
			t.Fatalf("catchBlock(%q) ends %v, the pattern %v", code, got, want)
		}
	}
}

func TestCatchFlags(t *testing.T) {
	for _, c := range []struct {
		code string
		want string
	}{
		{"try { x() } catch (e) { return [{ json: { success: false, error: e.message } }] }", "success,error"},
		{"try { x() } catch { ok = false }", "ok"},
		{"const ok = false;\nreturn [{json: {ok}}]", ""},
	} {
		if got := strings.Join(CatchFlags(c.code), ","); got != c.want {
			t.Errorf("CatchFlags(%q) = %q, want %q", c.code, got, c.want)
		}
	}
}
