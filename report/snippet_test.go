package report

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// compactExport is n workflows of k nodes each on one line, as
// `n8n export:workflow --all` writes them; every node carries a header
// secret that only the JSON structure reveals.
func compactExport(t testing.TB, n, k int) (*n8nschema.File, []n8nschema.Pos) {
	t.Helper()
	var wfs []any
	for w := range n {
		var nodes []any
		for i := range k {
			nodes = append(nodes, map[string]any{
				"id": fmt.Sprintf("%d-%d", w, i), "name": fmt.Sprintf("Call %d", i), "type": "n8n-nodes-base.httpRequest",
				"typeVersion": 4, "position": []int{i * 200, 0}, "retryOnFail": true, "maxTries": 5,
				"parameters": map[string]any{"url": "https://api.example.com/orders", "method": "POST",
					"headerParameters": map[string]any{"parameters": []any{map[string]any{"name": "X-API-Key", "value": fmt.Sprintf("s%06dHush", i)}}}},
			})
		}
		wfs = append(wfs, map[string]any{"id": fmt.Sprint(w), "name": fmt.Sprintf("Flow %d", w), "nodes": nodes, "connections": map[string]any{}})
	}
	src, err := json.Marshal(wfs)
	if err != nil {
		t.Fatal(err)
	}
	f := n8nschema.Parse(n8nschema.NewSource("all.json", src))
	var at []n8nschema.Pos
	for _, w := range f.Workflows {
		for _, nd := range w.Nodes {
			v, _ := nd.Param("url")
			at = append(at, v.Pos())
		}
	}
	return f, at
}

// TestSnippetCostsItsWindow: on a one-line export every snippet redacts a
// bounded window, not the line (which made text output quadratic).
func TestSnippetCostsItsWindow(t *testing.T) {
	f, at := compactExport(t, 20, 50)
	line := len(f.Source.Src)
	r := NewRedactor(&analyze.Set{Files: []*n8nschema.File{f}, Workflows: f.Workflows})
	for _, p := range at {
		text, col := r.Snippet(f.Source, p)
		if p.Line != 1 || !strings.HasPrefix(text[len(caretPrefix(text, col)):], `"url"`) {
			t.Fatalf("snippet at %v: caret %d not on the key in %q", p, col, text)
		}
	}
	// A window spans at most two blocks; a block is redacted once.
	block := snippetBlock + 2*snippetMargin
	if r.scanned > len(at)*2*block {
		t.Errorf("%d snippets of a %d-byte line scanned %d bytes, want at most %d each", len(at), line, r.scanned, 2*block)
	}
	if blocks := line/snippetBlock + 1; r.scanned > blocks*block {
		t.Errorf("%d snippets scanned %d bytes, more than the %d blocks of the line hold with their margins", len(at), r.scanned, blocks)
	}
	if line < 20*block {
		t.Fatalf("the export (%d bytes) is too short to tell a window from the line", line)
	}
}

// caretPrefix is the text before the caret's column.
func caretPrefix(text string, col int) string {
	rs := []rune(text)
	return string(rs[:col-1])
}

// TestSnippetMasksStraddlingSecrets: a secret cut by the window's edge, or
// whose context lies outside the margin, is not half-printed; the secrets
// the JSON structure names are masked in a compact line too.
func TestSnippetMasksStraddlingSecrets(t *testing.T) {
	long := strings.Repeat("Ab3x", 400) // 1,600 characters of a random-looking token
	for _, tt := range []struct {
		name, line string
		secret     string
	}{
		{"token starts far before the window", `{"a": "` + long + `", "retryOnFail": true, "b": 1}`, long},
		{"token runs far past the window", `{"retryOnFail": true, "b": "Bearer ` + long + `"}`, long},
		{"bearer cut by the window's left edge", `{"h": "Bearer ` + strings.Repeat("z9Q", 20) + `", "pad": "` + strings.Repeat(" ", 40) + `", "retryOnFail": true}`, strings.Repeat("z9Q", 20)},
		{"member whose value starts outside the margin", `{"note": "\"password\": \"` + strings.Repeat("hunter2 ", 600) + `\"", "retryOnFail": true}`, "hunter2"},
	} {
		src := n8nschema.NewSource("w.json", []byte(tt.line))
		off := strings.Index(tt.line, `"retryOnFail"`)
		pos := src.PosAt(off, "retryOnFail")
		r := NewRedactor(nil)
		text, col := r.Snippet(src, pos)
		if !strings.HasPrefix(string([]rune(text)[col-1:]), `"retryOnFail"`) {
			t.Errorf("%s: caret %d not on the key in %q", tt.name, col, text)
		}
		for i := 0; i+6 <= len(tt.secret); i++ {
			if strings.Contains(text, tt.secret[i:i+6]) {
				t.Errorf("%s: snippet shows %q of the secret: %q", tt.name, tt.secret[i:i+6], text)
				break
			}
		}
	}
	// Structural secrets in a one-line export.
	f, at := compactExport(t, 1, 3)
	r := NewRedactor(&analyze.Set{Files: []*n8nschema.File{f}, Workflows: f.Workflows})
	text, _ := r.Snippet(f.Source, at[1])
	if strings.Contains(text, "Hush") || !strings.Contains(text, `"***********"`) {
		t.Errorf("a header secret of the compact export shows: %q", text)
	}
}

// TestSnippetWindow pins the window: the whole line when short, else a
// third before the caret, ellipses where cut, escapes moving the caret.
func TestSnippetWindow(t *testing.T) {
	long := `{"a": "` + strings.Repeat("x", 200) + `", "retryOnFail": true, "b": "` + strings.Repeat("y", 200) + `"}`
	for _, tt := range []struct {
		name, line, at string
		want           string
		col            int
	}{
		{"short line", `{"retryOnFail": true}`, `"retryOnFail"`, `{"retryOnFail": true}`, 2},
		{"long line", long, `"retryOnFail"`, "…" + strings.Repeat("x", 30) + `", "retryOnFail": true, "b": "` + strings.Repeat("y", 40) + "…", 35},
		{"near the start", long, `"a"`, `{"a": "` + strings.Repeat("x", 93) + "…", 2},
		{"controls and tabs", "{\"\x1b[2J\":\t\"\u202e\", \"k\": 1}", `"k"`, `{"\x1b[2J": "\u202e", "k": 1}`, 23},
	} {
		src := n8nschema.NewSource("w.json", []byte(tt.line))
		pos := src.PosAt(strings.Index(tt.line, tt.at), "")
		got, col := NewRedactor(nil).Snippet(src, pos)
		if got != tt.want || col != tt.col {
			t.Errorf("%s:\n got %q col %d\nwant %q col %d", tt.name, got, col, tt.want, tt.col)
		}
	}
}
