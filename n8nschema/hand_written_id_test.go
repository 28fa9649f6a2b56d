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
