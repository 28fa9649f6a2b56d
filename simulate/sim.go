// Package simulate replays an outage through the workflows of an analysis
// set: a discrete-event simulation of executions taking slots among
// workers × concurrency and sending wire attempts to their dependencies,
// driven by the attempt model's own facts (analyze: node, tool and SDK
// retries, agent iterations, callers, error workflows, self-triggers,
// loops). It does no I/O.
package simulate

import (
	"container/heap"
	"errors"
	"fmt"
	"iter"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/stormcheck/stormcheck/analyze"
	"github.com/stormcheck/stormcheck/n8nschema"
)

// Failure is how an unavailable dependency answers.
type Failure string

const (
	// Fail502 answers at once (after --latency) with an error.
	Fail502 Failure = "502"
	// FailTimeout answers nothing: each attempt fails after the node's
	// effective timeout.
	FailTimeout Failure = "timeout"
)

// Outage makes one dependency unavailable from t=0 for Duration.
type Outage struct {
	Dependency string
	Duration   time.Duration
}

// Config is one simulation.
type Config struct {
	Outages []Outage
	// Executions is a backlog queued at t=0 for every entry workflow.
	Executions int
	// RatePerMin is a steady arrival rate for every entry workflow. With
	// neither, the trigger's schedule decides (see arrivals).
	RatePerMin  float64
	Workers     int
	Concurrency int
	// Latency is the round trip of a call that gets an answer (a success
	// or a 502).
	Latency time.Duration
	Failure Failure
	Seed    uint64
	// Items is how many items each execution carries from its trigger
	// (audit's --items); 0 means 1.
	Items int
	// Window is how long to simulate; 0 means the longest outage + 5 min.
	Window time.Duration
	// MaxEvents stops a run that would simulate more events than this.
	MaxEvents int
	// Trace, when set, sees every attempt when its answer arrives.
	Trace func(Attempt)
}

// Attempt is one wire attempt, for Config.Trace.
type Attempt struct {
	SentMS     int64  `json:"sent_ms"`
	AnsweredMS int64  `json:"answered_ms"`
	Dependency string `json:"dependency"`
	Workflow   string `json:"workflow"`
	Node       string `json:"node"`
	OK         bool   `json:"ok"`
}

// DefaultMaxEvents bounds a run: a few seconds of work.
const DefaultMaxEvents = 5_000_000

// DefaultTimeoutMS is the per-attempt timeout of a node whose type has
// none known: HTTP Request's runtime default (HttpRequestV3.node.ts).
const DefaultTimeoutMS = 300_000

// MaxWindow bounds the simulated time: one value per second per series.
const MaxWindow = 24 * time.Hour

// maxDepth bounds sub-workflows run inside one execution; n8n has no
// limit, only executionTimeout.
const maxDepth = 1000

// maxExecutionTimeoutS is EXECUTIONS_TIMEOUT_MAX's default
// (workflow-runner.ts caps executionTimeout to it).
const maxExecutionTimeoutS = 3600

// ErrTooManyEvents means the run passed Config.MaxEvents.
var ErrTooManyEvents = errors.New("too many events")

var errStopped = errors.New("stopped at the end of the window")

