package simulate

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

func build(t testing.TB, srcs ...string) *analyze.Set {
	t.Helper()
	var files []*n8nschema.File
	for i, src := range srcs {
		f := n8nschema.Parse(n8nschema.NewSource("w"+string(rune('a'+i))+".json", []byte(src)))
		if len(f.Problems) > 0 {
			t.Fatal(f.Problems)
		}
		files = append(files, f)
	}
	return analyze.Build(files, analyze.DefaultOptions())
}

func load(t *testing.T, path string) *analyze.Set {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := n8nschema.Parse(n8nschema.NewSource(filepath.Base(path), src))
	return analyze.Build([]*n8nschema.File{f}, analyze.DefaultOptions())
}

// oneNode is a webhook and one HTTP Request with 3 tries 1,000 ms apart.
const oneNode = `{"name": "one", "nodes": [
 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "x"}},
 {"name": "Call vendor", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 0],
  "parameters": {"url": "https://api.vendor.test/v1/x", "options": {"timeout": 10000}},
  "retryOnFail": true, "maxTries": 3, "waitBetweenTries": 1000}],
 "connections": {"Hook": {"main": [[{"node": "Call vendor", "type": "main", "index": 0}]]}}}`

// chainSDK is a webhook and an LLM chain whose Bedrock model the AWS SDK retries twice
// in its SDK: 3 attempts, p-retry's randomised backoff between them.
const chainSDK = `{"name": "sdk", "nodes": [
 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "y"}},
 {"name": "Chain", "type": "@n8n/n8n-nodes-langchain.chainLlm", "typeVersion": 1.5, "position": [200, 0], "parameters": {}},
 {"name": "Model", "type": "@n8n/n8n-nodes-langchain.lmChatAwsBedrock", "typeVersion": 1, "position": [200, 200],
  "parameters": {"model": "anthropic.claude-3-haiku-20240307-v1:0", "options": {"maxTokensToSample": 500}}}],
 "connections": {"Hook": {"main": [[{"node": "Chain", "type": "main", "index": 0}]]},
  "Model": {"ai_languageModel": [[{"node": "Chain", "type": "ai_languageModel", "index": 0}]]}}}`

func cfg(dep string, outage time.Duration) Config {
	return Config{Outages: []Outage{{dep, outage}}, Executions: 1, Workers: 1, Concurrency: 10,
		Latency: 200 * time.Millisecond, Failure: Fail502, Seed: 1, Window: 60 * time.Second}
}

func TestOneNodeRetriesOneSecondApart(t *testing.T) {
	set := build(t, oneNode)
	for _, tc := range []struct {
		latency time.Duration
		want    []int64
	}{
		{0, []int64{0, 1000, 2000}},
		{200 * time.Millisecond, []int64{0, 1200, 2400}},
	} {
		c := cfg("api.vendor.test", 10*time.Second)
		c.Latency = tc.latency
		var got []int64
		c.Trace = func(a Attempt) {
			if a.OK {
				t.Errorf("attempt at %d ms succeeded during the outage", a.SentMS)
			}
			got = append(got, a.SentMS)
		}
		r, err := Run(set, c)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("latency %v: attempts sent at %v ms, want %v", tc.latency, got, tc.want)
		}
		tot := r.Totals
		if tot.Failed != 1 || tot.Succeeded != 0 || tot.AttemptsDuring != 3 || tot.AttemptsAfter != 0 {
			t.Errorf("totals %+v", tot)
		}
	}
}

func TestTimeoutFailsAfterTheNodeTimeout(t *testing.T) {
	c := cfg("api.vendor.test", 60*time.Second)
	c.Failure = FailTimeout
	c.Window = 2 * time.Minute
	var got []int64
	c.Trace = func(a Attempt) { got = append(got, a.SentMS, a.AnsweredMS) }
	if _, err := Run(build(t, oneNode), c); err != nil {
		t.Fatal(err)
	}
	// 10 s timeout, then 1 s wait: 0–10, 11–21, 22–32 s.
	if want := []int64{0, 10000, 11000, 21000, 22000, 32000}; !slices.Equal(got, want) {
		t.Errorf("attempts (sent, failed) %v ms, want %v", got, want)
	}
}

