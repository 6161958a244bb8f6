//go:build unix

package fsx

import (
	"io/fs"
	"syscall"
)

// statID returns the identity of the file that fi describes, from the
// stat of the OS (whose fields are of other integer types on some
// systems), or the zero FileID.
func statID(fi fs.FileInfo) FileID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return FileID{uint64(st.Dev), uint64(st.Ino)}
	}
	return FileID{}
}
