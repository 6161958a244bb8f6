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
	rows := strings.Split(s.Text(), "\n")
	fmt.Println(strings.Join(rows[:4], "\n"))
	fmt.Println(summary.Footer("p.go", s))
	// Output:
	// 1:package p
	// 2:
	// 3-7:func f0() { .. }
	// 8-12:func f1() { .. }
	// [72 lines elided; re-read needed ranges, e.g. p.go:3-7,8-12]
}
