// Command oraclecheck is the judge of scripts/e2e-oracle.sh: it reads what
// n8n sent to scripts/failserver for each case of testdata/engine and
// compares it with what stormcheck says of the same workflow: the audit's
// operations[].attempts (× calls_per_item × items, one item where
// first_failure_ends_try), and the attempts simulate
// sends with the same outage, count and offsets. It prints a Markdown
// table and exits 1 when a case does not match.
//
// A case is a line of testdata/engine/cases.tsv:
//
//	case  outage  items  failure  sent
//
// outage lists the dependencies that are down (comma-separated, as the
// audit names them); the failure is simulate's --failure (502|timeout);
// sent is what n8n 2.8.4 sent that failed ("unbounded" for a
// self-restart), which TestRecordedAttempts holds the audit to without
// an n8n.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

type request struct {
	TimeMS int64  `json:"t_ms"`
	Case   string `json:"case"`
	Mode   string `json:"mode"`
	Status int    `json:"status"`
}

type attempt struct {
	SentMS     int64  `json:"sent_ms"`
	Dependency string `json:"dependency"`
	OK         bool   `json:"ok"`
}

type kase struct {
	name    string
	outage  []string
	items   string
	failure string
	sent    string
}

func main() {
	dir := flag.String("cases", "testdata/engine", "folder of the case workflows and cases.tsv")
	logPath := flag.String("log", "", "failserver's log")
	sc := flag.String("stormcheck", "stormcheck", "the stormcheck binary")
	latency := flag.String("latency", "20ms", "simulate's --latency: the round trip n8n measured to the local server")
	seed := flag.String("seed", "1", "simulate's --seed")
	only := flag.String("run", "", "only the cases whose name contains this")
	version := flag.String("n8n-version", "2.8.4", "the n8n release that ran the cases, given to audit and simulate")
	flag.Parse()
	cases, err := readCases(filepath.Join(*dir, "cases.tsv"))
	check(err)
	reqs, err := readLog(*logPath)
	check(err)
	fmt.Println("| case | n8n sent (failed + answered) | audit says | simulate says | offsets (n8n / simulate, s) | |")
	fmt.Println("|---|---|---|---|---|---|")
	bad := 0
	for _, c := range cases {
		if !strings.Contains(c.name, *only) {
			continue
		}
		row, ok := judge(c, reqs[c.name], filepath.Join(*dir, c.name+".json"), *sc, *version, *latency, *seed)
		fmt.Println(row)
		if !ok {
			bad++
		}
	}
	if bad > 0 {
		fmt.Fprintf(os.Stderr, "oraclecheck: %d cases do not match\n", bad)
		os.Exit(1)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "oraclecheck:", err)
		os.Exit(2)
	}
}

func readCases(path string) ([]kase, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []kase
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 5 {
			return nil, fmt.Errorf("%s:%d: want case, outage, items, failure, sent", path, i+1)
		}
		out = append(out, kase{f[0], strings.Split(f[1], ","), f[2], f[3], f[4]})
	}
	return out, nil
}

func readLog(path string) (map[string][]request, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string][]request{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r request
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, err
		}
		out[r.Case] = append(out[r.Case], r)
	}
	return out, sc.Err()
}

