package selector

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/errs"
)

func ranges(rs ...Range) []Range { return rs }

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Selector
		why  string
	}{
		{"5", Selector{Ranges: ranges(Range{5, 0})}, "bare N is open-ended"},
		{"L5", Selector{Ranges: ranges(Range{5, 0})}, "L prefix"},
		{"l5", Selector{Ranges: ranges(Range{5, 0})}, "lower-case l prefix"},
		{"5-", Selector{Ranges: ranges(Range{5, 0})}, "N- is open-ended"},
		{"5..", Selector{Ranges: ranges(Range{5, 0})}, "N.. is open-ended"},
		{"5-10", Selector{Ranges: ranges(Range{5, 10})}, "A-B"},
		{"L41-L60", Selector{Ranges: ranges(Range{41, 60})}, "LA-LB"},
		{"5..10", Selector{Ranges: ranges(Range{5, 10})}, "A..B"},
		{"5-L10", Selector{Ranges: ranges(Range{5, 10})}, "L on the end only"},
		{"5-L", Selector{Ranges: ranges(Range{5, 0})}, "pi's grammar lets a lone L end a range: open-ended"},
		{"5+3", Selector{Ranges: ranges(Range{5, 7})}, "A+C is A to A+C-1"},
		{"5+1", Selector{Ranges: ranges(Range{5, 5})}, "count 1 is one line"},
		{"7-7", Selector{Ranges: ranges(Range{7, 7})}, "single line range"},
		{"960-973,5-16", Selector{Ranges: ranges(Range{5, 16}, Range{960, 973})}, "sorted by start"},
		{"1-5,3-8", Selector{Ranges: ranges(Range{1, 8})}, "overlapping merged"},
		{"1-5,6-8", Selector{Ranges: ranges(Range{1, 8})}, "adjacent merged"},
		{"1-5,7-8", Selector{Ranges: ranges(Range{1, 5}, Range{7, 8})}, "a gap of one line is kept"},
		{"1-3,10,20-30", Selector{Ranges: ranges(Range{1, 3}, Range{10, 0})}, "an open-ended range swallows those after it"},
		{"20-30,2-", Selector{Ranges: ranges(Range{2, 0})}, "open range sorted first swallows the rest"},
		{"5-10,5", Selector{Ranges: ranges(Range{5, 0})}, "same start: open wins"},
		{"1-10,2-3", Selector{Ranges: ranges(Range{1, 10})}, "contained range"},
		{"5-10, 20-30", Selector{Ranges: ranges(Range{5, 10}, Range{20, 30})}, "a blank after a comma"},
		{"5-10 ,\t20-30 , 40", Selector{Ranges: ranges(Range{5, 10}, Range{20, 30}, Range{40, 0})}, "blanks around commas"},
		{"raw", Selector{Raw: true}, "raw"},
		{"RAW", Selector{Raw: true}, "raw in any case"},
		{"Raw", Selector{Raw: true}, "raw in any case"},
		{"conflicts", Selector{Conflicts: true}, "conflicts"},
		{"CONFLICTS", Selector{Conflicts: true}, "conflicts in any case"},
		{"5-10:raw", Selector{Ranges: ranges(Range{5, 10}), Raw: true}, "range:raw"},
		{"raw:5-10", Selector{Ranges: ranges(Range{5, 10}), Raw: true}, "raw:range"},
		{"RAW:1-2, 4-5", Selector{Ranges: ranges(Range{1, 2}, Range{4, 5}), Raw: true}, "raw with a list"},
		{" 2-3", Selector{Ranges: ranges(Range{2, 3})}, "a blank before the selector"},
		{"\t 2-3 ", Selector{Ranges: ranges(Range{2, 3})}, "blanks around the selector"},
		{" 2-3, 7", Selector{Ranges: ranges(Range{2, 3}, Range{7, 0})}, "a blank before a list"},
		{" raw", Selector{Raw: true}, "a blank before raw"},
		{" conflicts", Selector{Conflicts: true}, "a blank before conflicts"},
		{"5-10 : raw", Selector{Ranges: ranges(Range{5, 10}), Raw: true}, "blanks around a compound's colon"},
		{"raw: 5-10", Selector{Ranges: ranges(Range{5, 10}), Raw: true}, "a blank after raw's colon"},
	}
	for _, tt := range tests {
		got, ok, err := Parse(tt.in)
		require.NoError(t, err, tt.in)
		assert.True(t, ok, tt.in)
		assert.Equal(t, tt.want, got, "Parse(%q): %s", tt.in, tt.why)
	}
}

