// Package summary builds the structural summary the read tool shows for a
// source file read without a selector: every line is kept except the
// interiors of function bodies, which are elided; the elided line ranges
// are listed so that a model can re-read exactly what it needs (the format
// package renders the rows and that footer).
//
// # Rows
//
// A summary is a list of rows in file order:
//
//	12:func (s *Server) Start() error {     a kept line (RowLine)
//	...                                      an elided span (RowElided)
//	40-87:func main() { .. }                 a brace pair merged around its elided interior (RowMerged)
//
// (shown as format renders them). A body is merged into one row when its
// opening brace ends its line and its closing brace starts its line; the
// row stands for the whole pair and its range covers it, braces included. Otherwise the brace
// lines stay and only the interior becomes `...`. Indentation-delimited
// bodies (Python) become `...`, and a docstring is kept.
//
// # Languages
//
// Go is parsed with go/parser and is always available. Python,
// JavaScript, TypeScript (and TSX), Rust, Java, C and C++ are parsed with
// tree-sitter, which needs cgo; a binary built with CGO_ENABLED=0 reports
// them as unsupported and the caller reads the file as plain text. The
// language comes from the file extension.
//
// # Eligibility
//
// A file is summarised when it has MinLines..MaxLines lines, at most
// MaxBytes bytes, no NUL byte, and at least one body with MinBodyLines or
// more interior lines; otherwise Summarize reports false and the caller
// reads the file normally. Go files must parse without errors; the
// tree-sitter languages tolerate errors and skip the functions that hold
// one. Either way every row is a real line or a real range.
package summary

import (
	"bytes"
	"path"
	"slices"
	"strings"
	"sync"
)

// Limits on what is summarised.
const (
	MinLines     = 100     // fewer lines are shown whole
	MaxLines     = 20_000  // more lines are not parsed
	MaxBytes     = 2 << 20 // larger files are not parsed
	MinBodyLines = 3       // a body with fewer interior lines is kept
)

// Span is a range of lines, 1-based and inclusive.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// RowKind says what a Row stands for.
type RowKind uint8

// The row kinds.
const (
	RowLine   RowKind = iota // one kept line: Start == End, Text is the line
	RowElided                // elided lines Start..End; Text is empty
	RowMerged                // lines Start..End shown as one row: Text is line Start, Tail line End, the lines between are elided
)

// Row is one row of a summary.
type Row struct {
	Kind  RowKind `json:"kind"`
	Start int     `json:"start"`          // first line the row stands for (1-based)
	End   int     `json:"end"`            // last line the row stands for
	Text  string  `json:"text"`           // see RowKind; never ends in CR or LF
	Tail  string  `json:"tail,omitempty"` // RowMerged: line End
}

// Summary is the structural summary of one file.
type Summary struct {
	Language    string `json:"language"`     // e.g. "go", "python", "tsx"
	TotalLines  int    `json:"total_lines"`  // a final newline does not start a line
	Rows        []Row  `json:"rows"`         // in file order, covering every line once
	Elided      []Span `json:"elided"`       // the footer's re-read ranges, in order
	ElidedLines int    `json:"elided_lines"` // lines not shown in any row
}

// block is a body found by a parser, in 1-based lines. For a braced body
// open and close are the lines of its braces; for an indented body they
// are its first and last elidable lines.
type block struct {
	open, close int
	braced      bool
}

// backends returns the parsers by language, made on first use. Go is
// always present; the tree-sitter languages are added by the cgo build
// (treesitter.go).
var backends = sync.OnceValue(func() map[string]func(src []byte) ([]block, bool) {
	m := map[string]func(src []byte) ([]block, bool){"go": goBlocks}
	addBackends(m)
	return m
})

// addBackends adds the parsers of the build's other languages to m; the
// cgo build sets it.
var addBackends = func(m map[string]func(src []byte) ([]block, bool)) {}

// extensions returns the language of each extension, made on first use.
var extensions = sync.OnceValue(func() map[string]string {
	return map[string]string{
		".go": "go",
		".py": "python", ".pyi": "python", ".pyw": "python",
		".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
		".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
		".tsx":  "tsx",
		".rs":   "rust",
		".java": "java",
		".c":    "c",
		".h":    "cpp", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp",
	}
})

// Language returns the language Summarize would use for a file named
// name, or "" when its extension is not one this build can summarise.
func Language(name string) string {
	lang := extensions()[strings.ToLower(path.Ext(name))]
	if _, ok := backends()[lang]; !ok {
		return ""
	}
	return lang
}

// Summarize returns the summary of src, the content of a file named name
// (only its extension matters), and false when the file is not eligible
// (see the package documentation).
func Summarize(name string, src []byte) (*Summary, bool) {
	lang := Language(name)
	if lang == "" || len(src) > MaxBytes || bytes.IndexByte(src, 0) >= 0 {
		return nil, false
	}
	lines := splitLines(src)
	if len(lines) < MinLines || len(lines) > MaxLines {
		return nil, false
	}
	blocks, ok := backends()[lang](src)
	if !ok {
		return nil, false
	}
	s := build(lines, blocks)
	if s.ElidedLines == 0 {
		return nil, false
	}
	s.Language = lang
	return s, true
}

// splitLines splits src on "\n" without an empty line after a final
// newline, and drops a CR before each "\n".
func splitLines(src []byte) []string {
	lines := strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// build turns the bodies into rows. Bodies are taken in order of their
// first line; one that starts on a line already used, or is too small,
// is skipped, so rows never overlap.
func build(lines []string, blocks []block) *Summary {
	slices.SortFunc(blocks, func(a, b block) int { return a.open - b.open })
	s := &Summary{TotalLines: len(lines)}
	next := 1 // first line without a row
	keep := func(to int) {
		for ; next <= to; next++ {
			s.Rows = append(s.Rows, Row{Kind: RowLine, Start: next, End: next, Text: lines[next-1]})
		}
	}
	for _, b := range blocks {
		if b.open < next || b.close > len(lines) || b.open > b.close {
			continue
		}
		if !b.braced {
			if b.close-b.open+1 < MinBodyLines {
				continue
			}
			keep(b.open - 1)
			s.elide(b.open, b.close)
			next = b.close + 1
			continue
		}
		if b.close-b.open-1 < MinBodyLines {
			continue
		}
		head := strings.TrimRight(lines[b.open-1], " \t")
		tail := strings.TrimSpace(lines[b.close-1])
		if strings.HasSuffix(head, "{") && strings.HasPrefix(tail, "}") {
			keep(b.open - 1)
			s.Rows = append(s.Rows, Row{Kind: RowMerged, Start: b.open, End: b.close, Text: lines[b.open-1], Tail: lines[b.close-1]})
			s.Elided = append(s.Elided, Span{b.open, b.close})
			s.ElidedLines += b.close - b.open - 1
			next = b.close + 1
			continue
		}
		keep(b.open)
		s.elide(b.open+1, b.close-1)
		next = b.close // the closing line stays
	}
	keep(len(lines))
	return s
}

func (s *Summary) elide(from, to int) {
	s.Rows = append(s.Rows, Row{Kind: RowElided, Start: from, End: to})
	s.Elided = append(s.Elided, Span{from, to})
	s.ElidedLines += to - from + 1
}
