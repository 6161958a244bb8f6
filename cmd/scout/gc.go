package main

import (
	"os"
	"runtime/debug"
)

// The scout command is short-lived: it trades memory for less garbage
// collection (a search with many results allocates in bursts), unless the
// user set GOGC.
func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}
