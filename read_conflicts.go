package scout

import (
	"slices"

	"github.com/scoutkit/scout/internal/conflict"
	"github.com/scoutkit/scout/internal/read"
)

// ReadConflicts are the unresolved git merge-conflict blocks of a read
// (ReadResult.Conflicts): every block of the file for ":conflicts", the
// blocks that lie wholly inside the shown lines of a single-range read.
type ReadConflicts struct {
	// Blocks are in file order. Their IDs number the file's blocks from 1
	// in this read; an ID is stable only while the file does not change.
	Blocks []ConflictBlock `json:"blocks"`
	// Total is the number of blocks in the whole file (in the lines read,
	// for a text over 4 MiB read in part).
	Total int `json:"total"`
	// ScanCut reports that the ":conflicts" scan stopped at 10 MiB: more
	// blocks may follow.
	ScanCut bool `json:"scan_cut,omitempty"`
}

// ConflictBlock is one complete conflict block: the lines between a
// "<<<<<<<" marker and its ">>>>>>>", with an optional diff3 base.
type ConflictBlock struct {
	ID    int          `json:"id"`    // the block's number in the file, from 1
	Start int          `json:"start"` // the line of the "<<<<<<<" marker
	End   int          `json:"end"`   // the line of the ">>>>>>>" marker
	Ours  ConflictSide `json:"ours"`  // the "<<<<<<<" section
	// Base is the "|||||||" section of a diff3 block; nil without one.
	Base   *ConflictSide `json:"base,omitempty"`
	Theirs ConflictSide  `json:"theirs"` // the "=======" section
}

// ConflictSide is one side of a conflict block.
type ConflictSide struct {
	// Label is the text after the side's marker (for theirs, the closing
	// ">>>>>>>"); "" when none.
	Label string `json:"label,omitempty"`
	// Start is the line of the side's first line, after its marker; Count
	// is the number of its lines (0: an empty side).
	Start int `json:"start"`
	Count int `json:"count"`
	// Lines are the side's first lines, at most 6 (read Start to
	// Start+Count-1 for the rest), without line terminators.
	Lines []string `json:"lines"`
	// SameAs names another side with exactly the same lines: "ours" (for
	// the base or theirs) or "theirs" (for a base that differs from
	// ours); "" when none.
	SameAs string `json:"same_as,omitempty"`
}

// exportConflicts converts the conflict blocks of a read.
func exportConflicts(c *read.Conflicts) *ReadConflicts {
	out := &ReadConflicts{Blocks: make([]ConflictBlock, len(c.Blocks)), Total: c.Total, ScanCut: c.ScanCut}
	side := func(label string, marker int, lines []string) ConflictSide {
		return ConflictSide{Label: label, Start: marker + 1, Count: len(lines), Lines: slices.Clip(lines[:min(len(lines), conflict.PreviewLines)])}
	}
	for i, b := range c.Blocks {
		blk := ConflictBlock{ID: b.ID, Start: b.Start, End: b.End, Ours: side(b.OursLabel, b.Start, b.Ours), Theirs: side(b.TheirsLabel, b.Separator, b.Theirs)}
		if b.HasBase() {
			base := side(b.BaseLabel, b.BaseLine, b.Base)
			switch {
			case slices.Equal(b.Base, b.Ours):
				base.SameAs = "ours"
			case slices.Equal(b.Base, b.Theirs):
				base.SameAs = "theirs"
			}
			blk.Base = &base
		}
		if slices.Equal(b.Theirs, b.Ours) {
			blk.Theirs.SameAs = "ours"
		}
		if blk.Ours.Lines == nil {
			blk.Ours.Lines = []string{}
		}
		if blk.Theirs.Lines == nil {
			blk.Theirs.Lines = []string{}
		}
		out.Blocks[i] = blk
	}
	return out
}
