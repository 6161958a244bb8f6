package scout_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

func archiveTree() fstest.MapFS {
	return fstest.MapFS{
		"dist/a.zip": {Data: testfs.Zip(
			testfs.Member{Name: "src/x.ts", Body: "const a = 1\nhit here\n"},
			testfs.Member{Name: "src/y.ts", Body: "nothing\n"},
			testfs.Member{Name: "src/link.ts", Link: "hit.ts"}, // a link's data is its target: not searched
			testfs.Member{Name: "docs/guide.md", Body: "a hit in the docs\n"},
			testfs.Member{Name: "logo.png", Body: "\x89PNG\x00\x00hit"},
			testfs.Member{Name: ".cache/old.txt", Body: "hit cached\n"},
			testfs.Member{Name: "big.txt", Body: strings.Repeat("x", 3000) + "\nhit\n"},
		)},
		"pkg.tgz":     {Data: testfs.Tgz(testfs.Member{Name: "lib/y.go", Body: "package y\n// hit\n"}, testfs.Member{Name: "bin/tool", Body: "\x00hit"})},
		"pkg.tar":     {Data: testfs.Tar(testfs.Member{Name: "a/one.txt", Body: "hit one\n"}, testfs.Member{Name: "a/link.txt", Link: "one.txt"}, testfs.Member{Name: "../evil.txt", Body: "hit\n"})},
		"fake.zip":    {Data: []byte("not a zip, but a hit\n")},
		"fake.tar":    {Data: []byte("not a tar, but a hit\n")},
		"fake.tar.gz": {Data: []byte("not a tar.gz, but a hit\n")},
		"bad.tar":     {Data: corruptTar()},
		"src/m.go":    {Data: []byte("// hit\n")},
	}
}

// corruptTar is a tar whose first member is whole and holds no hit, and
// whose second header is corrupt.
func corruptTar() []byte {
	b := testfs.Tar(testfs.Member{Name: "a.txt", Body: "nothing\n"}, testfs.Member{Name: "b.txt", Body: "hit\n"})
	copy(b[1024+148:], "garbage!") // the second header's checksum
	return b
}

