package heaproom

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestHugeHeapAdvises: hugeHeap leaves mappings of at least the region,
// less a huge page at each end, advised for huge pages (VmFlags "hg" in
// /proc/self/smaps), where the system gives huge pages on advice. It runs
// in a process of its own: Start in another test may have advised the
// heap already.
func TestHugeHeapAdvises(t *testing.T) {
	if !hugeOnAdvice() {
		t.Skip("transparent huge pages are not given on advice here: nothing to see")
	}
	const n = 16 << 20
	if os.Getenv("HEAPROOM_TEST_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHugeHeapAdvises$", "-test.v")
		cmd.Env = append(os.Environ(), "HEAPROOM_TEST_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestHugeHeapAdvises") {
			t.Fatalf("in its own process: %v\n%s", err, out)
		}
		return
	}
	if before := advisedBytes(t); before != 0 {
		t.Fatalf("%d bytes advised before hugeHeap", before)
	}
	hugeHeap(n)
	if got := advisedBytes(t); got < n-2*hugePage {
		t.Errorf("advised %d bytes for huge pages, want at least %d", got, n-2*hugePage)
	}
}

// TestHugeHeapRespectsDisableTHP: GODEBUG=disablethp=1, the runtime's own
// switch against huge pages, turns the advice off.
func TestHugeHeapRespectsDisableTHP(t *testing.T) {
	t.Setenv("GODEBUG", "gctrace=0,disablethp=1")
	before := advisedBytes(t)
	hugeHeap(16 << 20)
	if got := advisedBytes(t) - before; got != 0 {
		t.Errorf("advised %d bytes for huge pages under GODEBUG=disablethp=1", got)
	}
}

// TestAdviseHugeTinySlice: a slice holding no whole huge page is left alone.
func TestAdviseHugeTinySlice(t *testing.T) {
	b := make([]byte, hugePage)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if p%hugePage == 0 {
		b = b[1:]
	}
	before := advisedBytes(t)
	adviseHuge(b)
	if got := advisedBytes(t) - before; got != 0 {
		t.Errorf("advised %d bytes for a slice with no whole huge page", got)
	}
	runtime.KeepAlive(b)
}

// advisedBytes sums the sizes of the mappings advised for huge pages.
func advisedBytes(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	var total, size int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 3 && fields[0] == "Size:":
			kb, _ := strconv.ParseInt(fields[1], 10, 64)
			size = kb << 10
		case len(fields) > 0 && fields[0] == "VmFlags:":
			for _, fl := range fields[1:] {
				if fl == "hg" {
					total += size
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return total
}
