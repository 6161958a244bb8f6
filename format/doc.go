// Package format renders Scout's typed results as the text a model or a
// person reads: the pi toolset's hashline and plain styles, the grouped
// listings of find and search, and the notices for truncation, limits and
// skipped files. It never touches a file system: everything it prints is
// already in the result.
package format
