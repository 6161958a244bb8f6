package format

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
)

// inParts splits f's lines into parts of k lines (the last may hold
// fewer), as a stream yields a file in parts: More on all but the last.
func inParts(f scout.FileMatch, k int) []scout.FileMatch {
	var parts []scout.FileMatch
	for lo := 0; lo < len(f.Lines); lo += k {
		p := f
		p.Lines = f.Lines[lo:min(lo+k, len(f.Lines))]
		p.MatchLines, p.More = 0, lo+k < len(f.Lines)
		for _, l := range p.Lines {
			if l.Match {
				p.MatchLines++
			}
		}
		parts = append(parts, p)
	}
	return parts
}

// streamText renders files through a SearchStream, and the end r.
func streamText(o *SearchOptions, files []scout.FileMatch, r *scout.SearchResult) string {
	s := SearchStream{Options: o}
	var b strings.Builder
	for i := range files {
		b.WriteString(s.File(&files[i]))
	}
	return b.String() + s.End(r)
}

// TestSearchStreamParts: files in parts print as the files whole, with
// "..." across a part boundary where line numbers jump, in every style;
// a file of a search of it alone (Single) prints as Search prints it, in
// parts or whole, its notices in Search's order.
func TestSearchStreamParts(t *testing.T) {
	files := []scout.FileMatch{
		{Path: "src/b.go", Tag: "BBBB", Lines: []scout.LineMatch{match(2, "b"), ctxLine(3, "c"), match(9, "d"), match(10, "e"), ctxLine(11, "f"), match(20, "g")}},
		{Path: "a.txt", Lines: []scout.LineMatch{{Line: 1, Text: "aaa", Match: true, Cut: true}, match(3, "x"), match(4, "y")}},
		{Path: "src/c.go", Tag: "CCCC", Lines: []scout.LineMatch{match(1, "e")}},
	}
	ends := []scout.SearchResult{
		{},
		{MaxColumns: 3, MissingPaths: []string{"x"}, Skipped: map[scout.SkipReason]int{scout.SkipUnreadable: 1}},
	}
	for _, style := range []string{StyleHashline, StyleNumbered, StylePlain} {
		o := &SearchOptions{Style: style}
		for _, end := range ends {
			want := streamText(o, files, &end)
			for k := 1; k <= 3; k++ {
				var parts []scout.FileMatch
				for _, f := range files {
					parts = append(parts, inParts(f, k)...)
				}
				assert.Equal(t, want, streamText(o, parts, &end), "%s, parts of %d lines", style, k)
			}
			for i, f := range files {
				f.Single = true
				r := end
				r.Single, r.Files = true, []scout.FileMatch{f}
				single, _ := SearchText(&r, &SearchOptions{Style: style, MaxBytes: -1})
				for k := 1; k <= len(f.Lines); k++ {
					assert.Equal(t, single+"\n", streamText(o, inParts(f, k), &end), "%s, file %d alone, parts of %d lines", style, i, k)
				}
			}
		}
	}
	// A jump across parts shows.
	got := streamText(nil, inParts(files[0], 2), &scout.SearchResult{})
	assert.Equal(t, "# src/b.go#BBBB\n*2:b\n3:c\n...\n*9:d\n*10:e\n11:f\n...\n*20:g\n", got)
}

// TestSearchStreamFileGrowsOnce: a file's text (a part of a thousand lines
// here) is written into one buffer made at its size, with its heading, not
// built through a chain of doublings and copied again behind the heading.
func TestSearchStreamFileGrowsOnce(t *testing.T) {
	f := scout.FileMatch{Path: "a.go", Tag: "1a2b"}
	for i := range 1024 {
		f.Lines = append(f.Lines, scout.LineMatch{Line: i + 1, Text: strings.Repeat("x", 80), Match: i%2 == 0})
	}
	for _, style := range []string{"", "numbered", "plain"} {
		s := SearchStream{Options: &SearchOptions{Style: style}}
		s.File(&f) // the first file's text has no blank line before it
		assert.LessOrEqual(t, testing.AllocsPerRun(10, func() { s.File(&f) }), 3.0, "style %q", style)
	}
}
