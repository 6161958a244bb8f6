package archive

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/testfs"
)

var fixtureTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// dated returns the members at fixtureTime.
func dated(ms []testfs.Member) []testfs.Member {
	out := make([]testfs.Member, len(ms))
	for i, m := range ms {
		m.ModTime = fixtureTime
		out[i] = m
	}
	return out
}

func buildZip(ms []testfs.Member) []byte { return testfs.Zip(dated(ms)...) }

func buildTar(ms []testfs.Member, gz bool) []byte {
	if gz {
		return testfs.Tgz(dated(ms)...)
	}
	return testfs.Tar(dated(ms)...)
}

// build writes ms in the format named by name's extension.
func build(t testing.TB, name string, ms []testfs.Member) []byte {
	switch FormatOf(name) {
	case Zip:
		return buildZip(ms)
	case Tar:
		return buildTar(ms, false)
	case TarGz:
		return buildTar(ms, true)
	}
	t.Fatalf("no format for %s", name)
	return nil
}

// fileSystems returns the files both as an fstest.MapFS and as a real
// directory opened the way Scout opens one.
func fileSystems(t testing.TB, files map[string][]byte) map[string]fs.FS {
	t.Helper()
	mfs := fstest.MapFS{}
	dir := t.TempDir()
	for name, data := range files {
		mfs[name] = &fstest.MapFile{Data: data, Mode: 0o644, ModTime: fixtureTime}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	osfs, closeFn, err := fsx.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeFn)
	return map[string]fs.FS{"mapfs": mfs, "osdir": osfs}
}

var formats = []string{"a.zip", "a.tar", "a.tar.gz", "a.tgz"}

// sample is the tree every format is tested on.
var sample = []testfs.Member{
	{Name: "README.md", Body: "# hello\n"},
	{Name: "src/"},
	{Name: "src/main.go", Body: "package main\n\nfunc main() {}\n"},
	{Name: "src/Zeta.txt", Body: strings.Repeat("z", 1300)},
	{Name: "src/alpha.txt", Body: ""},
	{Name: "src/deep/nested/x.ts", Body: "export const x = 1\n"},
	{Name: "docs/guide.md", Body: "guide\n"}, // "docs" is only implied
	{Name: "bin/tool", Body: "\x7fELF\x00\x01binary"},
	{Name: "empty/"},
	{Name: "../../etc/passwd", Body: "root:x:0:0\n"},
	{Name: "/abs/file.txt", Body: "absolute\n"},
	{Name: `win\path.txt`, Body: "backslash\n"},
	{Name: "./dot/./x.txt", Body: "dot\n"},
}

func lookupText(t *testing.T, a *Archive, inner string) (string, *Item) {
	t.Helper()
	it, err := a.Lookup(context.Background(), inner)
	if err != nil {
		t.Fatalf("Lookup(%q): %v", inner, err)
	}
	defer it.Close()
	if it.Dir {
		return children(it), it
	}
	if it.Binary {
		return fmt.Sprintf("binary %d", it.Entry.Size), it
	}
	s, err := it.Text(0)
	if err != nil {
		t.Fatalf("Text(%q): %v", inner, err)
	}
	return s, it
}

// children lists a directory item's children, one per line: a directory
// as "name/", a file as "name SIZE", then the count of rejected entries.
func children(it *Item) string {
	var lines []string
	for _, e := range it.Children {
		if e.Dir {
			lines = append(lines, e.Base()+"/")
		} else {
			lines = append(lines, fmt.Sprintf("%s %d", e.Base(), e.Size))
		}
	}
	if it.Rejected > 0 {
		lines = append(lines, fmt.Sprintf("rejected %d", it.Rejected))
	}
	return strings.Join(lines, "\n")
}

