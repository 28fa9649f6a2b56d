package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
)

// Helpers that word findings.

// attemptsText is "up to 5 times" or "without bound" (with the condition
// when only a gated restart repeats op: restartGate).
func attemptsText(op *analyze.Operation) string {
	if g := restartGate(op); g != "" {
		return "without bound " + gateClause(g) // "if "If" sends the restarted runs this way"
	}
	if op.Unbounded {
		return "without bound"
	}
	return "up to " + strconv.Itoa(op.Attempts) + " times"
}

// attemptsWord is "5 attempts" or "unbounded attempts".
func attemptsWord(op *analyze.Operation) string {
	if op.Unbounded {
		return "unbounded attempts"
	}
	return fmt.Sprintf("%d attempts", op.Attempts)
}

// plural picks the word for a count.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// joinNames lists up to limit names, which the caller quotes: "A", "B" and 3 more.
func joinNames(names []string, limit int) string {
	if len(names) <= limit {
		if len(names) == 1 {
			return names[0]
		}
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:limit], ", "), len(names)-limit)
}

// countOf is "1 item", "5 items".
func countOf(n int, word string) string {
	n = max(n, 1)
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
