package scout_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/hashline"
	"github.com/scoutkit/scout/internal/testfs"
)

// searchTree is the shared fixture of the search tests.
func searchTree() fstest.MapFS {
	many := strings.Repeat("hit\n", 30)
	return fstest.MapFS{
		"README.md":          {Data: []byte("# Title\nA hit here.\n")},
		"src/a.go":           {Data: []byte("package a\n\nfunc A() { return }\n// hit hit\n")},
		"src/b.go":           {Data: []byte("package a\n\nfunc B() {}\n")},
		"src/deep/c.py":      {Data: []byte("def c():\n    hit = 1\n")},
		"src/many.txt":       {Data: []byte(many)},
		".hidden/secret.txt": {Data: []byte("hit in hidden\n")},
		"bin/tool":           {Data: []byte("hit\x00binary")},
		"big.txt":            {Data: append(bytes.Repeat([]byte("x"), 2000), []byte("\nhit\n")...)},
		"archive.zip":        {Data: testfs.Zip(testfs.Files(map[string]string{"src/x.ts": "let hit = 1;\nother\n", "img.png": "\x89PNG\x00\x00hit"})...)},
		"bin.zip":            {Data: testfs.Zip(testfs.Files(map[string]string{"blob": "\x00hit"})...)},
		"pkg.tar.gz":         {Data: testfs.Tgz(testfs.Files(map[string]string{"lib/y.go": "package y\n// hit\n"})...)},
	}
}

// forEachFS runs f over the tree as a MapFS and as a temporary directory.
func forEachFS(t *testing.T, tree fstest.MapFS, f func(t *testing.T, s scout.Searcher)) {
	for _, tr := range testfs.Trees(t, tree) {
		t.Run(tr.Name, func(t *testing.T) { f(t, scout.Searcher{Workspace: scout.Workspace{FS: tr.FS, Root: tr.Root}}) })
	}
}

// summary renders a result compactly: each file with its match lines and
// the fields that matter for paging.
func summary(r *scout.SearchResult) string {
	var b strings.Builder
	for _, f := range r.Files {
		fmt.Fprintf(&b, "%s:%d/%d", f.Path, f.MatchLines, f.Matches)
		if f.Limited {
			b.WriteString(" limited")
		}
		if f.Virtual {
			b.WriteString(" virtual")
		}
		b.WriteString(";")
	}
	fmt.Fprintf(&b, " total=%d next=%d trunc=%q", r.TotalFiles, r.NextSkip, r.Truncated)
	return b.String()
}

