//go:build unix

package safewrite

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives tmp the owner and group of the file it replaces. Only
// when they differ from tmp's: chown is refused to most users, and then the
// write is refused rather than handing the file to someone else.
func keepOwner(tmp *os.File, was fs.FileInfo) error {
	st, ok := was.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	info, err := tmp.Stat()
	if err != nil {
		return err
	}
	now, ok := info.Sys().(*syscall.Stat_t)
	if ok && now.Uid == st.Uid && now.Gid == st.Gid {
		return nil
	}
	return tmp.Chown(int(st.Uid), int(st.Gid))
}
