package n8napi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testKey is distinctive so that any leak into a message is found.
const testKey = "n8n_api_SECRET-7f3a9c2e-stormcheck-KEY"

// seenReq is what the fake server recorded about one request.
type seenReq struct {
	Path   string
	Query  url.Values
	Key    string
	Accept string
	At     time.Time
}

// fakeN8N is an httptest server on 127.0.0.1 that records requests and
// hands the 1-based request number to the handler.
type fakeN8N struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []seenReq
}

func newFake(t *testing.T, h func(w http.ResponseWriter, r *http.Request, n int)) *fakeN8N {
	t.Helper()
	f := &fakeN8N{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.reqs = append(f.reqs, seenReq{
			Path: r.URL.Path, Query: r.URL.Query(), At: time.Now(),
			Key: r.Header.Get("X-N8N-API-KEY"), Accept: r.Header.Get("Accept"),
		})
		n := len(f.reqs)
		f.mu.Unlock()
		h(w, r, n)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeN8N) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

func (f *fakeN8N) requests() []seenReq {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seenReq(nil), f.reqs...)
}

// newTestClient builds a client with fast backoff and a short deadline;
// mod adjusts the options first.
func newTestClient(t *testing.T, baseURL string, mod func(*Options)) *Client {
	t.Helper()
	opts := Options{BaseURL: baseURL, APIKey: testKey, Deadline: 3 * time.Second, MaxAttempts: 4}
	if mod != nil {
		mod(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	c.backoffBase, c.backoffCap = time.Millisecond, 5*time.Millisecond
	return c
}

// list collects what Each hands over, under a test-wide bound, so no test
// can hang.
func list(t *testing.T, c *Client) ([]Workflow, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	return collect(ctx, c)
}

func collect(ctx context.Context, c *Client) ([]Workflow, error) {
	var all []Workflow
	err := c.Each(ctx, func(w Workflow) error {
		all = append(all, w)
		return nil
	})
	return all, err
}

// mustFail checks that err is an *Error of the wanted kind whose every
// rendering is free of the API key, and returns it.
func mustFail(t *testing.T, err error, want Kind) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("Each succeeded, want a %v error", want)
	}
	assertNoKey(t, err)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %q is not an *Error", err, err)
	}
	if e.Kind != want {
		t.Errorf("Kind = %v, want %v (%q)", e.Kind, want, err)
	}
	if msg := err.Error(); msg == "" || msg[0] >= 'A' && msg[0] <= 'Z' || strings.HasSuffix(msg, ".") {
		t.Errorf("message %q: want lowercase start, no trailing period", msg)
	}
	return e
}

// assertNoKey looks for the key in the message, in Go-syntax and verbose
// renderings, and along the whole wrap chain.
func assertNoKey(t *testing.T, err error) {
	t.Helper()
	for e := err; e != nil; e = errors.Unwrap(e) {
		for _, s := range []string{e.Error(), fmt.Sprintf("%v", e), fmt.Sprintf("%+v", e), fmt.Sprintf("%#v", e)} {
			if strings.Contains(s, testKey) {
				t.Fatalf("the API key leaked into an error: %s", s)
			}
		}
	}
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// waitReturn blocks the handler until the client goes away (or 5 s), the
// way a stuck upstream behaves.
func waitReturn(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(5 * time.Second):
	}
}

const okPage = `{"data":[{"id":"a1","name":"A","nodes":[],"connections":{}}],"nextCursor":null}`

