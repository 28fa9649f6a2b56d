package analyze

import (
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
