package pitext

import (
	"testing"

	"github.com/scoutkit/scout"
)

// TestSearchGrouped: a search of several files heads each file with
// "# path#TAG", or "# path" where no tag shows, in the result's order;
// context lines carry no mark before their number.
func TestSearchGrouped(t *testing.T) {
	lines := []scout.LineMatch{{Line: 4, Text: "before"}, {Line: 5, Text: "hit", Match: true}, {Line: 9, Text: "far"}}
	tests := []struct {
		name   string
		files  []scout.FileMatch
		style  string
		want   string
		reason string
	}{
		{"tag", []scout.FileMatch{{Path: "d/a.txt", Tag: "7027", Lines: lines}}, StyleHashline,
			"# d/a.txt#7027\n4:before\n*5:hit\n...\n9:far", "hashline: the whole path and its tag; '...' where line numbers jump"},
		{"numbered", []scout.FileMatch{{Path: "d/a.txt", Tag: "7027", Lines: lines}}, StyleNumbered,
			"# d/a.txt\n4|before\n*5|hit\n...\n9|far", "pi's plain mode: no tag, N| lines"},
		{"archive member", []scout.FileMatch{{Path: "bundle.zip:src/a.txt", Virtual: true, Lines: lines}}, "",
			"# bundle.zip:src/a.txt\n4|before\n*5|hit\n...\n9|far", "no tag to show: '# path' and N| lines even in hashline mode"},
		{"page order", []scout.FileMatch{
			{Path: "top.txt", Tag: "AAAA", Lines: lines[1:2]},
			{Path: "d/a.txt", Tag: "BBBB", Lines: lines[1:2]},
			{Path: "d/e/b.txt", Lines: nil},
			{Path: "z.txt", Tag: "CCCC", Lines: lines[1:2]},
			{Path: "/abs/d/c.txt", Tag: "DDDD", Lines: lines[1:2]},
		}, "",
			"# top.txt#AAAA\n*5:hit\n\n# d/a.txt#BBBB\n*5:hit\n\n# z.txt#CCCC\n*5:hit\n\n# /abs/d/c.txt#DDDD\n*5:hit",
			"files print in the page's order, not regrouped by directory; a file with no lines has no section"},
	}
	for _, tt := range tests {
		got, _ := Search(&scout.SearchResult{Files: tt.files}, &SearchOptions{Style: tt.style})
		if got != tt.want {
			t.Errorf("%s (%s):\n got %q\nwant %q", tt.name, tt.reason, got, tt.want)
		}
	}
}
