package search

import (
	"context"
	"io/fs"
	"regexp"
	"testing"

	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/walk"
)

// TestPathFilters checks the pushdown against the search itself: every
// file a search with NoIgnore and Hidden reaches passes the filters, and,
// where the filters are exact, every file that passes them is reached.
func TestPathFilters(t *testing.T) {
	fsys := candFS(t)
	var all []string
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Type()&fs.ModeSymlink == 0 && p[:4] != ".git" {
			all = append(all, p)
		}
		return nil
	})
	for _, tc := range []struct {
		req   Request
		exact bool
	}{
		{Request{}, true},
		{Request{Paths: []string{"src"}}, true},
		{Request{Paths: []string{"src", "a.go", "docs/**/*.md"}}, true},
		{Request{Paths: []string{"src/**/*.go"}}, true},
		{Request{Globs: []string{"*.go", "!*_test.go"}}, true},
		{Request{Globs: []string{"nested/*.go"}}, false}, // relative to the searched directory: floated
		{Request{Globs: []string{"!nested/*"}}, false},   // not pushed down
		{Request{Types: []string{"go", "md", "make"}}, true},
		{Request{Paths: []string{"src"}, Globs: []string{"**/deep*", "!*.txt"}, Types: []string{"go"}}, true},
	} {
		req := tc.req
		req.Grep = grep.Options{Pattern: "."}
		req.Walk = walk.Options{Hidden: true, NoIgnore: true}
		req.MaxFiles, req.Budget, req.MaxFileSize = -1, -1, -1
		inc, exc, ok, err := PathFilters(context.Background(), fsys, "", &req)
		if err != nil || !ok {
			t.Fatalf("%+v: %v %v", tc.req, ok, err)
		}
		pass := func(p string) bool {
			for _, r := range inc {
				if !regexp.MustCompile(r).MatchString(p) {
					return false
				}
			}
			for _, r := range exc {
				if regexp.MustCompile(r).MatchString(p) {
					return false
				}
			}
			return true
		}
		req.Candidates = &Candidates{Files: all}
		out, err := Run(context.Background(), fsys, "", req)
		if err != nil {
			t.Fatal(err)
		}
		reached := map[string]bool{}
		for _, h := range out.Files {
			reached[h.Path] = true
			if !pass(h.Path) {
				t.Errorf("%+v: %s is searched but the filters %q -%q leave it out", tc.req, h.Path, inc, exc)
			}
		}
		if tc.exact {
			for _, p := range all {
				if pass(p) && !reached[p] && p != "bin.dat" {
					t.Errorf("%+v: %s passes the filters %q -%q but is not searched", tc.req, p, inc, exc)
				}
			}
		}
	}
}

// TestPathFiltersRanges: a file searched in its own line ranges is no
// index candidate, which would be searched whole.
func TestPathFiltersRanges(t *testing.T) {
	req := Request{Paths: []string{"a.go:1-2", "src"}, Grep: grep.Options{Pattern: "."}}
	if _, _, ok, err := PathFilters(context.Background(), candFS(t), "", &req); err != nil || ok {
		t.Errorf("PathFilters(a.go:1-2, src) = ok %v, err %v; want not ok", ok, err)
	}
}
