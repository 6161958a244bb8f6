package scout_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
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
