package summary_test

import (
	"fmt"
	"strings"

	"github.com/scoutkit/scout/internal/summary"
)

func ExampleSummarize() {
	var b strings.Builder
	b.WriteString("package p\n\n")
	for i := range 24 {
		fmt.Fprintf(&b, "func f%d() {\n\tprintln(1)\n\tprintln(2)\n\tprintln(3)\n}\n", i)
	}
	s, ok := summary.Summarize("p.go", []byte(b.String()))
	if !ok {
		fmt.Println("not summarised")
		return
	}
	for _, r := range s.Rows[:4] {
		fmt.Printf("%d %d-%d %q %q\n", r.Kind, r.Start, r.End, r.Text, r.Tail)
	}
	fmt.Println(s.ElidedLines, s.Elided[:2])
	// Output:
	// 0 1-1 "package p" ""
	// 0 2-2 "" ""
	// 2 3-7 "func f0() {" "}"
	// 2 8-12 "func f1() {" "}"
	// 72 [{3 7} {8 12}]
}