func TestSearch(t *testing.T) {
	tests := []struct {
		name, reason string
		req          scout.SearchRequest
		want         string
		wantSkipped  map[scout.SkipReason]int
	}{
		{
			name:   "defaults",
			reason: "hidden files and binaries are skipped and counted; 20 matches a file at most when several files match",
			req:    scout.SearchRequest{Pattern: "hit"},
			want:   "README.md:1/1;big.txt:1/1;src/a.go:1/2;src/deep/c.py:1/1;src/many.txt:20/20 limited; total=5 next=0 trunc=\"\"",
			wantSkipped: map[scout.SkipReason]int{
				scout.SkipHidden: 1, scout.SkipBinary: 4, // bin/tool and the three archives
			},
		},
		{
			name:   "hidden",
			reason: "Hidden includes dot files",
			req:    scout.SearchRequest{Pattern: "hidden", Hidden: true},
			want:   ".hidden/secret.txt:1/1; total=1 next=0 trunc=\"\"",
		},
		{
			name:   "single file",
			reason: "one file gets up to 200 matching lines",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"src/many.txt"}},
			want:   "src/many.txt:30/30; total=1 next=0 trunc=\"\"",
		},
		{
			name:   "page",
			reason: "MaxFiles cuts the page; NextSkip continues it; TotalFiles is exact",
			req:    scout.SearchRequest{Pattern: "hit", MaxFiles: 2},
			want:   "README.md:1/1;big.txt:1/1; total=5 next=2 trunc=\"files\"",
		},
		{
			name:   "next page",
			reason: "Skip passes over matching files",
			req:    scout.SearchRequest{Pattern: "hit", MaxFiles: 2, Skip: 2},
			want:   "src/a.go:1/2;src/deep/c.py:1/1; total=5 next=4 trunc=\"files\"",
		},
		{
			name:   "last page",
			reason: "the last page has no NextSkip",
			req:    scout.SearchRequest{Pattern: "hit", MaxFiles: 2, Skip: 4},
			want:   "src/many.txt:20/20 limited; total=5 next=0 trunc=\"\"",
		},
		{
			name:   "budget",
			reason: "the line budget stops the scan once one more matching file is seen; the total is a lower bound",
			req:    scout.SearchRequest{Pattern: "hit", MaxMatches: 2},
			want:   "README.md:1/1;big.txt:1/1; total=2 next=2 trunc=\"budget\"",
		},
		{
			name:   "round robin",
			reason: "a page holding more lines than the budget is dealt out one line per file in turn",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"src/many.txt", "src/a.go"}, MaxMatches: 3},
			want:   "src/a.go:1/2;src/many.txt:2/2 limited; total=2 next=0 trunc=\"matches\"",
		},
		{
			name:   "unlimited",
			reason: "negative limits return everything",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"src"}, MaxMatchesPerFile: -1, MaxFiles: -1, MaxMatches: -1},
			want:   "src/a.go:1/2;src/deep/c.py:1/1;src/many.txt:30/30; total=3 next=0 trunc=\"\"",
		},
		{
			name:   "files mode",
			reason: "SearchFiles stops each file at its first match",
			req:    scout.SearchRequest{Pattern: "hit", Mode: scout.SearchFiles, Paths: []string{"src"}},
			want:   "src/a.go:1/2;src/deep/c.py:1/1;src/many.txt:1/1; total=3 next=0 trunc=\"\"",
		},
		{
			name:   "count mode",
			reason: "SearchCount counts every line regardless of the per-file cap",
			req:    scout.SearchRequest{Pattern: "hit", Mode: scout.SearchCount, Paths: []string{"src"}},
			want:   "src/a.go:1/2;src/deep/c.py:1/1;src/many.txt:30/30; total=3 next=0 trunc=\"\"",
		},
		{
			name:   "glob path",
			reason: "a glob entry filters the files below its base",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"src/**/*.py"}},
			want:   "src/deep/c.py:1/1; total=1 next=0 trunc=\"\"",
		},
		{
			name:   "globs and types",
			reason: "Globs and Types filter like ripgrep's -g and -t",
			req:    scout.SearchRequest{Pattern: "hit|package", Globs: []string{"*.go", "!b.go"}, Types: []string{"go"}},
			want:   "src/a.go:2/3; total=1 next=0 trunc=\"\"",
		},
		{
			name:   "size cap",
			reason: "files over MaxFileSize are skipped and counted",
			req:    scout.SearchRequest{Pattern: "hit", MaxFileSize: 1000, Paths: []string{"big.txt", "README.md"}},
			want:   "README.md:1/1; total=1 next=0 trunc=\"\"",
			wantSkipped: map[scout.SkipReason]int{
				scout.SkipTooLarge: 1,
			},
		},
		{
			name:   "missing entry",
			reason: "a missing entry among others is listed, not fatal",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"nope.txt", "README.md"}},
			want:   "README.md:1/1; total=1 next=0 trunc=\"\"",
		},
		{
			name:   "line ranges",
			reason: "Lines keeps matches inside the ranges",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"src/many.txt"}, Lines: []scout.Range{{Start: 3, End: 4}, {Start: 29}}},
			want:   "src/many.txt:4/4; total=1 next=0 trunc=\"\"",
		},
		{
			name:   "archive member",
			reason: "a text member of a zip is searched in memory under its archive path, with no tag",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"archive.zip:src/x.ts"}, Tags: true},
			want:   "archive.zip:src/x.ts:1/1 virtual; total=1 next=0 trunc=\"\"",
		},
		{
			name:   "tar.gz member",
			reason: "members of .tar.gz archives too",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"pkg.tar.gz:lib/y.go"}},
			want:   "pkg.tar.gz:lib/y.go:1/1 virtual; total=1 next=0 trunc=\"\"",
		},
		{
			name:   "binary member",
			reason: "a binary member is listed in SkippedPaths when another entry remains",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"archive.zip:img.png", "README.md"}},
			want:   "README.md:1/1; total=1 next=0 trunc=\"\"",
		},
		{
			name:   "empty pattern",
			reason: "an empty pattern matches every line, with an empty match at each position (as rg --count-matches)",
			req:    scout.SearchRequest{Pattern: "", Paths: []string{"src/b.go"}},
			want:   "src/b.go:3/23; total=1 next=0 trunc=\"\"",
		},
	}
	forEachFS(t, searchTree(), func(t *testing.T, s scout.Searcher) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r, err := s.Search(context.Background(), tt.req)
				if err != nil {
					t.Fatalf("%s: %v", tt.reason, err)
				}
				if got := summary(r); got != tt.want {
					t.Errorf("%s\n got: %s\nwant: %s", tt.reason, got, tt.want)
				}
				for k, n := range tt.wantSkipped {
					if r.Skipped[k] != n {
						t.Errorf("%s: skipped[%s] = %d, want %d (all: %v)", tt.reason, k, r.Skipped[k], n, r.Skipped)
					}
				}
			})
		}
	})
}

func TestSearchSkippedMembers(t *testing.T) {
	pad := strings.Repeat("padding\n", 2000) // past the 8 KiB sniffed up front
	tree := fstest.MapFS{"a.zip": {Data: testfs.Zip(testfs.Files(map[string]string{
		"ok.txt":       "hit\n",
		"img.png":      "\x89PNG\x00hit",
		"latin1.txt":   "caf\xe9 hit\n",
		"late-nul.txt": pad + "hit\x00\n",
		"late-bad.txt": pad + "hit \xff\n",
	})...)}}
	tests := []struct {
		member string
		want   scout.SkippedPath
		reason string
	}{
		{"img.png", scout.SkippedPath{Path: "a.zip:img.png", Reason: scout.SkipBinary, Named: true}, "a NUL in the head: binary"},
		{"latin1.txt", scout.SkippedPath{Path: "a.zip:latin1.txt", Reason: scout.SkipBinary, Message: "not UTF-8", Named: true}, "invalid UTF-8 in the head"},
		{"late-nul.txt", scout.SkippedPath{Path: "a.zip:late-nul.txt", Reason: scout.SkipBinary, Named: true}, "a NUL past the head still makes the member binary"},
		{"late-bad.txt", scout.SkippedPath{Path: "a.zip:late-bad.txt", Reason: scout.SkipBinary, Message: "not UTF-8", Named: true}, "invalid UTF-8 past the head: search supports UTF-8 members only"},
	}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		for _, tt := range tests {
			r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Paths: []string{"a.zip:" + tt.member, "a.zip:ok.txt"}})
			if err != nil {
				t.Fatalf("%s: %v", tt.reason, err)
			}
			assert.Equal(t, []scout.SkippedPath{tt.want}, r.SkippedPaths, tt.reason)
			assert.Len(t, r.Files, 1, "%s: the text member", tt.reason)
		}
	})
}

