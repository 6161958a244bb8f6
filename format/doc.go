// Package format renders Scout's typed results as the text a model or a
// person reads: [Search], [Read] and [Find] write the pi toolset's text
// (the lines of a search or a read, listings grouped by directory, and the
// notices on truncation, limits and skipped files), and their Text
// variants return it as a string; [SearchStream] writes a search file by
// file while it runs. It never touches a file system: everything it prints
// is already in the result. nil options mean the defaults.
//
// Search, read and code summaries print their lines in one of three
// styles, the same in all three:
//
//	hashline  "12:text" under a "¶path#TAG" header (TAG names the file's
//	          version); a file without a tag falls back to numbered
//	numbered  "12|text"
//	plain     "text", no numbers and no tags
//
// A search marks a match with '*' and leaves context unmarked ("*12:text",
// "13:text"; in the plain style, which has no numbers, context is marked
// ' '). A search of several files heads each with "# path#TAG" ("# path"
// without a tag). A summary row standing for several lines shows their range
// ("12-14:text") and an elided run as "...". Directory trees and raw
// reads are always plain.
package format
