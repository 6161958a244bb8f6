package format

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
)

// TestNilResults: a nil result renders as nothing, a nil file of a stream
// too, and a stream's End with nil totals says what an empty result says,
// instead of a panic.
func TestNilResults(t *testing.T) {
	text, cut := SearchText(nil, nil)
	assert.Equal(t, "", text)
	assert.False(t, cut)
	text, cut = FindText(nil, nil)
	assert.Equal(t, "", text)
	assert.False(t, cut)
	assert.Equal(t, "", ReadText(nil, nil))
	var s SearchStream
	assert.Equal(t, "", s.File(nil))
	assert.Equal(t, s.End(&scout.SearchResult{}), s.End(nil))
}

// TestUnknownStyle: a style other than the three named is the hashline
// style, in a read, a search and a stream alike, not a mix of styles.
func TestUnknownStyle(t *testing.T) {
	read := &scout.ReadResult{Kind: scout.ReadKindText, Path: "a.go", Tag: "ABCD", TotalLines: 1,
		Blocks: []scout.ReadBlock{{Start: 1, Lines: []scout.ReadLine{{N: 1, Text: "package a"}}}}}
	fm := scout.FileMatch{Path: "a.go", Tag: "ABCD", Single: true, MatchLines: 1, Matches: 1,
		Lines: []scout.LineMatch{{Line: 1, Text: "package a", Match: true, Spans: []scout.Span{{Start: 0, End: 7}}}}}
	search := &scout.SearchResult{Single: true, TotalFiles: 1, TotalMatchLines: 1, TotalMatches: 1, Files: []scout.FileMatch{fm}}
	for _, style := range []string{"bogus", "Hashline", "NUMBERED"} {
		assert.Equal(t, ReadText(read, &ReadOptions{Style: StyleHashline}), ReadText(read, &ReadOptions{Style: style}), "read, style %q", style)
		want, _ := SearchText(search, &SearchOptions{Style: StyleHashline})
		got, _ := SearchText(search, &SearchOptions{Style: style})
		assert.Equal(t, want, got, "search, style %q", style)
		hs, us := SearchStream{Options: &SearchOptions{Style: StyleHashline}}, SearchStream{Options: &SearchOptions{Style: style}}
		assert.Equal(t, hs.File(&fm), us.File(&fm), "stream, style %q", style)
	}
}
