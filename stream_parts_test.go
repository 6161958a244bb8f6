package scout_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
)

// partsTree holds files of many matching lines among small ones.
func partsTree() fstest.MapFS {
	var many, crlf strings.Builder
	for i := 1; i <= 200; i++ {
		if i%4 == 0 {
			fmt.Fprintf(&many, "plain %d\n", i)
		} else {
			fmt.Fprintf(&many, "a hit %d hit\n", i)
		}
		if i <= 50 {
			fmt.Fprintf(&crlf, "hit %d\r\n", i)
		}
	}
	return fstest.MapFS{
		"a.txt":        {Data: []byte("one hit\n")},
		"many.txt":     {Data: []byte(many.String())},
		"src/crlf.txt": {Data: []byte(crlf.String() + "hit without newline")},
		"src/none.txt": {Data: []byte("nothing\n")},
		"z.txt":        {Data: []byte("x\nhit\ny\nhit\n")},
	}
}

// joinParts joins the parts a stream yields into whole files, checking
// that each file's parts come one after the other, hold at most n matching
// lines each, and have More set on all but the last.
func joinParts(t *testing.T, parts []scout.FileMatch, n int) []scout.FileMatch {
	t.Helper()
	var files []scout.FileMatch
	open := false // the last file has more parts to come
	for _, p := range parts {
		if n > 0 {
			assert.LessOrEqual(t, p.MatchLines, n, "a part of %s holds at most %d matching lines", p.Path, n)
		}
		if open {
			last := &files[len(files)-1]
			require.Equal(t, last.Path, p.Path, "the parts of a file come one after the other")
			assert.Equal(t, last.Tag, p.Tag, "every part has the file's tag")
			last.Lines = append(last.Lines, p.Lines...)
			last.MatchLines += p.MatchLines
			last.Matches += p.Matches
			last.Limited, last.More = p.Limited, p.More
		} else {
			files = append(files, p)
		}
		open = p.More
	}
	assert.False(t, open, "the last part has More false")
	for i := range files {
		files[i].Single = false // Search's files do not say it
	}
	return files
}

// TestStreamParts: with PartLines, StreamFunc yields files of more
// matching lines in parts that, joined, are Search's files, with Search's
// totals, in path order or as searched, with contexts, limits and tags.
func TestStreamParts(t *testing.T) {
	forEachFS(t, partsTree(), func(t *testing.T, s scout.Searcher) {
		ctx := context.Background()
		reqs := []scout.SearchRequest{
			{Pattern: "hit"},
			{Pattern: "hit", Before: 1, After: 3, Tags: true},
			{Pattern: "hit", Before: 3, After: 3},
			{Pattern: "hit", After: 1, MaxMatchesPerFile: 10},
			{Pattern: `hit \d+[02468]\b`, Before: 2, After: 1, Tags: true},
			{Pattern: "hit", Paths: []string{"many.txt"}, Before: 1, After: 1, Tags: true},
			{Pattern: "hit", Paths: []string{"many.txt:20-90"}, Before: 1, After: 1},
		}
		for _, base := range reqs {
			base.MaxFiles, base.MaxMatches = -1, -1
			if base.MaxMatchesPerFile == 0 {
				base.MaxMatchesPerFile = -1
			}
			want, err := s.Search(ctx, base)
			require.NoError(t, err)
			require.NotEmpty(t, want.Files)
			for _, n := range []int{1, 3, 7} {
				for _, unordered := range []bool{false, true} {
					req := base
					req.PartLines, req.Unordered = n, unordered
					name := fmt.Sprintf("%q %v, parts of %d, unordered %v", req.Pattern, req.Paths, n, unordered)
					var parts []scout.FileMatch
					res, err := s.StreamFunc(ctx, req, func(f *scout.FileMatch) bool {
						parts = append(parts, *f)
						assert.Equal(t, want.Single, f.Single, "%s: Single on %s", name, f.Path)
						return true
					})
					require.NoError(t, err)
					assert.Greater(t, len(parts), len(want.Files), "%s: some file comes in parts", name)
					got := joinParts(t, parts, n)
					if unordered {
						sort.Slice(got, func(i, j int) bool { return got[i].Path < got[j].Path })
					}
					assert.Equal(t, want.Files, got, name)
					totals := *want
					totals.Files = nil
					assert.Equal(t, &totals, res, "%s: the totals", name)
				}
			}
		}

		// Search ignores PartLines; a negative one is an error.
		req := scout.SearchRequest{Pattern: "hit", Paths: []string{"many.txt"}, MaxMatchesPerFile: -1}
		whole, err := s.Search(ctx, req)
		require.NoError(t, err)
		req.PartLines = 2
		res, err := s.Search(ctx, req)
		require.NoError(t, err)
		assert.Equal(t, whole, res, "Search holds files whole")
		req.PartLines = -1
		_, err = s.StreamFunc(ctx, req, func(*scout.FileMatch) bool { return true })
		assert.Equal(t, scout.CodeInvalidParam, scout.CodeOf(err))
	})
}

// TestStreamPartsStop: returning false in the middle of a file's parts
// stops the search; canceling the context there fails the call promptly
// with CodeCanceled, in path order or as searched (the search of the file
// going on stops, and the stop is the cancel's, not the host's).
func TestStreamPartsStop(t *testing.T) {
	forEachFS(t, partsTree(), func(t *testing.T, s scout.Searcher) {
		req := scout.SearchRequest{Pattern: "hit", Paths: []string{"many.txt", "z.txt"}, MaxMatchesPerFile: -1, PartLines: 2}
		n := 0
		_, err := s.StreamFunc(context.Background(), req, func(f *scout.FileMatch) bool {
			n++
			return n < 3
		})
		require.NoError(t, err)
		assert.Equal(t, 3, n, "no part after the one that stopped")

		for _, unordered := range []bool{false, true} {
			ctx, cancel := context.WithCancel(context.Background())
			n = 0
			req.PartLines, req.Unordered = 1, unordered
			res, err := s.StreamFunc(ctx, req, func(f *scout.FileMatch) bool {
				if n++; n == 2 {
					cancel()
				}
				return true
			})
			cancel()
			assert.Equal(t, scout.CodeCanceled, scout.CodeOf(err), "unordered %v: %v", unordered, err)
			assert.Nil(t, res, "unordered %v", unordered)
			// After the cancel: many.txt's parts until the next check (every
			// 64 matching lines), and z.txt's two, searched meanwhile by a
			// worker when unordered.
			assert.LessOrEqual(t, n, 2+64+2, "unordered %v: the parts after the cancel: at most those until the next check", unordered)
		}
	})
}
