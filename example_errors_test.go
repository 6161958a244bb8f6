package scout_test

import (
	"context"
	"errors"
	"fmt"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

// A Code is an errors.Is target, *Error an errors.As target, and CodeOf
// classifies any error, context errors included: no message text is matched.
func ExampleCode() {
	r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{"a.go": {Data: []byte("package a\n")}}}}
	_, err := r.Read(context.Background(), scout.ReadRequest{Path: "b.go"})
	fmt.Println(errors.Is(err, scout.CodeNotFound), scout.CodeOf(err))

	_, err = r.Read(context.Background(), scout.ReadRequest{Path: "a.go:0"})
	var se *scout.Error
	if errors.As(err, &se) {
		fmt.Println(se.Code, "-", se.Message)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = r.Read(ctx, scout.ReadRequest{Path: "a.go"})
	fmt.Println(scout.CodeOf(err), errors.Is(err, scout.CodeCanceled), errors.Is(err, context.Canceled))
	// Output:
	// true NOT_FOUND
	// INVALID_PARAM - Line selector 0 is invalid; lines are 1-indexed. Use :1.
	// CANCELED true true
}
