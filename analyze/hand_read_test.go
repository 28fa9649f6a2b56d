package analyze

import (
	"math/rand"
	"testing"
)

// TestActionPathAsRegexp: actionPathID finds actionPathRE's id, or no
// match, on random URLs of its pieces.
func TestActionPathAsRegexp(t *testing.T) {
	ps := []string{"/", "/", "messages", "trash", "a", "-", "_", "{{", "}}", "{", "}", " $json.id ", "12", "v1", ":", ".", "?", "é", "https://api.x.com"}
	rng := rand.New(rand.NewSource(3))
	for range 300_000 {
		u := pieces(rng, ps, 9)
		m := actionPathRE.FindStringSubmatch(u)
		id, ok := actionPathID(u)
		if ok != (m != nil) || ok && id != m[1] {
			t.Fatalf("actionPathID(%q) = %q, %v; regexp %q", u, id, ok, m)
		}
	}
}

// TestJSONPathAsRegexp: jsonPathKey finds jsonPathRE's first key, or no
// match, on random values of its pieces.
func TestJSONPathAsRegexp(t *testing.T) {
	ps := []string{"={{", "{{", " ", "\n", "$json", "$jsonx", ".", "[", "]", `"`, "'", `\`, "a", "B_", "$", "9", "12", "Start Time", "}}", "}", "é", "x.y"}
	rng := rand.New(rand.NewSource(4))
	for range 400_000 {
		s := ""
		if rng.Intn(4) > 0 {
			s = "={{ $json"
		}
		s += pieces(rng, ps, 9)
		if rng.Intn(2) > 0 {
			s += " }}"
		}
		m := jsonPathRE.FindStringSubmatch(s)
		key, ok := jsonPathKey(s)
		if ok != (m != nil) || ok && key != m[1]+m[2] {
			t.Fatalf("jsonPathKey(%q) = %q, %v; regexp %q", s, key, ok, m)
		}
	}
}
