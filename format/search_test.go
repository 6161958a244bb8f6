package format

import (
	"strings"
	"testing"

	"github.com/scoutkit/scout"
)

func match(n int, text string) scout.LineMatch {
	return scout.LineMatch{Line: n, Text: text, Match: true}
}
func ctxLine(n int, text string) scout.LineMatch {
	return scout.LineMatch{Line: n, Text: text}
}

func TestSearchText(t *testing.T) {
	tests := []struct {
		name, reason string
		res          scout.SearchResult
		opts         *SearchOptions
		want         string
		wantCut      bool
	}{
		{
			name:   "single hashline",
			reason: "one file: the ¶path#TAG header, then *N: and N: lines",
			res:    scout.SearchResult{Single: true, Files: []scout.FileMatch{{Path: "src/a.go", Tag: "1A2B", Lines: []scout.LineMatch{ctxLine(4, "x"), match(5, "hit")}}}},
			want:   "¶src/a.go#1A2B\n4:x\n*5:hit",
		},
		{
			name:   "single numbered",
			reason: "numbered style: no header, | marks",
			res:    scout.SearchResult{Single: true, Files: []scout.FileMatch{{Path: "src/a.go", Tag: "1A2B", Lines: []scout.LineMatch{match(5, "hit")}}}},
			opts:   &SearchOptions{Style: StyleNumbered},
			want:   "*5|hit",
		},
		{
			name:   "single untagged",
			reason: "a file without a tag prints | marks and no header even in hashline mode",
			res:    scout.SearchResult{Single: true, Files: []scout.FileMatch{{Path: "a.zip:x.ts", Virtual: true, Lines: []scout.LineMatch{match(1, "hit")}}}},
			want:   "*1|hit",
		},
		{
			name:   "grouped",
			reason: "one '# path#TAG' heading per file ('# path' without a tag), in the result's order (no regrouping by directory); gaps as '...'",
			res: scout.SearchResult{Files: []scout.FileMatch{
				{Path: "a.txt", Tag: "AAAA", Lines: []scout.LineMatch{match(1, "a")}},
				{Path: "src/b.go", Tag: "BBBB", Lines: []scout.LineMatch{match(2, "b"), ctxLine(3, "c"), match(9, "d")}},
				{Path: "src/c.go", Tag: "CCCC", Lines: []scout.LineMatch{match(1, "e")}},
				{Path: "z.txt", Lines: []scout.LineMatch{match(7, "z")}},
			}},
			want: "# a.txt#AAAA\n*1:a\n\n# src/b.go#BBBB\n*2:b\n3:c\n...\n*9:d\n\n# src/c.go#CCCC\n*1:e\n\n# z.txt\n*7|z",
		},
		{
			name:   "archive and URL",
			reason: "an archive member and a URL have no tag: '# path' headings and | marks even in hashline mode",
			res: scout.SearchResult{Files: []scout.FileMatch{
				{Path: "dist/a.zip:src/x.ts", Virtual: true, Lines: []scout.LineMatch{match(1, "x")}},
				{Path: "memory://notes", Virtual: true, Lines: []scout.LineMatch{match(2, "y")}},
			}},
			want: "# dist/a.zip:src/x.ts\n*1|x\n\n# memory://notes\n*2|y",
		},
		{
			name:   "grouped numbered",
			reason: "pi's plain mode (the numbered style): '# path' headings without tags, context lines 'N|text' without a leading space, '...' between gaps",
			res: scout.SearchResult{Files: []scout.FileMatch{
				{Path: "d/a.txt", Tag: "7027", Lines: []scout.LineMatch{ctxLine(4, "before"), match(5, "hit"), ctxLine(6, "after"), match(20, "again")}},
				{Path: "/abs/b.txt", Tag: "BBBB", Lines: []scout.LineMatch{match(1, "b")}},
			}},
			opts: &SearchOptions{Style: StyleNumbered},
			want: "# d/a.txt\n4|before\n*5|hit\n6|after\n...\n*20|again\n\n# /abs/b.txt\n*1|b",
		},
		{
			name:   "grouped plain",
			reason: "the plain style has no numbers: a context line keeps its ' ' mark so that it never reads as a match",
			res: scout.SearchResult{Files: []scout.FileMatch{
				{Path: "d/a.txt", Tag: "7027", Lines: []scout.LineMatch{ctxLine(4, "*x"), match(5, "hit")}},
				{Path: "e.txt", Lines: []scout.LineMatch{match(1, "e")}},
			}},
			opts: &SearchOptions{Style: StylePlain},
			want: "# d/a.txt\n *x\n*hit\n\n# e.txt\n*e",
		},
		{
			name:   "page notice",
			reason: "more files: the skip notice after a blank line",
			res:    scout.SearchResult{Skip: 20, NextSkip: 40, TotalFiles: 55, Truncated: scout.TruncFiles, Files: []scout.FileMatch{{Path: "a", Lines: []scout.LineMatch{match(1, "x")}}}},
			opts:   &SearchOptions{Style: StyleNumbered},
			want:   "# a\n*1|x\n\nShowing files 21-40 of 55. Use skip=40 for the next page, or narrow paths/pattern.",
		},
		{
			name:   "budget notice",
			reason: "a total cut by the budget is a lower bound",
			res:    scout.SearchResult{NextSkip: 2, TotalFiles: 2, Truncated: scout.TruncBudget, Files: []scout.FileMatch{{Path: "a", Lines: []scout.LineMatch{match(1, "x")}}}},
			opts:   &SearchOptions{Style: StyleNumbered},
			want:   "# a\n*1|x\n\nShowing files 1-2 of at least 2. Use skip=2 for the next page, or narrow paths/pattern.",
		},
		{
			name:   "notes",
			reason: "missing paths and skipped members are noted after the results",
			res:    scout.SearchResult{MissingPaths: []string{"x", "y"}, SkippedPaths: []scout.SkippedPath{{Path: "a.zip:b.png", Reason: scout.SkipBinary, Named: true}, {Path: "a.zip:c.txt", Reason: scout.SkipBinary, Message: "not UTF-8", Named: true}, {Path: "d.txt", Reason: scout.SkipUnreadable, Message: "permission denied"}}, Files: []scout.FileMatch{{Path: "a", Lines: []scout.LineMatch{match(1, "x")}}}},
			opts:   &SearchOptions{Style: StyleNumbered},
			want:   "# a\n*1|x\n\nSkipped missing paths: x, y\nSkipped archive entries (search supports text members only): a.zip:b.png (binary), a.zip:c.txt (not UTF-8)",
		},
		{
			name:   "caller's notes",
			reason: "the caller's notes on the request come before the notes on the result, with matches or without",
			res:    scout.SearchResult{MissingPaths: []string{"y"}, LongLines: 1, Files: []scout.FileMatch{{Path: "a", Lines: []scout.LineMatch{match(1, "x")}}}},
			opts:   &SearchOptions{Style: StyleNumbered, Notes: []string{"Note: interpreted as 2 paths: a, y"}},
			want:   "# a\n*1|x\n\nNote: interpreted as 2 paths: a, y\nSkipped missing paths: y\n1 file has a line over 4 MiB, searched in 4 MiB windows that overlap by 64 KiB: a match longer than 64 KiB that crosses a window edge is missed.",
		},
		{
			name:   "caller's notes, no match",
			reason: "the caller's notes on the request come before the notes on the result, with matches or without",
			res:    scout.SearchResult{MissingPaths: []string{"y"}},
			opts:   &SearchOptions{Notes: []string{"Note: interpreted as 2 paths: a, y"}},
			want:   "No matches found\nNote: interpreted as 2 paths: a, y\nSkipped missing paths: y",
		},
		{
			name:   "no match",
			reason: "No matches found, the notes, then what was not searched",
			res:    scout.SearchResult{MissingPaths: []string{"x"}, Skipped: map[scout.SkipReason]int{scout.SkipIgnored: 2, scout.SkipBinary: 1, scout.SkipTooLarge: 0}},
			opts:   &SearchOptions{IgnoredHint: "pass gitignore: false"},
			want:   "No matches found\nSkipped missing paths: x\nNot searched: 1 binary, 2 ignored (pass gitignore: false).",
		},
		{
			name:   "missed with matches",
			reason: "files too large or unreadable are named even when something matched: one of them may hold a match; files left out by rule are not",
			res: scout.SearchResult{Files: []scout.FileMatch{{Path: "a", Lines: []scout.LineMatch{match(1, "x")}}},
				Skipped: map[scout.SkipReason]int{scout.SkipTooLarge: 1, scout.SkipUnreadable: 2, scout.SkipBinary: 3, scout.SkipIgnored: 4}},
			opts: &SearchOptions{Style: StyleNumbered},
			want: "# a\n*1|x\n\nNot searched: 1 too large, 2 unreadable.",
		},
		{
			name:    "missed after the cut",
			reason:  "the line on missed files comes after the byte cap, so that it is never cut off",
			res:     scout.SearchResult{Single: true, Skipped: map[scout.SkipReason]int{scout.SkipTooLarge: 1}, Files: []scout.FileMatch{{Path: "a", Lines: []scout.LineMatch{match(1, "aaaa"), match(2, "bbbb"), match(3, "cccc")}}}},
			opts:    &SearchOptions{MaxBytes: 16},
			want:    "*1|aaaa\n*2|bbbb\n\nNot searched: 1 too large.\n\n[Showing lines 1-2 of 3 (16B limit); narrow paths or pattern to see the rest]",
			wantCut: true,
		},
		{
			name:   "trailing white space",
			reason: "lines lose their trailing white space, as pi's grep trims them",
			res:    scout.SearchResult{Single: true, Files: []scout.FileMatch{{Path: "a", Lines: []scout.LineMatch{match(1, "  hit \t"), ctxLine(2, "x\u00a0 ")}}}},
			opts:   &SearchOptions{Style: StyleNumbered},
			want:   "*1|  hit\n2|x",
		},
		{
			name:   "cut line",
			reason: "a cut line ends in … and a notice follows",
			res:    scout.SearchResult{Single: true, MaxColumns: 3, Files: []scout.FileMatch{{Path: "a", Lines: []scout.LineMatch{{Line: 1, Text: "abc", Match: true, Cut: true}}}}},
			want:   "*1|abc…\n\n[Some lines truncated to 3 chars]",
		},
		{
			name:    "byte cap",
			reason:  "the text is cut at whole lines with a notice",
			res:     scout.SearchResult{Single: true, Files: []scout.FileMatch{{Path: "a", Lines: []scout.LineMatch{match(1, "aaaa"), match(2, "bbbb"), match(3, "cccc")}}}},
			opts:    &SearchOptions{MaxBytes: 16},
			want:    "*1|aaaa\n*2|bbbb\n\n[Showing lines 1-2 of 3 (16B limit); narrow paths or pattern to see the rest]",
			wantCut: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := SearchText(&tt.res, tt.opts)
			if got != tt.want || cut != tt.wantCut {
				t.Errorf("%s\n got (cut=%v):\n%s\nwant (cut=%v):\n%s", tt.reason, cut, got, tt.wantCut, tt.want)
			}
			var b strings.Builder
			if err := Search(&b, &tt.res, tt.opts); err != nil || b.String() != got {
				t.Errorf("Search writes what SearchText returns")
			}
		})
	}
}
