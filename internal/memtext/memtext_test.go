package memtext

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "l%d\n", i)
	}
	return b.String()
}

func TestPaginate(t *testing.T) {
	ten := numbered(10)
	tests := []struct {
		reason string
		text   string
		ranges []Range
		opts   Options
		want   string
	}{
		{"whole text, trailing newline adds no line", ten, nil, Options{}, strings.TrimSuffix(ten, "\n")},
		{"empty text is one empty line", "", nil, Options{}, ""},
		{"bounded range gets 1 leading and 3 trailing context lines", ten, []Range{{4, 5}}, Options{},
			"l3\nl4\nl5\nl6\nl7\nl8\n\n[2 more lines in resource. Use :9 to continue]"},
		{"raw range is exact", ten, []Range{{4, 5}}, Options{Raw: true, Entity: EntityURL},
			"l4\nl5\n\n[5 more lines in URL output. Use :6 to continue]"},
		{"open range from line 1 has no context", ten, []Range{{1, 0}}, Options{}, strings.TrimSuffix(ten, "\n")},
		{"open range adds only a leading line", ten, []Range{{9, 0}}, Options{}, "l8\nl9\nl10"},
		{"range reaching the end has no continuation notice", ten, []Range{{8, 10}}, Options{}, "l7\nl8\nl9\nl10"},
		{"start past the end names the entity", ten, []Range{{11, 0}}, Options{Entity: EntityArchive},
			"Line 11 is beyond end of archive entry (10 lines total). Use :1 to read from the start, or :10 to read the last line."},
		{"line cap cuts the head", ten, nil, Options{MaxLines: 3},
			"l1\nl2\nl3\n\n[Showing lines 1-3 of 10. Use :4 to continue]"},
		{"byte cap cuts the head and reports the bytes shown", ten, nil, Options{MaxBytes: 8},
			"l1\nl2\nl3\n\n[Showing lines 1-3 of 10 (8B limit). Use :4 to continue]"},
		{"unlimited ignores the caps", ten, nil, Options{MaxLines: 3, Unlimited: true}, strings.TrimSuffix(ten, "\n")},
		{"multi-range shows blocks without context", ten, []Range{{2, 3}, {8, 8}}, Options{},
			"l2\nl3\n\n…\n\nl8"},
		{"multi-range skips a range past the end", ten, []Range{{2, 2}, {20, 30}}, Options{Entity: EntityNotebook},
			"l2\n[Range 20-30 is beyond end of notebook (10 lines total); skipped]"},
		{"touching ranges merge into one", ten, []Range{{2, 3}, {4, 4}}, Options{Raw: true},
			"l2\nl3\nl4\n\n[6 more lines in resource. Use :5 to continue]"},
		{"first line over the byte cap shows a UTF-8-safe prefix", "ééééé\nx", nil, Options{MaxBytes: 5},
			"éé\n\n[Line 1 is 10B, exceeds 5B limit; showing its first 4B]"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			if got := Paginate(tt.text, tt.ranges, tt.opts).Text(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestPaginateData(t *testing.T) {
	p := Paginate(numbered(10), nil, Options{MaxLines: 4})
	if !p.Truncated || p.ByBytes || p.Next != 5 || p.Total != 10 || len(p.Blocks) != 1 ||
		p.Blocks[0].Start != 1 || p.Blocks[0].End() != 4 {
		t.Errorf("unexpected page %+v", p)
	}
}

func TestParseSelector(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		want   Selector
		ok     bool
		err    string
	}{
		{"raw alone", "raw", Selector{Raw: true}, true, ""},
		{"single line is open-ended", "5", Selector{Ranges: []Range{{5, 0}}}, true, ""},
		{"inclusive range", "L5-L9", Selector{Ranges: []Range{{5, 9}}}, true, ""},
		{"count form", "5+3", Selector{Ranges: []Range{{5, 7}}}, true, ""},
		{"dot form", "5..7", Selector{Ranges: []Range{{5, 7}}}, true, ""},
		{"trailing dash is open-ended", "5-", Selector{Ranges: []Range{{5, 0}}}, true, ""},
		{"ranges sorted and merged", "20-30,1-5,4-8", Selector{Ranges: []Range{{1, 8}, {20, 30}}}, true, ""},
		{"range then raw", "1-5:raw", Selector{Raw: true, Ranges: []Range{{1, 5}}}, true, ""},
		{"raw then range", "raw:1-5", Selector{Raw: true, Ranges: []Range{{1, 5}}}, true, ""},
		{"zero is rejected with a hint", "0", Selector{}, true, "Use :1"},
		{"zero count is rejected", "5+0", Selector{}, true, "count must be >= 1"},
		{"reversed range is rejected", "5-3", Selector{}, true, "end must be >= start"},
		{"a path segment is not a selector", "inner/file.txt", Selector{}, false, ""},
		{"a port-like word is not a selector", "raw:raw", Selector{}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got, ok, err := ParseSelector(tt.in)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSplitSelector(t *testing.T) {
	tests := []struct{ reason, in, base, sel string }{
		{"no colon", "a.txt", "a.txt", ""},
		{"range", "a.txt:5-9", "a.txt", "5-9"},
		{"compound range:raw", "a.txt:5-9:raw", "a.txt", "5-9:raw"},
		{"compound raw:range", "a.txt:raw:5", "a.txt", "raw:5"},
		{"archive member is not a selector", "a.zip:dir/f.txt", "a.zip:dir/f.txt", ""},
		{"member then selector", "a.zip:dir/f.txt:3", "a.zip:dir/f.txt", "3"},
		{"leading colon never splits", ":5", ":5", ""},
		{"port number alone is a selector: add a slash before it", "https://h.example:80", "https://h.example", "80"},
		{"slash protects the port", "https://h.example:80/:raw", "https://h.example:80/", "raw"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			if b, s := SplitSelector(tt.in); b != tt.base || s != tt.sel {
				t.Errorf("got (%q, %q), want (%q, %q)", b, s, tt.base, tt.sel)
			}
		})
	}
}

func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{"raw", "1-5", "5+3", "1-5,7-9:raw", "L1..L9", "0", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, ok, err := ParseSelector(s)
		if !ok || err != nil {
			return
		}
		for i, r := range sel.Ranges {
			if r.Start < 1 || (r.End != 0 && r.End < r.Start) {
				t.Fatalf("bad range %v from %q", r, s)
			}
			if i > 0 && r.Start <= sel.Ranges[i-1].End+1 {
				t.Fatalf("unmerged ranges %v from %q", sel.Ranges, s)
			}
		}
		Paginate("a\nb\nc", sel.Ranges, Options{Raw: sel.Raw})
	})
}
