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

// A blank or missing credential id on a host of its own is some key of
// its instance: not the keyless calls' identity, nor a named key's.
func TestDependencyIdentityBlankKeyOwnHost(t *testing.T) {
	s := load(t, DefaultOptions(), "own_host_keys.json")
	const h = "api.reportly.io"
	blank := h + "\x00blank:8247b806b0e6f94d28ae959e03ad09e53ffbc2a7aafba4df32b48bec8415d11b"
	for wf, want := range map[string]string{"No key": h, "Blank id, instance named": blank,
		"Missing id, instance named": blank, "Blank id, no instance": "", "Named key": h + "\x00httpHeaderAuth:abc123dEf456gHi7"} {
		if got := DependencyIdentity(op(t, s, wf, "Call")); got != want {
			t.Errorf("%s: identity %q, want %q", wf, got, want)
		}
	}
}
