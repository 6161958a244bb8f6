package tool

import (
	"encoding/json"
	"testing"
)

// TestAmpContentJSON checks the hand-written encoder against encoding/json
// on awkward strings.
func TestAmpContentJSON(t *testing.T) {
	odd := []string{"", "plain", "quote \" and \\ backslash", "\b\f\n\r\t\x00\x1f\x7f", "<html> & co", "line\u2028sep\u2029", "bad \xff\xfe utf8", "é世界🙂"}
	for _, s := range odd {
		d := ampContentData{
			ampGrepData: &ampGrepData{Pattern: s, OutputMode: "content", TotalMatches: 3, MatchesCount: 2, LowerBound: s == ""},
			Results: []ampResult{
				{File: s, LineNumber: 1, Content: s},
				{File: "f", LineNumber: 7, Content: s, Context: []ampContext{{6, s, false}, {7, s, true}}},
			},
		}
		got, err := d.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		// The same fields in a type without MarshalJSON.
		want, _ := json.Marshal(struct {
			*ampGrepData
			Results []ampResult `json:"results"`
		}{d.ampGrepData, d.Results})
		// encoding/json escapes <, > and & by default; compare with the
		// same HTML escaping applied to ours.
		gotHTML, _ := json.Marshal(json.RawMessage(got))
		if string(gotHTML) != string(want) {
			t.Errorf("%q:\n got %s\nwant %s", s, gotHTML, want)
		}
	}
}
