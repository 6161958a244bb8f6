package conflict_test

import (
	"fmt"

	"github.com/scoutkit/scout/internal/conflict"
)

func ExampleRenderList() {
	text := []byte("a\n<<<<<<< HEAD\nmine\n=======\nyours\n>>>>>>> topic\nb\n")
	blocks := conflict.Parse(text)
	fmt.Println(conflict.RenderList("x.go", blocks, false))
	// Output:
	// ⚠ 1 unresolved conflict in x.go
	// - ours = HEAD
	// - theirs = topic
	// NOTICE: Read a whole block, markers included, by its L range, e.g. `x.go:2-6`; `x.go:conflicts` lists every block.
	//
	// #1  L2-6
}

func ExampleRenderFooter() {
	text := []byte("<<<<<<< HEAD\nmine\n=======\nyours\n>>>>>>> topic\n")
	blocks := conflict.Parse(text)
	fmt.Println(conflict.RenderFooter("x.go", conflict.Within(blocks, 1, 5), len(blocks), false))
	// Output:
	// ⚠ 1 unresolved conflict detected
	// - ours = HEAD
	// - theirs = topic
	// NOTICE: Read a whole block, markers included, by its L range, e.g. `x.go:1-5`; `x.go:conflicts` lists every block.
	//
	// ──── #1  L1-5 ────
	// <<< ours
	// mine
	// >>> theirs
	// yours
}
