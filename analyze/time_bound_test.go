package analyze

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestReadsClockInAsPattern checks readsClockIn against the pattern it
// stands for, on random strings of the pieces the pattern reads.
func TestReadsClockInAsPattern(t *testing.T) {
	re := regexp.MustCompile(`\$now\b|\$today\b|\bDate\.now\(\)|\bDateTime\.now\(\)|\bnew Date\(\s*\)|\bDateTime\.local\(\s*\)`)
	pieces := []string{"$now", "$today", "$", "now", "today", "Date.now()", "Date.now(", "DateTime.now()", "DateTime", ".now()",
		"new Date(", "new Date(x)", "DateTime.local(", "local(", "new ", "Date(", "(", ")", " ", "\t", "\n", "\v", "\f", "\r",
		"x", "_", "1", ".", "é", "\xff"}
	rng := rand.New(rand.NewPCG(7, 29))
	for i := 0; i < 100000; i++ {
		var b strings.Builder
		for k := rng.IntN(8); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := readsClockIn(s), re.MatchString(s); got != want {
			t.Fatalf("readsClockIn(%q) = %v, the pattern %v", s, got, want)
		}
	}
}

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
