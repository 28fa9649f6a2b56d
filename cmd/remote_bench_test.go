package cmd

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stormcheck/stormcheck/engine"
)

// benchPad makes each served workflow about 20 KB, the size of a large
// real one.
var benchPad = strings.Repeat("x", 20<<10)

// servePages serves total workflows of ~20 KB in pages of perPage, each
// written as it is generated, so that the server holds no page: the heap
// the client is measured by is the client's. Like n8n, it announces each
// page's length. atPage, when set, is called before page n (1-based) is
// served.
func servePages(total, perPage int, atPage func(n int)) *httptest.Server {
	page := func(w io.Writer, start int) {
		io.WriteString(w, `{"data":[`)
		end := min(start+perPage, total)
		for i := start; i < end; i++ {
			if i > start {
				io.WriteString(w, ",")
			}
			fmt.Fprintf(w, `{"id":"w%05d","name":"Workflow %d","active":false,"nodes":[{"id":"1","name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{},"notes":%q}],"connections":{}}`, i, i, benchPad)
		}
		next := "null"
		if end < total {
			next = fmt.Sprintf(`"%d"`, end)
		}
		io.WriteString(w, `],"nextCursor":`+next+`}`)
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := 0
		fmt.Sscan(r.URL.Query().Get("cursor"), &start)
		if atPage != nil {
			atPage(start/perPage + 1)
		}
		var n byteCount
		page(&n, start)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(n))
		page(w, start)
	}))
}

type byteCount int

func (c *byteCount) Write(p []byte) (int, error) {
	*c += byteCount(len(p))
	return len(p), nil
}

// liveHeap is the heap still in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkRemoteInputs fetches 2,000 workflows of 20 KB (40 MB, 8 pages)
// into inputs and reads each input once, as audit does. It reports the
// live heap (after a collection) at its largest, measured before every
// page and once all inputs are collected, and the peak heap sampled every
// millisecond, both above the heap before the run.
func BenchmarkRemoteInputs(b *testing.B) {
	const total, perPage = 2000, 250
	var (
		mu   sync.Mutex
		base uint64
		live uint64
	)
	sample := func() {
		h := liveHeap()
		mu.Lock()
		live = max(live, h-min(h, base))
		mu.Unlock()
	}
	srv := servePages(total, perPage, func(int) { sample() })
	defer srv.Close()
	r := remoteOptions{URL: srv.URL}
	cio := &IO{Err: io.Discard, Getenv: func(k string) string { return map[string]string{"N8N_API_KEY": testAPIKey}[k] }}
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		base, live = liveHeap(), 0
		stop := make(chan struct{})
		done := make(chan uint64)
		go func() {
			var m runtime.MemStats
			var top uint64
			t := time.NewTicker(time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					done <- top
					return
				case <-t.C:
					runtime.ReadMemStats(&m)
					top = max(top, m.HeapAlloc)
				}
			}
		}()
		ins, err := remoteInputs(&r, cio)
		if err != nil {
			b.Fatal(err)
		}
		sample()
		var n int
		for _, in := range ins {
			src, err := benchRead(in)
			if err != nil {
				b.Fatal(err)
			}
			n += len(src)
		}
		if len(ins) != total || n < total*len(benchPad) {
			b.Fatalf("%d inputs, %d bytes", len(ins), n)
		}
		close(stop)
		top := <-done
		peak = max(peak, top-min(top, base))
		runtime.KeepAlive(ins)
	}
	b.ReportMetric(float64(live)/(1<<20), "MB-live")
	b.ReportMetric(float64(peak)/(1<<20), "MB-peak")
}

func benchRead(in engine.Input) ([]byte, error) { return in.Read(defaultMaxFileSize) }
