package scout

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

func TestParseSelector(t *testing.T) {
	tests := []struct {
		in   string
		want Selector
		why  string
	}{
		{"", Selector{}, "empty: zero selector"},
		{"5", Selector{Ranges: []Range{{5, 0}}}, "bare N is open-ended"},
		{"L5", Selector{Ranges: []Range{{5, 0}}}, "L prefix"},
		{"l5", Selector{Ranges: []Range{{5, 0}}}, "lower-case l prefix"},
		{"5-", Selector{Ranges: []Range{{5, 0}}}, "N- is open-ended"},
		{"5..", Selector{Ranges: []Range{{5, 0}}}, "N.. is open-ended"},
		{"5-10", Selector{Ranges: []Range{{5, 10}}}, "A-B"},
		{"L41-L60", Selector{Ranges: []Range{{41, 60}}}, "LA-LB"},
		{"5..10", Selector{Ranges: []Range{{5, 10}}}, "A..B"},
		{"5-L10", Selector{Ranges: []Range{{5, 10}}}, "L on the end only"},
		{"5-L", Selector{Ranges: []Range{{5, 0}}}, "pi's grammar lets a lone L end a range: open-ended"},
		{"5+3", Selector{Ranges: []Range{{5, 7}}}, "A+C is A to A+C-1"},
		{"5+1", Selector{Ranges: []Range{{5, 5}}}, "count 1 is one line"},
		{"7-7", Selector{Ranges: []Range{{7, 7}}}, "single line range"},
		{"960-973,5-16", Selector{Ranges: []Range{{5, 16}, {960, 973}}}, "sorted by start"},
		{"1-5,3-8", Selector{Ranges: []Range{{1, 8}}}, "overlapping merged"},
		{"1-5,6-8", Selector{Ranges: []Range{{1, 8}}}, "adjacent merged"},
		{"1-5,7-8", Selector{Ranges: []Range{{1, 5}, {7, 8}}}, "a gap of one line is kept"},
		{"1-3,10,20-30", Selector{Ranges: []Range{{1, 3}, {10, 0}}}, "an open-ended range swallows those after it"},
		{"20-30,2-", Selector{Ranges: []Range{{2, 0}}}, "open range sorted first swallows the rest"},
		{"5-10,5", Selector{Ranges: []Range{{5, 0}}}, "same start: open wins"},
		{"1-10,2-3", Selector{Ranges: []Range{{1, 10}}}, "contained range"},
		{"raw", Selector{Raw: true}, "raw"},
		{"conflicts", Selector{Conflicts: true}, "conflicts"},
		{"5-10:raw", Selector{Ranges: []Range{{5, 10}}, Raw: true}, "range:raw"},
		{"raw:5-10", Selector{Ranges: []Range{{5, 10}}, Raw: true}, "raw:range"},
		{"raw:1-2,4-5", Selector{Ranges: []Range{{1, 2}, {4, 5}}, Raw: true}, "raw with a list"},
	}
	for _, tt := range tests {
		got, err := ParseSelector(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseSelector(%q) = %+v, %v; want %+v (%s)", tt.in, got, err, tt.want, tt.why)
		}
	}
}

func TestParseSelectorErrors(t *testing.T) {
	tests := []struct {
		in, want, why string
	}{
		{"0", "Line selector 0 is invalid; lines are 1-indexed. Use :1.", "line 0"},
		{"L0-5", "Line selector 0 is invalid; lines are 1-indexed. Use :1.", "start 0 with L"},
		{"3-5,0", "Line selector 0 is invalid; lines are 1-indexed. Use :1.", ":0 anywhere in a list"},
		{"5+0", "Invalid range 5+0: count must be >= 1.", "zero count"},
		{"5+", "Invalid range 5+0: count must be >= 1.", "missing count"},
		{"5+L", "Invalid range 5+0: count must be >= 1.", "missing count after a lone L"},
		{"5-3", "Invalid range 5-3: end must be >= start.", "end before start"},
		{"L5-L3", "Invalid range 5-3: end must be >= start.", "end before start with L"},
		{"5..3", "Invalid range 5-3: end must be >= start.", "end before start with .."},
		{"5-0", "Invalid range 5-0: end must be >= start.", "end 0"},
		{"raw:5-3", "Invalid range 5-3: end must be >= start.", "invalid range in a compound"},
		{"99999999999999999999", "Line number 99999999999999999999 is too large; the limit is 1073741824.", "overflow"},
		{"1073741824+2", "Invalid range 1073741824+2: it ends past line 1073741824. Use :1073741824- to read to the end.", "count past the limit"},
		{"abc", "Invalid selector ':abc': use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts", "not a selector"},
		{"raw:raw", "Invalid selector ':raw:raw': use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts", "raw twice"},
		{"5:6", "Invalid selector ':5:6': use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts", "two range lists"},
		{"conflicts:raw", "Invalid selector ':conflicts:raw': use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts", "conflicts takes no compound"},
		{"5,", "Invalid selector ':5,': use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts", "empty list item"},
		{"RAW", "Invalid selector ':RAW': use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts", "raw is lower case"},
	}
	for _, tt := range tests {
		_, err := ParseSelector(tt.in)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeInvalidParam || e.Message != tt.want {
			t.Errorf("ParseSelector(%q) error = %v\nwant InvalidParam %q (%s)", tt.in, err, tt.want, tt.why)
		}
	}
}

