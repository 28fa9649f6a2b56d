//go:build !unix

package safewrite

import (
	"io/fs"
	"os"
)

// keepOwner: where files have no Unix owner, a new file is the user's.
func keepOwner(*os.File, fs.FileInfo) error { return nil }
