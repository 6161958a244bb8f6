package fsx

import (
	"io"
	"io/fs"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSysCallsBothWays lists a directory and reads a file through it with
// direct system calls and through the scheduler: the same results.
func TestSysCallsBothWays(t *testing.T) {
	dir := makeTree(t)
	fsys, closeFn, ok := openBeneath(dir)
	if !ok {
		t.Skip("no openat2 here")
	}
	defer closeFn()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	t.Logf("temp dir file system type %#x: direct calls %v", st.Type, localFS[int64(st.Type)])
	var lists [][]string
	for _, direct := range []bool{false, true} {
		d, err := fsys.(*beneathFS).openDir("open", "a/b")
		if err != nil {
			t.Fatal(err)
		}
		d.sys = sysCalls{direct: direct}
		var names []string
		if err := d.ReadEntries(func(name string, _ fs.FileMode) { names = append(names, name) }); err != nil {
			t.Fatal(err)
		}
		lists = append(lists, names)
		f, err := d.OpenRegular("deep.go")
		if err != nil {
			t.Fatalf("direct=%v: %v", direct, err)
		}
		b, err := io.ReadAll(f)
		if err != nil || string(b) != "package deep\n" {
			t.Errorf("direct=%v: read %q, %v", direct, b, err)
		}
		if err := f.Close(); err != nil {
			t.Errorf("direct=%v: Close: %v", direct, err)
		}
		if _, err := d.OpenRegular("missing"); err == nil {
			t.Errorf("direct=%v: a missing file opened", direct)
		}
		if err := d.Close(); err != nil {
			t.Errorf("direct=%v: Close dir: %v", direct, err)
		}
	}
	if !slices.Equal(lists[0], lists[1]) || len(lists[0]) != 1 {
		t.Errorf("listings differ: %v", lists)
	}
}
