// Package conflict finds unresolved git merge-conflict blocks in text and
// renders them the way the pi read tool does: the `:conflicts` index and
// the footer appended to a normal read whose window shows conflicts.
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
	"fmt"
	"slices"
	"strings"
)

// MaxScanBytes is how much of a file a whole-file scan should read; a
// caller that stops there reports the scan as truncated.
const MaxScanBytes = 10 << 20

// PreviewLines is how many lines of each side the footer shows.
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

// RenderList renders the `:conflicts` index of a file: a header, the
// labels, a notice and one `#N  La-b` row per block, IDs right-aligned,
// `(3-way)` marking diff3 blocks. With no blocks it is the clean-file
// message. display is the path as shown to the model; scanTruncated says
// the scan stopped at MaxScanBytes.
func RenderList(display string, blocks []Block, scanTruncated bool) string {
	if len(blocks) == 0 {
		msg := fmt.Sprintf("No unresolved git merge conflicts in %s.", display)
		if scanTruncated {
			msg += "\n" + truncatedNote
		}
		return msg
	}
	var b strings.Builder
	fmt.Fprintf(&b, "⚠ %d unresolved %s in %s\n", len(blocks), plural(len(blocks), "conflict"), display)
	if scanTruncated {
		b.WriteString(truncatedNote + "\n")
	}
	writeLabels(&b, blocks)
	fmt.Fprintf(&b, "NOTICE: %s\n\n", notice(display, blocks[0]))
	width := len(fmt.Sprint(blocks[len(blocks)-1].ID))
	for i, blk := range blocks {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "#%*d  %s", width, blk.ID, lineRange(blk))
		if blk.HasBase() {
			b.WriteString("  (3-way)")
		}
	}
	return b.String()
}

// RenderFooter renders the warning appended to a normal read whose window
// shows the visible blocks, out of total blocks in the whole file (total
// below len(visible) counts as len(visible)). It returns "" when visible
// is empty. The text has no leading or trailing newline; the caller puts
// it after one blank line. Each block shows at most PreviewLines lines
// per side, and a side equal to another is shown as `≡ other`.
func RenderFooter(display string, visible []Block, total int, scanTruncated bool) string {
	if len(visible) == 0 {
		return ""
	}
	total = max(total, len(visible))
	var b strings.Builder
	if total > len(visible) {
		fmt.Fprintf(&b, "⚠ %d of %d unresolved %s visible in this window (read `%s:conflicts` for the full list).\n",
			len(visible), total, plural(total, "conflict"), display)
	} else {
		fmt.Fprintf(&b, "⚠ %d unresolved %s detected\n", total, plural(total, "conflict"))
	}
	if scanTruncated {
		b.WriteString(truncatedNote + "\n")
	}
	writeLabels(&b, visible)
	fmt.Fprintf(&b, "NOTICE: %s", notice(display, visible[0]))
	for _, blk := range visible {
		fmt.Fprintf(&b, "\n\n──── #%d  %s ────\n<<< ours", blk.ID, lineRange(blk))
		writeBody(&b, blk.Ours)
		if blk.HasBase() {
			switch {
			case slices.Equal(blk.Base, blk.Ours):
				b.WriteString("\n=== base ≡ ours")
			case slices.Equal(blk.Base, blk.Theirs):
				b.WriteString("\n=== base ≡ theirs")
			default:
				b.WriteString("\n=== base")
				writeBody(&b, blk.Base)
			}
		}
		if slices.Equal(blk.Theirs, blk.Ours) {
			b.WriteString("\n>>> theirs ≡ ours")
		} else {
			b.WriteString("\n>>> theirs")
			writeBody(&b, blk.Theirs)
		}
	}
	return b.String()
}

const truncatedNote = "- note: file scan hit the byte cap; additional conflicts may exist beyond the scanned prefix."

// notice tells the model how to see a whole block with Scout, which is
// read-only: the pi tool's write-side hints (conflict://N) do not apply.
// first is a block whose range serves as the example.
func notice(display string, first Block) string {
	return fmt.Sprintf("Read a whole block, markers included, by its L range, e.g. `%s:%d-%d`; `%s:conflicts` lists every block.",
		display, first.Start, first.End, display)
}

// writeLabels writes `- ours = X`, `- theirs = Y` (each from the first
// block that has a non-blank label) and `- base = Z` when any block is
// diff3, one per line.
func writeLabels(b *strings.Builder, blocks []Block) {
	pick := func(get func(*Block) string) string {
		for i := range blocks {
			if l := get(&blocks[i]); strings.TrimSpace(l) != "" {
				return l
			}
		}
		return ""
	}
	if l := pick(func(x *Block) string { return x.OursLabel }); l != "" {
		fmt.Fprintf(b, "- ours = %s\n", l)
	}
	if l := pick(func(x *Block) string { return x.TheirsLabel }); l != "" {
		fmt.Fprintf(b, "- theirs = %s\n", l)
	}
	anyBase := false
	for i := range blocks {
		anyBase = anyBase || blocks[i].HasBase()
	}
	if anyBase {
		l := pick(func(x *Block) string {
			if x.HasBase() {
				return x.BaseLabel
			}
			return ""
		})
		if l == "" {
			l = "(no label)"
		}
		fmt.Fprintf(b, "- base = %s\n", l)
	}
}

func writeBody(b *strings.Builder, lines []string) {
	if len(lines) == 0 {
		b.WriteString("\n(empty)")
		return
	}
	for _, l := range lines[:min(len(lines), PreviewLines)] {
		b.WriteByte('\n')
		b.WriteString(l)
	}
	if hidden := len(lines) - PreviewLines; hidden > 0 {
		fmt.Fprintf(b, "\n… (%d more %s)", hidden, plural(hidden, "line"))
	}
}

func lineRange(b Block) string { return fmt.Sprintf("L%d-%d", b.Start, b.End) }

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
