package fsx

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// fdSize returns the size of the process's descriptor table (FDSize in
// /proc/self/status).
func fdSize(t *testing.T) int {
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

// TestGrowFDTable runs in a fresh process (the test binary again): its
// descriptor table starts small, GrowFDTable grows it to growFDs entries,
// and a limit too low leaves it as it was.
func TestGrowFDTable(t *testing.T) {
	if os.Getenv("FSX_GROW_CHILD") != "" {
		if lim := os.Getenv("FSX_GROW_LIMIT"); lim != "" {
			n, _ := strconv.ParseUint(lim, 10, 64)
			if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: n, Max: n}); err != nil {
				t.Fatal(err)
			}
		}
		fsys, closeFn, err := OpenDir(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer closeFn()
		before := fdSize(t)
		GrowFDTable(fsys)
		if _, ok := os.LookupEnv("FSX_GROW_LIMIT"); ok {
			if after := fdSize(t); after != before {
				t.Errorf("FDSize %d -> %d under a limit of %s, want it unchanged", before, after, os.Getenv("FSX_GROW_LIMIT"))
			}
			return
		}
		if before >= growFDs {
			t.Skipf("the table starts at %d entries", before)
		}
		if after := fdSize(t); after < growFDs {
			t.Errorf("FDSize %d -> %d after GrowFDTable, want at least %d", before, after, growFDs)
		}
		return
	}
	beneathOf(t, t.TempDir()) // skips without openat2
	for _, limit := range []string{"", "100"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGrowFDTable$", "-test.v")
		cmd.Env = append(os.Environ(), "FSX_GROW_CHILD=1")
		if limit != "" {
			cmd.Env = append(cmd.Env, "FSX_GROW_LIMIT="+limit)
		}
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS")) {
			t.Errorf("limit %q: %v\n%s", limit, err, out)
		}
	}
}
