package walk

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/scoutkit/scout/internal/fsx"
)

func TestWalkSymlinkLoop(t *testing.T) {
	tr := tree{
		"a/self":   "->.",
		"a/up":     "->..",
		"a/b/back": "->../../a",
		"a/f.txt":  "x",
		"dangling": "->nowhere",
	}
	for fsName, fsys := range tr.both(t) {
		got, st := collect(t, fsys, ".", Options{})
		want := []string{"a/", "a/b/", "a/b/back", "a/f.txt", "a/self", "a/up", "dangling"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q (symlinks are reported, never followed)", fsName, got, want)
		}
		if st.Skipped[ReasonUnreadable] != 0 {
			t.Errorf("%s: %v; a loop must not make anything unreadable", fsName, st.Skipped)
		}
	}
}

func TestWalkSymlinkRootIsFollowed(t *testing.T) {
	tr := tree{"real/f.txt": "x", "link": "->real"}
	fsys := tr.osFS(t)
	got, _ := collect(t, fsys, "link", Options{})
	if want := []string{"link/f.txt"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q (a symlink given as the root is followed)", got, want)
	}
}

func TestWalkUnreadableDir(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"ok/a.txt", "locked/secret.txt", "z.txt"} {
		writeFile(t, filepath.Join(dir, p), "x")
	}
	locked := filepath.Join(dir, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	if _, err := os.ReadDir(locked); err == nil {
		t.Skip("running with privileges that bypass directory permissions (root)")
	}
	fsys, closeFn, err := fsx.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	for _, sorted := range []bool{false, true} {
		got, st := collect(t, fsys, ".", Options{Sorted: sorted})
		want := []string{"locked/", "ok/", "ok/a.txt", "z.txt"}
		if !slices.Equal(got, want) || st.Skipped[ReasonUnreadable] != 1 || len(st.Errors) != 1 {
			t.Errorf("sorted=%v: got %q, stats %+v; want %q and one unreadable directory", sorted, got, st, want)
		}
	}
}

// TestWalkUnreadableDirMapFS covers the same case where permissions cannot
// be relied on: a MapFS directory entry whose listing fails.
func TestWalkUnreadableDirMapFS(t *testing.T) {
	fsys := tree{"ok/a.txt": "x", "z.txt": "x"}.mapFS()
	bad := failingFS{FS: fsys, fail: "ok"}
	got, st := collect(t, bad, ".", Options{})
	if want := []string{"ok/", "z.txt"}; !slices.Equal(got, want) || st.Skipped[ReasonUnreadable] != 1 {
		t.Errorf("got %q, %+v; want %q and one unreadable", got, st, want)
	}
}

// TestWalkHugeDirectory walks a directory of 100,000 entries. It builds it
// in /dev/shm (tmpfs) when it can: on a loaded disk creating that many files
// takes tens of seconds; elsewhere it uses 10,000 entries.
func TestWalkHugeDirectory(t *testing.T) {
	n := 100_000
	dir, err := os.MkdirTemp("/dev/shm", "walktest")
	if err != nil {
		n, dir = 10_000, t.TempDir()
	} else {
		t.Cleanup(func() { os.RemoveAll(dir) })
	}
	big := filepath.Join(dir, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(big, "f000000.txt")
	writeFile(t, first, "")
	for i := 1; i < n; i++ {
		// Hard links: one system call per entry.
		if err := os.Link(first, filepath.Join(big, fmt.Sprintf("f%06d.txt", i))); err != nil {
			t.Fatal(err)
		}
	}
	fsys, closeFn, err := fsx.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	var count atomic.Int64
	st, err := Walk(context.Background(), fsys, ".", Options{}, func(e Entry) error {
		if strings.HasSuffix(e.Path, ".txt") {
			count.Add(1)
		}
		return nil
	})
	if err != nil || count.Load() != int64(n) || st.Visited != n+1 {
		t.Fatalf("reported %d of %d files, visited %d, err %v", count.Load(), n, st.Visited, err)
	}
}

// failingOpener wraps the OS FS so that the directory fail cannot be
// opened, to test the descriptor path when running as root.
type failingOpener struct {
	fs.FS
	fail string
}

func (f failingOpener) OpenDirFD(name string) (fsx.DirFD, error) {
	if name == f.fail {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return f.FS.(fsx.DirOpener).OpenDirFD(name)
}

func TestWalkUnreadableDirFD(t *testing.T) {
	fsys := tree{"ok/a.txt": "x", "locked/s.txt": "x"}.osFS(t)
	if _, ok := fsys.(fsx.DirOpener); !ok {
		t.Skip("no descriptor-based listing on this system")
	}
	got, st := collect(t, failingOpener{FS: fsys, fail: "locked"}, ".", Options{})
	if want := []string{"locked/", "ok/", "ok/a.txt"}; !slices.Equal(got, want) || st.Skipped[ReasonUnreadable] != 1 {
		t.Errorf("got %q, %+v; want %q and one unreadable", got, st, want)
	}
}

func TestWalkDeepTree(t *testing.T) {
	const depth = 300
	p := strings.Repeat("d/", depth) + "f.txt"
	for fsName, fsys := range (tree{p: "x"}).both(t) {
		for _, sorted := range []bool{false, true} {
			got, st := collect(t, fsys, ".", Options{Sorted: sorted})
			if len(got) != depth+1 || got[len(got)-1] != p || st.Visited != depth+1 {
				t.Errorf("%s sorted=%v: %d entries, visited %d; want %d down to %s", fsName, sorted, len(got), st.Visited, depth+1, p)
			}
		}
	}
}

// openFDs counts the open descriptors of the process (Linux only).
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}

func TestWalkStopsWithoutLeaks(t *testing.T) {
	tr := tree{}
	for i := range 40 {
		for j := range 5 {
			tr[fmt.Sprintf("d%02d/e%d/f.txt", i, j)] = "x"
		}
	}
	fsys := tr.osFS(t)
	before := openFDs(t)
	for _, sorted := range []bool{false, true} {
		for _, workers := range []int{1, 0} {
			for _, stopAt := range []int{1, 7, 100, 1 << 20} { // the last: a whole walk
				n := 0
				var mu sync.Mutex
				_, err := Walk(context.Background(), fsys, ".", Options{Sorted: sorted, Workers: workers}, func(e Entry) error {
					mu.Lock()
					defer mu.Unlock()
					if n++; n == stopAt {
						return fs.SkipAll
					}
					if sorted && strings.HasSuffix(e.Path, "e3") {
						return fs.SkipDir // abandon a subtree listed ahead
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if after := openFDs(t); after != before {
		t.Fatalf("%d descriptors open before the walks, %d after", before, after)
	}
}
