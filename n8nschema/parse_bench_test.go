package n8nschema

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/internal/sharedtest"
)

// Benchmarks for the parser; docs/performance.md explains how to run them
// and scripts/bench.sh times the whole CLI. Speed is measured here, never
// asserted.

// benchCorpus reads every JSON file of ../shared/corpus/n8n-real; the
// benchmarks skip when it is absent (and fail when CI is set).
func benchCorpus(b *testing.B) (names []string, srcs [][]byte) {
	b.Helper()
	dir := sharedtest.Path(b, "corpus", "n8n-real")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".json") {
			return err
		}
		src, err := os.ReadFile(p)
		names, srcs = append(names, p), append(srcs, src)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return names, srcs
}

// genWorkflow builds one pretty-printed workflow of n HTTP Request, Set and
// If nodes chained in order, with a retry on every call.
func genWorkflow(n int) []byte {
	var nodes, conns []string
	for i := range n {
		name := fmt.Sprintf("Node %d", i)
		switch i % 3 {
		case 0:
			nodes = append(nodes, fmt.Sprintf(`    {
      "id": "id-%d",
      "name": %q,
      "type": "n8n-nodes-base.httpRequest",
      "typeVersion": 4.2,
      "position": [%d, 300],
      "retryOnFail": true,
      "maxTries": 3,
      "parameters": {
        "method": "POST",
        "url": "https://api.example.com/v1/items/{{ $json.id }}",
        "sendHeaders": true,
        "headerParameters": {"parameters": [{"name": "Content-Type", "value": "application/json"}]},
        "options": {"timeout": 10000}
      }
    }`, i, name, i*200))
		case 1:
			nodes = append(nodes, fmt.Sprintf(`    {"id": "id-%d", "name": %q, "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [%d, 300],
      "parameters": {"assignments": {"assignments": [{"name": "status", "value": "={{ $json.status }}", "type": "string"}]}}}`, i, name, i*200))
		default:
			nodes = append(nodes, fmt.Sprintf(`    {"id": "id-%d", "name": %q, "type": "n8n-nodes-base.if", "typeVersion": 2, "position": [%d, 300],
      "parameters": {"conditions": {"conditions": [{"leftValue": "={{ $json.ok }}", "rightValue": true, "operator": {"type": "boolean", "operation": "true"}}]}}}`, i, name, i*200))
		}
		if i > 0 {
			conns = append(conns, fmt.Sprintf(`    %q: {"main": [[{"node": %q, "type": "main", "index": 0}]]}`, fmt.Sprintf("Node %d", i-1), name))
		}
	}
	return []byte("{\n  \"name\": \"Generated\",\n  \"nodes\": [\n" + strings.Join(nodes, ",\n") +
		"\n  ],\n  \"connections\": {\n" + strings.Join(conns, ",\n") + "\n  },\n  \"settings\": {\"executionOrder\": \"v1\"}\n}\n")
}

func BenchmarkParse(b *testing.B) {
	b.Run("corpus", func(b *testing.B) {
		names, srcs := benchCorpus(b)
		total := 0
		for _, s := range srcs {
			total += len(s)
		}
		b.SetBytes(int64(total))
		b.ReportAllocs()
		cpu := cputime.Used()
		for b.Loop() {
			for i, src := range srcs {
				Parse(NewSource(names[i], src))
			}
		}
		cputime.ReportPerOp(b, cpu)
	})
	for _, n := range []int{1000, 10000} {
		src := genWorkflow(n)
		b.Run(fmt.Sprint("nodes=", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			cpu := cputime.Used()
			for b.Loop() {
				f := Parse(NewSource("gen.json", src))
				if len(f.Workflows) != 1 || len(f.Workflows[0].Nodes) != n {
					b.Fatalf("generated workflow parsed wrong: %v", f.Problems)
				}
			}
			cputime.ReportPerOp(b, cpu)
		})
	}
}

