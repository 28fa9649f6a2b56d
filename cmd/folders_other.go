//go:build !linux

package cmd

// folders opens an audit's files by their path where openat is not used
// (folders_linux.go).
type folders struct{}

func newFolders() *folders { return &folders{} }

func (d *folders) open(path string) (rawFile, error) { return openFile(path) }

func (d *folders) close() {}
