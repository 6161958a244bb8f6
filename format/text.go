package format

import (
	"fmt"
	"strconv"
	"strings"
)

// The line styles of search and read text, the same in both: a line of
// the file is "N:text" in the hashline style (with a "¶path#TAG" header
// that names the file's version), "N|text" in the numbered style and the
// text alone in the plain style; a search marks a match with '*' and a
// context line with ' ' before that; a summary's row for lines A to B is
// "A-B:text", "A-B|text" or the text, its elided lines "...".
const (
	StyleHashline = "hashline"
	StyleNumbered = "numbered"
	StylePlain    = "plain"
)

// writeNumber writes the number part of a row standing for lines n to end
// (one line when equal) in style: "n:", "n|", "n-end:" ..., nothing when
// plain. "" is the hashline style.
func writeNumber(b *strings.Builder, style string, n, end int) {
	if style == StylePlain {
		return
	}
	b.WriteString(strconv.Itoa(n))
	if end != n {
		b.WriteByte('-')
		b.WriteString(strconv.Itoa(end))
	}
	if style == StyleNumbered {
		b.WriteByte('|')
	} else {
		b.WriteByte(':')
	}
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

// KB renders a byte count as pi's "(50KB limit)" figure.
func KB(n int) string {
	return fmt.Sprintf("%dKB", (n+1023)/1024)
}

// Bytes renders a size as pi's formatBytes does: 512B, 1.2KB, 3.4MB, 1.0GB
// (base 1024, one decimal place).
func Bytes(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1fKB", float64(n)/1024)
	case n < 1024*1024*1024:
		return fmt.Sprintf("%.1fMB", float64(n)/(1024*1024))
	}
	return fmt.Sprintf("%.1fGB", float64(n)/(1024*1024*1024))
}
