package pitext

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
)

func TestSummaryRows(t *testing.T) {
	line := func(n int, s string) scout.ReadLine { return scout.ReadLine{N: n, Text: s} }
	tests := []struct {
		blocks []scout.ReadBlock
		elided []scout.ElidedSpan
		want   []SummaryRow
		reason string
	}{
		{
			[]scout.ReadBlock{{Lines: []scout.ReadLine{line(1, "package a"), line(3, "func f() {"), line(9, "}")}}},
			[]scout.ElidedSpan{{Start: 4, End: 8}},
			[]SummaryRow{{Start: 1, End: 1, Text: "package a"}, {Start: 3, End: 3, Text: "func f() {"}, {Start: 4, End: 8, Elided: true}, {Start: 9, End: 9, Text: "}"}},
			"an elided span is one row between the kept lines",
		},
		{
			[]scout.ReadBlock{{Lines: []scout.ReadLine{line(1, "package a"), line(3, "func f() {"), line(9, "}")}}},
			[]scout.ElidedSpan{{Start: 3, End: 9, Merged: true}},
			[]SummaryRow{{Start: 1, End: 1, Text: "package a"}, {Start: 3, End: 9, Text: "func f() {", Tail: "}"}},
			"a merged span and its two brace lines are one row",
		},
		{
			[]scout.ReadBlock{{Lines: []scout.ReadLine{line(1, "package a")}}},
			[]scout.ElidedSpan{{Start: 3, End: 9, Merged: true}},
			[]SummaryRow{{Start: 1, End: 1, Text: "package a"}, {Start: 3, End: 9, Elided: true}},
			"a merged span without its lines is elided",
		},
		{
			[]scout.ReadBlock{{Lines: []scout.ReadLine{line(1, "a")}}, {Lines: []scout.ReadLine{line(5, "b")}}},
			[]scout.ElidedSpan{{Start: 2, End: 4}, {Start: 6, End: 7}},
			[]SummaryRow{{Start: 1, End: 1, Text: "a"}, {Start: 2, End: 4, Elided: true}, {Start: 5, End: 5, Text: "b"}, {Start: 6, End: 7, Elided: true}},
			"kept lines across blocks; a span at the end",
		},
	}
	for _, tt := range tests {
		r := &scout.ReadResult{Blocks: tt.blocks, Summary: &scout.ReadSummary{Elided: tt.elided}}
		assert.Equal(t, tt.want, SummaryRows(r), tt.reason)
	}
}
