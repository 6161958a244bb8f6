package scout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// apiTree is a small tree for the API contract tests.
func apiTree() fstest.MapFS {
	m := fstest.MapFS{
		"README.md":   {Data: []byte("# title\nneedle in the readme\n")},
		".hidden.go":  {Data: []byte("package hidden // needle\n")},
		".ignore":     {Data: []byte("skip/\n")},
		"skip/s.go":   {Data: []byte("package skip // needle\n")},
		"docs/a.md":   {Data: []byte("needle\nother\nneedle again\n")},
		"bin/blob.so": {Data: []byte("needle\x00binary")},
	}
	for i := range 8 {
		m[fmt.Sprintf("src/f%d.go", i)] = &fstest.MapFile{Data: fmt.Appendf(nil, "package src\n\n// needle %d\nfunc F%d() {}\n", i, i)}
	}
	return m
}

// jsonOf is v's JSON, for comparing results.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSharedToolsConcurrent uses one Searcher, one Finder and one Reader
// from many goroutines at once (run with -race), over a MapFS and a
// temporary directory: every result equals the one of a serial call, and
// neither the tools nor the requests (their slices included) are changed by
// the calls.
func TestSharedToolsConcurrent(t *testing.T) {
	ctx := context.Background()
	for _, tree := range testfs.Trees(t, apiTree()) {
		t.Run(tree.Name, func(t *testing.T) {
			ws := scout.Workspace{FS: tree.FS, Root: tree.Root}
			s := &scout.Searcher{Workspace: ws, MaxFileSize: 1 << 20, Workers: 3}
			f := &scout.Finder{Workspace: ws}
			r := &scout.Reader{Workspace: ws, PruneDirs: []string{"bin"}}
			sCopy, fCopy, rCopy := *s, *f, *r
			rCopy.PruneDirs = []string{"bin"}

			searches := []scout.SearchRequest{
				{Pattern: "needle", Paths: []string{"src", "docs/*.md", "README.md:1-2"}, Globs: []string{"*.go", "*.md", "!f7.go"}, Before: 1, After: 2, Tags: true},
				{Pattern: "NEEDLE", IgnoreCase: true, Hidden: true, Types: []string{"go"}, PruneDirs: []string{"skip"}, MaxFiles: 3},
				{Pattern: "needle", Paths: []string{"docs/a.md"}, Lines: []scout.Range{{Start: 2, End: 3}}},
				{Pattern: "needle", Mode: scout.SearchCount, Skip: 2},
			}
			finds := []scout.FindRequest{
				{Patterns: []string{"*.go", "docs/"}, Recursive: true, Exclude: []string{"f1.go"}, Order: scout.ByPath},
				{Patterns: []string{"src/*.go"}, Limit: 3, Hidden: true, PruneDirs: []string{"bin"}, Order: scout.ByPath},
				{Base: "src", Patterns: []string{"**/*"}, Kind: scout.FilesOnly, Order: scout.ByPath},
			}
			reads := []scout.ReadRequest{
				{Path: "docs/a.md"}, {Path: "docs/a.md:2-3", Before: 1, After: 1}, {Path: "."}, {Path: "src/f3.go:raw"},
			}
			deep := func(v any) any { // a deep copy through JSON
				c := reflect.New(reflect.TypeOf(v))
				if err := json.Unmarshal([]byte(jsonOf(t, v)), c.Interface()); err != nil {
					t.Fatal(err)
				}
				return c.Elem().Interface()
			}
			wantReqs := []any{deep(searches), deep(finds), deep(reads)}

			call := func(i int) string {
				switch n := len(searches) + len(finds); {
				case i < len(searches):
					res, err := s.Search(ctx, searches[i])
					return jsonOf(t, res) + fmt.Sprint(err)
				case i < n:
					res, err := f.Find(ctx, finds[i-len(searches)])
					return jsonOf(t, res) + fmt.Sprint(err)
				default:
					res, err := r.Read(ctx, reads[i-n])
					return jsonOf(t, res) + fmt.Sprint(err)
				}
			}
			calls := len(searches) + len(finds) + len(reads)
			serial := make([]string, calls)
			for i := range calls {
				serial[i] = call(i)
			}
			const n = 48
			got := make([]string, n)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for g := range n {
				wg.Go(func() {
					<-start
					got[g] = call(g % calls)
				})
			}
			close(start)
			wg.Wait()
			for g := range n {
				if got[g] != serial[g%calls] {
					t.Errorf("call %d at once differs from the serial call:\n%s\nwant\n%s", g%calls, got[g], serial[g%calls])
				}
			}
			for i, v := range []any{searches, finds, reads} {
				if !reflect.DeepEqual(v, wantReqs[i]) {
					t.Errorf("the calls changed their requests:\n%s\nwant\n%s", jsonOf(t, v), jsonOf(t, wantReqs[i]))
				}
			}
			if !reflect.DeepEqual(*s, sCopy) || !reflect.DeepEqual(*f, fCopy) || !reflect.DeepEqual(*r, rCopy) {
				t.Errorf("the calls changed the tools: %+v %+v %+v", *s, *f, *r)
			}
		})
	}
}

// TestZeroValueTools calls the zero Searcher, Finder and Reader: they work
// on the current directory with the documented defaults.
func TestZeroValueTools(t *testing.T) {
	dir := testfs.WriteDir(t, apiTree())
	t.Chdir(dir)
	ctx := context.Background()
	sr, err := (&scout.Searcher{}).Search(ctx, scout.SearchRequest{Pattern: "needle"})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, fm := range sr.Files {
		files = append(files, fm.Path)
	}
	// Hidden files are left out and .ignore applies by default; the binary
	// file is counted as skipped.
	wantFiles := []string{"README.md", "docs/a.md", "src/f0.go", "src/f1.go", "src/f2.go", "src/f3.go", "src/f4.go", "src/f5.go", "src/f6.go", "src/f7.go"}
	if !reflect.DeepEqual(files, wantFiles) || sr.Skipped[scout.SkipBinary] != 1 || sr.Skipped[scout.SkipHidden] == 0 || sr.Skipped[scout.SkipIgnored] == 0 {
		t.Errorf("zero Searcher: files %q, skipped %v; want %q with binary, hidden and ignored counted", files, sr.Skipped, wantFiles)
	}
	fr, err := (&scout.Finder{}).Find(ctx, scout.FindRequest{Patterns: []string{"src/*.go"}, Order: scout.ByPath})
	if err != nil {
		t.Fatal(err)
	}
	if len(fr.Entries) != 8 || fr.Entries[0].Path != "src/f0.go" {
		t.Errorf("zero Finder: %+v", fr.Entries)
	}
	rr, err := (&scout.Reader{}).Read(ctx, scout.ReadRequest{Path: "docs/a.md:2-3"})
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonOf(t, rr); !json.Valid([]byte(got)) || rr.TotalLines != 3 {
		t.Errorf("zero Reader: %s", got)
	}
}
