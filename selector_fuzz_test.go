package scout

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

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
	require.NoError(t, err, "%q: String %q re-parses", in, sel.String())
	require.Equal(t, sel, again, "%q: String %q re-parses", in, sel.String())
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
