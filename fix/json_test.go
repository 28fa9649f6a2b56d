package fix

import (
	"encoding/json"
	"testing"
)

func TestSetKeepsStyle(t *testing.T) {
	tests := []struct {
		name, src string
		path      []string
		val       any
		want      string
	}{
		{"replace scalar", `{"a": true, "b": 1}`, []string{"a"}, raw("false"), `{"a": false, "b": 1}`},
		{"compact insert", `{"a":1}`, []string{"r"}, raw("false"), `{"r":false,"a":1}`},
		{"compact spaced insert", `{ "a": 1 }`, []string{"r"}, raw("false"), `{ "r": false, "a": 1 }`},
		{"pretty insert", "{\n  \"a\": 1\n}", []string{"r"}, raw("false"), "{\n  \"r\": false,\n  \"a\": 1\n}"},
		{"crlf insert", "{\r\n\t\"a\": 1\r\n}", []string{"r"}, raw("false"), "{\r\n\t\"r\": false,\r\n\t\"a\": 1\r\n}"},
		{"nested missing, pretty", "{\n  \"p\": {\n    \"x\": 1\n  }\n}", []string{"p", "o", "m"}, raw("2"),
			"{\n  \"p\": {\n    \"o\": {\n      \"m\": 2\n    },\n    \"x\": 1\n  }\n}"},
		{"empty object, pretty parent", "{\n  \"options\": {},\n  \"a\": 1\n}", []string{"options", "m"}, raw("2"),
			"{\n  \"options\": {\n    \"m\": 2\n  },\n  \"a\": 1\n}"},
		{"empty object, compact", `{"options":{}}`, []string{"options", "m"}, raw("2"), `{"options":{"m":2}}`},
		{"key with escapes", `{"a\u0062": 1}`, []string{"ab"}, raw("3"), `{"a\u0062": 3}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := set([]byte(tt.src), 0, tt.path, tt.val, style{})
			if err != nil {
				t.Fatal(err)
			}
			got := tt.src[:e.off] + e.text + tt.src[e.off+e.n:]
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("invalid JSON: %s", got)
			}
		})
	}
}

func TestSetRefusesAmbiguousOrWrongShape(t *testing.T) {
	for _, src := range []string{
		`{"a": 1, "a": 2}`, // which one counts differs between parsers
		`{"a": {"b": 1}}`,  // an object is not replaced by a scalar
		`{"a": "x"}`,       // cannot go below a string
	} {
		path := []string{"a"}
		if src == `{"a": "x"}` {
			path = []string{"a", "b"}
		}
		if _, err := set([]byte(src), 0, path, raw("1"), style{}); err == nil {
			t.Errorf("%s: want an error", src)
		}
	}
}

func TestAppendElem(t *testing.T) {
	src := "{\n  \"h\": {\n    \"parameters\": [\n      {\"name\": \"A\"}\n    ]\n  }\n}"
	e, err := appendElem([]byte(src), 0, []string{"h", "parameters"}, object{{"name", raw(`"B"`)}}, style{})
	if err != nil {
		t.Fatal(err)
	}
	got := src[:e.off] + e.text + src[e.off+e.n:]
	want := "{\n  \"h\": {\n    \"parameters\": [\n      {\n        \"name\": \"B\"\n      },\n      {\"name\": \"A\"}\n    ]\n  }\n}"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestCompactSpacing(t *testing.T) {
	for src, want := range map[string]string{
		`{"a": 1}`:           `{"r": false, "a": 1}`,
		`{"a":1}`:            `{"r":false,"a":1}`,
		`{"a": 1,"b": 2}`:    `{"r": false,"a": 1,"b": 2}`,
		`{ "a": 1, "b": 2 }`: `{ "r": false, "a": 1, "b": 2 }`,
	} {
		e, err := set([]byte(src), 0, []string{"r"}, raw("false"), style{})
		if err != nil {
			t.Fatal(err)
		}
		if got := src[:e.off] + e.text + src[e.off+e.n:]; got != want {
			t.Errorf("%s: got %s, want %s", src, got, want)
		}
	}
}
