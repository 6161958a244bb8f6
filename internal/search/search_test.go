package search

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/hashline"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func lines(spec string) []grep.Line {
	// spec: "1m 2c 3m": line numbers with m (match) or c (context).
	var out []grep.Line
	for _, f := range strings.Fields(spec) {
		var n int
		fmt.Sscanf(f[:len(f)-1], "%d", &n)
		out = append(out, grep.Line{Number: n, Match: f[len(f)-1] == 'm'})
	}
	return out
}

func spec(ls []grep.Line) string {
	var parts []string
	for _, l := range ls {
		k := "c"
		if l.Match {
			k = "m"
		}
		parts = append(parts, fmt.Sprint(l.Number, k))
	}
	return strings.Join(parts, " ")
}

func TestCutLines(t *testing.T) {
	tests := []struct {
		in     string
		n      int
		after  int
		want   string
		reason string
	}{
		{"1m 2c 3m 4c", 1, 1, "1m 2c", "the second match and what follows go"},
		{"1m 2c 3c 4m", 1, 1, "1m 2c", "context of the cut match that is beyond the kept match's after-context goes"},
		{"1m 2c 3m", 2, 1, "1m 2c 3m", "keeping every match keeps everything"},
		{"1c 2m 3c 9c 10m", 1, 1, "1c 2m 3c", "the before-context of a cut match goes"},
		{"1m 2m", 0, 3, "", "keeping none keeps nothing"},
	}
	for _, tt := range tests {
		if got := spec(cutLines(lines(tt.in), tt.n, tt.after)); got != tt.want {
			t.Errorf("cutLines(%q, %d): got %q, want %q (%s)", tt.in, tt.n, got, tt.want, tt.reason)
		}
	}
}

func TestRoundRobin(t *testing.T) {
	mk := func(n int) Hit {
		var ls []grep.Line
		for i := 1; i <= n; i++ {
			ls = append(ls, grep.Line{Number: i, Match: true, Matches: i})
		}
		return Hit{FileResult: &grep.FileResult{Lines: ls, MatchLines: n, Matches: n * (n + 1) / 2}}
	}
	tests := []struct {
		counts []int
		budget int
		want   string
		reason string
	}{
		{[]int{10, 1, 1}, 5, "3 1 1", "the hot file gets what the others leave"},
		{[]int{4, 4, 4}, 7, "3 2 2", "lines are dealt one per file in turn, in file order"},
		{[]int{2, 2}, 10, "2 2", "under the budget nothing is cut"},
	}
	for _, tt := range tests {
		var hits []Hit
		for _, c := range tt.counts {
			hits = append(hits, mk(c))
		}
		roundRobin(hits, tt.budget, 0)
		var got []string
		for _, h := range hits {
			got = append(got, fmt.Sprint(len(h.Lines)))
			if k := len(h.Lines); h.MatchLines != k || h.Matches != k*(k+1)/2 {
				t.Errorf("MatchLines %d, Matches %d do not follow the cut lines %d", h.MatchLines, h.Matches, k)
			}
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("roundRobin(%v, %d): got %s, want %s (%s)", tt.counts, tt.budget, g, tt.want, tt.reason)
		}
	}
}

func TestTypeFilter(t *testing.T) {
	tests := []struct {
		types  []string
		path   string
		want   bool
		reason string
	}{
		{[]string{"go"}, "a/b.go", true, "extension"},
		{[]string{"go"}, "a/b.gox", false, "a longer extension is another type"},
		{[]string{"py"}, "x.pyi", true, "several extensions per type"},
		{[]string{"make"}, "sub/Makefile", true, "exact base names"},
		{[]string{"ts", "md"}, "README.md", true, "a union of types"},
		{[]string{"json"}, ".eslintrc.json", true, "a dot file's extension"},
		{[]string{"Python"}, "a.py", true, "a go-enry language name"},
		{[]string{"javascript"}, "a.js", true, "a go-enry alias, any case"},
		{[]string{"Dockerfile"}, "Dockerfile", true, "go-enry file names"},
		{[]string{"c"}, "a.cpp", false, "c is not cpp"},
	}
	for _, tt := range tests {
		f, err := CompileTypes(tt.types)
		if err != nil {
			t.Fatalf("%v: %v", tt.types, err)
		}
		if got := f.Match(tt.path); got != tt.want {
			t.Errorf("types %v on %s: got %v, want %v (%s)", tt.types, tt.path, got, tt.want, tt.reason)
		}
	}
	if _, err := CompileTypes([]string{"nope-lang"}); err == nil || !strings.Contains(err.Error(), "go, html") {
		t.Errorf("an unknown type lists the common names, got %v", err)
	}
	if f, err := CompileTypes(nil); f != nil || err != nil || !f.Match("x") {
		t.Errorf("no types: a nil filter that matches everything")
	}
}

