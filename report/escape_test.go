package report

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestPrintable(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain name", "plain name"},
		{"Überweisung → Stripe", "Überweisung → Stripe"},
		{"a\nb\r\tc", `a\nb\r\tc`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"\u0085next\u009b", `\u0085next\u009b`},
		{"evil\u202egnp.exe", `evil\u202egnp.exe`},
		{"zero\u200bwidth\ufeff", `zero\u200bwidth\ufeff`},
		// A joiner inside an emoji sequence joins glyphs and stays; one
		// between letters, or at an end, is escaped.
		{"🧑\u200d💻 dev, 🙋\u200d♂\ufe0f hi, 👩🏻\u200d🏫, ❤\ufe0f\u200d🔥", "🧑\u200d💻 dev, 🙋\u200d♂\ufe0f hi, 👩🏻\u200d🏫, ❤\ufe0f\u200d🔥"},
		{"Cre\u200date 🧑\u200d \u200d💻 \u200d", `Cre\u200date 🧑\u200d \u200d💻 \u200d`},
		{"line\u2028sep", `line\u2028sep`},
		{"arabic\u061cmark word\u2060joiner \u2066isolate\u2069 \u200eltr\u200f", `arabic\u061cmark word\u2060joiner \u2066isolate\u2069 \u200eltr\u200f`},
		{"bad \xff byte", `bad \xff byte`},
		{"\x7f", `\x7f`},
	} {
		if got := Printable(tt.in); got != tt.want {
			t.Errorf("Printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNeedsEscapeEveryRune: the byte scan that lets text through without
// a copy agrees with Printable on every rune, alone and between others.
func TestNeedsEscapeEveryRune(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		for _, s := range []string{string(r), "é" + string(r) + "x", "🧑" + string(r) + "💻"} {
			if got, want := needsEscape(s), Printable(s) != s; got != want {
				t.Fatalf("needsEscape(%q) = %v, but Printable changes it: %v", s, got, want)
			}
		}
	}
	if !needsEscape("bad \xff byte") {
		t.Error("invalid UTF-8 needs no escape")
	}
}

func TestMarkdownEscapes(t *testing.T) {
	for _, tt := range []struct{ in, text, code string }{
		{"plain", "plain", "`plain`"},
		{"a|b", `a\|b`, "`a\\|b`"},
		{"![i](https://e.example/i.png)", `!\[i\](https://e.example/i.png)`, "`![i](https://e.example/i.png)`"},
		{"<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;", "`<img src=x onerror=alert(1)>`"},
		{"x` **bold** `y", "x\\` \\*\\*bold\\*\\* \\`y", "``x` **bold** `y``"},
		{"`", "\\`", "`` ` ``"},
		{"a\n# heading", `a\\n# heading`, "`a\\n# heading`"}, // renders as a\n# heading
		{"[l](javascript:x) ~~s~~ _e_ &amp;", `\[l\](javascript:x) \~\~s\~\~ \_e\_ &amp;amp;`, "`[l](javascript:x) ~~s~~ _e_ &amp;`"},
	} {
		if got := mdText(tt.in); got != tt.text {
			t.Errorf("mdText(%q) = %q, want %q", tt.in, got, tt.text)
		}
		if got := mdCode(tt.in); got != tt.code {
			t.Errorf("mdCode(%q) = %q, want %q", tt.in, got, tt.code)
		}
	}
}

func TestMermaidText(t *testing.T) {
	in := "a\"]\nclick n0 href \"javascript:alert(1)\"|x|`#<b>&"
	want := `a#quot;]\nclick n0 href #quot;javascript:alert(1)#quot;#124;x#124;#96;#35;#lt;b#gt;#38;`
	if got := MermaidText(in); got != want {
		t.Errorf("MermaidText(%q)\n got %q\nwant %q", in, got, want)
	}
}

// hostile names: each tries to leave the place a format gives it.
const (
	forgedLine = "Fetch\n::error file=x,line=1::forged"
	escName    = "Paint \x1b[2J\x1b[31mred\r"
	mdName     = "x` | ![i](https://e.example/i.png) <img src=x>\n# Heading"
	tokenName  = "Call Bearer s3cr3tT0kenABCDEFGH42"
	token      = "s3cr3tT0kenABCDEFGH42"
	hostileWF  = "Nightly\n::warning::forged ![w](https://e.example/w.png)"
	hostileDir = "flows/a\n::error::b"
)

// hostileResult is an analysis of a generated workflow whose node and
// workflow names and file name try to forge lines, styles and markup, with
// findings that quote them the way a careless rule would (%s, not %q).
func hostileResult(t *testing.T) *Result {
	t.Helper()
	names := []string{forgedLine, escName, mdName, tokenName}
	var nodes []map[string]any
	for i, n := range names {
		nodes = append(nodes, map[string]any{"id": string(rune('a' + i)), "name": n, "type": "n8n-nodes-base.httpRequest",
			"typeVersion": 4, "position": []int{i * 200, 0}, "parameters": map[string]any{"url": "https://api.example.com"}})
	}
	src, err := json.Marshal(map[string]any{"name": hostileWF, "id": "w1", "nodes": nodes, "connections": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	file := n8nschema.Parse(n8nschema.NewSource(hostileDir+".json", src))
	set := &analyze.Set{Files: []*n8nschema.File{file}, Workflows: file.Workflows, Options: analyze.DefaultOptions()}
	w := file.Workflows[0]
	rule := testRules()[1] // RS101
	var chain []analyze.Factor
	for _, n := range names {
		chain = append(chain, analyze.Factor{Kind: analyze.KindNodeRetry, Value: 2, Node: n, Via: n, Workflow: w.Name, Pos: w.Node(n).Pos, Source: w.Source})
	}
	var fs []analyze.Finding
	for _, n := range names {
		f := analyze.Finding{
			RuleID: rule.ID, RuleName: rule.Name, RuleTitle: rule.Title, URL: rule.HelpURI(), Severity: rule.Severity,
			Confidence: rule.Confidence, File: w.Source.Name, Source: w.Source, Pos: w.Node(n).Pos, Workflow: w.Name,
			WorkflowID: w.ID, Node: n, Message: "node " + n + " makes 16 attempts", Fix: "lower the retries of " + n, Chain: chain,
			Related: []analyze.Related{{File: w.Source.Name, Pos: w.Node(n).Pos, Message: "see " + n}},
		}
		f.Fingerprint = analyze.Fingerprint(&f)
		fs = append(fs, f)
	}
	set.Operations = []*analyze.Operation{{Workflow: w, Node: w.Node(forgedLine), Type: "n8n-nodes-base.httpRequest",
		Dependency: "api.example.com", Attempts: 16, CallsPerItem: 1, Factors: chain}}
	r := wholeResult(set, fs)
	r.Tool, r.Rules = Tool{Name: "stormcheck", Version: "1.0.0"}, testRules()
	r.Summary = Summary{Files: 1, Workflows: 1, Nodes: len(names)}
	r.Summary.Count(fs)
	return r
}

func renderAll(t *testing.T, r *Result) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, format := range Formats {
		for _, color := range []bool{false, true} {
			if color && format != "text" {
				continue
			}
			rd, err := New(format, Options{Color: color, TTY: color})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := rd.Render(&b, r); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			name := format
			if color {
				name += "+color"
			}
			out[name] = b.String()
		}
	}
	return out
}

// TestHostileNamesStayData: no format lets a name start a line, write a
// control character, or add Markdown or HTML.
func TestHostileNamesStayData(t *testing.T) {
	outs := renderAll(t, hostileResult(t))
	sgr := regexp.MustCompile(`\x1b\[[0-9;]*m`) // our own styling, text+color only
	for format, out := range outs {
		plain := out
		if format == "text+color" {
			plain = sgr.ReplaceAllString(out, "")
		}
		for i, line := range strings.Split(plain, "\n") {
			if format != "github" && strings.HasPrefix(line, "::") {
				t.Errorf("%s: line %d forges a workflow command: %q", format, i+1, line)
			}
			if strings.Contains(line, "forged") && !strings.Contains(line, `\n::`) && format != "json" && format != "sarif" {
				// The name shows, but only with its newline escaped.
				t.Errorf("%s: line %d shows a forged command unescaped: %q", format, i+1, line)
			}
			if strings.ContainsAny(line, "\x1b\r\x00") {
				t.Errorf("%s: line %d holds a control character: %q", format, i+1, line)
			}
		}
	}
	// GitHub: one annotation per finding, nothing else starts a command.
	gh := strings.Split(strings.TrimSuffix(outs["github"], "\n"), "\n")
	if len(gh) != 4 {
		t.Errorf("github: %d lines, want 4 annotations:\n%s", len(gh), outs["github"])
	}
	for _, l := range gh {
		if !strings.HasPrefix(l, "::warning file=") {
			t.Errorf("github: not one annotation: %q", l)
		}
	}
	// Markdown: the headings, table rows and fences are ours.
	md, diagram, _ := strings.Cut(outs["markdown"], "```mermaid")
	if strings.Contains(diagram, "`") && !strings.HasSuffix(diagram, "\n```\n") || strings.Count(diagram, "```") != 1 {
		t.Errorf("markdown: a label ends the diagram's fence:\n%s", diagram)
	}
	for _, bad := range []string{"![i]", "![w]", "<img", "\n# Heading", "\n::"} {
		if strings.Contains(md, bad) {
			t.Errorf("markdown holds %q:\n%s", bad, md)
		}
	}
	var headings, rows int
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
			headings++
		case strings.HasPrefix(line, "| warning"):
			rows++
			if n := len(regexp.MustCompile(`(^|[^\\])\|`).FindAllString(line, -1)); n != 7 {
				t.Errorf("markdown row has %d cell separators, want 7: %q", n, line)
			}
		}
	}
	if headings != 2 || rows != 4 {
		t.Errorf("markdown: %d headings and %d rows, want 2 and 4:\n%s", headings, rows, md)
	}
}

// TestNamesAreRedacted: a token in a node name is a secret wherever the
// name is printed: chain, message, JSON fields, SARIF code flows.
func TestNamesAreRedacted(t *testing.T) {
	for format, out := range renderAll(t, hostileResult(t)) {
		if strings.Contains(out, token) {
			t.Errorf("%s shows the token of a node name:\n%s", format, out)
		}
	}
}