// TestSearchArchive: an archive named as a path is searched member by
// member, members shown as "archive:member" (a zip's in name order, a
// tar's in archive order); members the search cannot use are counted,
// never dropped silently.
func TestSearchArchive(t *testing.T) {
	tests := []struct {
		name    string
		req     scout.SearchRequest
		want    string
		skipped map[scout.SkipReason]int
		reason  string
		single  bool
	}{
		{
			name:    "zip",
			req:     scout.SearchRequest{Pattern: "hit", Paths: []string{"dist/a.zip"}, MaxFileSize: 1000},
			want:    "dist/a.zip:docs/guide.md:1/1 virtual;dist/a.zip:src/x.ts:1/1 virtual; total=2 next=0 trunc=\"\"",
			skipped: map[scout.SkipReason]int{scout.SkipBinary: 1, scout.SkipHidden: 1, scout.SkipTooLarge: 1, scout.SkipSymlink: 1},
			reason:  "text members are searched; a binary, a hidden, an over-size and a link member are counted",
		},
		{
			name:    "zip hidden",
			req:     scout.SearchRequest{Pattern: "hit", Paths: []string{"dist/a.zip"}, Hidden: true},
			want:    "dist/a.zip:.cache/old.txt:1/1 virtual;dist/a.zip:big.txt:1/1 virtual;dist/a.zip:docs/guide.md:1/1 virtual;dist/a.zip:src/x.ts:1/1 virtual; total=4 next=0 trunc=\"\"",
			skipped: map[scout.SkipReason]int{scout.SkipBinary: 1, scout.SkipSymlink: 1},
			reason:  "Hidden includes members under a dot directory, as it includes hidden files",
		},
		{
			name:    "tgz",
			req:     scout.SearchRequest{Pattern: "hit", Paths: []string{"pkg.tgz"}},
			want:    "pkg.tgz:lib/y.go:1/1 virtual; total=1 next=0 trunc=\"\"",
			skipped: map[scout.SkipReason]int{scout.SkipBinary: 1},
			reason:  "a .tgz is searched the same way",
		},
		{
			name:    "tar",
			req:     scout.SearchRequest{Pattern: "hit", Paths: []string{"pkg.tar"}},
			want:    "pkg.tar:a/one.txt:1/1 virtual; total=1 next=0 trunc=\"\"",
			skipped: map[scout.SkipReason]int{scout.SkipSymlink: 1, scout.SkipUnreadable: 1},
			reason:  "a link member is not followed and an entry leaving the archive is not searched: both counted",
		},
		{
			name:    "directory inside",
			req:     scout.SearchRequest{Pattern: "hit", Paths: []string{"dist/a.zip:src/"}},
			want:    "dist/a.zip:src/x.ts:1/1 virtual; total=1 next=0 trunc=\"\"",
			skipped: map[scout.SkipReason]int{scout.SkipSymlink: 1},
			reason:  "a directory inside an archive is searched, and nothing outside it",
		},
		{
			name:   "glob inside",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"dist/a.zip:*.md"}},
			want:   "dist/a.zip:docs/guide.md:1/1 virtual; total=1 next=0 trunc=\"\"",
			reason: "a bare glob inside an archive is recursive, as at the root",
		},
		{
			name:    "globs and types",
			req:     scout.SearchRequest{Pattern: "hit", Paths: []string{"dist/a.zip"}, Globs: []string{"*.ts"}},
			want:    "dist/a.zip:src/x.ts:1/1 virtual; total=1 next=0 trunc=\"\"",
			skipped: map[scout.SkipReason]int{scout.SkipSymlink: 1},
			reason:  "Globs filter members by their path inside the archive",
		},
		{
			name:    "named twice",
			req:     scout.SearchRequest{Pattern: "hit", Paths: []string{"dist/a.zip:src", "dist/a.zip"}, MaxFileSize: 1000},
			want:    "dist/a.zip:docs/guide.md:1/1 virtual;dist/a.zip:src/x.ts:1/1 virtual; total=2 next=0 trunc=\"\"",
			skipped: map[scout.SkipReason]int{scout.SkipBinary: 1, scout.SkipHidden: 1, scout.SkipTooLarge: 1, scout.SkipSymlink: 1},
			reason:  "a member is searched (and counted) once when the archive and a directory in it are both named",
		},
		{
			name:    "archive with a directory",
			req:     scout.SearchRequest{Pattern: "hit", Paths: []string{"src", "pkg.tgz"}},
			want:    "pkg.tgz:lib/y.go:1/1 virtual;src/m.go:1/1; total=2 next=0 trunc=\"\"",
			skipped: map[scout.SkipReason]int{scout.SkipBinary: 1},
			reason:  "members take the archive's place in path order",
		},
		{
			name:    "walked archives are files",
			req:     scout.SearchRequest{Pattern: "hit", Globs: []string{"*.zip", "*.tgz"}},
			want:    "fake.zip:1/1; total=1 next=0 trunc=\"\"",
			skipped: map[scout.SkipReason]int{scout.SkipBinary: 2},
			reason:  "an archive met in a directory walk is not expanded (as rg without -z): searched as a file, binary",
		},
		{
			name:   "not an archive",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"fake.zip"}},
			want:   "fake.zip:1/1; total=1 next=0 trunc=\"\"",
			reason: "a text file named like an archive is searched as a file",
			single: true,
		},
		{
			name:   "not a tar",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"fake.tar"}},
			want:   "fake.tar:1/1; total=1 next=0 trunc=\"\"",
			reason: "a text file named .tar is a file too: its first header is no tar header",
			single: true,
		},
		{
			name:   "not a tar.gz",
			req:    scout.SearchRequest{Pattern: "hit", Paths: []string{"fake.tar.gz"}},
			want:   "fake.tar.gz:1/1; total=1 next=0 trunc=\"\"",
			reason: "and one named .tar.gz: it is no gzip stream",
			single: true,
		},
		{
			name:    "corrupt tar",
			req:     scout.SearchRequest{Pattern: "hit", Paths: []string{"bad.tar", "src"}},
			want:    "src/m.go:1/1; total=1 next=0 trunc=\"\"",
			skipped: map[scout.SkipReason]int{scout.SkipUnreadable: 1},
			reason:  "a tar corrupt after its first member is counted as unreadable, with its error",
		},
	}
	forEachFS(t, archiveTree(), func(t *testing.T, s scout.Searcher) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r, err := s.Search(context.Background(), tt.req)
				if err != nil {
					t.Fatalf("%s: %v", tt.reason, err)
				}
				if got := summary(r); got != tt.want {
					t.Errorf("%s\n got: %s\nwant: %s", tt.reason, got, tt.want)
				}
				want := tt.skipped
				if want == nil {
					want = map[scout.SkipReason]int{}
				}
				got := map[scout.SkipReason]int{}
				for k, n := range r.Skipped {
					if k != scout.SkipIgnored && n > 0 {
						got[k] = n
					}
				}
				assert.Equal(t, want, got, "%s: skipped", tt.reason)
				if r.Single != tt.single {
					t.Errorf("%s: Single = %v: an archive is a multi-file scope, a file a single one", tt.reason, r.Single)
				}
				all := tt.req
				all.MaxFiles, all.MaxMatches = -1, -1
				r2, err := s.Search(context.Background(), all)
				require.NoError(t, err, "%s: unlimited", tt.reason)
				assert.Equal(t, tt.want, summary(r2), "%s: unlimited (walk and search overlapping)", tt.reason)
				assert.Equal(t, r.Skipped, r2.Skipped, "%s: unlimited (walk and search overlapping)", tt.reason)
			})
		}
	})
}

