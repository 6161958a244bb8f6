package fsx

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"testing/fstest"
)

// makeTree creates a small tree with a nested dir, a symlink inside the
// root, and symlinks that escape it.
func makeTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "a/b"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "top.txt"), []byte("top\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "a/b/deep.go"), []byte("package deep\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "a/.hidden"), nil, 0o644))
	must(os.Symlink("b/deep.go", filepath.Join(dir, "a/in.go")))
	must(os.Symlink("a/b", filepath.Join(dir, "dirlink")))
	outside := t.TempDir()
	must(os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644))
	must(os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "abs-escape")))
	must(os.Symlink("../"+filepath.Base(outside)+"/secret", filepath.Join(dir, "rel-escape")))
	return dir
}

// openers returns the FS of OpenDir and the os.Root fallback, so both pass
// the same tests.
func openers(t *testing.T, dir string) map[string]fs.FS {
	t.Helper()
	fsys, closeFn, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeFn)
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return map[string]fs.FS{"OpenDir": fsys, "os.Root": &rootFS{FS: r.FS(), dir: dir}}
}

func TestOpenDirTestFS(t *testing.T) {
	dir := makeTree(t)
	// The escaping links are broken inside the root; TestFS would fail on
	// them by design, so test them separately.
	os.Remove(filepath.Join(dir, "abs-escape"))
	os.Remove(filepath.Join(dir, "rel-escape"))
	for name, fsys := range openers(t, dir) {
		t.Run(name, func(t *testing.T) {
			if err := fstest.TestFS(fsys, "top.txt", "a/b/deep.go", "a/.hidden", "a/in.go"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestOpenDirIsBeneathOnLinux(t *testing.T) {
	fsys, closeFn, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	_, isOpener := fsys.(DirOpener)
	if runtime.GOOS == "linux" && !isOpener {
		t.Log("openat2 unavailable: OpenDir fell back to os.Root")
	}
	if d, ok := fsys.(OSDir); !ok || !filepath.IsAbs(d.OSDir()) {
		t.Fatalf("OpenDir FS must report its absolute OS directory, got %T", fsys)
	}
}

func TestOpenDirRefusesEscapes(t *testing.T) {
	dir := makeTree(t)
	for fsName, fsys := range openers(t, dir) {
		cases := []struct {
			name, path, reason string
			want               error
		}{
			{"dotdot", "../x", "'..' is not a valid fs path", fs.ErrInvalid},
			{"absolute", "/etc/passwd", "absolute paths are not valid fs paths", fs.ErrInvalid},
			{"abs symlink", "abs-escape", "a symlink to an absolute path leaves the root", fs.ErrPermission},
			{"rel symlink", "rel-escape", "a relative symlink climbing out of the root", fs.ErrPermission},
		}
		for _, c := range cases {
			t.Run(fsName+"/"+c.name, func(t *testing.T) {
				_, err := fsys.Open(c.path)
				if !errors.Is(err, c.want) {
					t.Fatalf("Open(%q) = %v, want %v (%s)", c.path, err, c.want, c.reason)
				}
				_, err = fs.ReadFile(fsys, c.path)
				if !errors.Is(err, c.want) {
					t.Fatalf("ReadFile(%q) = %v, want %v (%s)", c.path, err, c.want, c.reason)
				}
				_, err = fs.Stat(fsys, c.path)
				if !errors.Is(err, c.want) {
					t.Fatalf("Stat(%q) = %v, want %v (%s)", c.path, err, c.want, c.reason)
				}
			})
		}
		t.Run(fsName+"/lstat of escaping link works", func(t *testing.T) {
			fi, err := fs.Lstat(fsys, "abs-escape")
			if err != nil || fi.Mode().Type() != fs.ModeSymlink {
				t.Fatalf("Lstat = %v, %v; the link itself lies inside the root", fi, err)
			}
			target, err := fs.ReadLink(fsys, "rel-escape")
			if err != nil || filepath.Base(target) != "secret" {
				t.Fatalf("ReadLink = %q, %v", target, err)
			}
		})
	}
}

func TestOpenDirFilesAreReaderAt(t *testing.T) {
	dir := makeTree(t)
	for name, fsys := range openers(t, dir) {
		f, err := fsys.Open("a/b/deep.go")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := f.(io.ReaderAt); !ok {
			t.Errorf("%s: opened file %T has no ReadAt", name, f)
		}
		f.Close()
	}
}

func TestReadDirFollowsSymlink(t *testing.T) {
	dir := makeTree(t)
	for name, fsys := range openers(t, dir) {
		list, err := fs.ReadDir(fsys, "dirlink")
		if err != nil || len(list) != 1 || list[0].Name() != "deep.go" {
			t.Errorf("%s: ReadDir(dirlink) = %v, %v; fs.ReadDir follows a symlink to a directory", name, list, err)
		}
	}
}

// TestStatBelowFile: a path that goes on below a file does not exist, as
// for an fstest.MapFS (not "not a directory").
func TestStatBelowFile(t *testing.T) {
	dir := makeTree(t)
	for name, fsys := range openers(t, dir) {
		if _, err := fs.Stat(fsys, "top.txt/x"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: Stat(top.txt/x) = %v, want ErrNotExist", name, err)
		}
	}
}

func TestReadLinkOnNonLink(t *testing.T) {
	dir := makeTree(t)
	for name, fsys := range openers(t, dir) {
		if _, err := fs.ReadLink(fsys, "top.txt"); err == nil {
			t.Errorf("%s: ReadLink of a regular file must fail", name)
		}
		if _, err := fs.ReadLink(fsys, "missing"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: ReadLink of a missing path = %v, want ErrNotExist", name, err)
		}
	}
}

func TestDirFD(t *testing.T) {
	dir := makeTree(t)
	fsys, closeFn, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	op, ok := fsys.(DirOpener)
	if !ok {
		t.Skip("no DirOpener on this system")
	}
	d, err := op.OpenDirFD("a")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]fs.FileMode{}
	if err := d.ReadEntries(func(name string, typ fs.FileMode) { got[name] = typ }); err != nil {
		t.Fatal(err)
	}
	want := map[string]fs.FileMode{"b": fs.ModeDir, ".hidden": 0, "in.go": fs.ModeSymlink}
	if len(got) != len(want) {
		t.Fatalf("entries = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("entry %q type = %v, want %v", k, got[k], v)
		}
	}
	fi, err := d.Lstat("in.go")
	if err != nil || fi.Mode().Type() != fs.ModeSymlink || fi.Name() != "in.go" {
		t.Fatalf("Lstat(in.go) = %v, %v", fi, err)
	}
	f, err := d.OpenRegular(".hidden", nil)
	if err != nil || f.Size() != 0 {
		t.Fatalf("OpenRegular(.hidden) = %v, %v", f, err)
	}
	f.Close()
	for _, c := range []struct {
		name string
		want error
	}{
		{"in.go", syscall.ELOOP},     // a symlink is never followed
		{"b", ErrNotRegular},         // a directory
		{"b/deep.go", fs.ErrInvalid}, // one path element only
		{"..", fs.ErrInvalid},        // never up
		{"gone", fs.ErrNotExist},     // nothing there
	} {
		for _, slot := range []*Slot{nil, new(Slot)} {
			if _, err := d.OpenRegular(c.name, slot); !errors.Is(err, c.want) {
				t.Errorf("OpenRegular(%q, slot %v) = %v, want %v", c.name, slot != nil, err, c.want)
			}
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Lstat("in.go"); !errors.Is(err, fs.ErrClosed) {
		t.Fatalf("Lstat after Close = %v, want ErrClosed", err)
	}
	if _, err := d.OpenRegular(".hidden", nil); !errors.Is(err, fs.ErrClosed) {
		t.Fatalf("OpenRegular after Close = %v, want ErrClosed", err)
	}
	if _, err := op.OpenDirFD("dirlink"); err == nil {
		t.Fatal("OpenDirFD on a symlink must fail: it never follows a final symlink")
	}
	if _, err := op.OpenDirFD("../"); !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("OpenDirFD(../) = %v, want ErrInvalid", err)
	}
}

func TestReadFileBuf(t *testing.T) {
	dir := makeTree(t)
	if err := syscallMkfifo(filepath.Join(dir, "fifo")); err != nil {
		t.Logf("no FIFO: %v", err)
	}
	mapFS := fstest.MapFS{"top.txt": {Data: []byte("top\n")}, "a/b/deep.go": {Data: []byte("package deep\n")}}
	fss := openers(t, dir)
	fss["MapFS"] = mapFS
	for name, fsys := range fss {
		cases := []struct {
			path    string
			max     int64
			want    string
			wantErr error
			reason  string
		}{
			{"top.txt", 0, "top\n", nil, "whole file, no cap"},
			{"a/b/deep.go", 13, "package deep\n", nil, "exactly at the cap"},
			{"a/b/deep.go", 12, "", ErrTooLarge, "over the cap"},
			{"a", 0, "", ErrNotRegular, "a directory is refused"},
			{"missing", 0, "", fs.ErrNotExist, "missing file"},
		}
		buf := make([]byte, 0, 2)
		for _, c := range cases {
			got, err := ReadFileBuf(fsys, c.path, buf, c.max)
			switch {
			case c.wantErr != nil:
				if !errors.Is(err, c.wantErr) {
					t.Errorf("%s: ReadFileBuf(%q) err = %v, want %v (%s)", name, c.path, err, c.wantErr, c.reason)
				}
			case err != nil || string(got) != c.want:
				t.Errorf("%s: ReadFileBuf(%q) = %q, %v; want %q (%s)", name, c.path, got, err, c.want, c.reason)
			}
			buf = got
		}
		if _, ok := fsys.(fstest.MapFS); ok {
			continue
		}
		if _, err := ReadFileBuf(fsys, "fifo", nil, 0); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: ReadFileBuf(fifo) must refuse a FIFO without blocking", name)
		}
		if _, err := OpenReaderAt(fsys, "fifo", 0); err == nil {
			t.Errorf("%s: OpenReaderAt(fifo) must refuse a FIFO without blocking", name)
		}
	}
}

// TestOpenRegular: the size comes with the open, reads see the contents,
// and anything not regular is refused without blocking.
func TestOpenRegular(t *testing.T) {
	dir := makeTree(t)
	if err := syscallMkfifo(filepath.Join(dir, "fifo")); err != nil {
		t.Logf("no FIFO: %v", err)
	}
	fss := openers(t, dir)
	fss["MapFS"] = fstest.MapFS{"top.txt": {Data: []byte("top\n")}, "a/b/deep.go": {Data: []byte("package deep\n")}}
	for name, fsys := range fss {
		f, err := OpenRegular(fsys, "a/b/deep.go")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		head := make([]byte, 4)
		if _, err := io.ReadFull(f, head); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// ReadAt reads where it is told and leaves the next Read where it was.
		ra, ok := f.(io.ReaderAt)
		if !ok {
			t.Fatalf("%s: %T has no ReadAt", name, f)
		}
		at := make([]byte, 4)
		if n, err := ra.ReadAt(at, 8); n != 4 || err != nil || string(at) != "deep" {
			t.Errorf("%s: ReadAt(4 bytes, 8) = %d, %v, %q; want 4, nil, \"deep\"", name, n, err, at)
		}
		if n, err := ra.ReadAt(at, 11); n != 2 || err != io.EOF || string(at[:n]) != "p\n" {
			t.Errorf("%s: ReadAt(4 bytes, 11) = %d, %v, %q; want 2, EOF, \"p\\n\"", name, n, err, at[:n])
		}
		rest, err := io.ReadAll(f)
		if b := string(head) + string(rest); err != nil || b != "package deep\n" || f.Size() != 13 {
			t.Errorf("%s: read %q, %v, size %d; want the file and size 13", name, b, err, f.Size())
		}
		if err := f.Close(); err != nil {
			t.Errorf("%s: Close: %v", name, err)
		}
		for _, c := range []struct {
			path string
			want error
		}{
			{"a", ErrNotRegular},        // a directory
			{"missing", fs.ErrNotExist}, // nothing there
		} {
			if _, err := OpenRegular(fsys, c.path); !errors.Is(err, c.want) {
				t.Errorf("%s: OpenRegular(%q) = %v, want %v", name, c.path, err, c.want)
			}
		}
		if _, ok := fsys.(fstest.MapFS); !ok {
			if _, err := OpenRegular(fsys, "fifo"); !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: OpenRegular(fifo) = %v, want ErrNotRegular without blocking", name, err)
			}
		}
	}
}

// TestErrOutsideRoot: the error keeps its text and still matches
// fs.ErrPermission, though it is no longer made by fmt.Errorf.
func TestErrOutsideRoot(t *testing.T) {
	if got, want := ErrOutsideRoot.Error(), "path escapes from the root: "+fs.ErrPermission.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(ErrOutsideRoot, fs.ErrPermission) {
		t.Error("ErrOutsideRoot does not match fs.ErrPermission")
	}
	wrapped := &fs.PathError{Op: "open", Path: "x", Err: ErrOutsideRoot}
	if !errors.Is(wrapped, ErrOutsideRoot) || !errors.Is(wrapped, fs.ErrPermission) {
		t.Errorf("%v does not match ErrOutsideRoot and fs.ErrPermission", wrapped)
	}
}
