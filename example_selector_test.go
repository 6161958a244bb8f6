package scout_test

import (
	"fmt"

	"github.com/scoutkit/scout"
)

func ExampleParseSelector() {
	sel, err := scout.ParseSelector("L960-L973,5+12,10-20")
	fmt.Println(sel.Ranges, err)
	fmt.Println(sel.String())

	_, err = scout.ParseSelector("0")
	fmt.Println(err)
	// Output:
	// [{5 20} {960 973}] <nil>
	// 5-20,960-973
	// Line selector 0 is invalid; lines are 1-indexed. Use :1.
}

func ExampleSplitPathSelector() {
	for _, p := range []string{"src/main.go:50-100", "notes.md:raw:1-5", "dist.zip:lib/a.js", "a.go:5-3"} {
		path, sel, ok, err := scout.SplitPathSelector(p)
		fmt.Printf("%q %q %v %v\n", path, sel.String(), ok, err)
	}
	// Output:
	// "src/main.go" "50-100" true <nil>
	// "notes.md" "1-5:raw" true <nil>
	// "dist.zip:lib/a.js" "" false <nil>
	// "a.go:5-3" "" false Invalid range 5-3: end must be >= start.
}
