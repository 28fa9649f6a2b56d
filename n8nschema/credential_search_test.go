package n8nschema

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestCredentialSearch: takesCredential and AsksCredential, which search
// the table's text for a type, answer as reading it field by field does,
// for every entry of the table and every type it lists, and for texts
// where a listed name holds another ("openAiApi" in "azureOpenAiApi") or
// a name is cut by "?" or ":".
func TestCredentialSearch(t *testing.T) {
	takes := func(creds, typ string) bool {
		for c := range strings.FieldsSeq(creds) {
			c, _, _ = strings.Cut(c, ":")
			if strings.TrimSuffix(c, "?") == typ {
				return true
			}
		}
		return false
	}
	asks := func(creds string) bool {
		for c := range strings.FieldsSeq(creds) {
			if !strings.HasSuffix(c, "?") {
				return true
			}
		}
		return false
	}
	texts := []string{"", "openAiApi", "azureOpenAiApi", "openAiApi?", "azureOpenAiApi? openAiApi2",
		"openAiApiX:authentication=openAiApi", "a? b?", "a? b", "a:x=b? b?", "openAiApi:authentication=a,b openAiApi?"}
	names := map[string]bool{"": true, "openAiApi": true, "OpenAiApi": true, "Api": true, "a": true, "b": true, "x=b": true, "openAiApiX": true,
		// Names holding what ends a listed name, which a search could find
		// spanning one: a workflow may give any.
		"a?": true, "a? b": true, "a:x": true, "openAiApiX:authentication": true, "gmailOAuth2:oAuth2": true, "acuitySchedulingApi:apiKey": true}
	for _, es := range nodeTable() {
		for _, e := range es {
			if strings.ContainsAny(e.creds, "\t\n\r") || strings.Contains(e.creds, "  ") {
				t.Errorf("creds %q: the table writes one space between types", e.creds)
			}
			texts = append(texts, e.creds)
			for c := range strings.FieldsSeq(e.creds) {
				name, _, _ := strings.Cut(c, ":")
				names[strings.TrimSuffix(name, "?")] = true
			}
		}
	}
	for _, creds := range texts {
		d := NodeVersion{e: &nodeEntry{creds: creds}}
		if got, want := d.AsksCredential(), asks(creds); got != want {
			t.Errorf("AsksCredential(%q) = %v, want %v", creds, got, want)
		}
		for _, typ := range slices.Sorted(maps.Keys(names)) {
			if got, want := d.takesCredential(typ), takes(creds, typ); got != want {
				t.Errorf("takesCredential(%q, %q) = %v, want %v", creds, typ, got, want)
			}
		}
	}
}
