// Package format renders Scout's typed results as the text a model or a
// person reads: [Search], [Read] and [Find] write the pi toolset's text
// (hashline and plain styles, listings grouped by directory, and the
// notices on truncation, limits and skipped files), and their Text
// variants return it as a string. It never touches a file system:
// everything it prints is already in the result. nil options mean the
// defaults.
package format
