package dirtree

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/testfs"
)

var now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func file(data string, age time.Duration) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte(data), Mode: 0o644, ModTime: now.Add(-age)}
}

func dir(age time.Duration) *fstest.MapFile {
	return &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: now.Add(-age)}
}

func TestRender(t *testing.T) {
	m := fstest.MapFS{
		"src":             dir(2 * time.Hour),
		"src/main.go":     file(strings.Repeat("x", 1300), 2*time.Hour),
		"src/deep":        dir(3 * time.Hour),
		"src/deep/x.go":   file("x", time.Hour),
		"README.md":       file(strings.Repeat("r", 512), 10*time.Second),
		".hidden":         file("h", 3*24*time.Hour),
		"node_modules":    dir(time.Minute),
		"node_modules/a":  file("a", time.Minute),
		".DS_Store":       file("", time.Minute),
		"empty":           dir(90 * 24 * time.Hour),
		"old.txt":         file("o", 400*24*time.Hour),
		"src/old.go":      file("o", 15*24*time.Hour),
		"src/minutes.txt": file("m", 5*time.Minute),
	}
	want := `.
  - README.md      512B      just now
  - src/                     2h ago
    - minutes.txt  1B        5m ago
    - main.go      1.3KB     2h ago
    - deep/                  3h ago
    - old.go       1B        2w ago
  - .hidden        1B        3d ago
  - empty/                   3mo ago
  - old.txt        1B        13mo ago`
	for _, mode := range []string{"mapfs", "dir"} {
		var fsys fs.FS = m
		if mode == "dir" {
			fsys = osFS(t, m)
		}
		tr, err := Build(context.Background(), fsys, ".", []string{"node_modules"}, 0, 0, now)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(Render(tr, now), "\n")
		if got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", mode, got, want)
		}
		assert.Equal(t, []string{".DS_Store", "node_modules/"}, tr.Pruned, "%s: .DS_Store and node_modules are recorded as pruned", mode)
	}
}

// TestPrune checks that a listing leaves out .git and the directories
// named, at both depths, and records them; a file of a pruned name is
// listed.
func TestPrune(t *testing.T) {
	m := fstest.MapFS{
		".git/HEAD":       file("h", time.Hour),
		"build/out.txt":   file("o", time.Hour),
		"src/build/x.o":   file("x", time.Hour),
		"src/.git/HEAD":   file("h", time.Hour),
		"src/a.go":        file("a", time.Hour),
		"dist":            file("a file named dist", time.Hour),
		"node_modules/ok": file("k", time.Hour),
	}
	tests := []struct {
		name   string
		prune  []string
		pruned []string
	}{
		{"nil prunes .git only", nil, []string{".git/", "src/.git/"}},
		{".git named again", []string{".git"}, []string{".git/", "src/.git/"}},
		{"named dirs at both depths", []string{"build", "dist", "node_modules"},
			[]string{".git/", "build/", "node_modules/", "src/.git/", "src/build/"}},
	}
	for _, tt := range tests {
		for _, mode := range []string{"mapfs", "dir"} {
			var fsys fs.FS = m
			if mode == "dir" {
				fsys = osFS(t, m)
			}
			tr, err := Build(context.Background(), fsys, ".", tt.prune, 0, 0, now)
			require.NoError(t, err, "%s, %s", tt.name, mode)
			assert.Equal(t, tt.pruned, tr.Pruned, "%s, %s", tt.name, mode)
			var listed []string
			for _, e := range tr.Entries {
				listed = append(listed, e.Path)
			}
			for _, p := range tt.pruned {
				assert.NotContains(t, listed, strings.TrimSuffix(p, "/"), "%s, %s", tt.name, mode)
			}
			assert.Contains(t, listed, "dist", "%s, %s: a file named like a pruned directory is listed", tt.name, mode)
			assert.Contains(t, listed, "src/a.go", "%s, %s", tt.name, mode)
		}
	}
}

