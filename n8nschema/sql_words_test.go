package n8nschema

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestSQLWritesAsPattern: sqlWrites answers as the pattern it replaced, on
// strings of the words, their pieces and the bytes around a word's edge.
func TestSQLWritesAsPattern(t *testing.T) {
	re := regexp.MustCompile(`\b(INSERT|UPDATE|DELETE|MERGE|UPSERT|REPLACE|TRUNCATE|DROP|ALTER|CREATE)\b`)
	pieces := []string{"", "INSERT", "UPDATE", "DELETE", "MERGE", "UPSERT", "REPLACE", "TRUNCATE", "DROP", "ALTER", "CREATE",
		"INSER", "PDATE", "CREATED", "XDROP", "SELECT", " ", "\n", "_", "9", "a", "Z", "é", "\xff", "(", ";", "'", "INTO"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if s := b.String(); sqlWrites(s) != re.MatchString(s) {
			t.Fatalf("sqlWrites(%q) = %v, the pattern %v", s, sqlWrites(s), re.MatchString(s))
		}
	}
}
