package analyze

import "testing"

// TestDependencyIdentityBlankModelKey: a model provider's calls share its
// limits per key, so a call whose key's id is a template's blank names no
// key and shares none; a known key's calls share the provider, and so do
// those whose id is empty or left out, which n8n's import reads by name.
func TestDependencyIdentityBlankModelKey(t *testing.T) {
	s := load(t, DefaultOptions(), "model_keys.json")
	for wf, want := range map[string]string{"Stripped id": "google-gemini", "Placeholder id": "", "No id": "google-gemini", "Known key": "google-gemini"} {
		if got := DependencyIdentity(op(t, s, wf, "Extract invoice")); got != want {
			t.Errorf("%s: identity %q, want %q", wf, got, want)
		}
	}
}
