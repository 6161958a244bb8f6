package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/pitext"
)

// BenchmarkSearchDense is scout search of a pattern on every fifth line of
// 200 files of 600 lines (Go-like code): 24,000 matching lines printed
// with their context, 100,000 lines in all, as a search of 'return' over a
// source tree prints them. Its allocations are per line: what the results
// cost between the engine and the text.
func BenchmarkSearchDense(b *testing.B) {
	root := denseTree(b, 200)
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"search", "--root", root, "return"}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit status %d", code)
		}
	}
}

// denseTree writes n files of 600 lines of Go-like code, a 'return' on
// every fifth line, and returns its root.
func denseTree(tb testing.TB, n int) string {
	root := tb.TempDir()
	for i := range n {
		var f strings.Builder
		for j := range 600 {
			switch j % 5 {
			case 0:
				fmt.Fprintf(&f, "func f%d(x int) (int, error) {\n", j)
			case 1:
				fmt.Fprintf(&f, "\tif x > %d {\n", j)
			case 2:
				f.WriteString("\t\treturn x, errTooBig\n")
			case 3:
				f.WriteString("\t}\n")
			default:
				fmt.Fprintf(&f, "\ty := x * %d // a comment\n", i)
			}
		}
		p := filepath.Join(root, fmt.Sprintf("d%d", i%10), fmt.Sprintf("f%d.go", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

// TestSearchDenseBytes: the lines of a dense search go from the engine
// to the text in memory reused from file to file (search.Lend), not in a
// FileMatch and texts allocated for each file, which took more than half
// of the bytes that scout search of 'return' over a source tree allocated
// (and the page faults of that fresh memory a good part of its system
// time). 12,000 matching lines and their context, 60,000 lines of
// output a run, cost a few bytes a line (112 before).
func TestSearchDenseBytes(t *testing.T) {
	root := denseTree(t, 100)
	var out bytes.Buffer
	search := func() {
		out.Reset()
		if code := run([]string{"search", "--root", root, "return"}, nil, &out, io.Discard); code != 0 {
			t.Fatalf("exit status %d", code)
		}
	}
	search()
	lines := bytes.Count(out.Bytes(), []byte("\n"))
	out.Grow(2 * out.Len()) // the buffer's own growth is not counted
	least := ^uint64(0)
	var ms runtime.MemStats
	for range 3 {
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		search()
		runtime.ReadMemStats(&ms)
		least = min(least, ms.TotalAlloc-before)
	}
	t.Logf("%d lines, %d bytes allocated, %.1f a line", lines, least, float64(least)/float64(lines))
	if perLine := float64(least) / float64(lines); perLine > 40 {
		t.Errorf("allocated %.1f bytes a line of output (%d lines, %d bytes), want at most 40", perLine, lines, least)
	}
}

// TestOutputFileAllocs: the output renders a file's lines into its block,
// with no string of them: a file of 200 lines costs at most its heading.
func TestOutputFileAllocs(t *testing.T) {
	fm := &scout.FileMatch{Path: "src/a.go", Tag: "3F", MatchLines: 100}
	for i := 1; i <= 200; i++ {
		fm.Lines = append(fm.Lines, scout.LineMatch{Line: i, Text: "\t\treturn x, errTooBig", Match: i%2 == 0})
	}
	o := newOutput(io.Discard, nil)
	defer o.close()
	st := pitext.Stream{Style: pitext.StyleHashline}
	o.file(&st, fm) // the block grows to hold a file
	if allocs := testing.AllocsPerRun(100, func() { o.file(&st, fm) }); allocs > 1 {
		t.Errorf("a file of 200 lines made %v allocations, want at most 1 (its heading)", allocs)
	}
}
