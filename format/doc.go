// Package format renders Scout's typed results as the text a model or a
// person reads: the grouped listings of find and search, the lines of a
// read, and the notices for truncation, limits and skipped files. It never
// touches a file system: everything it prints is already in the result.
//
// Search, read and code summaries print their lines in one of three
// styles, the same in all three:
//
//	hashline  "12:text" under a "¶path#TAG" header (TAG names the file's
//	          version); a file without a tag falls back to numbered
//	numbered  "12|text"
//	plain     "text", no numbers and no tags
//
// A search marks each line: '*' for a match, ' ' for context ("*12:text",
// " 13:text"). A summary row standing for several lines shows their range
// ("12-14:text") and an elided run as "...". Directory trees and raw
// reads are always plain.
package format
