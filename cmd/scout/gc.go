package main

import (
	"os"
	"runtime"
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
//
// firstLimit is where the first collection starts: until then the
// collector is off, with a soft limit of firstLimit. A search of a source
// tree of 150 MB allocates 20-40 MB at 16 processors, past the 16 MB at
// which GOGC=400 starts its first collection; run traces on 16 cores
// showed that collection stopping every goroutine for 0.2-3.7 ms and its
// mark assists taking 8-74 ms of their time, about a tenth of the search.
// A command that ends before firstLimit never collects; one that goes on
// collects at firstLimit once and then as gcPercent and memoryLimit say.
const (
	gcPercent   = 400
	memoryLimit = 192 << 20
	firstLimit  = 48 << 20
)

// The library never changes these process-wide settings (a host's GC is
// its own); only the command does.
func init() {
	setGC(os.Getenv("GOGC") != "", os.Getenv("GOMEMLIMIT") != "")
}

// setGC applies the command's settings that the user did not set.
func setGC(userPercent, userLimit bool) {
	switch {
	case !userPercent && !userLimit:
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(firstLimit)
		// The cleanup of an object that nothing references runs after
		// the first collection. (Not a tiny allocation, which may share
		// its block with live objects and never be collected.)
		runtime.AddCleanup(new([64]byte), func(struct{}) {
			debug.SetGCPercent(gcPercent)
			debug.SetMemoryLimit(memoryLimit)
		}, struct{}{})
	case !userPercent:
		debug.SetGCPercent(gcPercent)
	case !userLimit:
		debug.SetMemoryLimit(memoryLimit)
	}
}
