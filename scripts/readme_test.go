package scripts

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeBlock is the first ```sh block after the README heading.
func readmeBlock(t *testing.T, readme []byte, heading string) string {
	t.Helper()
	_, rest, ok := bytes.Cut(readme, []byte("\n"+heading+"\n"))
	if !ok {
		t.Fatalf("README has no %q", heading)
	}
	_, rest, ok = bytes.Cut(rest, []byte("```sh\n"))
	block, _, ok2 := bytes.Cut(rest, []byte("```"))
	if !ok || !ok2 {
		t.Fatalf("README's %q has no sh block", heading)
	}
	return string(block)
}

// TestReadmeInstallOnAFreshClone runs the README's install block exactly as
// written, its clone URL pointing at this checkout (git's insteadOf), then
// the first command: a fresh clone builds, --version names the commit,
// and the audit of the examples finds the seed incident's storm.
func TestReadmeInstallOnAFreshClone(t *testing.T) {
	if testing.Short() {
		t.Skip("clones and builds")
	}
	need(t, "bash", "git", "go")
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	install := readmeBlock(t, readme, "## Install")
	first := readmeBlock(t, readme, "## First commands")
	firstLine, _, _ := strings.Cut(first, "\n")
	firstLine, _, _ = strings.Cut(firstLine, "#")
	firstLine = strings.TrimSpace(firstLine)
	url := regexp.MustCompile(`git clone (\S+)`).FindStringSubmatch(install)
	if url == nil {
		t.Fatalf("the install block clones nothing:\n%s", install)
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	head, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	dir := t.TempDir()
	gobin := filepath.Join(dir, "bin")
	script := "set -e\n" + install + "\n" + firstLine + " > audit.out || echo \"audit exit $?\" > audit.code\n"
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"),
		// This checkout for the URL; VCS stamping on whatever the
		// machine's go env says (a fresh clone has .git).
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=url."+repo+".insteadOf", "GIT_CONFIG_VALUE_0="+url[1],
		"GOFLAGS=-buildvcs=auto")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the install block failed: %v\n%s", err, out)
	}
	// go stamps a pseudo-version naming the commit (v0.0.0-DATE-REV).
	if !regexp.MustCompile(`(?m)^stormcheck \S*` + string(head[:12]) + `\S*$`).Match(out) {
		t.Errorf("--version does not name commit %.12s:\n%s", head, out)
	}
	clone := filepath.Join(dir, "stormcheck")
	if code, _ := os.ReadFile(filepath.Join(clone, "audit.code")); string(code) != "audit exit 1\n" {
		t.Errorf("%s: %q, want exit 1 (the examples hold a retry storm)", firstLine, code)
	}
	if b, _ := os.ReadFile(filepath.Join(clone, "audit.out")); !bytes.Contains(b, []byte("[RS301 unbounded-spend]")) {
		t.Errorf("%s printed no RS301:\n%s", firstLine, b)
	}
}

// TestDocsCiteFilesThatExist: the repository's Markdown links only to files
// it holds, and names no top-level document (DESIGN.md, STYLE.md) that is
// not in it: a reader of a clone has nothing else.
func TestDocsCiteFilesThatExist(t *testing.T) {
	root := ".."
	var docs []string
	for _, g := range []string{"*.md", "docs/*.md", "testdata/*/README.md"} {
		m, _ := filepath.Glob(filepath.Join(root, g))
		docs = append(docs, m...)
	}
	if len(docs) < 8 {
		t.Fatalf("found only %v", docs)
	}
	link := regexp.MustCompile(`\]\(([^)#\s]+)(?:#[^)]*)?\)`)
	named := regexp.MustCompile(`\b[A-Z][A-Z_-]*\.md\b`)
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllSubmatch(b, -1) {
			target := string(m[1])
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(doc), target)); err != nil {
				t.Errorf("%s links to %s, which is not in the repository", doc, target)
			}
		}
		for _, m := range named.FindAll(b, -1) {
			if _, err := os.Stat(filepath.Join(root, string(m))); err != nil {
				t.Errorf("%s cites %s, which is not in the repository", doc, m)
			}
		}
	}
}