// TestSearchMemberDotDot: a member path with a ".." segment is refused
// as read refuses it, not folded into the archive's path and reported
// missing.
func TestSearchMemberDotDot(t *testing.T) {
	tree := fstest.MapFS{"a.zip": {Data: testfs.Zip(testfs.Files(map[string]string{"src/ok.txt": "hit\n"})...)}}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		for _, p := range []string{"a.zip:../../etc/passwd", "a.zip:src/../src/ok.txt"} {
			_, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Paths: []string{p}})
			if scout.CodeOf(err) != scout.CodeInvalidParam || !strings.Contains(err.Error(), "paths inside an archive cannot leave it") {
				t.Errorf("%s: %v, want INVALID_PARAM saying a member cannot leave the archive", p, err)
			}
		}
	})
}

func TestSearchLines(t *testing.T) {
	forEachFS(t, searchTree(), func(t *testing.T, s scout.Searcher) {
		r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: `h(i)t`, Paths: []string{"src/a.go"}, Before: 1, After: 1, Tags: true})
		if err != nil {
			t.Fatal(err)
		}
		f := r.Files[0]
		want := []scout.LineMatch{
			{Line: 3, Text: "func A() { return }"},
			{Line: 4, Text: "// hit hit", Match: true, Spans: []scout.Span{{Start: 3, End: 6}, {Start: 7, End: 10}}},
		}
		assert.Equal(t, want, f.Lines, "lines: 1-based numbers, context before, half-open spans of each match")
		if f.Tag == "" || len(f.Tag) != 4 {
			t.Errorf("Tags asks for the 4-hex hashline tag, got %q", f.Tag)
		}
		if !r.Single {
			t.Errorf("one file is a single-file scope")
		}
	})
}

// TestSearchPathRanges: an entry of Paths may end in line ranges, among
// other entries searched whole; an existing path is taken as written.
func TestSearchPathRanges(t *testing.T) {
	tree := searchTree()
	tree["notes:2"] = &fstest.MapFile{Data: []byte("hit\n")}
	tests := []struct {
		paths        []string
		want, reason string
	}{
		{[]string{"src/a.go:4", "README.md"}, `README.md:1/1;src/a.go:1/2; total=2 next=0 trunc=""`, "a ranged file among others"},
		{[]string{"src/a.go:1-3", "README.md"}, `README.md:1/1; total=1 next=0 trunc=""`, "no match in the range"},
		{[]string{"src/many.txt:5-7,29", "src/a.go"}, `src/a.go:1/2;src/many.txt:5/5; total=2 next=0 trunc=""`, "a range list, the last one open: 5-7, 29-30"},
		{[]string{"src/many.txt:5-7", "src/many.txt:29"}, `src/many.txt:5/5; total=1 next=0 trunc=""`, "two selectors of one file are joined"},
		{[]string{"src/many.txt:5-7", "src"}, `src/a.go:1/2;src/deep/c.py:1/1;src/many.txt:20/20 limited; total=3 next=0 trunc=""`, "a directory entry holding the file asks for all of it"},
		{[]string{"archive.zip:src/x.ts:1", "README.md"}, `README.md:1/1;archive.zip:src/x.ts:1/1 virtual; total=2 next=0 trunc=""`, "an archive member with a range among other paths"},
		{[]string{"archive.zip:src/x.ts:2", "README.md"}, `README.md:1/1; total=1 next=0 trunc=""`, "... outside its match"},
		{[]string{"notes:2", "README.md"}, `README.md:1/1;notes:2:1/1; total=2 next=0 trunc=""`, "a file named with a colon is that file"},
	}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		for _, tt := range tests {
			r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Paths: tt.paths})
			if err != nil {
				t.Fatalf("%s: %v", tt.reason, err)
			}
			assert.Equal(t, tt.want, summary(r), tt.reason)
		}
		// Ranges over every line give the result of no ranges.
		whole, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Paths: []string{"src/a.go", "src/many.txt"}, Before: 1, After: 3})
		assert.NoError(t, err)
		ranged, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Paths: []string{"src/a.go:1-", "src/many.txt:L1-L30"}, Before: 1, After: 3})
		assert.NoError(t, err)
		assert.Equal(t, whole, ranged, "ranges covering every line")
	})
}

func TestSearchCut(t *testing.T) {
	tree := fstest.MapFS{"a.txt": {Data: []byte("hit " + strings.Repeat("é", 400) + "\nhit " + strings.Repeat("é", 600) + "\n")}}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit"})
		if err != nil {
			t.Fatal(err)
		}
		short, long := r.Files[0].Lines[0], r.Files[0].Lines[1]
		if short.Cut || utf8.RuneCountInString(short.Text) != 404 {
			t.Errorf("a line of 404 characters (804 bytes) is not cut: the cap counts characters: cut=%v len=%d", short.Cut, len(short.Text))
		}
		if !long.Cut || utf8.RuneCountInString(long.Text) != 512 || !strings.HasPrefix(long.Text, "hit é") || !r.LinesCut() {
			t.Errorf("a line over 512 characters is cut to 512 and flagged: cut=%v chars=%d", long.Cut, utf8.RuneCountInString(long.Text))
		}
	})
}