// TestSearchArchiveErrors: what cannot be searched inside an archive is a
// clear error.
func TestSearchArchiveErrors(t *testing.T) {
	tests := []struct {
		req  scout.SearchRequest
		code scout.Code
		want string
	}{
		{scout.SearchRequest{Pattern: "hit", Paths: []string{"dist/a.zip:nope/"}}, scout.CodeNotFound, "Path 'dist/a.zip:nope/' not found inside archive"},
		{scout.SearchRequest{Pattern: "hit", Paths: []string{"dist/a.zip:src/x.ts/*.go"}}, scout.CodeInvalidParam, "is a file inside the archive, so the glob after it matches nothing"},
		{scout.SearchRequest{Pattern: "hit", Paths: []string{"pkg.tgz"}, Lines: []scout.Range{{Start: 1, End: 5}}}, scout.CodeInvalidParam, "pkg.tgz is an archive; name one member"},
	}
	forEachFS(t, archiveTree(), func(t *testing.T, s scout.Searcher) {
		for _, tt := range tests {
			_, err := s.Search(context.Background(), tt.req)
			if scout.CodeOf(err) != tt.code || err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%v: %v, want %s %q", tt.req.Paths, err, tt.code, tt.want)
			}
		}
	})
}

// TestSearchArchiveError: the error of an archive that the search could
// not read to its end is kept as a sample for the caller.
func TestSearchArchiveError(t *testing.T) {
	s := scout.Searcher{Workspace: scout.Workspace{FS: archiveTree()}}
	r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Paths: []string{"bad.tar", "src"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []scout.SkippedPath{{Path: "bad.tar", Reason: scout.SkipUnreadable, Code: scout.CodeUnsupported,
		Message: "Cannot read archive 'bad.tar': it is corrupt or truncated (archive/tar: invalid tar header)"}}
	assert.Equal(t, want, r.SkippedPaths)
}

// TestSearchUnreadableMember: a member entry whose archive cannot be read
// (a zip or a tar that is none) is a named SkippedPath, unreadable with
// what failed, not counted in Skipped; an unreadable archive found by the
// search is a sample of what Skipped counts, not named.
func TestSearchUnreadableMember(t *testing.T) {
	forEachFS(t, archiveTree(), func(t *testing.T, s scout.Searcher) {
		r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Paths: []string{"fake.zip:src/x.ts", "fake.tar:src/x.ts", "bad.tar", "src"}})
		require.NoError(t, err)
		require.Len(t, r.SkippedPaths, 3)
		assert.Equal(t, scout.SkippedPath{Path: "fake.zip:src/x.ts", Reason: scout.SkipUnreadable, Code: scout.CodeUnsupported, Message: "not a valid zip file", Named: true}, r.SkippedPaths[0])
		assert.Equal(t, scout.SkippedPath{Path: "fake.tar:src/x.ts", Reason: scout.SkipUnreadable, Code: scout.CodeUnsupported, Message: "it is corrupt or truncated (unexpected EOF)", Named: true}, r.SkippedPaths[1])
		assert.Equal(t, "bad.tar", r.SkippedPaths[2].Path)
		assert.False(t, r.SkippedPaths[2].Named, "a sample of a counted failure")
		assert.Equal(t, map[scout.SkipReason]int{scout.SkipUnreadable: 1}, r.Skipped, "the named entries are not counted")
		assert.Len(t, r.Files, 1)
	})
}

// TestSearchArchiveLeavingEntriesCounted: each archive entry whose name
// leaves the archive is counted once as unreadable, whether the search
// pages, streams in path order or streams as found, and whatever else
// the request names.
func TestSearchArchiveLeavingEntriesCounted(t *testing.T) {
	tree := fstest.MapFS{
		"evil.tar": {Data: testfs.Tar(
			testfs.Member{Name: "../a.txt", Body: "hit\n"},
			testfs.Member{Name: "x/../../b.txt", Body: "hit\n"},
			testfs.Member{Name: "ok.txt", Body: "hit\n"},
		)},
		"src/m.go": {Data: []byte("// hit\n")},
	}
	want := map[scout.SkipReason]int{scout.SkipUnreadable: 2}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		for _, paths := range [][]string{{"evil.tar"}, {"evil.tar", "src"}} {
			for _, pattern := range []string{"hit", "absent"} {
				req := scout.SearchRequest{Pattern: pattern, Paths: paths}
				r, err := s.Search(context.Background(), req)
				require.NoError(t, err)
				assert.Equal(t, want, r.Skipped, "Search %v %q", paths, pattern)
				for _, unordered := range []bool{false, true} {
					req.Unordered = unordered
					r, err := s.StreamFunc(context.Background(), req, func(*scout.FileMatch) bool { return true })
					require.NoError(t, err)
					assert.Equal(t, want, r.Skipped, "StreamFunc %v %q unordered=%v", paths, pattern, unordered)
				}
			}
		}
	})
}
