package format_test

import (
	"fmt"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

// A host phrases the continuation notices in its own words, here a command
// line's flags; the rest of the text is the find tool's.
func ExampleFindText_hostWords() {
	res := &scout.FindResult{
		Entries:   []scout.FindEntry{{Path: "main.go"}, {Path: "src/a.go"}, {Path: "src/sub", Dir: true}},
		Matched:   9,
		Truncated: scout.TruncLimit,
	}
	text, _ := format.FindText(res, &format.FindOptions{
		MaxLimit: 200,
		LimitNotice: func(n, next int) string {
			if next == 0 {
				return fmt.Sprintf("%d results limit reached; narrow the GLOB for the rest", n)
			}
			return fmt.Sprintf("%d results limit reached. Use --limit %d for more", n, next)
		},
		TimeoutNote: func(n int) string {
			return fmt.Sprintf("timed out; listing the %d entries found. Raise --timeout", n)
		},
	})
	fmt.Println(text)
	// Output:
	// main.go
	//
	// # src/
	// a.go
	// sub/
	//
	// [3 results limit reached. Use --limit 6 for more]
}