// judge compares one case and returns its table row.
func judge(c kase, reqs []request, file, sc, version, latency, seed string) (string, bool) {
	var failed, answered, restartAt []int64
	restarts, denied := 0, 0
	for _, r := range reqs {
		switch {
		case r.Mode == "webhook" && r.Status == 200:
			restarts++
			restartAt = append(restartAt, r.TimeMS)
		case r.Mode == "webhook":
			denied++
		case r.Status == 200:
			answered = append(answered, r.TimeMS)
		default:
			failed = append(failed, r.TimeMS)
		}
	}
	var notes []string
	ok := true
	fail := func(format string, a ...any) {
		ok = false
		notes = append(notes, fmt.Sprintf(format, a...))
	}
	if len(failed) == 0 {
		fail("n8n sent nothing that failed")
	}
	// The audit: the worst case one execution sends to the dependencies
	// that are down.
	auditSays, unbounded, err := audit(sc, file, version, c)
	if err != nil {
		fail("audit: %v", err)
	}
	switch {
	case unbounded:
		// A self-restart: n8n went on until failserver's budget of
		// restarts ran out.
		if denied == 0 {
			fail("the audit says unbounded, n8n stopped after %d restarts", restarts)
		}
	case auditSays != len(failed):
		fail("audit %d ≠ n8n %d", auditSays, len(failed))
	}
	// simulate: one execution at 0 s, the dependencies down for an hour,
	// as long a window as n8n took (and a wait step more).
	t0 := int64(math.MaxInt64)
	last := int64(0)
	for _, r := range reqs {
		t0, last = min(t0, r.TimeMS), max(last, r.TimeMS)
	}
	window := simWindow(failed, t0, last, unbounded)
	sim, err := simulate(sc, file, version, c, window, latency, seed)
	if err != nil {
		fail("simulate: %v", err)
	}
	var simFailed, simAnswered []int64
	for _, a := range sim {
		if a.OK {
			simAnswered = append(simAnswered, a.SentMS)
		} else {
			simFailed = append(simFailed, a.SentMS)
		}
	}
	slices.Sort(simFailed)
	slices.Sort(simAnswered)
	rel := func(ts []int64) []int64 {
		out := make([]int64, len(ts))
		for i, t := range ts {
			out[i] = t - t0
		}
		return out
	}
	nFailed, nAnswered := rel(failed), rel(answered)
	if unbounded {
		// Compare what n8n sent before the budget ran out.
		simFailed = cut(simFailed, len(nFailed))
		simAnswered = cut(simAnswered, len(nAnswered))
	}
	if len(simFailed) != len(nFailed) {
		fail("simulate %d ≠ n8n %d failed", len(simFailed), len(nFailed))
	} else if i, d := offBy(firstRun(nFailed, rel(restartAt)), simFailed); i >= 0 {
		fail("attempt %d: simulate %.1f s, n8n %.1f s (further apart than %.1f s: one wait step and n8n's own time)", i+1, float64(simFailed[i])/1000, float64(nFailed[i])/1000, float64(d)/1000)
	}
	if len(simAnswered) != len(nAnswered) {
		fail("simulate %d ≠ n8n %d answered", len(simAnswered), len(nAnswered))
	}
	sent := fmt.Sprintf("%d", len(failed))
	if len(answered) > 0 {
		sent += fmt.Sprintf(" + %d", len(answered))
	}
	if restarts+denied > 0 {
		sent += fmt.Sprintf(" (%d restarts, then %d refused)", restarts, denied)
	}
	says := strconv.Itoa(auditSays)
	if unbounded {
		says = "unbounded"
	}
	simSays := fmt.Sprintf("%d", len(simFailed))
	if len(simAnswered) > 0 {
		simSays += fmt.Sprintf(" + %d", len(simAnswered))
	}
	verdict := "match"
	if !ok {
		verdict = "**differs**: " + strings.Join(notes, "; ")
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s / %s | %s |", c.name, sent, says, simSays, secs(nFailed), secs(simFailed), verdict), ok
}

func cut(ts []int64, n int) []int64 {
	if len(ts) > n {
		return ts[:n]
	}
	return ts
}

// offBy returns the first attempt that is further from its match than
// one wait step (the smaller gap before it in the two series, at least
// 1 s) plus a quarter of its offset; and that bound; -1 when none is.
// The slack is n8n's own time (starting an execution or a sub-workflow,
// a node, a request), which simulate counts as nothing and which grows
// with the machine's load: on 2 busy cores, up to 0.3 s per step and 1 s
// per sub-workflow run. A wait step modelled wrong still shows: 5 s where
// n8n waits 1 s is 4 s off at the second attempt, where the bound is
// 1.25 s.
func offBy(a, b []int64) (int, int64) {
	for i := range a {
		step := int64(1000)
		if i > 0 {
			step = max(step, min(a[i]-a[i-1], b[i]-b[i-1]))
		}
		bound := step + a[i]/4
		if d := a[i] - b[i]; d > bound || -d > bound {
			return i, bound
		}
	}
	return -1, 0
}

// firstRun is the attempts sent before the first restart: after it, when
// the next executions start depends on how fast n8n answers its own
// webhook (0.1 s to 3 s here, with the machine's load), which simulate
// takes as --latency; those are compared by count only.
func firstRun(ts, restarts []int64) []int64 {
	if len(restarts) == 0 {
		return ts
	}
	first := slices.Min(restarts)
	var out []int64
	for _, t := range ts {
		if t < first {
			out = append(out, t)
		}
	}
	return out
}

func secs(ts []int64) string {
	const most = 12
	var parts []string
	for i, t := range ts {
		if i == most {
			parts = append(parts, fmt.Sprintf("… (%d)", len(ts)))
			break
		}
		parts = append(parts, strconv.FormatFloat(float64(t)/1000, 'f', 1, 64))
	}
	return strings.Join(parts, ", ")
}

// audit sums attempts × calls_per_item over the operations whose
// dependency is down; unbounded when one of them has no bound.
func audit(sc, file, version string, c kase) (int, bool, error) {
	out, err := exec.Command(sc, "audit", file, "--n8n-version", version, "--format", "json", "--fail-on", "never", "--items", c.items).Output()
	if err != nil {
		return 0, false, err
	}
	var rep struct {
		Workflows []struct {
			Operations []struct {
				Dependency string `json:"dependency"`
				Attempts   *int   `json:"attempts"`
				Calls      int    `json:"calls_per_item"`
				Down       int    `json:"calls_per_item_while_down"`
				FirstEnds  bool   `json:"first_failure_ends_try"`
				Unbounded  bool   `json:"unbounded"`
			} `json:"operations"`
		} `json:"workflows"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		return 0, false, err
	}
	// The audit counts per item; n8n sent for the items of one execution,
	// but one item's calls per try for a node whose first failure ends it.
	items, err := strconv.Atoi(c.items)
	if err != nil {
		return 0, false, fmt.Errorf("items %q: %v", c.items, err)
	}
	sum := 0
	for _, w := range rep.Workflows {
		for _, op := range w.Operations {
			if !slices.Contains(c.outage, op.Dependency) {
				continue
			}
			if op.Attempts == nil || op.Unbounded {
				return 0, true, nil
			}
			calls := max(op.Calls, 1)
			if op.Down > 0 {
				calls = op.Down // a failure ends the fan-out
			}
			if !op.FirstEnds {
				calls *= items
			}
			sum += *op.Attempts * calls
		}
	}
	return sum, false, nil
}

func simulate(sc, file, version string, c kase, windowS int64, latency, seed string) ([]attempt, error) {
	trace, err := os.CreateTemp("", "oracle-trace-*.jsonl")
	if err != nil {
		return nil, err
	}
	trace.Close()
	defer os.Remove(trace.Name())
	args := []string{"simulate", file, "--n8n-version", version, "--window", fmt.Sprintf("%ds", max(windowS, 1)), "--items", c.items, "--failure", c.failure,
		"--latency", latency, "--seed", seed, "--concurrency", "1000", "--format", "json", "--trace", trace.Name()}
	for _, d := range c.outage {
		args = append(args, "--outage", d+":1h")
	}
	cmd := exec.Command(sc, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	b, err := os.ReadFile(trace.Name())
	if err != nil {
		return nil, err
	}
	var out []attempt
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var a attempt
		if err := json.Unmarshal(line, &a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// simWindow is the window simulate replays, in seconds: as long as n8n
// went on (from t0 to last, ms) and a wait step more. A backoff with jitter
// (LangChain's, for embeddings) can draw short waits in n8n and long ones
// in simulate's seeded run, its last wait up to twice n8n's last (failed:
// the failed requests' times), so that much more lets it send what n8n sent:
// a bounded count, whose offsets judge compares one by one. A window of
// n8n's length and 10 s left simulate an attempt short when n8n's draws ran
// fast. A self-restart (unbounded) gets n8n's length rounded up and one
// second: the restarts multiply each step, and what simulate sends past
// n8n's count is cut.
func simWindow(failed []int64, t0, last int64, unbounded bool) int64 {
	if unbounded {
		return (last-t0+999)/1000 + 1
	}
	window := (last-t0)/1000 + 10
	if f := slices.Sorted(slices.Values(failed)); len(f) >= 2 {
		window += 2 * (f[len(f)-1] - f[len(f)-2]) / 1000
	}
	return window
}
