//go:build !linux

package heaproom

func adviseHuge([]byte) {}
