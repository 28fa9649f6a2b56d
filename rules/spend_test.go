package rules

import "testing"

func TestUSD(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{{2458.2, "$2458"}, {81.92, "$81.92"}, {4.9152, "$4.92"}, {0.8192, "$0.819"}, {0.0098, "$0.0098"}, {0.0003, "$0.0003"}} {
		if got := usd(tt.v); got != tt.want {
			t.Errorf("usd(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
