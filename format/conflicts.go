package format

import (
	"fmt"
	"strings"

	"github.com/scoutkit/scout"
)

// scanCutNote is the note of a :conflicts scan that stopped at its cap.
const scanCutNote = "- note: file scan hit the byte cap; additional conflicts may exist beyond the scanned prefix."

// writeConflictList renders the :conflicts index of the file path: a
// header, the labels, a notice and one "#N  La-b" row per block, IDs
// right-aligned, "(3-way)" marking diff3 blocks; or the clean-file
// message.
func writeConflictList(b *strings.Builder, path string, c *scout.ReadConflicts) {
	if len(c.Blocks) == 0 {
		fmt.Fprintf(b, "No unresolved git merge conflicts in %s.", path)
		if c.ScanCut {
			b.WriteString("\n" + scanCutNote)
		}
		return
	}
	fmt.Fprintf(b, "⚠ %d unresolved %s in %s\n", len(c.Blocks), plural(len(c.Blocks), "conflict"), path)
	if c.ScanCut {
		b.WriteString(scanCutNote + "\n")
	}
	writeLabels(b, c.Blocks)
	fmt.Fprintf(b, "NOTICE: %s\n\n", conflictNotice(path, c.Blocks[0]))
	width := len(fmt.Sprint(c.Blocks[len(c.Blocks)-1].ID))
	for i, blk := range c.Blocks {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(b, "#%*d  L%d-%d", width, blk.ID, blk.Start, blk.End)
		if blk.Base != nil {
			b.WriteString("  (3-way)")
		}
	}
}

// writeConflictFooter renders the warning after a read whose lines show
// conflict blocks: how many of the file's are visible, the labels, a
// notice, then each block's sides, at most 6 lines each, a side equal to
// another shown as "≡ other".
func writeConflictFooter(b *strings.Builder, path string, c *scout.ReadConflicts) {
	visible := c.Blocks
	total := max(c.Total, len(visible))
	if total > len(visible) {
		fmt.Fprintf(b, "⚠ %d of %d unresolved %s visible in this window (read `%s:conflicts` for the full list).\n",
			len(visible), total, plural(total, "conflict"), path)
	} else {
		fmt.Fprintf(b, "⚠ %d unresolved %s detected\n", total, plural(total, "conflict"))
	}
	if c.ScanCut {
		b.WriteString(scanCutNote + "\n")
	}
	writeLabels(b, visible)
	fmt.Fprintf(b, "NOTICE: %s", conflictNotice(path, visible[0]))
	for _, blk := range visible {
		fmt.Fprintf(b, "\n\n──── #%d  L%d-%d ────\n<<< ours", blk.ID, blk.Start, blk.End)
		writeSide(b, blk.Ours)
		if s := blk.Base; s != nil {
			if s.SameAs != "" {
				b.WriteString("\n=== base ≡ " + s.SameAs)
			} else {
				b.WriteString("\n=== base")
				writeSide(b, *s)
			}
		}
		if blk.Theirs.SameAs != "" {
			b.WriteString("\n>>> theirs ≡ " + blk.Theirs.SameAs)
		} else {
			b.WriteString("\n>>> theirs")
			writeSide(b, blk.Theirs)
		}
	}
}

// conflictNotice tells the model how to see a whole block with Scout,
// which is read-only; first is a block whose range serves as the example.
func conflictNotice(path string, first scout.ConflictBlock) string {
	return fmt.Sprintf("Read a whole block, markers included, by its L range, e.g. `%s:%d-%d`; `%s:conflicts` lists every block.",
		path, first.Start, first.End, path)
}

// writeLabels writes "- ours = X", "- theirs = Y" (each from the first
// block that has a non-blank label) and "- base = Z" when any block is
// diff3, one per line.
func writeLabels(b *strings.Builder, blocks []scout.ConflictBlock) {
	pick := func(get func(*scout.ConflictBlock) string) string {
		for i := range blocks {
			if l := get(&blocks[i]); strings.TrimSpace(l) != "" {
				return l
			}
		}
		return ""
	}
	if l := pick(func(x *scout.ConflictBlock) string { return x.Ours.Label }); l != "" {
		fmt.Fprintf(b, "- ours = %s\n", l)
	}
	if l := pick(func(x *scout.ConflictBlock) string { return x.Theirs.Label }); l != "" {
		fmt.Fprintf(b, "- theirs = %s\n", l)
	}
	anyBase := false
	for i := range blocks {
		anyBase = anyBase || blocks[i].Base != nil
	}
	if anyBase {
		l := pick(func(x *scout.ConflictBlock) string {
			if x.Base != nil {
				return x.Base.Label
			}
			return ""
		})
		if l == "" {
			l = "(no label)"
		}
		fmt.Fprintf(b, "- base = %s\n", l)
	}
}

// writeSide writes a side's lines, "(empty)" for none, and how many more
// it has than are shown.
func writeSide(b *strings.Builder, s scout.ConflictSide) {
	if s.Count == 0 {
		b.WriteString("\n(empty)")
		return
	}
	for _, l := range s.Lines {
		b.WriteByte('\n')
		b.WriteString(l)
	}
	if hidden := s.Count - len(s.Lines); hidden > 0 {
		fmt.Fprintf(b, "\n… (%d more %s)", hidden, plural(hidden, "line"))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
