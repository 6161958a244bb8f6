// Package pitext renders the pi toolset's text of search and find results
// (format and tool share it) and holds pi's text helpers: the 50 KB head
// cut, the bracketed notices, the grouped path listing and the summary of
// what a walk left out; and pi's settings that the tools and their hosts
// share: the directories pi's tools leave out, search's context lines.
package pitext

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/scoutkit/scout/internal/fname"
)

// The line styles of search and read text, the same in both: a line of
// the file is "N:text" in the hashline style (with a "¶path#TAG" header
// that names the file's version), "N|text" in the numbered style and the
// text alone in the plain style; a search marks a match with '*' before
// that, and a context line with ' ' in the plain style only; a summary's
// row for lines A to B is "A-B:text", "A-B|text" or the text, its elided
// lines "...".
const (
	StyleHashline = "hashline"
	StyleNumbered = "numbered"
	StylePlain    = "plain"
)

// SearchStyle is the style pi search prints for the style setting: pi's
// plain mode keeps the line numbers of a search ("*5|text", "9|text"),
// which is the numbered style; the others are themselves.
func SearchStyle(style string) string {
	if style == StylePlain {
		return StyleNumbered
	}
	return style
}

// WriteNumber writes the number part of a row standing for lines n to end
// (one line when equal) in style: "n:", "n|", "n-end:" ..., nothing when
// plain. "" is the hashline style.
func WriteNumber(b *strings.Builder, style string, n, end int) {
	var d [48]byte
	b.Write(AppendNumber(d[:0], style, n, end))
}

// AppendNumber appends what WriteNumber writes to dst.
func AppendNumber(dst []byte, style string, n, end int) []byte {
	if style == StylePlain {
		return dst
	}
	dst = strconv.AppendInt(dst, int64(n), 10)
	if end != n {
		dst = append(dst, '-')
		dst = strconv.AppendInt(dst, int64(end), 10)
	}
	if style == StyleNumbered {
		return append(dst, '|')
	}
	return append(dst, ':')
}

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
	return fmt.Sprintf("Note: interpreted as %d paths: %s", len(paths), fname.QuoteJoin(paths))
}

// KB renders a byte count as pi's "(50KB limit)" figure.
func KB(n int) string {
	return fmt.Sprintf("%dKB", (n+1023)/1024)
}

// CapFigure renders a host's byte cap for the notice of a text it cut,
// "(50KB limit)": in KB when it is a whole number of them (pi's 50KB),
// else in bytes ("1500B"), so that the cap is shown as it is, not rounded
// up as KB rounds the bytes a read emitted.
func CapFigure(n int) string {
	if n%1024 != 0 {
		return fmt.Sprintf("%dB", n)
	}
	return KB(n)
}
