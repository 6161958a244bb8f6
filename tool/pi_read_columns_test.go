package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestPiReadColumnsUTF16: pi read cuts a line at 768 UTF-16 code units, as
// pi (JavaScript) counts a string's length: a character outside the BMP
// (an emoji) counts 2, and the cut never splits one. The core counts
// characters (Reader.Read, scout read).
func TestPiReadColumnsUTF16(t *testing.T) {
	emoji := "\U0001F600" // 1 character, 2 UTF-16 units, 4 bytes
	m := fstest.MapFS{
		"emoji.txt": {Data: []byte(strings.Repeat(emoji, 500) + "\nshort\n")}, // 500 chars, 1000 units
		"edge.txt":  {Data: []byte(strings.Repeat("x", 767) + emoji + "\n")},  // 768 chars, 769 units
		"fits.txt":  {Data: []byte(strings.Repeat("x", 766) + emoji + "\n")},  // 767 chars, 768 units
		"cjk.txt":   {Data: []byte(strings.Repeat("\u4e2d", 768) + "\n")},     // 768 BMP chars, 768 units
		"wide.txt":  {Data: []byte(strings.Repeat(emoji, 1000) + "\n")},       // the core cuts it too
		"a.zip":     {Data: testfs.Zip(testfs.Member{Name: "e.txt", Body: strings.Repeat(emoji, 400) + "\n"})},
	}
	tests := []struct {
		path  string
		shown string // the first line's text; "" means not cut
		bytes int    // the cut line's length in bytes
		raw   bool
	}{
		{path: "emoji.txt", shown: strings.Repeat(emoji, 384), bytes: 2000},
		{path: "edge.txt", shown: strings.Repeat("x", 767), bytes: 767 + 4},
		{path: "fits.txt"},
		{path: "cjk.txt"},
		{path: "wide.txt", shown: strings.Repeat(emoji, 384), bytes: 4000},
		{path: "a.zip:e.txt", shown: strings.Repeat(emoji, 384), bytes: 1600},
		{path: "emoji.txt, fits.txt", shown: strings.Repeat(emoji, 384), bytes: 2000},
		{path: "emoji.txt:raw", raw: true},
	}
	for _, tr := range testfs.Trees(t, m) {
		for _, tt := range tests {
			args, _ := json.Marshal(map[string]string{"path": tt.path})
			env := Call(context.Background(), Config{FS: tr.FS, Root: tr.Root, Style: "plain"}, Pi, "read", args)
			if env.Status == scout.StatusError {
				t.Fatalf("%s %s: %s", tr.Name, tt.path, env.Text)
			}
			res := env.Data.(*piReadData).Result
			if res.Kind == scout.ReadKindMulti {
				res = res.Parts[0].Result
			}
			l := res.Blocks[0].Lines[0]
			if tt.shown == "" {
				if l.Cut || res.ColumnCap != 0 || strings.Contains(env.Text, "truncated to") {
					t.Errorf("%s %s: cut (%d units), want whole: %+v", tr.Name, tt.path, utf16Len(l.Text), l)
				}
				continue
			}
			if !l.Cut || l.Text != tt.shown || l.Bytes != tt.bytes || res.ColumnCap != 768 || !utf8.ValidString(l.Text) {
				t.Errorf("%s %s: line cut %v, %d chars (%d units), %d bytes, column cap %d; want %d chars (%d units), %d bytes",
					tr.Name, tt.path, l.Cut, utf8.RuneCountInString(l.Text), utf16Len(l.Text), l.Bytes, res.ColumnCap,
					utf8.RuneCountInString(tt.shown), utf16Len(tt.shown), tt.bytes)
			}
			if !strings.Contains(env.Text, tt.shown+"…\n") || !strings.Contains(env.Text, "Some lines truncated to 768 chars") {
				t.Errorf("%s %s: text does not show the cut line and the notice:\n%.300q", tr.Name, tt.path, env.Text)
			}
		}
	}
	// The core counts characters.
	r := scout.Reader{}
	r.FS = m
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: "emoji.txt"})
	if err != nil || res.Blocks[0].Lines[0].Cut || res.ColumnCap != 0 {
		t.Errorf("Reader.Read cut a 500-character line: %v %+v", err, res)
	}
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// TestPiReadSummaryColumns: a code summary's kept lines are cut as a text
// read's, at 768 UTF-16 code units, with the notice and
// details.meta.limits.columnTruncated.
func TestPiReadSummaryColumns(t *testing.T) {
	emoji := "\U0001F600"
	var src strings.Builder
	src.WriteString("package p\n\n// " + strings.Repeat(emoji, 500) + "\n")
	for i := range 20 {
		fmt.Fprintf(&src, "\nfunc F%d() int {\n\tx := %d\n\tx++\n\tx++\n\treturn x\n}\n", i, i)
	}
	m := fstest.MapFS{"p.go": {Data: []byte(src.String())}}
	shown := "// " + strings.Repeat(emoji, 382) // 767 units: one more emoji is 769
	for _, tr := range testfs.Trees(t, m) {
		env := Call(context.Background(), Config{FS: tr.FS, Root: tr.Root, Style: "plain"}, Pi, "read", json.RawMessage(`{"path":"p.go"}`))
		if env.Status == scout.StatusError {
			t.Fatalf("%s: %s", tr.Name, env.Text)
		}
		d := env.Data.(*piReadData)
		res := d.Result
		if res.Kind != scout.ReadKindSummary {
			t.Fatalf("%s: kind %s, want a summary", tr.Name, res.Kind)
		}
		l := res.Blocks[0].Lines[2]
		if l.N != 3 || !l.Cut || l.Text != shown || l.Bytes != 3+4*500 || res.ColumnCap != 768 {
			t.Errorf("%s: line %d cut %v, %d units, %d bytes, column cap %d", tr.Name, l.N, l.Cut, utf16Len(l.Text), l.Bytes, res.ColumnCap)
		}
		if !strings.Contains(env.Text, "\n"+shown+"…\n") || !strings.Contains(env.Text, "[Some lines truncated to 768 chars]") {
			t.Errorf("%s: the text does not show the cut line and the notice:\n%.300q", tr.Name, env.Text)
		}
		if d.Meta == nil || d.Meta.Limits == nil || d.Meta.Limits.ColumnTruncated == nil || d.Meta.Limits.ColumnTruncated.MaxColumn != 768 {
			t.Errorf("%s: details.meta %+v, want limits.columnTruncated 768", tr.Name, d.Meta)
		}
	}
}