func TestLookupGolden(t *testing.T) {
	cases := []struct {
		inner, want, sel, reason string
	}{
		{"", "abs/\nbin/\ndocs/\ndot/\nempty/\nREADME.md 8\nsrc/\nwin/\nrejected 1",
			"", "root lists immediate children, case-insensitive, implicit dirs, the '..' entry counted"},
		{"src", "alpha.txt 0\ndeep/\nmain.go 29\nZeta.txt 1300",
			"", "subdir: children sorted ignoring case, implied directories"},
		{"/src/", "alpha.txt 0\ndeep/\nmain.go 29\nZeta.txt 1300", "", "leading and trailing slashes are normalised"},
		{"docs", "guide.md 6", "", "a directory implied only by a member's name lists"},
		{"empty", "", "", "an empty recorded directory"},
		{"src/main.go", "package main\n\nfunc main() {}\n", "", "member text"},
		{"src/main.go:2-3", "package main\n\nfunc main() {}\n", "2-3", "the member path ends at ':'; the rest is the selector"},
		{"src/deep/nested/x.ts:raw", "export const x = 1\n", "raw", "deep member with :raw"},
		{"bin/tool", "binary 12", "", "a binary member"},
		{"abs/file.txt", "absolute\n", "", "an absolute entry name is read relative to the root"},
		{"win/path.txt", "backslash\n", "", "backslashes are separators"},
		{"dot/x.txt", "dot\n", "", "'.' segments are dropped"},
	}
	for _, name := range formats {
		data := build(t, name, sample)
		for fsName, fsys := range fileSystems(t, map[string][]byte{name: data}) {
			a, err := Open(context.Background(), fsys, name, Limits{})
			if err != nil {
				t.Fatalf("%s/%s: Open: %v", name, fsName, err)
			}
			for _, c := range cases {
				got, it := lookupText(t, a, c.inner)
				if got != c.want || it.Selector != c.sel {
					t.Errorf("%s/%s %q (%s):\ngot  %q sel %q\nwant %q sel %q", name, fsName, c.inner, c.reason, got, it.Selector, c.want, c.sel)
				}
			}
			a.Close()
		}
	}
}

func TestLookupErrors(t *testing.T) {
	cases := []struct {
		inner  string
		code   errs.Code
		msg    string
		reason string
	}{
		{"nope.txt", errs.NotFound, "Path 'nope.txt' not found inside archive", "missing member"},
		{"src/nope/", errs.NotFound, "Path 'src/nope' not found inside archive", "missing directory"},
		{"../etc/passwd", errs.InvalidParam, "contains '..'", "'..' in the requested path"},
		{"src/../README.md", errs.InvalidParam, "contains '..'", "'..' in the middle"},
	}
	for _, name := range formats {
		fsys := fstest.MapFS{name: {Data: build(t, name, sample)}}
		a, err := Open(context.Background(), fsys, name, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			_, err := a.Lookup(context.Background(), c.inner)
			if errs.CodeOf(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%s %q (%s): got %v (%s), want %s containing %q", name, c.inner, c.reason, err, errs.CodeOf(err), c.code, c.msg)
			}
		}
	}
}

func TestCandidates(t *testing.T) {
	cases := []struct {
		p      string
		want   []Split
		reason string
	}{
		{"a.zip", []Split{{"a.zip", ""}}, "bare archive"},
		{"dir/A.ZIP:x/y.ts:5-9", []Split{{"dir/A.ZIP", "x/y.ts:5-9"}}, "case-insensitive extension, inner keeps its selector"},
		{"a.tar.gz:b", []Split{{"a.tar.gz", "b"}}, ".tar.gz, not .tar"},
		{"a.tgz", []Split{{"a.tgz", ""}}, ".tgz"},
		{"a.tar.gz.bak", nil, "extension must end the name"},
		{"a.zip:b.tar:c", []Split{{"a.zip:b.tar", "c"}, {"a.zip", "b.tar:c"}}, "longest first"},
		{"a.zipper", nil, "no archive"},
		{"notes.txt", nil, "plain file"},
		{"a.zip:", []Split{{"a.zip", ""}}, "empty inner"},
		{"İ.zip", []Split{{"İ.zip", ""}}, "İ lower-cases to 3 bytes: no offset may come from a lower-cased copy (this panicked)"},
		{"dİr/a.ZIP:İç/x.ts:5", []Split{{"dİr/a.ZIP", "İç/x.ts:5"}}, "non-ASCII before and after the archive keeps every byte"},
		{"İİİİ.tar.gz:x", []Split{{"İİİİ.tar.gz", "x"}}, "many growing runes before the extension"},
		{"a.zİp", nil, "a non-ASCII letter inside the extension is not the extension"},
		{"ſ.tar:K.zip", []Split{{"ſ.tar:K.zip", ""}, {"ſ.tar", "K.zip"}}, "runes that fold to ASCII (long s, Kelvin) outside the extension"},
		{"a.tar\u212a", nil, "a Kelvin sign does not spell an extension letter"},
		{"\xff\xfe.tgz:\xc3", []Split{{"\xff\xfe.tgz", "\xc3"}}, "invalid UTF-8 passes through untouched"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Candidates(c.p), "Candidates(%q) (%s)", c.p, c.reason)
	}
}

