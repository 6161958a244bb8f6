// Package pitext renders the pi toolset's text of search and find results
// (format and tool share it) and holds pi's text helpers: the 50 KB head
// cut, the bracketed notices, the grouped path listing and the summary of
// what a walk left out.
package pitext

import (
	"fmt"
	"strings"
)

// MaxBytes is the byte cap of pi tool text (50 KB).
const MaxBytes = 50 * 1024

// TruncateHead keeps the longest run of whole leading lines of s that fits
// in maxBytes. It returns the kept text, the number of lines kept and in
// all, and whether anything was cut.
func TruncateHead(s string, maxBytes int) (kept string, shown, total int, cut bool) {
	total = strings.Count(s, "\n") + 1
	if len(s) <= maxBytes {
		return s, total, total, false
	}
	end := strings.LastIndexByte(s[:maxBytes+1], '\n')
	if end < 0 {
		return "", 0, total, true
	}
	kept = s[:end]
	return kept, strings.Count(kept, "\n") + 1, total, true
}

// Notice renders notice parts the pi way: a blank line, then the parts
// joined by ". " inside one pair of brackets. No parts gives "".
func Notice(parts ...string) string {
	var ps []string
	for _, p := range parts {
		if p != "" {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return ""
	}
	return "\n\n[" + strings.Join(ps, ". ") + "]"
}

// Cut says how the byte cap cut a text (pi's head truncation).
type Cut struct {
	ShownLines int // the whole leading lines kept
	TotalLines int // the lines before the cut
	TotalBytes int // the bytes before the cut
	MaxBytes   int // the cap
}

// DelimitedNote is the note on an entry that named several paths (joined
// by a comma, ';' or white space) and was taken for them.
func DelimitedNote(paths []string) string {
	return fmt.Sprintf("Note: interpreted as %d paths: %s", len(paths), strings.Join(paths, ", "))
}

// KB renders a byte count as pi's "(50KB limit)" figure.
func KB(n int) string {
	return fmt.Sprintf("%dKB", (n+1023)/1024)
}