func TestPaginationThreePages(t *testing.T) {
	t.Parallel()
	// Cursors are base64 and need escaping in a query.
	const c1, c2 = "eyJsaW1pdCI6MjUwLCJvZmZzZXQiOjI1MH0+/=", "c2/b+=="
	elem := map[string]string{
		"w3": "{\n    \"id\": \"w3\",\n    \"name\": \"Third \\u00e9\",\n    \"nodes\": [],\n    \"activeVersion\": {\"nodes\": [], \"connections\": {}}\n  }",
		"w1": `{"id":"w1","name":"First","nodes":[{"name":"x"}],"activeVersion":null}`,
		"w2": `{"name":"Second","id":"w2","activeVersion":{"versionId":"v"}}`,
		"w5": `{"id":"w5","name":"Fifth"}`,
		"w4": `{"id":"w4","name":null,"activeVersion":{"nodes":[{"name":"n"}]}}`,
	}
	pages := map[string]string{
		"": "{\n  \"data\": [\n  " + elem["w3"] + ",\n  " + elem["w1"] + "\n  ],\n  \"nextCursor\": \"" + c1 + "\"\n}",
		c1: `{"data":[` + elem["w2"] + `,` + elem["w5"] + `],"nextCursor":"` + c2 + `"}`,
		c2: `{"nextCursor":null,"data":[` + elem["w4"] + `]}`,
	}
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		body, ok := pages[r.URL.Query().Get("cursor")]
		if !ok {
			writeJSON(w, 400, `{"message":"An invalid cursor was provided"}`)
			return
		}
		writeJSON(w, 200, body)
	})
	type prog struct{ Page, SoFar int }
	var progress []prog
	c := newTestClient(t, f.srv.URL+"/", func(o *Options) {
		o.Progress = func(page, soFar int) { progress = append(progress, prog{page, soFar}) }
	})

	got, err := list(t, c)
	if err != nil {
		t.Fatalf("Each: %v", err)
	}

	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("made %d requests, want 3", len(reqs))
	}
	for i, wantCursor := range []string{"", c1, c2} {
		r := reqs[i]
		if r.Path != "/api/v1/workflows" {
			t.Errorf("request %d: path %q", i+1, r.Path)
		}
		if got := r.Query.Get("limit"); got != "250" {
			t.Errorf("request %d: limit=%q, want 250", i+1, got)
		}
		if got, has := r.Query.Get("cursor"), r.Query.Has("cursor"); got != wantCursor || has != (wantCursor != "") {
			t.Errorf("request %d: cursor=%q (present %v), want %q", i+1, got, has, wantCursor)
		}
		if r.Key != testKey {
			t.Errorf("request %d: X-N8N-API-KEY not sent", i+1)
		}
		if r.Accept != "application/json" {
			t.Errorf("request %d: Accept=%q", i+1, r.Accept)
		}
	}

	type short struct {
		ID, Name, Raw string
		Published     bool
	}
	var have []short
	for _, w := range got {
		have = append(have, short{w.ID, w.Name, string(w.Raw), w.Published})
	}
	// In the server's order: callers sort.
	want := []short{
		{"w3", "Third é", elem["w3"], true},
		{"w1", "First", elem["w1"], false},
		{"w2", "Second", elem["w2"], false},
		{"w5", "Fifth", elem["w5"], false},
		{"w4", "", elem["w4"], true},
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("Each mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]prog{{1, 2}, {2, 4}, {3, 5}}, progress); diff != "" {
		t.Errorf("progress calls mismatch (-want +got):\n%s", diff)
	}
}

func TestEndOfListing(t *testing.T) {
	t.Parallel()
	for name, tail := range map[string]string{
		"null":   `,"nextCursor":null`,
		"absent": ``,
		"empty":  `,"nextCursor":""`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
				writeJSON(w, 200, `{"data":[{"id":"1"}]`+tail+`}`)
			})
			got, err := list(t, newTestClient(t, f.srv.URL, nil))
			if err != nil {
				t.Fatalf("Each: %v", err)
			}
			if len(got) != 1 || f.count() != 1 {
				t.Errorf("got %d workflows in %d requests, want 1 in 1", len(got), f.count())
			}
		})
	}
}

func TestDedupe(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch r.URL.Query().Get("cursor") {
		case "":
			writeJSON(w, 200, `{"data":[{"id":"998","name":"first copy"},{"id":"abc"},{"id":"1000"}],"nextCursor":"p2"}`)
		default:
			// Offset paging repeats an element when one is created meanwhile.
			writeJSON(w, 200, `{"data":[{"id":"998","name":"second copy"},{"id":"Zed"},{"id":"7"}],"nextCursor":null}`)
		}
	})
	got, err := list(t, newTestClient(t, f.srv.URL, nil))
	if err != nil {
		t.Fatalf("Each: %v", err)
	}
	var ids []string
	for _, w := range got {
		ids = append(ids, w.ID+":"+w.Name)
	}
	want := []string{"998:first copy", "abc:", "1000:", "Zed:", "7:"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("IDs mismatch (-want +got):\n%s", diff)
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			writeJSON(w, 429, `{"message":"Too many requests"}`)
			return
		}
		writeJSON(w, 200, okPage)
	})
	c := newTestClient(t, f.srv.URL, nil)
	start := time.Now()
	if _, err := list(t, c); err != nil {
		t.Fatalf("Each: %v", err)
	}
	if el := time.Since(start); el < time.Second {
		t.Errorf("finished after %v, want at least the 1 s Retry-After", el)
	}
	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("made %d requests, want 2", len(reqs))
	}
	if gap := reqs[1].At.Sub(reqs[0].At); gap < time.Second {
		t.Errorf("retried after %v, want >= 1s", gap)
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	t.Parallel()
	var (
		mu sync.Mutex
		at time.Time // when the server said to come back
	)
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			// HTTP dates have whole seconds: this lies 1-2 s ahead.
			mu.Lock()
			at = time.Now().Truncate(time.Second).Add(2 * time.Second)
			w.Header().Set("Retry-After", at.UTC().Format(http.TimeFormat))
			mu.Unlock()
			writeJSON(w, 503, `{"message":"maintenance"}`)
			return
		}
		writeJSON(w, 200, okPage)
	})
	if _, err := list(t, newTestClient(t, f.srv.URL, nil)); err != nil {
		t.Fatalf("Each: %v", err)
	}
	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("made %d requests, want 2", len(reqs))
	}
	// Only the date counts: on a loaded machine the answer may reach the
	// client late, leaving less than a second to wait.
	mu.Lock()
	defer mu.Unlock()
	if reqs[1].At.Before(at) {
		t.Errorf("retried at %v, before the Retry-After date %v", reqs[1].At, at)
	}
}

