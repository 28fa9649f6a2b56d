package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// writeTree writes files (slash paths → contents) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func example(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// auditedFiles are the files a JSON report names (its workflows').
func auditedFiles(t *testing.T, r result) []string {
	t.Helper()
	var doc struct{ Workflows []struct{ File string } }
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v in %q (stderr %q)", err, r.stdout, r.stderr)
	}
	var files []string
	for _, w := range doc.Workflows {
		if !slices.Contains(files, w.File) {
			files = append(files, w.File)
		}
	}
	sort.Strings(files)
	return files
}

// TestConfigYml: .stormcheck.yml is read like .stormcheck.yaml; both in
// one folder is an error that names both.
func TestConfigYml(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	writeTree(t, dir, map[string]string{"wf/charge-card.json": example(t, "charge-card.json"), ".stormcheck.yml": "rules:\n  disable: [RS201]\n"})
	r := auditIn(t, dir, "audit", "--format", "json", "--fail-on", "never", "wf")
	for _, f := range decodeReport(t, r.stdout).Findings {
		if f.Rule == "RS201" {
			t.Errorf(".stormcheck.yml was not read: RS201 reported")
		}
	}
	writeTree(t, dir, map[string]string{".stormcheck.yaml": "fail_on: never\n"})
	r = auditIn(t, dir, "audit", "wf")
	if r.code != ExitUsage || !strings.Contains(r.stderr, ".stormcheck.yaml and .stormcheck.yml are both in .: keep one") {
		t.Errorf("exit %d, stderr %q; want a usage error naming both", r.code, r.stderr)
	}
}

// TestConfigExclude: exclude globs leave files of a folder walk out (**
// for any folders, a name glob at any depth); a named file is read.
func TestConfigExclude(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	wf := example(t, "order-sync-careful.json")
	writeTree(t, dir, map[string]string{
		".stormcheck.yaml":                 "exclude:\n  - archive/**\n  - '*.bak.json'\n  - wf/**/old/*.json\n",
		"wf/a.json":                        wf,
		"wf/a.bak.json":                    wf,
		"wf/deep/x/old/b.json":             wf,
		"wf/deep/x/older/b.json":           wf,
		"archive/2024/c.json":              wf,
		"archived.json":                    wf,
		"wf/sub/archive/not-anchored.json": wf,
	})
	r := auditIn(t, dir, "audit", "--format", "json", "--fail-on", "never", ".")
	want := []string{"archived.json", "wf/a.json", "wf/deep/x/older/b.json", "wf/sub/archive/not-anchored.json"}
	if got := auditedFiles(t, r); !slices.Equal(got, want) {
		t.Errorf("audited %v, want %v", got, want)
	}
	r = auditIn(t, dir, "audit", "--format", "json", "--fail-on", "never", "wf/a.bak.json")
	if got := auditedFiles(t, r); !slices.Equal(got, []string{"wf/a.bak.json"}) {
		t.Errorf("a named file: audited %v", got)
	}
	r = auditIn(t, dir, "audit", "--format", "json", "--fail-on", "never", "--skip-non-workflow", "wf/a.bak.json", "wf/a.json")
	if got := auditedFiles(t, r); !slices.Equal(got, []string{"wf/a.json"}) {
		t.Errorf("--skip-non-workflow (pre-commit): audited %v, want the named files not excluded", got)
	}
	writeTree(t, dir, map[string]string{".stormcheck.yaml": "exclude: ['[']\n"})
	if r := auditIn(t, dir, "audit", "."); r.code != ExitUsage || !strings.Contains(r.stderr, ".stormcheck.yaml:1: exclude[0]: bad glob \"[\"") {
		t.Errorf("bad glob: exit %d, %q", r.code, r.stderr)
	}
}

// TestGitignoreWalk: a folder walk leaves out what git ignores; a named
// file is read; --no-gitignore reads them all; an ignored copy of a
// workflow no longer feeds RS505 on the real one.
func TestGitignoreWalk(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	seed := example(t, "catalog-enrichment.json")
	copyOf := strings.Replace(seed, `"id": "CtlgEnrich7Qx2Lp"`, `"id": "CtlgEnrichCopy01"`, 1)
	if copyOf == seed {
		t.Fatal("the seed's id was not found")
	}
	writeTree(t, dir, map[string]string{".gitignore": "build/\n", "wf/catalog-enrichment.json": seed, "build/wf/catalog-enrichment.json": copyOf})
	rs505 := func(r result) bool {
		for _, f := range decodeReport(t, r.stdout).Findings {
			if f.Rule == "RS505" {
				return true
			}
		}
		return false
	}
	r := auditIn(t, dir, "audit", "--format", "json", "--fail-on", "never", ".")
	if got := auditedFiles(t, r); !slices.Equal(got, []string{"wf/catalog-enrichment.json"}) || rs505(r) {
		t.Errorf("audited %v (RS505 %v), want the real file alone, no RS505", got, rs505(r))
	}
	r = auditIn(t, dir, "audit", "--format", "json", "--fail-on", "never", "--no-gitignore", ".")
	if got := auditedFiles(t, r); len(got) != 2 || !rs505(r) {
		t.Errorf("--no-gitignore: audited %v (RS505 %v), want both and the copy feeding RS505", got, rs505(r))
	}
	r = auditIn(t, dir, "audit", "--format", "json", "--fail-on", "never", "build/wf/catalog-enrichment.json")
	if got := auditedFiles(t, r); len(got) != 1 {
		t.Errorf("a named ignored file: audited %v", got)
	}
}

