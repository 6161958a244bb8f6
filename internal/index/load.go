package index

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
)

// loadFactor is how much slower than on an idle machine work is likely to
// run now: the runnable processes per processor over the last minute
// (Linux's load average), at least 1; 1 where it cannot be read. Every
// part of a plan (a scan, git, a webserver on this machine) slows down
// about as much, so the ratios between them hold; their absolute times, on
// which the deadlines are set, do not.
func loadFactor() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 1
	}
	f, _, _ := bytes.Cut(b, []byte(" "))
	load, err := strconv.ParseFloat(string(f), 64)
	if err != nil {
		return 1
	}
	return max(load/float64(runtime.GOMAXPROCS(0)), 1)
}
