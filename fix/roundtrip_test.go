package fix

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/rules"
)

func checker(opts analyze.Options) Check {
	return func(files []*n8nschema.File) (*analyze.Set, []analyze.Finding) {
		set := analyze.Build(files, opts)
		return set, analyze.Run(set, rules.All())
	}
}

func parseFiles(t *testing.T, paths ...string) []*n8nschema.File {
	t.Helper()
	var out []*n8nschema.File
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, n8nschema.Parse(n8nschema.NewSource(filepath.ToSlash(p), b)))
	}
	return out
}

// writtenKey matches the members a repair writes or expands; a line the
// fix removes from a file must hold one of them.
var writtenKey = regexp.MustCompile(`"(retryOnFail|maxTries|waitBetweenTries|maxRetries|executionTimeout|settings|sendHeaders|headerParameters|parameters|options|maxTokens|maxTokensToSample|maxOutputTokens|responseMode)"`)

// prefixedOnly reports a removed line that an added line of the diff
// holds again with "=" inserted after opening quotes only: the RS012
// repair begins string values with "=" (ExpressionPrefix).
func prefixedOnly(removed string, lines []string) bool {
	was := removed[1:]
	for _, l := range lines {
		if !strings.HasPrefix(l, "+") || strings.HasPrefix(l, "+++") {
			continue
		}
		if now := l[1:]; len(now) > len(was) && strings.ReplaceAll(now, `"=`, `"`) == strings.ReplaceAll(was, `"=`, `"`) {
			return true
		}
	}
	return false
}

// RoundTrip checks the contract of --fix on one analysis set: no round is
// undone, every repaired finding is gone and none is new, every changed
// file is valid JSON with the same line endings, a one-line file stays one
// line, the diff removes only lines of the members it changes, and a
// second run changes no byte. It returns the result.
func RoundTrip(t *testing.T, files []*n8nschema.File, opts analyze.Options, o Options, unsafe bool) *Result {
	t.Helper()
	check := checker(opts)
	set, first := check(files)
	Attach(set, first, o)
	res, err := Files(files, check, o, unsafe)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Undone {
		t.Errorf("a fix round was undone: it brought %s on %q in %s: %s", f.RuleID, f.Node, f.File, f.Message)
	}
	left := tallyOf(res.Findings)
	for i := range first {
		f := &first[i]
		if f.Repair == nil || f.Repair.Safety == analyze.Unsafe && !unsafe {
			continue
		}
		if left.keys[key(f)] {
			t.Errorf("%s: %s on %q has a repair but is still reported: %s", f.File, f.RuleID, f.Node, f.Repair.Description)
		}
	}
	if nf := newFindings(tallyOf(first), res.Findings); len(nf) > 0 {
		t.Errorf("a new finding appeared after --fix: %s on %q", nf[0].RuleID, nf[0].Node)
	}
	for i, f := range res.Files {
		old := files[i].Source.Src
		now := f.Source.Src
		if bytes.Equal(old, now) {
			continue
		}
		if !json.Valid(trimBOM(now)) {
			t.Errorf("%s: invalid JSON after the fix", f.Source.Name)
		}
		if bytes.HasPrefix(old, []byte("\xef\xbb\xbf")) != bytes.HasPrefix(now, []byte("\xef\xbb\xbf")) {
			t.Errorf("%s: the byte-order mark changed", f.Source.Name)
		}
		if crlf := bytes.Count(old, []byte("\r\n")) > 0; crlf && bytes.Count(now, []byte("\n")) != bytes.Count(now, []byte("\r\n")) {
			t.Errorf("%s: a CRLF file got a bare LF", f.Source.Name)
		}
		if bytes.Count(old, []byte("\n")) == 0 && bytes.Count(now, []byte("\n")) != 0 {
			t.Errorf("%s: a one-line file got more lines", f.Source.Name)
		}
		lines := strings.Split(Diff(f.Source.Name, old, now), "\n")
		for _, l := range lines {
			if strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---") && !writtenKey.MatchString(l) && !prefixedOnly(l, lines) {
				t.Errorf("%s: the fix removed a line it did not mean to change: %q", f.Source.Name, l)
			}
		}
	}
	again, err := Files(res.Files, check, o, unsafe)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Changed) > 0 {
		t.Errorf("a second --fix changed %v", again.Changed)
	}
	return res
}