func TestResolve(t *testing.T) {
	files := map[string][]byte{
		"x/a.zip":           buildZip(sample),
		"dir.zip/inner.txt": []byte("a directory named like an archive"),
	}
	for fsName, fsys := range fileSystems(t, files) {
		cases := []struct {
			p      string
			ok     bool
			want   Split
			reason string
		}{
			{"x/a.zip:src/main.go", true, Split{"x/a.zip", "src/main.go"}, "archive file"},
			{"dir.zip", false, Split{}, "a directory is not an archive"},
			{"missing.zip:a", false, Split{}, "missing file"},
			{"x/a.txt", false, Split{}, "not an archive name"},
		}
		for _, c := range cases {
			got, ok, err := Resolve(fsys, c.p)
			require.NoError(t, err, "%s Resolve(%q) (%s)", fsName, c.p, c.reason)
			assert.Equal(t, c.ok, ok, "%s Resolve(%q) (%s)", fsName, c.p, c.reason)
			assert.Equal(t, c.want, got, "%s Resolve(%q) (%s)", fsName, c.p, c.reason)
		}
	}
}

func FuzzCandidates(f *testing.F) {
	for _, s := range []string{"a.zip", "a.tar.gz:x/y.ts:5-9", "A.TGZ:", "a.zip:b.tar:c", "İ.zip", "ſ.tar", "dİr/a.ZIP:İç/x.ts:5", "İİİİ.tar.gz:x", "a.zİp", "\xff\xfe.tgz:\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		prev := len(p) + 1
		for _, c := range Candidates(p) {
			if FormatOf(c.Archive) == None || len(c.Archive) >= prev {
				t.Fatalf("%q: bad or unordered candidate %+v", p, c)
			}
			prev = len(c.Archive)
			joined := c.Archive
			if len(c.Archive) < len(p) {
				joined += ":" + c.Inner
			}
			if joined != p {
				t.Fatalf("%q: %+v does not rejoin", p, c)
			}
		}
	})
}

// openCount is an fs.FS that counts the opens and closes of its files.
type openCount struct {
	fs.FS
	opens, closes int
}

func (c *openCount) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err == nil {
		c.opens++
		f = &countedFile{File: f, c: c}
	}
	return f, err
}

// Stat is fs.Stat of the FS, not an open.
func (c *openCount) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

type countedFile struct {
	fs.File
	c *openCount
}

func (f *countedFile) Close() error {
	f.c.closes++
	return f.File.Close()
}

// Seek lets a plain tar skip member data, as an OS file does.
func (f *countedFile) Seek(off int64, whence int) (int64, error) {
	return f.File.(io.Seeker).Seek(off, whence)
}

// TestTarFirstPass: the first Lookup or Walk of a tar goes on with the
// stream Open read the first header of, so that it opens the file once;
// each later one opens it again, and every open is closed (Close closes
// the one no Lookup or Walk took). The first pass runs under its own
// context, not Open's; an empty tar and a gzipped one named .tar too.
func TestTarFirstPass(t *testing.T) {
	empty := testfs.Tar()
	cases := map[string][]byte{
		"a.tar":    buildTar(sample, false),
		"a.tgz":    buildTar(sample, true),
		"gz.tar":   buildTar(sample, true),
		"none.tar": empty,
	}
	for name, data := range cases {
		for fsName, base := range fileSystems(t, map[string][]byte{name: data}) {
			what := name + " " + fsName
			fsys := &openCount{FS: base}
			a, err := Open(context.Background(), fsys, name, Limits{})
			require.NoError(t, err, what)
			require.Equal(t, 1, fsys.opens, what)
			require.NoError(t, a.Close(), what)
			require.Equal(t, 1, fsys.closes, "%s: Close closes the stream Open read", what)

			fsys = &openCount{FS: base}
			ctx, cancel := context.WithCancel(context.Background())
			a, err = Open(ctx, fsys, name, Limits{})
			require.NoError(t, err, what)
			cancel() // Open's context ends; the first pass has its own
			root, err := a.Lookup(context.Background(), "")
			require.NoError(t, err, what)
			require.Equal(t, 1, fsys.opens, "%s: the first Lookup reads on from Open's header", what)
			want := "abs/\nbin/\ndocs/\ndot/\nempty/\nREADME.md 8\nsrc/\nwin/\nrejected 1"
			if name == "none.tar" {
				want = ""
			}
			require.Equal(t, want, children(root), what)
			root.Close()
			if name != "none.tar" {
				got, _ := lookupText(t, a, "src/main.go")
				require.Equal(t, "package main\n\nfunc main() {}\n", got, what)
				require.Equal(t, 2, fsys.opens, "%s: a second Lookup opens the tar again", what)
			}
			ctx, cancel = context.WithCancel(context.Background())
			cancel()
			_, err = a.Walk(ctx, "", func(Entry, io.Reader, error) error { return nil })
			require.ErrorIs(t, err, context.Canceled, what)
			require.NoError(t, a.Close(), what)
			require.Equal(t, fsys.opens, fsys.closes, "%s: every open closed", what)

			fsys = &openCount{FS: base}
			a, err = Open(context.Background(), fsys, name, Limits{})
			require.NoError(t, err, what)
			n := 0
			_, err = a.Walk(context.Background(), "", func(Entry, io.Reader, error) error { n++; return nil })
			require.NoError(t, err, what)
			require.Equal(t, 1, fsys.opens, "%s: the first Walk reads on from Open's header", what)
			require.NoError(t, a.Close(), what)
			require.Equal(t, 1, fsys.closes, what)
			if name != "none.tar" {
				require.Equal(t, 10, n, "%s: every file member walked, the first too", what)
			}
		}
	}
}

