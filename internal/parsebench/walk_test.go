// Package parsebench measures candidate JSON libraries for n8nschema's
// parser on the real corpus (docs/performance.md, "Parser: what was
// measured"). It is a module of its own so that the candidates never
// become dependencies of stormcheck; run it with
//
//	cd internal/parsebench && go test -run '^$' -bench . -benchmem
//
// Each benchmark does what the parser needs at the least: reject invalid
// JSON and visit every value of every file, with its byte offset where the
// library gives one. n8nschema's own BenchmarkParse/corpus and
// BenchmarkTree (the hand-written walk that builds the tree) are the
// other rows of the table.
package parsebench

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buger/jsonparser"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/tidwall/gjson"
	"github.com/valyala/fastjson"
)

func corpus(b *testing.B) (srcs [][]byte, total int64) {
	b.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "n8n-real")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("%s is absent", dir)
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".json") {
			return err
		}
		src, err := os.ReadFile(p)
		srcs, total = append(srcs, src), total+int64(len(src))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return srcs, total
}

// run times fn over every file and reports the CPU time and the values it
// visited per op (jsontext counts object keys among its tokens).
func run(b *testing.B, fn func(src []byte) int) {
	srcs, total := corpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	n := 0
	cpu := cputime.Used()
	for b.Loop() {
		n = 0
		for _, s := range srcs {
			n += fn(s)
		}
	}
	cputime.ReportPerOp(b, cpu)
	b.ReportMetric(float64(n), "values/op")
}

func BenchmarkGjson(b *testing.B) {
	var visit func(r gjson.Result) int
	visit = func(r gjson.Result) int {
		n := 1 + r.Index*0
		if r.IsObject() || r.IsArray() {
			r.ForEach(func(_, v gjson.Result) bool {
				n += visit(v)
				return true
			})
		}
		return n
	}
	run(b, func(src []byte) int {
		if !gjson.ValidBytes(src) {
			return 0
		}
		return visit(gjson.ParseBytes(src))
	})
}

func BenchmarkJsontext(b *testing.B) {
	opts := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}
	dec := jsontext.NewDecoder(bytes.NewReader(nil))
	run(b, func(src []byte) int {
		dec.Reset(bytes.NewReader(src), opts...)
		n := 0
		for {
			_ = dec.InputOffset()
			tok, err := dec.ReadToken()
			if err == io.EOF {
				return n
			}
			if err != nil {
				return 0
			}
			if k := tok.Kind(); k != '}' && k != ']' {
				n++
			}
		}
	})
}

func BenchmarkFastjson(b *testing.B) {
	var p fastjson.Parser
	var visit func(v *fastjson.Value) int
	visit = func(v *fastjson.Value) int {
		n := 1
		switch v.Type() {
		case fastjson.TypeObject:
			o, _ := v.Object()
			o.Visit(func(_ []byte, c *fastjson.Value) { n += visit(c) })
		case fastjson.TypeArray:
			a, _ := v.Array()
			for _, c := range a {
				n += visit(c)
			}
		}
		return n
	}
	run(b, func(src []byte) int {
		v, err := p.ParseBytes(src)
		if err != nil {
			return 0
		}
		return visit(v)
	})
}

func BenchmarkJsonparser(b *testing.B) {
	var visit func(v []byte, t jsonparser.ValueType) int
	visit = func(v []byte, t jsonparser.ValueType) int {
		n := 1
		switch t {
		case jsonparser.Object:
			jsonparser.ObjectEach(v, func(_, c []byte, ct jsonparser.ValueType, _ int) error {
				n += visit(c, ct)
				return nil
			})
		case jsonparser.Array:
			jsonparser.ArrayEach(v, func(c []byte, ct jsonparser.ValueType, _ int, _ error) {
				n += visit(c, ct)
			})
		}
		return n
	}
	run(b, func(src []byte) int {
		v, t, _, err := jsonparser.Get(src)
		if err != nil {
			return 0
		}
		return visit(v, t)
	})
}
