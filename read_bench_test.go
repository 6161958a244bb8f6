package scout_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/testfs"
)

// BenchmarkRead times reads of each kind over an in-memory tree, through
// the public Reader and rendered by format as the tools show them: the
// engine, the conversion of its result and the rendering.
func BenchmarkRead(b *testing.B) {
	var text, conflicts strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&text, "line %d of the text, long enough to look like code\n", i)
	}
	for i := range 50 {
		fmt.Fprintf(&conflicts, "x\n<<<<<<< HEAD\nours %d\n=======\ntheirs %d\n>>>>>>> topic\n", i, i)
	}
	var src strings.Builder
	src.WriteString("package big\n")
	for i := range 60 {
		fmt.Fprintf(&src, "\n// F%d does things.\nfunc F%d() int {\n\tx := %d\n\tx++\n\tx++\n\treturn x\n}\n", i, i, i)
	}
	var members []testfs.Member
	for i := range 600 {
		members = append(members, testfs.Member{Name: fmt.Sprintf("d/f%03d.txt", i), Body: "x\n"})
	}
	when := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	files := fstest.MapFS{
		"f.txt":  {Data: []byte(text.String())},
		"c.txt":  {Data: []byte(conflicts.String())},
		"big.go": {Data: []byte(src.String())},
		"a.zip":  {Data: testfs.Zip(members...)},
	}
	for i := range 20 {
		for j := range 10 {
			files[fmt.Sprintf("tree/d%02d/f%02d.txt", i, j)] = &fstest.MapFile{Data: []byte("x\n"), ModTime: when.Add(time.Duration(i*10+j) * time.Minute)}
		}
	}
	r := scout.Reader{Workspace: scout.Workspace{FS: files}, Now: func() time.Time { return when.Add(48 * time.Hour) }}
	for _, c := range []struct{ name, path string }{
		{"text", "f.txt"},
		{"range", "f.txt:2000-2100"},
		{"ranges", "f.txt:10-20,2000-2100,4000-4010"},
		{"directory", "tree"},
		{"summary", "big.go"},
		{"archive-list", "a.zip:d/"},
		{"conflicts", "c.txt:conflicts"},
		{"conflicts-window", "c.txt:1-60"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := r.Read(context.Background(), scout.ReadRequest{Path: c.path})
				if err != nil {
					b.Fatal(err)
				}
				if format.ReadText(res, nil) == "" {
					b.Fatal("no text")
				}
			}
		})
	}
}
