package grep

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"
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

// TestLend: a lending scanner leaves a result its lines in its scratch,
// without the copy of every line that a result of its own takes (a tenth
// of the bytes a dense search allocates), and the next search reuses them.
func TestLend(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "needle %d\n", i)
	}
	text := []byte(b.String())
	m, err := Compile(Options{Pattern: "needle"})
	if err != nil {
		t.Fatal(err)
	}
	for _, lend := range []bool{false, true} {
		sc := m.NewScanner()
		if lend {
			sc.Lend()
		}
		first, err := sc.SearchBytes(context.Background(), text)
		if err != nil || len(first.Lines) != 3000 {
			t.Fatal(len(first.Lines), err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		second, err := sc.SearchBytes(context.Background(), text)
		runtime.ReadMemStats(&after)
		if err != nil || len(second.Lines) != 3000 || second.Lines[2999].Text != "needle 2999" {
			t.Fatal(len(second.Lines), err)
		}
		copied := after.TotalAlloc-before.TotalAlloc >= uint64(3000*unsafe.Sizeof(Line{}))
		shared := &first.Lines[0] == &second.Lines[0]
		if copied == lend || shared != lend {
			t.Errorf("lend %v: the lines were copied %v, shared with the last result's %v", lend, copied, shared)
		}
	}
}
