package scout

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The grammar is tested in internal/selector; these tests check the
// wrappers: the conversion of selectors and errors.

func TestParseSelector(t *testing.T) {
	tests := []struct {
		in   string
		want Selector
		why  string
	}{
		{"", Selector{}, "empty: zero selector"},
		{"5", Selector{Ranges: []Range{{5, 0}}}, "bare N is open-ended"},
		{"960-973,5-16", Selector{Ranges: []Range{{5, 16}, {960, 973}}}, "sorted by start"},
		{"5-10, 20-30", Selector{Ranges: []Range{{5, 10}, {20, 30}}}, "a blank after a comma"},
		{"RAW", Selector{Raw: true}, "raw in any case"},
		{"conflicts", Selector{Conflicts: true}, "conflicts"},
		{"raw:1-2,4-5", Selector{Ranges: []Range{{1, 2}, {4, 5}}, Raw: true}, "raw with a list"},
	}
	for _, tt := range tests {
		got, err := ParseSelector(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, "ParseSelector(%q): %s", tt.in, tt.why)
	}
}

func TestParseSelectorErrors(t *testing.T) {
	tests := []struct {
		in, want, why string
	}{
		{"0", "Line selector 0 is invalid; lines are 1-indexed. Use :1.", "line 0"},
		{"5+", "Invalid range 5+0: count must be >= 1.", "missing count: pi-behaviour §1.7, \"N+0 or a missing count gives Invalid range N+0\""},
		{"raw:5-3", "Invalid range 5-3: end must be >= start.", "invalid range in a compound"},
		{"abc", "Invalid selector ':abc': use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts", "not a selector"},
		{"5:6", "Invalid selector ':5:6': use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts", "two range lists"},
	}
	for _, tt := range tests {
		_, err := ParseSelector(tt.in)
		var e *Error
		if assert.ErrorAs(t, err, &e, tt.in) {
			assert.Equal(t, CodeInvalidParam, e.Code, tt.in)
			assert.Equal(t, tt.want, e.Message, "ParseSelector(%q): %s", tt.in, tt.why)
		}
	}
}

func TestSelectorString(t *testing.T) {
	tests := []struct {
		sel  Selector
		want string
	}{
		{Selector{}, ""},
		{Selector{Ranges: []Range{{1, 3}, {10, 0}}}, "1-3,10"},
		{Selector{Raw: true}, "raw"},
		{Selector{Ranges: []Range{{2, 4}}, Raw: true}, "2-4:raw"},
		{Selector{Conflicts: true}, "conflicts"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.sel.String())
		assert.Equal(t, tt.want == "", tt.sel.IsZero(), "%+v", tt.sel)
	}
}

func TestSplitPathSelector(t *testing.T) {
	tests := []struct {
		in, path string
		sel      Selector
		ok       bool
		why      string
	}{
		{"src/a.go", "src/a.go", Selector{}, false, "no colon"},
		{"a.go:raw:5-10", "a.go", Selector{Ranges: []Range{{5, 10}}, Raw: true}, true, "raw:range compound"},
		{"a.go:5-10, 20-30", "a.go", Selector{Ranges: []Range{{5, 10}, {20, 30}}}, true, "a blank after a comma"},
		{"a.zip:dir/f.ts", "a.zip:dir/f.ts", Selector{}, false, "archive member"},
	}
	for _, tt := range tests {
		path, sel, ok, err := SplitPathSelector(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.path, path, "%q: %s", tt.in, tt.why)
		assert.Equal(t, tt.sel, sel, "%q: %s", tt.in, tt.why)
		assert.Equal(t, tt.ok, ok, "%q: %s", tt.in, tt.why)
	}
	path, sel, ok, err := SplitPathSelector("a.go:5-3")
	var e *Error
	if assert.ErrorAs(t, err, &e) {
		assert.Equal(t, CodeInvalidParam, e.Code)
		assert.Equal(t, "Invalid range 5-3: end must be >= start.", e.Message)
	}
	assert.Equal(t, "a.go:5-3", path)
	assert.True(t, sel.IsZero())
	assert.False(t, ok)
}