func TestSearchErrors(t *testing.T) {
	tests := []struct {
		name, reason string
		req          scout.SearchRequest
		code         scout.Code
		msg          string
	}{
		{"bad regex", "an invalid pattern names the problem", scout.SearchRequest{Pattern: "a(b"}, scout.CodeInvalidParam, "Invalid regex: missing closing )"},
		{"all missing", "every entry missing", scout.SearchRequest{Pattern: "a", Paths: []string{"x", "y"}}, scout.CodeNotFound, "Path not found: x, y"},
		{"negative skip", "Skip must not be negative", scout.SearchRequest{Pattern: "a", Skip: -1}, scout.CodeInvalidParam, "Skip must be a non-negative number"},
		{"negative context", "context must not be negative", scout.SearchRequest{Pattern: "a", Before: -1}, scout.CodeInvalidParam, "Context lines"},
		{"outside", "a path outside the root", scout.SearchRequest{Pattern: "a", Paths: []string{"../x"}}, scout.CodeAccessDenied, "Access denied"},
		{"bad glob", "an invalid glob filter", scout.SearchRequest{Pattern: "a", Globs: []string{"[a"}}, scout.CodeInvalidParam, "Invalid glob"},
		{"bad type", "an unknown type", scout.SearchRequest{Pattern: "a", Types: []string{"nope"}}, scout.CodeInvalidParam, "Unknown file type 'nope'"},
		{"range on dir", "ranges need one file", scout.SearchRequest{Pattern: "a", Paths: []string{"src"}, Lines: []scout.Range{{Start: 1, End: 2}}}, scout.CodeInvalidParam, "src is a directory"},
		{"range on glob", "ranges need one file", scout.SearchRequest{Pattern: "a", Paths: []string{"src/*.go"}, Lines: []scout.Range{{Start: 1, End: 2}}}, scout.CodeInvalidParam, "not a glob"},
		{"range on missing", "ranges on a missing path", scout.SearchRequest{Pattern: "a", Paths: []string{"nope.go"}, Lines: []scout.Range{{Start: 1, End: 2}}}, scout.CodeNotFound, "Path not found for line-range selector: nope.go"},
		{"range on dir among others", "a path's own ranges need one file, among others too", scout.SearchRequest{Pattern: "a", Paths: []string{"src:1-2", "README.md"}}, scout.CodeInvalidParam, "Line-range selector requires a single file: src is a directory"},
		{"range on archive", "a whole archive takes no ranges", scout.SearchRequest{Pattern: "a", Paths: []string{"README.md", "archive.zip:5"}}, scout.CodeInvalidParam, "archive.zip is an archive; name one member"},
		{"range on missing among others", "a missing path with ranges is an error, not skipped", scout.SearchRequest{Pattern: "a", Paths: []string{"README.md", "nope.go:3"}}, scout.CodeNotFound, "Path not found for line-range selector: nope.go"},
		{"ranges twice", "Lines and a path's own ranges", scout.SearchRequest{Pattern: "a", Paths: []string{"src/a.go:4"}, Lines: []scout.Range{{Start: 1, End: 2}}}, scout.CodeInvalidParam, "Line ranges given twice"},
		{"lines with several paths", "Lines is for one path", scout.SearchRequest{Pattern: "a", Paths: []string{"src/a.go", "README.md"}, Lines: []scout.Range{{Start: 1, End: 2}}}, scout.CodeInvalidParam, "append its ranges to it"},
		{"raw selector", "a search path takes ranges only", scout.SearchRequest{Pattern: "a", Paths: []string{"src/a.go:raw"}}, scout.CodeInvalidParam, "a search path takes line ranges only"},
		{"binary member only", "no text member left", scout.SearchRequest{Pattern: "a", Paths: []string{"bin.zip:blob"}}, scout.CodeUnsupported, "Cannot search archive member(s): bin.zip:blob"},
		{"member missing", "a missing archive member", scout.SearchRequest{Pattern: "a", Paths: []string{"archive.zip:nope.ts"}}, scout.CodeNotFound, "not found inside archive"},
		{"glob after file", "a glob below a file", scout.SearchRequest{Pattern: "a", Paths: []string{"README.md/*.go"}}, scout.CodeInvalidParam, "is not a directory"},
	}
	forEachFS(t, searchTree(), func(t *testing.T, s scout.Searcher) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := s.Search(context.Background(), tt.req)
				if err == nil {
					t.Fatalf("%s: no error", tt.reason)
				}
				if scout.CodeOf(err) != tt.code || !strings.Contains(err.Error(), tt.msg) {
					t.Errorf("%s: got %s %q, want %s containing %q", tt.reason, scout.CodeOf(err), err, tt.code, tt.msg)
				}
				if !errors.Is(err, tt.code) {
					t.Errorf("%s: errors.Is with the code fails", tt.reason)
				}
			})
		}
	})
}

