package n8napi

import (
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 12, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{"1", time.Second, true},
		{" 120 ", 2 * time.Minute, true},
		{"-1", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"99999999999999999999999", 1 << 62, true},
		{"Mon, 12 Jan 2026 10:00:30 GMT", 30 * time.Second, true}, // IMF-fixdate
		{"Monday, 12-Jan-26 10:01:00 GMT", time.Minute, true},     // RFC 850
		{"Mon Jan 12 10:00:05 2026", 5 * time.Second, true},       // asctime
		{"Mon, 12 Jan 2026 09:00:00 GMT", 0, true},                // past: no wait
		{"Mon, 32 Jan 2026 10:00:30 GMT", 0, false},               // not a date
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	c := &Client{backoffBase: 500 * time.Millisecond, backoffCap: 10 * time.Second}
	// With the largest draw, the ceiling shows: min(cap, base·2^retry).
	c.jitter = func(n int64) int64 { return n - 1 }
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	for retry, w := range want {
		if got := c.backoff(retry); got != w {
			t.Errorf("backoff(%d) ceiling = %v, want %v", retry, got, w)
		}
	}
	for _, retry := range []int{31, 32, 63, 64, 1000} {
		if got := c.backoff(retry); got != c.backoffCap {
			t.Errorf("backoff(%d) ceiling = %v, want the cap", retry, got)
		}
	}
	c.jitter = func(n int64) int64 { return 0 }
	if got := c.backoff(3); got != 0 {
		t.Errorf("backoff with the smallest draw = %v, want 0 (full jitter)", got)
	}

	// The real generator stays inside [0, ceiling].
	real, err := New(Options{BaseURL: "https://h", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		if d := real.backoff(2); d < 0 || d > 2*time.Second {
			t.Fatalf("backoff(2) = %v, outside [0, 2s]", d)
		}
	}
	if (&Client{}).backoff(3) != 0 {
		t.Error("backoff with no base must be 0")
	}
}

func TestSecs(t *testing.T) {
	t.Parallel()
	tests := map[time.Duration]string{
		300 * time.Millisecond:   "0.3s",
		1500 * time.Millisecond:  "1.5s",
		time.Second:              "1s",
		30 * time.Second:         "30s",
		2 * time.Minute:          "120s",
		12400 * time.Millisecond: "12s",
		-time.Second:             "0s",
		2999 * time.Millisecond:  "3s",
		40 * time.Millisecond:    "0s",
		60 * time.Millisecond:    "0.1s",
	}
	for d, want := range tests {
		if got := secs(d); got != want {
			t.Errorf("secs(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestCompareIDs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{
		{"998", "1000", -1},
		{"0998", "998", 0},
		{"7", "abc", -1},
		{"abc", "7", 1},
		{"Zed", "abc", -1},
		{"abc", "abc", 0},
		{"", "1", 1},
	}
	for _, tt := range tests {
		if got := CompareIDs(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareIDs(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestKindString(t *testing.T) {
	t.Parallel()
	for k := KindNetwork; k <= KindPaging; k++ {
		if s := k.String(); s == "" || s[0] == 'K' {
			t.Errorf("Kind(%d).String() = %q", int(k), s)
		}
	}
	if got := Kind(0).String(); got != "Kind(0)" {
		t.Errorf("Kind(0).String() = %q", got)
	}
}
