package walk

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestIgnoreFileBounds walks trees whose .gitignore is at or past the
// bounds of an ignore file: past them it is refused whole, its rules do
// not apply, and Stats.Errors says why; at them it applies. A file of a
// million rules took 600 MB and 22 s for 50 files, and one line of 100 MB
// ran out of memory.
func TestIgnoreFileBounds(t *testing.T) {
	rules := func(n int) string {
		var b strings.Builder
		for i := range n - 1 {
			fmt.Fprintf(&b, "pat%d/*.log\n", i)
		}
		b.WriteString("*.log\n")
		return b.String()
	}
	long := strings.Repeat("a", maxIgnoreLine)
	tests := []struct {
		name, gitignore string
		err             string // in the recorded error; "" when the file applies
	}{
		{"10,000 rules apply", rules(maxIgnoreRules), ""},
		{"10,001 rules are refused", rules(maxIgnoreRules + 1), "more than 10000 rules"},
		{"a rule of 4096 bytes applies", long + "\n*.log\n", ""},
		{"a rule of 4097 bytes is refused", long + "b\n*.log\n", "line 1 is longer than 4096 bytes"},
		{"a comment of any length applies", "#" + strings.Repeat("c", 1<<19) + "\n*.log\n", ""},
		{"a file over 1 MiB is refused", "*.log\n#" + strings.Repeat("c", 1<<20), "file too large"},
	}
	for _, tt := range tests {
		tr := tree{".git/HEAD": "ref: refs/heads/main\n", ".gitignore": tt.gitignore, "a.go": "x", "b.log": "x"}
		for fsName, fsys := range tr.both(t) {
			var got []string
			var st Stats
			grew := testfs.HeapPeak(func() { got, st = collect(t, fsys, ".", Options{Hidden: true}) })
			if grew > 64<<20 {
				t.Errorf("%s, %s: the heap grew by %d MiB", tt.name, fsName, grew>>20)
			}
			applied := !slices.Contains(got, "b.log")
			if applied != (tt.err == "") {
				t.Errorf("%s, %s: got %q; the rules applied: %v", tt.name, fsName, got, applied)
			}
			var msgs []string
			for _, err := range st.Errors {
				msgs = append(msgs, err.Error())
			}
			if tt.err != "" && (len(st.Errors) != 1 || !errors.Is(st.Errors[0], fsx.ErrTooLarge) || !strings.Contains(msgs[0], tt.err) || !strings.Contains(msgs[0], ".gitignore")) {
				t.Errorf("%s, %s: errors %q, want one naming .gitignore and %q", tt.name, fsName, msgs, tt.err)
			}
			if tt.err == "" && len(st.Errors) != 0 {
				t.Errorf("%s, %s: errors %q", tt.name, fsName, msgs)
			}
		}
	}
}

// deepFS is a tree of Depth directories "d", one in another, the last
// holding f.txt, made up as it is read: an fstest.MapFS lists a directory
// by scanning every path it holds, which at 10,000 levels takes seconds.
type deepFS struct{ Depth int }

func (d deepFS) level(name string) (int, bool) {
	if name == "." {
		return 0, true
	}
	k := strings.Count(name, "/") + 1
	return k, name == strings.TrimSuffix(strings.Repeat("d/", k), "/") && k <= d.Depth
}

func (d deepFS) Open(name string) (fs.File, error) {
	if _, ok := d.level(name); ok {
		return fstest.MapFS{".": {Mode: fs.ModeDir | 0o755}}.Open(".")
	}
	if k, ok := d.level(path.Dir(name)); ok && k == d.Depth && path.Base(name) == "f.txt" {
		return fstest.MapFS{"f.txt": {Data: []byte("x")}}.Open("f.txt")
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (d deepFS) ReadDir(name string) ([]fs.DirEntry, error) {
	k, ok := d.level(name)
	switch {
	case !ok:
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	case k == d.Depth:
		return fs.ReadDir(fstest.MapFS{"f.txt": {Data: []byte("x")}}, ".")
	}
	return fs.ReadDir(fstest.MapFS{"d": {Mode: fs.ModeDir | 0o755}}, ".")
}

// TestWalkTenThousandLevels walks a tree 10,000 directories deep: every
// level is reported, in order when sorted (TestWalkPastPathMaxOS walks a
// deep one on the OS).
func TestWalkTenThousandLevels(t *testing.T) {
	const depth = 10_000
	deep := strings.Repeat("d/", depth) + "f.txt"
	for _, sorted := range []bool{false, true} {
		got, st := collect(t, deepFS{depth}, ".", Options{Sorted: sorted})
		if len(got) != depth+1 || got[depth] != deep || st.Skipped[ReasonUnreadable] != 0 || st.Visited != depth+1 {
			t.Errorf("sorted=%v: %d entries, %+v; want all %d", sorted, len(got), st, depth+1)
		}
	}
}
