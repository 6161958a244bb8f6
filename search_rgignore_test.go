package scout_test

import (
	"context"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

// rgTree is a git work tree whose .rgignore re-includes what .gitignore
// and .ignore exclude, and excludes what a deeper .ignore re-includes.
var rgTree = fstest.MapFS{
	".git/HEAD":       {Data: []byte("ref: refs/heads/main\n")},
	".gitignore":      {Data: []byte("gen/\n*.log\n")},
	".ignore":         {Data: []byte("notes.md\n")},
	".rgignore":       {Data: []byte("!gen/\n!keep.log\nsecret.txt\n!notes.md\nx.go\n")},
	"gen/out.go":      {Data: []byte("x\n")},
	"a.log":           {Data: []byte("x\n")},
	"keep.log":        {Data: []byte("x\n")},
	"secret.txt":      {Data: []byte("x\n")},
	"notes.md":        {Data: []byte("x\n")},
	"main.go":         {Data: []byte("x\n")},
	"sub/.ignore":     {Data: []byte("!x.go\n")},
	"sub/x.go":        {Data: []byte("x\n")},
	"sub/y.go":        {Data: []byte("x\n")},
	"sub/pkg/z.go":    {Data: []byte("x\n")},
	"other/pkg/w.go":  {Data: []byte("x\n")},
	"other/sub/v.go":  {Data: []byte("x\n")},
	"other/sub/v.txt": {Data: []byte("x\n")},
}

// TestSearchRgIgnoreAndRipgrepGlobs pins SearchRequest.RgIgnore (ripgrep's
// .rgignore files, ahead of .ignore and .gitignore, what they skip counted
// as ignored) and RipgrepGlobs (a glob with '/' matched against the path
// from the root, as results show it, and globs deciding ahead of the
// hidden and ignore rules, each case checked with rg), over a MapFS and a
// directory; Find never reads .rgignore.
func TestSearchRgIgnoreAndRipgrepGlobs(t *testing.T) {
	cases := []struct {
		name    string
		req     scout.SearchRequest
		want    []string
		ignored int
	}{
		{"default", scout.SearchRequest{},
			[]string{"main.go", "other/pkg/w.go", "other/sub/v.go", "other/sub/v.txt", "secret.txt", "sub/pkg/z.go", "sub/x.go", "sub/y.go"}, 4},
		{"rgignore", scout.SearchRequest{RgIgnore: true},
			[]string{"gen/out.go", "keep.log", "main.go", "notes.md", "other/pkg/w.go", "other/sub/v.go", "other/sub/v.txt", "sub/pkg/z.go", "sub/y.go"}, 3},
		{"rgignore, no ignore", scout.SearchRequest{RgIgnore: true, NoIgnore: true},
			[]string{"a.log", "gen/out.go", "keep.log", "main.go", "notes.md", "other/pkg/w.go", "other/sub/v.go", "other/sub/v.txt", "secret.txt", "sub/pkg/z.go", "sub/x.go", "sub/y.go"}, 0},
		{"glob from the searched directory", scout.SearchRequest{Paths: []string{"sub"}, Globs: []string{"pkg/*.go"}},
			[]string{"sub/pkg/z.go"}, 0},
		{"glob from the root", scout.SearchRequest{Paths: []string{"sub"}, Globs: []string{"pkg/*.go"}, RipgrepGlobs: true},
			nil, 0},
		{"glob from the root naming the path", scout.SearchRequest{Paths: []string{"sub"}, Globs: []string{"sub/pkg/*.go"}, RipgrepGlobs: true},
			[]string{"sub/pkg/z.go"}, 0},
		{"glob from the root, two paths", scout.SearchRequest{Paths: []string{"sub", "other"}, Globs: []string{"*/pkg/*.go"}, RipgrepGlobs: true},
			[]string{"other/pkg/w.go", "sub/pkg/z.go"}, 0},
		{"excluding glob from the root", scout.SearchRequest{Paths: []string{"other"}, Globs: []string{"!other/sub/*.go"}, RipgrepGlobs: true},
			[]string{"other/pkg/w.go", "other/sub/v.txt"}, 0},
		{"basename glob either way", scout.SearchRequest{Paths: []string{"other"}, Globs: []string{"*.txt"}, RipgrepGlobs: true},
			[]string{"other/sub/v.txt"}, 0},
		{"including glob ahead of the ignore rules", scout.SearchRequest{Globs: []string{"*.log"}, RipgrepGlobs: true, RgIgnore: true},
			[]string{"a.log", "keep.log"}, 2},
		{"including glob ahead of the hidden rule", scout.SearchRequest{Globs: []string{"*ignore"}, RipgrepGlobs: true, RgIgnore: true},
			[]string{".rgignore", "sub/.ignore"}, 3},
		{"including glob entering an ignored directory", scout.SearchRequest{Globs: []string{"{gen,gen/*}"}, RipgrepGlobs: true, RgIgnore: true},
			[]string{"gen/out.go"}, 3},
		{"excluding glob leaving out a directory, uncounted", scout.SearchRequest{Globs: []string{"!other"}, RipgrepGlobs: true, RgIgnore: true},
			[]string{"gen/out.go", "keep.log", "main.go", "notes.md", "sub/pkg/z.go", "sub/y.go"}, 3},
		{"the last glob that matches decides", scout.SearchRequest{Globs: []string{"!*.go", "main.go"}, RipgrepGlobs: true, RgIgnore: true},
			[]string{"main.go"}, 2},
		{"a later including glob overrides an excluding one, for directories too", scout.SearchRequest{Globs: []string{"!sub", "{sub,sub/*}"}, RipgrepGlobs: true, RgIgnore: true},
			[]string{"sub/.ignore", "sub/x.go", "sub/y.go"}, 2},
		{"a glob ending in '/' matches directories only", scout.SearchRequest{Globs: []string{"!main.go/"}, RipgrepGlobs: true, RgIgnore: true},
			[]string{"gen/out.go", "keep.log", "main.go", "notes.md", "other/pkg/w.go", "other/sub/v.go", "other/sub/v.txt", "sub/pkg/z.go", "sub/y.go"}, 3},
		{"an excluding directory glob ending in '/'", scout.SearchRequest{Globs: []string{"!sub/"}, RipgrepGlobs: true, RgIgnore: true},
			[]string{"gen/out.go", "keep.log", "main.go", "notes.md", "other/pkg/w.go"}, 2},
		{"a file named is not filtered", scout.SearchRequest{Paths: []string{"sub/y.go"}, Globs: []string{"pkg/*.go"}, RipgrepGlobs: true},
			[]string{"sub/y.go"}, 0},
	}
	for name, ws := range workspaces(t, rgTree) {
		s := scout.Searcher{Workspace: ws}
		for _, c := range cases {
			req := c.req
			req.Pattern, req.Mode, req.MaxFiles = "x", scout.SearchFiles, -1
			res, err := s.Search(context.Background(), req)
			if err != nil {
				t.Fatalf("%s/%s: %v", name, c.name, err)
			}
			var got []string
			for _, f := range res.Files {
				got = append(got, f.Path)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s/%s: got %q, want %q", name, c.name, got, c.want)
			}
			if n := res.Skipped[scout.SkipIgnored]; n != c.ignored {
				t.Errorf("%s/%s: %d ignored, want %d", name, c.name, n, c.ignored)
			}
		}
		f := scout.Finder{Workspace: ws}
		res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"**/*.{go,txt,md,log}"}, Kind: scout.FilesOnly, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range res.Entries {
			got = append(got, e.Path)
		}
		slices.Sort(got)
		if want := []string{"main.go", "other/pkg/w.go", "other/sub/v.go", "other/sub/v.txt", "secret.txt", "sub/pkg/z.go", "sub/x.go", "sub/y.go"}; !slices.Equal(got, want) {
			t.Errorf("%s: Find got %q, want %q (.rgignore is not read)", name, got, want)
		}
	}
}
