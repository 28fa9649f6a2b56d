package analyze

import "testing"

// TestDependencyIdentityBlankModelKey: a model provider's calls share its
// limits per key, so a call whose key's id is a template's blank, or is
// empty or left out (stripped for publishing: n8n's import binds it by
// name to whatever credential the importer holds), names no key and
// shares none, unless its export names the instance it comes from: then
// it is one of that instance's keys; a known key's calls share the
// provider.
func TestDependencyIdentityBlankModelKey(t *testing.T) {
	s := load(t, DefaultOptions(), "model_keys.json")
	for wf, want := range map[string]string{"Stripped id": "", "Placeholder id": "", "No id": "", "Known key": "google-gemini",
		"Stripped id, instance named": "google-gemini", "Placeholder id, instance named": "google-gemini"} {
		if got := DependencyIdentity(op(t, s, wf, "Extract invoice")); got != want {
			t.Errorf("%s: identity %q, want %q", wf, got, want)
		}
	}
}
