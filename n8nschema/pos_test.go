package n8nschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

// findText returns the 1-based line and rune column of the first occurrence
// of text at or after byte offset from. It reads the file line by line, so
// it shares no code with Source.PosAt. The BOM is not a column.
func findText(src []byte, text string, from int) (line, col, off int) {
	i := bytes.Index(src[from:], []byte(text))
	if i < 0 {
		return 0, 0, -1
	}
	off = from + i
	lines := strings.Split(string(src[:off]), "\n")
	last := strings.TrimPrefix(lines[len(lines)-1], "\ufeff")
	return len(lines), utf8.RuneCountInString(last) + 1, off
}

// jsonText is how a string is written in a file: JSON-quoted, <>& as is.
func jsonText(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

type posCase struct {
	name  string
	file  string // relative to ../shared/corpus, or to testdata when local
	local bool
	// Hand-checked positions, read off the file by eye (grep -n and
	// counting): node name → "line:col" of its "name" key, and
	// "node name/param path" → "line:col" of the parameter's key.
	nodes  map[string]string
	params map[string]string
}

var posCases = []posCase{
	{
		name: "pretty LF", file: "n8n-real/Zie619__n8n-workflows/templates/communication/telegram-ai-bot-template.json",
		nodes: map[string]string{"Telegram Trigger": "12:7", "Preprocess Message": "41:7", "Send Response": "139:7"},
		params: map[string]string{
			"Telegram Trigger/updates":                 "6:9",
			"Preprocess Message/values.string.0.value": "26:15",
		},
	},
	{
		name: "CRLF unindented unicode", file: "n8n-real/enescingoz__awesome-n8n-templates/AI_Research_RAG_and_Data_Analysis/Query_Perplexity_AI_from_your_n8n_workflows.json",
		nodes: map[string]string{"When clicking ‘Test workflow’": "5:1", "Set Params": "16:1", "Perplexity Request": "80:1"},
		params: map[string]string{
			"Perplexity Request/url":    "87:1",
			"Perplexity Request/method": "88:1",
		},
	},
	{
		name: "compact one line (export --all)", file: "n8n-exports/cli-export/export-all.json",
		nodes: map[string]string{"HTTP Request": "1:449", "OpenAI Chat Model": "1:1003"},
		params: map[string]string{
			"HTTP Request/url":        "1:397",
			"OpenAI Chat Model/model": "1:898",
		},
	},
	{
		name: "compact one line with non-ASCII before the nodes", file: "n8n-exports/cli-export/export-id-auditKeyOrder004.json",
		nodes: map[string]string{"HTTP ü": "1:329", "Trigger": "1:484"},
		params: map[string]string{
			"HTTP ü/url":             "1:398",
			"HTTP ü/options.timeout": "1:448",
		},
	},
	{
		name: "BOM CRLF unicode (local)", file: "crlf_bom.json", local: true,
		nodes: map[string]string{"Fetch ü": "10:7", "Ünïcode → next": "15:18"},
		params: map[string]string{
			"Fetch ü/url":             "6:9",
			"Fetch ü/options.timeout": "7:21",
			"Ünïcode → next/x":        "15:108",
		},
	},
}

// TestPositions checks node and parameter positions two ways: against
// literal values checked by eye, and for every node against a text search
// of the file for its "name" key.
func TestPositions(t *testing.T) {
	for _, tc := range posCases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			var path string
			if tc.local {
				path = filepath.Join("testdata", tc.file)
			} else {
				path = sharedtest.Path(t, "corpus", tc.file)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := Parse(NewSource(tc.file, src))
			checkFile(t, f)
			if len(f.Workflows) != 1 {
				t.Fatalf("got %d workflows, want 1 (problems: %v)", len(f.Workflows), allProblems(f))
			}
			w := f.Workflows[0]

			// Literal values.
			gotNodes := map[string]string{}
			for name := range tc.nodes {
				if n := w.Node(name); n != nil {
					gotNodes[name] = n.Pos.String()
				}
			}
			if diff := cmp.Diff(tc.nodes, gotNodes); diff != "" {
				t.Errorf("node positions (-want +got):\n%s", diff)
			}
			gotParams := map[string]string{}
			for key := range tc.params {
				node, param, _ := strings.Cut(key, "/")
				if n := w.Node(node); n != nil {
					if v, ok := n.Param(param); ok {
						gotParams[key] = v.Pos().String()
					}
				}
			}
			if diff := cmp.Diff(tc.params, gotParams); diff != "" {
				t.Errorf("parameter positions (-want +got):\n%s", diff)
			}

			// Every node against a text search, in file order.
			from := 0
			for _, n := range w.Nodes {
				if n.Name == "" {
					continue
				}
				want := ""
				for _, sep := range []string{": ", ":"} {
					if line, col, off := findText(src, `"name"`+sep+jsonText(t, n.Name), from); off >= 0 {
						want, from = Pos{Line: line, Col: col}.String(), off+1
						break
					}
				}
				if want == "" {
					t.Fatalf("node %q: its name key is not in the file after offset %d", n.Name, from)
				}
				if got := n.Pos.String(); got != want {
					t.Errorf("node %q at %s, text search says %s", n.Name, got, want)
				}
			}
		})
	}
}

