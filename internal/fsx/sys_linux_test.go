package fsx

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// beneathOf opens dir as OpenDir does on Linux, until the test ends; it
// skips the test where openat2 is missing.
func beneathOf(t *testing.T, dir string) *beneathFS {
	t.Helper()
	fsys, closeFn, ok := openBeneath(dir)
	if !ok {
		t.Skip("no openat2 here")
	}
	t.Cleanup(closeFn)
	return fsys.(*beneathFS)
}

// TestSysCallsBothWays lists a directory and reads a file through it with
// direct system calls and through the scheduler: the same results.
func TestSysCallsBothWays(t *testing.T) {
	fsys := beneathOf(t, makeTree(t))
	t.Logf("temp dir on a local file system: %v", fsys.mounts.rootLocal)
	var lists [][]string
	for _, direct := range []bool{false, true} {
		d, err := fsys.openDir("open", "a/b")
		if err != nil {
			t.Fatal(err)
		}
		d.sys = sysCalls{direct: direct}
		var names []string
		if err := d.ReadEntries(func(name string, _ fs.FileMode) { names = append(names, name) }); err != nil {
			t.Fatal(err)
		}
		lists = append(lists, names)
		f, err := d.OpenRegular("deep.go", nil)
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
		if _, err := d.OpenRegular("missing", nil); err == nil {
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

// TestOpenat2BothWays: openat2 beneath the root gives the same answers
// with direct system calls as through the scheduler: a file, a directory,
// a symlink inside, and the errors of a missing name, of symlinks leading
// out, and of a name the C string cannot hold; and the FS's opens and
// stats, which take the direct way on a local file system, still refuse
// what leads out.
func TestOpenat2BothWays(t *testing.T) {
	f := beneathOf(t, makeTree(t))
	names := []string{"top.txt", "a/b", "a/in.go", "dirlink/deep.go", "missing", "abs-escape", "rel-escape", "a/../top.txt", "x\x00y"}
	type answer struct {
		ok  bool
		err error
	}
	var answers [2][]answer
	for i, direct := range []bool{false, true} {
		for _, name := range names {
			how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_CLOEXEC, Resolve: resolveFlags}
			fd, err := sysCalls{direct: direct}.openat2(f.root, name, &how)
			if err == nil {
				unix.Close(fd)
			}
			answers[i] = append(answers[i], answer{err == nil, err})
		}
	}
	if !slices.Equal(answers[0], answers[1]) {
		t.Errorf("through the scheduler %v, direct %v", answers[0], answers[1])
	}
	var opened []bool
	for _, a := range answers[1] {
		opened = append(opened, a.ok)
	}
	if want := []bool{true, true, true, true, false, false, false, true, false}; !slices.Equal(want, opened) {
		t.Errorf("opened %v, want %v (%v)", opened, want, answers[1])
	}
	for _, name := range []string{"abs-escape", "rel-escape"} {
		if _, err := f.Stat(name); !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("Stat(%q) = %v, want ErrOutsideRoot", name, err)
		}
		if _, err := f.openRegular(name, new(Slot)); !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("openRegular(%q) = %v, want ErrOutsideRoot", name, err)
		}
	}
	r, err := f.openRegular("a/in.go", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if b, err := io.ReadAll(r); err != nil || string(b) != "package deep\n" {
		t.Errorf("a/in.go: %q, %v", b, err)
	}
	if fi, err := f.Lstat("a/in.go"); err != nil || fi.Mode()&fs.ModeSymlink == 0 || fi.Name() != "in.go" {
		t.Errorf("Lstat(a/in.go) = %v, %v; want the symlink", fi, err)
	}
}

func TestReadMounts(t *testing.T) {
	const info = `22 27 0:21 / /proc rw,relatime - proc proc rw
27 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw
30 27 0:40 / /home/me/src/net rw - nfs4 server:/x rw
31 27 0:41 / /home/me/src/net/inner rw - tmpfs tmpfs rw
32 27 0:42 / /home/me/src/with\040space rw - fuse.sshfs host: rw
33 27 0:43 / /home/me/src-other rw - nfs host:/y rw
34 27 0:44 / /srv rw - nfs host:/z rw
35 34 0:45 / /srv rw - ext4 /dev/sdb rw
garbage line
`
	cases := []struct {
		root, rel string
		direct    bool
		reason    string
	}{
		{"/home/me/src", ".", true, "the root's file system is the deepest mount above it: ext4"},
		{"/home/me/src", "pkg/a", true, "a plain directory below the root"},
		{"/home/me/src", "net", false, "an NFS mount point below the root"},
		{"/home/me/src", "net/x/y", false, "below an NFS mount"},
		{"/home/me/src", "net/inner/z", true, "a tmpfs mounted inside the NFS mount"},
		{"/home/me/src", "with space", false, "an escaped mount point (FUSE)"},
		{"/home/me/src", "netx", true, "a sibling whose name only starts like a mount point"},
		{"/home/me/src/net/a", ".", false, "a root inside an NFS mount"},
		{"/srv", ".", true, "a later mount on the same point hides the earlier one"},
		{"/", "srv/x", true, "the file system root: mounts below it count"},
		{"/", "home/me/src/net", false, "the file system root: an NFS mount below it"},
	}
	for _, c := range cases {
		m := readMounts(c.root, info)
		if got := m.sysFor(c.rel).direct; got != c.direct {
			t.Errorf("root %s, dir %s: direct %v, want %v (%s)", c.root, c.rel, got, c.direct, c.reason)
		}
	}
	if m := readMounts("/x", ""); m.sysFor(".").direct {
		t.Error("without a mount table, calls must go through the scheduler")
	}
}

// TestReadProc: readProc reads a whole file, past its first buffer, as
// os.ReadFile does; a missing one is an error.
func TestReadProc(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 100, 8 << 10, 20000} {
		p := filepath.Join(dir, fmt.Sprint(n))
		want := []byte(strings.Repeat("0123456789", n/10+1)[:n])
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := readProc(p); err != nil || string(got) != string(want) {
			t.Errorf("%d bytes: read %d bytes, %v", n, len(got), err)
		}
	}
	want, err := os.ReadFile("/proc/self/cmdline")
	if err != nil {
		t.Skip(err)
	}
	if got, err := readProc("/proc/self/cmdline"); err != nil || string(got) != string(want) {
		t.Errorf("/proc/self/cmdline: %q, %v; want %q", got, err, want)
	}
	if _, err := readProc(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want ErrNotExist", err)
	}
}

