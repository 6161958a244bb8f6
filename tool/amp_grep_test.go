package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestAmpGrepLowerBound: a page of 10 over a tree where every line matches
// returns at once; counting total_matches stops at the budget and says so.
// With multiline and a pattern that spans lines, the budget counts results
// (runs of lines: here 100 per file).
func TestAmpGrepLowerBound(t *testing.T) {
	for _, tt := range []struct{ line, args string }{
		{"x\n", `"pattern":"x"`},
		{"x\n\n", `"pattern":"x\\n","multiline":true`},
	} {
		tree := fstest.MapFS{}
		for i := range 1200 {
			tree[fmt.Sprintf("d%02d/f%04d.txt", i%10, i)] = &fstest.MapFile{Data: []byte(strings.Repeat(tt.line, 100))}
		}
		env := Call(context.Background(), Config{FS: tree}, Amplifier, "grep", []byte(`{`+tt.args+`,"output_mode":"content","head_limit":10}`))
		if env.Status != "partial" {
			t.Fatalf("%s: status %s: %s", tt.args, env.Status, env.Text)
		}
		b, _ := json.Marshal(env.Data)
		var d struct {
			Total      int  `json:"total_matches"`
			Count      int  `json:"matches_count"`
			LowerBound bool `json:"total_is_lower_bound"`
		}
		json.Unmarshal(b, &d)
		if d.Count != 10 || !d.LowerBound || d.Total < ampTotalBudget || d.Total >= 120000 {
			t.Errorf("%s: want 10 results and a lower-bound total of at least %d, got %+v", tt.args, ampTotalBudget, d)
		}
		if !strings.Contains(env.Text, "[Showing results 1-10 of at least") {
			t.Errorf("%s: the text says the total is a lower bound: %s", tt.args, env.Text[max(0, len(env.Text)-120):])
		}
	}
}

// TestAmpGrepOffsetPastCount: with multiline, runs of two lines in one file
// are counted up to the budget of lines, so an offset past the runs counted
// finds nothing; the text says the total is a lower bound and how to go
// on, not that there are that many.
func TestAmpGrepOffsetPastCount(t *testing.T) {
	var b strings.Builder
	for i := range ampTotalBudget + 50 {
		fmt.Fprintf(&b, "ab%d\ncd\n\n", i)
	}
	tree := fstest.MapFS{"f.txt": {Data: []byte(b.String())}}
	env := Call(context.Background(), Config{FS: tree}, Amplifier, "grep", []byte(fmt.Sprintf(`{"pattern":"ab\\d+\\ncd","multiline":true,"output_mode":"content","offset":%d,"head_limit":5}`, ampTotalBudget+10)))
	require.Equal(t, scout.StatusPartial, env.Status, env.Text)
	require.Contains(t, env.Text, "No matches found at offset 100010: counting stopped at")
	require.Contains(t, env.Text, "(a lower bound) before reaching it; narrow path, glob or pattern to page further")
	require.NotContains(t, env.Text, "there are")
	// A page that ends where counting stopped offers no next offset.
	env = Call(context.Background(), Config{FS: tree}, Amplifier, "grep", []byte(fmt.Sprintf(`{"pattern":"ab\\d+\\ncd","multiline":true,"output_mode":"content","offset":%d,"head_limit":30}`, ampTotalBudget-10)))
	require.Equal(t, scout.StatusPartial, env.Status, env.Text)
	var d struct {
		Total int `json:"total_matches"`
		Count int `json:"matches_count"`
	}
	b2, _ := json.Marshal(env.Data)
	require.NoError(t, json.Unmarshal(b2, &d))
	require.Less(t, d.Count, 30, "the page ends at the count")
	require.Contains(t, env.Text, fmt.Sprintf("[Showing results %d-%d of at least %d: counting stopped there; narrow path, glob or pattern to page further]", ampTotalBudget-9, ampTotalBudget-10+d.Count, d.Total))
	require.NotContains(t, env.Text, "Use offset=")
}

