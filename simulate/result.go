package simulate

import (
	"cmp"
	"fmt"
	"slices"
)

// Result is what a simulation measured. Series hold one value per second
// of the window. The JSON schema is documented in docs/simulate.md.
type Result struct {
	Seed        uint64         `json:"seed"`
	Failure     Failure        `json:"failure"`
	LatencyMS   int64          `json:"latency_ms"`
	WindowS     int            `json:"window_s"`
	RecoveryS   float64        `json:"recovery_s"`
	Workers     int            `json:"workers"`
	Concurrency int            `json:"concurrency"`
	Executions  int            `json:"executions,omitempty"`
	Items       int            `json:"items"`
	RatePerMin  float64        `json:"rate_per_min,omitempty"`
	Outages     []OutageResult `json:"outages"`
	// Waiting is the most executions waiting for a slot in each second;
	// InFlight the most holding a slot.
	Waiting      []int        `json:"waiting"`
	InFlight     []int        `json:"in_flight"`
	Dependencies []Dependency `json:"dependencies"`
	Restarts     []Restart    `json:"restarts"`
	Totals       Totals       `json:"totals"`
	Notes        []string     `json:"notes"`
}

// OutageResult is one --outage.
type OutageResult struct {
	Dependency string  `json:"dependency"`
	DurationS  float64 `json:"duration_s"`
}

// Dependency is what one dependency received.
type Dependency struct {
	Name string `json:"name"`
	// DownS is how long it was down from t=0; 0 when it never was.
	DownS float64 `json:"down_s"`
	// Sent and Failed are attempts per second (Failed by the second the
	// failure arrived); Open the most attempts awaiting an answer.
	Sent   []int `json:"sent"`
	Failed []int `json:"failed"`
	Open   []int `json:"open"`
	// Peak is the most attempts sent in one second, at PeakS.
	Peak  int `json:"peak_per_s"`
	PeakS int `json:"peak_at_s"`
	// AttemptsDuring are sent before recovery (the end of the longest
	// outage), AttemptsAfter from then on.
	AttemptsDuring  int `json:"attempts_during"`
	AttemptsAfter   int `json:"attempts_after"`
	FailedTotal     int `json:"failed_total"`
	DuplicateWrites int `json:"duplicate_writes"`
	PaidCalls       int `json:"paid_calls"`
	// CostUSD is the worst case billed: answered calls and, with timeouts,
	// calls the provider may finish; null when a paid call has no price.
	CostUSD *float64 `json:"cost_usd"`
}

// Restart is a self-trigger or unbounded loop that ran during the window.
type Restart struct {
	Kind     string `json:"kind"` // "self-trigger", "loop" or "redelivery"
	Node     string `json:"node"`
	Via      string `json:"via"`
	Workflow string `json:"workflow"`
	Count    int    `json:"count"`
	// LastS is when it last ran; Active is true when it was still
	// re-starting the workflow when the window ended.
	LastS  float64 `json:"last_s"`
	Active bool    `json:"active_at_end"`
}

// Totals sum the run.
type Totals struct {
	Arrived         int      `json:"executions_arrived"`
	Started         int      `json:"executions_started"`
	Succeeded       int      `json:"executions_succeeded"`
	Failed          int      `json:"executions_failed"`
	TimedOut        int      `json:"executions_timed_out"`
	ErrorRuns       int      `json:"error_workflow_runs"`
	StillQueued     int      `json:"still_queued"`
	StillRunning    int      `json:"still_running"`
	PeakInFlight    int      `json:"peak_in_flight"`
	PeakWaiting     int      `json:"peak_waiting"`
	AttemptsDuring  int      `json:"attempts_during"`
	AttemptsAfter   int      `json:"attempts_after"`
	DuplicateWrites int      `json:"duplicate_writes"`
	PaidCalls       int      `json:"paid_calls"`
	CostUSD         *float64 `json:"cost_usd"`
	// DrainS is the time from recovery until nothing waited for a slot
	// and every execution that arrived before recovery had ended; null
	// when that did not happen in the window.
	DrainS *float64 `json:"drain_s"`
	Events int      `json:"events"`
}

