package scout_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"strings"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
)

// The examples of this file read each kind of ReadResult and use its
// fields; none of them parses text.

// read reads path from files with a Reader, printing an error.
func read(files fstest.MapFS, path string) *scout.ReadResult {
	r := scout.Reader{Workspace: scout.Workspace{FS: files}, ImageMetadataOnly: true,
		Now: func() time.Time { return time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC) }}
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: path})
	if err != nil {
		fmt.Println(err)
	}
	return res
}

func ExampleReadResult_truncated() {
	var src strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&src, "line %d\n", i)
	}
	res := read(fstest.MapFS{"log.txt": {Data: []byte(src.String())}}, "log.txt")
	b := res.Blocks[0]
	fmt.Println(res.Kind, res.Source, res.TotalLines, res.Truncated, res.Next)
	fmt.Println(b.Lines[0].N, b.Lines[len(b.Lines)-1].N, b.Truncated)
	// Output:
	// text file 1000 limit 301
	// 1 300 limit
}

func ExampleReadResult_directory() {
	when := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	res := read(fstest.MapFS{
		"src/main.go":         {Data: []byte("package main\n"), ModTime: when},
		"README.md":           {Data: []byte("# hi\n"), ModTime: when},
		".git/HEAD":           {Data: []byte("ref: refs/heads/main\n"), ModTime: when},
		"src/util/strings.go": {Data: []byte("package util\n"), ModTime: when},
		"src/util/numbers.go": {Data: []byte("package util\n"), ModTime: when},
	}, ".")
	for _, e := range res.Entries {
		fmt.Println(e.Line, e.Depth, e.Path, e.Dir, e.Size)
	}
	fmt.Println(res.Skipped, res.SkippedPaths[0].Path)
	// Output:
	// 2 1 README.md false 5
	// 3 1 src true 0
	// 4 2 src/main.go false 13
	// 5 2 src/util true 0
	// map[ignored:1] .git/
}

func ExampleReadResult_archive() {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, body := range map[string]string{"docs/guide.md": "# Guide\nread me\n", "bin/tool": "\x7fELF\x00\x01"} {
		f, _ := w.Create(name)
		f.Write([]byte(body))
	}
	w.Close()
	files := fstest.MapFS{"dist.zip": {Data: buf.Bytes()}}

	// A directory inside an archive lists its children as entries.
	res := read(files, "dist.zip")
	fmt.Println(res.Kind, res.Archive, res.TotalLines)
	for _, e := range res.Entries {
		fmt.Println(e.Line, e.Path, e.Dir)
	}
	// A member is read as text...
	res = read(files, "dist.zip:docs/guide.md:2")
	fmt.Println(res.Kind, res.Source, res.Path, res.Blocks[0].Lines[0].Text)
	// ... unless it is binary.
	res = read(files, "dist.zip:bin/tool")
	fmt.Println(res.Kind, res.Path, res.Bytes, res.MIME)
	// Output:
	// archive dist.zip 2
	// 1 bin true
	// 2 docs true
	// text archive dist.zip:docs/guide.md read me
	// binary dist.zip:bin/tool 6 application/octet-stream
}

func ExampleReadResult_conflicts() {
	files := fstest.MapFS{"m.go": {Data: []byte("package m\n<<<<<<< HEAD\nconst x = 1\n=======\nconst x = 2\n>>>>>>> feature\n")}}
	res := read(files, "m.go:conflicts")
	for _, b := range res.Conflicts.Blocks {
		fmt.Println(b.ID, b.Start, b.End, b.Ours.Label, b.Ours.Lines, b.Theirs.Label, b.Theirs.Lines, b.Base == nil)
	}
	// A text read shows the blocks its lines hold.
	res = read(files, "m.go")
	fmt.Println(res.Kind, len(res.Conflicts.Blocks), res.Conflicts.Total)
	// Output:
	// 1 2 6 HEAD [const x = 1] feature [const x = 2] true
	// text 1 1
}

func ExampleReadResult_summary() {
	var src strings.Builder
	src.WriteString("package big\n")
	for i := range 30 {
		fmt.Fprintf(&src, "\nfunc F%d() int {\n\tx := %d\n\tx++\n\tx++\n\treturn x\n}\n", i, i)
	}
	res := read(fstest.MapFS{"big.go": {Data: []byte(src.String())}}, "big.go")
	s := res.Summary
	fmt.Println(res.Kind, s.Language, s.Lines, s.ElidedLines, len(s.Elided))
	fmt.Printf("%+v\n", s.Elided[0])
	fmt.Println(res.Blocks[0].Lines[2].N, res.Blocks[0].Lines[2].Text)
	// Output:
	// summary go 211 120 30
	// {Start:3 End:8 Lines:4 Merged:true}
	// 3 func F0() int {
}

func ExampleReadResult_image() {
	var buf bytes.Buffer
	png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 3, 2)))
	res := read(fstest.MapFS{"dot.png": {Data: buf.Bytes()}}, "dot.png")
	i := res.Image
	fmt.Println(res.Kind, i.MIME, i.Format, i.Width, i.Height, i.Channels, i.Alpha, res.ImageData == nil)
	// Output:
	// image image/png png 3 2 4 true true
}

func ExampleReadResult_binary() {
	res := read(fstest.MapFS{"a.bin": {Data: []byte("PK\x03\x04\x00\x00")}}, "a.bin")
	fmt.Println(res.Kind, res.Bytes, res.MIME)
	// Output:
	// binary 6 application/zip
}

func ExampleReadResult_multi() {
	res := read(fstest.MapFS{"a.txt": {Data: []byte("A\n")}, "b.txt": {Data: []byte("B\n")}}, "a.txt, b.txt, c.txt")
	for _, p := range res.Parts {
		if p.Result != nil {
			fmt.Println(p.Path, p.Result.Blocks[0].Lines[0].Text)
		} else {
			fmt.Println(p.Path, p.Code)
		}
	}
	// Output:
	// a.txt A
	// b.txt B
	// c.txt NOT_FOUND
}