// TestAmpGrepSizeCap: the host's Config.MaxFileSize is the size cap, 10 MB
// (10 MiB) when it is 0 ("File size limits ... default 10MB"); larger
// files are skipped, counted and named in the text even when something
// matched (one of them may hold a match).
func TestAmpGrepSizeCap(t *testing.T) {
	sized := func(n int) *fstest.MapFile { return &fstest.MapFile{Data: []byte("x\n" + strings.Repeat(" ", n-2))} }
	for _, tt := range []struct {
		max  int64
		tree fstest.MapFS
	}{
		{100, fstest.MapFS{"big.txt": sized(201), "small.txt": sized(100)}},
		{0, fstest.MapFS{"big.txt": sized(10<<20 + 1), "small.txt": sized(10 << 20)}},
	} {
		c := Config{FS: tt.tree}
		c.MaxFileSize = tt.max
		env := Call(context.Background(), c, Amplifier, "grep", []byte(`{"pattern":"x"}`))
		if env.Text != "small.txt\n\nNot searched: 1 too large." || env.Stats.Skipped != 1 {
			t.Errorf("cap %d: big.txt is over the cap, small.txt at it: got %q, skipped %d", tt.max, env.Text, env.Stats.Skipped)
		}
	}
}

// TestAmpGrepSymlinkOut: a path through a symlink out of the project root
// is ACCESS_DENIED with a message saying so (it passed on the OS's "stat
// out: path escapes from the root").
func TestAmpGrepSymlinkOut(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(root, "out")); err != nil {
		t.Skip("no symlinks:", err)
	}
	env := Call(context.Background(), Config{Root: root}, Amplifier, "grep", []byte(`{"pattern":"x","path":"out"}`))
	want := "Access denied: 'out' leads outside the project root through a symlink. Use a path inside the root."
	if env.Error == nil || env.Error.Code != scout.CodeAccessDenied || env.Text != want {
		t.Errorf("%s %+v %q, want ACCESS_DENIED %q", env.Status, env.Error, env.Text, want)
	}
}

