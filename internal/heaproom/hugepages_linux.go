package heaproom

import (
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
