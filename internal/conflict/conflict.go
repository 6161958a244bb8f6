// Package conflict finds unresolved git merge-conflict blocks in text, for
// the `:conflicts` index of a read and the blocks a read's window shows
// (the format package renders them).
//
// A block is a run of lines between column-0 markers of exactly seven
// characters, each alone on its line or followed by one space and a label:
//
//	<<<<<<< ours-label
//	ours lines
//	||||||| base-label      (optional: diff3 / zdiff3 style)
//	base lines
//	=======
//	theirs lines
//	>>>>>>> theirs-label
//
// Only complete blocks count. A new `<<<<<<<` abandons an open block, and
// a marker out of order (a base marker after the separator, a separator
// after the separator, a closer before the separator) abandons it too, so
// stray markers never invent a block. A trailing CR is removed from every
// line, so CRLF files parse like LF files.
//
// Block IDs are per call: 1..N in file order. Scout keeps no session, so
// an ID is stable only as long as the file does not change.
package conflict

import (
	"bytes"
	"strings"
)

// MaxScanBytes is how much of a file a whole-file scan should read; a
// caller that stops there reports the scan as truncated.
const MaxScanBytes = 10 << 20

// PreviewLines is how many lines of each side a read result keeps.
const PreviewLines = 6

const (
	oursMarker   = "<<<<<<<"
	baseMarker   = "|||||||"
	sepMarker    = "======="
	theirsMarker = ">>>>>>>"
)

// Block is one complete conflict block. Line numbers are 1-based.
type Block struct {
	ID        int `json:"id"`                  // 1..N in file order within one Parse call
	Start     int `json:"start"`               // line of the `<<<<<<<` marker
	BaseLine  int `json:"base_line,omitempty"` // line of the `|||||||` marker; 0 when there is no base section
	Separator int `json:"separator"`           // line of the `=======` marker
	End       int `json:"end"`                 // line of the `>>>>>>>` marker

	// Text after each marker and one space; "" if none.
	OursLabel   string `json:"ours_label,omitempty"`
	BaseLabel   string `json:"base_label,omitempty"`
	TheirsLabel string `json:"theirs_label,omitempty"`

	Ours   []string `json:"ours"`           // lines between `<<<<<<<` and `|||||||` (or `=======`); CR removed
	Base   []string `json:"base,omitempty"` // lines between `|||||||` and `=======`; nil when BaseLine is 0
	Theirs []string `json:"theirs"`         // lines between `=======` and `>>>>>>>`
}

// HasBase reports whether the block has a diff3 base section.
func (b *Block) HasBase() bool { return b.BaseLine > 0 }

// Parse finds every complete conflict block in text, split on "\n".
// A nil or empty text has none.
func Parse(text []byte) []Block {
	var p parser
	line := 0
	for len(text) > 0 {
		line++
		i := bytes.IndexByte(text, '\n')
		var l []byte
		if i < 0 {
			l, text = text, nil
		} else {
			l, text = text[:i], text[i+1:]
		}
		if p.phase == idle && !bytes.HasPrefix(l, []byte(oursMarker)) {
			continue // the common case: no block open, no opener; nothing to keep
		}
		p.feed(line, string(bytes.TrimSuffix(l, []byte{'\r'})))
	}
	return p.blocks
}

// ParseLines finds every complete conflict block in lines, where lines[0]
// is line number first (first < 1 counts as 1). Use it on a window that
// was already read; blocks cut by the window's edges are not found.
func ParseLines(lines []string, first int) []Block {
	if first < 1 {
		first = 1
	}
	var p parser
	for i, l := range lines {
		p.feed(first+i, strings.TrimSuffix(l, "\r"))
	}
	return p.blocks
}

// Within returns the blocks that lie wholly inside lines from..to
// (inclusive, 1-based), keeping their IDs. It shares blocks' storage.
func Within(blocks []Block, from, to int) []Block {
	var out []Block
	for _, b := range blocks {
		if b.Start >= from && b.End <= to {
			out = append(out, b)
		}
	}
	return out
}

type phase int

const (
	idle phase = iota
	inOurs
	inBase
	inTheirs
)

type parser struct {
	phase  phase
	cur    Block
	blocks []Block
}

func (p *parser) feed(n int, line string) {
	if label, ok := marker(line, oursMarker); ok {
		p.cur = Block{Start: n, OursLabel: label}
		p.phase = inOurs
		return
	}
	if p.phase == idle {
		return
	}
	if label, ok := marker(line, baseMarker); ok {
		if p.phase != inOurs {
			p.phase = idle
			return
		}
		p.cur.BaseLine, p.cur.BaseLabel, p.cur.Base = n, label, []string{}
		p.phase = inBase
		return
	}
	if line == sepMarker {
		if p.phase == inTheirs {
			p.phase = idle
			return
		}
		p.cur.Separator = n
		p.phase = inTheirs
		return
	}
	if label, ok := marker(line, theirsMarker); ok {
		if p.phase == inTheirs {
			p.cur.End, p.cur.TheirsLabel = n, label
			p.cur.ID = len(p.blocks) + 1
			p.blocks = append(p.blocks, p.cur)
		}
		p.phase = idle
		return
	}
	switch p.phase {
	case inOurs:
		p.cur.Ours = append(p.cur.Ours, line)
	case inBase:
		p.cur.Base = append(p.cur.Base, line)
	case inTheirs:
		p.cur.Theirs = append(p.cur.Theirs, line)
	}
}

// marker reports whether line is the marker alone or the marker, one space
// and a label, and returns the label.
func marker(line, m string) (string, bool) {
	if !strings.HasPrefix(line, m) {
		return "", false
	}
	if len(line) == len(m) {
		return "", true
	}
	if line[len(m)] != ' ' {
		return "", false
	}
	return line[len(m)+1:], true
}
