package fsx

import (
	"io/fs"
	"sync"

	"golang.org/x/sys/unix"
)

// growFDs is the size the descriptor table is grown to before a walk.
const growFDs = 1024

var growOnce sync.Once

// GrowFDTable prepares the process for a walk of fsys that holds many
// descriptors at once: for the OS FS of OpenDir it grows the process's
// descriptor table to growFDs entries, once, by duplicating the root's
// descriptor to the lowest free one at or above growFDs-1 and closing the
// copy. It changes nothing else, and gives up quietly where the descriptor
// limit is lower.
//
// Linux grows the table on demand, and in a process whose table other
// threads share a growth waits for an RCU grace period, with every thread
// that opens a file meanwhile waiting for it too. A search holds many
// descriptors at once (the directories a sorted walk lists ahead, the
// files its workers read), so the first search of a process grew the table
// from its initial 64 entries twice or more, each time with every opener
// parked for milliseconds: on 16 cores the first ordered count of
// the Go tree took 52-54 ms, and 22-25 ms with the table grown beforehand.
func GrowFDTable(fsys fs.FS) {
	f, ok := fsys.(*beneathFS)
	if !ok {
		return
	}
	growOnce.Do(func() {
		var lim unix.Rlimit
		if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) != nil || lim.Cur <= 128 {
			return
		}
		at := min(uint64(growFDs-1), lim.Cur-1)
		if dup, err := unix.FcntlInt(uintptr(f.root), unix.F_DUPFD_CLOEXEC, int(at)); err == nil {
			unix.Close(dup)
		}
	})
}