// TestTarBufferedSkips: a plain tar is read through a buffer that serves
// archive/tar's skips of member data, so listing 600 small members takes a
// few reads instead of a read and two seeks each, and the members after
// ones larger than the buffer (skipped by a seek of the file) read right.
func TestTarBufferedSkips(t *testing.T) {
	var ms []testfs.Member
	big := func(i int) string { return fmt.Sprintf("big %d:", i) + strings.Repeat(fmt.Sprint(i), 150<<10) + "end" }
	for i := range 600 {
		ms = append(ms, testfs.Member{Name: fmt.Sprintf("d/f%03d.txt", i), Body: fmt.Sprintf("member %d\n", i)})
		if i%200 == 199 {
			ms = append(ms, testfs.Member{Name: fmt.Sprintf("d/f%03db.txt", i), Body: big(i)})
		}
	}
	ms = append(ms, testfs.Member{Name: "z.txt", Body: "last\n"})
	for fsName, base := range fileSystems(t, map[string][]byte{"a.tar": buildTar(ms, false)}) {
		fsys := &ioCount{FS: base}
		a, err := Open(context.Background(), fsys, "a.tar", Limits{})
		require.NoError(t, err, fsName)
		fsys.calls = 0
		root, err := a.Lookup(context.Background(), "d")
		require.NoError(t, err, fsName)
		assert.Equal(t, 603, strings.Count(children(root), "\n")+1, fsName)
		root.Close()
		assert.LessOrEqual(t, fsys.calls, 40, "%s: reads and seeks of a listing of 604 members", fsName)
		for name, want := range map[string]string{"d/f399b.txt": big(399), "d/f400.txt": "member 400\n", "z.txt": "last\n"} {
			got, _ := lookupText(t, a, name)
			require.Equal(t, want, got, "%s: %s", fsName, name)
		}
		require.NoError(t, a.Close(), fsName)
	}
}

// ioCount counts the reads and seeks of the files opened from it, which
// can seek when the FS's files can.
type ioCount struct {
	fs.FS
	calls int
}

func (c *ioCount) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return &ioCountFile{File: f, c: c}, nil
}

func (c *ioCount) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

type ioCountFile struct {
	fs.File
	c *ioCount
}

func (f *ioCountFile) Read(p []byte) (int, error) {
	f.c.calls++
	return f.File.Read(p)
}

func (f *ioCountFile) Seek(off int64, whence int) (int64, error) {
	f.c.calls++
	return f.File.(io.Seeker).Seek(off, whence)
}

