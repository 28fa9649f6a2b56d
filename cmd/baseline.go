package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/engine"
)

// baselineFile is what --write-baseline writes and --baseline reads: the
// fingerprints of known findings (never line numbers, so edits that move
// nodes keep them), with rule, file, workflow and node for the people who
// review it.
type baselineFile struct {
	Version  int             `json:"version"`
	Tool     baselineTool    `json:"tool"`
	Findings []baselineEntry `json:"findings"`
}

type baselineTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type baselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Workflow    string `json:"workflow"`
	Node        string `json:"node"`
}

// encodeBaseline renders findings as a baseline, sorted by fingerprint and
// free of repeats.
func encodeBaseline(fs []analyze.Finding) []byte {
	doc := baselineFile{Version: 1, Tool: baselineTool{Name: "stormcheck", Version: Version()}, Findings: []baselineEntry{}}
	for _, f := range fs {
		doc.Findings = append(doc.Findings, baselineEntry{Fingerprint: f.Fingerprint, Rule: f.RuleID, File: f.File, Workflow: f.Workflow, Node: f.Node})
	}
	slices.SortFunc(doc.Findings, func(a, b baselineEntry) int {
		return strings.Compare(a.Fingerprint, b.Fingerprint)
	})
	doc.Findings = slices.CompactFunc(doc.Findings, func(a, b baselineEntry) bool { return a.Fingerprint == b.Fingerprint })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(doc) // strings only: cannot fail
	return buf.Bytes()
}

// readBaseline loads the fingerprints of a baseline file. A missing or
// unreadable baseline is a usage error: the run would report old findings.
func readBaseline(p, name string) (map[string]bool, error) {
	src, err := engine.ReadFile(p, defaultMaxFileSize)
	if errors.Is(err, engine.ErrTooLarge) {
		return nil, usageErrorf("--baseline %s: larger than %s; not read", name, formatSize(defaultMaxFileSize))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, usageErrorf("--baseline %s: no such file; write one with --write-baseline %s", name, name)
	}
	if err != nil {
		return nil, &usageError{fmt.Errorf("--baseline: %w", err)}
	}
	var doc baselineFile
	if err := json.Unmarshal(src, &doc); err != nil {
		return nil, usageErrorf("--baseline %s: not a stormcheck baseline: %v", name, err)
	}
	if doc.Version != 1 {
		return nil, usageErrorf("--baseline %s: version %d: want 1 (write it again with --write-baseline)", name, doc.Version)
	}
	fps := make(map[string]bool, len(doc.Findings))
	for _, e := range doc.Findings {
		fps[e.Fingerprint] = true
	}
	return fps, nil
}
