package summary

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFixtures summarises one fixture per language and checks the
// summary's invariants (the format package compares the text of these
// fixtures with its goldens). Without cgo only Go is summarised and the
// others must report false, so the caller reads them as plain text.
func TestFixtures(t *testing.T) {
	tests := []struct {
		file, lang string
		reason     string
	}{
		{"sample.go", "go", "go/ast: funcs, methods and func literals; one-line bodies kept"},
		{"sample.py", "python", "indented bodies become ..., docstrings and class bodies kept"},
		{"sample.js", "javascript", "functions, methods, arrows with block bodies"},
		{"sample.ts", "typescript", "TypeScript: interfaces kept, methods and arrows elided"},
		{"sample.tsx", "tsx", "TSX: JSX parses; expression-bodied arrows kept"},
		{"sample.rs", "rust", "function items, methods in impls"},
		{"Sample.java", "java", "methods and constructors; class body kept"},
		{"sample.c", "c", "Allman braces merge; a brace not ending its line keeps its lines"},
		{"sample.cpp", "cpp", "methods inside classes and templates"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			s, ok := Summarize(tt.file, src)
			if want := tt.lang == "go" || cgoEnabled; ok != want {
				t.Fatalf("Summarize ok = %v, want %v (cgo %v)", ok, want, cgoEnabled)
			}
			if !ok {
				if Language(tt.file) != "" {
					t.Errorf("Language(%q) = %q without cgo, want \"\"", tt.file, Language(tt.file))
				}
				return
			}
			if s.Language != tt.lang {
				t.Errorf("Language = %q, want %q", s.Language, tt.lang)
			}
			checkInvariants(t, strings.Split(strings.ReplaceAll(strings.TrimSuffix(string(src), "\n"), "\r\n", "\n"), "\n"), s)
			if s.ElidedLines == 0 {
				t.Errorf("%s: nothing elided", tt.reason)
			}
		})
	}
}

// checkInvariants checks that the rows cover every line once, in order,
// that kept lines are the source lines, and that the footer spans and
// count agree with the rows.
func checkInvariants(t *testing.T, lines []string, s *Summary) {
	t.Helper()
	if s.TotalLines != len(lines) {
		t.Errorf("TotalLines = %d, want %d", s.TotalLines, len(lines))
	}
	next, elided := 1, 0
	var spans []Span
	for _, r := range s.Rows {
		if r.Start != next || r.End < r.Start {
			t.Fatalf("row %+v does not start at line %d", r, next)
		}
		switch r.Kind {
		case RowLine:
			if r.End != r.Start || r.Text != lines[r.Start-1] {
				t.Errorf("kept row %+v is not line %d %q", r, r.Start, lines[r.Start-1])
			}
		case RowElided:
			elided += r.End - r.Start + 1
			spans = append(spans, Span{r.Start, r.End})
		case RowMerged:
			if r.Text != lines[r.Start-1] || r.Tail != lines[r.End-1] {
				t.Errorf("merged row %+v is not lines %d and %d", r, r.Start, r.End)
			}
			elided += r.End - r.Start - 1
			spans = append(spans, Span{r.Start, r.End})
		}
		next = r.End + 1
	}
	if next != len(lines)+1 {
		t.Errorf("rows end at line %d, want %d", next-1, len(lines))
	}
	assert.Equal(t, elided, s.ElidedLines, "ElidedLines agrees with the rows")
	assert.Equal(t, spans, s.Elided, "the elided spans agree with the rows")
}

func numbered(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("l%d", i+1)
	}
	return lines
}

func TestBuild(t *testing.T) {
	lines := numbered(30)
	lines[1] = "func a() {" // 2
	lines[7] = "}"          // 8
	lines[9] = "f(x) {  "   // 10: trailing blanks still end with {
	lines[14] = "  });"     // 15
	lines[19] = "g() { a"   // 20: brace not last
	lines[24] = "}"         // 25
	kept := func(n int) Row { return Row{Kind: RowLine, Start: n, End: n, Text: lines[n-1]} }
	tests := []struct {
		name   string
		blocks []block
		want   []Row // consecutive rows of the summary
		spans  []Span
		count  int
		reason string
	}{
		{"merged", []block{{2, 8, true}}, []Row{kept(1), {Kind: RowMerged, Start: 2, End: 8, Text: "func a() {", Tail: "}"}, kept(9)}, []Span{{2, 8}}, 5,
			"a brace pair at line end and line start merges; its interior is counted"},
		{"merged tail", []block{{10, 15, true}}, []Row{kept(9), {Kind: RowMerged, Start: 10, End: 15, Text: "f(x) {  ", Tail: "  });"}, kept(16)}, []Span{{10, 15}}, 4,
			"the brace lines are kept whole, what follows the closing brace included"},
		{"unmerged", []block{{20, 25, true}}, []Row{kept(19), kept(20), {Kind: RowElided, Start: 21, End: 24}, kept(25), kept(26)}, []Span{{21, 24}}, 4,
			"a brace that does not end its line keeps both brace lines"},
		{"indented", []block{{3, 6, false}}, []Row{kept(2), {Kind: RowElided, Start: 3, End: 6}, kept(7)}, []Span{{3, 6}}, 4,
			"an indented body is elided whole"},
		{"too small", []block{{2, 5, true}, {3, 4, false}}, nil, nil, 0,
			"bodies under MinBodyLines interior lines are kept"},
		{"overlap", []block{{2, 8, true}, {8, 12, true}, {5, 7, false}}, []Row{{Kind: RowMerged, Start: 2, End: 8, Text: "func a() {", Tail: "}"}, kept(9)}, []Span{{2, 8}}, 5,
			"a body starting on a line already used is skipped"},
		{"out of range", []block{{20, 40, true}, {9, 3, true}}, nil, nil, 0,
			"a body past the end or reversed is ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := build(lines, tt.blocks)
			checkInvariants(t, lines, s)
			found := len(tt.want) == 0
			for i := 0; !found && i+len(tt.want) <= len(s.Rows); i++ {
				found = assert.ObjectsAreEqual(tt.want, s.Rows[i:i+len(tt.want)])
			}
			assert.True(t, found, "%s: rows %+v hold %+v", tt.reason, s.Rows, tt.want)
			assert.Equal(t, tt.spans, s.Elided, tt.reason)
			assert.Equal(t, tt.count, s.ElidedLines, tt.reason)
		})
	}
}