func TestSearchCanceled(t *testing.T) {
	forEachFS(t, searchTree(), func(t *testing.T, s scout.Searcher) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := s.Search(ctx, scout.SearchRequest{Pattern: "hit"})
		if !errors.Is(err, scout.CodeCanceled) {
			t.Errorf("a canceled context gives CodeCanceled, got %v", err)
		}
	})
}

func TestSearchStream(t *testing.T) {
	forEachFS(t, searchTree(), func(t *testing.T, s scout.Searcher) {
		var got []string
		for f, err := range s.Stream(context.Background(), scout.SearchRequest{Pattern: "hit"}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, f.Path)
			if len(got) == 3 {
				break
			}
		}
		if want := "README.md big.txt src/a.go"; strings.Join(got, " ") != want {
			t.Errorf("Stream yields matching files in path order and stops when the loop breaks: got %v, want %s", got, want)
		}
		for f, err := range s.Stream(context.Background(), scout.SearchRequest{Pattern: "("}) {
			if f != nil || scout.CodeOf(err) != scout.CodeInvalidParam {
				t.Errorf("a request error is yielded once with a nil file, got %v %v", f, err)
			}
		}
	})
}

// staticResolver serves internal URLs from a map: "file:" values are
// backing files, others virtual texts.
type staticResolver map[string]string

func (r staticResolver) Resolve(_ context.Context, url string) (*scout.Resource, error) {
	v, ok := r[url]
	if !ok {
		return nil, &scout.Error{Code: scout.CodeNotFound, Message: url + " not found"}
	}
	if p, ok := strings.CutPrefix(v, "file:"); ok {
		return &scout.Resource{SourcePath: p, Immutable: true}, nil
	}
	return &scout.Resource{Text: v}, nil
}

func TestSearchInternalURL(t *testing.T) {
	res := staticResolver{"memory://notes": "first\nhit in memory\n", "skill://readme": "file:README.md"}
	forEachFS(t, searchTree(), func(t *testing.T, s scout.Searcher) {
		s.Resolvers = map[string]scout.Resolver{"memory": res, "skill": res}
		r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Paths: []string{"memory://notes", "skill://readme"}, Tags: true})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := summary(r), "README.md:1/1 virtual;memory://notes:1/1 virtual; total=2 next=0 trunc=\"\""; got != want {
			t.Errorf("a backed URL is searched as its file, a virtual one in memory; neither is tagged\n got %s\nwant %s", got, want)
		}
		for _, f := range r.Files {
			if f.Tag != "" {
				t.Errorf("%s: immutable and virtual sources get no tag, got %q", f.Path, f.Tag)
			}
		}
		_, err = s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Paths: []string{"memory://*"}})
		if scout.CodeOf(err) != scout.CodeInvalidParam || !strings.Contains(err.Error(), "Glob patterns are not supported for internal URLs") {
			t.Errorf("a glob in an internal URL is an error, got %v", err)
		}
	})
}

// TestSearchOSEntries covers what only a real directory has: symlinks,
// FIFOs, unreadable files and symlink loops. None may block or fail the
// search; each is counted.
func TestSearchOSEntries(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or POSIX permissions")
	}
	dir := testfs.WriteDir(t, fstest.MapFS{"a.txt": {Data: []byte("hit\n")}, "locked.txt": {Data: []byte("hit\n")}})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	must(t, os.Symlink("a.txt", filepath.Join(dir, "link.txt")))
	must(t, os.Symlink("loop2", filepath.Join(dir, "loop1")))
	must(t, os.Symlink("loop1", filepath.Join(dir, "loop2")))
	must(t, os.Chmod(filepath.Join(dir, "locked.txt"), 0))
	locked := true
	if f, err := os.Open(filepath.Join(dir, "locked.txt")); err == nil {
		f.Close()
		locked = false // running as root: permissions do not bind
	}
	s := scout.Searcher{Workspace: scout.Workspace{Root: dir}}
	r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Skipped[scout.SkipSpecial] != 1 {
		t.Errorf("the FIFO is skipped without being opened: %v", r.Skipped)
	}
	if r.Skipped[scout.SkipSymlink] != 3 {
		t.Errorf("symlinks (one to a file, two in a loop) are not followed: %v", r.Skipped)
	}
	wantFiles := "a.txt:1/1;locked.txt:1/1;"
	if locked {
		wantFiles = "a.txt:1/1;"
		if r.Skipped[scout.SkipUnreadable] != 1 || len(r.SkippedPaths) != 1 || r.SkippedPaths[0].Path != "locked.txt" || r.SkippedPaths[0].Reason != scout.SkipUnreadable || r.SkippedPaths[0].Code != scout.CodeAccessDenied {
			t.Errorf("an unreadable file is counted, with a sample error: %v %+v", r.Skipped, r.SkippedPaths)
		}
	}
	if got := summary(r); !strings.HasPrefix(got, wantFiles+" ") {
		t.Errorf("got %s, want files %s", got, wantFiles)
	}
	// A FIFO named explicitly is skipped too, never opened.
	r, err = s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Paths: []string{"pipe"}})
	if err != nil || len(r.Files) != 0 || r.Skipped[scout.SkipSpecial] != 1 {
		t.Errorf("explicit FIFO: %v %v", err, r)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSearchTagLimit checks that a file over 4 MiB gets no tag.
func TestSearchTagLimit(t *testing.T) {
	big := bytes.Repeat([]byte("hit line\n"), (4<<20)/9+10)
	tree := fstest.MapFS{"big.txt": {Data: big}, "small.txt": {Data: []byte("hit\n")}}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Tags: true, MaxFiles: -1})
		if err != nil {
			t.Fatal(err)
		}
		if r.Files[0].Tag != "" || r.Files[1].Tag == "" {
			t.Errorf("files over 4 MiB get no tag, smaller ones do: %q %q", r.Files[0].Tag, r.Files[1].Tag)
		}
	})
}

