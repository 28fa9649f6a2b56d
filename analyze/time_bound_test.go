package analyze

import "testing"

func TestTestAge(t *testing.T) {
	for _, c := range []struct {
		left, right, op string
		want            age
	}{
		{"={{ $json.date }}", "={{ $now.minus(15, 'seconds') }}", "before", ageOld},
		{"={{ $json.date }}", "={{ $now.minus(15, 'seconds') }}", "after", ageRecent},
		{"={{ $now.minus(15, 'seconds') }}", "={{ $json.date }}", "after", ageOld},
		{"={{ $now.minus(15, 'seconds') }}", "={{ $json.date }}", "beforeOrEquals", ageRecent},
		{"={{ Date.now() - $json.ts }}", "15000", "gt", ageOld},
		{"={{ Date.now() - $json.ts }}", "15000", "lt", ageRecent},
		{"={{ $json.expiresAt - Date.now() }}", "0", "gt", ageRecent},
		{"={{ DateTime.fromISO($json.at).diff($now).as('seconds') }}", "-60", "lt", ageOld},
		{"={{ Date.now() - $json.ts > 15000 }}", "", "true", ageOld},
		{"={{ Date.now() - $json.ts > 15000 }}", "", "false", ageRecent},
		{"={{ $json.at >= $today }}", "", "true", ageRecent},
		{"={{ $json.count }}", "5", "gt", ageOther},
		{"={{ $json.date }}", "={{ $now }}", "equals", ageOther},
		{"={{ Date.now() - $json.ts > 15000 && $json.ok }}", "", "true", ageOther},
		{"={{ $now }}", "={{ $today }}", "after", ageOther},
	} {
		if got := testAge(c.left, c.right, c.op); got != c.want {
			t.Errorf("testAge(%q, %q, %q) = %d, want %d", c.left, c.right, c.op, got, c.want)
		}
	}
}
