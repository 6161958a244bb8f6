// Package memtext pages a text held in memory (an archive entry, a
// notebook, an internal-URL resource, a rendered URL) the way read pages a
// file: line selectors, ±context around explicit ranges, a 3000-line /
// 50 KiB head cut when no range bounds the output, and the notices that say
// how to continue.
//
// Lines are the text split on "\n"; a trailing newline ends the last line
// and does not add an empty one. An empty text has one empty line.
// Line numbers are 1-based.
package memtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Default limits and context sizes.
const (
	MaxLines        = 3000      // lines shown when no range bounds the output
	MaxBytes        = 50 * 1024 // bytes shown when no range bounds the output
	LeadingContext  = 1         // lines added before a range that starts after line 1
	TrailingContext = 3         // lines added after a range with an end
)

// Entity labels used in notices.
const (
	EntityArchive  = "archive entry"
	EntityNotebook = "notebook"
	EntityResource = "resource"
	EntityURL      = "URL output"
)

// Range is an inclusive 1-based line range. End 0 means "to the end".
type Range struct {
	Start int
	End   int
}

// String renders r as a selector: "5" for an open range, "5-9" otherwise.
func (r Range) String() string {
	if r.End == 0 {
		return fmt.Sprint(r.Start)
	}
	return fmt.Sprintf("%d-%d", r.Start, r.End)
}

// Options tune Paginate. The zero value pages a "resource" with context and
// the default limits.
type Options struct {
	// Entity names the source in notices; "" means EntityResource.
	Entity string
	// Raw makes ranges exact: no context lines are added.
	Raw bool
	// Unlimited turns off the head cut (skill:// resources are paged only
	// by explicit selectors).
	Unlimited bool
	// MaxLines and MaxBytes bound the output when no range end does;
	// 0 means MaxLines and MaxBytes.
	MaxLines, MaxBytes int
}

// Block is a run of consecutive lines; Start is the number of Lines[0].
type Block struct {
	Start int
	Lines []string
}

// End returns the number of the last line of b (Start-1 when b is empty).
func (b Block) End() int { return b.Start + len(b.Lines) - 1 }

// Page is the part of a text to show, as data.
type Page struct {
	// Blocks are the shown lines: one block for a single range, one per
	// visible range for a multi-range selector, none when Message is set.
	Blocks []Block
	// Total is the number of lines in the text.
	Total int
	// Message replaces the body when nothing can be shown (start past the
	// end); it says how to recover.
	Message string
	// Truncated reports the head cut: the lines after Blocks[0] were not
	// shown because of MaxLines or MaxBytes (ByBytes tells which).
	Truncated bool
	ByBytes   bool
	// LineCut reports that the first shown line alone exceeded MaxBytes and
	// only a UTF-8-safe prefix of it is in Blocks[0]; LineBytes is its
	// full size.
	LineCut   bool
	LineBytes int
	// Next is the line to continue from (0 when everything up to the end
	// was shown).
	Next int
	// Notices are the model-facing notices, each in brackets, in order.
	Notices []string

	multi bool // from a multi-range selector: notices follow on the next line
}

// Lines splits text into lines as Paginate does.
func Lines(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	return strings.Split(text, "\n")
}

// Paginate selects what to show of text. ranges nil or empty means the
// whole text (head-cut); one range is shown with context (unless o.Raw);
// several ranges are sorted, merged and shown without context, each range
// that starts past the end being skipped with a notice.
func Paginate(text string, ranges []Range, o Options) Page {
	if o.Entity == "" {
		o.Entity = EntityResource
	}
	if o.MaxLines <= 0 {
		o.MaxLines = MaxLines
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = MaxBytes
	}
	lines := Lines(text)
	ranges = Merge(ranges)
	if len(ranges) > 1 {
		return multi(lines, ranges, o)
	}
	r := Range{Start: 1}
	if len(ranges) == 1 {
		r = ranges[0]
	}
	return single(lines, r, len(ranges) == 1, o)
}

