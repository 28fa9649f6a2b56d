package analyze

import "github.com/stormcheck/stormcheck/n8nschema"

// Safety says when --fix applies a repair.
type Safety int

const (
	// Safe repairs only reduce duplicate attempts; --fix applies them.
	Safe Safety = iota + 1
	// Unsafe repairs change what a workflow sends or when it stops;
	// --fix applies them only with --unsafe-fixes.
	Unsafe
)

func (s Safety) String() string {
	switch s {
	case Safe:
		return "safe"
	case Unsafe:
		return "unsafe"
	}
	return "none"
}

// Edit replaces Len bytes at Offset of Source.Src with Text. An insertion
// has Len 0. Edits never split a UTF-8 sequence: they start and end at
// JSON token boundaries.
type Edit struct {
	Source *n8nschema.Source
	Offset int
	Len    int
	Text   string
	// Start and End are where the replaced bytes start and end (line and
	// column), set by whoever makes the edit while the source's bytes are
	// there: reports show them after the bytes are released.
	Start, End n8nschema.Pos
}

// Repair is what repairs one finding: byte edits of one or more sources
// (turning off a caller's retry edits the caller's file), sorted by source
// name and offset. Package fix computes repairs.
type Repair struct {
	Description string
	Safety      Safety
	Edits       []Edit
}