func TestGlobFilter(t *testing.T) {
	tests := []struct {
		globs  []string
		path   string
		want   bool
		reason string
	}{
		{[]string{"*.go"}, "a/b/c.go", true, "a base-name glob matches at any depth"},
		{[]string{"src/*.go"}, "src/a.go", true, "a glob with '/' matches the whole path"},
		{[]string{"src/*.go"}, "lib/src/a.go", false, "... from the root only"},
		{[]string{"*.{ts,tsx}"}, "x.tsx", true, "brace alternatives"},
		{[]string{"*.go", "!*_test.go"}, "a_test.go", false, "'!' excludes"},
		{[]string{"!*_test.go"}, "a.go", true, "only excludes: everything else passes"},
		{[]string{" ", ""}, "a.go", true, "blank globs are ignored"},
		{[]string{"!build"}, "build/x.txt", false, "an excluded directory leaves out what it holds"},
		{[]string{"!node_modules"}, "a/node_modules/b/c.js", false, "... at any depth"},
		{[]string{"!src/gen"}, "src/gen/a.go", false, "... by its path"},
		{[]string{"!src/gen"}, "lib/src/gen/a.go", true, "... from the root only"},
		{[]string{"*.go", "!vendor/"}, "vendor/a.go", false, "... with a trailing '/'"},
		{[]string{"!vendor/"}, "vendor", true, "a trailing '/' matches directories only"},
		{[]string{"!build"}, "build", false, "a file of the name is excluded too"},
		{[]string{"!build"}, "rebuild/x.txt", true, "a directory matches whole names only"},
	}
	for _, tt := range tests {
		f, err := CompileGlobs(tt.globs)
		if err != nil {
			t.Fatalf("%v: %v", tt.globs, err)
		}
		if got := f.Match(tt.path); got != tt.want {
			t.Errorf("globs %v on %s: got %v, want %v (%s)", tt.globs, tt.path, got, tt.want, tt.reason)
		}
	}
	if _, err := CompileGlobs([]string{"[a"}); err == nil {
		t.Error("a malformed glob is an error")
	}
}

