package grep

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestLineMem: the texts and spans of reported lines come from shared
// blocks (a few allocations for thousands of lines, not one or two per
// line), and stay as reported while the scanner searches on: a later
// search, or a span appended to by its holder, changes no earlier line.
func TestLineMem(t *testing.T) {
	long := strings.Repeat("needle ", textBlock/8/7+1) // past textBlock/8: its own text, spans over spanBlock/8
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		switch {
		case i == 1500:
			b.WriteString(long + "\n")
		case i%2 == 0:
			fmt.Fprintf(&b, "a needle %d, needle\n", i)
		default:
			fmt.Fprintf(&b, "hay %d\n", i)
		}
	}
	text := []byte(b.String())
	lines := strings.Split(b.String(), "\n")
	m, err := Compile(Options{Pattern: "needle", Before: 1, After: 1, MaxColumns: -1})
	if err != nil {
		t.Fatal(err)
	}
	sc := m.NewScanner()
	first, err := sc.SearchBytes(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	check := func(res *FileResult) {
		t.Helper()
		if len(res.Lines) != 3000 {
			t.Fatalf("%d lines, want 3000", len(res.Lines))
		}
		for _, l := range res.Lines {
			if want := strings.TrimSuffix(lines[l.Number-1], "\n"); l.Text != want {
				t.Fatalf("line %d: %q, want %q", l.Number, l.Text, want)
			}
			if want := strings.Count(l.Text, "needle"); len(l.Spans) != want || cap(l.Spans) != len(l.Spans) {
				t.Fatalf("line %d: %d spans (cap %d), want %d", l.Number, len(l.Spans), cap(l.Spans), want)
			}
			for _, sp := range l.Spans {
				if l.Text[sp[0]:sp[1]] != "needle" {
					t.Fatalf("line %d: span %v is %q", l.Number, sp, l.Text[sp[0]:sp[1]])
				}
			}
		}
	}
	check(first)
	for _, l := range first.Lines {
		_ = append(l.Spans, [2]int{-1, -1}) // a holder's append reallocates
	}
	allocs := testing.AllocsPerRun(5, func() {
		res, err := sc.SearchBytes(context.Background(), text)
		if err != nil || len(res.Lines) != 3000 {
			t.Fatal(len(res.Lines), err)
		}
	})
	// Per 16 KiB of text and 1024 spans, the result, its lines, the long
	// line's text and spans.
	if allocs > 30 {
		t.Errorf("a search reporting 3000 lines made %v allocations, want at most 30", allocs)
	}
	check(first)
}
