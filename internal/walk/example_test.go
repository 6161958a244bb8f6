package walk_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/walk"
)

func ExampleWalk() {
	fsys := fstest.MapFS{
		".git/HEAD":        {Data: []byte("ref: refs/heads/main\n")},
		".gitignore":       {Data: []byte("*.log\nbuild/\n")},
		"main.go":          {Data: []byte("package main\n")},
		"debug.log":        {Data: []byte("...")},
		"build/out":        {Data: []byte("...")},
		"internal/util.go": {Data: []byte("package internal\n")},
		".env":             {Data: []byte("SECRET=1\n")},
	}
	st, err := walk.Walk(context.Background(), fsys, ".", walk.Options{Sorted: true}, func(e walk.Entry) error {
		fmt.Println(e.Path)
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("left out:", st.Skipped[walk.ReasonIgnored], "ignored,", st.Skipped[walk.ReasonHidden], "hidden")
	// Output:
	// internal
	// internal/util.go
	// main.go
	// left out: 3 ignored, 2 hidden
}