func TestRetryAfterBeyondDeadline(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", "30")
		writeJSON(w, 429, `{"message":"slow down"}`)
	})
	c := newTestClient(t, f.srv.URL, func(o *Options) { o.Deadline = 2 * time.Second })
	start := time.Now()
	_, err := list(t, c)
	e := mustFail(t, err, KindRetryAfter)
	if el := time.Since(start); el > 500*time.Millisecond {
		t.Errorf("failed after %v, want at once", el)
	}
	if f.count() != 1 {
		t.Errorf("made %d requests, want 1", f.count())
	}
	if e.RetryAfter != 30*time.Second || e.Status != 429 {
		t.Errorf("RetryAfter=%v Status=%d, want 30s 429", e.RetryAfter, e.Status)
	}
	if !strings.Contains(err.Error(), "asked to wait 30s") {
		t.Errorf("message %q does not say the server asked to wait 30s", err)
	}
}

func TestRetriedStatusThenSuccess(t *testing.T) {
	t.Parallel()
	for _, status := range []int{429, 500, 502, 503, 504} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if n == 1 {
					writeJSON(w, status, `{"message":"boom"}`)
					return
				}
				writeJSON(w, 200, okPage)
			})
			got, err := list(t, newTestClient(t, f.srv.URL, nil))
			if err != nil {
				t.Fatalf("Each: %v", err)
			}
			if len(got) != 1 || f.count() != 2 {
				t.Errorf("got %d workflows in %d requests, want 1 in 2", len(got), f.count())
			}
		})
	}
}

func TestRetriesExhausted(t *testing.T) {
	t.Parallel()
	for _, status := range []int{429, 500, 502, 503, 504} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(status)
				io.WriteString(w, "<html><body>upstream down</body></html>")
			})
			c := newTestClient(t, f.srv.URL, func(o *Options) { o.MaxAttempts = 3 })
			_, err := list(t, c)
			e := mustFail(t, err, KindStatus)
			if f.count() != 3 || e.Attempts != 3 {
				t.Errorf("made %d requests (Attempts %d), want MaxAttempts = 3", f.count(), e.Attempts)
			}
			for _, want := range []string{fmt.Sprintf("HTTP %d", status), "after 3 attempts", "upstream down"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message %q lacks %q", err, want)
				}
			}
		})
	}
}

func TestDefaultMaxAttempts(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 503, `{}`) })
	c := newTestClient(t, f.srv.URL, func(o *Options) { o.MaxAttempts = 0 })
	_, err := list(t, c)
	mustFail(t, err, KindStatus)
	if f.count() != DefaultMaxAttempts {
		t.Errorf("made %d requests, want DefaultMaxAttempts = %d", f.count(), DefaultMaxAttempts)
	}
}

func TestNoRetryOnClientErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status int
		body   string
		kind   Kind
		want   string
	}{
		{401, `{"message":"unauthorized"}`, KindAuth,
			"the API key was rejected (HTTP 401): check N8N_API_KEY and that the key has the workflow:list and workflow:read scopes"},
		{403, `{"message":"forbidden"}`, KindAuth,
			"the API key was rejected (HTTP 403): check N8N_API_KEY and that the key has the workflow:list and workflow:read scopes"},
		{404, `{"message":"Not Found"}`, KindNotFound,
			"no n8n public API at BASE/api/v1 (HTTP 404): check --n8n-url (the instance URL, without /api/v1) and that the public API is enabled"},
		{400, `{"message":"An invalid cursor was provided"}`, KindStatus,
			`BASE/api/v1/workflows answered HTTP 400 Bad Request: "An invalid cursor was provided"`},
		{405, ``, KindStatus, `BASE/api/v1/workflows answered HTTP 405 Method Not Allowed: an empty body`},
		{409, `conflict`, KindStatus, `BASE/api/v1/workflows answered HTTP 409 Conflict: "conflict"`},
		{422, `{"message":"bad"}`, KindStatus, `BASE/api/v1/workflows answered HTTP 422 Unprocessable Entity: "bad"`},
		{418, `{}`, KindStatus, `BASE/api/v1/workflows answered HTTP 418 I'm a teapot: "{}"`},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, tt.status, tt.body) })
			_, err := list(t, newTestClient(t, f.srv.URL+"/api/v1", nil))
			e := mustFail(t, err, tt.kind)
			if f.count() != 1 {
				t.Errorf("made %d requests, want 1 (no retry)", f.count())
			}
			if e.Status != tt.status || e.Attempts != 1 {
				t.Errorf("Status=%d Attempts=%d, want %d 1", e.Status, e.Attempts, tt.status)
			}
			if want := strings.ReplaceAll(tt.want, "BASE", f.srv.URL); err.Error() != want {
				t.Errorf("message\n got %q\nwant %q", err, want)
			}
		})
	}
}

