package analyze

import (
	"slices"
	"testing"
)

func TestPendingTest(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`={{ $input.all().filter(item => item.json.status === "IN_PROGRESS" || item.json.status === "IN_QUEUE").length }}`, []string{"IN_PROGRESS", "IN_QUEUE"}},
		{`={{ ["queued", "processing"].includes($json.status) }}`, []string{"queued", "processing"}},
		{`={{ $json.state.toLowerCase() == 'running' }}`, []string{"running"}},
		{`return [i for i in _items if i["json"]["status"] in ("pending", "in_progress")]`, []string{"pending", "in_progress"}},
		// A status the job ends in: whether it leaves on a failure depends on what it does not name.
		{`={{ $input.all().filter(i => i.json.status === "COMPLETED").length }}`, nil},
		{`={{ $json.status === "queued" || $json.status === "succeeded" }}`, nil},
		// Negations, conjunctions, every item: not read.
		{`={{ $json.status !== "queued" }}`, nil},
		{`={{ $json.ok && $json.status === "queued" }}`, nil},
		{`={{ $input.all().every(i => i.json.status === "running") }}`, nil},
		{`={{ $json.id == "queued" || $json.status === "queued" }}`, nil},
		{`={{ $json.status }}`, nil},
	} {
		if got := pendingTest(c.in); !slices.Equal(got, c.want) {
			t.Errorf("pendingTest(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}
