package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/internal/corpustest"
	"github.com/stormcheck/stormcheck/internal/cputime"
	"github.com/stormcheck/stormcheck/n8nschema"
	"github.com/stormcheck/stormcheck/report"
	"github.com/stormcheck/stormcheck/rules"
)

// auditOne audits one source as `stormcheck audit` does with default flags.
func auditOne(b *testing.B, src *n8nschema.Source) *report.Result {
	b.Helper()
	files := []*n8nschema.File{n8nschema.Parse(src)}
	set := analyze.Build(files, analyze.DefaultOptions())
	all := rules.All()
	out := analyze.Filter(set, analyze.Run(set, all), analyze.FilterOptions{Rules: all, All: all, Now: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)})
	res := report.WholeResult(set, out.Findings)
	res.Tool, res.Rules = report.Tool{Name: "stormcheck", Version: "bench"}, all
	res.Summary.Files, res.Summary.Workflows = 1, len(set.Workflows)
	res.Summary.Count(out.Findings)
	if len(out.Findings) == 0 {
		b.Fatal("no findings to render")
	}
	return res
}

// renderTextJSON renders res as text and as JSON, each a sub-benchmark,
// so that their ratio is the cost of snippets over the same findings.
func renderTextJSON(b *testing.B, res *report.Result) {
	for _, format := range []string{"text", "json"} {
		b.Run(format, func(b *testing.B) {
			r, err := report.New(format, report.Options{})
			if err != nil {
				b.Fatal(err)
			}
			cpu := cputime.Used()
			for b.Loop() {
				if err := r.Render(io.Discard, res); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time, not only wall time: the machine is shared.
			b.ReportMetric(float64((cputime.Used()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(len(res.Findings)), "findings")
		})
	}
}

// BenchmarkCompactExport renders the first 400 workflows of the corpus as
// `n8n export:workflow --all` gives them: one JSON array on one line.
func BenchmarkCompactExport(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteByte('[')
	n := 0
	for _, f := range corpustest.Files(b) {
		for _, w := range f.Workflows {
			if n == 400 {
				break
			}
			if n > 0 {
				buf.WriteByte(',')
			}
			if err := json.Compact(&buf, []byte(w.Value.Raw())); err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	buf.WriteByte(']')
	b.Logf("%d workflows, %d bytes on one line", n, buf.Len())
	renderTextJSON(b, auditOne(b, n8nschema.NewSource("all.json", buf.Bytes())))
}

// BenchmarkCompactWorkflow renders one generated compact workflow of 1,000
// nodes: retried POSTs with an Authorization header, chained.
func BenchmarkCompactWorkflow(b *testing.B) {
	const n = 1000
	var nodes []any
	conns := map[string]any{}
	for i := range n {
		name := fmt.Sprintf("Post %d", i)
		nodes = append(nodes, map[string]any{"id": fmt.Sprint(i), "name": name, "type": "n8n-nodes-base.httpRequest",
			"typeVersion": 4.2, "position": []int{i * 200, 0}, "retryOnFail": true, "maxTries": 5,
			"parameters": map[string]any{"method": "POST", "url": fmt.Sprintf("https://api.example.com/orders/%d", i), "sendHeaders": true,
				"headerParameters": map[string]any{"parameters": []any{map[string]any{"name": "Authorization", "value": "Bearer k3yZq9Wx8Vy7Ut6k3yZq9Wx8Vy7Ut6"}}}}})
		if i > 0 {
			conns[fmt.Sprintf("Post %d", i-1)] = map[string]any{"main": [][]map[string]any{{{"node": name, "type": "main", "index": 0}}}}
		}
	}
	src, err := json.Marshal(map[string]any{"name": "Big", "id": "big", "nodes": nodes, "connections": conns})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d nodes, %d bytes on one line", n, len(src))
	renderTextJSON(b, auditOne(b, n8nschema.NewSource("big.json", src)))
}