// TestSearchSymlinkLoop: a path that is a symlink loop is INVALID_PARAM
// saying so, in grep and pi search as in find and read (it was an
// INTERNAL_ERROR on the OS's "too many levels of symbolic links").
func TestSearchSymlinkLoop(t *testing.T) {
	root := t.TempDir()
	if err := os.Symlink("b", filepath.Join(root, "a")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink("a", filepath.Join(root, "b")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ toolset, tool, args string }{
		{Amplifier, "grep", `{"pattern":"x","path":"a"}`},
		{Pi, "search", `{"pattern":"x","paths":["a"]}`},
	} {
		env := Call(context.Background(), Config{Root: root}, c.toolset, c.tool, []byte(c.args))
		want := "Too many levels of symlinks in 'a'."
		if env.Error == nil || env.Error.Code != scout.CodeInvalidParam || env.Text != want {
			t.Errorf("%s: %s %+v %q, want INVALID_PARAM %q", c.tool, env.Status, env.Error, env.Text, want)
		}
	}
}

// TestAmpGrepContentPages: content mode keeps a reply within ampMaxBytes
// of results, says so (truncated, and how to go on), and the pages an
// agent gets by following offset, with or without head_limit and context,
// are exactly the results of one unbounded search, in order: also when
// the offset falls deep in a file (read from its line on), in an archive
// member, or in a file that cannot be named alone; also when a result is
// a run of matching lines (multiline). A reply stays small
// whatever the files hold (two 9 MB files must not give a 152 MB reply).
func TestAmpGrepContentPages(t *testing.T) {
	var many strings.Builder
	for i := range 9000 {
		fmt.Fprintf(&many, "match %d with some words to make it longer\n", i)
		if i%3 == 0 {
			many.WriteString("context line\n")
		}
	}
	long := "match " + strings.Repeat("é", 3000) + "\n"
	tree := fstest.MapFS{
		"a/many.txt":  {Data: []byte(many.String())},
		"a/odd[1].go": {Data: []byte(many.String()[:20000])},
		"b/long.txt":  {Data: []byte(strings.Repeat(long, 3))},
		"c/pkg.zip":   {Data: testfs.Zip(testfs.Files(map[string]string{"m.txt": many.String()[:30000]})...)},
		"d/last.txt":  {Data: []byte("match at the end\n")},
		"e/notes:5":   {Data: []byte(many.String()[:20000])}, // a name that reads as a line selector
	}
	c := Config{FS: tree}
	// A multiline pattern whose matches span two lines and touch: each
	// result is a run of three lines.
	const spanning = `longer\nmatch`
	for _, tt := range []struct {
		path    string
		args    string
		before  int
		after   int
		pattern string
	}{
		{".", `"output_mode":"content"`, 0, 0, ""},
		{".", `"output_mode":"content","head_limit":1500`, 0, 0, ""},
		{".", `"output_mode":"content","-C":2`, 2, 2, ""},
		{".", `"output_mode":"content","-B":3,"head_limit":700`, 3, 0, ""},
		{"c/pkg.zip", `"output_mode":"content","-B":1,"head_limit":300`, 1, 0, ""},
		{"e/notes:5", `"output_mode":"content","-B":1,"head_limit":100`, 1, 0, ""},
		{".", `"output_mode":"content","multiline":true`, 0, 0, spanning},
		{".", `"output_mode":"content","multiline":true,"-C":2,"head_limit":500`, 2, 2, spanning},
		{"c/pkg.zip", `"output_mode":"content","multiline":true,"-B":1,"head_limit":40`, 1, 0, spanning},
		{"e/notes:5", `"output_mode":"content","multiline":true,"-B":2,"head_limit":30`, 2, 0, spanning},
	} {
		runs := tt.pattern != ""
		if !runs {
			tt.pattern = "match"
		}
		// The reference: one unbounded search over the same files.
		s := scout.Searcher{Workspace: scout.Workspace{FS: tree}}
		res, err := s.Search(context.Background(), scout.SearchRequest{Pattern: tt.pattern, Paths: []string{tt.path}, Before: tt.before, After: tt.after,
			Multiline: runs, DotAll: runs, MaxFiles: -1, MaxMatches: -1, MaxMatchesPerFile: -1, MaxColumns: ampMaxColumns})
		if err != nil {
			t.Fatal(err)
		}
		want := refResults(res.Files, 0, -1, tt.before+tt.after > 0, tt.before, tt.after, false, runs)
		var got []refResult
		offset, pages := 0, 0
		for offset < len(want) && pages < 100 {
			pages++
			env := Call(context.Background(), c, Amplifier, "grep", []byte(fmt.Sprintf(`{"pattern":%q,"path":%q,%s,"offset":%d}`, tt.pattern, tt.path, tt.args, offset)))
			b, _ := json.Marshal(env.Data)
			var d struct {
				Total     int         `json:"total_matches"`
				Count     int         `json:"matches_count"`
				Truncated bool        `json:"truncated"`
				CutAt     int         `json:"content_cut_at"`
				Results   []refResult `json:"results"`
			}
			if err := json.Unmarshal(b, &d); err != nil {
				t.Fatal(err)
			}
			results, _ := json.Marshal(d.Results)
			if d.Count == 0 || d.Count != len(d.Results) || len(results) > ampMaxBytes+2 {
				t.Fatalf("%s, offset %d: %d results (count %d) in %d bytes; want some, within %d bytes", tt.args, offset, len(d.Results), d.Count, len(results), ampMaxBytes)
			}
			if d.Truncated != strings.Contains(env.Text, "a reply holds at most 256KB of results") && !strings.Contains(env.Text, "Text shows") {
				t.Errorf("%s, offset %d: truncated %v, but the text says %q", tt.args, offset, d.Truncated, env.Text[max(0, len(env.Text)-200):])
			}
			got = append(got, d.Results...)
			offset += d.Count
		}
		require.Len(t, got, len(want), "%s: the results over %d pages", tt.args, pages)
		for i := range want {
			require.Equal(t, want[i], got[i], "%s: result %d", tt.args, i)
		}
		if pages < 3 {
			t.Errorf("%s %s: %d pages; the fixture should need several", tt.path, tt.args, pages)
		}
	}
}

// BenchmarkAmpGrepContentHuge: content mode with no head_limit over two
// 9 MB files where every line matches, with -C 3: the reply and the memory
// stay bounded by ampMaxBytes (before: a 347 MB reply, 1.8 GB resident).
func BenchmarkAmpGrepContentHuge(b *testing.B) {
	line := "match this line of text with some words\n"
	data := []byte(strings.Repeat(line, 9<<20/len(line)))
	c := Config{FS: fstest.MapFS{"a.txt": {Data: data}, "b.txt": {Data: data}}}
	args := []byte(`{"pattern":"match","output_mode":"content","-C":3}`)
	b.ReportAllocs()
	for b.Loop() {
		env := Call(context.Background(), c, Amplifier, "grep", args)
		if env.Status != scout.StatusPartial {
			b.Fatal(env.Status, env.Text)
		}
	}
}

// TestAmpGrepNewline: without multiline a pattern that spells a newline is
// an INVALID_PARAM error that says to pass multiline (ripgrep refuses it
// too); with multiline it matches across lines. A pattern over the cap is
// refused with the cap stated.
func TestAmpGrepNewline(t *testing.T) {
	tree := fstest.MapFS{"a.py": {Data: []byte("def foo():\n    return 1\n")}}
	env := Call(context.Background(), Config{FS: tree}, Amplifier, "grep", []byte(`{"pattern":"foo\\(\\):\\n\\s+return","output_mode":"content"}`))
	if env.Status != scout.StatusError || env.Error.Code != "INVALID_PARAM" || !strings.Contains(env.Error.Message, `"multiline": true`) {
		t.Errorf("without multiline: %+v %+v", env.Status, env.Error)
	}
	env = Call(context.Background(), Config{FS: tree}, Amplifier, "grep", []byte(`{"pattern":"foo\\(\\):\\n\\s+return","output_mode":"content","multiline":true}`))
	if env.Status != scout.StatusSuccess || env.Text != "a.py:1:def foo():\na.py:2:    return 1" {
		t.Errorf("with multiline: %s %q", env.Status, env.Text)
	}
	long, _ := json.Marshal(map[string]string{"pattern": strings.Repeat("x", 70_000)})
	env = Call(context.Background(), Config{FS: tree}, Amplifier, "grep", long)
	if env.Status != scout.StatusError || env.Error.Code != "INVALID_PARAM" || !strings.Contains(env.Error.Message, "over the cap of 65536 bytes") {
		t.Errorf("long pattern: %+v %+v", env.Status, env.Error)
	}
}

// vanishFS is a MapFS whose file name is deleted once it has been read
// through and closed: from then on it is not there to open, stat or list,
// as a file removed between two passes of a search.
type vanishFS struct {
	m    fstest.MapFS
	name string
	gone atomic.Bool
}

func (v *vanishFS) Open(name string) (fs.File, error) {
	if name == v.name && v.gone.Load() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	f, err := v.m.Open(name)
	if err != nil {
		return nil, err
	}
	if name == v.name {
		return &vanishFile{File: f, v: v}, nil
	}
	if d, ok := f.(fs.ReadDirFile); ok && path.Dir(v.name) == name {
		return &vanishDir{ReadDirFile: d, v: v}, nil
	}
	return f, nil
}

type vanishFile struct {
	fs.File
	v    *vanishFS
	read bool
}

func (f *vanishFile) Read(p []byte) (int, error) {
	f.read = true
	return f.File.Read(p)
}

func (f *vanishFile) Close() error {
	if f.read {
		f.v.gone.Store(true)
	}
	return f.File.Close()
}

type vanishDir struct {
	fs.ReadDirFile
	v *vanishFS
}

func (d *vanishDir) ReadDir(n int) ([]fs.DirEntry, error) {
	es, err := d.ReadDirFile.ReadDir(n)
	if d.v.gone.Load() {
		es = slices.DeleteFunc(es, func(e fs.DirEntry) bool { return path.Join(path.Dir(d.v.name), e.Name()) == d.v.name })
	}
	return es, err
}

// TestAmpGrepFileGoneBetweenPasses: a content page is counted first, then
// read from the files the count named; a file deleted in between is gone
// from the page, as from any search, not a NOT_FOUND failure of the whole
// call (TestFilesChangeDuringCalls met it now and then); the empty page
// says why, not that the offset is past the results.
func TestAmpGrepFileGoneBetweenPasses(t *testing.T) {
	for _, args := range []string{
		`{"pattern":"churn","output_mode":"content","head_limit":5}`,
		`{"pattern":"churn","output_mode":"content","head_limit":5,"offset":2}`,
	} {
		v := &vanishFS{m: fstest.MapFS{"d/a.txt": {Data: []byte(strings.Repeat("churn line\n", 10))}, "d/b.txt": {Data: []byte("other\n")}}, name: "d/a.txt"}
		env := Call(context.Background(), Config{FS: v}, Amplifier, "grep", []byte(args))
		if !v.gone.Load() {
			t.Fatalf("%s: the file was never read", args)
		}
		if env.Status == scout.StatusError || !strings.HasPrefix(env.Text, "No matches found (the files changed while they were searched; search again)") {
			t.Errorf("%s: %s %+v %q", args, env.Status, env.Error, env.Text)
		}
	}
}

// TestAmpGrepFilteredOut: an empty result says when glob or type left no
// file to search (ripgrep's "No files were searched"), in every mode, and
// how a glob with '/' is matched; not when a file was searched, nor when
// one passed the filter and was left out after it (binary).
func TestAmpGrepFilteredOut(t *testing.T) {
	tree := fstest.MapFS{
		"src/a/x.py": {Data: []byte("x\n")},
		"src/b.bin":  {Data: []byte("x\x00\n")},
		".hidden.go": {Data: []byte("x\n")},
	}
	for _, tt := range []struct{ args, want string }{
		{`"pattern":"x","glob":"a/*.py","path":"src"`, "No matches found\nGlob 'a/*.py' left no file to search under 'src' (a glob with '/' matches paths from the project root, as results show them, not from 'src': start it with 'src/' to match below it, or with '**/' to match at any depth)."},
		{`"pattern":"x","glob":"a/*.py"`, "No matches found\nNot searched: 1 hidden.\nGlob 'a/*.py' left no file to search under '.' (a glob with '/' matches paths from the project root, as results show them; start it with '**/' to match at any depth)."},
		{`"pattern":"x","glob":"*.rs","output_mode":"count"`, "No matches found\nNot searched: 1 hidden.\nGlob '*.rs' left no file to search under '.'."},
		{`"pattern":"x","type":"go","glob":"*.rs","output_mode":"content"`, "No matches found\nNot searched: 1 hidden.\nType 'go' and glob '*.rs' left no file to search under '.'."},
		{`"pattern":"x","type":"go","glob":"*.go","output_mode":"content"`, ".hidden.go:1:x"}, // the glob decides ahead of the hidden rule, as in ripgrep
		{`"pattern":"x","glob":"*.bin"`, "No matches found\nNot searched: 1 binary, 1 hidden."},
		{`"pattern":"y","glob":"*.py"`, "No matches found\nNot searched: 1 hidden."},
		{`"pattern":"x","glob":"*.rs\nFAKE"`, "No matches found\nNot searched: 1 hidden.\nGlob '\"*.rs\\nFAKE\"' left no file to search under '.'."}, // a glob cannot forge a line
	} {
		env := Call(context.Background(), Config{FS: tree}, Amplifier, "grep", []byte(`{`+tt.args+`}`))
		if env.Status != scout.StatusSuccess || env.Text != tt.want {
			t.Errorf("%s: %s %q, want %q", tt.args, env.Status, env.Text, tt.want)
		}
	}
}