func TestLockstepBins(t *testing.T) {
	c := cfg("api.vendor.test", 10*time.Second)
	c.Executions = 10
	r, err := Run(build(t, oneNode), c)
	if err != nil {
		t.Fatal(err)
	}
	d := r.Dependencies[0]
	if d.Name != "api.vendor.test" {
		t.Fatal(d.Name)
	}
	want := make([]int, 60)
	want[0], want[1], want[2] = 10, 10, 10
	if diff := cmp.Diff(want, d.Sent); diff != "" {
		t.Errorf("sent per second (-want +got):\n%s", diff)
	}
	failed := make([]int, 60)
	failed[0], failed[1], failed[2] = 10, 10, 10 // 502s answer 200 ms after sending
	if diff := cmp.Diff(failed, d.Failed); diff != "" {
		t.Errorf("failed per second (-want +got):\n%s", diff)
	}
	if r.Totals.Failed != 10 || d.AttemptsDuring != 30 || d.Peak != 10 || r.Totals.PeakInFlight != 10 {
		t.Errorf("totals %+v, dependency peak %d", r.Totals, d.Peak)
	}
}

// With 10 slots and 100 queued executions, fixed waits hand the slots over
// in lockstep: the last try of one batch and the first of the next land in
// the same second. p-retry's randomised backoff spreads the batches apart.
func TestJitterLowersThePeak(t *testing.T) {
	run := func(src, dep string) Dependency {
		c := cfg(dep, 5*time.Minute)
		c.Executions, c.Window = 100, 6*time.Minute
		r, err := Run(build(t, src), c)
		if err != nil {
			t.Fatal(err)
		}
		return r.Dependencies[0]
	}
	fixed, jitter := run(oneNode, "api.vendor.test"), run(chainSDK, "aws-bedrock")
	if fixed.AttemptsDuring != 300 || jitter.AttemptsDuring != 300 {
		t.Fatalf("attempts: fixed %d, jitter %d; want 300 each", fixed.AttemptsDuring, jitter.AttemptsDuring)
	}
	if fixed.Peak != 20 || jitter.Peak != 15 {
		t.Errorf("peak per second: fixed %d at %d s, jitter %d at %d s; want 20 and 15", fixed.Peak, fixed.PeakS, jitter.Peak, jitter.PeakS)
	}
}

func TestInFlightBoundedAndQueueAccounted(t *testing.T) {
	for _, window := range []time.Duration{20 * time.Second, 10 * time.Minute} {
		c := cfg("api.vendor.test", 30*time.Second)
		c.Executions, c.Workers, c.Concurrency, c.Window = 500, 2, 5, window
		r, err := Run(build(t, oneNode), c)
		if err != nil {
			t.Fatal(err)
		}
		tot := r.Totals
		if slices.Max(r.InFlight) > 10 || tot.PeakInFlight != 10 {
			t.Errorf("window %v: in flight peaked at %d, want 10", window, tot.PeakInFlight)
		}
		if tot.Arrived != tot.Succeeded+tot.Failed+tot.StillQueued+tot.StillRunning {
			t.Errorf("window %v: %d arrived but %+v", window, tot.Arrived, tot)
		}
		if window == 20*time.Second {
			// 2.6 s per batch of 10: 8 batches done, the 9th running.
			if tot.Failed != 70 || tot.StillRunning != 10 || tot.StillQueued != 420 || tot.DrainS != nil || len(r.Notes) != 1 {
				t.Errorf("short window: %+v, notes %q", tot, r.Notes)
			}
			continue
		}
		// Batch k starts at 2.6k s: batches 0–10 fail, batch 11's third
		// try (31.0 s) succeeds and it ends at 31.2 s; the other 380
		// executions take 0.2 s per batch of 10, 7.6 s: the last ends at
		// 38.8 s, 8.8 s after recovery.
		if tot.Failed != 110 || tot.Succeeded != 390 || tot.StillQueued != 0 || tot.DrainS == nil || *tot.DrainS != 8.8 {
			t.Errorf("long window: %+v drain %v", tot, tot.DrainS)
		}
	}
}

