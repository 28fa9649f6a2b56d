package n8nschema

import (
	"bytes"
	"unsafe"
)

// MaxDepth is the deepest nesting of arrays and objects Parse reads. The
// deepest real export in the corpus nests 14 levels; every walk over
// values (Walk, Scalars, StringMembers, redaction) recurses, and ten
// million "[" overflowed the Go stack and killed the process, so a file
// nested deeper is an RS001 finding instead.
const MaxDepth = 512

// strEnd returns the index of the quote that closes the string opened at
// b[i], or len(b). Strings are most of a workflow's bytes (code, prompts),
// so it jumps from quote to quote instead of looking at every byte.
func strEnd(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		j += k
		n := 0 // backslashes before the quote: odd means it is escaped
		for m := j - 1; m > i && b[m] == '\\'; m-- {
			n++
		}
		if n%2 == 0 {
			return j
		}
		j++
	}
}

// view is a string sharing k's bytes: source bytes are never written
// after NewSource, and the blanked copy of a file with repeated keys is
// written only before it is viewed.
func view(k []byte) string { return unsafe.String(unsafe.SliceData(k), len(k)) }

// blank overwrites [from, to) with spaces, keeping line breaks so that
// every later offset, line and column stays where it was.
func blank(b []byte, from, to int) {
	for i := from; i < to && i < len(b); i++ {
		if b[i] != '\n' && b[i] != '\r' {
			b[i] = ' '
		}
	}
}
