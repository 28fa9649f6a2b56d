//go:build !linux

package heaproom

func adviseHuge([]byte) {}

func hugeOnAdvice() bool { return false }