func TestSeedIncidentSelfTriggerRunsToTheEndOfTheWindow(t *testing.T) {
	set := load(t, "../testdata/examples/catalog-enrichment.json")
	c := cfg("openai", 10*time.Minute)
	c.Window = 10 * time.Minute
	r, err := Run(set, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Restarts) != 1 {
		t.Fatalf("restarts %+v", r.Restarts)
	}
	rs := r.Restarts[0]
	// Each trip: fetch 0.2 s, 5 tries 5 s apart (21 s), restart call 0.2 s.
	if rs.Node != "Restart from last batch" || rs.Kind != "self-trigger" || !rs.Active || rs.Count != 28 {
		t.Errorf("restart %+v", rs)
	}
	var openai Dependency
	for _, d := range r.Dependencies {
		if d.Name == "openai" {
			openai = d
		}
	}
	if openai.AttemptsDuring != 5*28+1 || openai.PaidCalls != openai.AttemptsDuring {
		t.Errorf("openai %+v", openai)
	}
	if len(r.Notes) == 0 || !strings.Contains(r.Notes[0], `self-trigger through "Restart from last batch"`) {
		t.Errorf("notes %q", r.Notes)
	}
}

func TestDeterministicForASeed(t *testing.T) {
	c := cfg("aws-bedrock", time.Minute)
	c.Executions = 50
	a, err := Run(build(t, chainSDK), c)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Run(build(t, chainSDK), c)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two runs differ:\n%s", diff)
	}
	c.Seed = 2
	d, _ := Run(build(t, chainSDK), c)
	if cmp.Equal(a.Dependencies, d.Dependencies) {
		t.Error("seed 2 gave the same series as seed 1")
	}
}

func TestEventCap(t *testing.T) {
	for _, tc := range []struct {
		executions int
		want       string
	}{
		{1000, "1000 executions would pass the cap of 500 events before the first one runs"},
		{100, "the run passed 500 events at t=9.2 s"},
	} {
		c := cfg("api.vendor.test", 10*time.Second)
		c.Executions, c.MaxEvents = tc.executions, 500
		_, err := Run(build(t, oneNode), c)
		if !errors.Is(err, ErrTooManyEvents) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
	c := cfg("api.vendor.test", 10*time.Second)
	c.Window = 25 * time.Hour
	if _, err := Run(build(t, oneNode), c); err == nil || !strings.Contains(err.Error(), "longer than 24h0m0s") {
		t.Errorf("err = %v", err)
	}
}

// The simulation and the attempt model agree: one execution against a
// dependency that never answers sends exactly the static worst case.
func TestAgreesWithTheAttemptModel(t *testing.T) {
	caller := `{"name": "caller", "nodes": [
 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "c"}},
 {"name": "Run sub", "type": "n8n-nodes-base.executeWorkflow", "typeVersion": 1.2, "position": [200, 0],
  "parameters": {"source": "database", "workflowId": {"__rl": true, "value": "Sub00001", "mode": "id"}},
  "retryOnFail": true, "maxTries": 3, "waitBetweenTries": 2000}],
 "connections": {"Hook": {"main": [[{"node": "Run sub", "type": "main", "index": 0}]]}}}`
	sub := `{"id": "Sub00001", "name": "sub", "nodes": [
 {"name": "Start", "type": "n8n-nodes-base.executeWorkflowTrigger", "typeVersion": 1.1, "position": [0, 0], "parameters": {}},
 {"name": "Post", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 0],
  "parameters": {"method": "POST", "url": "https://api.vendor.test/v1/orders", "options": {"timeout": 5000}},
  "retryOnFail": true, "maxTries": 2, "waitBetweenTries": 500}],
 "connections": {"Start": {"main": [[{"node": "Post", "type": "main", "index": 0}]]}}}`
	agent := `{"name": "agent", "nodes": [
 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "a"}},
 {"name": "Agent", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 1.7, "position": [200, 0], "parameters": {"promptType": "define", "text": "={{ $json.body.q }}"},
  "retryOnFail": true, "maxTries": 2},
 {"name": "Model", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "position": [200, 200],
  "parameters": {"model": "gpt-4o-mini", "options": {"maxRetries": 1}}}],
 "connections": {"Hook": {"main": [[{"node": "Agent", "type": "main", "index": 0}]]},
  "Model": {"ai_languageModel": [[{"node": "Agent", "type": "ai_languageModel", "index": 0}]]}}}`
	for _, tc := range []struct {
		name, dep, node string
		srcs            []string
		want            int
		failure         Failure
		dup             int
	}{
		{"caller retries × node retries", "api.vendor.test", "Post", []string{caller, sub}, 6, Fail502, 0},
		// Every POST after the first timed out may write twice: 5 of 6,
		// the caller's re-runs included.
		{"timed-out writes", "api.vendor.test", "Post", []string{caller, sub}, 6, FailTimeout, 5},
		// The chat model sends one request per try of the agent.
		{"agent retries, the model's one request each", "openai", "Model", []string{agent}, 2, Fail502, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := build(t, tc.srcs...)
			var static int
			for _, op := range set.Operations {
				if op.Node.Name == tc.node {
					static = op.Attempts
				}
			}
			if static != tc.want {
				t.Fatalf("attempt model says %d, want %d", static, tc.want)
			}
			c := cfg(tc.dep, time.Hour)
			c.Window, c.Failure = time.Hour, tc.failure
			r, err := Run(set, c)
			if err != nil {
				t.Fatal(err)
			}
			d := r.Dependencies[0]
			if d.AttemptsDuring != static || d.DuplicateWrites != tc.dup || r.Totals.Failed != 1 {
				t.Errorf("simulated %d attempts, %d duplicate writes, %d failed executions; want %d, %d, 1",
					d.AttemptsDuring, d.DuplicateWrites, r.Totals.Failed, static, tc.dup)
			}
		})
	}
}

