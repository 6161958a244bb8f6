package walk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/stretchr/testify/require"
)

// TestMain gives the tests a HOME of their own and no system git
// configuration, so that only the configuration a test writes applies.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "walk-home")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Unsetenv("XDG_CONFIG_HOME")
	os.Unsetenv("GIT_CONFIG_GLOBAL")
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// homeEnv is a git environment whose only configuration is in home.
func homeEnv(home string) *gitEnv {
	env := map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1"}
	return &gitEnv{getenv: func(k string) string { return env[k] }, readFile: readOSFile}
}

// collect walks and returns the reported paths (directories with a
// trailing "/"), sorted, and the stats.
func collect(t *testing.T, fsys fs.FS, root string, opts Options) ([]string, Stats) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	st, err := Walk(context.Background(), fsys, root, opts, func(e Entry) error {
		p := e.Path
		if e.Type.IsDir() {
			p += "/"
		}
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatalf("Walk(%q): %v", root, err)
	}
	slices.Sort(got)
	return got, st
}

// tree is a test tree: file path -> contents. A path ending in "/" is an
// empty directory; "->target" contents make a symlink (on the OS only).
type tree map[string]string

func (tr tree) mapFS() fstest.MapFS {
	m := fstest.MapFS{}
	for p, c := range tr {
		switch {
		case strings.HasSuffix(p, "/"):
			m[strings.TrimSuffix(p, "/")] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
		case strings.HasPrefix(c, "->"):
			m[p] = &fstest.MapFile{Data: []byte(c[2:]), Mode: fs.ModeSymlink | 0o777}
		default:
			m[p] = &fstest.MapFile{Data: []byte(c), Mode: 0o644}
		}
	}
	return m
}

func (tr tree) osFS(t *testing.T) fs.FS {
	t.Helper()
	return tr.osFSAt(t, t.TempDir())
}

