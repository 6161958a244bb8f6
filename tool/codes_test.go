package tool

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/fsx"
)

// TestOneCodePerCase: each kind of bad path gets one code, whichever of
// the six tools takes it, on the OS and on an fstest.MapFS (which follows
// symlinks without a hop limit: a loop overflowed its stack and killed the
// process). The rules:
//   - a path through a symlink that leads outside the root, dangling or
//     not, is ACCESS_DENIED (search and grep said NOT_FOUND for a
//     dangling one on the MapFS);
//   - a path through a symlink loop is INVALID_PARAM "Too many levels of
//     symlinks" (the standardized Glob said "must be within project root");
//   - a path naming something inside a container ("ln.zip:m.txt",
//     "x.db:t") whose container leads outside is refused as the container
//     is, ACCESS_DENIED, also by the tools that do not look inside
//     containers (read said NOT_FOUND for "x.db:t");
//   - a web URL whose host does not resolve is NOT_FOUND, as is any other
//     path that names nothing (read said INTERNAL_ERROR).
func TestOneCodePerCase(t *testing.T) {
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create("m.txt")
	w.Write([]byte(outsideText + "\n"))
	zw.Close()
	db := testDatabase(t, "CREATE TABLE t(a)", "INSERT INTO t VALUES ('"+outsideText+"')")
	links := map[string]string{
		"ln_dangle":     "../outside/missing.txt",
		"ln_abs_dangle": "/nonexistent-scout-dir/missing.txt",
		"ln_zip":        "../outside/a.zip",
		"ln_db":         "../outside/x.db",
		"ln_loop1":      "ln_loop2",
		"ln_loop2":      "ln_loop1",
		"ln_self":       "ln_self",
		"ln_to_loop":    "sub/../ln_loop1",
		"sub/ln_up":     "../ln_self",
	}
	base := t.TempDir()
	root := filepath.Join(base, "root")
	writeTestFile(t, filepath.Join(root, "a.txt"), "inside text\n")
	writeTestFile(t, filepath.Join(root, "sub", "b.go"), "package sub // inside\n")
	writeTestFile(t, filepath.Join(base, "outside", "a.zip"), zb.String())
	writeTestFile(t, filepath.Join(base, "outside", "x.db"), string(db))
	m := fstest.MapFS{"a.txt": {Data: []byte("inside text\n")}, "sub/b.go": {Data: []byte("package sub // inside\n")}}
	for p, target := range links {
		if err := os.Symlink(target, filepath.Join(root, p)); err != nil {
			t.Skip("no symlinks:", err)
		}
		m[p] = &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink | 0o777}
	}
	const (
		denied   = scout.CodeAccessDenied
		invalid  = scout.CodeInvalidParam
		notFound = scout.CodeNotFound
	)
	tests := []struct {
		path string
		code scout.Code
		text string // in the text of every tool but the standardized Glob's access denial
	}{
		{"ln_dangle", denied, "leads outside the project root through a symlink"},
		{"ln_abs_dangle", denied, "leads outside the project root through a symlink"},
		{"ln_zip", denied, "leads outside the project root through a symlink"},
		{"ln_zip:m.txt", denied, "'ln_zip' leads outside the project root through a symlink"},
		{"ln_zip:m.txt:1-2", denied, "'ln_zip' leads outside the project root through a symlink"},
		{"ln_db:t", denied, "'ln_db' leads outside the project root through a symlink"},
		{"ln_db:t:1", denied, "'ln_db' leads outside the project root through a symlink"},
		{"ln_loop1", invalid, "Too many levels of symlinks in 'ln_loop1'"},
		{"ln_self", invalid, "Too many levels of symlinks in 'ln_self'"},
		{"ln_self/x.txt", invalid, "Too many levels of symlinks in 'ln_self/x.txt'"},
		{"ln_to_loop", invalid, "Too many levels of symlinks in 'ln_to_loop'"},
		{"sub/ln_up/y", invalid, "Too many levels of symlinks in 'sub/ln_up/y'"},
		{"missing:x", notFound, "missing:x"},
		{"http://" + strings.Repeat("a", 64) + ".example/x", notFound, ".example/x"},
	}
	for _, cfg := range []struct {
		name string
		cfg  Config
	}{{"OS", Config{Root: root}}, {"MapFS", Config{FS: m}}} {
		for _, tt := range tests {
			for _, c := range pathCalls {
				env, out := callJSON(t, cfg.cfg, c.toolset, c.name, c.args(tt.path))
				if strings.Contains(out, "0u7s1d3-c0nt3nt") {
					t.Errorf("%s %s/%s %q: the Envelope holds outside content:\n%s", cfg.name, c.toolset, c.name, tt.path, out)
				}
				want := tt.text
				if c.name == "Glob" && tt.code == denied {
					want = "Access denied. Path must be within project root." // the standardized Glob's one wording
				}
				if env.Status != scout.StatusError || env.Error.Code != tt.code || !strings.Contains(env.Text, want) {
					t.Errorf("%s %s/%s %q: %s %+v, want %s with %q", cfg.name, c.toolset, c.name, tt.path, env.Status, env.Error, tt.code, want)
				}
			}
		}
		// Walking a root that holds the links lists them, never follows
		// them: no loop is followed, nothing outside is read.
		for _, c := range []struct {
			toolset, name string
			args          map[string]any
		}{
			{Pi, "search", map[string]any{"paths": ".", "pattern": "inside|d3-c0n"}},
			{Pi, "find", map[string]any{"paths": []string{"**/*"}}},
			{Amplifier, "grep", map[string]any{"pattern": "inside|d3-c0n", "output_mode": "content"}},
			{Amplifier, "glob", map[string]any{"pattern": "**/*", "type": "file"}},
			{Amplifier, "glob", map[string]any{"pattern": "**/*", "type": "dir"}},
			{Standardized, "Glob", map[string]any{"pattern": "**/*"}},
			{Pi, "read", map[string]any{"path": "."}},
		} {
			env, out := callJSON(t, cfg.cfg, c.toolset, c.name, c.args)
			if env.Status == scout.StatusError || strings.Contains(out, "0u7s1d3-c0nt3nt") {
				t.Errorf("%s %s/%s %v of the root: %s:\n%.500s", cfg.name, c.toolset, c.name, c.args, env.Status, out)
			}
		}
	}
}

