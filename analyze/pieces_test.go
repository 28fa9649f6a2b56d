package analyze

import (
	"math/rand"
	"strings"
)

// pieces joins 1 to most+1 strings drawn from ps: the random inputs the
// tests that check a hand-written reading against its regexp are made of.
func pieces(rng *rand.Rand, ps []string, most int) string {
	var sb strings.Builder
	for k := rng.Intn(most); k >= 0; k-- {
		sb.WriteString(ps[rng.Intn(len(ps))])
	}
	return sb.String()
}
