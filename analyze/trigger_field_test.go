package analyze

import (
	"strings"
	"testing"
)

// TestCodeFieldReads pins the reads of a member of an input item's field
// that a Code node surely runs (codeFieldReads), as field:member.
func TestCodeFieldReads(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{"const t = $json.bestTime.split(':');", "bestTime:split"},
		{"const user = $json;\nconst now = new Date();\nconst t = user.bestTime.split(':');", "bestTime:split"},
		{"return [{ json: { email: $json.email.toLowerCase() } }];", "email:toLowerCase"},
		{"const n = items[0].json.rows.length;", "rows:length"},
		{"const a = $input.first().json['order'].total;", "order:total"},
		{`const a = $json["my field"][0];`, "my field:0"},
		{"const k = $json.data[key];", "data:"},
		{"const a = $json.a.b;\nconst c = $json.c.d;", "a:b c:d"},
		{"const a = $json.a.b;\nconst a2 = $json.a.c;", "a:b"}, // one read per field
		{"const t = $json.bestTime?.split(':');", ""},
		{"const t = $json?.bestTime;", ""},
		{"const t = ($json.bestTime || '9:00').split(':');", ""},
		{"const bt = $json.bestTime;", ""},
		{"if ($json.bestTime) { const t = $json.bestTime.split(':'); }", ""},
		{"const f = () => $json.bestTime.split(':');", ""},
		{"try { const t = $json.bestTime.split(':'); } catch (e) {}", ""},
		{"$json.bestTime = '9:00';\nconst t = $json.bestTime.split(':');", ""},
		{"$json['bestTime'] = '9:00';\nconst t = $json.bestTime.split(':');", ""},
		{"Object.assign($json, defaults);\nconst t = $json.bestTime.split(':');", ""},
		{"let user = $json;\nuser = { bestTime: '9:00' };\nconst t = user.bestTime.split(':');", ""},
		{"const s = '$json.bestTime.split';", ""},
		{"// $json.bestTime.split(':')\nreturn [];", ""},
		{"const t = $json.toString.call(1);", ""},
		{"const ok = $json.a == 1 ? $json.b.c : 0;", ""},
	} {
		var got []string
		for _, r := range codeFieldReads(codeNode(t, c.code)) {
			got = append(got, r.field+":"+r.member)
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%q: got %q, want %q", c.code, g, c.want)
		}
	}
}
