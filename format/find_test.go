package format

import (
	"strings"
	"testing"

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

func TestNoticeAndBytes(t *testing.T) {
	if got := Notice("", "a", "b"); got != "\n\n[a. b]" {
		t.Errorf("Notice = %q", got)
	}
	if Notice() != "" {
		t.Error("Notice of nothing must be empty")
	}
	for n, want := range map[int64]string{512: "512B", 1229: "1.2KB", 3565158: "3.4MB", 1 << 30: "1.0GB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %s, want %s", n, got, want)
		}
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
