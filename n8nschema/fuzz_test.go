package n8nschema

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse: it must never panic, and every
// position it hands out must lie inside the file. Seeds: a few inline inputs
// (so the target runs without ../shared), then, when the corpus is present,
// every odd/ file, every n8n-exports file and a sample of the real corpus.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		``,
		" \n\t",
		`{}`,
		`[]`,
		`42`,
		`"\u0000"`,
		`{"nodes":[],"connections":{}}`,
		"\ufeff{\"nodes\":[{\"name\":\"A\",\"type\":\"t\"}],\"connections\":{\"A\":{\"main\":[null,[{\"node\":\"B\"}]]}}}",
		"{\r\n\"name\":\"crlf\",\r\n\"nodes\":[{\"name\":null,\"type\":\"n8n-nodes-base.stickyNote\"}],\r\n\"connections\":[]\r\n}",
		`{"data":[{"nodes":[{"name":"A","parameters":{"x":{"__rl":true,"value":"=1"}}}],"connections":{"A":{"main":{"node":"A"}}}}],"nextCursor":null}`,
		`{"workflow":{"workflow":{"id":"1","nodes":[{"name":"A"},{"name":"A"}],"connections":{"1":{}}}}}`,
		`{"nodes":[{"name":"A"}],"connections":{},"activeVersion":{"nodes":[{"name":"B"}],"connections":{}}}trailing`,
		`{"nodes":[{"name":"a\"b","parameters":{"k\"e.y":[1,{"z":"é"}]}}],"connections":{"a\"b":{"main":[[{"node":"a\"b"}]]}}}`,
		"{\"name\":\"ctl\u0001\"}",
		`{"nodes":[],"edges":[]}`,
		`{"a":1,"a":[{"b":2,"b":3}],"c\u0061":{}}`,
		`{"a\`,
		strings.Repeat("[", 600),
	} {
		f.Add([]byte(s))
	}
	if dir := fuzzSharedDir(); dir != "" {
		corpus := filepath.Join(dir, "corpus")
		var sample int
		filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return nil
			}
			rel, _ := filepath.Rel(corpus, p)
			rel = filepath.ToSlash(rel)
			keep := strings.HasPrefix(rel, "n8n-real/odd/") || strings.HasPrefix(rel, "n8n-exports/")
			if !keep {
				// One real workflow in 40, small ones only: the fuzzer
				// mutates seeds byte by byte, so big seeds slow it down.
				sample++
				keep = sample%40 == 0
				if info, err := d.Info(); err != nil || info.Size() > 16<<10 {
					keep = false
				}
			}
			if keep {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b)
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// No spare capacity: a read past the end panics instead of
		// reading whatever follows in the buffer.
		data = data[:len(data):len(data)]
		file := Parse(NewSource("fuzz.json", data))
		checkFile(t, file)
	})
}

// fuzzSharedDir is sharedDir without the skip: the fuzz target runs with
// its inline seeds when ../shared is absent.
func fuzzSharedDir() string {
	dir := filepath.Join("..", "..", "shared")
	if _, err := os.Stat(filepath.Join(dir, "corpus")); err != nil {
		return ""
	}
	return dir
}
