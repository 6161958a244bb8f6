package main

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"
)

// gcState reads the collector's settings and the collections so far.
func gcState() (percent, limit, cycles uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64(), s[2].Value.Uint64()
}

// waitSettings waits for the settings of after the first collection.
func waitSettings(t *testing.T) {
	t.Helper()
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for {
		percent, limit, _ := gcState()
		if percent == gcPercent && limit == memoryLimit {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a collection: GOGC %d, limit %d; want %d, %d", percent, limit, gcPercent, memoryLimit)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGCSettings: once the command has collected, it collects less often
// than Go's default and bounds its heap with a soft limit, unless the
// user set GOGC or GOMEMLIMIT (this test process ran the command's init).
func TestGCSettings(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set")
	}
	waitSettings(t)
}

// sink keeps the garbage of TestGCFirstLimit from being optimised away.
var sink []byte

// TestGCFirstLimit: a command that allocates less than firstLimit never
// collects; past it, it collects and goes on with the usual settings. It
// runs in a child process, whose collections are its own.
func TestGCFirstLimit(t *testing.T) {
	if os.Getenv("SCOUT_GC_CHILD") == "" {
		if testing.Short() {
			t.Skip("starts a child process")
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestGCFirstLimit$", "-test.v")
		cmd.Env = append(withoutGCEnv(os.Environ()), "SCOUT_GC_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	// GOGC off reads as the largest value.
	if percent, limit, cycles := gcState(); percent != ^uint64(0) || limit != firstLimit || cycles != 0 {
		t.Fatalf("at start: GOGC %d, limit %d, %d collections; want off, %d, 0", percent, limit, cycles, firstLimit)
	}
	for range (firstLimit / 2) / (64 << 10) {
		sink = make([]byte, 64<<10)
	}
	if _, _, cycles := gcState(); cycles != 0 {
		t.Fatalf("%d collections after allocating half of firstLimit; want none", cycles)
	}
	for range (2 * firstLimit) / (64 << 10) {
		sink = make([]byte, 64<<10)
	}
	if _, _, cycles := gcState(); cycles == 0 {
		t.Fatal("no collection after allocating twice firstLimit")
	}
	waitSettings(t)
}

// withoutGCEnv returns env without GOGC and GOMEMLIMIT.
func withoutGCEnv(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, "GOGC=") || strings.HasPrefix(kv, "GOMEMLIMIT=")
	})
}
