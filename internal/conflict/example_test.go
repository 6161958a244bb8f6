package conflict_test

import (
	"fmt"

	"github.com/scoutkit/scout/internal/conflict"
)

func ExampleParse() {
	text := []byte("a\n<<<<<<< HEAD\nmine\n=======\nyours\n>>>>>>> topic\nb\n")
	for _, b := range conflict.Parse(text) {
		fmt.Println(b.ID, b.Start, b.Separator, b.End, b.OursLabel, b.Ours, b.TheirsLabel, b.Theirs)
	}
	// Output:
	// 1 2 4 6 HEAD [mine] topic [yours]
}
