package analyze

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

// TestStrangerReach reads RS306's fixtures: a fetch by an id only the
// real sender knows, made with the owner's credential and not let through
// on failure, ends a stranger's run; nothing else does.
func TestStrangerReach(t *testing.T) {
	for _, tc := range []struct {
		file, trigger, paid string
		gates               []string
	}{
		{"webhook_airtable_ping_fetches_its_payloads.json", "Airtable Webhook", "Generate Field Value1", []string{"Get Webhook Payload"}},
		{"webhook_stripe_event_retrieved_before_the_model.json", "Stripe Webhook", "Thank-you Note", []string{"Retrieve Event"}},
		// The model runs before the gate: the gate is met, the model reached.
		{"webhook_airtable_model_before_the_payload_fetch.json", "Airtable Webhook", "Generate Field Value1", []string{"Get Webhook Payload"}},
		{"webhook_airtable_payload_fetch_that_continues_on_error.json", "Airtable Webhook", "Generate Field Value1", nil},
		{"webhook_airtable_payload_fetch_that_never_errors.json", "Airtable Webhook", "Generate Field Value1", nil},
		{"webhook_airtable_fetch_by_base_id_only.json", "Airtable Webhook", "Generate Field Value1", nil},
		{"webhook_no_auth_note.json", "API", "Summarize", nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("..", "rules", "testdata", "RS306", tc.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := n8nschema.Parse(n8nschema.NewSource(path, src))
			s := Build([]*n8nschema.File{f}, Options{})
			w := f.Workflows[0]
			g := s.Graph(w)
			trig, paid := w.Node(tc.trigger), w.Node(tc.paid)
			reach := RunReach(g, trig)
			if !reach[paid] {
				t.Fatalf("%q not reached from %q at all", tc.paid, tc.trigger)
			}
			stranger, gates := StrangerReach(g, trig, reach)
			var names []string
			for _, gt := range gates {
				names = append(names, gt.Node.Name)
			}
			if !slices.Equal(names, tc.gates) {
				t.Errorf("gates = %q, want %q", names, tc.gates)
			}
			wantPaid := len(tc.gates) == 0 || tc.file == "webhook_airtable_model_before_the_payload_fetch.json"
			if stranger[paid] != wantPaid {
				t.Errorf("stranger reaches %q: %v, want %v", tc.paid, stranger[paid], wantPaid)
			}
			if len(tc.gates) == 0 && len(stranger) != len(reach) {
				t.Errorf("no gate, yet the stranger's reach (%d) is not the run's (%d)", len(stranger), len(reach))
			}
		})
	}
}
