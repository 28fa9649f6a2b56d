package rules

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/corpustest"
)

// TestPrecisionSample audits a corpus below ../shared/corpus (n8n-real, or
// the one STORMCHECK_PRECISION_CORPUS names, such as n8n-more) as one analysis set,
// the way `stormcheck audit` does on the folder, and prints per rule the
// findings and workflows it fires on, then a reproducible sample of each
// rule's findings (file:line, node, message) for docs/precision.md. It runs
// only when STORMCHECK_PRECISION_SAMPLE is set: "1" for every rule, or a
// comma-separated list of rule IDs. STORMCHECK_PRECISION_N sets the sample
// size (default 20) and STORMCHECK_PRECISION_SEED the PCG seed (default 7).
func TestPrecisionSample(t *testing.T) {
	which := os.Getenv("STORMCHECK_PRECISION_SAMPLE")
	if which == "" {
		t.Skip("set STORMCHECK_PRECISION_SAMPLE=1 (or RS101,RS201) to print the precision sample")
	}
	n := 20
	if v, err := strconv.Atoi(os.Getenv("STORMCHECK_PRECISION_N")); err == nil && v > 0 {
		n = v
	}
	seed := uint64(7)
	if v, err := strconv.ParseUint(os.Getenv("STORMCHECK_PRECISION_SEED"), 10, 64); err == nil {
		seed = v
	}
	want := map[string]bool{}
	if which != "1" {
		for id := range strings.SplitSeq(which, ",") {
			want[strings.TrimSpace(id)] = true
		}
	}

	corpus := "n8n-real"
	if v := os.Getenv("STORMCHECK_PRECISION_CORPUS"); v != "" {
		corpus = v
	}
	files := corpustest.FilesOf(t, corpus)

	all := All()
	set := analyze.Build(files, analyze.DefaultOptions())
	got := analyze.Filter(set, analyze.Run(set, all), analyze.FilterOptions{
		Rules: all, All: all, Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
	}).Findings

	byRule := map[string][]analyze.Finding{}
	for _, f := range got {
		byRule[f.RuleID] = append(byRule[f.RuleID], f)
	}
	var ids []string
	for id := range byRule {
		if len(want) == 0 || want[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		fs := byRule[id]
		wfs := map[string]bool{}
		for _, f := range fs {
			wfs[f.File+"\x00"+f.Workflow] = true
		}
		fmt.Printf("## %s\t%d findings\t%d workflows\n", id, len(fs), len(wfs))
		r := rand.New(rand.NewPCG(seed, 0))
		pick := fs
		if len(fs) > n {
			pick = nil
			for _, i := range r.Perm(len(fs))[:n] {
				pick = append(pick, fs[i])
			}
			analyze.SortFindings(pick)
		}
		for _, f := range pick {
			fmt.Printf("%s:%d %q [%s] %s\n", f.File, f.Pos.Line, f.Node, f.Confidence, f.Message)
		}
	}
}
