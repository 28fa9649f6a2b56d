package cmd

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stormcheck/stormcheck/engine"
)

// byteSize is a size flag: a number of bytes with an optional unit
// (KB, MB, GB in powers of 1000; KiB, MiB, GiB in powers of 1024).
type byteSize int64

var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1},
}

func (s *byteSize) String() string { return formatSize(int64(*s)) }

func (s *byteSize) Type() string { return "size" }

func (s *byteSize) Set(v string) error {
	num, mult := strings.TrimSpace(v), int64(1)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 1 || n > math.MaxInt64/mult {
		return fmt.Errorf("want a whole number of bytes of at least 1, optionally with a unit (KB, MB, GB, KiB, MiB, GiB), like 256MiB")
	}
	*s = byteSize(n * mult)
	return nil
}

// formatSize shows a size in the largest binary unit that divides it.
var formatSize = engine.FormatSize
