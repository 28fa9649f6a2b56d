package rules

import "testing"

// TestRateLimitStems: every word namesRateLimit looks for holds one of the
// stems it looks for first.
func TestRateLimitStems(t *testing.T) {
	for _, w := range rateLimitWords {
		if !containsAny(w, rateLimitStems) {
			t.Errorf("rate-limit word %q holds none of rateLimitStems %q", w, rateLimitStems)
		}
	}
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"const RATE_LIMIT = 10", true},
		{"if (usage-limit) {}", true},
		{"Max Requests reached", true},
		{"out of credits", true},
		{"accredited", false},
		{"return items.map(i => i.json)", false},
		{"this request has no limit", false},
	} {
		if got := namesRateLimit(c.s); got != c.want {
			t.Errorf("namesRateLimit(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}
