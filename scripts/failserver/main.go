// Command failserver is the dependency of scripts/e2e-oracle.sh: an HTTP
// server on loopback that fails every request the way its path says, and
// logs each request (time, method, path, headers) as a JSON line, so that
// the harness can count what n8n really sent.
//
// A path is /<case>/<mode>/...; mode is one of
//
//	500, 502       that status at once
//	429            429 with Retry-After: 30
//	timeout        no answer until the client gives up (at most -hold)
//	ok             200 {"ok": true}
//	page3-500      200 [{"page": N}] for ?page=1 and 2, then 500 (a
//	               pagination that fails on its third page)
//	openai-ok      an OpenAI chat completion: a call of the first tool
//	               offered, else the text "ok"
//
// A path /webhook/... goes to the n8n at -n8n while -webhook-budget lasts
// (a self-restart that would never end otherwise), then answers 503.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// secretHeaders are logged without their value.
var secretHeaders = map[string]bool{"authorization": true, "x-api-key": true, "x-goog-api-key": true, "api-key": true}

type server struct {
	mu     sync.Mutex
	log    *json.Encoder
	n8n    string
	budget int
	hold   time.Duration
}

type entry struct {
	TimeMS  int64             `json:"t_ms"`
	Case    string            `json:"case"`
	Mode    string            `json:"mode"`
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
}

func main() {
	addr := flag.String("addr", "127.0.0.1:25690", "listen address (loopback only)")
	logPath := flag.String("log", "", "JSON lines log of every request (default stdout)")
	n8n := flag.String("n8n", "", "base URL of the n8n that /webhook/ paths are sent on to")
	budget := flag.Int("webhook-budget", 0, "how many /webhook/ requests are sent on to n8n")
	hold := flag.Duration("hold", 60*time.Second, "longest a timeout request is held")
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || (host != "127.0.0.1" && host != "localhost") {
		log.Fatalf("failserver: -addr %q: listen on 127.0.0.1 only", *addr)
	}
	out := os.Stdout
	if *logPath != "" {
		if out, err = os.OpenFile(*logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	s := &server{log: json.NewEncoder(out), n8n: strings.TrimRight(*n8n, "/"), budget: *budget, hold: *hold}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "failserver: listening on %s\n", ln.Addr())
	log.Fatal(http.Serve(ln, s))
}

func (s *server) record(r *http.Request, c, mode string, status int) {
	h := map[string]string{}
	for k, v := range r.Header {
		k = strings.ToLower(k)
		if secretHeaders[k] {
			h[k] = "(redacted)"
			continue
		}
		h[k] = strings.Join(v, ", ")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.log.Encode(entry{TimeMS: time.Now().UnixMilli(), Case: c, Mode: mode, Method: r.Method, Path: r.URL.Path, Status: status, Headers: h})
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 3)
	c, mode := parts[0], ""
	if len(parts) > 1 {
		mode = parts[1]
	}
	if c == "webhook" {
		s.forward(w, r)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	switch mode {
	case "500", "502":
		status := http.StatusInternalServerError
		if mode == "502" {
			status = http.StatusBadGateway
		}
		s.record(r, c, mode, status)
		http.Error(w, `{"error":{"message":"failserver: always `+mode+`"}}`, status)
	case "429":
		s.record(r, c, mode, http.StatusTooManyRequests)
		w.Header().Set("Retry-After", "30")
		http.Error(w, `{"error":{"message":"failserver: rate limited"}}`, http.StatusTooManyRequests)
	case "timeout":
		s.record(r, c, mode, 0)
		select {
		case <-r.Context().Done():
		case <-time.After(s.hold):
			http.Error(w, "failserver: held too long", http.StatusGatewayTimeout)
		}
	case "page3-500":
		if p := r.URL.Query().Get("page"); p == "1" || p == "2" {
			s.record(r, c, mode, http.StatusOK)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `[{"page":`+p+`}]`)
			return
		}
		s.record(r, c, mode, http.StatusInternalServerError)
		http.Error(w, `{"error":{"message":"failserver: page 3 fails"}}`, http.StatusInternalServerError)
	case "ok":
		s.record(r, c, mode, http.StatusOK)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	case "openai-ok":
		s.record(r, c, mode, http.StatusOK)
		w.Header().Set("Content-Type", "application/json")
		w.Write(completion(body))
	default:
		s.record(r, c, mode, http.StatusNotFound)
		http.Error(w, "failserver: want /<case>/<500|502|429|timeout|ok|openai-ok>/...", http.StatusNotFound)
	}
}

// completion answers an OpenAI chat completion request: a call of the
// first tool offered (the agent's worst case: it always calls its tool),
// else the text "ok".
func completion(body []byte) []byte {
	var req struct {
		Model string `json:"model"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	msg := map[string]any{"role": "assistant", "content": "ok"}
	finish := "stop"
	if len(req.Tools) > 0 {
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"id": fmt.Sprintf("call_%d", time.Now().UnixNano()), "type": "function",
			"function": map[string]any{"name": req.Tools[0].Function.Name, "arguments": "{}"}}}}
		finish = "tool_calls"
	}
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-failserver", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
	})
	return b
}

// forward sends a /webhook/ request on to n8n while the budget lasts.
func (s *server) forward(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	ok := s.n8n != "" && s.budget > 0
	if ok {
		s.budget--
	}
	s.mu.Unlock()
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	status := http.StatusServiceUnavailable
	if ok {
		req, _ := http.NewRequest(r.Method, s.n8n+r.URL.RequestURI(), bytes.NewReader(body))
		req.Header.Set("Content-Type", r.Header.Get("Content-Type"))
		resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
		if err == nil {
			status = resp.StatusCode
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		} else {
			status = http.StatusBadGateway
		}
	}
	c := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/webhook/"), "/", 3)
	name := c[0]
	if len(c) > 1 {
		name = c[1] // /webhook/oracle/<case>
	}
	s.record(r, name, "webhook", status)
	w.WriteHeader(status)
}
