package analyze

import "testing"

// TestCalledOnSchedule: a webhook that only scheduled pipelines of the set
// call runs at their pace; one a service's webhook calls too does not.
func TestCalledOnSchedule(t *testing.T) {
	for file, want := range map[string]bool{"called_on_schedule.json": true, "called_on_schedule_and_by_a_service.json": false} {
		s := load(t, DefaultOptions(), file)
		for _, w := range s.Workflows {
			if w.Name != "Shared IG Publisher" {
				if got := CalledOnSchedule(s, w, w.Nodes[0]); got {
					t.Errorf("%s: trigger of %q called on schedule", file, w.Name)
				}
				continue
			}
			if got := CalledOnSchedule(s, w, w.Nodes[0]); got != want {
				t.Errorf("%s: publisher webhook called on schedule %v, want %v", file, got, want)
			}
		}
	}
}
