package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	root := b.TempDir()
	for i := range 200 {
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
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"search", "--root", root, "return"}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit status %d", code)
		}
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
