package n8nschema

import (
	"strconv"
	"sync"

	"github.com/stormcheck/stormcheck/internal/pack"
)

// Releasing a parsed input keeps what reports and the rules that read the
// whole analysis set need once the input is audited (names, ids, positions,
// node counts) and drops what holds its bytes: the bytes themselves, the
// line index, Values, parameters, connections and every string that is a
// view of the bytes (kept strings are copied, see Intern). The two-pass
// audit releases each group of inputs right after analysing it, so memory
// holds a group's bytes at a time, not the set's.
//
// Reading the bytes or a position of a released source, a node of a
// released workflow by name, or the body of a workflow or a light node
// panics: what a report shows from the bytes is captured before the
// release (package report, Capture).

// Release drops the source's bytes and line index; Name stays.
func (s *Source) Release() {
	u := s.inUse
	if s.released || u == nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	s.inUse = nil
	s.Src = nil
	s.released = true
}

// Released reports whether Release dropped the source's bytes.
func (s *Source) Released() bool { return s.released }

func (s *Source) mustHold() {
	if s.released {
		panic("n8nschema: source " + strconv.Quote(s.Name) + " was released: its bytes and positions are gone (capture what a report reads before the release)")
	}
}

// Release drops the file's source bytes (Source.Release) and copies what
// its problems say; its workflows are released by Workflow.Release.
func (f *File) Release() {
	f.Source.Release()
	releaseProblems(f.Problems)
}

// Release turns the workflow into its light form: Source (released by
// File.Release), Path, Ordinal, ID, Name, Active, Published, DraftDiffers,
// Pos, Problems and NodeCount stay; its body (Nodes, Connections,
// Settings, Value, the node index) goes. keep are nodes of w that the
// caller goes on referring to (the nodes of operations and calls): Release
// returns a light copy of each, in order (one copy per node), with what
// Node.light keeps.
func (w *Workflow) Release(keep []*Node) []*Node {
	idx := make(map[*Node]int, len(keep))
	for _, n := range keep {
		if _, ok := idx[n]; n != nil && !ok {
			idx[n] = len(idx)
		}
	}
	block := lightNodes.Make(len(idx))
	out := make([]*Node, len(keep))
	for n, i := range idx {
		block[i] = n.light()
	}
	for i, n := range keep {
		if n != nil {
			out[i] = &block[idx[n]]
		}
	}
	if !w.released {
		w.nodes = len(w.Nodes)
	}
	w.workflowBody = nil
	w.Path, w.ID, w.Name = Intern(w.Path), Intern(w.ID), Intern(w.Name)
	w.Pos = w.Pos.light()
	releaseProblems(w.Problems)
	w.released = true
	return out
}

// Released reports whether Release made the workflow light.
func (w *Workflow) Released() bool { return w.released }

// NodeCount is the number of nodes the workflow has, released or not.
func (w *Workflow) NodeCount() int {
	if w.released {
		return w.nodes
	}
	return len(w.Nodes)
}

func (w *Workflow) mustHold() {
	if w.released {
		panic("n8nschema: workflow " + strconv.Quote(w.Label()) + " was released: its nodes are gone")
	}
}

func (n *Node) mustHold() {
	if n.nodeBody == nil {
		panic("n8nschema: node " + strconv.Quote(n.Name) + " was released: its values and parameters are gone")
	}
}

// light is the node as a released workflow keeps it: its index, name,
// type and version, node settings and position, the strings copied off
// the bytes. Its body (ids, notes, raw values, credentials, object,
// parameters) goes.
func (n *Node) light() Node {
	return Node{
		Index: n.Index, Name: Intern(n.Name), Type: Intern(n.Type), TypeVersion: n.TypeVersion,
		Disabled: n.Disabled, RetryOnFail: n.RetryOnFail, OnError: Intern(n.OnError), ContinueOnFail: n.ContinueOnFail,
		ExecuteOnce: n.ExecuteOnce, AlwaysOutputData: n.AlwaysOutputData, Pos: n.Pos.light(),
	}
}

// Light returns the position with its path copied (Intern).
func (p Pos) Light() Pos { return p.light() }

func (p Pos) light() Pos {
	p.Path = Intern(p.Path)
	return p
}

func releaseProblems(ps []Problem) {
	for i := range ps {
		p := &ps[i]
		p.Pos, p.Node, p.Message = p.Pos.light(), Intern(p.Node), Intern(p.Message)
	}
}

// Intern returns a string equal to s that shares no memory with s (so it
// holds no source's bytes alive) and is shared by every equal string
// interned: names, types and paths repeat across a set. It is safe for
// concurrent use. Interned strings stay until the process exits: the CLI
// runs once over a set, and a report holds most of what a release interns
// to the end anyway (unique.Make, which frees them, was 7% of the CPU of
// an audit of n8n-real).
func Intern(s string) string {
	if s == "" {
		return ""
	}
	sh := &interned[shardOf(s)]
	sh.mu.RLock()
	v, ok := sh.m[s]
	sh.mu.RUnlock()
	if ok {
		return v
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if v, ok := sh.m[s]; ok {
		return v
	}
	if sh.m == nil {
		sh.m = map[string]string{}
	}
	v = internedBytes.Copy(s)
	sh.m[v] = v
	return v
}

// lightNodes holds what Workflow.Release keeps of nodes, packed: a
// released set keeps them to the end.
var lightNodes pack.Slab[Node]

// internedBytes holds the interned strings, packed (package pack).
var internedBytes pack.Strings

// interned is Intern's table, in shards so that the goroutines releasing
// groups on every core seldom wait for one another.
var interned [64]struct {
	mu sync.RWMutex
	m  map[string]string
	_  [32]byte // a shard per 64-byte cache line
}

// shardOf picks a shard from a few bytes: the map hashes the whole
// string anyway, and the shards only need to spread the locking.
func shardOf(s string) int {
	n := len(s)
	return int(uint(n)*31+uint(s[0])*7+uint(s[n/2])*3+uint(s[n-1])) % len(interned)
}
