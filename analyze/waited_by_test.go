package analyze

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestWaitedBy: a sub-workflow only its caller starts, waiting for it, runs
// within the caller's runs; one a webhook starts too, and the caller
// itself, run on their own.
func TestWaitedBy(t *testing.T) {
	byName := func(s *Set, name string) int {
		for i, w := range s.Workflows {
			if w.Name == name {
				return i
			}
		}
		t.Fatalf("no workflow %q", name)
		return -1
	}
	s := load(t, DefaultOptions(), "waited_by.json")
	caller, sub := s.Workflows[byName(s, "Iterate polygons")], s.Workflows[byName(s, "Iterate data")]
	sameSource := cmp.Comparer(func(a, b *n8nschema.Source) bool { return a == b })
	if diff := cmp.Diff([]WorkflowRef{refOf(caller)}, WaitedBy(s, sub), sameSource); diff != "" {
		t.Errorf("sub-workflow waited by (-want +got):\n%s", diff)
	}
	if got := WaitedBy(s, caller); got != nil {
		t.Errorf("the scheduled caller is waited by %v", got)
	}
	sums := Summarize(s)
	if got := sums[byName(s, "Iterate data")].WaitedBy; len(got) != 1 || got[0] != sums[byName(s, "Iterate polygons")].Ref() {
		t.Errorf("summary: waited by %v, want the caller's summary", got)
	}
	s = load(t, DefaultOptions(), "waited_by_webhook_too.json")
	if got := WaitedBy(s, s.Workflows[byName(s, "Iterate data")]); got != nil {
		t.Errorf("a sub-workflow a webhook starts too is waited by %v", got)
	}
}
