package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/testfs"
)

// withPartLines sets partLines to n for the test.
func withPartLines(t *testing.T, n int) {
	old := partLines
	partLines = n
	t.Cleanup(func() { partLines = old })
}

// partsTree is a tree with a file of many matching lines (CRLF ends, a
// line over the column cap, gaps), smaller files and an archive.
func partsTree(t *testing.T) string {
	var big strings.Builder
	for i := 1; i <= 3000; i++ {
		switch {
		case i == 1500:
			fmt.Fprintf(&big, "needle %s\n", strings.Repeat("long ", 200))
		case i%7 == 0:
			fmt.Fprintf(&big, "needle %d with CRLF\r\n", i)
		case i%3 == 0 || i%11 == 0:
			fmt.Fprintf(&big, "a needle, line %d\n", i)
		default:
			fmt.Fprintf(&big, "hay %d\n", i)
		}
	}
	return writeTree(t, map[string][]byte{
		"big.txt":     []byte(big.String()),
		"nofinal.txt": []byte("needle 1\nhay\nneedle 3\nneedle 4"),
		"src/a.go":    []byte("package a\n// needle\nfunc A() {}\n// needle again\n"),
		"src/b.go":    []byte("package b\n"),
		"z.zip":       testfs.Zip(testfs.Member{Name: "x.ts", Body: "needle\nhay\nneedle\n"}),
	})
}

// TestSearchParts: scout search prints the same bytes whether it gets
// files whole or in parts of 1, 2 or 7 matching lines: one file or
// several, in path order or (for one file) as searched, with contexts,
// -m, line ranges, the styles, cut lines, notes and every mode.
func TestSearchParts(t *testing.T) {
	root := partsTree(t)
	cases := [][]string{
		{"needle"},
		{"needle", "-C", "0"},
		{"needle", "-B", "3", "-A", "2"},
		{"needle", "-m", "9"},
		{"needle", "--style", "numbered"},
		{"needle", "--style", "plain", "-C", "1"},
		{"needle", "big.txt"},
		{"needle", "big.txt", "--sort", "none"},
		{"needle", "big.txt", "-m", "100", "-A", "5"},
		{"needle", "big.txt", "--style", "numbered", "-C", "2"},
		{"needle", "big.txt:100-400,1400-1600", "-B", "2"},
		{"needle", "big.txt", "nope.txt"},
		{"needle", "nofinal.txt", "-A", "1"},
		{"needle", "big.txt", "src"},
		{"needle", "big.txt", "z.zip"},
		{"needle", "-l"},
		{"needle", "-c"},
		{"needle\\s+\\d", "-U", "big.txt"},
	}
	for _, c := range cases {
		args := append([]string{"search", "--root", root}, c...)
		if !strings.Contains(strings.Join(c, " "), "--sort") {
			args = append(args, "--sort", "path")
		}
		withPartLines(t, 0)
		code, want, errb := runCLI(args...)
		if code != 0 || !strings.Contains(want, "big.txt") && !strings.Contains(want, "needle") {
			t.Fatalf("%v: exit %d %s: %.200q", c, code, errb, want)
		}
		for _, n := range []int{1, 2, 7} {
			partLines = n
			code, got, errb := runCLI(args...)
			if code != 0 || got != want {
				t.Errorf("%v in parts of %d: exit %d %s; the output differs from the whole files' at byte %d:\n%.300q\nwant\n%.300q", c, n, code, errb, diffAt(got, want), got[diffAt(got, want):], want[diffAt(got, want):])
			}
		}
	}
}

// diffAt is the offset of the first byte where a and b differ.
func diffAt(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// TestSearchPartsCorpora runs the command line's search tests with files
// in parts of one matching line: their outputs are as whole.
func TestSearchPartsCorpora(t *testing.T) {
	withPartLines(t, 1)
	t.Run("one file", TestSearchOneFile)
	t.Run("line ranges", TestSearchLineRanges)
	t.Run("styles", TestStyles)
	t.Run("streams", TestSearchStreams)
}
