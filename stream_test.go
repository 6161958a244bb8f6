package scout_test

import (
	"context"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
)

// TestSearchStreamFunc: StreamFunc yields what Search finds, in path order
// or as searched, and returns Search's totals without the files; Progress
// counts every file searched with its size.
func TestSearchStreamFunc(t *testing.T) {
	forEachFS(t, searchTree(), func(t *testing.T, s scout.Searcher) {
		ctx := context.Background()
		base := scout.SearchRequest{Pattern: "hit", Paths: []string{".", "nope"}, MaxFiles: -1, MaxMatches: -1}
		want, err := s.Search(ctx, base)
		require.NoError(t, err)
		for _, unordered := range []bool{false, true} {
			req := base
			req.Unordered = unordered
			var mu sync.Mutex
			var files int
			var size int64
			req.Progress = func(n int64) {
				mu.Lock() // StreamFunc promises one call at a time; the lock lets the race detector check it
				defer mu.Unlock()
				files++
				size += n
			}
			var got []scout.FileMatch
			res, err := s.StreamFunc(ctx, req, func(f *scout.FileMatch) bool {
				got = append(got, *f)
				return true
			})
			require.NoError(t, err)
			if unordered {
				sort.Slice(got, func(i, j int) bool { return got[i].Path < got[j].Path })
			}
			assert.Equal(t, want.Files, got, "unordered=%v: the same files as Search", unordered)
			totals := *want
			totals.Files = nil
			assert.Equal(t, &totals, res, "unordered=%v: Search's totals without the files", unordered)
			assert.Equal(t, want.Searched, files, "unordered=%v: Progress is called once per file searched", unordered)
			assert.Greater(t, size, int64(2000), "unordered=%v: Progress gets the sizes (big.txt alone has 2005 bytes)", unordered)
		}

		// Stopping early stops the search; the totals cover what was seen.
		n := 0
		res, err := s.StreamFunc(ctx, base, func(*scout.FileMatch) bool { n++; return n < 2 })
		require.NoError(t, err)
		assert.Equal(t, 2, n)
		assert.Equal(t, 2, res.TotalFiles, "the totals when fn stops at the second file")

		_, err = s.StreamFunc(ctx, scout.SearchRequest{Pattern: "("}, func(*scout.FileMatch) bool { return true })
		assert.Equal(t, scout.CodeInvalidParam, scout.CodeOf(err), "a bad pattern is the call's error")
	})
}

// TestSearchUnorderedIgnored: Search returns its page in path order even
// when the request asks a stream for no order.
func TestSearchUnorderedIgnored(t *testing.T) {
	s := scout.Searcher{Workspace: scout.Workspace{FS: searchTree()}}
	res, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Unordered: true, MaxFiles: -1, MaxMatches: -1})
	require.NoError(t, err)
	paths := make([]string, len(res.Files))
	for i, f := range res.Files {
		paths[i] = f.Path
	}
	assert.True(t, slices.IsSorted(paths), "Search's files are in path order: %v", paths)
}
