package scout_test

import (
	"context"
	"fmt"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

func ExampleFinder_Find() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := scout.Finder{Workspace: scout.Workspace{FS: fstest.MapFS{
		"go.mod":            {Data: []byte("module x\n"), ModTime: t0},
		"main.go":           {Data: []byte("package main\n"), ModTime: t0.Add(2 * time.Hour)},
		"internal/a/a.go":   {Data: []byte("package a\n"), ModTime: t0.Add(3 * time.Hour)},
		"internal/b/b.go":   {Data: []byte("package b\n"), ModTime: t0.Add(1 * time.Hour)},
		".hidden/secret.go": {Data: []byte("package secret\n"), ModTime: t0},
	}}}
	res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"*.go"}, Recursive: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Newest first, grouped by directory; hidden entries are left out and counted.
	text, _ := format.FindText(res, nil)
	fmt.Println(text)
	fmt.Println("skipped:", res.Skipped)
	// Output:
	// # internal/a/
	// a.go
	//
	// main.go
	//
	// # internal/b/
	// b.go
	// skipped: map[hidden:1]
}

func ExampleFinder_Find_limit() {
	fsys := fstest.MapFS{}
	for i := range 5 {
		fsys[fmt.Sprintf("logs/%d.log", i)] = &fstest.MapFile{ModTime: time.Unix(int64(i), 0)}
	}
	f := scout.Finder{Workspace: scout.Workspace{FS: fsys}}
	res, _ := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"logs"}, Limit: 2})
	for _, e := range res.Entries {
		fmt.Println(e.Path)
	}
	fmt.Println(res.Truncated, res.Matched)
	text, _ := format.FindText(res, &format.FindOptions{MaxLimit: 3})
	fmt.Println(text)
	// Output:
	// logs/4.log
	// logs/3.log
	// limit 5
	// # logs/
	// 4.log
	// 3.log
	//
	// [2 results limit reached. Use limit=3 for more]
}
