package scout_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/testfs"
)

// literalSource is a Go file of one function with a 4-line body (elided by
// a summary) and a literal of n lines (kept), each line w bytes wide.
func literalSource(n, w int) []byte {
	var b bytes.Buffer
	b.WriteString("package p\n\nfunc f() int {\n\tx := 1\n\tx++\n\tx++\n\treturn x\n}\n\nvar table = []string{\n")
	pad := strings.Repeat("x", max(w-5, 1))
	for range n {
		fmt.Fprintf(&b, "\t%q,\n", pad)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// TestReadSummaryShorter: a code summary is shown only when it is shorter
// than the file: no more than one read shows (3000 rows within the byte
// budget of as many lines), and no more rows than an open-ended read shows
// lines or at most half the file. Otherwise the file is read as lines,
// paged from line 1.
func TestReadSummaryShorter(t *testing.T) {
	tests := []struct {
		name    string
		src     []byte
		limit   int
		summary bool
		why     string
	}{
		{"functions", goSource(30), 0, true, "most of the file is bodies: summarised"},
		{"half", goSource(300), 0, true, "over 300 rows, but under half the file's lines"},
		{"one literal, 20,000 lines", literalSource(19_985, 10), 0, false, "the summary would keep 19,996 of 20,000 lines"},
		{"one literal, 400 lines", literalSource(388, 10), 0, false, "over 300 rows and over half the file"},
		{"one literal, limit 3000", literalSource(388, 10), 3000, true, "the rows fit the page the host set"},
		{"over 3000 rows", literalSource(3100, 10), 3000, false, "more rows than one read shows, whatever the limit"},
		{"wide rows", literalSource(150, 2000), 0, false, "150 rows of 2 KB are over the 75 KB budget of 150 lines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := scout.Reader{DefaultLimit: tt.limit}
			r.FS = fstest.MapFS{"p.go": {Data: tt.src}}
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: "p.go"})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Kind == scout.ReadKindSummary; got != tt.summary {
				t.Fatalf("kind %s, want summary %v: %s", res.Kind, tt.summary, tt.why)
			}
			if tt.summary {
				return
			}
			if res.Summary != nil || len(res.Blocks) != 1 || res.Blocks[0].Lines[0].N != 1 || res.Next == 0 && res.TotalLines > len(res.Blocks[0].Lines) {
				t.Fatalf("not read as lines from line 1 with a continuation: %+v", res)
			}
		})
	}
}

// TestReadSummaryColumns: a code summary's kept lines are cut to the
// column cap (768 characters) as a text read's lines are: the line's
// text cut, marked Cut with its length in Bytes, the result's ColumnCap
// set, and the text showing "…" and the notice; a merged row's lines
// too. A summary whose lines fit is not marked.
func TestReadSummaryColumns(t *testing.T) {
	long := "// " + strings.Repeat("é", 1000) // 1003 characters, 2003 bytes
	sig := "func g(" + strings.Repeat("a, ", 300) + "z int) int {"
	src := []byte("package p\n\n" + long + "\nfunc f() int {\n\tx := 1\n\tx++\n\tx++\n\treturn x\n}\n\n" + sig + "\n\tx := 1\n\tx++\n\tx++\n\treturn x\n}\n" + string(goSource(20)[len("package big\n"):]))
	m := fstest.MapFS{"p.go": {Data: src}, "short.go": {Data: goSource(20)}}
	for _, tr := range testfs.Trees(t, m) {
		t.Run(tr.Name, func(t *testing.T) {
			r := scout.Reader{Workspace: scout.Workspace{FS: tr.FS, Root: tr.Root}}
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: "p.go"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Kind != scout.ReadKindSummary {
				t.Fatalf("kind %s, want a summary", res.Kind)
			}
			cut := map[int]scout.ReadLine{}
			for _, b := range res.Blocks {
				for _, l := range b.Lines {
					if l.Cut {
						cut[l.N] = l
					} else if utf8.RuneCountInString(l.Text) > 768 {
						t.Errorf("line %d: %d characters, not cut", l.N, utf8.RuneCountInString(l.Text))
					}
				}
			}
			want := map[int]scout.ReadLine{
				3:  {N: 3, Text: string([]rune(long)[:768]), Cut: true, Bytes: len(long)},
				11: {N: 11, Text: sig[:768], Cut: true, Bytes: len(sig)},
			}
			assert.Equal(t, want, cut)
			assert.Equal(t, 768, res.ColumnCap)
			text := format.ReadText(res, &format.ReadOptions{Style: format.StylePlain})
			for _, s := range []string{"\n" + want[3].Text + "…\n", "\n" + want[11].Text + "… .. }\n", "[Some lines truncated to 768 chars]"} {
				if !strings.Contains(text, s) {
					t.Errorf("the text does not show %.80q…:\n%.2000s", s, text)
				}
			}

			res, err = r.Read(context.Background(), scout.ReadRequest{Path: "short.go"})
			if err != nil || res.Kind != scout.ReadKindSummary || res.ColumnCap != 0 {
				t.Fatalf("short.go: %v, %+v", err, res)
			}
			if text := format.ReadText(res, nil); strings.Contains(text, "truncated") || strings.Contains(text, "…") {
				t.Errorf("short.go: %s", text)
			}
		})
	}
}
