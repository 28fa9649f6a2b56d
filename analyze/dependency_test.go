package analyze

import "testing"

// TestDependencyIdentityBlankModelKey: a model provider's calls share its
// limits per key, so a call whose key is a template's blank, or whose id
// was stripped for sharing, names no key and shares none; a known key's
// calls share the provider.
func TestDependencyIdentityBlankModelKey(t *testing.T) {
	s := load(t, DefaultOptions(), "model_keys.json")
	for wf, want := range map[string]string{"Stripped id": "", "Placeholder id": "", "No id": "", "Known key": "google-gemini"} {
		if got := DependencyIdentity(op(t, s, wf, "Extract invoice")); got != want {
			t.Errorf("%s: identity %q, want %q", wf, got, want)
		}
	}
}