func TestParseNotSelector(t *testing.T) {
	for _, in := range []string{"", "abc", "raw:raw", "5:6", "conflicts:raw", "5,", ",5", " ", " , 5", "5-10 20", "5 -10", "r aw", "-3", "raw:", "5+-3", "x.go"} {
		sel, ok, err := Parse(in)
		assert.False(t, ok, "%q", in)
		assert.NoError(t, err, "%q", in)
		assert.True(t, sel.IsZero(), "%q", in)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in, want, why string
	}{
		{"0", "Line selector 0 is invalid; lines are 1-indexed. Use :1.", "line 0"},
		{"L0-5", "Line selector 0 is invalid; lines are 1-indexed. Use :1.", "start 0 with L"},
		{"3-5,0", "Line selector 0 is invalid; lines are 1-indexed. Use :1.", ":0 anywhere in a list"},
		{"3-5, 0", "Line selector 0 is invalid; lines are 1-indexed. Use :1.", ":0 after a blank"},
		{"5+0", "Invalid range 5+0: count must be >= 1.", "zero count"},
		{"5+", "Invalid range 5+0: count must be >= 1.", "missing count: pi-behaviour §1.7, \"N+0 or a missing count gives Invalid range N+0\""},
		{"5+L", "Invalid range 5+0: count must be >= 1.", "missing count after a lone L"},
		{"5-3", "Invalid range 5-3: end must be >= start.", "end before start"},
		{"L5-L3", "Invalid range 5-3: end must be >= start.", "end before start with L"},
		{"5..3", "Invalid range 5-3: end must be >= start.", "end before start with .."},
		{"5-0", "Invalid range 5-0: end must be >= start.", "end 0"},
		{"raw:5-3", "Invalid range 5-3: end must be >= start.", "invalid range in a compound"},
		{"5-3:RAW", "Invalid range 5-3: end must be >= start.", "invalid range before raw"},
		{"99999999999999999999", "Line number 99999999999999999999 is too large; the limit is 1073741824.", "overflow"},
		{"1073741824+2", "Invalid range 1073741824+2: it ends past line 1073741824. Use :1073741824- to read to the end.", "count past the limit"},
	}
	for _, tt := range tests {
		_, ok, err := Parse(tt.in)
		assert.True(t, ok, "%q is selector syntax", tt.in)
		var e *errs.Error
		if assert.ErrorAs(t, err, &e, tt.in) {
			assert.Equal(t, errs.InvalidParam, e.Code, tt.in)
			assert.Equal(t, tt.want, e.Message, "Parse(%q): %s", tt.in, tt.why)
		}
	}
}

func TestNotSelector(t *testing.T) {
	assert.Equal(t, "Invalid selector ':abc': use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts",
		NotSelector("abc", "").Message)
	assert.Equal(t, "Invalid selector ':x' after 'a.zip:f.go': use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts",
		NotSelector("x", "a.zip:f.go").Message)
}