// TestShowConfig: --show-config names the file loaded and prints the
// settings merged (a flag over the config), with the inputs left.
func TestShowConfig(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	writeTree(t, dir, map[string]string{
		".stormcheck.yml": "fail_on: warning\nmax_attempts: 6\nexclude: [old/**]\nrules:\n  disable: [RS5*]\n",
		"wf/a.json":       example(t, "charge-card.json"), "old/b.json": example(t, "charge-card.json"),
	})
	r := auditIn(t, dir, "audit", "--show-config", "--max-attempts", "4", ".")
	for _, want := range []string{"config: .stormcheck.yml\n", "fail_on: warning\n", "max_attempts: 4\n", "exclude:\n  - old/**\n", "gitignore: true\n", "inputs:\n  - wf/a.json\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--show-config lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code != ExitOK || strings.Contains(r.stdout, "RS501") || !strings.Contains(r.stdout, "  - RS101 attempt-budget\n") {
		t.Errorf("exit %d; rules:\n%s", r.code, r.stdout)
	}
	r = auditIn(t, t.TempDir(), "audit", "--show-config")
	if r.code != ExitOK || !strings.Contains(r.stdout, "# no .stormcheck.yaml or .stormcheck.yml") || !strings.Contains(r.stdout, "config: null\n") {
		t.Errorf("no config: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestDuplicateWorkflowIDAcrossFiles: a copy of a workflow in another file
// (same id) is RS009 at the later file, the first as the related place; a
// git-ignored copy is not read, so neither RS009 nor RS505 sees it.
func TestDuplicateWorkflowIDAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	seed := example(t, "catalog-enrichment.json")
	writeTree(t, dir, map[string]string{".gitignore": "/backup/\n", "wf/catalog-enrichment.json": seed, "backup/catalog-enrichment.json": seed})
	var doc struct {
		Findings []struct {
			Rule, File, Message string
			Related             []struct{ File string }
		}
	}
	r := auditIn(t, dir, "audit", "--format", "json", "--fail-on", "never", "--no-gitignore", ".")
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range doc.Findings {
		if f.Rule == "RS009" || f.Rule == "RS505" {
			rel := ""
			if len(f.Related) > 0 {
				rel = f.Related[0].File
			}
			got = append(got, f.Rule+" "+f.File+" → "+rel)
		}
	}
	want := []string{"RS009 backup/catalog-enrichment.json → wf/catalog-enrichment.json", "RS505 backup/catalog-enrichment.json → wf/catalog-enrichment.json"}
	if !slices.Equal(got, want) {
		t.Errorf("--no-gitignore: %q, want %q", got, want)
	}
	r = auditIn(t, dir, "audit", "--format", "json", "--fail-on", "never", ".")
	for _, f := range decodeReport(t, r.stdout).Findings {
		if f.Rule == "RS009" || f.Rule == "RS505" {
			t.Errorf("the ignored copy still counts: %s %s", f.Rule, f.Message)
		}
	}
}

// TestSimulateLeavesIgnoredCopiesOut: simulate reads a folder as audit
// does: a git-ignored copy of a workflow sends no attempts of its own.
func TestSimulateLeavesIgnoredCopiesOut(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	seed := example(t, "catalog-enrichment.json")
	writeTree(t, dir, map[string]string{".gitignore": "old/\n", "wf/catalog-enrichment.json": seed,
		"old/catalog-enrichment.json": strings.Replace(seed, `"id": "CtlgEnrich7Qx2Lp"`, `"id": "CtlgEnrichOld001"`, 1)})
	sent := func(args ...string) float64 {
		r := auditIn(t, dir, append([]string{"simulate", "--format", "json", "--outage", "openai:30s", "--executions", "4"}, args...)...)
		var doc struct {
			Totals struct {
				Arrived float64 `json:"executions_arrived"`
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%v: %s", err, r.stderr)
		}
		return doc.Totals.Arrived
	}
	if a, b, all := sent("."), sent("wf"), sent("--no-gitignore", "."); a != b || a == 0 || all != 2*a {
		t.Errorf("the folder with an ignored copy: %v executions, the real file alone %v, both %v", a, b, all)
	}
}
