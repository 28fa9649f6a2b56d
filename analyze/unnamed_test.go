package analyze

import (
	"slices"
	"testing"

	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestLabelKeys(t *testing.T) {
	for _, tc := range []struct {
		label string
		want  []string
	}{
		{"KB SEARCH", []string{"kb search"}},
		{"SPECTRUM AGENTE__Agente Unificado__KB SEARCH", []string{"spectrum agente__agente unificado__kb search", "_agente unificado__kb search", "agente unificado__kb search", "_kb search", "kb search"}},
		{"01 - Send Media", []string{"01 - send media", "send media"}},
		{"", nil},
	} {
		var got []string
		labelKeys(tc.label, func(k string) { got = append(got, k) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("labelKeys(%q) = %q, want %q", tc.label, got, tc.want)
		}
	}
}

func TestFileLabel(t *testing.T) {
	src := n8nschema.NewSource("flows/Agente Unificado/KB SEARCH.json", nil)
	for _, tc := range []struct {
		w    *n8nschema.Workflow
		want string
	}{
		{&n8nschema.Workflow{Source: src}, "KB SEARCH"},
		{&n8nschema.Workflow{Source: src, Name: "KB SEARCH"}, ""},      // n8n's own name: byName
		{&n8nschema.Workflow{Source: src, ID: "D3LKuNi6CmMIdvzg"}, ""}, // an id: byID
		{&n8nschema.Workflow{Source: src, Path: "0"}, ""},              // one of an array: the file names none
	} {
		if got := fileLabel(tc.w); got != tc.want {
			t.Errorf("fileLabel(id %q, name %q, path %q) = %q, want %q", tc.w.ID, tc.w.Name, tc.w.Path, got, tc.want)
		}
	}
}