func TestString(t *testing.T) {
	tests := []struct {
		sel  Selector
		want string
	}{
		{Selector{}, ""},
		{Selector{Ranges: ranges(Range{5, 0})}, "5"},
		{Selector{Ranges: ranges(Range{1, 3}, Range{10, 0})}, "1-3,10"},
		{Selector{Raw: true}, "raw"},
		{Selector{Ranges: ranges(Range{2, 4}), Raw: true}, "2-4:raw"},
		{Selector{Conflicts: true}, "conflicts"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.sel.String())
		assert.Equal(t, tt.want == "", tt.sel.IsZero(), "%+v", tt.sel)
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		in, path string
		sel      Selector
		ok       bool
		err      string
		why      string
	}{
		{"src/a.go", "src/a.go", Selector{}, false, "", "no colon"},
		{"src/a.go:50-100", "src/a.go", Selector{Ranges: ranges(Range{50, 100})}, true, "", "range"},
		{"src/a.go:L5", "src/a.go", Selector{Ranges: ranges(Range{5, 0})}, true, "", "open range"},
		{"a.go:raw", "a.go", Selector{Raw: true}, true, "", "raw"},
		{"a.go:RAW", "a.go", Selector{Raw: true}, true, "", "raw in any case, as for URLs"},
		{"a.go:5-10, 20-30", "a.go", Selector{Ranges: ranges(Range{5, 10}, Range{20, 30})}, true, "", "a blank after a comma, as for URLs"},
		{"a.go:conflicts", "a.go", Selector{Conflicts: true}, true, "", "conflicts"},
		{"ten.txt: 2-3", "ten.txt", Selector{Ranges: ranges(Range{2, 3})}, true, "", "a blank after the colon, as after a comma"},
		{"ten.txt: 2-3: raw", "ten.txt", Selector{Ranges: ranges(Range{2, 3}), Raw: true}, true, "", "blanks in a compound"},
		{"a.zip:d/f.ts: 5", "a.zip:d/f.ts", Selector{Ranges: ranges(Range{5, 0})}, true, "", "archive member with a blank before its range"},
		{"ten.txt :2-3", "ten.txt ", Selector{Ranges: ranges(Range{2, 3})}, true, "", "a blank before the colon is the path's"},
		{"a.go: 0", "a.go: 0", Selector{}, false, "Line selector 0 is invalid; lines are 1-indexed. Use :1.", "line 0 after a blank"},
		{"notes: x", "notes: x", Selector{}, false, "", "a blank and no selector: kept in the path"},
		{"a.go:5-10:raw", "a.go", Selector{Ranges: ranges(Range{5, 10}), Raw: true}, true, "", "range:raw compound"},
		{"a.go:raw:5-10", "a.go", Selector{Ranges: ranges(Range{5, 10}), Raw: true}, true, "", "raw:range compound"},
		{"a.go:5:6", "a.go:5", Selector{Ranges: ranges(Range{6, 0})}, true, "", "only one range list is peeled"},
		{"a.go:raw:raw", "a.go:raw", Selector{Raw: true}, true, "", "raw:raw is not a compound"},
		{"a.go:conflicts:raw", "a.go:conflicts", Selector{Raw: true}, true, "", "conflicts takes no compound"},
		{"x:1-2:5-10:raw", "x:1-2", Selector{Ranges: ranges(Range{5, 10}), Raw: true}, true, "", "one compound only"},
		{"foo:../bar.ts", "foo:../bar.ts", Selector{}, false, "", "not a selector: kept in the path"},
		{"a.zip:dir/f.ts", "a.zip:dir/f.ts", Selector{}, false, "", "archive member"},
		{"a.zip:dir/f.ts:50-60", "a.zip:dir/f.ts", Selector{Ranges: ranges(Range{50, 60})}, true, "", "archive member with a range"},
		{"db.sqlite:users", "db.sqlite:users", Selector{}, false, "", "SQLite table"},
		{":5", ":5", Selector{}, false, "", "colon at index 0 is not a separator"},
		{"a.go:", "a.go:", Selector{}, false, "", "empty tail"},
		{"a.go:5,", "a.go:5,", Selector{}, false, "", "malformed list is not a selector"},
		{"a.go:0", "a.go:0", Selector{}, false, "Line selector 0 is invalid; lines are 1-indexed. Use :1.", "line 0"},
		{"a.go:5-3", "a.go:5-3", Selector{}, false, "Invalid range 5-3: end must be >= start.", "end before start"},
		{"a.go:3+0", "a.go:3+0", Selector{}, false, "Invalid range 3+0: count must be >= 1.", "zero count"},
		{"a.go:0:raw", "a.go:0:raw", Selector{}, false, "Line selector 0 is invalid; lines are 1-indexed. Use :1.", "invalid range in a compound"},
		{"a.go:0:5", "a.go:0", Selector{Ranges: ranges(Range{5, 0})}, true, "", "an invalid chunk before a range is just path"},
	}
	for _, tt := range tests {
		path, sel, ok, err := Split(tt.in)
		if tt.err != "" {
			var e *errs.Error
			if assert.ErrorAs(t, err, &e, tt.in) {
				assert.Equal(t, tt.err, e.Message, "Split(%q): %s", tt.in, tt.why)
			}
		} else {
			assert.NoError(t, err, tt.in)
		}
		assert.Equal(t, tt.path, path, "Split(%q) path: %s", tt.in, tt.why)
		assert.Equal(t, tt.sel, sel, "Split(%q) selector: %s", tt.in, tt.why)
		assert.Equal(t, tt.ok, ok, "Split(%q) ok: %s", tt.in, tt.why)
	}
}