type event struct {
	at  int64 // ms
	seq uint64
	fn  func()
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// gauge records a level's maximum in each one-second bin.
type gauge struct {
	v    int
	last int
	max  []int
}

func newGauge(bins int) *gauge { return &gauge{max: make([]int, bins)} }

func (g *gauge) fill(b int) {
	for g.last < b {
		g.last++
		g.max[g.last] = max(g.max[g.last], g.v)
	}
}

func (g *gauge) set(b, v int) {
	g.fill(b)
	g.v = v
	g.max[b] = max(g.max[b], v)
}

type depStats struct {
	name      string
	downUntil int64 // ms; 0 when never down
	sent      []int
	failed    []int
	open      *gauge
	during    int
	after     int
	dupWrites int
	paid      int
	costUSD   float64
	unpriced  bool // some paid call had no known price
}

// execution is one run of a workflow, started by an arrival, a webhook
// call, a fire-and-forget sub-workflow or a failed execution.
type execution struct {
	w        *n8nschema.Workflow
	start    []*n8nschema.Node
	slotless bool          // runs in the worker's process without a slot
	cycle    *analyze.Call // the call of a cycle of executions that started it
	early    bool          // arrived before recovery
	// items is how many items its start node emits; 0 means Config.Items
	// (a trigger's).
	items    int
	delivery *delivery // the sender's delivery that started it (redelivery.go)
}

type proc struct {
	ex *execution
	// timedOut marks the operations of this execution with an attempt
	// that timed out: a write sent again may be written twice.
	timedOut map[*n8nschema.Node]bool
	yield    func(struct{}) bool
	next     func() (struct{}, bool)
	stop     func()
}

// restart counts the runs of one self-trigger or unbounded loop.
type restart struct {
	kind, node, via, workflow string
	count                     int
	last                      int64
	active                    bool
}

type sim struct {
	cfg      Config
	set      *analyze.Set
	ops      map[*n8nschema.Node]*analyze.Operation
	calls    map[*n8nschema.Node]*analyze.Call
	rng      *rand.Rand
	now, end int64
	recovery int64
	latency  int64
	bins     int

	h      eventHeap
	seq    uint64
	events int

	slots   int
	running int
	queue   []*execution
	qhead   int
	live    map[*proc]struct{}
	waiting *gauge
	inUse   *gauge

	deps     map[string]*depStats
	facts    map[*n8nschema.Node]*facts
	restart  map[*n8nschema.Node]*restart // by the node that restarts or loops back
	restarts []*restart                   // in the order first seen

	arrived, started, succeeded, failed, timedOut, errorRuns int
	early                                                    int // early executions not finished
	drainAt                                                  int64
	deep                                                     bool
}

// Run simulates cfg against the set. It returns ErrTooManyEvents (wrapped,
// with the time reached) when the run passes cfg.MaxEvents.
func Run(set *analyze.Set, cfg Config) (*Result, error) {
	s, err := newSim(set, cfg)
	if err != nil {
		return nil, err
	}
	if err := s.run(); err != nil {
		return nil, err
	}
	return s.result(), nil
}

func newSim(set *analyze.Set, cfg Config) (*sim, error) {
	if cfg.Workers < 1 || cfg.Concurrency < 1 {
		return nil, fmt.Errorf("workers and concurrency must be at least 1")
	}
	if cfg.MaxEvents <= 0 {
		cfg.MaxEvents = DefaultMaxEvents
	}
	if cfg.Failure == "" {
		cfg.Failure = Fail502
	}
	cfg.Items = max(cfg.Items, 1)
	s := &sim{
		cfg: cfg, set: set, ops: map[*n8nschema.Node]*analyze.Operation{}, calls: map[*n8nschema.Node]*analyze.Call{},
		rng:     rand.New(rand.NewPCG(cfg.Seed, 0x5eed)),
		latency: cfg.Latency.Milliseconds(), slots: cfg.Workers * cfg.Concurrency,
		live: map[*proc]struct{}{}, deps: map[string]*depStats{}, restart: map[*n8nschema.Node]*restart{}, facts: map[*n8nschema.Node]*facts{}, drainAt: -1,
	}
	for _, op := range set.Operations {
		s.ops[op.Node] = op
	}
	for _, c := range set.Calls {
		if c.Node != nil && s.calls[c.Node] == nil && c.Kind != analyze.CallN8nAPI && c.Kind != analyze.CallErrorWorkflow {
			s.calls[c.Node] = c
		}
	}
	for _, o := range cfg.Outages {
		s.recovery = max(s.recovery, o.Duration.Milliseconds())
	}
	s.end = cfg.Window.Milliseconds()
	if s.end <= 0 {
		s.end = s.recovery + 5*60*1000
	}
	if s.end > MaxWindow.Milliseconds() {
		return nil, fmt.Errorf("a window of %v is longer than %v; give a shorter --window or outage", time.Duration(s.end)*time.Millisecond, MaxWindow)
	}
	s.bins = int((s.end + 999) / 1000)
	s.waiting, s.inUse = newGauge(s.bins), newGauge(s.bins)
	for _, op := range set.Operations {
		s.dep(op.Dependency)
	}
	for _, o := range cfg.Outages {
		d, ok := s.depNamed(o.Dependency)
		if !ok {
			return nil, fmt.Errorf("no operation calls %q; the dependencies are: %s", o.Dependency, s.depNames())
		}
		d.downUntil = max(d.downUntil, o.Duration.Milliseconds())
	}
	return s, nil
}

// depNamed is the dependency an outage names, in any case: hosts are
// lower case, but a service is named after its node type ("zohoCrm").
func (s *sim) depNamed(name string) (*depStats, bool) {
	if d, ok := s.deps[name]; ok {
		return d, true
	}
	for _, n := range strings.Split(s.depNames(), ", ") {
		if strings.EqualFold(n, name) {
			return s.deps[n], true
		}
	}
	return nil, false
}

func (s *sim) depNames() string {
	var names []string
	for n := range s.deps {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func (s *sim) dep(name string) *depStats {
	if name == "" {
		name = "(unknown)"
	}
	d := s.deps[name]
	if d == nil {
		d = &depStats{name: name, sent: make([]int, s.bins), failed: make([]int, s.bins), open: newGauge(s.bins)}
		s.deps[name] = d
	}
	return d
}

func (s *sim) bin(t int64) int { return min(int(t/1000), s.bins-1) }

func (s *sim) schedule(at int64, fn func()) {
	s.seq++
	heap.Push(&s.h, event{at: at, seq: s.seq, fn: fn})
}

// step counts one simulated event and stops the run past the cap.
func (s *sim) step() {
	s.events++
	if s.events > s.cfg.MaxEvents {
		panic(ErrTooManyEvents)
	}
}

func (s *sim) run() (err error) {
	if err := s.arrivals(); err != nil {
		return err
	}
	if s.recovery < s.end {
		s.schedule(s.recovery, s.checkDrain)
	}
	defer func() {
		for p := range s.live {
			p.stop()
		}
		if r := recover(); r != nil {
			if r != ErrTooManyEvents {
				panic(r)
			}
			err = fmt.Errorf("%w: the run passed %d events at t=%.1f s; shorten --window, lower --executions or --rate, or raise --max-events",
				ErrTooManyEvents, s.cfg.MaxEvents, float64(s.now)/1000)
		}
	}()
	for s.h.Len() > 0 {
		ev := heap.Pop(&s.h).(event)
		if ev.at >= s.end {
			break
		}
		s.now = ev.at
		s.step()
		ev.fn()
	}
	s.now = s.end
	return nil
}

// entries are the workflows executions arrive at, with the trigger that
// starts them: the first trigger that is not an Execute Workflow or Error
// Trigger.
func (s *sim) entries() []*execution {
	var out []*execution
	for _, w := range s.set.Workflows {
		g := s.set.Graph(w)
		for _, t := range g.Triggers() {
			if t.Disabled || t.Type == n8nschema.TypeExecuteWorkflowTrigger || t.Type == n8nschema.TypeErrorTrigger {
				continue
			}
			out = append(out, &execution{w: w, start: []*n8nschema.Node{t}})
			break
		}
	}
	return out
}

// arrivals schedules the executions of every entry workflow: a backlog at
// t=0, a steady rate, or the trigger's interval schedule (one execution at
// t=0 for any other trigger).
func (s *sim) arrivals() error {
	es := s.entries()
	if n := s.cfg.Executions * len(es); n > s.cfg.MaxEvents {
		return fmt.Errorf("%w: %d executions would pass the cap of %d events before the first one runs; lower --executions or raise --max-events",
			ErrTooManyEvents, n, s.cfg.MaxEvents)
	}
	for _, e := range es {
		switch {
		case s.cfg.Executions > 0:
			for range s.cfg.Executions {
				s.schedule(0, func() { s.enqueue(&execution{w: e.w, start: e.start}) })
			}
		case s.cfg.RatePerMin > 0:
			s.every(e, 60000/s.cfg.RatePerMin, 0)
		default:
			if ms := scheduleIntervalMS(e.start[0]); ms > 0 {
				s.every(e, float64(ms), 0)
			} else {
				s.schedule(0, func() { s.enqueue(&execution{w: e.w, start: e.start}) })
			}
		}
	}
	return nil
}

// every schedules arrival k at round(k × period) and the next one from it.
func (s *sim) every(e *execution, period float64, k int) {
	at := int64(math.Round(float64(k) * period))
	if at >= s.end {
		return
	}
	s.schedule(at, func() {
		s.enqueue(&execution{w: e.w, start: e.start})
		s.every(e, period, k+1)
	})
}

// scheduleIntervalMS is the period of a Schedule Trigger's first interval
// rule in seconds, minutes or hours (ScheduleTrigger.node.ts defaults:
// 30 s, 5 min, 1 h); 0 for days, weeks, months, cron and other triggers.
func scheduleIntervalMS(t *n8nschema.Node) int64 {
	if t.Type != n8nschema.TypeScheduleTrigger {
		return 0
	}
	rules := t.Params().Get("rule.interval").Elems()
	if len(rules) == 0 {
		return 0
	}
	r := rules[0]
	num := func(key string, def float64) float64 {
		if f, ok := r.Get(key).Num(); ok && f >= 1 {
			return f
		}
		return def
	}
	switch r.Get("field").Str() {
	case "seconds":
		return int64(num("secondsInterval", 30) * 1000)
	case "minutes":
		return int64(num("minutesInterval", 5) * 60_000)
	case "hours":
		return int64(num("hoursInterval", 1) * 3_600_000)
	}
	return 0
}

// enqueue queues an execution, or starts it when a slot is free.
func (s *sim) enqueue(ex *execution) {
	s.arrived++
	if s.now < s.recovery {
		ex.early = true
		s.early++
	}
	if ex.slotless {
		s.begin(ex)
		return
	}
	if s.running < s.slots {
		s.running++
		s.inUse.set(s.bin(s.now), s.running)
		s.begin(ex)
		return
	}
	s.queue = append(s.queue, ex)
	s.waiting.set(s.bin(s.now), len(s.queue)-s.qhead)
}

// begin starts an execution's process at the current time.
func (s *sim) begin(ex *execution) {
	s.started++
	p := &proc{ex: ex, timedOut: map[*n8nschema.Node]bool{}}
	p.next, p.stop = iter.Pull(func(yield func(struct{}) bool) {
		p.yield = yield
		defer func() {
			if r := recover(); r != nil && r != errStopped {
				panic(r)
			}
		}()
		s.execute(p)
	})
	s.live[p] = struct{}{}
	s.schedule(s.now, func() {
		if _, ok := p.next(); !ok {
			delete(s.live, p)
		}
	})
}

// sleep suspends the process for d ms of simulated time.
func (s *sim) sleep(p *proc, d int64) {
	s.schedule(s.now+d, func() {
		if _, ok := p.next(); !ok {
			delete(s.live, p)
		}
	})
	if !p.yield(struct{}{}) {
		panic(errStopped)
	}
}

// execute runs one execution to its end and releases its slot.
func (s *sim) execute(p *proc) {
	ex := p.ex
	var deadline int64
	if t := ex.w.Settings.ExecutionTimeout; t > 0 {
		deadline = s.now + int64(min(t, maxExecutionTimeoutS)*1000)
	}
	items := ex.items
	if items == 0 {
		items = s.cfg.Items
	}
	s.watchAnswer(ex)
	ok, _ := s.runWorkflow(p, ex.w, ex.start, items, deadline, 0)
	ex.answered()
	if ok {
		s.succeeded++
	} else {
		s.failed++
		// A failed execution starts its error workflow, unless it is the
		// workflow itself (execute-error-workflow.ts).
		for _, c := range s.set.CallsFrom(ex.w) {
			if c.Kind == analyze.CallErrorWorkflow && c.To != nil && !c.Self && len(c.Entry) > 0 {
				s.errorRuns++
				// The Error Trigger emits one item.
				s.enqueue(&execution{w: c.To, start: c.Entry, items: 1})
				break
			}
		}
	}
	if ex.early {
		s.early--
	}
	if !ex.slotless {
		s.running--
		if s.qhead < len(s.queue) {
			next := s.queue[s.qhead]
			s.queue[s.qhead] = nil
			s.qhead++
			s.running++
			s.waiting.set(s.bin(s.now), len(s.queue)-s.qhead)
			s.begin(next)
		}
		s.inUse.set(s.bin(s.now), s.running)
	}
	s.checkDrain()
}

// checkDrain records the first time after recovery when nothing waits
// for a slot and every execution that arrived before recovery has ended.
func (s *sim) checkDrain() {
	if s.drainAt < 0 && s.now >= s.recovery && s.early == 0 && s.qhead == len(s.queue) {
		s.drainAt = s.now
	}
}

// runWorkflow runs the nodes of w from start with items items, depth
// first in output order, and reports whether the run succeeded. Every node
// runs once per run, with the items of the first edge that reaches it,
// except the nodes of an unbounded loop. A failed node without
// continueOnFail fails the run; executionTimeout is checked before each
// node starts, as n8n does.
//
// errOut is true when the last node that called out handed on {json:
// {error}} as its first item: it continued on fail on its regular output
// and is not one of the nodes that hand the error beside json.
func (s *sim) runWorkflow(p *proc, w *n8nschema.Workflow, start []*n8nschema.Node, items int, deadline int64, depth int) (ok, errOut bool) {
	g := s.set.Graph(w)
	done := map[*n8nschema.Node]bool{}
	passAt := map[*analyze.Loop]int64{}
	// A node waiting on the stack is not pushed again: it runs once for
	// all the edges that reach it.
	queued := map[*n8nschema.Node]bool{}
	type entry struct {
		n     *n8nschema.Node
		items int
	}
	var stack []entry
	for i := len(start) - 1; i >= 0; i-- {
		stack = append(stack, entry{start[i], items})
		queued[start[i]] = true
	}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		n := top.n
		stack = stack[:len(stack)-1]
		queued[n] = false
		if done[n] {
			l := g.LoopOf(n)
			if l == nil || !l.Unbounded {
				continue
			}
			if n == l.Head {
				s.count("loop", l.Back, l.Head.Name, w)
			}
		}
		done[n] = true
		if l := g.LoopOf(n); l != nil && l.Unbounded && n == l.Head {
			if t, ok := passAt[l]; ok && t == s.now {
				// A pass that calls nothing still takes time: 1 ms, so
				// that the window, not the event cap, ends the loop.
				s.sleep(p, 1)
			}
			passAt[l] = s.now
		}
		if deadline > 0 && s.now >= deadline {
			s.timedOut++
			return false, false
		}
		s.step()
		failed := s.runNode(p, g, n, top.items, deadline, depth)
		if s.ops[n] != nil || s.calls[n] != nil || g.Spec(n).Role == n8nschema.RoleAgent {
			errOut = failed > 0 && n.OnError != "continueErrorOutput" && !n8nschema.RetryNeverRepeats(n)
		}
		type out struct {
			edges []*analyze.Edge
			items int
		}
		var outs []out
		switch {
		case failed == 0:
			var next []*analyze.Edge
			for _, e := range g.OutOfType(n, analyze.ConnMain) {
				if !e.Error {
					next = append(next, e)
				}
			}
			outs = []out{{next, top.items}}
		case failed == fatal || !n.ContinuesOnFail():
			return false, false
		case n.OnError == "continueErrorOutput":
			// The failed items take the error output, the others the
			// regular outputs (workflow-execute.ts handleNodeErrorOutput).
			var next []*analyze.Edge
			for _, e := range g.OutOfType(n, analyze.ConnMain) {
				if !e.Error {
					next = append(next, e)
				}
			}
			outs = []out{{g.ErrorOutputs(n), failed}, {next, top.items - failed}}
		default:
			outs = []out{{g.OutOfType(n, analyze.ConnMain), top.items}}
		}
		for i := len(outs) - 1; i >= 0; i-- {
			o := outs[i]
			if o.items <= 0 {
				continue
			}
			for j := len(o.edges) - 1; j >= 0; j-- {
				if to := o.edges[j].To; !queued[to] {
					stack = append(stack, entry{to, o.items})
					queued[to] = true
				}
			}
		}
	}
	return true, errOut
}

// count records one run of a self-trigger or unbounded loop, by its node
// (the call that restarts, the node that loops back).
func (s *sim) count(kind string, node *n8nschema.Node, via string, w *n8nschema.Workflow) {
	r := s.restart[node]
	if r == nil {
		r = &restart{kind: kind, node: node.Name, via: via, workflow: w.Label()}
		s.restart[node] = r
		s.restarts = append(s.restarts, r)
	}
	r.count++
	r.last = s.now
}

// fatal is a failure that no setting of the node it reaches catches: the
// tool of an Agent v3 runs as a node of its own, and its failure ends the
// execution there.
const fatal = -1

// runNode runs one node over items and returns how many of them failed
// (0 when it succeeded, fatal when the run ends whatever the node's
// settings).
func (s *sim) runNode(p *proc, g *analyze.Graph, n *n8nschema.Node, items int, deadline int64, depth int) int {
	if n.Disabled || g.IsSubNode(n) {
		return 0
	}
	c := s.calls[n]
	if c != nil && c.Kind == analyze.CallExecute {
		if c.To == nil {
			return 0 // outside the set: nothing to replay
		}
		sub := func(items int) int {
			if c.NoWait {
				// Fire and forget: a new execution in the same process.
				s.enqueue(&execution{w: c.To, start: c.Entry, slotless: true, items: items})
				return 0
			}
			if !s.runSub(p, c, items, deadline, depth) {
				return items
			}
			return 0
		}
		return s.retry(p, g, n, func() int {
			if c.Each {
				// One sub-execution per item (mode "each").
				return perItem(n, items, func() int { return sub(1) })
			}
			return sub(items)
		})
	}
	if g.Spec(n).Role == n8nschema.RoleAgent {
		return s.retry(p, g, n, func() int {
			return perItem(n, items, func() int { return s.agentTry(p, g, n, deadline, depth) })
		})
	}
	op := s.ops[n]
	embedders := s.embedders(g, n)
	if op == nil && len(embedders) == 0 {
		return 0
	}
	return s.retry(p, g, n, func() int {
		return perItem(n, items, func() int {
			// A vector store embeds before it reads or writes
			// (embeddings sub-nodes keep their SDK's retries).
			for _, e := range embedders {
				if !s.subCall(p, e) {
					return 1
				}
			}
			if op == nil {
				return 0
			}
			if !s.request(p, op) {
				return 1
			}
			if c != nil && c.Kind == analyze.CallWebhook && c.To != nil && len(c.Entry) > 0 {
				// The webhook answers on receipt; its workflow runs as a
				// new execution through the queue, one per item sent.
				if c.Cycle {
					s.count("self-trigger", n, c.Entry[0].Name, g.Workflow)
				}
				s.enqueue(&execution{w: c.To, start: c.Entry, cycle: cycleOf(c)})
			}
			return 0
		})
	})
}

// perItem runs one call per item, as a node's execute() loops over its
// input: without continueOnFail the first failure ends the try (the node
// throws, and every item has failed); with it every item is tried and
// the failed ones are counted. An HTTP Request sends every item's request
// before it reads an answer (Promise.allSettled, HttpRequestV1–V3), so it
// tries them all and then throws (observed: testdata/engine/onerror-items-stop;
// n8nschema.StopsAtFirstFailedItem).
func perItem(n *n8nschema.Node, items int, one func() int) int {
	stops := !n.ContinuesOnFail()
	first := n8nschema.StopsAtFirstFailedItem(n)
	failed := 0
	for range items {
		switch one() {
		case 0:
		case fatal:
			return fatal
		default:
			if first {
				return items
			}
			failed++
		}
	}
	if stops && failed > 0 {
		return items
	}
	return failed
}

// embedders are the enabled embeddings sub-nodes of n.
func (s *sim) embedders(g *analyze.Graph, n *n8nschema.Node) []*n8nschema.Node {
	var out []*n8nschema.Node
	for _, e := range g.InOfType(n, analyze.ConnEmbedder) {
		if !e.From.Disabled {
			out = append(out, e.From)
		}
	}
	return out
}

func cycleOf(c *analyze.Call) *analyze.Call {
	if c.Cycle {
		return c
	}
	return nil
}

// runSub runs a sub-workflow with items inside the caller's execution: it
// inherits the caller's deadline (workflow-execute-additional-data.ts).
func (s *sim) runSub(p *proc, c *analyze.Call, items int, deadline int64, depth int) bool {
	if len(c.Entry) == 0 {
		return true
	}
	if depth >= maxDepth {
		s.deep = true
		return false
	}
	if c.Cycle {
		s.count("self-trigger", c.Node, c.Entry[0].Name, c.From)
	}
	// The caller reads the sub-workflow's last node's outputs, and its
	// retry runs again when their first item has json.error, as for a
	// node of its own (observed: testdata/engine/caller-exec-retry-continue-regular).
	ok, errOut := s.runWorkflow(p, c.To, c.Entry, items, deadline, depth+1)
	return ok && !errOut
}

// facts are what the attempt model says of one node, read once.
type facts struct {
	tries     int
	waitMS    int64
	pages     int // one when unbounded
	sdk       int
	timeoutMS int64
	cost      float64
	priced    bool
}

func (s *sim) factsOf(g *analyze.Graph, n *n8nschema.Node) *facts {
	if f := s.facts[n]; f != nil {
		return f
	}
	f := &facts{pages: 1, sdk: 1, timeoutMS: DefaultTimeoutMS}
	f.tries, _ = analyze.NodeAttempts(g, n)
	f.waitMS = int64(analyze.NodeRetryWaitMS(g, n))
	if op := s.ops[n]; op != nil {
		if p, unb := analyze.Pages(n); !unb && p > 1 {
			f.pages = p
		}
		if op.Spec.Role == n8nschema.RoleModel {
			f.sdk = analyze.SDKAttempts(n, *op.Spec)
		}
		if ms, ok := analyze.AttemptTimeoutMS(op); ok {
			f.timeoutMS = int64(ms)
		}
		f.cost, f.priced = op.CostPerCallUSD(&s.set.Options)
	}
	s.facts[n] = f
	return f
}

// retry runs try as n8n runs a node: NodeAttempts tries, NodeRetryWaitMS
// apart (workflow-execute.ts waits before every try but the first, and
// tries again while the node's first item holds an error, which is how a
// node that continues on fail reports one). try returns the items that
// failed; retry returns those of the last try.
func (s *sim) retry(p *proc, g *analyze.Graph, n *n8nschema.Node, try func() int) int {
	f := s.factsOf(g, n)
	failed := 0
	for i := range f.tries {
		if i > 0 && f.waitMS > 0 {
			s.sleep(p, f.waitMS)
		}
		if failed = try(); failed == 0 || failed == fatal {
			return failed
		}
	}
	return failed
}

// agentTry is one run of an agent or chain over one item: up to
// AgentIterations rounds of a model call (the fallback model when the
// first fails) and a call of each tool. The run ends when the model
// answers after tools that all succeeded, or without tools at its first
// answer; a model that fails fails the run; at the last iteration the
// agent stops with an answer. An Agent v3 hands its tool calls to the
// engine, which runs each tool as a node: a tool that fails after its
// retries ends the execution (fatal). It returns 0, 1 (failed) or fatal.
func (s *sim) agentTry(p *proc, g *analyze.Graph, root *n8nschema.Node, deadline int64, depth int) int {
	var models, tools []*n8nschema.Node
	for _, e := range g.InOfType(root, analyze.ConnModel) {
		if !e.From.Disabled {
			models = append(models, e.From)
		}
	}
	for _, e := range g.InOfType(root, analyze.ConnTool) {
		if !e.From.Disabled {
			tools = append(tools, e.From)
		}
	}
	fb, _ := root.Param("needsFallback")
	fallback := fb.True() && len(models) > 1
	// An Agent v3 runs its tools as nodes: before n8n 2.41 a tool's
	// failure ends the execution; from 2.41.1 it goes back to the model.
	engineTools := root.Type == n8nschema.TypeAgent && root.TypeVersion >= 3 &&
		!n8nschema.AgentV3ToolErrorsToModel(s.set.Options.Version())
	toolsDone := false
	for range analyze.AgentIterations(root) {
		if len(models) > 0 {
			ok := s.subCall(p, models[0])
			if !ok && fallback {
				ok = s.subCall(p, models[1])
			}
			if !ok {
				return 1
			}
		}
		if len(tools) == 0 || toolsDone {
			return 0
		}
		toolsDone = true
		for _, t := range tools {
			if !s.toolCall(p, g, t, deadline, depth) {
				if engineTools {
					return fatal
				}
				toolsDone = false
			}
		}
	}
	return 0
}

// subCall is one call of a model sub-node: its SDK retries, no node retry.
func (s *sim) subCall(p *proc, n *n8nschema.Node) bool {
	op := s.ops[n]
	if op == nil {
		return true
	}
	return s.request(p, op)
}

// toolCall is one tool call with the tool's own retries: a sub-workflow,
// the tool's own request, after the embeddings a vector store tool makes.
func (s *sim) toolCall(p *proc, g *analyze.Graph, t *n8nschema.Node, deadline int64, depth int) bool {
	c := s.calls[t]
	op := s.ops[t]
	embedders := s.embedders(g, t)
	return s.retry(p, g, t, func() int {
		for _, e := range embedders {
			if !s.subCall(p, e) {
				return 1
			}
		}
		if c != nil && c.Kind == analyze.CallTool && c.To != nil {
			if !s.runSub(p, c, 1, deadline, depth) {
				return 1
			}
			return 0
		}
		if op != nil && !s.request(p, op) {
			return 1
		}
		return 0
	}) == 0
}

// request is one try of an operation: every page (Pages; one when
// unbounded), each with the SDK's retries (SDKAttempts) for a model.
func (s *sim) request(p *proc, op *analyze.Operation) bool {
	f := s.factsOf(s.set.Graph(op.Workflow), op.Node)
	for range f.pages {
		if !s.sdkCall(p, op, f) {
			return false
		}
	}
	return true
}

// sdkCall sends one call with the SDK's retries, p-retry's randomised
// backoff between them.
func (s *sim) sdkCall(p *proc, op *analyze.Operation, f *facts) bool {
	for a := range f.sdk {
		if a > 0 {
			s.sleep(p, s.backoff(a-1))
		}
		if s.wire(p, op, f) {
			return true
		}
	}
	return false
}

// backoff is p-retry's delay after retriesConsumed failed retries, as
// LangChain's AsyncCaller configures it (randomize: true, factor 2,
// minTimeout 1000, maxTimeout Infinity; @langchain/core
// dist/utils/p-retry/index.js calculateDelay):
// round((random + 1) × 1000 × 2^retriesConsumed).
func (s *sim) backoff(retriesConsumed int) int64 {
	return int64(math.Round((s.rng.Float64() + 1) * 1000 * math.Pow(2, float64(retriesConsumed))))
}

// wire sends one attempt and waits for its answer.
func (s *sim) wire(p *proc, op *analyze.Operation, f *facts) bool {
	s.step()
	d := s.dep(op.Dependency)
	b := s.bin(s.now)
	d.sent[b]++
	if s.now < s.recovery {
		d.during++
	} else {
		d.after++
	}
	if op.Write && p.timedOut[op.Node] {
		d.dupWrites++ // the timed-out attempt may have committed
	}
	if op.Paid {
		d.paid++
		if !f.priced {
			d.unpriced = true
		}
	}
	down := s.now < d.downUntil
	lat := s.latency
	if down && s.cfg.Failure == FailTimeout {
		lat = f.timeoutMS
	}
	d.open.set(b, d.open.v+1)
	s.sleep(p, lat)
	d.open.set(s.bin(s.now), d.open.v-1)
	if s.cfg.Trace != nil {
		s.cfg.Trace(Attempt{SentMS: s.now - lat, AnsweredMS: s.now, Dependency: d.name, Workflow: op.Workflow.Label(), Node: op.Node.Name, OK: !down})
	}
	if !down {
		d.costUSD += f.cost
		return true
	}
	d.failed[s.bin(s.now)]++
	if s.cfg.Failure == FailTimeout {
		p.timedOut[op.Node] = true
		// The provider may finish and bill a generation nobody receives.
		d.costUSD += f.cost
	}
	return false
}
