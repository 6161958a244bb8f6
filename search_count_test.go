package scout_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
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