// statErrFS is a MapFS whose Stat and Lstat of a name in errs fail with
// that error, as an OS's both do.
type statErrFS struct {
	fstest.MapFS
	errs map[string]error
}

func (f statErrFS) Stat(name string) (fs.FileInfo, error) {
	if err := f.errs[name]; err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	return f.MapFS.Stat(name)
}

func (f statErrFS) Lstat(name string) (fs.FileInfo, error) {
	if err := f.errs[name]; err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	return f.MapFS.Lstat(name)
}

// TestStdGlobStatErrors: the standardized Glob says what an OS refusal of
// its search root is (it said "Path must be within project root" for a
// permission error), and keeps its one wording for a path the OS refused
// as leading out of the root.
func TestStdGlobStatErrors(t *testing.T) {
	cfg := Config{FS: statErrFS{
		MapFS: fstest.MapFS{"locked/a.txt": {}, "out/a.txt": {}, "bad/a.txt": {}},
		errs:  map[string]error{"locked": fs.ErrPermission, "out": fsx.ErrOutsideRoot, "bad": syscall.EIO},
	}}
	for _, tt := range []struct {
		path string
		code scout.Code
		text string
	}{
		{"locked", scout.CodeAccessDenied, "Cannot read search root 'locked': stat locked: permission denied"},
		{"out", scout.CodeAccessDenied, "Access denied. Path must be within project root."},
		{"bad", scout.CodeInternal, "Cannot read search root 'bad': stat bad: input/output error"},
	} {
		env, _ := callJSON(t, cfg, Standardized, "Glob", map[string]any{"pattern": "*", "path": tt.path})
		if env.Status != scout.StatusError || env.Error.Code != tt.code || env.Text != tt.text {
			t.Errorf("Glob in %q: %s %+v, want %s %q", tt.path, env.Status, env.Error, tt.code, tt.text)
		}
	}
}
