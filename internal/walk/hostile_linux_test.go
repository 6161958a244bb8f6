package walk

import (
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/scoutkit/scout/internal/fsx"
)

// mkdirDeep makes depth directories "d", one in another, under dir, by
// descriptor (their paths pass what the OS accepts).
func mkdirDeep(t *testing.T, dir string, depth int) {
	t.Helper()
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range depth {
		if err := syscall.Mkdirat(fd, "d", 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := syscall.Openat(fd, "d", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		syscall.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
	}
	syscall.Close(fd)
}

// TestWalkPastPathMaxOS walks a directory tree deeper than the paths the
// OS accepts (2,500 levels of "d/" pass its 4096 bytes; 10,000 levels
// behave the same and take seconds to make and remove): the walk goes as
// deep as it can, counts the directory past that as unreadable with a
// sample error, and leaks no descriptor.
func TestWalkPastPathMaxOS(t *testing.T) {
	dir := t.TempDir()
	mkdirDeep(t, dir, 2_500)
	fsys, release, err := fsx.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	before := openFDs(t)
	for _, sorted := range []bool{false, true} {
		got, st := collect(t, fsys, ".", Options{Sorted: sorted})
		if len(got) < 1000 || !strings.HasPrefix(got[len(got)-1], "d/d/d/") || st.Skipped[ReasonUnreadable] != 1 || len(st.Errors) != 1 || !errors.Is(st.Errors[0], syscall.ENAMETOOLONG) {
			t.Errorf("sorted=%v: %d entries, %v, %v; want the levels the OS accepts and one unreadable directory", sorted, len(got), st.Skipped, st.Errors)
		}
	}
	if after := openFDs(t); after > before {
		t.Errorf("%d descriptors open after the walks, %d before", after, before)
	}
}
