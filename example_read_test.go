package scout_test

import (
	"context"
	"fmt"
	"strings"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

func ExampleReader_Read() {
	var src strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&src, "line %d\n", i)
	}
	r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{
		"notes/todo.txt": {Data: []byte(src.String())},
	}}}
	// A range reads exactly its lines.
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: "notes/todo.txt:10-12"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Kind, res.TotalLines, res.Blocks[0].Lines[0].N)
	fmt.Println(format.ReadText(res, nil))
	// Output:
	// text 40 10
	// ¶notes/todo.txt#921A
	// 10:line 10
	// 11:line 11
	// 12:line 12
	//
	// [28 more lines in file. Use :13 to continue]
}

func ExampleReadRequest_context() {
	var src strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&src, "line %d\n", i)
	}
	r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{
		"notes/todo.txt": {Data: []byte(src.String())},
	}}}
	// Before and After add context around the range, as the pi read tool
	// does; Blocks[0].Start and End stay the range asked for.
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: "notes/todo.txt:10-12", Before: 1, After: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	b := res.Blocks[0]
	fmt.Println(b.Start, b.End, b.Lines[0].N, b.Lines[len(b.Lines)-1].N)
	// Output:
	// 10 12 9 15
}

func ExampleReader_Read_plain() {
	r := scout.Reader{DefaultLimit: 2, Workspace: scout.Workspace{FS: fstest.MapFS{
		"a.txt": {Data: []byte("alpha\nbeta\ngamma\n")},
	}}}
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: "a.txt"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(format.ReadText(res, &format.ReadOptions{Style: format.StyleNumbered}))
	// Output:
	// 1|alpha
	// 2|beta
	//
	// [Showing lines 1-2 of 3. Use :3 to continue]
}