// TestBudgetStopsEarly checks that a paged search stops reading once the
// page and the budget are settled, instead of searching the whole tree.
func TestBudgetStopsEarly(t *testing.T) {
	tree := fstest.MapFS{}
	for i := range 2000 {
		tree[fmt.Sprintf("d/f%04d.txt", i)] = &fstest.MapFile{Data: []byte(strings.Repeat("hit\n", 50))}
	}
	out, err := Run(context.Background(), tree, "", Request{
		Grep: grep.Options{Pattern: "hit"}, PerFile: 20, PerFileOne: 200, MaxFileSize: -1, MaxFiles: 20, Budget: 2000, Workers: 4,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != 20 || out.Truncated != TruncBudget || out.NextSkip != 20 {
		t.Errorf("page of 20, budget reached: got %d files, %q, next %d", len(out.Files), out.Truncated, out.NextSkip)
	}
	// 20 lines a file: the budget of 2000 is spent after 100 files, and
	// the 101st proves more exist.
	if out.Searched != 101 {
		t.Errorf("searched %d files of 2000: the scan did not stop at the budget", out.Searched)
	}
}

// TestHugeLine searches a 64 MiB file that is one line: it must finish,
// report the line cut to the column limit, and not hold the line's matches
// beyond the per-file cap.
func TestHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 64 MiB")
	}
	dir := t.TempDir()
	big := bytes.Repeat([]byte("abcdefgh"), 8<<20)
	copy(big[len(big)-10:], "NEEDLE")
	if err := os.WriteFile(filepath.Join(dir, "one.txt"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, release, err := fsx.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	start := time.Now()
	out, err := Run(context.Background(), fsys, dir, Request{
		Grep: grep.Options{Pattern: "NEEDLE", MaxColumns: 512}, MaxFileSize: -1, MaxFiles: 20, Budget: 2000,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != 1 || out.Files[0].MatchLines != 1 || !out.Files[0].Lines[0].Cut || len(out.Files[0].Lines[0].Text) > 512 {
		t.Errorf("one cut matching line expected, got %+v", out.Files)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestPathOrder checks that the streamed sorted walk gives byte-wise path
// order on random trees full of names that sort differently as path
// components ("a" and "a.go", "a-b", "a!"), at every depth.
func TestPathOrder(t *testing.T) {
	for seed := range 20 {
		tree := fstest.MapFS{}
		for _, p := range testfs.PathOrderTree(int64(seed), 4) {
			tree[p] = &fstest.MapFile{Data: []byte("x\n")}
		}
		var want []string
		for p := range tree {
			want = append(want, p)
		}
		sort.Strings(want)
		for _, tr := range openTrees(t, tree) {
			out, err := Run(context.Background(), tr.FS, "", Request{Grep: grep.Options{Pattern: "x"}, MaxFileSize: -1, MaxFiles: 1 << 20, Budget: -1, Workers: 3})
			require.NoError(t, err)
			var got []string
			for _, h := range out.Files {
				got = append(got, h.Path)
			}
			require.Equal(t, want, got, "%s seed %d: files not in byte-wise path order", tr.Name, seed)
		}
	}
}

// TestRunTagsFromSearch: Run tags its page's files as the workers search
// them, so that each is opened and read once, whether the walk streams
// (one directory), is listed first (several paths) or overlaps the search
// (no page, no budget). A page after the first may find its first files
// searched before the page began (untagged then): they are read again
// for their tag, which is the same. Over a MapFS and a temp dir.
func TestRunTagsFromSearch(t *testing.T) {
	tree := fstest.MapFS{}
	for i := range 40 {
		tree[fmt.Sprintf("d%d/f%02d.txt", i%2, i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("hit %d  \r\nother\t\nhit\n", i))}
	}
	cases := []struct {
		name            string
		paths           []string
		skip, max, budg int
		page            int  // the files of the page
		once            bool // each page file opened once
	}{
		{name: "first page", skip: 0, max: 5, budg: 2000, page: 5, once: true},
		{name: "budget", skip: 0, max: 30, budg: 20, page: 10, once: true},
		{name: "several paths", paths: []string{"d1", "d0"}, skip: 0, max: 5, budg: 2000, page: 5, once: true},
		{name: "no page, no budget", skip: 0, max: -1, budg: -1, page: 40, once: true},
		{name: "second page", skip: 5, max: 5, budg: 2000, page: 5},
		{name: "last page", skip: 38, max: 5, budg: 2000, page: 2},
	}
	for _, dir := range []bool{false, true} {
		fsys := fs.FS(tree)
		if dir {
			fsys = os.DirFS(testfs.WriteDir(t, tree))
		}
		for _, c := range cases {
			what := fmt.Sprintf("%s, dir %v", c.name, dir)
			cf := &countFS{FS: fsys, opens: map[string]int{}, read: map[string]int{}}
			out, err := Run(context.Background(), cf, "", Request{
				Paths: c.paths, Grep: grep.Options{Pattern: "hit"}, PerFile: 20, PerFileOne: 20, MaxFileSize: -1,
				Skip: c.skip, MaxFiles: c.max, Budget: c.budg, Tags: true, Workers: 3,
			})
			require.NoError(t, err, what)
			require.Len(t, out.Files, c.page, what)
			for _, h := range out.Files {
				require.Equal(t, hashline.Tag(tree[h.Path].Data), h.Tag, "%s: %s", what, h.Path)
				if c.once {
					require.Equal(t, 1, cf.opens[h.Path], "%s: %s opened again", what, h.Path)
					require.Equal(t, len(tree[h.Path].Data), cf.read[h.Path], "%s: %s read again", what, h.Path)
				}
			}
		}
	}
}

// TestPrepareCompilesOnce: prepare compiles the pattern once (a long
// pattern's compilation is most of a one-file search's cost), and the
// matcher it keeps has the per-file cap and no line ranges, as a
// compilation with them would.
func TestPrepareCompilesOnce(t *testing.T) {
	tree := fstest.MapFS{"f.txt": &fstest.MapFile{Data: []byte("ab\n")}}
	o := grep.Options{Pattern: strings.Repeat("(?:ab|ba|aa)", 300) + "x", LineRanges: [][2]int{{2, 5}}}
	compile := testing.AllocsPerRun(5, func() {
		if _, err := grep.Compile(o); err != nil {
			t.Fatal(err)
		}
	})
	var p *prepared
	allocs := testing.AllocsPerRun(5, func() {
		var err error
		req := Request{Grep: o, Paths: []string{"f.txt"}, PerFile: 3, PerFileOne: 7, MaxFileSize: -1}
		if p, err = prepare(context.Background(), tree, "", &req); err != nil {
			t.Fatal(err)
		}
	})
	require.Less(t, allocs, 1.5*compile, "prepare allocated %.0f times, one compilation %.0f", allocs, compile)
	want, err := grep.Compile(grep.Options{Pattern: o.Pattern, MaxMatchesPerFile: 7})
	require.NoError(t, err)
	text := []byte(strings.Repeat(strings.Repeat("ab", 300)+"x\n", 10))
	res, err := p.matcher.NewScanner().SearchBytes(context.Background(), text)
	require.NoError(t, err)
	wres, err := want.NewScanner().SearchBytes(context.Background(), text)
	require.NoError(t, err)
	require.Equal(t, wres, res)
	require.Len(t, res.Lines, 7)
}

// TestAllocsPerMiss: a search allocates little for each file that does not
// match (on the OS nothing: its path is part of its directory's, its open
// file goes into the worker's fsx.Slot), not a result or the state of a
// tag it does not compute: the memory of a search of a large tree is
// fresh pages, a fault each.
func TestAllocsPerMiss(t *testing.T) {
	tree := func(n int) fstest.MapFS {
		m := fstest.MapFS{}
		for i := range n {
			m[fmt.Sprintf("d%d/f%03d.txt", i%4, i)] = &fstest.MapFile{Data: []byte("nothing here\nor here\n")}
		}
		return m
	}
	for _, tags := range []bool{false, true} {
		perRun := map[string][2]float64{}
		for i, n := range []int{100, 300} {
			for _, tr := range openTrees(t, tree(n)) {
				req := Request{Paths: []string{"."}, Grep: grep.Options{Pattern: "needle"}, PerFile: 20, PerFileOne: 20,
					MaxFileSize: -1, MaxFiles: -1, Budget: -1, Tags: tags, Workers: 1}
				a := perRun[tr.Name]
				a[i] = testfs.LeastAllocs(allocTries, func() {
					out, err := Run(context.Background(), tr.FS, "", req)
					if err != nil || out.Searched != n {
						t.Fatalf("%s: searched %v of %d, %v", tr.Name, out, n, err)
					}
				})
				perRun[tr.Name] = a
			}
		}
		// At most: with tags the tag's state; fstest.MapFS allocates four
		// to list and open a file.
		most := map[string]float64{"dir": 0.5, "mapfs": 4.5}
		for name, a := range perRun {
			per, max := (a[1]-a[0])/200, most[name]
			if tags {
				max += 2
			}
			assert.LessOrEqual(t, per, max, "%s, tags %v: allocations a file that does not match", name, tags)
		}
	}
}

// TestAllocsPerHit: a search that counts the matches of many files
// allocates for each matching file nothing but its share of the page (the
// result is kept by value in the worker's hits, which grow by chunks) on
// the OS, where a file's listing and open allocate none either.
func TestAllocsPerHit(t *testing.T) {
	tree := func(n int) fstest.MapFS {
		m := fstest.MapFS{}
		for i := range n {
			m[fmt.Sprintf("d%d/f%03d.txt", i%4, i)] = &fstest.MapFile{Data: []byte("a needle\nnone\n")}
		}
		return m
	}
	var a [2]float64
	for i, n := range []int{100, 400} {
		for _, tr := range openTrees(t, tree(n)) {
			if tr.Name != "dir" {
				continue
			}
			req := Request{Paths: []string{"."}, Grep: grep.Options{Pattern: "needle", CountOnly: true}, PerFile: 20, PerFileOne: 20,
				MaxFileSize: -1, MaxFiles: -1, Budget: -1, Workers: 1}
			a[i] = testfs.LeastAllocs(allocTries, func() {
				out, err := Run(context.Background(), tr.FS, "", req)
				if err != nil || len(out.Files) != n {
					t.Fatalf("%d files of %d, %v", len(out.Files), n, err)
				}
			})
		}
	}
	// The least of a few searches each (under the race detector, whose
	// random sync.Pool drops moved an average of three by some tens, and
	// CI's measure to 0.113); one allocation a file would add 300.
	assert.LessOrEqual(t, (a[1]-a[0])/300, 0.1, "allocations a matching file (%v for 100 and 400 files)", a)
}

// TestExhaustivePageMadeOnce: a search that pages every matching file
// makes its page's slice once, at its size, instead of growing it twofold
// (which touches twice the memory, a page fault per 4 KiB of it), and in
// path order.
func TestExhaustivePageMadeOnce(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 300 {
		m[fmt.Sprintf("d%d/f%03d.txt", i%7, i)] = &fstest.MapFile{Data: []byte("a needle\n")}
	}
	for _, tr := range openTrees(t, m) {
		out, err := Run(context.Background(), tr.FS, "", Request{Paths: []string{"."}, Grep: grep.Options{Pattern: "needle", CountOnly: true},
			PerFile: 20, PerFileOne: 20, MaxFileSize: -1, MaxFiles: -1, Budget: -1})
		require.NoError(t, err, tr.Name)
		require.Len(t, out.Files, 300, tr.Name)
		assert.LessOrEqual(t, cap(out.Files), len(out.Files)*9/8, "%s: the page's slice grew (only a size class may round it up)", tr.Name)
		assert.True(t, slices.IsSortedFunc(out.Files, func(a, b Hit) int { return strings.Compare(a.Path, b.Path) }), tr.Name)
	}
}
