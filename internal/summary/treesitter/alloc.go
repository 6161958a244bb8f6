//go:build cgo

package treesitter

/*
#include <stdlib.h>

// Declared here rather than included: the definition is compiled into
// github.com/tree-sitter/go-tree-sitter and linked into the same binary.
void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));

static void scout_use_libc_allocator(void) {
	ts_set_allocator(malloc, calloc, realloc, free);
}
*/
import "C"

// The Go binding routes every allocation of the tree-sitter runtime
// through a Go callback, a cgo round trip per malloc that makes parsing
// several times slower. Scout does not replace the allocator, so the
// runtime is pointed straight at libc's. This package's init runs after
// the binding's, which installs its callbacks.
func init() { C.scout_use_libc_allocator() }
