package pitext

import "github.com/scoutkit/scout"

// SummaryRow is one row of a code summary's text: a kept line (Start ==
// End), a body kept as its two brace lines around an elided interior
// ("S-E:head .. tail": Start and End the two lines, Tail the second's
// text), or an elided span ("...": Elided). Cut and TailCut report a
// Text and a Tail cut to the column cap (scout.ReadLine.Cut).
type SummaryRow struct {
	Start, End   int
	Text, Tail   string
	Cut, TailCut bool
	Elided       bool
}

// SummaryRows lists the rows of the summary read r in order: its kept
// lines, each elided span of r.Summary as one row, a merged span and the
// two kept lines around it as one.
func SummaryRows(r *scout.ReadResult) []SummaryRow {
	var lines []scout.ReadLine
	for _, b := range r.Blocks {
		lines = append(lines, b.Lines...)
	}
	s := r.Summary
	rows := make([]SummaryRow, 0, len(lines)+len(s.Elided))
	for li, si := 0, 0; li < len(lines) || si < len(s.Elided); {
		if si == len(s.Elided) || li < len(lines) && lines[li].N < s.Elided[si].Start {
			rows = append(rows, SummaryRow{Start: lines[li].N, End: lines[li].N, Text: lines[li].Text, Cut: lines[li].Cut})
			li++
			continue
		}
		sp := s.Elided[si]
		si++
		if sp.Merged && li+1 < len(lines) && lines[li].N == sp.Start && lines[li+1].N == sp.End {
			rows = append(rows, SummaryRow{Start: sp.Start, End: sp.End, Text: lines[li].Text, Tail: lines[li+1].Text,
				Cut: lines[li].Cut, TailCut: lines[li+1].Cut})
			li += 2
			continue
		}
		rows = append(rows, SummaryRow{Start: sp.Start, End: sp.End, Elided: true})
	}
	return rows
}
