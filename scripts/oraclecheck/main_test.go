package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

func TestOffBy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n8n, sim []int64
		want     int
	}{
		{"n8n's own time", []int64{0, 1100, 2200}, []int64{0, 1000, 2000}, -1},
		// A wait of 5 s where simulate waits 1 s is found at once.
		{"wrong wait", []int64{0, 5000, 10000}, []int64{0, 1000, 2000}, 1},
		// The SDK's random backoff: one wait step apart at most.
		{"random backoff", []int64{0, 1700, 4500, 9500, 18700, 39500, 102400}, []int64{0, 1100, 3900, 7900, 22100, 41400, 77500}, -1},
		{"a missing step", []int64{0, 1000, 2000, 8000}, []int64{0, 1000, 2000, 3000}, 3},
	} {
		if got, _ := offBy(tc.n8n, tc.sim); got != tc.want {
			t.Errorf("%s: offBy = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestFirstRun(t *testing.T) {
	got := firstRun([]int64{0, 1000, 1300, 2300}, []int64{1200, 1250})
	if want := []int64{0, 1000}; !slices.Equal(got, want) {
		t.Errorf("firstRun = %v, want %v", got, want)
	}
}

// TestCases: every workflow of testdata/engine has its line in cases.tsv
// and the other way round, parses without a problem, and has an
// operation on each dependency its line says is down, so that the
// harness compares something in n8n.
func TestCases(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "engine")
	cases, err := readCases(filepath.Join(dir, "cases.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != len(cases) {
		t.Errorf("%d workflows, %d lines in cases.tsv", len(files), len(cases))
	}
	for _, c := range cases {
		src, err := os.ReadFile(filepath.Join(dir, c.name+".json"))
		if err != nil {
			t.Error(err)
			continue
		}
		f := n8nschema.Parse(n8nschema.NewSource(c.name+".json", src))
		if len(f.Problems) > 0 {
			t.Errorf("%s: %v", c.name, f.Problems)
			continue
		}
		set := analyze.Build([]*n8nschema.File{f}, analyze.DefaultOptions())
		for _, d := range c.outage {
			found := false
			for _, op := range set.Operations {
				found = found || op.Dependency == d
			}
			if !found {
				t.Errorf("%s: no operation calls %q", c.name, d)
			}
		}
		if c.failure != "502" && c.failure != "timeout" {
			t.Errorf("%s: failure %q", c.name, c.failure)
		}
	}
}

// TestRecordedAttempts holds the audit to what n8n 2.8.4 sent in each case
// (cases.tsv's last column, recorded by scripts/e2e-oracle.sh), so that a
// change to the attempt model that n8n would contradict fails here, in
// go test, and not only in the end-to-end run.
func TestRecordedAttempts(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "engine")
	cases, err := readCases(filepath.Join(dir, "cases.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	sc := filepath.Join(t.TempDir(), "stormcheck")
	if out, err := exec.Command("go", "build", "-o", sc, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range cases {
		got, unbounded, err := audit(sc, filepath.Join(dir, c.name+".json"), "2.8.4", c)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		says := strconv.Itoa(got)
		if unbounded {
			says = "unbounded"
		}
		if says != c.sent {
			t.Errorf("%s: the audit says %s attempts, n8n 2.8.4 sent %s", c.name, says, c.sent)
		}
	}
}

// TestSimWindowLeavesTheLastBackoff: embeddings' seven tries, where n8n's
// jitter drew short waits (the last 32.3 s) and simulate's seeded run
// draws its seventh at 77.5 s: the window holds it (a window of n8n's 67 s
// and 10 s cut it, and simulate sent 6).
func TestSimWindowLeavesTheLastBackoff(t *testing.T) {
	var failed []int64
	for _, s := range []float64{0, 1.2, 3.3, 7.6, 17.8, 35.4, 67.7} {
		failed = append(failed, int64(s*1000))
	}
	if w := simWindow(failed, 0, 67_700, false); w*1000 < 77_500 {
		t.Errorf("window %d s, want one that holds 77.5 s", w)
	}
	if w := simWindow(failed, 0, 67_700, true); w != 69 {
		t.Errorf("unbounded window %d s, want 69 (n8n's length rounded up, and a second)", w)
	}
}
