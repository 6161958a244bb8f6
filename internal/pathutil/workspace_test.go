package pathutil

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// symlinkTrees returns the same tree with symlinks as an fstest.MapFS and
// as a temp dir opened as Scout opens a root, with the OS root ("" for the
// MapFS). fstest.MapFS follows a symlink loop until its stack overflows:
// any stat that reaches it without CheckInside first kills the test.
func symlinkTrees(t *testing.T) []struct {
	name string
	fsys fs.FS
	root string
} {
	t.Helper()
	links := map[string]string{
		"ln_in":      "a.txt",
		"ln_in_dir":  "sub",
		"ln_gone":    "nothing.txt",
		"ln_out":     "../outside/x.txt",
		"ln_abs":     "/etc",
		"ln_loop1":   "ln_loop2",
		"ln_loop2":   "ln_loop1",
		"ln_self":    "ln_self",
		"sub/ln_up":  "../ln_self",
		"ln_to_loop": "sub/../ln_loop1",
	}
	base := t.TempDir()
	root := filepath.Join(base, "root")
	m := fstest.MapFS{"a.txt": {Data: []byte("a\n")}, "sub/b.txt": {Data: []byte("b\n")}}
	for p, body := range map[string]string{"root/a.txt": "a\n", "root/sub/b.txt": "b\n", "outside/x.txt": "x\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(base, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(base, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for p, target := range links {
		if err := os.Symlink(target, filepath.Join(root, p)); err != nil {
			t.Skip("no symlinks:", err)
		}
		m[p] = &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink | 0o777}
	}
	osfs, abs, release, err := Open(nil, root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return []struct {
		name string
		fsys fs.FS
		root string
	}{{"MapFS", m, ""}, {"OS", osfs, abs}}
}

// TestStat: a path through a symlink out of the tree, dangling or not, is
// ACCESS_DENIED; a path through a symlink loop INVALID_PARAM, before the
// FS is asked to follow it; a missing path fs.ErrNotExist.
func TestStat(t *testing.T) {
	tests := []struct {
		p    string
		code errs.Code // the error; "" for none, or fs.ErrNotExist when gone
		dir  bool
		gone bool
	}{
		{p: "a.txt"},
		{p: "sub", dir: true},
		{p: "ln_in"},
		{p: "ln_in_dir/b.txt"},
		{p: "ln_gone", gone: true},
		{p: "missing/x", gone: true},
		{p: "ln_out", code: errs.AccessDenied},
		{p: "ln_abs", code: errs.AccessDenied},
		{p: "ln_abs/passwd", code: errs.AccessDenied},
		{p: "ln_loop1", code: errs.InvalidParam},
		{p: "ln_self/x.txt", code: errs.InvalidParam},
		{p: "sub/ln_up/y", code: errs.InvalidParam},
		{p: "ln_to_loop", code: errs.InvalidParam},
	}
	for _, tr := range symlinkTrees(t) {
		// Stat, then twice through one Dirs, as a caller checking many
		// paths keeps one: the second pass meets known directories.
		dirs := Dirs{}
		stats := []func(fs.FS, string) (fs.FileInfo, error){Stat, dirs.Stat, dirs.Stat}
		for i := range len(stats) * len(tests) {
			tt := tests[i%len(tests)]
			fi, err := stats[i/len(tests)](tr.fsys, tt.p)
			switch {
			case tt.code != "":
				if errs.CodeOf(err) != tt.code {
					t.Errorf("%s: Stat(%q) = %v, want %s", tr.name, tt.p, err, tt.code)
				}
			case tt.gone:
				if !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s: Stat(%q) = %v, want fs.ErrNotExist", tr.name, tt.p, err)
				}
			case err != nil || fi.IsDir() != tt.dir:
				t.Errorf("%s: Stat(%q) = %v, %v; want a dir %v", tr.name, tt.p, fi, err, tt.dir)
			case fi.Name() != path.Base(tt.p):
				t.Errorf("%s: Stat(%q) named %q, want %q", tr.name, tt.p, fi.Name(), path.Base(tt.p))
			}
		}
	}
}