func TestPosAt(t *testing.T) {
	src := NewSource("x.json", []byte("\ufeffab\r\nçd\n\nz"))
	tests := []struct {
		off  int
		want string
	}{
		{0, "1:1"}, // inside the BOM: clamps to the first column
		{3, "1:1"}, // 'a'
		{4, "1:2"}, // 'b'
		{5, "1:3"}, // '\r'
		{7, "2:1"}, // 'ç' (2 bytes)
		{9, "2:2"}, // 'd'
		{10, "2:3"},
		{11, "3:1"},
		{12, "4:1"},
		{13, "4:2"}, // end of file
		{14, "-"},
		{-1, "-"},
	}
	for _, tt := range tests {
		if got := src.PosAt(tt.off, "").String(); got != tt.want {
			t.Errorf("PosAt(%d) = %s, want %s", tt.off, got, tt.want)
		}
	}
	// Any order of questions gets the same answers as a fresh source.
	text := []byte("\ufeff{\"é\": \"ü\",\r\n \"x\": [1, \"→\"]}\n")
	for _, order := range [][]int{{20, 3, 9, 4, 27, 5}, {27, 20, 9, 5, 4, 3}} {
		s := NewSource("y.json", text)
		for _, off := range order {
			if got, want := s.PosAt(off, ""), NewSource("y.json", text).PosAt(off, ""); got != want {
				t.Errorf("order %v: PosAt(%d) = %s, fresh source says %s", order, off, got, want)
			}
		}
	}
	lines := []string{src.Line(0), src.Line(1), src.Line(2), src.Line(3), src.Line(4), src.Line(5)}
	if diff := cmp.Diff([]string{"", "ab", "çd", "", "z", ""}, lines); diff != "" {
		t.Errorf("Line (-want +got):\n%s", diff)
	}
}

// TestPosAtForward: PosAt counts newlines forward from the last position
// asked, and reads the line index only for one before it; on every corpus
// file and on files with a byte-order mark, CRLF, trailing data, invalid
// JSON, the positions of offsets asked forward (every line start, and
// offsets between), then backward, then back and forth between the ends
// agree with a newline index of the checker's own (posChecker).
func TestPosAtForward(t *testing.T) {
	check := func(name string, src []byte) {
		t.Helper()
		s := NewSource(name, src)
		Parse(s)
		c := newPosChecker(t, s)
		var offs []int
		for off := 0; off <= len(src); off++ {
			if off == len(src) || (off == 0 || src[off-1] == '\n' || off%61 == 0) && utf8.RuneStart(src[off]) {
				offs = append(offs, off)
			}
		}
		for _, off := range offs {
			c.pos(fmt.Sprintf("%s forward at %d", name, off), s.PosAt(off, ""))
		}
		for k := len(offs) - 1; k >= 0; k -= 7 {
			c.pos(fmt.Sprintf("%s backward at %d", name, offs[k]), s.PosAt(offs[k], ""))
		}
		// Lines asked in any order, and past the last, span what the
		// newlines say.
		lines := bytes.Split(src, []byte{'\n'})
		for _, n := range []int{len(lines), 1, 2, len(lines) / 2, len(lines) + 1, len(lines)/2 + 1, 0, 3} {
			start, end := s.LineSpan(n)
			want := ""
			if n >= 1 && n <= len(lines) {
				want = strings.TrimSuffix(string(lines[n-1]), "\r")
				if n == 1 {
					want = strings.TrimPrefix(want, "\ufeff")
				}
			}
			if got := string(src[start:end]); got != want {
				t.Fatalf("%s: LineSpan(%d) = %q, want %q", name, n, got, want)
			}
			c.pos(fmt.Sprintf("%s after LineSpan(%d)", name, n), s.PosAt(offs[len(offs)/2], ""))
		}
		// Far apart (beyond maxBack on a large file: the line index).
		for k := range min(4, len(offs)) {
			for _, off := range []int{offs[len(offs)-1-k], offs[k]} {
				c.pos(fmt.Sprintf("%s back and forth at %d", name, off), s.PosAt(off, ""))
			}
		}
	}
	for i, src := range []string{
		"{}", "{}\n", "\n\n{\n}\n\n", "\ufeff{\r\n\"a\": [\r\n1]\r\n}\r\n", "\ufeff\n{}", "\ufeff{\"ü\": 1}",
		"{\"a\":\n1}\ntrailing\nlines", "{\"a\":\n", "[1,\n2,\n]\n", "\"a\nb\"", "{\"nodes\":[\n{\"name\":\"A\"}\n],\n\"connections\":{}}",
	} {
		check(fmt.Sprintf("inline %d", i), []byte(src))
	}
	eachCorpusFile(t, "n8n-real", check)
}