// TestStreamTags: a stream, ordered or not, gives each matching file the
// tag a search gives it (its workers compute the tags), archive members
// and files over 4 MiB none.
func TestStreamTags(t *testing.T) {
	big := bytes.Repeat([]byte("hit line\n"), (4<<20)/9+10)
	tree := fstest.MapFS{"big.txt": {Data: big}, "a.go": {Data: []byte("x\nhit\n")}, "d/b.txt": {Data: []byte("hit  \r\n")},
		"d/none.txt": {Data: []byte("miss\n")}, "z.zip": {Data: testfs.Zip(testfs.Files(map[string]string{"m.txt": "hit\n"})...)}}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		req := scout.SearchRequest{Pattern: "hit", Paths: []string{".", "z.zip"}, Tags: true, MaxFiles: -1}
		want := map[string]string{}
		r, err := s.Search(context.Background(), req)
		require.NoError(t, err)
		for _, f := range r.Files {
			want[f.Path] = f.Tag
		}
		require.Len(t, want, 4)
		require.NotEmpty(t, want["a.go"])
		require.Empty(t, want["big.txt"])
		require.Empty(t, want["z.zip:m.txt"])
		checkStreamTags(t, s, req, want)
	})
}

// TestStreamTagsWhole: a stream's worker tags a matching file from the text
// the search gave it as it read it (a file read in one buffer or mapped; a
// file read in pieces whose first match is in its first piece, read on to
// its end after a search that stopped early), else by reading it again;
// either way the tag is the file's, the one a search gives it: CRLF and
// trailing blanks (across the 1 MiB boundary between two pieces too),
// byte-order marks, files read in pieces, searches that stop before the
// end, files of exactly 4 MiB (mapped in a temp dir) and over (no tag).
func TestStreamTagsWhole(t *testing.T) {
	bom := "\xEF\xBB\xBF"
	lines := func(line string, size int) []byte {
		b := bytes.Repeat([]byte(line), size/len(line)+1)
		return b[:size]
	}
	// straddle is a file of 1 MiB and a bit with mid at the 1 MiB
	// boundary, its first cut bytes before it, which matches on its first
	// and last lines: searched to its end, in pieces.
	straddle := func(head, mid string, cut int) []byte {
		b := append([]byte(head+"a hit \r\n"), lines("some text\t\n", 1<<20-cut-len(head)-8)...)
		b = append(b, mid...)
		return append(b, lines("more \t\r\n", 64<<10)...)
	}
	tree := fstest.MapFS{
		"small.go":        {Data: []byte("x\nhit\n")},
		"crlf.txt":        {Data: []byte("hit  \r\nb\t\r\n\r\n  \n")},
		"bom.txt":         {Data: []byte(bom + "hit \nx\n")},
		"bom2.txt":        {Data: []byte(bom + bom + "hit\n")},
		"many.txt":        {Data: bytes.Repeat([]byte("hit\t\r\n"), 2000)},
		"pieces.txt":      {Data: lines("a hit \r\nsome text\t\n", 2<<20)},
		"pieces-end.txt":  {Data: append(lines("some text\t\r\n", 2<<20), "hit\n"...)},
		"exact-4MiB.txt":  {Data: lines("a hit  \r\nother text\n", hashline.MaxTagBytes)},
		"end-4MiB.txt":    {Data: append(lines("some text \r\n", hashline.MaxTagBytes-4), "hit\n"...)},
		"over-4MiB.txt":   {Data: lines("a hit\n", hashline.MaxTagBytes+1)},
		"bom-pieces.txt":  {Data: append([]byte(bom), lines("hit \n", 3<<20)...)},
		"cut-crlf.txt":    {Data: append(straddle("", "x \t\r\ny\n", 4), "hit\n"...)},
		"cut-cr.txt":      {Data: append(straddle("", "x\r\ry\n", 2), "hit"...)},
		"cut-blanks.txt":  {Data: append(straddle("", "x  \t  y\n", 3), "hit \t"...)},
		"cut-trail.txt":   {Data: append(straddle("", "x  \t  \n", 3), "hit\r"...)},
		"cut-bom.txt":     {Data: append(straddle(bom, "x \t\r\ny\n", 4), "hit\r\n"...)},
		"none.txt":        {Data: []byte("miss\n")},
		"sub/nested.txt":  {Data: []byte("\thit\t\n\n\n")},
		"sub/bom-4MiB.md": {Data: append([]byte(bom), lines("hit\r\n", hashline.MaxTagBytes-3)...)},
		"sub/bom-over.md": {Data: append([]byte(bom), lines("hit\r\n", hashline.MaxTagBytes-2)...)},
	}
	reqs := []scout.SearchRequest{
		{Pattern: "hit"}, // 20 lines a file: most big files are read on after the search stops
		{Pattern: "hit", MaxMatchesPerFile: 1},
		{Pattern: `hit\s*`, Multiline: true}, // the whole file as one text
	}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		for _, req := range reqs {
			req.Tags, req.MaxFiles = true, -1
			r, err := s.Search(context.Background(), req)
			require.NoError(t, err)
			want := map[string]string{}
			for _, f := range r.Files {
				want[f.Path] = f.Tag
				switch data := tree[f.Path].Data; {
				case len(data) > hashline.MaxTagBytes:
					require.Empty(t, f.Tag, f.Path)
				case f.Path == "bom2.txt":
					require.Equal(t, hashline.Tag(data[3:]), f.Tag, "%s: read's tag leaves the second mark out too", f.Path)
				default:
					require.Equal(t, hashline.Tag(data), f.Tag, f.Path)
				}
			}
			require.Len(t, want, len(tree)-1, "%+v", req)
			checkStreamTags(t, s, req, want)
		}
	})
}

