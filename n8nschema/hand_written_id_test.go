package n8nschema

import "testing"

// n8n's credential ids are sixteen-byte nanoids over [0-9A-Za-z], or, from
// before 1.0, numbers (@n8n/db/dist/entities/abstract-entity.js).
func TestHandWrittenID(t *testing.T) {
	for id, want := range map[string]bool{
		"aB3dE5fG7hJ9kL1m":     false,
		"42":                   false,
		"={{ $json.credId }}":  false,
		"":                     false,
		"google-drive-cred-id": true,
		"gmailOAuth2Api":       true,
		"telegramApi":          true,
		"OpenAI API":           true,
		"aB3dE5fG7hJ9kL1mX":    true,
		"cred1":                true,
	} {
		if got := HandWrittenID(id); got != want {
			t.Errorf("HandWrittenID(%q) = %v, want %v", id, got, want)
		}
	}
}

// An id typed by counting holds a resource's place; a real one does not
// count.
func TestCountingID(t *testing.T) {
	for s, want := range map[string]bool{
		"1a2b3c4d5e6f7g8h9i0j": true,
		"123456789":            true,
		"abc12345":             true,
		"1234567":              false,
		"1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms": false,
		"20240101":       false,
		"-1001234567890": false,
	} {
		if got := countingID(s); got != want {
			t.Errorf("countingID(%q) = %v, want %v", s, got, want)
		}
	}
}
