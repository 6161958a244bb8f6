package format_test

import (
	"context"
	"fmt"
	"os"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

// Read writes a read result as text; the style numbers the lines as an
// editor would, and the notice says how to page on.
func ExampleRead() {
	r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{
		"go.mod": {Data: []byte("module example.com/demo\n\ngo 1.26\n\nrequire golang.org/x/text v0.43.0\n")},
	}}}
	res, err := r.Read(context.Background(), scout.ReadRequest{Path: "go.mod:1-3"})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := format.Read(os.Stdout, res, &format.ReadOptions{Style: format.StyleNumbered}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1|module example.com/demo
	// 2|
	// 3|go 1.26
	//
	// [2 more lines in file. Use :4 to continue]
}