func TestNotJSON(t *testing.T) {
	t.Parallel()
	const html = "<!DOCTYPE html>\n<html><head><title>Sign in to your proxy</title></head><body>please log in</body></html>"
	tests := []struct {
		name, ctype, body string
		want              []string
	}{
		{"html page", "text/html; charset=utf-8", html,
			[]string{`Content-Type "text/html; charset=utf-8"`, `instead of JSON (HTTP 200)`, `"<!DOCTYPE html> <html><head><title>Sign in to your proxy</ti…"`, "check --n8n-url"}},
		{"html labelled json", "application/json", html,
			[]string{"not valid JSON", `"<!DOCTYPE html>`}},
		{"no content type, not json", "", "plain words",
			[]string{"not valid JSON", `"plain words"`}},
		{"empty body", "application/json", "",
			[]string{"not valid JSON", "an empty body"}},
		{"trailing garbage", "application/json", `{"data":[]}<html>`,
			[]string{"not valid JSON"}},
		{"json array", "application/json", `[{"id":"1"}]`,
			[]string{"not valid JSON"}},
		{"no data", "application/json", `{"items":[]}`,
			[]string{`no "data" array`}},
		{"data not array", "application/json", `{"data":{"id":"1"}}`,
			[]string{"not valid JSON"}},
		{"element not object", "application/json", `{"data":["x"]}`,
			[]string{"data[0] is not an object"}},
		{"element without id", "application/json", `{"data":[{"name":"n"}]}`,
			[]string{"data[0] has no id"}},
		{"cursor not string", "application/json", `{"data":[],"nextCursor":42}`,
			[]string{"nextCursor is neither a string nor null"}},
		{"control characters", "text/plain", "\x1b[31mred\x00\x07",
			[]string{`"?[31mred??"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if tt.ctype != "" {
					w.Header().Set("Content-Type", tt.ctype)
				} else {
					w.Header()["Content-Type"] = nil // stop net/http sniffing one
				}
				io.WriteString(w, tt.body)
			})
			_, err := list(t, newTestClient(t, f.srv.URL, nil))
			e := mustFail(t, err, KindBadResponse)
			if f.count() != 1 {
				t.Errorf("made %d requests, want 1", f.count())
			}
			if e.Status != 200 {
				t.Errorf("Status = %d, want 200", e.Status)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("message %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestJSONWithoutContentType(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header()["Content-Type"] = nil
		io.WriteString(w, okPage)
	})
	got, err := list(t, newTestClient(t, f.srv.URL, nil))
	if err != nil || len(got) != 1 {
		t.Fatalf("Each = %d workflows, %v; want 1, nil", len(got), err)
	}
}

func TestDeadlineSlowServer(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { waitReturn(r) })
	c := newTestClient(t, f.srv.URL, func(o *Options) { o.Deadline = 300 * time.Millisecond })
	start := time.Now()
	_, err := list(t, c)
	el := time.Since(start)
	e := mustFail(t, err, KindDeadline)
	if el < 300*time.Millisecond || el > 2*time.Second {
		t.Errorf("returned after %v, want just after the 300ms deadline", el)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("errors.Is(err, context.DeadlineExceeded) = false for %q", err)
	}
	// The elapsed time it gives is the clock's (0.4s on a loaded machine);
	// the deadline it names is the option's.
	if msg := err.Error(); !strings.HasPrefix(msg, "gave up after ") || !strings.Contains(msg, "s (deadline 0.3s) listing") {
		t.Errorf("message %q does not give the time taken and the deadline", err)
	}
	if e.Attempts != 1 {
		t.Errorf("Attempts = %d, want 1", e.Attempts)
	}
}

func TestDeadlineDuringRetries(t *testing.T) {
	t.Parallel()
	// Each attempt times out; the deadline ends the listing, not the count.
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { waitReturn(r) })
	c := newTestClient(t, f.srv.URL, func(o *Options) {
		o.Deadline, o.AttemptTimeout, o.MaxAttempts = 400*time.Millisecond, 150*time.Millisecond, 10
	})
	_, err := list(t, c)
	mustFail(t, err, KindDeadline)
	if n := f.count(); n < 2 || n > 3 {
		t.Errorf("made %d requests, want 2-3 attempts of 150ms in 400ms", n)
	}
	if !strings.Contains(err.Error(), "attempt timeout") {
		t.Errorf("message %q does not name the last problem", err)
	}
}

func TestBackoffBeyondDeadline(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 503, `{}`) })
	c := newTestClient(t, f.srv.URL, nil)
	c.backoffBase, c.backoffCap = time.Hour, time.Hour
	c.jitter = func(n int64) int64 { return n - 1 }
	start := time.Now()
	_, err := list(t, c)
	mustFail(t, err, KindDeadline)
	if el := time.Since(start); el > time.Second {
		t.Errorf("failed after %v, want at once: the wait would outlast the deadline", el)
	}
	if f.count() != 1 {
		t.Errorf("made %d requests, want 1", f.count())
	}
	for _, want := range []string{"gave up after", "(deadline 3s)", "the next attempt would start after it", "HTTP 503"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
}

func TestCallerCancel(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { waitReturn(r) })
	c := newTestClient(t, f.srv.URL, nil)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := collect(ctx, c)
	mustFail(t, err, KindCanceled)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("errors.Is(err, context.Canceled) = false for %q", err)
	}
}

func TestAttemptTimeoutRetried(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			waitReturn(r)
			return
		}
		writeJSON(w, 200, okPage)
	})
	c := newTestClient(t, f.srv.URL, func(o *Options) { o.AttemptTimeout = 200 * time.Millisecond })
	got, err := list(t, c)
	if err != nil {
		t.Fatalf("Each: %v", err)
	}
	// 2 requests, unless a loaded machine also timed out the second.
	if len(got) != 1 || f.count() < 2 {
		t.Errorf("got %d workflows in %d requests, want 1 in 2", len(got), f.count())
	}
}

func TestDroppedConnectionRetried(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		writeJSON(w, 200, okPage)
	})
	got, err := list(t, newTestClient(t, f.srv.URL, nil))
	if err != nil {
		t.Fatalf("Each: %v", err)
	}
	if len(got) != 1 || f.count() != 2 {
		t.Errorf("got %d workflows in %d requests, want 1 in 2", len(got), f.count())
	}
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c := newTestClient(t, "http://"+addr, func(o *Options) { o.MaxAttempts = 3 })
	_, err = list(t, c)
	e := mustFail(t, err, KindNetwork)
	if e.Attempts != 3 {
		t.Errorf("Attempts = %d, want 3", e.Attempts)
	}
	if !strings.Contains(err.Error(), "cannot reach the n8n API at http://"+addr+"/api/v1 after 3 attempts") {
		t.Errorf("message %q", err)
	}
}

func TestTLS(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	n := 0
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		mu.Unlock()
		writeJSON(w, 200, okPage)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // expected handshake failures
	srv.StartTLS()
	t.Cleanup(srv.Close)

	_, err := list(t, newTestClient(t, srv.URL, nil))
	e := mustFail(t, err, KindNetwork)
	if e.Attempts != 1 {
		t.Errorf("an untrusted certificate was retried: Attempts = %d", e.Attempts)
	}
	if !strings.Contains(err.Error(), "certificate") {
		t.Errorf("message %q does not mention the certificate", err)
	}

	got, err := list(t, newTestClient(t, srv.URL, func(o *Options) { o.Insecure = true }))
	if err != nil || len(got) != 1 {
		t.Fatalf("with Insecure: %d workflows, %v; want 1, nil", len(got), err)
	}
	mu.Lock()
	defer mu.Unlock()
	if n != 1 {
		t.Errorf("server handled %d requests, want 1", n)
	}
}

func TestRedirects(t *testing.T) {
	t.Parallel()
	other := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, okPage) })

	t.Run("other host refused", func(t *testing.T) {
		t.Parallel()
		f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
			http.Redirect(w, r, other.srv.URL+r.URL.RequestURI(), http.StatusFound)
		})
		_, err := list(t, newTestClient(t, f.srv.URL, nil))
		e := mustFail(t, err, KindNetwork)
		if other.count() != 0 {
			t.Errorf("the other host got %d requests: the key left the instance", other.count())
		}
		if f.count() != 1 || e.Attempts != 1 {
			t.Errorf("made %d requests (Attempts %d), want 1: a refused redirect is not retried", f.count(), e.Attempts)
		}
		if !strings.Contains(err.Error(), "refusing to follow a redirect to another host") || strings.Contains(err.Error(), "cursor") {
			t.Errorf("message %q", err)
		}
	})

	t.Run("same host followed", func(t *testing.T) {
		t.Parallel()
		f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if r.URL.Path == "/api/v1/workflows" {
				http.Redirect(w, r, "/moved"+r.URL.RequestURI(), http.StatusMovedPermanently)
				return
			}
			writeJSON(w, 200, okPage)
		})
		got, err := list(t, newTestClient(t, f.srv.URL, nil))
		if err != nil || len(got) != 1 {
			t.Fatalf("Each = %d workflows, %v; want 1, nil", len(got), err)
		}
		if reqs := f.requests(); len(reqs) != 2 || reqs[1].Key != testKey {
			t.Errorf("redirect on the same host: %d requests, key on second %v", len(reqs), len(reqs) == 2 && reqs[1].Key == testKey)
		}
	})
}

func TestCursorLoop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		cursors map[string]string // cursor -> next
		want    int               // requests before the loop is seen
	}{
		{"same cursor again", map[string]string{"": "A", "A": "A"}, 2},
		{"cycle", map[string]string{"": "A", "A": "B", "B": "A"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
				next := tt.cursors[r.URL.Query().Get("cursor")]
				writeJSON(w, 200, fmt.Sprintf(`{"data":[{"id":"%d"}],"nextCursor":%q}`, n, next))
			})
			_, err := list(t, newTestClient(t, f.srv.URL, nil))
			mustFail(t, err, KindPaging)
			if f.count() != tt.want {
				t.Errorf("made %d requests, want %d", f.count(), tt.want)
			}
		})
	}
}

func TestMaxPages(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, fmt.Sprintf(`{"data":[],"nextCursor":"c%d"}`, n))
	})
	c := newTestClient(t, f.srv.URL, nil)
	c.maxPages = 5
	_, err := list(t, c)
	mustFail(t, err, KindPaging)
	if f.count() != 5 {
		t.Errorf("made %d requests, want 5", f.count())
	}
}

// TestMaxTotalBytes: a server that sends large pages with fresh cursors
// used to be read until MaxPages (200 MB pages reached 7.8 GB). The
// listing stops with KindTooLarge once its pages pass MaxTotalBytes; the
// last page is read only up to what is left. maxPages = 50 keeps a
// regression to 50 MiB instead of letting it run.
func TestMaxTotalBytes(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("x", 1<<20)
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, fmt.Sprintf(`{"data":[{"id":"%d","name":"w","nodes":[],"connections":{},"pad":"%s"}],"nextCursor":"c%d"}`, n, pad, n))
	})
	c := newTestClient(t, f.srv.URL, func(o *Options) { o.MaxTotalBytes = 4 << 20 })
	c.maxPages = 50
	_, err := list(t, c)
	mustFail(t, err, KindTooLarge)
	if f.count() != 4 {
		t.Errorf("made %d requests, want 4 (three whole pages, the fourth cut at the ceiling)", f.count())
	}
	if want := "pass 4 MiB after 4 pages (4 MiB so far): stopping"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
}

// TestKeyNeverInErrors makes the server echo the key back in every place a
// message quotes, and checks the messages redact it.
func TestKeyNeverInErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		handle func(w http.ResponseWriter)
		kind   Kind
	}{
		{"html page", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "key "+testKey+" is invalid")
		}, KindBadResponse},
		{"content type", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/"+testKey)
			io.WriteString(w, "x")
		}, KindBadResponse},
		{"bad json", func(w http.ResponseWriter) { writeJSON(w, 200, testKey) }, KindBadResponse},
		{"no data", func(w http.ResponseWriter) { writeJSON(w, 200, `{"key":"`+testKey+`"}`) }, KindBadResponse},
		{"400 message", func(w http.ResponseWriter) {
			writeJSON(w, 400, `{"message":"bad key `+testKey+`"}`)
		}, KindStatus},
		{"503 body", func(w http.ResponseWriter) {
			w.WriteHeader(503)
			io.WriteString(w, testKey)
		}, KindStatus},
		{"401", func(w http.ResponseWriter) { writeJSON(w, 401, `{"message":"`+testKey+`"}`) }, KindAuth},
		{"429 too long", func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "3600")
			writeJSON(w, 429, `{"message":"`+testKey+`"}`)
		}, KindRetryAfter},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { tt.handle(w) })
			_, err := list(t, newTestClient(t, f.srv.URL, func(o *Options) { o.MaxAttempts = 2 }))
			mustFail(t, err, tt.kind) // checks every rendering for the key
		})
	}

	t.Run("new", func(t *testing.T) {
		t.Parallel()
		for _, o := range []Options{
			{BaseURL: "https://" + testKey + "@h"},
			{BaseURL: "https://h/?key=" + testKey},
			{BaseURL: "https://h/#" + testKey},
			{BaseURL: "ftp://h/?key=" + testKey, APIKey: testKey},
			{BaseURL: "https://h", APIKey: testKey + "\x00"},
			{BaseURL: "https://h", APIKey: testKey, Insecure: true, HTTPClient: &http.Client{}},
			{BaseURL: "https://h", APIKey: testKey, Deadline: -1},
		} {
			if _, err := New(o); err == nil {
				t.Errorf("New(%+v) succeeded, want an error", o)
			} else {
				assertNoKey(t, err)
			}
		}
	})
}

func TestFormattingHidesKey(t *testing.T) {
	t.Parallel()
	opts := Options{BaseURL: "https://h/api/v1", APIKey: testKey, MaxAttempts: 3}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{opts, &opts, c, *c} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			if s := fmt.Sprintf(verb, v); strings.Contains(s, testKey) {
				t.Errorf("fmt %s of %T shows the key: %s", verb, v, s)
			}
		}
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
	}{
		{"https://n8n.example.com", "https://n8n.example.com"},
		{"https://n8n.example.com/", "https://n8n.example.com"},
		{"https://n8n.example.com/api/v1", "https://n8n.example.com"},
		{"https://n8n.example.com/api/v1/", "https://n8n.example.com"},
		{" HTTPS://N8N.Example.com:8443//api/v1// \n", "https://n8n.example.com:8443"},
		{"http://127.0.0.1:5678", "http://127.0.0.1:5678"},
		{"https://example.com/n8n", "https://example.com/n8n"},
		{"https://example.com/n8n/api/v1", "https://example.com/n8n"},
	}
	for _, tt := range tests {
		c, err := New(Options{BaseURL: tt.in, APIKey: "k"})
		if err != nil {
			t.Errorf("New(%q): %v", tt.in, err)
			continue
		}
		if got := c.BaseURL(); got != tt.want {
			t.Errorf("New(%q).BaseURL() = %q, want %q", tt.in, got, tt.want)
		}
	}

	for _, in := range []string{"", "n8n.example.com", "ftp://h", "https://", "https://u:p@h", "https://h?x=1", "https://h/#f", "://bad"} {
		if _, err := New(Options{BaseURL: in, APIKey: "k"}); err == nil {
			t.Errorf("New(%q) succeeded, want an error", in)
		}
	}
	if _, err := New(Options{BaseURL: "https://h", APIKey: " \n"}); err == nil {
		t.Error("New with a blank key succeeded")
	}

	c, err := New(Options{BaseURL: "https://h", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if c.deadline != DefaultDeadline || c.maxAttempts != DefaultMaxAttempts || c.attemptTimeout != DefaultAttemptTimeout || c.maxPages != MaxPages {
		t.Errorf("defaults: deadline %v, attempts %d, attempt timeout %v, pages %d", c.deadline, c.maxAttempts, c.attemptTimeout, c.maxPages)
	}
}

func TestBaseURLFormsReachTheAPI(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, okPage) })
	for _, suffix := range []string{"", "/", "/api/v1", "/api/v1/"} {
		if _, err := list(t, newTestClient(t, f.srv.URL+suffix, nil)); err != nil {
			t.Errorf("BaseURL %q: %v", f.srv.URL+suffix, err)
		}
	}
	for i, r := range f.requests() {
		if r.Path != "/api/v1/workflows" {
			t.Errorf("request %d: path %q", i+1, r.Path)
		}
	}
}

func TestKeyTrimmed(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, okPage) })
	c := newTestClient(t, f.srv.URL, func(o *Options) { o.APIKey = "  " + testKey + "\n" })
	if _, err := list(t, c); err != nil {
		t.Fatal(err)
	}
	if got := f.requests()[0].Key; got != testKey {
		t.Errorf("sent key %q, want it trimmed", got)
	}
}

func TestHost(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"https://n8n.example.com":              "n8n.example.com",
		"https://n8n.example.com/":             "n8n.example.com",
		"https://N8N.example.com:8443/api/v1/": "n8n.example.com:8443",
		"http://127.0.0.1:5678":                "127.0.0.1:5678",
		"n8n.example.com":                      "n8n.example.com",
		"https://[::1]:5678/n8n":               "[::1]:5678",
		"https://user:pw@h.example":            "h.example",
		"":                                     "",
		"https://":                             "",
		"https://%zz":                          "",
	}
	for in, want := range tests {
		if got := Host(in); got != want {
			t.Errorf("Host(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactURL(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"https://h/api/v1/workflows?limit=250&cursor=abc": "https://h/api/v1/workflows",
		"https://user:secret@h/x?token=t#frag":            "https://h/x",
		"https://h/api/v1":                                "https://h/api/v1",
		"http://h:80/?":                                   "http://h:80/",
		"https://h/%zz?token=secret":                      "https://h/%zz",
		"://u:secret@h/p?q#f":                             "://h/p",
		"u:secret@h%zz":                                   "h%zz",
	}
	for in, want := range tests {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEachHandsOverAPageBeforeTheNext checks that every workflow of a page
// reaches fn before the next page is asked for, so a caller that writes
// each one out never holds more than one page.
func TestEachHandsOverAPageBeforeTheNext(t *testing.T) {
	t.Parallel()
	const pages, perPage = 6, 3
	var mu sync.Mutex
	var given []string
	var behind []string // requests made while a previous page was not all handed over
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		mu.Lock()
		if len(given) != (n-1)*perPage {
			behind = append(behind, fmt.Sprintf("page %d asked for after %d workflows", n, len(given)))
		}
		mu.Unlock()
		var b strings.Builder
		b.WriteString(`{"data":[`)
		for i := range perPage {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"id":"p%dw%d"}`, n, i)
		}
		next := "null"
		if n < pages {
			next = fmt.Sprintf(`"c%d"`, n)
		}
		writeJSON(w, 200, b.String()+`],"nextCursor":`+next+`}`)
	})
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	err := newTestClient(t, f.srv.URL, nil).Each(ctx, func(w Workflow) error {
		mu.Lock()
		given = append(given, w.ID)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatalf("Each: %v", err)
	}
	if behind != nil {
		t.Errorf("pages fetched ahead of fn: %v", behind)
	}
	if len(given) != pages*perPage || f.count() != pages {
		t.Errorf("%d workflows in %d requests, want %d in %d", len(given), f.count(), pages*perPage, pages)
	}
}

// TestEachStopsAtFnError checks that fn's error ends the listing at once
// and comes back as it is, not wrapped into an *Error.
func TestEachStopsAtFnError(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, n int) {
		writeJSON(w, 200, `{"data":[{"id":"a"},{"id":"b"}],"nextCursor":"c`+fmt.Sprint(n)+`"}`)
	})
	stop := errors.New("disk full")
	calls := 0
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	err := newTestClient(t, f.srv.URL, nil).Each(ctx, func(Workflow) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 || f.count() != 1 {
		t.Errorf("Each = %v after %d calls and %d requests; want fn's error after 1 and 1", err, calls, f.count())
	}
}

// readBody gives the bytes up to limit and says whether there were more,
// whatever length the response announced, true or not.
func TestReadBody(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("0123456789", 3000) // 30,000 bytes
	for _, tt := range []struct {
		limit, size int64
		want        int
		more        bool
	}{
		{50000, -1, 30000, false},
		{30000, -1, 30000, false},
		{29999, -1, 29999, true},
		{20000, -1, 20000, true}, // grows 512 .. 16384, then to 20001, not 32768
		{50000, 30000, 30000, false},
		{30000, 30000, 30000, false},
		{29999, 30000, 29999, true},
		{100, -1, 100, true},
		{50000, 10, 30000, false},        // announced less than sent
		{50000, 1 << 40, 30000, false},   // announced more: the buffer stays within limit
		{1 << 30, 1 << 30, 30000, false}, // announced 1 GiB, sent 30 KB: no 1 GiB buffer
		{0, -1, 0, true},
	} {
		got, more, err := readBody(strings.NewReader(body), tt.limit, tt.size)
		if err != nil || len(got) != tt.want || more != tt.more || string(got) != body[:tt.want] {
			t.Errorf("readBody(limit %d, size %d) = %d bytes, more %v, %v; want %d, %v", tt.limit, tt.size, len(got), more, err, tt.want, tt.more)
		}
		if int64(cap(got)) > min(tt.limit, 16<<20)+1 { // an announced length reserves at most 16 MiB
			t.Errorf("readBody(limit %d, size %d) grew its buffer to %d", tt.limit, tt.size, cap(got))
		}
	}
}
