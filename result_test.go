package scout_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// TestRequestJSON: requests encode in snake_case, with line ranges as
// {"start","end"} and the enumerations as words, and decode back.
func TestRequestJSON(t *testing.T) {
	tests := []struct {
		v      any
		want   string
		reason string
	}{
		{&scout.SearchRequest{Pattern: "x", Lines: []scout.Range{{Start: 5, End: 9}, {Start: 20}}, Mode: scout.SearchCount},
			`{"pattern":"x","lines":[{"start":5,"end":9},{"start":20}],"mode":"count"}`, "a search: ranges, an open end omitted, the mode"},
		{&scout.FindRequest{Kind: scout.DirsOnly, Order: scout.TreeOrder}, `{"kind":"dirs","order":"tree"}`, "a find: the kind and the order"},
		{&scout.FindRequest{Kind: scout.FilesOnly, Order: scout.ByPath}, `{"kind":"files","order":"path"}`, "a find: files by path"},
		{&scout.FindRequest{}, `{}`, "the zero kind and order are omitted"},
		{&scout.Selector{Ranges: []scout.Range{{Start: 1, End: 2}}, Raw: true}, `{"ranges":[{"start":1,"end":2}],"raw":true}`, "a selector"},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.v)
		require.NoError(t, err, tt.reason)
		assert.JSONEq(t, tt.want, string(b), tt.reason)
		back := reflect.New(reflect.TypeOf(tt.v).Elem()).Interface()
		require.NoError(t, json.Unmarshal(b, back), tt.reason)
		assert.Equal(t, tt.v, back, "%s: decodes back", tt.reason)
	}
	for _, tt := range []struct{ v any }{{new(scout.FindOrder)}, {new(scout.EntryKind)}, {new(scout.SearchMode)}} {
		err := json.Unmarshal([]byte(`"sideways"`), tt.v)
		assert.Equal(t, scout.CodeInvalidParam, scout.CodeOf(err), "%T: an unknown name", tt.v)
	}
	var o scout.FindOrder
	assert.EqualError(t, o.UnmarshalText([]byte("sideways")), "Invalid order 'sideways': use newest, path or tree.")
	assert.Equal(t, "7", scout.FindOrder(7).String(), "a value without a name prints as its number")
}