func TestCutInner(t *testing.T) {
	cases := []struct {
		inner, member, sel string
		reason             string
	}{
		{"src/f.ts", "src/f.ts", "", "no colon"},
		{"src/f.ts:50-60", "src/f.ts", "50-60", "range"},
		{"src/f.ts:raw", "src/f.ts", "raw", "raw"},
		{"src/f.ts:5-9:raw", "src/f.ts", "5-9:raw", "compound"},
		{"src/f.ts:0", "src/f.ts", "0", "well-formed but invalid: still a selector, for its error"},
		{"src/f.ts:", "src/f.ts", "", "trailing colon"},
		{"a:b.txt", "a:b.txt", "", "a colon in the name"},
		{"a:b.txt:5", "a:b.txt", "5", "a colon in the name, then a selector"},
		{"f.ts:bogus", "f.ts:bogus", "", "not a selector: part of the name"},
		{"n:1-2", "n", "1-2", "a name ending in a selector is read with it"},
		{"data.db:users:5", "data.db", "users:5", "database: its first ':'"},
		{"data.db?q=1:2", "data.db", "?q=1:2", "database: its '?'"},
		{"x?y:3", "x?y", "3", "'?' after a name that is not a database"},
		{"notes?.txt", "notes?.txt", "", "'?' in a non-database name stays"},
		{"data.db:users?limit=5", "data.db", "users?limit=5", "database member with a table"},
		{"data.db?q=SELECT 'a:b'", "data.db", "?q=SELECT 'a:b'", "database member with a query holding ':'"},
		{"", "", "", "root"},
	}
	for _, c := range cases {
		m, s := cutInner(c.inner)
		assert.Equal(t, [2]string{c.member, c.sel}, [2]string{m, s}, "%q: %s", c.inner, c.reason)
	}
}

// TestLookupColons: a member whose name holds a ':' is found whole, with or
// without a selector after it, and a mistyped selector after a member that
// exists is reported as one, in every format and on both file systems.
func TestLookupColons(t *testing.T) {
	members := []testfs.Member{
		{Name: "a:b.txt", Body: "colon\n"},
		{Name: "dir/c:d:e.txt", Body: "one\ntwo\n"},
		{Name: "f.txt", Body: "f\n"},
		{Name: "n:1-2", Body: "n\n"},
		{Name: "m", Body: "m\n"},
		{Name: "m:1", Body: "m:1\n"},
	}
	for _, name := range formats {
		for fsName, fsys := range fileSystems(t, map[string][]byte{name: build(t, name, members)}) {
			what := name + " on " + fsName
			lookup := func(inner string) (*Item, error) {
				a, err := Open(context.Background(), fsys, name, Limits{})
				require.NoError(t, err, what)
				t.Cleanup(func() { a.Close() })
				it, err := a.Lookup(context.Background(), inner)
				if err == nil {
					t.Cleanup(func() { it.Close() })
				}
				return it, err
			}
			for _, c := range []struct{ inner, path, sel, text string }{
				{"a:b.txt", "a:b.txt", "", "colon\n"},
				{"dir/c:d:e.txt", "dir/c:d:e.txt", "", "one\ntwo\n"},
				{"dir/c:d:e.txt:2", "dir/c:d:e.txt", "2", "one\ntwo\n"},
				{"f.txt:1-5", "f.txt", "1-5", "f\n"},
				{"n:1-2", "n:1-2", "", "n\n"},    // no member "n": the whole name
				{"n:1-2:1", "n:1-2", "1", "n\n"}, // a selector after it
				{"m:1", "m", "1", "m\n"},         // "m" exists: the selector applies to it
				{"m:1:1-", "m:1", "1-", "m:1\n"}, // ... and "m:1" is named with one after it
			} {
				it, err := lookup(c.inner)
				require.NoError(t, err, "%s %q", what, c.inner)
				text, err := it.Text(0)
				require.NoError(t, err)
				assert.Equal(t, [3]string{c.path, c.sel, c.text}, [3]string{it.Path, it.Selector, text}, "%s %q", what, c.inner)
			}
			for _, c := range []struct {
				inner string
				code  errs.Code
				msg   string
			}{
				{"f.txt:bogus", errs.InvalidParam, "Invalid selector ':bogus' after '" + name + ":f.txt'"},
				{"dir:bogus", errs.InvalidParam, "Invalid selector ':bogus' after '" + name + ":dir'"},
				{"a:nope.txt", errs.NotFound, "Path 'a:nope.txt' not found"},
				{"nope.txt:bogus", errs.NotFound, "Path 'nope.txt:bogus' not found"},
			} {
				_, err := lookup(c.inner)
				require.Error(t, err, "%s %q", what, c.inner)
				assert.Equal(t, c.code, errs.CodeOf(err), "%s %q: %v", what, c.inner, err)
				assert.Contains(t, err.Error(), c.msg, "%s %q", what, c.inner)
			}
		}
	}
}