func single(lines []string, r Range, explicit bool, o Options) Page {
	total := len(lines)
	p := Page{Total: total}
	if r.Start < 1 {
		r.Start = 1
	}
	if r.Start > total {
		p.Message = fmt.Sprintf("Line %d is beyond end of %s (%d lines total). Use :1 to read from the start, or :%d to read the last line.",
			r.Start, o.Entity, total, total)
		return p
	}
	start, end := r.Start, total
	if r.End != 0 {
		end = min(r.End, total)
	}
	if !o.Raw && explicit {
		if start > 1 {
			start = max(1, start-LeadingContext)
		}
		if r.End != 0 {
			end = min(total, end+TrailingContext)
		}
	}
	sel := lines[start-1 : end]
	if !o.Unlimited {
		n, bytes, byBytes := headFit(sel, o.MaxLines, o.MaxBytes)
		switch {
		case n == 0:
			// The first line alone is over the byte budget.
			first := sel[0]
			p.Blocks = []Block{{Start: start, Lines: []string{prefixUTF8(first, o.MaxBytes)}}}
			p.LineCut, p.LineBytes, p.Truncated, p.ByBytes = true, len(first), true, true
			if start < total {
				p.Next = start + 1
			}
			p.Notices = append(p.Notices, fmt.Sprintf("[Line %d is %s, exceeds %s limit; showing its first %s]",
				start, FormatBytes(len(first)), FormatBytes(o.MaxBytes), FormatBytes(len(p.Blocks[0].Lines[0]))))
			return p
		case n < len(sel):
			last := start + n - 1
			p.Blocks = []Block{{Start: start, Lines: sel[:n]}}
			p.Truncated, p.ByBytes, p.Next = true, byBytes, last+1
			limit := ""
			if byBytes {
				limit = fmt.Sprintf(" (%s limit)", FormatBytes(bytes))
			}
			p.Notices = append(p.Notices, fmt.Sprintf("[Showing lines %d-%d of %d%s. Use :%d to continue]", start, last, total, limit, last+1))
			return p
		}
	}
	p.Blocks = []Block{{Start: start, Lines: sel}}
	if r.End != 0 && end < total {
		p.Next = end + 1
		p.Notices = append(p.Notices, fmt.Sprintf("[%d more lines in %s. Use :%d to continue]", total-end, o.Entity, end+1))
	}
	return p
}

func multi(lines []string, ranges []Range, o Options) Page {
	total := len(lines)
	p := Page{Total: total, multi: true}
	for _, r := range ranges {
		if r.Start > total {
			p.Notices = append(p.Notices, fmt.Sprintf("[Range %s is beyond end of %s (%d lines total); skipped]", r, o.Entity, total))
			continue
		}
		end := total
		if r.End != 0 {
			end = min(r.End, total)
		}
		start := max(1, r.Start)
		// Every range is capped like an unbounded read.
		if !o.Unlimited && end-start+1 > o.MaxLines {
			end = start + o.MaxLines - 1
		}
		p.Blocks = append(p.Blocks, Block{Start: start, Lines: lines[start-1 : end]})
	}
	return p
}

// headFit returns how many of lines fit in maxLines lines and maxBytes bytes
// (counting a newline between lines), the bytes they take, and whether the
// byte budget was the limit.
func headFit(lines []string, maxLines, maxBytes int) (n, bytes int, byBytes bool) {
	for i, l := range lines {
		if i == maxLines {
			return i, bytes, false
		}
		add := len(l)
		if i > 0 {
			add++
		}
		if bytes+add > maxBytes {
			return i, bytes, true
		}
		bytes += add
	}
	return len(lines), bytes, false
}

// prefixUTF8 returns the longest prefix of s of at most n bytes that does
// not split a UTF-8 sequence.
func prefixUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// FormatBytes renders a size as pi does: 512B, 1.2KB, 3.4MB, 1.0GB.
func FormatBytes(n int) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%dB", n)
	case n < k*k:
		return fmt.Sprintf("%.1fKB", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1fMB", float64(n)/(k*k))
	}
	return fmt.Sprintf("%.1fGB", float64(n)/(k*k*k))
}

// Text renders p as plain text: blocks joined by "\n\n…\n\n", then the
// notices (a blank line before a head-cut or continuation notice, a line
// break before skipped-range notices).
func (p Page) Text() string {
	if p.Message != "" {
		return p.Message
	}
	parts := make([]string, len(p.Blocks))
	for i, b := range p.Blocks {
		parts[i] = strings.Join(b.Lines, "\n")
	}
	s := strings.Join(parts, "\n\n…\n\n")
	sep := "\n\n"
	if p.multi {
		sep = "\n"
	}
	for _, n := range p.Notices {
		if s == "" {
			s = n
			continue
		}
		s += sep + n
	}
	return s
}
