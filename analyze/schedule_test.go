package analyze

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestNamesLockAsPattern checks namesLock against lockRE on random
// strings of the pieces the pattern reads.
func TestNamesLockAsPattern(t *testing.T) {
	pieces := []string{"lock", "LOCK", "Locked", "locking", "lockin", "block", "mutex", "MuTeX", "semaphore", "emaphore",
		"already", "ALREADY", "is", "IS", "in", "In", "running", "RUNNING", "runnin", "progress", "Progress", "progres",
		`"status":`, `"STATUS":`, `"status"`, `"running"`, `"`, ":", " ", "\t", "\n", "\v", "_", "-", "x", "1", ".",
		"é", "\u017f", "\u212a", "\xff"}
	rng := rand.New(rand.NewPCG(10, 6))
	for i := 0; i < 100000; i++ {
		var b strings.Builder
		for k := rng.IntN(8); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := namesLock(s), lockRE.MatchString(s); got != want {
			t.Fatalf("namesLock(%q) = %v, the pattern %v", s, got, want)
		}
	}
}