// osFSAt writes the tree into dir (where it may already exist) and opens it.
func (tr tree) osFSAt(t *testing.T, dir string) fs.FS {
	t.Helper()
	for p, c := range tr {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if strings.HasPrefix(c, "->") {
			err = os.Symlink(c[2:], full)
		} else {
			err = os.WriteFile(full, []byte(c), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	fsys, closeFn, err := fsx.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeFn)
	return fsys
}

// both returns the tree as a MapFS and as an OS directory.
func (tr tree) both(t *testing.T) map[string]fs.FS {
	return map[string]fs.FS{"MapFS": tr.mapFS(), "OS": tr.osFS(t)}
}

var sample = tree{
	".git/HEAD":          "ref: refs/heads/main\n",
	".git/info/exclude":  "excluded.txt\n",
	".gitignore":         "*.log\n!keep.log\nbuild/\n/rootonly.txt\n",
	"a.go":               "package a\n",
	"a.log":              "x",
	"keep.log":           "x",
	"excluded.txt":       "x",
	"rootonly.txt":       "x",
	".hidden/h.go":       "package h\n",
	".env":               "X=1\n",
	"build/out.bin":      "x",
	"src/build":          "a file named build is not a directory",
	"src/rootonly.txt":   "x",
	"src/.ignore":        "*.tmp\n!*.log\n",
	"src/x.tmp":          "x",
	"src/y.log":          "shown: .ignore beats .gitignore",
	"src/sub/.gitignore": "!*.log\n*.go\n",
	"src/sub/s.go":       "x",
	"src/sub/s.log":      "x",
	"node_modules/m.js":  "x",
	"empty/":             "",
	"src/sub/deep/d.txt": "x",
	"src/link.go":        "->../a.go",
	"src/sub/deep/.git":  "gitdir: elsewhere\n",
	"src/sub/deep/d.go":  "a nested work tree: the parent's *.go does not apply",
	"src/sub/deep/e.tmp": "the .ignore of src still applies",
}

func TestWalkRules(t *testing.T) {
	cases := []struct {
		name   string
		root   string
		opts   Options
		want   []string
		reason string
	}{
		{
			name: "default", root: ".",
			want: []string{"a.go", "empty/", "keep.log", "node_modules/", "node_modules/m.js", "src/", "src/build",
				"src/link.go", "src/rootonly.txt", "src/sub/", "src/sub/deep/", "src/sub/deep/d.go", "src/sub/deep/d.txt",
				"src/sub/s.log", "src/y.log"},
			reason: "gitignore, info/exclude, .ignore precedence, hidden, nested work tree",
		},
		{
			name: "hidden", root: ".", opts: Options{Hidden: true},
			want: []string{".env", ".gitignore", ".hidden/", ".hidden/h.go", "a.go", "empty/", "keep.log", "node_modules/",
				"node_modules/m.js", "src/", "src/.ignore", "src/build", "src/link.go", "src/rootonly.txt", "src/sub/",
				"src/sub/.gitignore", "src/sub/deep/", "src/sub/deep/d.go", "src/sub/deep/d.txt", "src/sub/s.log", "src/y.log"},
			reason: "hidden entries shown, .git never",
		},
		{
			name: "no ignore", root: ".", opts: Options{NoIgnore: true, PruneDirs: []string{"node_modules"}},
			want: []string{"a.go", "a.log", "build/", "build/out.bin", "empty/", "excluded.txt", "keep.log", "rootonly.txt",
				"src/", "src/build", "src/link.go", "src/rootonly.txt", "src/sub/", "src/sub/deep/", "src/sub/deep/d.go",
				"src/sub/deep/d.txt", "src/sub/deep/e.tmp", "src/sub/s.go", "src/sub/s.log", "src/x.tmp", "src/y.log"},
			reason: "every ignore source off; PruneDirs still prunes",
		},
		{
			name: "subdir root", root: "src/sub",
			want:   []string{"src/sub/deep/", "src/sub/deep/d.go", "src/sub/deep/d.txt", "src/sub/s.log"},
			reason: "rules of the directories above the walk root apply",
		},
		{
			name: "filter", root: ".", opts: Options{Filter: func(rel string, isDir bool) bool { return strings.HasSuffix(rel, ".go") }},
			want:   []string{"a.go", "src/link.go", "src/sub/deep/d.go"},
			reason: "filtered directories are still entered",
		},
	}
	for fsName, fsys := range sample.both(t) {
		for _, c := range cases {
			for _, sorted := range []bool{false, true} {
				c.opts.Sorted = sorted
				t.Run(fsName+"/"+c.name, func(t *testing.T) {
					got, _ := collect(t, fsys, c.root, c.opts)
					if !slices.Equal(got, c.want) {
						t.Errorf("sorted=%v got\n%q\nwant\n%q\n(%s)", sorted, got, c.want, c.reason)
					}
				})
			}
		}
	}
}

func TestWalkStats(t *testing.T) {
	for fsName, fsys := range sample.both(t) {
		_, st := collect(t, fsys, ".", Options{PruneDirs: []string{"node_modules"}})
		want := map[Reason]int{
			// .git, a.log, excluded.txt, rootonly.txt, build/, node_modules/,
			// src/x.tmp, src/sub/s.go, src/sub/deep/.git, src/sub/deep/e.tmp
			ReasonIgnored: 10,
			// .gitignore, .hidden, .env, src/.ignore, src/sub/.gitignore
			ReasonHidden: 5,
		}
		if !maps(st.Skipped, want) {
			t.Errorf("%s: skipped = %v, want %v", fsName, st.Skipped, want)
		}
		// 13 reported (15 minus node_modules and its file) + 15 skipped.
		if st.Visited != 28 {
			t.Errorf("%s: visited = %d, want 28", fsName, st.Visited)
		}
	}
}

func maps(a, b map[Reason]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestWalkSortedOrder(t *testing.T) {
	tr := tree{"b/x": "", "a.txt": "", "a/z": "", "a/b/c": "", "c": ""}
	for fsName, fsys := range tr.both(t) {
		var got []string
		_, err := Walk(context.Background(), fsys, ".", Options{Sorted: true}, func(e Entry) error {
			got = append(got, e.Path)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"a.txt", "a", "a/b", "a/b/c", "a/z", "b", "b/x", "c"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: order %q, want %q (pre-order, byte-wise path order: a.txt < a/b)", fsName, got, want)
		}
	}
}

// TestWalkSortedPathOrder: on random trees of names that sort around '/'
// ("a", "a.go", "a-b", "a!", ...), a sorted walk reports every entry in
// byte-wise order of its path, a directory's path taken with a trailing
// '/' (so that it comes right before its subtree).
func TestWalkSortedPathOrder(t *testing.T) {
	for seed := range 20 {
		tr := tree{}
		for _, p := range testfs.PathOrderTree(int64(seed), 4) {
			tr[p] = "x"
		}
		for fsName, fsys := range tr.both(t) {
			var keys []string
			_, err := Walk(context.Background(), fsys, ".", Options{Sorted: true, Workers: 3}, func(e Entry) error {
				k := e.Path
				if e.Type.IsDir() {
					k += "/"
				}
				keys = append(keys, k)
				return nil
			})
			require.NoError(t, err)
			require.NotEmpty(t, keys)
			for i := 1; i < len(keys); i++ {
				require.Lessf(t, keys[i-1], keys[i], "%s seed %d: entries out of byte-wise path order", fsName, seed)
			}
		}
	}
}

func TestWalkEntryFields(t *testing.T) {
	tr := tree{"d/f.txt": "12345", "d/l": "->f.txt"}
	for fsName, fsys := range tr.both(t) {
		seen := map[string]Entry{}
		var mu sync.Mutex
		_, err := Walk(context.Background(), fsys, ".", Options{}, func(e Entry) error {
			mu.Lock()
			seen[e.Path] = e
			mu.Unlock()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		f, l, d := seen["d/f.txt"], seen["d/l"], seen["d"]
		if d.Type != fs.ModeDir || d.Depth != 1 || f.Type != 0 || f.Depth != 2 || l.Type != fs.ModeSymlink {
			t.Fatalf("%s: types/depths wrong: %+v %+v %+v", fsName, d, f, l)
		}
		// Info is called after the walk, when the directory is closed.
		fi, err := f.Info()
		if err != nil || fi.Size() != 5 {
			t.Fatalf("%s: Info() = %v, %v; want size 5", fsName, fi, err)
		}
		if fi, err := l.Info(); err != nil || fi.Mode().Type() != fs.ModeSymlink {
			t.Fatalf("%s: Info() of a symlink = %v, %v; want the link itself", fsName, fi, err)
		}
	}
}

// TestEntryStat: Stat gives what Info does, during the walk (through the
// directory's descriptor on the OS) and after it (by path), for a file, a
// directory and a symlink (the link itself).
func TestEntryStat(t *testing.T) {
	tr := tree{"d/f.txt": "12345", "d/l": "->f.txt", "top": "x"}
	for fsName, fsys := range tr.both(t) {
		var mu sync.Mutex
		seen := map[string]Entry{}
		during := map[string]fsx.Stat{}
		_, err := Walk(context.Background(), fsys, ".", Options{}, func(e Entry) error {
			st, err := e.Stat()
			if err != nil {
				return err
			}
			mu.Lock()
			seen[e.Path], during[e.Path] = e, st
			mu.Unlock()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"d", "d/f.txt", "d/l", "top"} {
			fi, err := seen[p].Info()
			if err != nil {
				t.Fatalf("%s: Info of %s: %v", fsName, p, err)
			}
			want := fsx.Stat{Size: fi.Size(), ModTime: fi.ModTime(), Mode: fi.Mode()}
			after, err := seen[p].Stat()
			if err != nil || !sameStat(during[p], want) || !sameStat(after, want) {
				t.Errorf("%s: %s: Stat %+v during the walk, %+v (%v) after; Info says %+v", fsName, p, during[p], after, err, want)
			}
		}
		if st := during["d/l"]; st.Mode.Type() != fs.ModeSymlink {
			t.Errorf("%s: Stat of a symlink has mode %v, want the link itself", fsName, st.Mode)
		}
	}
	if _, err := (Entry{Path: "x"}).Stat(); !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("Stat of an Entry not made by Walk = %v, want ErrInvalid", err)
	}
}

func sameStat(a, b fsx.Stat) bool {
	return a.Size == b.Size && a.ModTime.Equal(b.ModTime) && a.Mode == b.Mode
}

func TestWalkSkipDirSkipAllAndErrors(t *testing.T) {
	tr := tree{"a/1": "", "a/2": "", "b/3": "", "c": ""}
	boom := errors.New("boom")
	cases := []struct {
		name    string
		fn      func(e Entry) error
		want    []string
		wantErr error
		reason  string
	}{
		{"skipdir", func(e Entry) error {
			if e.Path == "a" {
				return fs.SkipDir
			}
			return nil
		}, []string{"a", "b", "b/3", "c"}, nil, "SkipDir on a directory skips its contents"},
		{"skipdir on file", func(e Entry) error {
			if e.Path == "a/1" {
				return fs.SkipDir
			}
			return nil
		}, []string{"a", "a/1", "b", "b/3", "c"}, nil, "SkipDir on a file skips the rest of its directory"},
		{"skipall", func(e Entry) error {
			if e.Path == "a/1" {
				return fs.SkipAll
			}
			return nil
		}, []string{"a", "a/1"}, nil, "SkipAll stops without error"},
		{"error", func(e Entry) error {
			if e.Path == "b" {
				return boom
			}
			return nil
		}, []string{"a", "a/1", "a/2", "b"}, boom, "an error stops the walk and is returned"},
	}
	for fsName, fsys := range tr.both(t) {
		for _, c := range cases {
			var got []string
			_, err := Walk(context.Background(), fsys, ".", Options{Sorted: true}, func(e Entry) error {
				got = append(got, e.Path)
				return c.fn(e)
			})
			if !errors.Is(err, c.wantErr) || !slices.Equal(got, c.want) {
				t.Errorf("%s/%s: got %q, %v; want %q, %v (%s)", fsName, c.name, got, err, c.want, c.wantErr, c.reason)
			}
		}
	}
}

func TestWalkBadRoot(t *testing.T) {
	tr := tree{"f": "x", "d/g": "y"}
	cases := []struct {
		root   string
		code   errs.Code
		reason string
	}{
		{"../x", errs.InvalidParam, "not a valid fs path"},
		{"/abs", errs.InvalidParam, "absolute"},
		{"missing", errs.NotFound, "does not exist"},
		{"f", errs.InvalidParam, "a file is not a directory"},
	}
	for fsName, fsys := range tr.both(t) {
		for _, c := range cases {
			_, err := Walk(context.Background(), fsys, c.root, Options{}, func(Entry) error { return nil })
			if errs.CodeOf(err) != c.code {
				t.Errorf("%s: Walk(%q) = %v (code %s), want code %s (%s)", fsName, c.root, err, errs.CodeOf(err), c.code, c.reason)
			}
		}
	}
}

func TestWalkMaxVisited(t *testing.T) {
	tr := tree{"a/1": "", "a/2": "", "b/3": "", "c": "", ".h": ""}
	for fsName, fsys := range tr.both(t) {
		var got []string
		st, err := Walk(context.Background(), fsys, ".", Options{Sorted: true, MaxVisited: 3}, func(e Entry) error {
			got = append(got, e.Path)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// Visit order: .h (hidden, counted), a, a/1, then the limit.
		want := []string{"a", "a/1"}
		if !slices.Equal(got, want) || !st.Truncated || st.Visited != 3 || st.Skipped[ReasonLimit] == 0 {
			t.Errorf("%s: got %q, stats %+v; want %q, truncated after 3 visits", fsName, got, st, want)
		}
	}
}

func TestWalkCancel(t *testing.T) {
	tr := tree{}
	for i := range 200 {
		tr[filepath.Join("d", string(rune('a'+i%26)), "f"+string(rune('a'+i/26)))] = ""
	}
	for fsName, fsys := range tr.both(t) {
		for _, sorted := range []bool{false, true} {
			testCancel(t, fsName, fsys, sorted)
		}
	}
}

func testCancel(t *testing.T, fsName string, fsys fs.FS, sorted bool) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	var mu sync.Mutex
	_, err := Walk(ctx, fsys, ".", Options{Sorted: sorted}, func(e Entry) error {
		mu.Lock()
		defer mu.Unlock()
		n++
		if n == 5 {
			cancel()
		}
		if n >= 5 && n <= 20 {
			// The walk learns of the cancel from context.AfterFunc's
			// goroutine, which a loaded machine may run late (with one
			// pause of 10 ms the walk went on to its end, under -race at
			// a load of 25): each entry allowed after the cancel gives it
			// 50 ms more.
			time.Sleep(50 * time.Millisecond)
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("%s sorted=%v: err = %v, want context.Canceled", fsName, sorted, err)
	}
	if n > 20 {
		t.Errorf("%s sorted=%v: %d entries reported after cancel; the walk must stop promptly", fsName, sorted, n)
	}
}

// failingFS is an FS whose directory fail cannot be listed.
type failingFS struct {
	fs.FS
	fail string
}

func (f failingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == f.fail {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return fs.ReadDir(f.FS, name)
}

func TestWalkOuterWorkTree(t *testing.T) {
	// The FS root is a subdirectory of a git work tree: the ignore files of
	// the directories above it apply, as git and ripgrep apply them.
	base := t.TempDir()
	top := filepath.Join(base, "top")
	for name, content := range map[string]string{
		".ignore":                              "*.ign\n", // above the work tree: .ignore files apply up to "/" (ripgrep)
		".gitignore":                           "*.go\n",  // above the work-tree top: never applies
		"top/.git/HEAD":                        "ref: refs/heads/main\n",
		"top/.git/info/exclude":                "*.ex\n",
		"top/.git/config":                      "[core]\n\texcludesFile = my.ignore\n", // relative to the top
		"top/my.ignore":                        "*.cfg\n/sub/d/\n",
		"top/.gitignore":                       "\uFEFF*.log\nsub/*.tmp\n!keep.log\n", // a byte-order mark before the first rule
		"top/sub/.gitignore":                   "!b.log\n",
		"top/sub/a.txt":                        "x",
		"top/sub/b.log":                        "re-included by sub/.gitignore",
		"top/sub/keep.log":                     "re-included by top/.gitignore",
		"top/sub/l.log":                        "x",
		"top/sub/c.go":                         "x",
		"top/sub/d/e.go":                       "x",
		"top/sub/x.tmp":                        "x",
		"top/sub/in/q.tmp":                     "sub/*.tmp is anchored",
		"top/sub/y.ign":                        "x",
		"top/sub/z.ex":                         "x",
		"top/sub/w.cfg":                        "x",
		"top/sub/nested/.git":                  "gitdir: ../../.git/modules/nested\n",
		"top/sub/nested/n.log":                 "a nested work tree: the .gitignore files above do not apply",
		"top/sub/nested/n.ign":                 "x",
		"top/.git/modules/nested/info/exclude": "n.*\n!n.log\n",
		"top/sub/nested/n.txt":                 "excluded by its own info/exclude",
	} {
		writeFile(t, filepath.Join(base, filepath.FromSlash(name)), content)
	}
	fsys, closeFn, err := fsx.OpenDir(filepath.Join(top, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	got, _ := collect(t, fsys, ".", Options{})
	want := []string{"a.txt", "b.log", "c.go", "in/", "in/q.tmp", "keep.log", "nested/", "nested/n.log"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// Without the OS directory (a plain FS of the same tree) there is no
	// work tree and nothing above the root.
	got, _ = collect(t, os.DirFS(filepath.Join(top, "sub")), ".", Options{})
	want = []string{"a.txt", "b.log", "c.go", "d/", "d/e.go", "in/", "in/q.tmp", "keep.log", "l.log", "nested/",
		"nested/n.ign", "nested/n.log", "nested/n.txt", "w.cfg", "x.tmp", "y.ign", "z.ex"}
	if !slices.Equal(got, want) {
		t.Errorf("plain FS: got %q, want %q", got, want)
	}
	// NoIgnore reads nothing above the root either.
	got, _ = collect(t, fsys, ".", Options{NoIgnore: true})
	if !slices.Equal(got, want) {
		t.Errorf("NoIgnore: got %q, want %q", got, want)
	}
}

func TestEntryInfoZero(t *testing.T) {
	if _, err := (Entry{Path: "x"}).Info(); !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("Info of an Entry not made by Walk = %v, want ErrInvalid", err)
	}
}

func TestWalkStatAhead(t *testing.T) {
	tr := tree{"a/f.txt": "12345", "a/g.txt": "1", "b.txt": "12"}
	want := map[string]int64{"a/f.txt": 5, "a/g.txt": 1, "b.txt": 2}
	for fsName, fsys := range tr.both(t) {
		got := map[string]int64{}
		_, err := Walk(context.Background(), fsys, ".", Options{Sorted: true, StatAhead: true}, func(e Entry) error {
			if !e.Type.IsDir() {
				e.list.mu.Lock()
				ahead := e.list.cache != nil && e.list.cache[e.idx].ok
				e.list.mu.Unlock()
				if !ahead {
					t.Errorf("%s: the Info of %s was not fetched ahead", fsName, e.Path)
				}
				fi, err := e.Info()
				if err != nil {
					return err
				}
				got[e.Path] = fi.Size()
			}
			return nil
		})
		if err != nil || len(got) != len(want) {
			t.Fatalf("%s: %v, %v", fsName, got, err)
		}
		for p, n := range want {
			if got[p] != n {
				t.Errorf("%s: size of %s = %d, want %d (info fetched ahead)", fsName, p, got[p], n)
			}
		}
	}
}

// TestEntryOpenRegular opens entries during the walk (through the
// directory's descriptor on the OS) and after it (by path): the same
// contents, and symlinks and directories refused either way; after the
// walk each opens into one reused slot.
func TestEntryOpenRegular(t *testing.T) {
	tr := tree{"d/f.txt": "12345", "d/l": "->f.txt", "top": "x"}
	var slot fsx.Slot
	read := func(e Entry, slot *fsx.Slot) (string, error) {
		f, err := e.OpenRegular(slot)
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if int64(len(b)) != f.Size() {
			t.Errorf("%s: read %d bytes, Size %d", e.Path, len(b), f.Size())
		}
		return string(b), err
	}
	for fsName, fsys := range tr.both(t) {
		var mu sync.Mutex
		seen := map[string]Entry{}
		during := map[string]string{}
		_, err := Walk(context.Background(), fsys, ".", Options{}, func(e Entry) error {
			s, err := read(e, nil)
			if err != nil {
				s = "error"
			}
			mu.Lock()
			seen[e.Path], during[e.Path] = e, s
			mu.Unlock()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"d/f.txt", "top"} {
			after, err := read(seen[p], &slot)
			if during[p] != tr[p] || after != tr[p] || err != nil {
				t.Errorf("%s: %s read %q during the walk, %q (%v) after; want %q", fsName, p, during[p], after, err, tr[p])
			}
		}
		if during["d"] != "error" {
			t.Errorf("%s: a directory opened as a regular file", fsName)
		}
		if _, err := read(seen["d/l"], &slot); during["d/l"] != "error" || !errors.Is(err, fsx.ErrNotRegular) {
			t.Errorf("%s: a symlink was followed (during the walk: %q; after: %v)", fsName, during["d/l"], err)
		}
	}
	if _, err := (Entry{Path: "x"}).OpenRegular(nil); !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("OpenRegular of an Entry not made by Walk = %v, want ErrInvalid", err)
	}
}

// TestAllocsPerEntry: a walk allocates per directory, not per entry: the
// paths of a directory's entries share one string (their names none of
// their own), so that a walk of a large tree takes little fresh memory;
// both walks, on the OS (listing by descriptor), and so does Entry.Stat
// of every entry (a find reads each match's time).
func TestAllocsPerEntry(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops values at random")
	}
	trees := map[int]fs.FS{}
	for _, n := range []int{100, 400} {
		tr := tree{}
		for i := range n {
			tr[fmt.Sprintf("d%d/file-%04d.txt", i%4, i)] = "x"
		}
		trees[n] = tr.osFS(t)
	}
	for _, sorted := range []bool{false, true} {
		for _, stat := range []bool{false, true} {
			var per [2]float64
			for i, n := range []int{100, 400} {
				per[i] = testing.AllocsPerRun(5, func() {
					st, err := Walk(context.Background(), trees[n], ".", Options{Sorted: sorted, Workers: 1, NoIgnore: true}, func(e Entry) error {
						if stat {
							_, err := e.Stat()
							return err
						}
						return nil
					})
					if err != nil || st.Visited != n+4 {
						t.Fatalf("visited %d of %d: %v", st.Visited, n+4, err)
					}
				})
			}
			if slope := (per[1] - per[0]) / 300; slope > 0.05 {
				t.Errorf("sorted %v, Stat %v: %.3f allocations per entry (%.0f for 100 files, %.0f for 400)", sorted, stat, slope, per[0], per[1])
			}
		}
	}
}
