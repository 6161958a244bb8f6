package scout_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/textio"
)

// TestDefaults checks that a zero limit means its Default constant and a
// negative one means no limit (the most a read shows, for a read).
func TestDefaults(t *testing.T) {
	var big strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&big, "hit %d\n", i)
	}
	tree := fstest.MapFS{"big.txt": {Data: []byte(big.String())}}
	for i := range 300 {
		tree[fmt.Sprintf("d/f%03d.txt", i)] = &fstest.MapFile{Data: []byte(strings.Repeat("hit\n", 30))}
	}
	ws := scout.Workspace{FS: tree}
	ctx := context.Background()

	reads := []struct {
		limit, want int
		reason      string
	}{
		{0, scout.DefaultReadLimit, "0 means DefaultReadLimit"},
		{-1, 3000, "negative means the most a read shows"},
		{5000, 3000, "above the most a read shows: the most"},
		{7, 7, "a limit of its own"},
	}
	for _, tt := range reads {
		res, err := (&scout.Reader{Workspace: ws, DefaultLimit: tt.limit}).Read(ctx, scout.ReadRequest{Path: "big.txt"})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(res.Blocks[0].Lines); got != tt.want {
			t.Errorf("%s: DefaultLimit %d shows %d lines, want %d", tt.reason, tt.limit, got, tt.want)
		}
	}

	s := scout.Searcher{Workspace: ws}
	searches := []struct {
		req                  scout.SearchRequest
		files, perFile, cols int
		reason               string
	}{
		{scout.SearchRequest{Pattern: "hit", Paths: []string{"d"}}, scout.DefaultMaxFiles, scout.DefaultMaxMatchesPerFile, 0, "a page of DefaultMaxFiles files of DefaultMaxMatchesPerFile lines"},
		{scout.SearchRequest{Pattern: "hit", Paths: []string{"big.txt"}}, 1, 200, 0, "one file shows up to 200 lines"},
		{scout.SearchRequest{Pattern: "hit", Paths: []string{"d"}, MaxFiles: -1, MaxMatchesPerFile: -1, MaxMatches: -1}, 300, 30, 0, "negative: no limits"},
	}
	for _, tt := range searches {
		res, err := s.Search(ctx, tt.req)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != tt.files || res.Files[0].MatchLines != tt.perFile {
			t.Errorf("%s: %d files, %d lines in the first; want %d and %d", tt.reason, len(res.Files), res.Files[0].MatchLines, tt.files, tt.perFile)
		}
	}
	long := fstest.MapFS{"l.txt": {Data: []byte(strings.Repeat("x", 600) + "\n")}}
	res, err := (&scout.Searcher{Workspace: scout.Workspace{FS: long}}).Search(ctx, scout.SearchRequest{Pattern: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if res.MaxColumns != scout.DefaultMaxColumns || len([]rune(res.Files[0].Lines[0].Text)) != scout.DefaultMaxColumns {
		t.Errorf("lines are cut at DefaultMaxColumns: max %d, %d characters", res.MaxColumns, len([]rune(res.Files[0].Lines[0].Text)))
	}

	found, err := (&scout.Finder{Workspace: ws}).Find(ctx, scout.FindRequest{Patterns: []string{"d"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Entries) != scout.DefaultFindLimit || found.Truncated != scout.TruncLimit {
		t.Errorf("find returns DefaultFindLimit entries: %d, %q", len(found.Entries), found.Truncated)
	}
	found, err = (&scout.Finder{Workspace: ws}).Find(ctx, scout.FindRequest{Patterns: []string{"d"}, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Entries) != 300 || found.Truncated != "" {
		t.Errorf("a negative find limit: %d entries, %q; want all 300", len(found.Entries), found.Truncated)
	}
}

// TestDefaultsAgree: the engines' own defaults are the documented ones.
func TestDefaultsAgree(t *testing.T) {
	assert.Equal(t, textio.DefaultLimit, scout.DefaultReadLimit)
	assert.Equal(t, textio.MaxLimit, 3000, "the most a read shows, as the docs say")
}
