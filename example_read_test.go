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
	// A range is widened by one line before and three after.
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: "notes/todo.txt:10-12"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Kind, res.TotalLines, res.Blocks[0].Lines[0].N)
	fmt.Println(format.ReadText(res, nil))
	// Output:
	// text 40 9
	// ¶notes/todo.txt#921A
	// 9:line 9
	// 10:line 10
	// 11:line 11
	// 12:line 12
	// 13:line 13
	// 14:line 14
	// 15:line 15
	//
	// [25 more lines in file. Use :16 to continue]
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
