package format

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/scoutkit/scout"
)

func TestFindText(t *testing.T) {
	entries := func(paths ...string) []scout.FindEntry {
		var es []scout.FindEntry
		for _, p := range paths {
			es = append(es, scout.FindEntry{Path: strings.TrimSuffix(p, "/"), Dir: strings.HasSuffix(p, "/")})
		}
		return es
	}
	hostLimit := func(n, next int) string {
		if next == 0 {
			return fmt.Sprintf("%d reached, narrow it", n)
		}
		return fmt.Sprintf("%d reached, --limit %d for more", n, next)
	}
	tests := []struct {
		name, reason string
		res          scout.FindResult
		opts         *FindOptions
		want         string
		wantCut      bool
	}{
		{
			name:   "grouped",
			reason: "entries grouped by directory in result order, directories with a slash",
			res:    scout.FindResult{Entries: entries("main.go", "src/a.go", "src/sub/"), Matched: 3},
			want:   "main.go\n\n# src/\na.go\nsub/",
		},
		{
			name:   "exact file",
			reason: "an input naming one file prints it alone",
			res:    scout.FindResult{Entries: entries("src/a.go"), ExactFile: true, Matched: 1},
			want:   "src/a.go",
		},
		{
			name:   "none",
			reason: "no match: the caller's notes on the request, the notes on the result, then what was left out with the hints",
			res:    scout.FindResult{MissingPaths: []string{"x/*.go"}, Skipped: map[scout.SkipReason]int{scout.SkipHidden: 2, scout.SkipIgnored: 1}},
			opts:   &FindOptions{Hints: map[scout.SkipReason]string{scout.SkipHidden: "pass hidden: true"}, Notes: []string{"a note"}},
			want:   "No files found matching pattern\na note\nSkipped missing paths: x/*.go\nLeft out 3 entries: 2 hidden (pass hidden: true), 1 ignored.",
		},
		{
			name:   "unreadable",
			reason: "entries found: what could not be read is still said (a directory not listed may hide matches), the other reasons not",
			res:    scout.FindResult{Entries: entries("a"), Matched: 1, Skipped: map[scout.SkipReason]int{scout.SkipUnreadable: 2, scout.SkipHidden: 3}},
			want:   "a\n\nLeft out 2 entries: 2 unreadable.",
		},
		{
			name:   "limit",
			reason: "a result cut at its limit suggests twice the limit, at most MaxLimit",
			res:    scout.FindResult{Entries: entries("a", "b"), Matched: 5, Truncated: scout.TruncLimit},
			opts:   &FindOptions{MaxLimit: 3},
			want:   "a\nb\n\n[2 results limit reached. Use limit=3 for more]",
		},
		{
			name:   "timeout",
			reason: "a timed-out result says after how long, then the missing paths",
			res:    scout.FindResult{Entries: entries("a"), Matched: 1, Truncated: scout.TruncTimeout, MissingPaths: []string{"m"}},
			opts:   &FindOptions{Timeout: 1500 * time.Millisecond},
			want:   "a\n\nfind timed out after 1.5s; returning 1 partial matches — increase timeout or narrow pattern\nSkipped missing paths: m",
		},
		{
			name:   "limit in the host's words",
			reason: "LimitNotice is given the limit reached and the next one, at most MaxLimit",
			res:    scout.FindResult{Entries: entries("a", "b"), Matched: 5, Truncated: scout.TruncLimit},
			opts:   &FindOptions{MaxLimit: 3, LimitNotice: hostLimit},
			want:   "a\nb\n\n[2 reached, --limit 3 for more]",
		},
		{
			name:   "limit at the maximum in the host's words",
			reason: "at MaxLimit LimitNotice is given 0: no larger limit can be asked for",
			res:    scout.FindResult{Entries: entries("a", "b"), Matched: 5, Truncated: scout.TruncLimit},
			opts:   &FindOptions{MaxLimit: 2, LimitNotice: hostLimit},
			want:   "a\nb\n\n[2 reached, narrow it]",
		},
		{
			name:   "limit notice left out",
			reason: "a LimitNotice of \"\" prints no notice",
			res:    scout.FindResult{Entries: entries("a", "b"), Matched: 5, Truncated: scout.TruncLimit},
			opts:   &FindOptions{LimitNotice: func(int, int) string { return "" }},
			want:   "a\nb",
		},
		{
			name:   "timeout in the host's words",
			reason: "TimeoutNote is given the entries listed and replaces the tool's note, before the missing paths",
			res:    scout.FindResult{Entries: entries("a", "b/"), Matched: 2, Truncated: scout.TruncTimeout, MissingPaths: []string{"m"}},
			opts:   &FindOptions{Timeout: time.Second, TimeoutNote: func(n int) string { return fmt.Sprintf("%d found; raise --timeout", n) }},
			want:   "a\nb/\n\n2 found; raise --timeout\nSkipped missing paths: m",
		},
		{
			name:   "timeout note left out",
			reason: "a TimeoutNote of \"\" prints no note",
			res:    scout.FindResult{Truncated: scout.TruncTimeout},
			opts:   &FindOptions{TimeoutNote: func(int) string { return "" }},
			want:   "No files found matching pattern",
		},
		{
			name:    "cut",
			reason:  "the byte cap keeps whole lines and says how to see the rest",
			res:     scout.FindResult{Entries: entries("aaaa", "bbbb", "cccc"), Matched: 3},
			opts:    &FindOptions{MaxBytes: 10},
			want:    "aaaa\nbbbb\n\n[Showing lines 1-2 of 3 (10B limit). Narrow the pattern or paths to see the rest]",
			wantCut: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := FindText(&tt.res, tt.opts)
			if got != tt.want || cut != tt.wantCut {
				t.Errorf("%s\n got (cut=%v):\n%s\nwant (cut=%v):\n%s", tt.reason, cut, got, tt.wantCut, tt.want)
			}
			var b strings.Builder
			if err := Find(&b, &tt.res, tt.opts); err != nil || b.String() != got {
				t.Errorf("Find writes what FindText returns")
			}
		})
	}
}
