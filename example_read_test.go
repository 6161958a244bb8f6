package scout_test

import (
	"context"
	"errors"
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

func ExampleReader_Read_agentSettings() {
	files := fstest.MapFS{
		"src/deep/x.go":  {Data: []byte("package deep\n")},
		"build/out.txt":  {Data: []byte("built\n")},
		"README.md":      {Data: []byte("# hi\n")},
		".git/HEAD":      {Data: []byte("ref: refs/heads/main\n")},
		"vendor/mod.txt": {Data: []byte("m\n")},
	}
	ctx := context.Background()

	// The zero Reader lists every directory but .git, and a missing path
	// is an error.
	plain := scout.Reader{Workspace: scout.Workspace{FS: files}}
	res, _ := plain.Read(ctx, scout.ReadRequest{Path: "."})
	for _, e := range res.Entries {
		if e.Depth == 1 {
			fmt.Print(e.Path, " ")
		}
	}
	fmt.Println(res.Skipped)
	_, err := plain.Read(ctx, scout.ReadRequest{Path: "x.go"})
	fmt.Println(errors.Is(err, scout.CodeNotFound))

	// An agent's host may prune more names and read a missing path by a
	// unique suffix match, as the pi read tool does.
	agent := scout.Reader{Workspace: scout.Workspace{FS: files}, PruneDirs: []string{"build", "vendor"}, SuffixMatch: true}
	res, _ = agent.Read(ctx, scout.ReadRequest{Path: "."})
	for _, s := range res.SkippedPaths {
		fmt.Println(s.Reason, s.Path)
	}
	res, _ = agent.Read(ctx, scout.ReadRequest{Path: "x.go"})
	fmt.Println(res.Path, res.SuffixResolution.From, res.SuffixResolution.To)
	// Output:
	// build README.md src vendor map[ignored:1]
	// true
	// ignored .git/
	// ignored build/
	// ignored vendor/
	// src/deep/x.go x.go src/deep/x.go
}
