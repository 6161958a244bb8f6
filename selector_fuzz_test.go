package scout

import (
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// piChunk is pi's own grammar (notes/pi-behaviour.md §1.7), used as the
// oracle for what looks like a selector.
var piChunk = regexp.MustCompile(`^(?:(?:[Ll]?\d+(?:(?:\.\.|[-+])[Ll]?(?:\d+)?)?)(?:,[Ll]?\d+(?:(?:\.\.|[-+])[Ll]?(?:\d+)?)?)*|raw|conflicts)$`)

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
	again, err := ParseSelector(sel.String())
	if err != nil || !reflect.DeepEqual(again, sel) {
		t.Fatalf("%q: String %q re-parses to %+v, %v; want %+v", in, sel.String(), again, err, sel)
	}
}

func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{"5", "L1-L10", "5-", "5..", "5..9", "3+2", "1-3,2-8,20", "raw", "conflicts", "1-2:raw", "raw:4", "0", "5-3", "3+0", "x", "5,", "raw:raw"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelector(s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeInvalidParam || e.Message == "" {
				t.Fatalf("ParseSelector(%q): %v is not an InvalidParam *Error", s, err)
			}
			return
		}
		checkSelector(t, s, sel)
	})
}

func FuzzSplitPathSelector(f *testing.F) {
	for _, s := range []string{"a.go:5", "a.go:raw:1-2", "a.go:1-2:raw", "a.zip:x/y:3", "foo:../bar", "x:0", "a:raw:raw:5", "a:5:5:raw", ":5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		path, sel, ok, err := SplitPathSelector(p)
		tail := p[strings.LastIndexByte(p, ':')+1:]
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeInvalidParam {
				t.Fatalf("SplitPathSelector(%q): %v is not an InvalidParam *Error", p, err)
			}
			if !piChunk.MatchString(tail) {
				t.Fatalf("SplitPathSelector(%q) errors on a suffix %q that is not a selector", p, tail)
			}
			return
		}
		if !ok {
			if path != p || !sel.IsZero() {
				t.Fatalf("SplitPathSelector(%q) = %q, %+v without a selector", p, path, sel)
			}
			if i := strings.LastIndexByte(p, ':'); i > 0 && piChunk.MatchString(tail) {
				t.Fatalf("SplitPathSelector(%q) did not peel the selector %q", p, tail)
			}
			return
		}
		if !strings.HasPrefix(p, path+":") || path == "" {
			t.Fatalf("SplitPathSelector(%q) path %q is not a prefix", p, path)
		}
		checkSelector(t, p, sel)
		path2, sel2, ok2, err2 := SplitPathSelector(path + ":" + sel.String())
		if err2 != nil || !ok2 || path2 != path || !reflect.DeepEqual(sel2, sel) {
			t.Fatalf("SplitPathSelector(%q) = %q, %+v, but rejoined it gives %q, %+v, %v, %v", p, path, sel, path2, sel2, ok2, err2)
		}
	})
}