func TestSelectorString(t *testing.T) {
	tests := []struct {
		sel  Selector
		want string
	}{
		{Selector{}, ""},
		{Selector{Ranges: []Range{{5, 0}}}, "5"},
		{Selector{Ranges: []Range{{1, 3}, {10, 0}}}, "1-3,10"},
		{Selector{Raw: true}, "raw"},
		{Selector{Ranges: []Range{{2, 4}}, Raw: true}, "2-4:raw"},
		{Selector{Conflicts: true}, "conflicts"},
	}
	for _, tt := range tests {
		if got := tt.sel.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.sel, got, tt.want)
		}
		if tt.sel.IsZero() != (tt.want == "") {
			t.Errorf("%+v.IsZero() = %v", tt.sel, tt.sel.IsZero())
		}
	}
}

func TestSplitPathSelector(t *testing.T) {
	tests := []struct {
		in, path string
		sel      Selector
		ok       bool
		err      string
		why      string
	}{
		{"src/a.go", "src/a.go", Selector{}, false, "", "no colon"},
		{"src/a.go:50-100", "src/a.go", Selector{Ranges: []Range{{50, 100}}}, true, "", "range"},
		{"src/a.go:L5", "src/a.go", Selector{Ranges: []Range{{5, 0}}}, true, "", "open range"},
		{"a.go:raw", "a.go", Selector{Raw: true}, true, "", "raw"},
		{"a.go:conflicts", "a.go", Selector{Conflicts: true}, true, "", "conflicts"},
		{"a.go:5-10:raw", "a.go", Selector{Ranges: []Range{{5, 10}}, Raw: true}, true, "", "range:raw compound"},
		{"a.go:raw:5-10", "a.go", Selector{Ranges: []Range{{5, 10}}, Raw: true}, true, "", "raw:range compound"},
		{"a.go:5:6", "a.go:5", Selector{Ranges: []Range{{6, 0}}}, true, "", "only one range list is peeled"},
		{"a.go:raw:raw", "a.go:raw", Selector{Raw: true}, true, "", "raw:raw is not a compound"},
		{"a.go:conflicts:raw", "a.go:conflicts", Selector{Raw: true}, true, "", "conflicts takes no compound"},
		{"x:1-2:5-10:raw", "x:1-2", Selector{Ranges: []Range{{5, 10}}, Raw: true}, true, "", "one compound only"},
		{"foo:../bar.ts", "foo:../bar.ts", Selector{}, false, "", "not a selector: kept in the path"},
		{"a.zip:dir/f.ts", "a.zip:dir/f.ts", Selector{}, false, "", "archive member"},
		{"a.zip:dir/f.ts:50-60", "a.zip:dir/f.ts", Selector{Ranges: []Range{{50, 60}}}, true, "", "archive member with a range"},
		{"db.sqlite:users", "db.sqlite:users", Selector{}, false, "", "SQLite table"},
		{"https://example.com:80", "https://example.com", Selector{Ranges: []Range{{80, 0}}}, true, "", "a port looks like a line: the seed says add a slash"},
		{":5", ":5", Selector{}, false, "", "colon at index 0 is not a separator"},
		{"a.go:", "a.go:", Selector{}, false, "", "empty tail"},
		{"a.go:RAW", "a.go:RAW", Selector{}, false, "", "raw is lower case"},
		{"a.go:5,", "a.go:5,", Selector{}, false, "", "malformed list is not a selector"},
		{"a.go:0", "", Selector{}, false, "Line selector 0 is invalid; lines are 1-indexed. Use :1.", "line 0"},
		{"a.go:5-3", "", Selector{}, false, "Invalid range 5-3: end must be >= start.", "end before start"},
		{"a.go:3+0", "", Selector{}, false, "Invalid range 3+0: count must be >= 1.", "zero count"},
		{"a.go:0:raw", "", Selector{}, false, "Line selector 0 is invalid; lines are 1-indexed. Use :1.", "invalid range in a compound"},
		{"a.go:0:5", "a.go:0", Selector{Ranges: []Range{{5, 0}}}, true, "", "an invalid chunk before a range is just path"},
	}
	for _, tt := range tests {
		path, sel, ok, err := SplitPathSelector(tt.in)
		if tt.err != "" {
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeInvalidParam || e.Message != tt.err {
				t.Errorf("SplitPathSelector(%q) error = %v, want %q (%s)", tt.in, err, tt.err, tt.why)
			}
			continue
		}
		if err != nil || path != tt.path || ok != tt.ok || !reflect.DeepEqual(sel, tt.sel) {
			t.Errorf("SplitPathSelector(%q) = %q, %+v, %v, %v; want %q, %+v, %v (%s)", tt.in, path, sel, ok, err, tt.path, tt.sel, tt.ok, tt.why)
		}
	}
}

func TestMergeRangesStable(t *testing.T) {
	in := []Range{{10, 20}, {1, 2}, {3, 4}, {22, 0}, {21, 21}}
	got := mergeRanges(slices.Clone(in))
	want := []Range{{1, 4}, {10, 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mergeRanges(%v) = %v, want %v", in, got, want)
	}
}