// TestContainerOutside: a path naming something inside a container is
// refused as its container is; a container that is inside the tree, or
// missing, is no error; only the first few colons are looked at.
func TestContainerOutside(t *testing.T) {
	tests := []struct {
		p    string
		code errs.Code
	}{
		{"ln_out:m.txt", errs.AccessDenied},
		{"ln_out:t:1-2", errs.AccessDenied},
		{"ln_abs:x", errs.AccessDenied},
		{"ln_loop1:x", errs.InvalidParam},
		{"sub/ln_up/y:1", errs.InvalidParam},
		{"a.txt:1", ""},
		{"ln_in:5", ""},
		{"missing:x", ""},
		{"ln_out", ""}, // no colon: the caller's own stat reports it
		{":ln_out", ""},
		{"a:b:c:d:ln_out:x", ""}, // past the fourth colon
	}
	for _, tr := range symlinkTrees(t) {
		for _, tt := range tests {
			if err := ContainerOutside(tr.fsys, tr.root, tt.p); errs.CodeOf(err) != tt.code {
				t.Errorf("%s: ContainerOutside(%q) = %v, want %q", tr.name, tt.p, err, tt.code)
			}
		}
	}
}

// lstatCounter counts the lstat (n) and stat (stats) calls that reach a
// MapFS.
type lstatCounter struct {
	fstest.MapFS
	n, stats int
}

func (c *lstatCounter) Stat(name string) (fs.FileInfo, error) {
	c.stats++
	return c.MapFS.Stat(name)
}

func (c *lstatCounter) Lstat(name string) (fs.FileInfo, error) {
	c.n++
	return c.MapFS.Lstat(name)
}

func (c *lstatCounter) ReadLink(name string) (string, error) { return c.MapFS.ReadLink(name) }

// TestDirsSaves: paths that share directories are checked with an lstat of
// their last element once the directories are known, and a symlink in a
// known directory is still followed.
func TestDirsSaves(t *testing.T) {
	c := &lstatCounter{MapFS: fstest.MapFS{
		"a/b/c/x.go": {}, "a/b/c/y.go": {}, "a/b/c/z.go": {},
		"a/b/c/out": {Data: []byte("../../../../etc"), Mode: fs.ModeSymlink | 0o777},
	}}
	dirs := Dirs{}
	for _, p := range []string{"a/b/c/x.go", "a/b/c/y.go", "a/b/c/z.go"} {
		if _, err := dirs.Stat(c, p); err != nil {
			t.Fatal(err)
		}
	}
	if c.n != 4+1+1 {
		t.Errorf("%d lstat calls for three files of one directory, want 6 (4 for the first path, 1 for each other)", c.n)
	}
	if _, err := dirs.Stat(c, "a/b/c/out/passwd"); errs.CodeOf(err) != errs.AccessDenied {
		t.Errorf("a symlink out in a known directory: %v, want ACCESS_DENIED", err)
	}
}

// TestDirsStatOnce: a path reached through no symlink is stat'ed by the
// lstat that checked it, with the FileInfo the FS's Stat gives; a path
// through a symlink, or naming one, is stat'ed again, under its own name.
func TestDirsStatOnce(t *testing.T) {
	mod := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := &lstatCounter{MapFS: fstest.MapFS{
		"a/x.go":   {Data: []byte("package x\n"), Mode: 0o640, ModTime: mod},
		"a/sub":    {Mode: fs.ModeDir | 0o755, ModTime: mod},
		"ln":       {Data: []byte("a"), Mode: fs.ModeSymlink | 0o777},
		"a/ln.go":  {Data: []byte("x.go"), Mode: fs.ModeSymlink | 0o777},
		"b/y.go":   {Data: []byte("y"), ModTime: mod},
		"b/ln_sub": {Data: []byte("../a/sub"), Mode: fs.ModeSymlink | 0o777},
	}}
	tests := []struct {
		p     string
		stats int // calls of the FS's Stat
	}{
		{"a/x.go", 0},
		{"a/sub", 0},
		{"b/y.go", 0},
		{"ln/x.go", 1},
		{"a/ln.go", 1},
		{"b/ln_sub", 1},
	}
	for _, tt := range tests {
		c.stats = 0
		got, err := Dirs{}.Stat(c, tt.p)
		require.NoError(t, err, tt.p)
		assert.Equal(t, tt.stats, c.stats, "%s: calls of Stat", tt.p)
		want, err := c.MapFS.Stat(tt.p)
		require.NoError(t, err, tt.p)
		assert.Equal(t, []any{want.Name(), want.Size(), want.Mode(), want.ModTime(), want.IsDir()},
			[]any{got.Name(), got.Size(), got.Mode(), got.ModTime(), got.IsDir()}, tt.p)
	}
}
