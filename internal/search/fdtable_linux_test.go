package search

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"golang.org/x/sys/unix"
)

// fdTableSize is the size of the process's descriptor table (FDSize in
// /proc/self/status); it skips the test where there is none.
func fdTableSize(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	for line := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(line, []byte("FDSize:")); ok {
			n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no FDSize in /proc/self/status")
	return 0
}

// TestSearchKeepsDescriptorTable: searches of a tree of many directories
// with 64 processors leave the process's descriptor table at the 64 entries
// it starts with. Linux grows the table on demand, and growing a
// table that threads share waits for an RCU grace period while every
// thread that opens a file waits too (20-25 ms a growth on a 16-core
// virtual machine, as long as a whole search of the Go tree there). It
// fails when the ordered walk lists 64 directories ahead, when a walk grows
// the table beforehand, and when the search goroutines grow with the
// processors past 16 (par.Openers).
//
// The search runs in a grandchild: a process's table is as large as its
// parent's highest open descriptor needs, so the child first closes the
// descriptors it inherited (those not close-on-exec), then starts it.
func TestSearchKeepsDescriptorTable(t *testing.T) {
	switch os.Getenv("SCOUT_FDTABLE") {
	case "":
		root := t.TempDir()
		for d := range 300 {
			dir := filepath.Join(root, fmt.Sprintf("d%03d", d), "sub")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for f := range 4 {
				for _, p := range []string{filepath.Dir(dir), dir} {
					if err := os.WriteFile(filepath.Join(p, fmt.Sprintf("f%d.txt", f)), []byte("a\nreturn b\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		// A regression grows the table on every run; a busy machine (the
		// race detector's scheduling, other tests) can rarely keep one
		// more directory open at once, so a second run decides.
		out, err := selfTest(t, "child", root).CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS")) {
			t.Logf("first run: %v\n%s", err, out)
			out, err = selfTest(t, "child", root).CombinedOutput()
		}
		if err != nil || !bytes.Contains(out, []byte("--- PASS")) {
			t.Fatalf("%v\n%s", err, out)
		}
		if bytes.Contains(out, []byte("--- SKIP")) {
			t.Skipf("the search was not run:\n%s", out)
		}
	case "child":
		for _, fd := range inheritedFDs(t) {
			unix.Close(fd)
		}
		out, err := selfTest(t, "search", os.Getenv("SCOUT_FDTABLE_ROOT")).CombinedOutput()
		os.Stdout.Write(out)
		if err != nil {
			t.Fatal(err)
		}
	case "search":
		if n := fdTableSize(t); n != 64 {
			t.Skipf("the table starts at %d entries", n)
		}
		runtime.GOMAXPROCS(64)
		fsys, release, err := fsx.OpenDir(os.Getenv("SCOUT_FDTABLE_ROOT"))
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		hit := grep.Options{Pattern: "return"}
		count := grep.Options{Pattern: "return", CountOnly: true}
		for _, c := range []struct {
			name string
			req  Request
		}{
			{"every line", Request{Grep: hit, MaxFiles: -1, Budget: -1, PerFile: -1, PerFileOne: -1}},
			{"first page", Request{Grep: hit, PerFile: 20, PerFileOne: 200, MaxFiles: 20, Budget: 2000}},
			{"budgeted count", Request{Grep: count, MaxFiles: -1, Budget: 100_000, PerFile: -1, PerFileOne: -1}},
			{"exhaustive count", Request{Grep: count, MaxFiles: -1, Budget: -1}},
		} {
			if _, err := Run(context.Background(), fsys, "", c.req); err != nil {
				t.Fatal(err)
			}
			if n := fdTableSize(t); n != 64 {
				t.Fatalf("%s: the descriptor table grew to %d entries", c.name, n)
			}
		}
	}
}

// selfTest is the test binary run again for this test, in mode.
func selfTest(t *testing.T, mode, root string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
	cmd.Env = append(os.Environ(), "SCOUT_FDTABLE="+mode, "SCOUT_FDTABLE_ROOT="+root)
	return cmd
}

// inheritedFDs lists the descriptors above 2 that are not close-on-exec:
// those this process inherited (the runtime's own are close-on-exec).
func inheritedFDs(t *testing.T) []int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	var fds []int
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd <= 2 {
			continue
		}
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && flags&unix.FD_CLOEXEC == 0 {
			fds = append(fds, fd)
		}
	}
	return fds
}