func (s *sim) result() *Result {
	r := &Result{
		Seed: s.cfg.Seed, Failure: s.cfg.Failure, LatencyMS: s.latency, WindowS: s.bins,
		RecoveryS: float64(s.recovery) / 1000, Workers: s.cfg.Workers, Concurrency: s.cfg.Concurrency,
		Executions: s.cfg.Executions, Items: s.cfg.Items, RatePerMin: s.cfg.RatePerMin,
		Outages: []OutageResult{}, Dependencies: []Dependency{}, Restarts: []Restart{}, Notes: []string{},
	}
	for _, o := range s.cfg.Outages {
		r.Outages = append(r.Outages, OutageResult{Dependency: o.Dependency, DurationS: o.Duration.Seconds()})
	}
	slices.SortFunc(r.Outages, func(a, b OutageResult) int {
		return cmp.Or(cmp.Compare(a.Dependency, b.Dependency), cmp.Compare(a.DurationS, b.DurationS))
	})
	last := s.bins - 1
	s.waiting.fill(last)
	s.inUse.fill(last)
	r.Waiting, r.InFlight = s.waiting.max, s.inUse.max
	t := &r.Totals
	t.CostUSD = new(float64)
	var names []string
	for n := range s.deps {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		d := s.deps[n]
		d.open.fill(last)
		sent := 0
		for _, v := range d.sent {
			sent += v
		}
		if sent == 0 && d.downUntil == 0 {
			continue
		}
		dr := Dependency{Name: n, DownS: float64(d.downUntil) / 1000, Sent: d.sent, Failed: d.failed, Open: d.open.max,
			AttemptsDuring: d.during, AttemptsAfter: d.after, DuplicateWrites: d.dupWrites, PaidCalls: d.paid}
		for i, v := range d.sent {
			if v > dr.Peak {
				dr.Peak, dr.PeakS = v, i
			}
		}
		for _, v := range d.failed {
			dr.FailedTotal += v
		}
		if !d.unpriced {
			c := d.costUSD
			dr.CostUSD = &c
			if t.CostUSD != nil {
				*t.CostUSD += c
			}
		} else {
			t.CostUSD = nil
		}
		t.AttemptsDuring += d.during
		t.AttemptsAfter += d.after
		t.DuplicateWrites += d.dupWrites
		t.PaidCalls += d.paid
		r.Dependencies = append(r.Dependencies, dr)
	}

	// What is still queued or running at the end, and which cycles of
	// executions it belongs to.
	active := map[*execution]bool{}
	for _, ex := range s.queue[s.qhead:] {
		active[ex] = true
	}
	for p := range s.live {
		active[p.ex] = true
	}
	for ex := range active {
		if c := ex.cycle; c != nil && c.Node != nil {
			if rs := s.restart[c.Node]; rs != nil {
				rs.active = true
			}
		}
	}
	for _, rs := range s.restarts {
		r.Restarts = append(r.Restarts, Restart{Kind: rs.kind, Node: rs.node, Via: rs.via, Workflow: rs.workflow,
			Count: rs.count, LastS: float64(rs.last) / 1000, Active: rs.active})
	}
	// Stable over the order first seen, which the run decides.
	slices.SortStableFunc(r.Restarts, func(a, b Restart) int {
		return cmp.Or(cmp.Compare(a.Workflow, b.Workflow), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Node, b.Node))
	})

	t.Arrived, t.Started, t.Succeeded, t.Failed = s.arrived, s.started, s.succeeded, s.failed
	t.TimedOut, t.ErrorRuns = s.timedOut, s.errorRuns
	t.StillQueued = len(s.queue) - s.qhead
	t.StillRunning = len(s.live)
	t.PeakInFlight, t.PeakWaiting = slices.Max(r.InFlight), slices.Max(r.Waiting)
	if s.drainAt >= 0 {
		d := float64(s.drainAt-s.recovery) / 1000
		t.DrainS = &d
	}
	t.Events = s.events

	for _, rs := range r.Restarts {
		if rs.Kind == "self-trigger" && rs.Active {
			r.Notes = append(r.Notes, fmt.Sprintf("the self-trigger through %q (workflow %q) was still re-starting the workflow when the window ended: %d restarts, the last at %.1f s; it stops only when the dependency answers or someone stops it",
				rs.Node, rs.Workflow, rs.Count, rs.LastS))
		}
	}
	if t.Arrived == 0 {
		r.Notes = append(r.Notes, "no execution arrived: no workflow given is started by a trigger of its own in the window "+
			"(a sub-workflow or error workflow runs only when its caller does: pass the callers too)")
	}
	if t.DrainS == nil {
		r.Notes = append(r.Notes, fmt.Sprintf("the backlog did not drain in the window: %d executions still queued and %d running at %d s", t.StillQueued, t.StillRunning, r.WindowS))
	}
	if s.deep {
		r.Notes = append(r.Notes, fmt.Sprintf("sub-workflows nested deeper than %d levels were stopped as failures; n8n itself has no such limit", maxDepth))
	}
	return r
}