// BenchmarkTree is the walk alone (validation, repeated keys, the tree)
// without reading workflows from it: the row of docs/performance.md's
// parser table that compares with the libraries measured in
// internal/parsebench. tree-B/B is the tree's size per byte of JSON.
func BenchmarkTree(b *testing.B) {
	names, srcs := benchCorpus(b)
	total, treeBytes := 0, 0
	for i, s := range srcs {
		total += len(s)
		if r := buildTree(NewSource(names[i], s), view(s), 0); r.ok {
			treeBytes += len(r.t.nodes) * int(unsafe.Sizeof(jnode{}))
		}
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		for i, src := range srcs {
			buildTree(NewSource(names[i], src), view(src), 0)
		}
	}
	cputime.ReportPerOp(b, cpu)
	b.ReportMetric(float64(treeBytes)/float64(total), "tree-B/B")
}

// BenchmarkPosAt converts every node's name offset of the corpus into a
// line and column, as findings and the parser do.
func BenchmarkPosAt(b *testing.B) {
	names, srcs := benchCorpus(b)
	var files []*File
	for i, src := range srcs {
		files = append(files, Parse(NewSource(names[i], src)))
	}
	var offs [][]int
	for _, f := range files {
		var o []int
		for _, w := range f.Workflows {
			for _, n := range w.Nodes {
				o = append(o, n.Pos.Offset)
			}
		}
		sort.Ints(o)
		offs = append(offs, o)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, f := range files {
			s := NewSource(f.Source.Name, f.Source.Src)
			for _, off := range offs[i] {
				s.PosAt(off, "")
			}
		}
	}
}

// TestStringMembers pins the one-pass scanner that snippet masking uses
// in place of Walk: member strings with their object's "name", not array
// elements. Under a repeated key the parser has blanked the earlier
// member, so the scanner sees what Get sees: the last one, as n8n does.
func TestStringMembers(t *testing.T) {
	src := `{"nodes": [{"name": "A", "parameters": {"h": [{"value": "s\u00e9cret", "name": "X-Api-Key"}, "elem"],
	  "n": {"name": null, "value": "v", "name": "token"}}}], "connections": {}}`
	f := Parse(NewSource("m.json", []byte(src)))
	var got []string
	ok := f.Workflows[0].Value.StringMembers(func(m StringMember) {
		got = append(got, fmt.Sprintf("%s=%s name=%q/%v raw=%q", m.Key, m.Str, m.Name, m.NameIsString, src[m.Offset:m.Offset+m.RawLen]))
	})
	wantDup := []string{
		`name=A name="A"/true raw="\"A\""`,
		`value=sécret name="X-Api-Key"/true raw="\"s\\u00e9cret\""`,
		`name=X-Api-Key name="X-Api-Key"/true raw="\"X-Api-Key\""`,
		`value=v name="token"/true raw="\"v\""`,
		`name=token name="token"/true raw="\"token\""`,
	}
	if !ok || strings.Join(got, "\n") != strings.Join(wantDup, "\n") {
		t.Fatalf("repeated \"name\": StringMembers = %v, %q\nwant the last one, as Get reads it: %q", ok, got, wantDup)
	}
	if n := f.Workflows[0].Nodes[0].Params().Get("n.name").Str(); n != "token" {
		t.Fatalf("Get(n.name) = %q, want the last member, token", n)
	}
	got = nil
	src = strings.Replace(src, `, "name": "token"`, "", 1)
	f = Parse(NewSource("m.json", []byte(src)))
	ok = f.Workflows[0].Value.StringMembers(func(m StringMember) {
		got = append(got, fmt.Sprintf("%s=%s name=%q/%v raw=%q", m.Key, m.Str, m.Name, m.NameIsString, src[m.Offset:m.Offset+m.RawLen]))
	})
	want := []string{
		`name=A name="A"/true raw="\"A\""`,
		`value=sécret name="X-Api-Key"/true raw="\"s\\u00e9cret\""`,
		`name=X-Api-Key name="X-Api-Key"/true raw="\"X-Api-Key\""`,
		`value=v name=""/false raw="\"v\""`,
	}
	if !ok || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("StringMembers = %v, %q\nwant %q", ok, got, want)
	}
}