// TestSearchTagIsReadTag: a search tags a file as read does, whatever its
// encoding: the tag of its text, decoded from UTF-16 or UTF-32 (read
// tags the decoded text, and so does the search as it decodes it), less
// a UTF-8 byte-order mark and a second one after it (a U+FEFF that opens
// the text after its mark); none for a text over 4 MiB once decoded.
// The files are small, read in pieces and matching late, or matching
// often (the search stops, then reads on); every search gives every file
// read's tag, paged, streamed or whole-file (multiline).
func TestSearchTagIsReadTag(t *testing.T) {
	// enc encodes s, after a byte-order mark, in e: utf-16le, utf-16be,
	// utf-32le or utf-32be.
	enc := func(e, s string) []byte {
		var order binary.AppendByteOrder = binary.LittleEndian
		if strings.HasSuffix(e, "be") {
			order = binary.BigEndian
		}
		var b []byte
		for _, r := range "\uFEFF" + s {
			if strings.HasPrefix(e, "utf-32") {
				b = order.AppendUint32(b, uint32(r))
				continue
			}
			for _, u := range utf16.AppendRune(nil, r) {
				b = order.AppendUint16(b, u)
			}
		}
		return b
	}
	text := "a hit  \r\nother\t\n\rlast hit \t"
	long := strings.Repeat("some text \t\r\n", 30_000) + "late hit\n"                          // 420,000 characters
	often := strings.Repeat("hit \r\n", 50_000)                                                // 300,000 characters
	wide := strings.Repeat(strings.Repeat("\u4e16", 60)+" hit\n", (7<<19)/130)                 // 3.5 MiB in UTF-16, 5 MiB in UTF-8
	mapped := strings.Repeat("x hit \r\n", hashline.MaxTagBytes/16)[:hashline.MaxTagBytes/2-1] // 4 MiB in UTF-16: mapped
	tree := fstest.MapFS{
		"utf8.txt":      {Data: []byte(text)},
		"bom.txt":       {Data: []byte("\uFEFF" + text)},
		"bom2.txt":      {Data: []byte("\uFEFF\uFEFF" + text)},
		"bad.txt":       {Data: []byte("a hit \xff\xc3(\r\n")},       // not UTF-8: hashed as it is
		"bom-bad.txt":   {Data: []byte("\uFEFFa hit \xff\xc3(\r\n")}, // the same after a byte-order mark
		"le.txt":        {Data: enc("utf-16le", text)},
		"be.txt":        {Data: enc("utf-16be", text)},
		"le32.txt":      {Data: enc("utf-32le", text)},
		"be32.txt":      {Data: enc("utf-32be", text)},
		"le-bom2.txt":   {Data: enc("utf-16le", "\uFEFF"+text)},
		"le-long.txt":   {Data: enc("utf-16le", long)},
		"be32-long.txt": {Data: enc("utf-32be", long)},
		"le-often.txt":  {Data: enc("utf-16le", often)},
		"le-wide.txt":   {Data: enc("utf-16le", wide)},
		"le-4MiB.txt":   {Data: enc("utf-16le", mapped)},
		"le-nonbmp.txt": {Data: enc("utf-16le", "\U0001F600 hit\r\n\U0001F601\n")},
		"le-odd.txt":    {Data: append(enc("utf-16le", "hit\n"), 'x')}, // a lone last byte: U+FFFD
	}
	reqs := []scout.SearchRequest{
		{Pattern: "hit"},
		{Pattern: "hit", MaxMatchesPerFile: 1},
		{Pattern: `hit\s*`, Multiline: true},
		{Pattern: "hit", MaxFiles: 3, Skip: 2},
	}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		rd := scout.Reader{Workspace: s.Workspace}
		want := map[string]string{}
		for name := range tree {
			res, err := rd.Read(context.Background(), scout.ReadRequest{Path: name})
			require.NoError(t, err, name)
			want[name] = res.Tag
		}
		require.Empty(t, want["le-wide.txt"], "a text over 4 MiB once decoded has no tag")
		require.NotEqual(t, want["le.txt"], hashline.Tag(tree["le.txt"].Data), "the tag is the decoded text's")
		for _, req := range reqs {
			req.Tags = true
			if req.MaxFiles == 0 {
				req.MaxFiles = -1
			}
			r, err := s.Search(context.Background(), req)
			require.NoError(t, err)
			if req.Skip == 0 {
				require.Len(t, r.Files, len(tree), "%+v", req)
			}
			got := map[string]string{}
			for _, f := range r.Files {
				got[f.Path] = f.Tag
				assert.Equal(t, want[f.Path], f.Tag, "%s: %+v", f.Path, req)
			}
			if req.Skip == 0 {
				checkStreamTags(t, s, req, got)
			}
		}
	})
}

