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
	authOf := func(creds, typ string) (AuthCredential, bool) {
		for c := range strings.FieldsSeq(creds) {
			if name, vals, ok := strings.Cut(c, ":"); ok && name == typ {
				return AuthCredential{name, vals}, true
			}
		}
		return AuthCredential{}, false
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
		"openAiApiX:authentication=openAiApi", "a? b?", "a? b", "a:x=b? b?", "openAiApi:authentication=a,b openAiApi?",
		"b:x a:y", "ba:x a:y", "a:x:y", "x:a:y a:z", "a?:x a:y", "aa:x", "aa:x a:y", "a:x,x b:y,x c:xx,x", "a:xy,yx b:y", "a:b:c", "x,y:a,b", "a:,b", "a:b,", "oAuth2:a gmailOAuth2:oAuth2,b"}
	names := map[string]bool{"": true, "openAiApi": true, "OpenAiApi": true, "Api": true, "a": true, "b": true, "x=b": true, "openAiApiX": true,
		// Names holding what ends a listed name, which a search could find
		// spanning one: a workflow may give any.
		"a?": true, "a? b": true, "a:x": true, "openAiApiX:authentication": true, "gmailOAuth2:oAuth2": true, "acuitySchedulingApi:apiKey": true,
		"ba": true, "x": true, "aa": true, "a:": true, " a": true}
	// The values a parameter may hold: every value of the table, and
	// pieces of one, or of several.
	values := map[string]bool{"": true, "a": true, "b": true, "x": true, "y": true, "z": true, "x=b": true, "a,b": true, "x:y": true,
		"authentication=a": true, "auth": true, "Auth2": true, "oAuth2 ": true, "a b": true}
	for _, es := range nodeTable() {
		for _, e := range es {
			for c := range strings.FieldsSeq(e.creds) {
				if _, vals, ok := strings.Cut(c, ":"); ok {
					for _, v := range strings.Split(vals, ",") {
						values[v] = true
					}
				}
			}
		}
	}
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
		var got, want []AuthCredential
		for a := range d.AuthCredentials() {
			got = append(got, a)
		}
		for c := range strings.FieldsSeq(creds) {
			if name, vals, ok := strings.Cut(c, ":"); ok {
				want = append(want, AuthCredential{name, vals})
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("AuthCredentials(%q) = %v, want %v", creds, got, want)
		}
		for _, v := range slices.Sorted(maps.Keys(values)) {
			var got, want []string
			for typ := range d.AuthCredentialsFor(v) {
				got = append(got, typ)
			}
			for c := range strings.FieldsSeq(creds) {
				if name, vals, ok := strings.Cut(c, ":"); ok && slices.Contains(strings.Split(vals, ","), v) {
					want = append(want, name)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("AuthCredentialsFor(%q, %q) = %v, want %v", creds, v, got, want)
			}
		}
		if got, want := d.AsksCredential(), asks(creds); got != want {
			t.Errorf("AsksCredential(%q) = %v, want %v", creds, got, want)
		}
		for _, typ := range slices.Sorted(maps.Keys(names)) {
			if got, want := d.takesCredential(typ), takes(creds, typ); got != want {
				t.Errorf("takesCredential(%q, %q) = %v, want %v", creds, typ, got, want)
			}
			a, ok := d.AuthCredentialOf(typ)
			if wa, wok := authOf(creds, typ); a != wa || ok != wok {
				t.Errorf("AuthCredentialOf(%q, %q) = %v, %v, want %v, %v", creds, typ, a, ok, wa, wok)
			}
		}
	}
}
