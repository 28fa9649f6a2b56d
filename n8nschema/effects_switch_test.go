package n8nschema

import (
	"slices"
	"strings"
	"testing"
)

// TestSwitchWords: every switch's Match holds one of switchWords, so
// that SwitchOf's test of the words leaves out no URL that pings one; and
// SwitchOf answers as the search of every Match in the lowered URL does,
// on URLs in mixed case, beyond ASCII (the Kelvin sign and the dotted
// capital I lower to ASCII letters) and without any word.
func TestSwitchWords(t *testing.T) {
	for _, s := range switches {
		if !slices.ContainsFunc(switchWords[:], func(w string) bool { return strings.Contains(s.Match, w) }) {
			t.Errorf("%s's %q holds none of %q", s.Service, s.Match, switchWords)
		}
	}
	old := func(url string) (Switch, bool) {
		u := strings.ToLower(url)
		for _, s := range switches {
			if strings.Contains(u, s.Match) {
				return s, true
			}
		}
		return Switch{}, false
	}
	urls := []string{"", "https://api.example.com/v1/items", "https://HC-PING.com/abc", "https://hc-ping.com/uuid",
		"https://hc-p\u0130ng.com/x", "https://nosnch.\u0130n/abc", "https://cronhub.io/PING/x", "https://example.com/CRON/run",
		"https://status.example.com/api/Push/abc?status=up", "https://push.statuscake.com/?PK=1", "https://example.com/pi ng",
		"={{ $env.HC_URL }}", "https://nosnch.in/x", "https://\u212Aey.example.com/cron/", "https://ex.com/\u00e9/heartbeat"}
	for _, s := range switches {
		urls = append(urls, "https://"+s.Match+"/x", "https://"+strings.ToUpper(s.Match), "x"+strings.ToUpper(s.Match[:len(s.Match)/2])+s.Match[len(s.Match)/2:])
	}
	for _, u := range urls {
		gs, gok := SwitchOf(u)
		ws, wok := old(u)
		if gs != ws || gok != wok {
			t.Errorf("SwitchOf(%q) = %v, %v, want %v, %v", u, gs, gok, ws, wok)
		}
	}
}