// checkStreamTags streams req, ordered and unordered, and checks that the
// tags of its files are want's (path to tag).
func checkStreamTags(t *testing.T, s scout.Searcher, req scout.SearchRequest, want map[string]string) {
	t.Helper()
	for _, unordered := range []bool{false, true} {
		req.Unordered = unordered
		got := map[string]string{}
		_, err := s.StreamFunc(context.Background(), req, func(f *scout.FileMatch) bool {
			got[f.Path] = f.Tag
			return true
		})
		require.NoError(t, err)
		assert.Equal(t, want, got, "%+v", req)
	}
}

var _ fs.FS = fstest.MapFS{}

// failFS fails to open one file, as an unreadable file would.
type failFS struct {
	fstest.MapFS
	bad string
}

func (f failFS) Open(name string) (fs.File, error) {
	if name == f.bad {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.Open(name)
}

func TestSearchUnreadable(t *testing.T) {
	fsys := failFS{MapFS: fstest.MapFS{"a.txt": {Data: []byte("hit\n")}, "b.txt": {Data: []byte("hit\n")}}, bad: "b.txt"}
	s := scout.Searcher{Workspace: scout.Workspace{FS: fsys}}
	r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit"})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(r); !strings.HasPrefix(got, "a.txt:1/1; ") || r.Skipped[scout.SkipUnreadable] != 1 {
		t.Errorf("the unreadable file is counted, the other searched: %s %v", got, r.Skipped)
	}
	if len(r.SkippedPaths) != 1 || r.SkippedPaths[0].Path != "b.txt" || r.SkippedPaths[0].Code != scout.CodeAccessDenied {
		t.Errorf("a sample of the failure is kept: %+v", r.SkippedPaths)
	}
}

// TestSearchGolden runs the core golden cases in testdata/search: the
// request is a SearchRequest in JSON, want.txt the hashline text and
// want.json the SearchResult, over MapFS and a temp dir.
func TestSearchGolden(t *testing.T) {
	for _, file := range testfs.Cases(t, "testdata/search/*.txtar") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			c := testfs.Load(t, file)
			raw, _ := c.Section("request.json")
			var req scout.SearchRequest
			if err := json.Unmarshal(raw, &req); err != nil {
				t.Fatal(err)
			}
			req.Tags = true
			forEachFS(t, c.MapFS, func(t *testing.T, s scout.Searcher) {
				r, err := s.Search(context.Background(), req)
				if err != nil {
					t.Fatal(err)
				}
				text, _ := format.SearchText(r, nil)
				js, _ := json.MarshalIndent(r, "", "  ")
				if testfs.Updating() && strings.HasSuffix(t.Name(), "/dir") {
					return // the MapFS run wrote the expectations
				}
				c.Check(t, "want.txt", []byte(text))
				c.Check(t, "want.json", js)
			})
		})
	}
}

// TestSearchHugeWorkers: Workers past what a search can use is capped:
// math.MaxInt made a channel of that size (a panic), and a million
// started a million goroutines (2.8 GB).
func TestSearchHugeWorkers(t *testing.T) {
	tree := fstest.MapFS{"a.txt": {Data: []byte("hit\n")}, "d/b.txt": {Data: []byte("hit\n")}}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		s.Workers = math.MaxInt
		for _, unordered := range []bool{true, false} {
			r, err := s.StreamFunc(context.Background(), scout.SearchRequest{Pattern: "hit", Unordered: unordered}, func(*scout.FileMatch) bool { return true })
			require.NoError(t, err)
			assert.Equal(t, 2, r.TotalFiles, "unordered=%v", unordered)
		}
		r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit"})
		require.NoError(t, err)
		assert.Equal(t, 2, r.TotalFiles)
	})
}

// TestSearchTagNotebook: a notebook is searched as its JSON but read as
// its cells, so the two number different lines and tag different texts;
// a search without Tags carries no tag at all, and its text shows
// numbered rows, not another tag.
func TestSearchTagNotebook(t *testing.T) {
	nb := `{"cells":[{"cell_type":"code","source":["func x\n"],"metadata":{},"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5}`
	tree := fstest.MapFS{"n.ipynb": {Data: []byte(nb)}, "a.go": {Data: []byte("package a\n\nfunc A() {}\n")}}
	ws := scout.Workspace{FS: tree}
	read := func(p string) string {
		res, err := (&scout.Reader{Workspace: ws}).Read(context.Background(), scout.ReadRequest{Path: p})
		require.NoError(t, err)
		return res.Tag
	}
	tags := map[string]string{}
	for _, withTags := range []bool{false, true} {
		res, err := (&scout.Searcher{Workspace: ws}).Search(context.Background(), scout.SearchRequest{Pattern: "func", Tags: withTags})
		require.NoError(t, err)
		for _, f := range res.Files {
			if !withTags {
				assert.Empty(t, f.Tag, "%s: no Tags, no tag", f.Path)
				continue
			}
			tags[f.Path] = f.Tag
		}
	}
	assert.Equal(t, read("a.go"), tags["a.go"], "the same text, the same tag")
	assert.Equal(t, hashline.Tag([]byte(nb)), tags["n.ipynb"], "a notebook's search tags its JSON, the text it numbers")
	assert.NotEqual(t, read("n.ipynb"), tags["n.ipynb"], "a notebook's read tags its cells, the text it numbers")
}
