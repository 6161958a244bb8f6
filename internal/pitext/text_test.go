package pitext

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
)

func TestGrouped(t *testing.T) {
	tests := []struct {
		in     []string
		want   string
		reason string
	}{
		{nil, "", "no paths"},
		{[]string{"a.go", "b.go"}, "a.go\nb.go", "root entries are bare"},
		{[]string{"apps/ast.ts", "apps/grep.txt", "packages/x.ts"}, "# apps/\nast.ts\ngrep.txt\n\n# packages/\nx.ts", "pi's example"},
		{[]string{"src/a.go", "main.go", "src/b.go"}, "# src/\na.go\nb.go\n\nmain.go", "groups in order of their first member"},
		{[]string{"src/", "src/sub/", "src/sub/x.go"}, "src/\n\n# src/\nsub/\n\n# src/sub/\nx.go", "directories keep their slash and group by their parent"},
	}
	for _, tt := range tests {
		if got := Grouped(tt.in); got != tt.want {
			t.Errorf("Grouped(%q) =\n%s\nwant\n%s\n(%s)", tt.in, got, tt.want, tt.reason)
		}
	}
}

func TestTruncateHead(t *testing.T) {
	s := strings.Repeat("abcdefghi\n", 10) + "end" // 11 lines, 103 bytes
	tests := []struct {
		max          int
		shown, total int
		cut          bool
		reason       string
	}{
		{1000, 11, 11, false, "fits"},
		{103, 11, 11, false, "exactly fits"},
		{50, 5, 11, true, "whole lines only"},
		{5, 0, 11, true, "not even one line"},
	}
	for _, tt := range tests {
		kept, shown, total, cut := TruncateHead(s, tt.max)
		if shown != tt.shown || total != tt.total || cut != tt.cut || len(kept) > tt.max {
			t.Errorf("TruncateHead(max %d) = %d/%d cut %v (%d bytes); want %d/%d %v (%s)", tt.max, shown, total, cut, len(kept), tt.shown, tt.total, tt.cut, tt.reason)
		}
	}
}

func TestNotice(t *testing.T) {
	if got := Notice("", "a", "b"); got != "\n\n[a. b]" {
		t.Errorf("Notice = %q", got)
	}
	if Notice() != "" {
		t.Error("Notice of nothing must be empty")
	}
}

func TestLeftOut(t *testing.T) {
	got := LeftOut(map[scout.SkipReason]int{scout.SkipHidden: 2, scout.SkipIgnored: 1, scout.SkipBinary: 0}, map[scout.SkipReason]string{scout.SkipHidden: "pass hidden: true"})
	if want := "Left out 3 entries: 2 hidden (pass hidden: true), 1 ignored."; got != want {
		t.Errorf("LeftOut = %q, want %q", got, want)
	}
	if LeftOut(nil, nil) != "" || LeftOut(map[scout.SkipReason]int{scout.SkipBinary: 0}, nil) != "" {
		t.Error("nothing left out must give no text")
	}
}

func TestSearchCut(t *testing.T) {
	m := func(n int, text string) scout.LineMatch { return scout.LineMatch{Line: n, Text: text, Match: true} }
	res := scout.SearchResult{Single: true, Files: []scout.FileMatch{{Path: "a", Lines: []scout.LineMatch{m(1, "aaaa"), m(2, "bbbb"), m(3, "cccc")}}}}
	_, c := Search(&res, &SearchOptions{Style: StyleNumbered, MaxBytes: 16})
	want := Cut{ShownLines: 2, TotalLines: 3, TotalBytes: len("*1|aaaa\n*2|bbbb\n*3|cccc"), MaxBytes: 16}
	assert.Equal(t, &want, c, "the cut counts the lines kept, and the lines and bytes before the cut")
	_, c = Search(&res, &SearchOptions{Style: StyleNumbered, MaxBytes: -1})
	assert.Nil(t, c, "no cap, no cut")
}

func TestLimitNotice(t *testing.T) {
	tests := []struct {
		limit, max int
		want       string
		reason     string
	}{
		{10, 200, "10 results limit reached. Use limit=20 for more", "twice the limit fits under the maximum"},
		{150, 200, "150 results limit reached. Use limit=200 for more", "never above the maximum"},
		{200, 200, "200 results limit reached; narrow it", "at the maximum: narrow instead"},
		{500, 0, "500 results limit reached. Use limit=1000 for more", "no maximum"},
	}
	for _, tt := range tests {
		if got := LimitNotice(tt.limit, tt.max, "narrow it"); got != tt.want {
			t.Errorf("%s: LimitNotice(%d, %d) = %q, want %q", tt.reason, tt.limit, tt.max, got, tt.want)
		}
	}
}

func TestFindTimeoutNote(t *testing.T) {
	res := &scout.FindResult{Entries: []scout.FindEntry{{Path: "a"}}, Matched: 1, Truncated: scout.TruncTimeout}
	tests := []struct {
		timeout, max time.Duration
		want         string
		reason       string
	}{
		{5 * time.Second, 60 * time.Second, "find timed out after 5s; returning 1 partial matches — increase timeout or narrow pattern", "under the maximum: a longer timeout helps"},
		{60 * time.Second, 60 * time.Second, "find timed out after 60s; returning 1 partial matches — narrow pattern", "at the maximum: only narrowing helps"},
		{90 * time.Second, 0, "find timed out after 90s; returning 1 partial matches — increase timeout or narrow pattern", "no maximum"},
		{1250 * time.Millisecond, 0, "find timed out after 1.3s; returning 1 partial matches — increase timeout or narrow pattern", "one decimal, a half rounded up"},
		{500 * time.Millisecond, 0, "find timed out after 0.5s; returning 1 partial matches — increase timeout or narrow pattern", "under a second"},
		{2040 * time.Millisecond, 0, "find timed out after 2.0s; returning 1 partial matches — increase timeout or narrow pattern", "not whole: one decimal even when it is 0"},
	}
	for _, tt := range tests {
		text, _ := Find(res, &FindOptions{Timeout: tt.timeout, MaxTimeout: tt.max})
		if want := "a\n\n" + tt.want; text != want {
			t.Errorf("%s: %q, want %q", tt.reason, text, want)
		}
	}
}

func TestNotSearched(t *testing.T) {
	skipped := map[scout.SkipReason]int{scout.SkipTooLarge: 1, scout.SkipIgnored: 2, scout.SkipBinary: 3, scout.SkipHidden: 0}
	tests := []struct {
		reasons []scout.SkipReason
		hints   map[scout.SkipReason]string
		want    string
		reason  string
	}{
		{nil, nil, "Not searched: 3 binary, 2 ignored, 1 too large.", "every reason, sorted, '_' written as a blank"},
		{[]scout.SkipReason{scout.SkipTooLarge, scout.SkipBinary}, nil, "Not searched: 1 too large, 3 binary.", "the reasons asked for, in their order"},
		{nil, map[scout.SkipReason]string{scout.SkipIgnored: "--no-ignore"}, "Not searched: 3 binary, 2 ignored (--no-ignore), 1 too large.", "a hint follows its count"},
		{[]scout.SkipReason{scout.SkipHidden, scout.SkipUnreadable}, nil, "", "zero or missing counts say nothing"},
	}
	for _, tt := range tests {
		if got := NotSearched(skipped, tt.reasons, tt.hints); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.reason, got, tt.want)
		}
	}
}
