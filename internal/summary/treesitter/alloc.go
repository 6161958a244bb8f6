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

import "sync"

// useLibcAllocator points the tree-sitter runtime at libc's allocator. The
// Go binding routes every allocation of the runtime through a Go callback,
// a cgo round trip per malloc that makes parsing several times slower.
// Scout does not replace the allocator, so the runtime uses libc's. Blocks
// calls it before it makes anything of the runtime's, not the package's
// init: a command that parses nothing makes no cgo call for it. (The
// binding's init, which installs its callbacks, has run by then.)
var useLibcAllocator = sync.OnceFunc(func() { C.scout_use_libc_allocator() })
