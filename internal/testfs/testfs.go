// Package testfs holds test helpers: txtar golden cases whose fixture tree
// runs both as an fstest.MapFS and as a real temporary directory, and
// -update rewriting of the expected sections.
//
// A case file is a txtar archive. Sections named "fs/<path>" are the fixture
// tree (a section "fs/<dir>/" with a trailing slash makes an empty
// directory; a section "fs/<path>@symlink" makes a symlink whose target is
// the section body without its final newline). Other sections are the
// request and the expected outputs, by convention "request.json",
// "want.txt" and "want.json".
package testfs

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected sections of txtar golden files")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Case is one parsed txtar golden case.
type Case struct {
	Path    string         // the txtar file
	Archive *txtar.Archive // all sections
	MapFS   fstest.MapFS   // the fixture tree
}

// Epoch is the modification time given to every fixture entry, in order:
// the i-th file of the archive gets Epoch + i minutes, so "newest first"
// orders are deterministic and the same on MapFS and on disk.
var Epoch = time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)

// Load reads a txtar case.
func Load(t testing.TB, file string) *Case {
	t.Helper()
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatalf("parse %s: %v", file, err)
	}
	c := &Case{Path: file, Archive: a, MapFS: fstest.MapFS{}}
	for i, f := range a.Files {
		name, ok := strings.CutPrefix(f.Name, "fs/")
		if !ok {
			continue
		}
		mt := Epoch.Add(time.Duration(i) * time.Minute)
		switch {
		case strings.HasSuffix(name, "/"):
			c.MapFS[strings.TrimSuffix(name, "/")] = &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: mt}
		case strings.HasSuffix(name, "@symlink"):
			c.MapFS[strings.TrimSuffix(name, "@symlink")] = &fstest.MapFile{Mode: fs.ModeSymlink | 0o777, Data: bytes.TrimSuffix(f.Data, []byte("\n")), ModTime: mt}
		default:
			c.MapFS[name] = &fstest.MapFile{Data: f.Data, Mode: 0o644, ModTime: mt}
		}
	}
	// Make every parent directory explicit, with the epoch as its time, so
	// that MapFS and the directory written by WriteDir agree on it.
	for name := range c.MapFS {
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if _, ok := c.MapFS[d]; !ok {
				c.MapFS[d] = &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: Epoch}
			}
		}
	}
	return c
}

// Section returns the body of a named section, and whether it exists.
func (c *Case) Section(name string) ([]byte, bool) {
	for _, f := range c.Archive.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Check compares got with the named section. With -update it rewrites the
// section (adding it if missing) and saves the file instead.
func (c *Case) Check(t testing.TB, name string, got []byte) {
	t.Helper()
	if len(got) > 0 && got[len(got)-1] != '\n' {
		got = append(got, '\n')
	}
	if *update {
		for i := range c.Archive.Files {
			if c.Archive.Files[i].Name == name {
				c.Archive.Files[i].Data = got
				c.save(t)
				return
			}
		}
		c.Archive.Files = append(c.Archive.Files, txtar.File{Name: name, Data: got})
		c.save(t)
		return
	}
	want, ok := c.Section(name)
	if !ok {
		t.Fatalf("%s: no section %q; run with -update to create it. Got:\n%s", c.Path, name, got)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s: section %q differs (run with -update to accept).\n--- want\n%s\n--- got\n%s", c.Path, name, want, got)
	}
}

func (c *Case) save(t testing.TB) {
	t.Helper()
	if err := os.WriteFile(c.Path, txtar.Format(c.Archive), 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteDir writes a MapFS to a new temporary directory with the same
// contents, modes, symlinks and modification times, and returns its path.
func WriteDir(t testing.TB, m fstest.MapFS) string {
	t.Helper()
	dir := t.TempDir()
	type dirTime struct {
		path string
		mt   time.Time
	}
	var dirs []dirTime
	for name, f := range m {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case f.Mode&fs.ModeSymlink != 0:
			if err := os.Symlink(string(f.Data), p); err != nil {
				t.Fatal(err)
			}
			continue
		case f.Mode.IsDir():
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, dirTime{p, f.ModTime})
			continue
		default:
			perm := f.Mode.Perm()
			if perm == 0 {
				perm = 0o644
			}
			if err := os.WriteFile(p, f.Data, perm); err != nil {
				t.Fatal(err)
			}
		}
		if !f.ModTime.IsZero() {
			if err := os.Chtimes(p, f.ModTime, f.ModTime); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Directory times last, deepest first: writing a child changes them.
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i].path) > len(dirs[j].path) })
	for _, d := range dirs {
		if !d.mt.IsZero() {
			os.Chtimes(d.path, d.mt, d.mt)
		}
	}
	return dir
}

// Cases returns the txtar files matching a glob, failing the test if none.
func Cases(t testing.TB, glob string) []string {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases match %s (err %v)", glob, err)
	}
	return files
}

// SlowFS is a MapFS whose every directory read takes Delay, so that a walk
// outlasts a timeout.
type SlowFS struct {
	fstest.MapFS
	Delay time.Duration
}

// ReadDir sleeps for Delay, then reads the directory.
func (s SlowFS) ReadDir(name string) ([]fs.DirEntry, error) {
	time.Sleep(s.Delay)
	return s.MapFS.ReadDir(name)
}

// Tree is a fixture as one of the two file systems a suite runs over.
type Tree struct {
	Name string // "mapfs" or "dir"
	FS   fs.FS  // the MapFS; nil for the directory
	Root string // the directory's path; "" for the MapFS
}

// Trees returns m as an fstest.MapFS and as a temporary directory written
// from it (WriteDir), in that order.
func Trees(t testing.TB, m fstest.MapFS) []Tree {
	t.Helper()
	return []Tree{{Name: "mapfs", FS: m}, {Name: "dir", Root: WriteDir(t, m)}}
}

// PathOrderTree returns the file paths of a random tree (seeded by seed)
// whose names sort around '/' ("a", "a.go", "a-b", "a!", "a b", ...), for
// tests of byte-wise path order: each name is left out, a file, or a
// directory of more such names, up to depth levels deep.
func PathOrderTree(seed int64, depth int) []string {
	names := []string{"a", "a.go", "a-b", "a!", "a b", "ab", "b", "b.c", "0", "a0"}
	r := rand.New(rand.NewSource(seed))
	var files []string
	var add func(dir string, level int)
	add = func(dir string, level int) {
		for _, n := range names {
			if r.Intn(3) == 0 {
				continue
			}
			p := path.Join(dir, n)
			if level < depth && r.Intn(2) == 0 {
				add(p, level+1)
			} else {
				files = append(files, p)
			}
		}
	}
	add(".", 1)
	return files
}

// UTF16LE returns the ASCII text s in UTF-16LE after a byte-order mark.
func UTF16LE(s string) string {
	var b strings.Builder
	b.WriteString("\xFF\xFE")
	for _, c := range []byte(s) {
		b.WriteByte(c)
		b.WriteByte(0)
	}
	return b.String()
}

// TreeState describes every entry under dir: mode, size, time and the hash
// of a regular file's content; two states differ when anything under dir
// was written, created or removed.
func TreeState(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%v %d %d", info.Mode(), info.Size(), info.ModTime().UnixNano())
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		m[p] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
