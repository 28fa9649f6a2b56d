package heaproom

import (
	"bytes"
	"os"
	"syscall"
	"unsafe"
)

// hugePage is the size of an x86-64 and arm64 transparent huge page.
const hugePage = 2 << 20

// adviseHuge advises the huge pages that lie wholly within b.
func adviseHuge(b []byte) {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (p + hugePage - 1) &^ (hugePage - 1)
	end := (p + uintptr(len(b))) &^ (hugePage - 1)
	if beg < end {
		// Refused by a kernel without huge pages: nothing to do then.
		_ = syscall.Madvise(b[beg-p:end-p], syscall.MADV_HUGEPAGE)
	}
}

// hugeOnAdvice reports whether the kernel gives transparent huge pages to
// the mappings advised MADV_HUGEPAGE and not to others (the mode in
// brackets in /sys/kernel/mm/transparent_hugepage/enabled is "madvise").
func hugeOnAdvice() bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(mode, []byte("[madvise]"))
}
