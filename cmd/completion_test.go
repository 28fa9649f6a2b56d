package cmd

import (
	"path/filepath"
	"strings"
	"testing"
)

// complete runs cobra's hidden __complete command, as the shell scripts
// of `stormcheck completion` do, and returns the candidates and directive.
func complete(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	r := run(t, append([]string{"__complete"}, args...)...)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], ":") {
		t.Fatalf("%v: no directive in %q (stderr %q)", args, r.stdout, r.stderr)
	}
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// TestCompletion: completion offers rule IDs and names (in a comma list,
// with "-" in --enable), formats, severities, and the dependencies of the
// workflows given for simulate --outage.
func TestCompletion(t *testing.T) {
	examples := filepath.Join("..", "testdata", "examples")
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"audit", "--disable", "RS10"}, []string{
			"RS101\tRS101 attempt-budget: worst-case attempts per operation exceed the budget", "RS102\tRS102 self-trigger-loop: the workflow can re-start itself with no bound",
			"RS103\tRS103 unbounded-loop: a loop through an external call has no guard", "RS104\tRS104 nested-retries: more than one layer retries the same operation",
			"RS105\tRS105 " + ruleTitle(t, "RS105"), "RS106\tRS106 " + ruleTitle(t, "RS106")}},
		{[]string{"audit", "--disable", "RS101,nested"}, []string{"RS101,nested-retries\tRS104 nested-retries: more than one layer retries the same operation"}},
		{[]string{"audit", "--enable", "RS1*,-unbounded-s"}, []string{"RS1*,-unbounded-spend\tRS301 " + ruleTitle(t, "RS301")}},
		{[]string{"audit", "--enable", "a"}, []string{"all\tevery rule", "always-fails\tRS010 " + ruleTitle(t, "RS010"), "attempt-budget\tRS101 attempt-budget: worst-case attempts per operation exceed the budget",
			"agent-repeated-write\tRS205 " + ruleTitle(t, "RS205")}},
		{[]string{"explain", "rs50"}, []string{"RS501\tRS501 " + ruleTitle(t, "RS501"), "RS502\tRS502 " + ruleTitle(t, "RS502"),
			"RS503\tRS503 " + ruleTitle(t, "RS503"), "RS504\tRS504 " + ruleTitle(t, "RS504"), "RS505\tRS505 " + ruleTitle(t, "RS505"),
			"RS506\tRS506 " + ruleTitle(t, "RS506")}},
		{[]string{"audit", "--format", ""}, []string{"text", "concise", "json", "sarif", "github", "markdown", "junit", "gitlab"}},
		{[]string{"audit", "--fail-on", ""}, []string{"error", "warning", "note", "never"}},
		{[]string{"simulate", "--format", ""}, []string{"text", "json", "svg"}},
		{[]string{"simulate", examples, "--outage", "o"}, []string{"openai:"}},
		{[]string{"simulate", filepath.Join(examples, "charge-card.json"), "--outage", ""}, []string{"api.payments.example.com:"}},
	} {
		got, _ := complete(t, tt.args...)
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%v:\n got %q\nwant %q", tt.args, got, tt.want)
		}
	}
}

// ruleTitle is "name: title" of a rule, as completion describes it.
func ruleTitle(t *testing.T, id string) string {
	t.Helper()
	got, _ := complete(t, "explain", id)
	for _, c := range got {
		if _, desc, ok := strings.Cut(c, "\t"); ok && strings.HasPrefix(c, id+"\t") {
			return strings.TrimPrefix(desc, id+" ")
		}
	}
	t.Fatalf("no rule %s", id)
	return ""
}
