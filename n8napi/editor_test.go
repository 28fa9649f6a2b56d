package n8napi

import "testing"

// TestEditorURL: every base form New takes gives the editor's URL of a
// workflow, under the instance's path prefix, the id one escaped segment.
func TestEditorURL(t *testing.T) {
	for _, tt := range []struct{ base, id, want string }{
		{"https://n8n.example.com", "Ab12", "https://n8n.example.com/workflow/Ab12"},
		{"https://N8N.example.com/api/v1/", "Ab12", "https://n8n.example.com/workflow/Ab12"},
		{"http://127.0.0.1:5678/", "7", "http://127.0.0.1:5678/workflow/7"},
		{"https://example.com/n8n/api/v1", "Ab12", "https://example.com/n8n/workflow/Ab12"},
		{"https://n8n.example.com", "../../x", "https://n8n.example.com/workflow/..%2F..%2Fx"},
		{"ftp://n8n.example.com", "Ab12", ""},
	} {
		if got := EditorURL(tt.base, tt.id); got != tt.want {
			t.Errorf("EditorURL(%q, %q) = %q, want %q", tt.base, tt.id, got, tt.want)
		}
	}
}