func TestTextEscapesWorkflowText(t *testing.T) {
	r := &Result{WindowS: 2, Workers: 1, Concurrency: 1, Waiting: []int{0, 0}, InFlight: []int{1, 0},
		Outages:      []OutageResult{{Dependency: "evil<script>&\x1b[31m.test", DurationS: 1}},
		Dependencies: []Dependency{{Name: "evil<script>&\x1b[31m.test", DownS: 1, Sent: []int{3, 0}, Failed: []int{0, 0}, Open: []int{1, 0}, Peak: 3}}}
	var b strings.Builder
	if err := Text(&b, []Labelled{{Result: r}}, false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "\x1b") {
		t.Errorf("a control character reached the terminal:\n%q", b.String())
	}
}

// loop is a webhook and a call that goes on after failures and loops back
// to itself through a No-op: nothing bounds it.
const loop = `{"name": "loop", "settings": {"executionTimeout": TIMEOUT}, "nodes": [
 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "l"}},
 {"name": "Poll", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 0],
  "parameters": {"url": "https://api.vendor.test/v1/status"}, "onError": "continueRegularOutput"},
 {"name": "Again", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [400, 0], "parameters": {}}],
 "connections": {"Hook": {"main": [[{"node": "Poll", "type": "main", "index": 0}]]},
  "Poll": {"main": [[{"node": "Again", "type": "main", "index": 0}]]},
  "Again": {"main": [[{"node": "Poll", "type": "main", "index": 0}]]}}}`

