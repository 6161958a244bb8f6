package memtext

import (
	"reflect"
	"strings"
	"testing"
)

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
	})
}
