//go:build !unix

package mcpserver

import "os"

// openFlags: outside Unix, a named pipe cannot stand among files.
const openFlags = os.O_RDONLY