func goSource(funcs, bodyLines int) []byte {
	var b strings.Builder
	b.WriteString("package p\n")
	for i := range funcs {
		fmt.Fprintf(&b, "\nfunc f%d() {\n", i)
		for j := range bodyLines {
			fmt.Fprintf(&b, "\tprintln(%d)\n", j)
		}
		b.WriteString("}\n")
	}
	return []byte(b.String())
}

func TestEligibility(t *testing.T) {
	lines := func(src []byte) int { return strings.Count(strings.TrimSuffix(string(src), "\n"), "\n") + 1 }
	exact := goSource(14, 4) // 1 + 14*7 = 99 lines
	hundred := append(append([]byte{}, exact...), "// one more\n"...)
	crlf := []byte(strings.ReplaceAll(string(hundred), "\n", "\r\n"))
	tests := []struct {
		name   string
		file   string
		src    []byte
		want   bool
		reason string
	}{
		{"99 lines", "a.go", exact, false, fmt.Sprintf("%d lines is under MinLines", lines(exact))},
		{"100 lines", "a.go", hundred, true, "MinLines is inclusive; the final newline adds no line"},
		{"crlf", "a.go", crlf, true, "CRLF files summarise like LF"},
		{"upper ext", "A.GO", hundred, true, "extensions match case-insensitively"},
		{"too many lines", "a.go", goSource(2858, 5), false, "over MaxLines"},
		{"too many bytes", "a.go", append(goSource(20, 5), strings.Repeat("// xxxxxxxx\n", MaxBytes/12)...), false, "over MaxBytes"},
		{"nul", "a.go", append(hundred, 0), false, "a NUL byte means binary"},
		{"syntax error", "a.go", append(hundred, "func {"...), false, "a file that does not parse is read plainly"},
		{"python error", "a.py", append([]byte("x = = 1\n"), pySource(20, 5)...), cgoEnabled,
			"tree-sitter languages skip only the functions that hold an error"},
		{"python", "a.py", pySource(20, 5), cgoEnabled, "Python needs cgo"},
		{"unknown ext", "a.txt", hundred, false, "no parser for .txt"},
		{"no ext", "Makefile", hundred, false, "no extension"},
		{"nothing elided", "a.go", goSource(40, 2), false, "all bodies under MinBodyLines: nothing to gain"},
		{"empty", "a.go", nil, false, "an empty file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := Summarize(tt.file, tt.src)
			if ok != tt.want || (s != nil) != ok {
				t.Errorf("%s: Summarize ok = %v, want %v", tt.reason, ok, tt.want)
			}
		})
	}
}

func TestGoLineDirective(t *testing.T) {
	src := append([]byte("//line other.go:500\n"), goSource(20, 5)...)
	s, ok := Summarize("a.go", src)
	if !ok {
		t.Fatal("want a summary")
	}
	assert.Equal(t, Span{4, 10}, s.Elided[0], "a //line directive must not move ranges")
}

// FuzzSummarize checks that no Go input panics and that every summary
// keeps its invariants.
func FuzzSummarize(f *testing.F) {
	src, _ := os.ReadFile("testdata/sample.go")
	f.Add(src)
	f.Add(goSource(20, 5))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, ok := Summarize("f.go", src)
		if !ok {
			return
		}
		lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
		for i := range lines {
			lines[i] = strings.TrimSuffix(lines[i], "\r")
		}
		checkInvariants(t, lines, s)
	})
}

// TestConcurrent summarises every fixture from many goroutines at once;
// under -race it proves the parsers share no mutable state.
func TestConcurrent(t *testing.T) {
	files, err := filepath.Glob("testdata/*.*")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string)
	for _, f := range files {
		if strings.HasSuffix(f, ".golden") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Summarize(f, src)
		for range 4 {
			go func() {
				got, _ := Summarize(f, src)
				if !assert.ObjectsAreEqual(want, got) {
					done <- f
					return
				}
				done <- ""
			}()
		}
		defer func() {
			for range 4 {
				if f := <-done; f != "" {
					t.Errorf("%s: concurrent summaries differ", f)
				}
			}
		}()
	}
}

func pySource(funcs, bodyLines int) []byte {
	var b strings.Builder
	for i := range funcs {
		fmt.Fprintf(&b, "def f%d(x):\n", i)
		for j := range bodyLines {
			fmt.Fprintf(&b, "    x += %d\n", j)
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

func BenchmarkSummarize(b *testing.B) {
	for _, c := range []struct {
		name string
		src  []byte
	}{{"a.go", goSource(2500, 5)}, {"a.py", pySource(2800, 5)}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.src)))
			for b.Loop() {
				Summarize(c.name, c.src)
			}
		})
	}
}
