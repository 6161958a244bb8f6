package main

import (
	"os"
	"runtime/debug"
)

// gcPercent and memoryLimit are the garbage collector's settings in the
// scout command unless the user set GOGC or GOMEMLIMIT.
//
// A search with many results allocates in bursts, and collecting less
// often makes it faster: the heap may grow to five times what is live
// (GOGC=400). That alone would double the peak memory of a read that holds
// much at once (a 20 MiB web page parsed into a million links reached 300
// MB), so a soft limit bounds the heap: near 192 MiB the collector runs as
// often as it must, and only there. Scout's promise is a peak under 256 MB
// on any single input; the limit leaves room for what the Go heap does not
// count (SQLite's and tree-sitter's C memory, the binary itself). The
// limit is soft: a read that needs more live memory gets it.
const (
	gcPercent   = 400
	memoryLimit = 192 << 20
)

// The library never changes these process-wide settings (a host's GC is
// its own); only the command does.
func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
