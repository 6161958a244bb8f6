package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestGCSettings: the command collects less often than Go's default and
// bounds its heap with a soft limit, unless the user set GOGC or
// GOMEMLIMIT (this test process ran the command's init).
func TestGCSettings(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") == "" {
		if got := debug.SetMemoryLimit(-1); got != memoryLimit {
			t.Errorf("memory limit %d, want %d", got, memoryLimit)
		}
	}
	if os.Getenv("GOGC") == "" {
		got := debug.SetGCPercent(gcPercent)
		if got != gcPercent {
			t.Errorf("GOGC %d, want %d", got, gcPercent)
		}
	}
}
