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

// A Repairer builds the repairs of one analysis set: package fix's. A
// rule names a finding's repair where it detects the problem
// (Diagnostic.Repair); fix.Attach calls it with the set's Repairer, which
// computes the edits, and package fix plans, applies and diffs them.
type Repairer interface {
	// RetryOwner keeps the retry layer closest to the wire and turns the
	// outer ones off (safe).
	RetryOwner(op *Operation) (*Repair, error)
	// IdempotencyKey adds an Idempotency-Key header to a write (unsafe).
	IdempotencyKey(op *Operation) (*Repair, error)
	// OutputCap sets a model call's output cap from the config (unsafe).
	OutputCap(op *Operation) (*Repair, error)
	// ExecutionTimeout sets settings.executionTimeout (unsafe).
	ExecutionTimeout(w *n8nschema.Workflow) (*Repair, error)
	// AnswerOnReceipt makes a webhook answer its sender on receipt
	// (unsafe).
	AnswerOnReceipt(w *n8nschema.Workflow, webhook *n8nschema.Node, sender string) (*Repair, error)
	// ScheduleTimeout sets settings.executionTimeout to a schedule's
	// interval (unsafe).
	ScheduleTimeout(w *n8nschema.Workflow, schedule *n8nschema.Node) (*Repair, error)
	// RetryAsRun writes the retry settings n8n runs (ClampedRetry) over
	// those it clamps on a node (safe: n8n runs the same).
	RetryAsRun(w *n8nschema.Workflow, n *n8nschema.Node) (*Repair, error)
	// ExpressionPrefix begins with "=" the string values at paths (below
	// "parameters") of node n of w, so that n8n evaluates them as
	// expressions (unsafe).
	ExpressionPrefix(w *n8nschema.Workflow, n *n8nschema.Node, paths []string) (*Repair, error)
}

// RepairFunc builds a finding's repair with the set's Repairer. An
// Unrepairable error says why there is none; another error, that the
// JSON has a shape the repair does not edit.
type RepairFunc func(Repairer) (*Repair, error)

// Unrepairable says why a finding of a rule that has repairs gets none.
type Unrepairable string

func (u Unrepairable) Error() string { return string(u) }
