package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/lazyregexp"
)

var (
	badFlagValueRE = lazyregexp.NewRare(`^invalid argument "(.*)" for "(.+?)" flag: strconv\.Parse(\w+): parsing ".*": (.*)$`)
	unknownFlagRE  = lazyregexp.NewRare(`^unknown flag: --(\S+)$`)
)

// flagError rewrites pflag's errors in the words of this tool: what the
// flag wants rather than Go's parse error, and the flag that was meant.
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	if m := badFlagValueRE.FindStringSubmatch(msg); m != nil {
		want := "a whole number"
		switch {
		case m[3] == "Bool":
			want = "true or false"
		case m[3] == "Float":
			want = "a number"
		}
		if strings.Contains(m[4], "out of range") {
			want += " in range"
		}
		return fmt.Errorf("%s %q: want %s", m[2], m[1], want)
	}
	if m := unknownFlagRE.FindStringSubmatch(msg); m != nil {
		var names []string
		c.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		if s := closest(m[1], names); s != "" {
			return fmt.Errorf("%s; did you mean --%s?", msg, s)
		}
	}
	return err
}

// unknownCommand adds the command that was meant to cobra's error.
func unknownCommand(c *cobra.Command, args []string, err error) error {
	if len(args) == 0 || !strings.HasPrefix(err.Error(), "unknown command") {
		return err
	}
	var names []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	if s := closest(args[0], names); s != "" {
		return fmt.Errorf("%v; did you mean %q?", err, s)
	}
	return err
}

// closest is the candidate nearest to s: at most 2 edits away (1 for
// words under 4 letters), or one that s is a prefix of; "" when none is.
func closest(s string, candidates []string) string {
	best, bestD := "", 0
	limit := min(2, max(1, len(s)/2))
	for _, c := range candidates {
		d := editDistance(strings.ToLower(s), strings.ToLower(c))
		if strings.HasPrefix(c, s) && len(s) >= 3 {
			d = min(d, 1)
		}
		if d <= limit && (best == "" || d < bestD || d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of two short strings.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = slices.Min([]int{prev[j] + 1, cur[j-1] + 1, prev[j-1] + cost})
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// ruleHint is "; did you mean "nested-retries"?" for the first entry of
// sels (an --enable, --disable or config entry, "-" for removal allowed)
// that names no rule but is close to a rule's ID or name; "" otherwise.
func ruleHint(all []*analyze.Rule, sels ...string) string {
	var names []string
	for _, r := range all {
		names = append(names, r.ID, r.Name)
	}
	for _, sel := range sels {
		sel = strings.TrimPrefix(strings.TrimSpace(sel), "-")
		if _, err := analyze.SelectRules(all, []string{sel}, nil); err == nil {
			continue
		}
		if s := closest(sel, names); s != "" {
			return fmt.Sprintf("; did you mean %q?", s)
		}
		return ""
	}
	return ""
}