func TestRoundTripExamples(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/examples/*.json")
	files := parseFiles(t, paths...)
	res := RoundTrip(t, files, analyze.DefaultOptions(), Options{MaxTokens: 800}, true)
	// Safe: the caller retry of "Charge order" around the charge that
	// retries itself (RS104). Unsafe: the catalog enrichment's
	// executionTimeout (RS504) and three output caps (RS302).
	if res.Fixed != 6 {
		t.Errorf("fixed %d findings in the examples, want 6", res.Fixed)
	}
	want := "../testdata/examples/catalog-enrichment.json,../testdata/examples/checkout-charge-order.json," +
		"../testdata/examples/error-summary.json,../testdata/examples/support-chat-agent.json"
	if got := strings.Join(res.Changed, ","); got != want {
		t.Errorf("unsafe fixes changed %v, want %v", got, want)
	}
	safe, err := Files(files, checker(analyze.DefaultOptions()), Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"../testdata/examples/checkout-charge-order.json"}; strings.Join(safe.Changed, ",") != strings.Join(want, ",") {
		t.Errorf("safe fixes changed %v, want %v", safe.Changed, want)
	}
}

func TestRoundTripRuleFixtures(t *testing.T) {
	dirs, _ := filepath.Glob("../rules/testdata/RS*")
	fixedAny := 0
	for _, d := range dirs {
		paths, _ := filepath.Glob(filepath.Join(d, "*.json"))
		for _, p := range paths {
			t.Run(filepath.Base(d)+"/"+filepath.Base(p), func(t *testing.T) {
				opts := analyze.DefaultOptions()
				if b, err := os.ReadFile(strings.TrimSuffix(p, ".json") + ".options"); err == nil {
					if err := json.Unmarshal(b, &opts); err != nil {
						t.Fatal(err)
					}
				}
				res := RoundTrip(t, parseFiles(t, p), opts, Options{MaxTokens: 800}, true)
				fixedAny += res.Fixed
			})
		}
	}
	if fixedAny == 0 {
		t.Error("no rule fixture was fixed")
	}
}

func TestIdempotencyKeyKeepsEachStyle(t *testing.T) {
	for _, name := range []string{"stripe_charge.json", "stripe_charge_compact.json", "stripe_charge_crlf_bom.json"} {
		t.Run(name, func(t *testing.T) {
			files := parseFiles(t, filepath.Join("testdata", name))
			safe, err := Files(files, checker(analyze.DefaultOptions()), Options{}, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(safe.Changed) != 0 {
				t.Errorf("safe fixes changed %v; the header is an unsafe fix", safe.Changed)
			}
			res := RoundTrip(t, files, analyze.DefaultOptions(), Options{}, true)
			if res.Fixed != 1 {
				t.Errorf("fixed %d findings, want 1 (RS201)", res.Fixed)
			}
			n := res.Files[0].Workflows[0].Node("Create charge")
			k, ok := n8nschema.IdempotencyKeyOf(n)
			if !ok || k.Name.Name != "Idempotency-Key" || k.Value != "={{ $json.order_id }}-create-charge" {
				t.Errorf("key after the fix: %+v, %v", k, ok)
			}
			if v, _ := n.Param("sendHeaders"); !v.True() {
				t.Error("sendHeaders is not true")
			}
		})
	}
}

func TestApplyRejectsOverlap(t *testing.T) {
	src := []byte(`{"a": true}`)
	_, err := Apply(src, []analyze.Edit{{Offset: 6, Len: 4, Text: "false"}, {Offset: 8, Len: 1, Text: "x"}})
	if err == nil {
		t.Error("want an error for overlapping edits")
	}
	got, err := Apply(src, []analyze.Edit{{Offset: 6, Len: 4, Text: "false"}, {Offset: 1, Text: `"b": 1, `}})
	if err != nil || string(got) != `{"b": 1, "a": false}` {
		t.Errorf("got %s, %v", got, err)
	}
}

func TestDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	now := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk"
	want := "--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -8,3 +8,4 @@\n h\n i\n j\n+k\n\\ No newline at end of file\n"
	if got := Diff("x", []byte(old), []byte(now)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if Diff("x", []byte(old), []byte(old)) != "" {
		t.Error("equal inputs give a diff")
	}
}

func TestIdempotencyKeyNotAddedTwice(t *testing.T) {
	// An empty Idempotency-Key is no key (RS201 fires), but the header is
	// there: a second one would make two; the value is the author's to set.
	b, err := os.ReadFile(filepath.Join("testdata", "stripe_charge.json"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), `"method": "POST",`, `"sendHeaders": true,
        "headerParameters": {"parameters": [{"name": "Idempotency-Key", "value": ""}]},
        "method": "POST",`, 1)
	reps := repairsOf(t, src, analyze.DefaultOptions())
	r, ok := reps["RS201 Create charge"]
	if !ok {
		t.Fatalf("no RS201: %v", reps)
	}
	if r != nil {
		t.Errorf("a repair adds a second header: %+v", r)
	}
}

// RS506 reports one finding per workflow however many nodes ask for
// retry settings n8n cuts; its one repair writes the settings n8n runs on
// every node it names, so a single round leaves none.
func TestRetryAsRunMendsEveryNodeOfTheFinding(t *testing.T) {
	files := parseFiles(t, "../rules/testdata/RS506/long_wait_leads_the_others.json")
	check := checker(analyze.DefaultOptions())
	set, fs := check(files)
	Attach(set, fs, Options{})
	var found []*analyze.Finding
	for i := range fs {
		if fs[i].RuleID == "RS506" {
			found = append(found, &fs[i])
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d RS506 findings, want 1 for the workflow", len(found))
	}
	f := found[0]
	if f.Repair == nil {
		t.Fatal("the RS506 finding has no repair")
	}
	if got := strings.Count(f.Repair.Description, "Write the retry settings n8n runs on"); got != 6 {
		t.Errorf("the repair names %d nodes, want 6: %s", got, f.Repair.Description)
	}
	plan, taken := Plan(fs, false)
	if len(taken) != 1 {
		t.Fatalf("the first round takes %d repairs, want 1", len(taken))
	}
	next, err := Apply(files[0].Source.Src, plan[files[0].Source])
	if err != nil {
		t.Fatal(err)
	}
	_, after := check([]*n8nschema.File{n8nschema.Parse(n8nschema.NewSource(files[0].Source.Name, next))})
	for _, g := range after {
		if g.RuleID == "RS506" {
			t.Errorf("after one round RS506 is still reported: %s", g.Message)
		}
	}
	RoundTrip(t, files, analyze.DefaultOptions(), Options{}, false)
}