func TestCap(t *testing.T) {
	m := fstest.MapFS{"d": dir(time.Hour)}
	for i := range 15 {
		m[fmt.Sprintf("d/f%02d", i)] = file("x", time.Duration(i+1)*time.Hour)
	}
	for i := range 15 {
		m[fmt.Sprintf("r%02d", i)] = file("x", time.Duration(i+2)*time.Hour)
	}
	tr, err := Build(context.Background(), m, ".", nil, 0, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	lines := Render(tr, now)
	// root: d + 15 files, uncapped; d: 11 newest, "… 3 more", the oldest.
	if len(lines) != 1+16+13 {
		t.Fatalf("got %d lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	if lines[13] != "    - … 3 more" || !strings.HasPrefix(lines[14], "    - f14") {
		t.Errorf("cap rows wrong:\n%s", strings.Join(lines, "\n"))
	}
	if tr.Omitted != 3 {
		t.Errorf("omitted %d, want 3", tr.Omitted)
	}
}

func TestEmptyAndMissing(t *testing.T) {
	m := fstest.MapFS{"e": dir(time.Hour)}
	tr, err := Build(context.Background(), m, "e", nil, 0, 0, now)
	if err != nil {
		t.Fatal(err)
	}
	if got := Render(tr, now); len(got) != 1 || got[0] != "(empty directory)" {
		t.Errorf("empty dir renders %q", got)
	}
	if _, err := Build(context.Background(), m, "nope", nil, 0, 0, now); err == nil {
		t.Error("missing dir: want an error")
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		got, want, reason string
	}{
		{FormatBytes(0), "0B", "zero"},
		{FormatBytes(512), "512B", "bytes under 1KB"},
		{FormatBytes(1023), "1023B", "the last byte count"},
		{FormatBytes(1024), "1.0KB", "the first kilobyte"},
		{FormatBytes(3565158), "3.4MB", "rounded to one decimal"},
		{FormatBytes(1229), "1.2KB", "one decimal"},
		{FormatBytes(3 << 20), "3.0MB", "megabytes"},
		{FormatBytes(1 << 30), "1.0GB", "gigabytes"},
		{FormatAge(now, now), "just now", "an age of 0 keeps its column (pi drops size and age; we do not)"},
		{FormatAge(now.Add(time.Hour), now), "just now", "a future time"},
		{FormatAge(time.Time{}, now), "", "unknown time"},
		{FormatAge(now.Add(-8*24*time.Hour), now), "1w ago", "weeks"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q (%s)", tt.got, tt.want, tt.reason)
		}
	}
}

func osFS(t *testing.T, m fstest.MapFS) fs.FS {
	return osDirFS(testfs.WriteDir(t, m))
}

// manyFS is a root whose directory big holds n files, listed through
// fsx.DirOpener as the OS file system lists directories: file i is i
// minutes old, and its name lists its number backwards so that the order of
// names is not the order of ages. Its other directories are those of the
// MapFS.
type manyFS struct {
	fstest.MapFS
	big string
	n   int
}

func (m manyFS) OpenDirFD(name string) (fsx.DirFD, error) {
	if name == m.big {
		return manyDir(m), nil
	}
	if _, err := fs.ReadDir(m.MapFS, name); err != nil {
		return nil, err
	}
	return mapDir{m.MapFS, name}, nil
}

type manyDir manyFS

func manyName(i int) string {
	b := []byte(fmt.Sprintf("f%07d", i))
	slices.Reverse(b[1:])
	return string(b)
}

func (d manyDir) ReadEntries(fn func(string, fs.FileMode)) error {
	for i := range d.n {
		fn(manyName(i), 0)
	}
	return nil
}

func (d manyDir) Lstat(name string) (fs.FileInfo, error) {
	b := []byte(name[1:])
	slices.Reverse(b)
	i, err := strconv.Atoi(string(b))
	if err != nil {
		return nil, err
	}
	return fstest.MapFS{name: file("", time.Duration(i)*time.Minute)}.Stat(name)
}

func (d manyDir) ReadNames(fn func([]byte, fs.FileMode)) error { return namesOf(d, fn) }

func (manyDir) OpenRegular(string, *fsx.Slot) (fsx.Regular, error) { return nil, fs.ErrInvalid }
func (manyDir) Close() error                                       { return nil }

// mapDir is a directory of a MapFS as an fsx.DirFD.
type mapDir struct {
	m   fstest.MapFS
	dir string
}

func (d mapDir) ReadEntries(fn func(string, fs.FileMode)) error {
	des, err := fs.ReadDir(d.m, d.dir)
	for _, de := range des {
		fn(de.Name(), de.Type())
	}
	return err
}

func (d mapDir) ReadNames(fn func([]byte, fs.FileMode)) error { return namesOf(d, fn) }

// namesOf is ReadNames by d's ReadEntries.
func namesOf(d fsx.DirFD, fn func([]byte, fs.FileMode)) error {
	return d.ReadEntries(func(name string, typ fs.FileMode) { fn([]byte(name), typ) })
}

func (d mapDir) Lstat(name string) (fs.FileInfo, error)           { return d.m.Stat(path.Join(d.dir, name)) }
func (mapDir) OpenRegular(string, *fsx.Slot) (fsx.Regular, error) { return nil, fs.ErrInvalid }
func (mapDir) Close() error                                       { return nil }

// TestBigSubdirectory: a subdirectory of a million entries is listed in
// little memory, its 11 newest entries, the count of the rest and the
// oldest as from the whole listing (it was held whole, some 400 bytes an
// entry on the OS file system).
func TestBigSubdirectory(t *testing.T) {
	const n = 1_000_000
	fsys := manyFS{fstest.MapFS{"big": dir(0)}, "big", n}
	var tr *Tree
	var err error
	grew := testfs.HeapPeak(func() { tr, err = Build(context.Background(), fsys, ".", nil, 0, 0, now) })
	require.NoError(t, err)
	assert.Less(t, grew, uint64(32<<20), "the heap grew by %d MiB", grew>>20)
	var got []string
	for _, e := range tr.Entries[1:] {
		got = append(got, fmt.Sprintf("%s %d", path.Base(e.Path), e.More))
	}
	var want []string
	for i := range PerDir - 1 {
		want = append(want, manyName(i)+" 0")
	}
	want = append(want, fmt.Sprintf(". %d", n-PerDir), manyName(n-1)+" 0")
	assert.Equal(t, want, got)
	assert.Equal(t, n-PerDir, tr.Omitted)
}

// TestBigDirectory: a directory of 300,000 entries read for its first
// rows is listed in little memory (holding them all takes over 30 MiB),
// its rows those of the whole listing, and the rows left out counted.
func TestBigDirectory(t *testing.T) {
	const n, rows = 300_000, 300
	fsys := manyFS{fstest.MapFS{}, ".", n}
	var tr *Tree
	var err error
	grew := testfs.HeapPeak(func() { tr, err = Build(context.Background(), fsys, ".", nil, 0, rows, now) })
	require.NoError(t, err)
	assert.Less(t, grew, uint64(16<<20), "the heap grew by %d MiB", grew>>20)
	require.Len(t, tr.Entries, rows)
	for i, e := range tr.Entries {
		require.Equal(t, manyName(i), e.Path, "row %d", i)
		require.Equal(t, i+2, e.Line)
	}
	assert.Equal(t, n, tr.Rows)
	assert.Equal(t, len("  - f0000000"), tr.Width)
}

// TestRows: a tree built for its first rows has those rows of the whole
// tree, and the whole tree's row count, label width, omitted count and
// left-out names, over a MapFS, os.DirFS and the OS file system that
// streams directories; ties of time are ordered by name as in the whole.
func TestRows(t *testing.T) {
	m := fstest.MapFS{
		"node_modules": dir(time.Minute), ".DS_Store": file("", 0),
		"naïve café.txt": file("z", 0), "implicit/x.txt": file("x", 0), // a name of runes wider than a byte; a directory of no time on a MapFS
	}
	for i := range 20 {
		m[fmt.Sprintf("file%02d.txt", i)] = file("x", time.Duration(i%7)*time.Hour)
	}
	for i := range 6 {
		d := fmt.Sprintf("dir%d", i)
		m[d] = dir(time.Duration(i%3) * time.Hour)
		for j := range 5 * i {
			m[fmt.Sprintf("%s/%s-child-%02d", d, strings.Repeat("long", i), j)] = file("y", time.Duration(j%4)*time.Minute)
		}
		m[d+"/build"] = dir(0)
	}
	osRoot := testfs.WriteDir(t, m)
	beneath, closeFn, err := fsx.OpenDir(osRoot)
	require.NoError(t, err)
	t.Cleanup(closeFn)
	for mode, fsys := range map[string]fs.FS{"mapfs": m, "dirfs": osDirFS(osRoot), "beneath": beneath} {
		whole, err := Build(context.Background(), fsys, ".", nil, 0, 0, now)
		require.NoError(t, err, mode)
		require.Equal(t, len(whole.Entries), whole.Rows, mode)
		require.Greater(t, whole.Omitted, 0, mode)
		for _, rows := range []int{1, 2, 5, 13, 14, 40, whole.Rows, whole.Rows + 10} {
			part, err := Build(context.Background(), fsys, ".", nil, 0, rows, now)
			require.NoError(t, err, mode)
			want := *whole
			want.Entries = whole.Entries[:min(rows, len(whole.Entries))]
			assert.Equal(t, &want, part, "%s, %d rows", mode, rows)
			lines := Render(whole, now)
			assert.Equal(t, lines[:1+len(want.Entries)], Render(part, now), "%s, %d rows", mode, rows)
			assert.Equal(t, len(strings.Join(lines, "\n")), part.Bytes, "%s, %d rows", mode, rows)
		}
	}
}

// TestWindows: a tree built for the rows after the first skip has those
// rows of the whole tree, numbered by their lines, and renders as the
// whole tree's lines (without "." past the first row); a subdirectory
// whose rows were not kept as listed (maxKeptSub lowered) is listed again.
func TestWindows(t *testing.T) {
	m := fstest.MapFS{".DS_Store": file("", 0)}
	for i := range 8 {
		m[fmt.Sprintf("file%02d.txt", i)] = file("x", time.Duration(i%3)*time.Hour)
	}
	for i := range 5 {
		d := fmt.Sprintf("dir%d", i)
		m[d] = dir(time.Duration(i%4) * time.Hour)
		for j := range 7 * i {
			m[fmt.Sprintf("%s/c%02d", d, j)] = file("y", time.Duration(j%5)*time.Minute)
		}
	}
	whole, err := Build(context.Background(), m, ".", nil, 0, 0, now)
	require.NoError(t, err)
	lines := Render(whole, now)
	defer func(n int) { maxKeptSub = n }(maxKeptSub)
	for _, kept := range []int{maxKeptSub, 10, 0} {
		maxKeptSub = kept
		for _, skip := range []int{0, 1, 2, 7, 12, 13, whole.Rows - 1, whole.Rows, whole.Rows + 3} {
			for _, rows := range []int{0, 1, 3, 20} {
				what := fmt.Sprintf("keep %d, skip %d, rows %d", kept, skip, rows)
				part, err := Build(context.Background(), m, ".", nil, skip, rows, now)
				require.NoError(t, err, what)
				end := len(whole.Entries)
				if rows > 0 {
					end = min(skip+rows, end)
				}
				want := *whole
				want.Entries = whole.Entries[min(skip, end):end]
				if len(want.Entries) == 0 {
					want.Entries = nil
				}
				assert.Equal(t, &want, part, what)
				switch {
				case len(want.Entries) == 0:
					assert.Equal(t, []string{"."}, Render(part, now), what)
				case skip == 0:
					assert.Equal(t, lines[:1+end], Render(part, now), what)
				default:
					assert.Equal(t, lines[1+skip:1+end], Render(part, now), what)
				}
			}
		}
	}
}

// TestDeepWindow: a tree built for rows deep into a directory of 300,000
// entries keeps a small node per entry before them, not their rows.
func TestDeepWindow(t *testing.T) {
	const n, rows = 300_000, 300
	fsys := manyFS{fstest.MapFS{}, ".", n}
	var tr *Tree
	var err error
	grew := testfs.HeapPeak(func() { tr, err = Build(context.Background(), fsys, ".", nil, n-rows, rows, now) })
	require.NoError(t, err)
	assert.Less(t, grew, uint64(56<<20), "the heap grew by %d MiB", grew>>20)
	require.Len(t, tr.Entries, rows)
	for i, e := range tr.Entries {
		require.Equal(t, manyName(n-rows+i), e.Path, "row %d", i)
		require.Equal(t, n-rows+i+2, e.Line)
	}
}
