// Package treesitter finds function bodies in Python, JavaScript,
// TypeScript (and TSX), Rust, Java, C and C++ source with the official
// tree-sitter grammars, for the summary package. It needs cgo: without
// it the package is empty and summary reports those languages as
// unsupported.
package treesitter
