package n8nschema

import (
	"strconv"
	"sync"
	"testing"
	"unsafe"

	"github.com/stormcheck/stormcheck/internal/cputime"
)

// TestIntern pins Intern's contract: an equal string that shares no
// memory with its argument, one copy for all equal strings.
func TestIntern(t *testing.T) {
	if Intern("") != "" {
		t.Fatal(`Intern("") is not ""`)
	}
	buf := []byte("nodes.3.name and more")
	view := unsafe.String(&buf[0], 12)
	if ev := view[3:3]; unsafe.StringData(Intern(ev)) == unsafe.StringData(ev) {
		t.Fatal("Intern returned an empty view of its argument's bytes: it keeps the source alive")
	}
	a := Intern(view)
	if a != "nodes.3.name" {
		t.Fatalf("Intern = %q", a)
	}
	if unsafe.StringData(a) == unsafe.StringData(view) {
		t.Fatal("Intern returned its argument's bytes: it keeps the source alive")
	}
	copy(buf, "XXXXXXXXXXXX") // the source's bytes change (or are freed)
	if a != "nodes.3.name" {
		t.Fatalf("interned string changed with its source: %q", a)
	}
	b := Intern(string([]byte("nodes.3.name")))
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Fatal("two equal strings interned to two copies")
	}
}

// TestInternConcurrent interns overlapping strings from many goroutines
// (files are parsed and released on every core; run with -race): every
// caller gets the one copy.
func TestInternConcurrent(t *testing.T) {
	const workers, n = 8, 2000
	got := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				// Fresh bytes each time: a hit must not depend on the
				// argument's memory.
				got[w] = append(got[w], Intern(string([]byte("name "+strconv.Itoa((i*7+w)%n)))))
			}
		}()
	}
	wg.Wait()
	first := map[string]*byte{}
	for w := range workers {
		for _, s := range got[w] {
			if p, ok := first[s]; !ok {
				first[s] = unsafe.StringData(s)
			} else if p != unsafe.StringData(s) {
				t.Fatalf("%q interned to two copies", s)
			}
		}
	}
	if len(first) != n {
		t.Fatalf("%d distinct strings, want %d", len(first), n)
	}
}

// BenchmarkIntern interns what a release interns, over the corpus: every
// workflow's path, id and name, every node's name, type and position path
// (mostly hits after the first round, as on a corpus with many files).
func BenchmarkIntern(b *testing.B) {
	names, srcs := benchCorpus(b)
	var strs []string
	for i, src := range srcs {
		for _, w := range Parse(NewSource(names[i], src)).Workflows {
			strs = append(strs, w.Path, w.ID, w.Name, w.Pos.Path)
			for _, n := range w.Nodes {
				strs = append(strs, n.Name, n.Type, n.OnError, n.Pos.Path)
			}
		}
	}
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cputime.Used()
		for b.Loop() {
			for _, s := range strs {
				Intern(s)
			}
		}
		cputime.ReportPerOp(b, cpu)
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				for _, s := range strs {
					Intern(s)
				}
			}
		})
	})
}
