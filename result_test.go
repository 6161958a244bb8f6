package scout_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/scoutkit/scout"
)

// TestVocabularyJSON checks the shared vocabulary on the wire: the
// truncation reason and the skip map and paths, in snake_case.
func TestVocabularyJSON(t *testing.T) {
	r := scout.SearchResult{
		Truncated: scout.TruncBudget,
		Skipped:   map[scout.SkipReason]int{scout.SkipTooLarge: 2},
		SkippedPaths: []scout.SkippedPath{
			{Path: "a.zip:x.png", Reason: scout.SkipBinary},
			{Path: "locked", Reason: scout.SkipUnreadable, Code: scout.CodeAccessDenied, Message: "permission denied"},
		},
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"truncated":"budget"`,
		`"skipped":{"too_large":2}`,
		`"skipped_paths":[{"path":"a.zip:x.png","reason":"binary"},{"path":"locked","reason":"unreadable","code":"ACCESS_DENIED","message":"permission denied"}]`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("search result JSON %s lacks %s", b, want)
		}
	}
	if b, _ := json.Marshal(scout.SearchResult{}); strings.Contains(string(b), "truncated") || strings.Contains(string(b), "skipped") {
		t.Errorf("a complete result with nothing skipped carries neither: %s", b)
	}
}
