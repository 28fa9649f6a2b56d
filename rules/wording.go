package rules

import (
	"fmt"
	"strconv"

	"github.com/stormcheck/stormcheck/analyze"
)

// Helpers that word findings.

// attemptsText is "up to 5 times" or "without bound".
func attemptsText(op *analyze.Operation) string {
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