// TestReadEntriesManyBatches lists a directory that takes several
// getdents64 batches, with names of every length up to 255 bytes: the same
// names as os.ReadDir, each intact although the names of a batch share
// one string, and ReadNames the same names, in the same order.
func TestReadEntriesManyBatches(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 1500 {
		name := fmt.Sprintf("%d-%s", i, strings.Repeat("é", i%127)) // up to 4+252 bytes
		if len(name) > 255 {
			name = name[:255]
		}
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, name)
	}
	d, err := beneathOf(t, dir).openDir("open", ".")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var got []string
	if err := d.ReadEntries(func(name string, typ fs.FileMode) {
		if typ != 0 {
			t.Errorf("%q: type %v, want a regular file", name, typ)
		}
		got = append(got, name)
	}); err != nil {
		t.Fatal(err)
	}
	d2, err := beneathOf(t, dir).openDir("open", ".")
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	var raw []string
	if err := d2.ReadNames(func(name []byte, typ fs.FileMode) {
		if typ != 0 {
			t.Errorf("%q: type %v, want a regular file", name, typ)
		}
		raw = append(raw, string(name))
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(raw, got) {
		t.Errorf("ReadNames listed %d names, ReadEntries %d; first difference at %d", len(raw), len(got), firstDiff(raw, got))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("listed %d names, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestNotUTF8Names: a name that is not valid UTF-8, which a listing gives,
// opens and stats from the root as by its directory's descriptor (a search
// found such a file or called it unreadable, by when the walk closed its
// directory), while "..", "." and empty elements stay refused.
func TestNotUTF8Names(t *testing.T) {
	dir := t.TempDir()
	name := "bad\xff\xfe.txt"
	if err := os.Mkdir(filepath.Join(dir, "d\xc3"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{name, "d\xc3/" + name} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte("hi\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys := beneathOf(t, dir)
	for _, p := range []string{name, "d\xc3/" + name} {
		b, err := fs.ReadFile(fsys, p)
		if err != nil || string(b) != "hi\n" {
			t.Errorf("ReadFile(%q) = %q, %v", p, b, err)
		}
		if _, err := fs.Stat(fsys, p); err != nil {
			t.Errorf("Stat(%q): %v", p, err)
		}
	}
	for _, p := range []string{"d\xc3/../" + name, "./" + name, "d\xc3//" + name, "\xff/../" + name} {
		if _, err := fsys.Open(p); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q): %v, want fs.ErrInvalid", p, err)
		}
	}
}

// TestOpenRegularInSlot: files opened into a Slot, by a directory's
// descriptor or from the root, read as files opened without one, and
// opening, reading and closing one allocates nothing; a file opened
// without a slot is a new one each time.
func TestOpenRegularInSlot(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"one.txt": "first\n", "two.txt": "second file\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys := beneathOf(t, dir)
	d, err := fsys.openDir("open", ".")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var slot Slot
	buf := make([]byte, 64)
	read := func(f Regular, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		n, err := io.ReadFull(f, buf[:f.Size()])
		if err != nil {
			t.Fatal(err)
		}
		return buf[:n]
	}
	for _, c := range []struct{ name, want string }{{"one.txt", "first\n"}, {"two.txt", "second file\n"}, {"one.txt", "first\n"}} {
		if got := read(d.OpenRegular(c.name, &slot)); string(got) != c.want {
			t.Errorf("OpenRegular(%q, slot) read %q, want %q", c.name, got, c.want)
		}
		if got := read(OpenRegularIn(fsys, c.name, &slot)); string(got) != c.want {
			t.Errorf("OpenRegularIn(%q, slot) read %q, want %q", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		what string
		open func() (Regular, error)
	}{
		{"by descriptor", func() (Regular, error) { return d.OpenRegular("two.txt", &slot) }},
		{"from the root", func() (Regular, error) { return OpenRegularIn(fsys, "two.txt", &slot) }},
	} {
		if n := testing.AllocsPerRun(20, func() { read(c.open()) }); n != 0 {
			t.Errorf("%s: %v allocations to open a file into a slot, read and close it", c.what, n)
		}
	}
	a, _ := d.OpenRegular("one.txt", nil)
	b, _ := d.OpenRegular("one.txt", nil)
	defer a.Close()
	defer b.Close()
	if a == b {
		t.Error("two files opened without a slot share their storage")
	}
}
