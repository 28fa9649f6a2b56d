package cmd

import (
	"os"
	"runtime"
	"testing"

	"github.com/stormcheck/stormcheck/fix"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

// corpusInputs lists the real corpus as audit does, with default settings.
func corpusInputs(b *testing.B) ([]input, *auditSettings) {
	b.Helper()
	dir := sharedtest.Path(b, "corpus", "n8n-real")
	wd, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	ins, err := collectInputs([]string{dir}, nil, newNamer(wd, "", ""), defaultMaxFileSize)
	if err != nil {
		b.Fatal(err)
	}
	o := &AuditOptions{MinConfidence: "low"}
	st, err := o.settings(nil, wd, ins)
	if err != nil {
		b.Fatal(err)
	}
	return ins, st
}

// BenchmarkPass1 reads and parses the corpus and groups it by its links:
// the first pass of the audit.
func BenchmarkPass1(b *testing.B) {
	ins, _ := corpusInputs(b)
	b.ReportAllocs()
	for b.Loop() {
		groupInputs(ins, defaultMaxFileSize, false)
	}
}

// BenchmarkPass2 audits the corpus group by group, releasing each (snippets
// captured, as for text output): the second pass. It reports the heap the
// released groups leave (what the renderers then read) as MB-held.
func BenchmarkPass2(b *testing.B) {
	ins, st := corpusInputs(b)
	groups := groupInputs(ins, defaultMaxFileSize, false)
	b.ReportAllocs()
	var p groupsAudited
	for b.Loop() {
		p = auditGroups(ins, groups, defaultMaxFileSize, false, st, fix.Options{}, true)
	}
	b.StopTimer()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.HeapAlloc)/1e6, "MB-held")
	runtime.KeepAlive(p)
}
