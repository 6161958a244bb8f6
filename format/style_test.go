package format

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/pitext"
)

// TestStylesAgree: a style prints a line of a file the same way in a
// search, a read and a code summary (a search adds its '*' mark to a
// match, and its ' ' mark to context in the plain style).
func TestStylesAgree(t *testing.T) {
	line := func(n int, text string) scout.ReadLine { return scout.ReadLine{N: n, Text: text} }
	read := &scout.ReadResult{Kind: scout.ReadKindText, Path: "a.go", Tag: "ABCD", TotalLines: 3,
		Blocks: []scout.ReadBlock{{Start: 1, Lines: []scout.ReadLine{line(1, "package a"), line(2, "func F() {"), line(3, "}")}}}}
	sum := &scout.ReadResult{Kind: scout.ReadKindSummary, Path: "a.go", Tag: "ABCD", TotalLines: 5,
		Blocks:  []scout.ReadBlock{{Start: 1, Lines: []scout.ReadLine{line(1, "package a"), line(2, "func F() {"), line(5, "}")}}},
		Summary: &scout.ReadSummary{Lines: 5, Elided: []scout.ElidedSpan{{Start: 3, End: 4, Lines: 2}}, ElidedLines: 2}}
	const footer = "\n\n[2 lines elided; re-read needed ranges, e.g. a.go:3-4]"
	search := &scout.SearchResult{Single: true, Files: []scout.FileMatch{{Path: "a.go", Tag: "ABCD", Lines: []scout.LineMatch{
		{Line: 1, Text: "package a"}, {Line: 2, Text: "func F() {", Match: true}, {Line: 3, Text: "}"}}}}}
	tests := []struct {
		style             string
		read, sum, search string
		reason            string
	}{
		{StyleHashline, "¶a.go#ABCD\n1:package a\n2:func F() {\n3:}", "¶a.go#ABCD\n1:package a\n2:func F() {\n...\n5:}" + footer, "¶a.go#ABCD\n1:package a\n*2:func F() {\n3:}",
			"N: rows under the ¶path#TAG header"},
		{StyleNumbered, "1|package a\n2|func F() {\n3|}", "1|package a\n2|func F() {\n...\n5|}" + footer, "1|package a\n*2|func F() {\n3|}",
			"N| rows, no header"},
		{StylePlain, "package a\nfunc F() {\n}", "package a\nfunc F() {\n...\n}" + footer, " package a\n*func F() {\n }",
			"the text alone"},
	}
	for _, tt := range tests {
		if got := ReadText(read, &ReadOptions{Style: tt.style}); got != tt.read {
			t.Errorf("%s read (%s):\n got %q\nwant %q", tt.style, tt.reason, got, tt.read)
		}
		if got := ReadText(sum, &ReadOptions{Style: tt.style}); got != tt.sum {
			t.Errorf("%s summary (%s):\n got %q\nwant %q", tt.style, tt.reason, got, tt.sum)
		}
		if got, _ := SearchText(search, &SearchOptions{Style: tt.style}); got != tt.search {
			t.Errorf("%s search (%s):\n got %q\nwant %q", tt.style, tt.reason, got, tt.search)
		}
	}
	// A merged summary row (a body's braces kept around its elided
	// interior) shows the range it stands for.
	merged := &scout.ReadResult{Kind: scout.ReadKindSummary, Path: "a.go",
		Blocks:  []scout.ReadBlock{{Start: 1, Lines: []scout.ReadLine{line(4, "x {"), line(6, "y }")}}},
		Summary: &scout.ReadSummary{Lines: 6, Elided: []scout.ElidedSpan{{Start: 4, End: 6, Lines: 1, Merged: true}}, ElidedLines: 1}}
	const mfooter = "\n\n[1 line elided; re-read needed ranges, e.g. a.go:4-6]"
	for style, want := range map[string]string{StyleHashline: "4-6:x { .. y }", StyleNumbered: "4-6|x { .. y }", StylePlain: "x { .. y }"} {
		if got := ReadText(merged, &ReadOptions{Style: style}); got != want+mfooter {
			t.Errorf("%s merged row: got %q, want %q", style, got, want+mfooter)
		}
	}
}

func TestSearchStream(t *testing.T) {
	files := []scout.FileMatch{
		{Path: "src/b.go", Tag: "BBBB", Lines: []scout.LineMatch{match(2, "b"), ctxLine(3, "c"), match(9, "d")}},
		{Path: "src/c.go", Tag: "CCCC", Lines: []scout.LineMatch{match(1, "e")}},
		{Path: "a.txt", Lines: []scout.LineMatch{{Line: 1, Text: "aaa", Match: true, Cut: true}}, MatchLines: 1},
		{Path: "src/d.go", Tag: "DDDD", Lines: []scout.LineMatch{match(4, "f")}},
	}
	tests := []struct {
		name   string
		s      SearchStream
		files  []scout.FileMatch
		end    scout.SearchResult
		want   string
		reason string
	}{
		{"content", SearchStream{}, files, scout.SearchResult{MaxColumns: 3, MissingPaths: []string{"x"}},
			"# src/b.go#BBBB\n*2:b\n3:c\n...\n*9:d\n\n# src/c.go#CCCC\n*1:e\n\n# a.txt\n*1|aaa…\n\n# src/d.go#DDDD\n*4:f\n\nSkipped missing paths: x\n\n[Some lines truncated to 3 chars]\n",
			"each file under its '# path#TAG' heading ('# path' without a tag) as it comes; notes and the cut notice at the end"},
		{"plain", SearchStream{Options: &SearchOptions{Style: StylePlain}}, files[1:2], scout.SearchResult{},
			"# src/c.go\n*e\n", "no tags, no numbers"},
		{"numbered", SearchStream{Options: &SearchOptions{Style: StyleNumbered}}, files[:1], scout.SearchResult{},
			"# src/b.go\n*2|b\n3|c\n...\n*9|d\n", "no tags; context without a leading space"},
		{"files", SearchStream{Mode: scout.SearchFiles}, files[:3], scout.SearchResult{}, "src/b.go\nsrc/c.go\na.txt\n", "one path per line"},
		{"count", SearchStream{Mode: scout.SearchCount}, files[2:3], scout.SearchResult{}, "a.txt:1\n", "path:count"},
		{"none", SearchStream{Options: &SearchOptions{IgnoredHint: "--no-ignore searches them"}}, nil,
			scout.SearchResult{Skipped: map[scout.SkipReason]int{scout.SkipIgnored: 2}},
			"No matches found\nNot searched: 2 ignored (--no-ignore searches them).\n", "nothing matched: what was not searched, with the hint"},
	}
	for _, tt := range tests {
		var b strings.Builder
		for i := range tt.files {
			b.WriteString(tt.s.File(&tt.files[i]))
		}
		b.WriteString(tt.s.End(&tt.end))
		if b.String() != tt.want {
			t.Errorf("%s (%s):\n got %q\nwant %q", tt.name, tt.reason, b.String(), tt.want)
		}
	}
}

// TestStyleNames: format's style names are the renderer's.
func TestStyleNames(t *testing.T) {
	assert.Equal(t, []string{pitext.StyleHashline, pitext.StyleNumbered, pitext.StylePlain}, []string{StyleHashline, StyleNumbered, StylePlain})
}
