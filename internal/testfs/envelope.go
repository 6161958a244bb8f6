package testfs

import (
	"encoding/json"
	"regexp"
	"testing"
)

// duration matches the durations some texts report ("Scanned 6 items in
// 2ms"), which differ between two runs.
var duration = regexp.MustCompile(`\b\d+ms\b`)

// Untimed returns v, an Envelope or its JSON ([]byte), as generic JSON
// without what differs between two runs of the same call: stats.time_ms,
// and the durations in the text (each written "Nms").
func Untimed(t testing.TB, v any) map[string]any {
	t.Helper()
	b, ok := v.([]byte)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if st, ok := m["stats"].(map[string]any); ok {
		delete(st, "time_ms")
	}
	if text, ok := m["text"].(string); ok {
		m["text"] = UntimedText(text)
	}
	return m
}

// UntimedText is text with each duration written "Nms".
func UntimedText(text string) string { return duration.ReplaceAllString(text, "Nms") }