func TestUnboundedLoopEndsWithTheWindowOrTheTimeout(t *testing.T) {
	for _, tc := range []struct {
		timeout          string
		attempts, passes int
		timedOut         int
		running          int
	}{
		// One pass every 200 ms: 300 in 60 s, still running at the end.
		{"-1", 300, 299, 0, 1},
		// executionTimeout 30 s, checked before a node starts: 150 passes.
		{"30", 150, 149, 1, 0},
	} {
		set := build(t, strings.Replace(loop, "TIMEOUT", tc.timeout, 1))
		r, err := Run(set, cfg("api.vendor.test", 10*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		d := r.Dependencies[0]
		if got := d.AttemptsDuring + d.AttemptsAfter; got != tc.attempts || r.Totals.TimedOut != tc.timedOut || r.Totals.StillRunning != tc.running {
			t.Errorf("timeout %s: %d attempts, %+v", tc.timeout, got, r.Totals)
		}
		if len(r.Restarts) != 1 || r.Restarts[0].Kind != "loop" || r.Restarts[0].Count != tc.passes {
			t.Errorf("timeout %s: restarts %+v", tc.timeout, r.Restarts)
		}
	}
}

// An agent whose tool fails keeps iterating: each round a model call and
// the tool's tries, which its root makes without a wait when
// waitBetweenTries is 0 (unlike the main loop, where 0 means 1,000 ms).
func TestAgentIteratesOverAFailingTool(t *testing.T) {
	src := `{"name": "agent", "nodes": [
 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "a"}},
 {"name": "Agent", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": 1.7, "position": [200, 0], "parameters": {"promptType": "define", "text": "={{ $json.body.q }}"}},
 {"name": "Model", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "position": [200, 200],
  "parameters": {"model": "gpt-4o-mini", "options": {"maxTokens": 100}}},
 {"name": "Lookup", "type": "n8n-nodes-base.httpRequestTool", "typeVersion": 4.2, "position": [400, 200],
  "parameters": {"url": "https://api.vendor.test/v1/lookup"}, "retryOnFail": true, "maxTries": 2, "waitBetweenTries": 0}],
 "connections": {"Hook": {"main": [[{"node": "Agent", "type": "main", "index": 0}]]},
  "Model": {"ai_languageModel": [[{"node": "Agent", "type": "ai_languageModel", "index": 0}]]},
  "Lookup": {"ai_tool": [[{"node": "Agent", "type": "ai_tool", "index": 0}]]}}}`
	set := build(t, src)
	var static *analyze.Operation
	for _, op := range set.Operations {
		if op.Node.Name == "Lookup" {
			static = op
		}
	}
	c := cfg("api.vendor.test", time.Hour)
	var tool []int64
	c.Trace = func(a Attempt) {
		if a.Node == "Lookup" && len(tool) < 4 {
			tool = append(tool, a.SentMS)
		}
	}
	r, err := Run(set, c)
	if err != nil {
		t.Fatal(err)
	}
	// Model 0–0.2 s, tool 0.2 and 0.4 s, model 0.6 s, tool 0.8 and 1.0 s.
	if want := []int64{200, 400, 800, 1000}; !slices.Equal(tool, want) {
		t.Errorf("tool attempts at %v ms, want %v", tool, want)
	}
	var vendor, openai int
	for _, d := range r.Dependencies {
		switch d.Name {
		case "api.vendor.test":
			vendor = d.AttemptsDuring
		case "openai":
			openai = d.AttemptsDuring
		}
	}
	if vendor != static.Attempts*static.CallsPerItem || vendor != 20 || openai != 10 || r.Totals.Succeeded != 1 {
		t.Errorf("vendor %d (static %d × %d), openai %d, totals %+v", vendor, static.Attempts, static.CallsPerItem, openai, r.Totals)
	}
}

// TestNoEntryWorkflowSaysSo: a sub-workflow alone has no trigger that
// starts it; the run says so instead of charting zeros without a word.
func TestNoEntryWorkflowSaysSo(t *testing.T) {
	sub := `{"name": "sub", "nodes": [
 {"name": "Called", "type": "n8n-nodes-base.executeWorkflowTrigger", "typeVersion": 1.1, "position": [0, 0], "parameters": {}},
 {"name": "Call vendor", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 0],
  "parameters": {"url": "https://api.vendor.test/v1/x"}, "retryOnFail": true, "maxTries": 3}],
 "connections": {"Called": {"main": [[{"node": "Call vendor", "type": "main", "index": 0}]]}}}`
	r, err := Run(build(t, sub), cfg("api.vendor.test", 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if r.Totals.Arrived != 0 || len(r.Notes) != 1 || !strings.HasPrefix(r.Notes[0], "no execution arrived") {
		t.Errorf("arrived %d, notes %q", r.Totals.Arrived, r.Notes)
	}
}

// The seed incident's error output sends one restart per failed item, so
// with several items per execution the restarts multiply each trip, as
// n8n 2.8.4 did (executions 1, 3, 9, 27, 81 about 20 s apart with three
// items; docs/n8n-facts.md, "The engine as test oracle").
func TestSeedIncidentRestartsOncePerFailedItem(t *testing.T) {
	set := load(t, "../testdata/examples/catalog-enrichment.json")
	for _, tc := range []struct {
		items    int
		window   time.Duration
		started  int
		restarts int
	}{
		// One trip every ~20 s: 12 executions in 240 s.
		{1, 240 * time.Second, 12, 11},
		// 1 + 3 + 9 + 27 + 81 executions in 100 s.
		{3, 100 * time.Second, 121, 120},
	} {
		c := cfg("openai", tc.window)
		c.Window, c.Items, c.Concurrency = tc.window, tc.items, 1000
		var perTry []int64 // the first execution's OpenAI attempts
		c.Trace = func(a Attempt) {
			if a.Node == "OpenAI" && a.SentMS < 20_000 {
				perTry = append(perTry, a.SentMS)
			}
		}
		r, err := Run(set, c)
		if err != nil {
			t.Fatal(err)
		}
		if r.Totals.Started != tc.started || len(r.Restarts) != 1 || r.Restarts[0].Count != tc.restarts {
			t.Errorf("%d items: %d executions started, restarts %+v; want %d and %d", tc.items, r.Totals.Started, r.Restarts, tc.started, tc.restarts)
		}
		// A node that continues on fail tries every item in each try.
		if len(perTry) != 4*tc.items {
			t.Errorf("%d items: OpenAI attempts in the first 20 s at %v ms, want %d", tc.items, perTry, 4*tc.items)
		}
	}
}

// A node that does not continue on fail throws at its first failed item:
// one attempt per try whatever the items, and the run fails (observed:
// testdata/engine/onerror-zoho-stop, two items, 3 requests). An HTTP
// Request sends every item's request before it reads an answer: each try
// sends all 5 (observed: onerror-items-stop, two items, 6 requests).
func TestFirstFailedItemEndsTheTry(t *testing.T) {
	zoho := strings.Replace(oneNode, `"type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2`,
		`"type": "n8n-nodes-base.zohoCrm", "typeVersion": 1`, 1)
	for _, tc := range []struct {
		name, src, dep string
		want           int
	}{
		{"zoho", zoho, "zohoCrm", 3},
		{"http", oneNode, "api.vendor.test", 15},
	} {
		c := cfg(tc.dep, time.Minute)
		c.Items = 5
		r, err := Run(build(t, tc.src), c)
		if err != nil {
			t.Fatal(err)
		}
		if d := r.Dependencies[0]; d.AttemptsDuring != tc.want || r.Totals.Failed != 1 {
			t.Errorf("%s: %d attempts, %+v; want %d and 1 failed execution", tc.name, d.AttemptsDuring, r.Totals, tc.want)
		}
	}
}

// A node that continues on fail and hands its error on beside json (Zoho
// CRM) is not retried: one attempt per item (observed:
// testdata/engine/onerror-zoho-continue-regular, two items, 2 requests).
func TestContinuingZohoIsNotRetried(t *testing.T) {
	src := strings.Replace(oneNode, `"type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2`,
		`"type": "n8n-nodes-base.zohoCrm", "typeVersion": 1, "onError": "continueRegularOutput"`, 1)
	c := cfg("zohoCrm", time.Minute)
	c.Items = 5
	r, err := Run(build(t, src), c)
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Dependencies[0]; d.AttemptsDuring != 5 || r.Totals.Failed != 0 {
		t.Errorf("%d attempts, %+v; want 5 and no failed execution", d.AttemptsDuring, r.Totals)
	}
}

// An Agent v3 hands tool calls to the engine, which runs the tool as a
// node: before n8n 2.41 a tool that fails after its retries ends the
// execution (n8n 2.8.4: 3 tool attempts, 1 model call, failed); from
// 2.41.1 (the default) it gives the error back to its model, as an Agent
// v2 does, and goes on.
func TestAgentV3ToolFailureEndsTheExecution(t *testing.T) {
	src := `{"name": "agent", "nodes": [
 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "a"}},
 {"name": "Agent", "type": "@n8n/n8n-nodes-langchain.agent", "typeVersion": VERSION, "position": [200, 0], "parameters": {"promptType": "define", "text": "={{ $json.body.q }}"}},
 {"name": "Model", "type": "@n8n/n8n-nodes-langchain.lmChatOpenAi", "typeVersion": 1.2, "position": [200, 200],
  "parameters": {"model": "gpt-4o-mini", "options": {"maxTokens": 100}}},
 {"name": "Lookup", "type": "n8n-nodes-base.httpRequestTool", "typeVersion": 4.2, "position": [400, 200],
  "parameters": {"url": "https://api.vendor.test/v1/lookup"}, "retryOnFail": true}],
 "connections": {"Hook": {"main": [[{"node": "Agent", "type": "main", "index": 0}]]},
  "Model": {"ai_languageModel": [[{"node": "Agent", "type": "ai_languageModel", "index": 0}]]},
  "Lookup": {"ai_tool": [[{"node": "Agent", "type": "ai_tool", "index": 0}]]}}}`
	for _, tc := range []struct {
		version, n8n        string
		tool, model, failed int
	}{
		{"3", "2.8.4", 3, 1, 1},
		{"3.1", "2.8.4", 3, 1, 1},
		{"3.1", "1.123.81", 3, 1, 1},
		// 10 rounds of a model call and the tool's 3 tries, the last
		// one ending with an answer: the execution succeeds.
		{"3.1", "2.41.1", 30, 10, 0},
		{"3", "", 30, 10, 0},
		{"2.2", "2.8.4", 30, 10, 0},
	} {
		opts := analyze.DefaultOptions()
		if tc.n8n != "" {
			v, err := n8nschema.ParseVersion(tc.n8n)
			if err != nil {
				t.Fatal(err)
			}
			opts.N8nVersion = v
		}
		f := n8nschema.Parse(n8nschema.NewSource("w.json", []byte(strings.Replace(src, "VERSION", tc.version, 1))))
		r, err := Run(analyze.Build([]*n8nschema.File{f}, opts), cfg("api.vendor.test", time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		var tool, model int
		for _, d := range r.Dependencies {
			switch d.Name {
			case "api.vendor.test":
				tool = d.AttemptsDuring
			case "openai":
				model = d.AttemptsDuring
			}
		}
		if tool != tc.tool || model != tc.model || r.Totals.Failed != tc.failed {
			t.Errorf("agent v%s on n8n %q: %d tool attempts, %d model calls, %d failed; want %d, %d, %d",
				tc.version, tc.n8n, tool, model, r.Totals.Failed, tc.tool, tc.model, tc.failed)
		}
	}
}

// A vector store drives its embeddings sub-node: one execution against
// an embeddings provider that is down sends what the attempt model counts.
func TestVectorStoreDrivesItsEmbeddings(t *testing.T) {
	src := `{"name": "embed", "nodes": [
 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0], "parameters": {"path": "e"}},
 {"name": "Store", "type": "@n8n/n8n-nodes-langchain.vectorStoreInMemory", "typeVersion": 1.3, "position": [200, 0],
  "parameters": {"mode": "insert", "memoryKey": {"__rl": true, "value": "k", "mode": "list"}}},
 {"name": "Embeddings", "type": "@n8n/n8n-nodes-langchain.embeddingsOpenAi", "typeVersion": 1.2, "position": [200, 200], "parameters": {}},
 {"name": "Loader", "type": "@n8n/n8n-nodes-langchain.documentDefaultDataLoader", "typeVersion": 1.1, "position": [400, 200], "parameters": {}}],
 "connections": {"Hook": {"main": [[{"node": "Store", "type": "main", "index": 0}]]},
  "Embeddings": {"ai_embedding": [[{"node": "Store", "type": "ai_embedding", "index": 0}]]},
  "Loader": {"ai_document": [[{"node": "Store", "type": "ai_document", "index": 0}]]}}}`
	set := build(t, src)
	var static int
	for _, op := range set.Operations {
		if op.Node.Name == "Embeddings" {
			static = op.Attempts
		}
	}
	if static < 2 {
		t.Fatalf("attempt model says %d attempts for the embeddings", static)
	}
	c := cfg("openai", time.Hour)
	c.Window = time.Hour // the SDK's backoff doubles without a cap
	r, err := Run(set, c)
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Dependencies[0]; d.Name != "openai" || d.AttemptsDuring != static || r.Totals.Failed != 1 {
		t.Errorf("%s: %d attempts, %+v; want %d and 1 failed execution", d.Name, d.AttemptsDuring, r.Totals, static)
	}
}
