//go:build unix

package mcpserver

import (
	"os"
	"syscall"
)

// openFlags open without blocking: a named pipe must be refused, not
// waited on for a writer.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
