package summary

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzExts are the file extensions FuzzSummarizeLanguages picks from: one
// per language this build summarises (without cgo only .go gives a
// summary; the others must report false).
var fuzzExts = []string{".go", ".py", ".js", ".ts", ".tsx", ".rs", ".java", ".c", ".cpp"}

// FuzzSummarizeLanguages summarises any text as each language: no input
// panics, and every summary keeps its invariants (rows cover every line
// once, kept rows are the lines, the footer agrees with the rows, no row's
// text ends in a line break). Short inputs are also tried padded with
// blank lines to MinLines, so that the fuzzer's small bodies are
// summarised too. The same text with CRLF line ends gives the same rows.
func FuzzSummarizeLanguages(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.*")
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil || strings.HasSuffix(p, ".golden") {
			continue
		}
		for i, ext := range fuzzExts {
			if strings.EqualFold(filepath.Ext(p), ext) {
				f.Add(uint8(i), src)
			}
		}
	}
	f.Add(uint8(1), []byte("def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n"))
	f.Add(uint8(7), []byte("int f(void)\n{\n  a();\n  b();\n  c();\n}\n"))
	f.Add(uint8(5), []byte("fn f() {\n    a();\n    b();\n    c();\n}\r\n"))
	f.Add(uint8(0), []byte("package a\n\nfunc f() {\n\ta()\n\tb()\n\tc()\n}\n"))
	f.Fuzz(func(t *testing.T, pick uint8, src []byte) {
		name := "f" + fuzzExts[int(pick)%len(fuzzExts)]
		check := func(src []byte) *Summary {
			s, ok := Summarize(name, src)
			if !ok {
				if s != nil {
					t.Fatalf("%s: not summarised but a summary %+v", name, s)
				}
				return nil
			}
			if s.Language != Language(name) {
				t.Fatalf("%s: Language %q, want %q", name, s.Language, Language(name))
			}
			checkInvariants(t, splitLines(src), s)
			for _, r := range s.Rows {
				if strings.HasSuffix(r.Text, "\n") || strings.HasSuffix(r.Tail, "\n") {
					t.Fatalf("%s: row %+v ends in a line break", name, r)
				}
			}
			return s
		}
		s := check(src)
		if n := bytes.Count(src, []byte("\n")); n < MinLines {
			s = check(append(src[:len(src):len(src)], bytes.Repeat([]byte("\n"), MinLines-n)...))
		}
		if s != nil && !bytes.Contains(src, []byte("\r")) {
			crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
			if n := bytes.Count(src, []byte("\n")); n < MinLines {
				crlf = append(crlf, bytes.Repeat([]byte("\r\n"), MinLines-n)...)
			}
			s2, ok := Summarize(name, crlf)
			if !ok {
				t.Fatalf("%s: summarised with LF line ends, not with CRLF", name)
			}
			if len(s2.Rows) != len(s.Rows) || s2.ElidedLines != s.ElidedLines {
				t.Fatalf("%s: CRLF line ends change the summary:\nLF   %+v\nCRLF %+v", name, s.Rows, s2.Rows)
			}
		}
	})
}