func TestSplitURL(t *testing.T) {
	tests := []struct {
		in, url string
		sel     Selector
		err     bool
		why     string
	}{
		{"https://x.example/a", "https://x.example/a", Selector{}, false, "no selector"},
		{"https://x.example/a:raw", "https://x.example/a", Selector{Raw: true}, false, "raw"},
		{"https://x.example/a:5-10", "https://x.example/a", Selector{Ranges: ranges(Range{5, 10})}, false, "range"},
		{"https://x.example/a:5+2:raw", "https://x.example/a", Selector{Ranges: ranges(Range{5, 6}), Raw: true}, false, "range then raw"},
		{"https://x.example/a:5-10,20-30", "https://x.example/a", Selector{Ranges: ranges(Range{5, 10}, Range{20, 30})}, false, "multi-range"},
		{"https://x.example/a:5-10, 20-30", "https://x.example/a", Selector{Ranges: ranges(Range{5, 10}, Range{20, 30})}, false, "a blank after the comma"},
		{"https://x.example/a: 5-10", "https://x.example/a", Selector{Ranges: ranges(Range{5, 10})}, false, "a blank after the colon, as after a comma"},
		{"https://x.example/a: raw", "https://x.example/a", Selector{Raw: true}, false, "a blank before raw"},
		{"https://x.example: 80", "https://x.example: 80", Selector{}, false, "no selector before the path's first slash, blank or not"},
		{"https://x.example:8080", "https://x.example:8080", Selector{}, false, "a port is not a selector"},
		{"https://x.example/:80", "https://x.example/", Selector{Ranges: ranges(Range{80, 0})}, false, "a slash before the selector on a bare host"},
		{"http://x.example:8080/p:raw", "http://x.example:8080/p", Selector{Raw: true}, false, "port and selector"},
		{"http://x.example:8080/p", "http://x.example:8080/p", Selector{}, false, "port alone"},
		{"www.x.example/docs:3", "www.x.example/docs", Selector{Ranges: ranges(Range{3, 0})}, false, "www host"},
		{"https://x.example/wiki/Help:Contents", "https://x.example/wiki/Help:Contents", Selector{}, false, "a colon in the path that is not a selector stays"},
		{"https://x.example/a:0", "https://x.example/a:0", Selector{}, true, "line 0 is an error"},
	}
	for _, tt := range tests {
		url, sel, _, err := SplitURL(tt.in)
		assert.Equal(t, tt.err, err != nil, "SplitURL(%q) error %v: %s", tt.in, err, tt.why)
		assert.Equal(t, tt.url, url, "SplitURL(%q): %s", tt.in, tt.why)
		assert.Equal(t, tt.sel, sel, "SplitURL(%q): %s", tt.in, tt.why)
	}
}

func TestSplitInternal(t *testing.T) {
	tests := []struct {
		in, url string
		sel     Selector
		why     string
	}{
		{"skill://x", "skill://x", Selector{}, "no selector"},
		{"agent://x:5-9", "agent://x", Selector{Ranges: ranges(Range{5, 9})}, "range"},
		{"agent://x:raw:5", "agent://x", Selector{Raw: true, Ranges: ranges(Range{5, 0})}, "raw:range compound"},
		{"agent://x:RAW", "agent://x", Selector{Raw: true}, "raw in any case"},
		{"agent://x:1-2, 5-6", "agent://x", Selector{Ranges: ranges(Range{1, 2}, Range{5, 6})}, "a blank after the comma"},
		{"agent://x: 1-2", "agent://x", Selector{Ranges: ranges(Range{1, 2})}, "a blank after the colon"},
		{"agent://x:1-2:5-6", "agent://x:1-2", Selector{Ranges: ranges(Range{5, 6})}, "one range list is peeled, as for files"},
		{"memory://n:-3", "memory://n:-3", Selector{}, "-N is not a selector, as for files"},
		{"skill://team:deploy:2", "skill://team:deploy", Selector{Ranges: ranges(Range{2, 0})}, "a namespaced host keeps its colon"},
		{"mcp://server/res:5", "mcp://server/res:5", Selector{}, "mcp:// is opaque"},
		{"rule://:5", "rule://", Selector{Ranges: ranges(Range{5, 0})}, "the colon after :// may start a selector"},
		{"rule://", "rule://", Selector{}, "the scheme colon is never peeled"},
	}
	for _, tt := range tests {
		url, sel, _, err := SplitInternal(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.url, url, "SplitInternal(%q): %s", tt.in, tt.why)
		assert.Equal(t, tt.sel, sel, "SplitInternal(%q): %s", tt.in, tt.why)
	}
}