// TestPosAtOrder: PosAt counts from the last position asked; asked in
// any order, near or far, before or after, every position is the one a
// source asked nothing before gives.
func TestPosAtOrder(t *testing.T) {
	src := []byte("\ufeff{\n  \"a\": 1,\n\n  \"ü\": [\r\n    \"x\", \"y\"\n  ]," + strings.Repeat("\n", 70) + "  \"z\": 2\n}")
	var offs []int // where runes start, as values do
	for off := range len(src) + 1 {
		if off == len(src) || utf8.RuneStart(src[off]) {
			offs = append(offs, off)
		}
	}
	orders := [][]int{offs, slices.Clone(offs), nil}
	slices.Reverse(orders[1])
	for k := range offs {
		orders[2] = append(orders[2], offs[(k*37)%len(offs)], offs[len(offs)-1-k])
	}
	for _, order := range orders {
		s := NewSource("o.json", src)
		for _, off := range order {
			if got, want := s.PosAt(off, ""), NewSource("o.json", src).PosAt(off, ""); got != want {
				t.Fatalf("PosAt(%d) = %+v, alone %+v", off, got, want)
			}
		}
	}
}

// TestRuneCount: runeCount, eight ASCII bytes at a time, counts as
// utf8.RuneCount does wherever a multi-byte rune or an invalid byte
// stands, and on every length around a word's.
func TestRuneCount(t *testing.T) {
	for n := range 20 {
		for _, odd := range []string{"", "é", "→", "\xff", "\xe2\x86"} {
			for at := 0; at <= n; at++ {
				b := []byte(strings.Repeat("a", at) + odd + strings.Repeat(" ", n-at))
				if got, want := runeCount(b), utf8.RuneCount(b); got != want {
					t.Fatalf("runeCount(%q) = %d, want %d", b, got, want)
				}
			}
		}
	}
}

// TestPosAtLines: every offset's line, asked forward, backward and
// jumping, is one more than the newlines before it.
func TestPosAtLines(t *testing.T) {
	var sb strings.Builder
	for i := range 300 {
		sb.WriteString(strings.Repeat(" ", i%7) + `"k": 1,` + strings.Repeat("\n", 1+i%5))
	}
	src := []byte(sb.String())
	offs := make([]int, len(src)+1)
	for i := range offs {
		offs[i] = i
	}
	back := slices.Clone(offs)
	slices.Reverse(back)
	var jump []int
	for k := range offs {
		jump = append(jump, offs[(k*997)%len(offs)])
	}
	for _, order := range [][]int{offs, back, jump} {
		s := NewSource("l.json", src)
		for _, off := range order {
			if got, want := s.PosAt(off, "").Line, 1+bytes.Count(src[:off], []byte{'\n'}); got != want {
				t.Fatalf("PosAt(%d).Line = %d, want %d", off, got, want)
			}
		}
	}
}

// TestConnectionPos: a parsed connection's position is its object's, as
// Value.ValuePos gives it; one made by hand has none.
func TestConnectionPos(t *testing.T) {
	f := Parse(NewSource("c.json", []byte("{\"nodes\": [{\"name\": \"A\", \"type\": \"t\"}, {\"name\": \"B\", \"type\": \"t\"}],\n\"connections\": {\"A\": {\"main\": [[\n  {\"node\": \"B\", \"type\": \"main\", \"index\": 0}]]}}}")))
	w := f.Workflows[0]
	if len(w.Connections) != 1 {
		t.Fatalf("connections %v", w.Connections)
	}
	got, want := w.ConnectionPos(&w.Connections[0]), w.Value.Get("connections.A.main.0.0").ValuePos()
	if got != want || got.String() != "3:3" {
		t.Errorf("ConnectionPos = %+v, want %+v at 3:3", got, want)
	}
	if got := w.ConnectionPos(&Connection{From: "A", To: "B"}); got != (Pos{}) {
		t.Errorf("a hand-made connection at %+v, want none", got)
	}
}
