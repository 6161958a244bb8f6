package scout_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSearchCountBudget: the MaxMatches budget stops a count early but
// never cuts the counts of the files it returns (the round robin that
// deals a content page's lines out applied to counts too, so a file of 3
// matching lines could report 1).
func TestSearchCountBudget(t *testing.T) {
	tree := fstest.MapFS{}
	for i := range 6 {
		tree[fmt.Sprintf("f%d.txt", i)] = &fstest.MapFile{Data: []byte(strings.Repeat("hit\n", 3))}
	}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		for _, mode := range []scout.SearchMode{scout.SearchCount, scout.SearchFiles} {
			r, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "hit", Mode: mode, MaxFiles: -1, MaxMatches: 4})
			if err != nil {
				t.Fatal(err)
			}
			want := 3
			if mode == scout.SearchFiles {
				want = 1
			}
			for _, f := range r.Files {
				if f.MatchLines != want {
					t.Errorf("mode %v: %s counts %d, want %d", mode, f.Path, f.MatchLines, want)
				}
			}
			if r.Truncated != scout.TruncBudget || len(r.Files) == 0 || len(r.Files) == 6 {
				t.Errorf("mode %v: %d files, truncated %q; want the budget to stop the scan", mode, len(r.Files), r.Truncated)
			}
		}
	})
}

// TestBudgetCutMatches: a file whose lines the MaxMatches budget cut counts
// the matches of the lines kept, as MaxMatchesPerFile's cut does.
func TestBudgetCutMatches(t *testing.T) {
	tree := fstest.MapFS{
		"a.txt": {Data: []byte(strings.Repeat("hit hit\n", 3))},
		"b.txt": {Data: []byte(strings.Repeat("hit hit\n", 3))},
	}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		for _, req := range []scout.SearchRequest{
			{Pattern: "hit", MaxMatches: 4},
			{Pattern: "hit", MaxMatchesPerFile: 1},
		} {
			r, err := s.Search(context.Background(), req)
			require.NoError(t, err)
			require.Len(t, r.Files, 2)
			for _, f := range r.Files {
				assert.True(t, f.Limited, "%s: %+v", f.Path, req)
				assert.Equal(t, 2*f.MatchLines, f.Matches, "%s: %+v", f.Path, req)
			}
		}
	})
}