func TestMergeStable(t *testing.T) {
	got := Merge([]Range{{10, 20}, {1, 2}, {3, 4}, {22, 0}, {21, 21}})
	assert.Equal(t, []Range{{1, 4}, {10, 0}}, got)
	assert.Nil(t, Merge(nil))
}

// piChunk is pi's own chunk grammar, with the leniencies Scout adds to
// it everywhere (raw and conflicts in any case, blanks around each item),
// used as the oracle for what looks like a selector.
var piChunk = regexp.MustCompile(`^[ \t]*(?:(?:[Ll]?\d+(?:(?:\.\.|[-+])[Ll]?(?:\d+)?)?)(?:[ \t]*,[ \t]*[Ll]?\d+(?:(?:\.\.|[-+])[Ll]?(?:\d+)?)?)*|(?i:raw|conflicts))[ \t]*$`)

// checkSelector verifies the invariants of a parsed Selector.
func checkSelector(t *testing.T, in string, sel Selector) {
	t.Helper()
	if sel.Conflicts && (sel.Raw || len(sel.Ranges) > 0) {
		t.Fatalf("%q: conflicts with other fields: %+v", in, sel)
	}
	for i, r := range sel.Ranges {
		if r.Start < 1 || r.End != 0 && r.End < r.Start {
			t.Fatalf("%q: bad range %+v", in, r)
		}
		if i > 0 {
			prev := sel.Ranges[i-1]
			if prev.End == 0 || r.Start <= prev.End+1 {
				t.Fatalf("%q: ranges not sorted and merged: %+v", in, sel.Ranges)
			}
		}
	}
	again, ok, err := Parse(sel.String())
	if sel.IsZero() {
		return
	}
	if err != nil || !ok || !assert.ObjectsAreEqual(sel, again) {
		t.Fatalf("%q: String %q re-parses to %+v, %v, %v; want %+v", in, sel.String(), again, ok, err, sel)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"5", "L1-L10", "5-", "5..", "5..9", "3+2", "1-3,2-8,20", "1-3, 9", "raw", "RAW", "conflicts", "1-2:raw", "raw:4", "0", "5-3", "3+0", "5+", "x", "5,", "raw:raw"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, ok, err := Parse(s)
		if err != nil {
			var e *errs.Error
			if !assert.ErrorAs(t, err, &e) || e.Code != errs.InvalidParam || e.Message == "" || !ok {
				t.Fatalf("Parse(%q): %v is not an InvalidParam *errs.Error of selector syntax", s, err)
			}
			return
		}
		if !ok {
			if !sel.IsZero() {
				t.Fatalf("Parse(%q) gave %+v without a selector", s, sel)
			}
			return
		}
		checkSelector(t, s, sel)
	})
}

func FuzzSplitPathSelector(f *testing.F) {
	for _, s := range []string{"a.go:5", "a.go:raw:1-2", "a.go:1-2:raw", "a.zip:x/y:3", "foo:../bar", "x:0", "a:raw:raw:5", "a:5:5:raw", ":5", "a:5, 7", "a:Raw"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		path, sel, ok, err := Split(p)
		tail := p[strings.LastIndexByte(p, ':')+1:]
		if err != nil {
			var e *errs.Error
			if !assert.ErrorAs(t, err, &e) || e.Code != errs.InvalidParam {
				t.Fatalf("Split(%q): %v is not an InvalidParam *errs.Error", p, err)
			}
			if !piChunk.MatchString(tail) {
				t.Fatalf("Split(%q) errors on a suffix %q that is not a selector", p, tail)
			}
			return
		}
		if !ok {
			if path != p || !sel.IsZero() {
				t.Fatalf("Split(%q) = %q, %+v without a selector", p, path, sel)
			}
			if i := strings.LastIndexByte(p, ':'); i > 0 && piChunk.MatchString(tail) {
				t.Fatalf("Split(%q) did not peel the selector %q", p, tail)
			}
			return
		}
		if !strings.HasPrefix(p, path+":") || path == "" {
			t.Fatalf("Split(%q) path %q is not a prefix", p, path)
		}
		checkSelector(t, p, sel)
		path2, sel2, ok2, err2 := Split(path + ":" + sel.String())
		if err2 != nil || !ok2 || path2 != path || !assert.ObjectsAreEqual(sel, sel2) {
			t.Fatalf("Split(%q) = %q, %+v, but rejoined it gives %q, %+v, %v, %v", p, path, sel, path2, sel2, ok2, err2)
		}
	})
}
