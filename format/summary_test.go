package format

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
)

// TestSummaryGolden reads the summary fixtures of internal/summary (one
// per language) and compares their text with testdata/summary. Without
// cgo only Go is summarised; the others are read as lines.
func TestSummaryGolden(t *testing.T) {
	fixtures := filepath.Join("..", "internal", "summary", "testdata")
	r := scout.Reader{Workspace: scout.Workspace{FS: os.DirFS(fixtures)}}
	goldens, err := filepath.Glob(filepath.Join("testdata", "summary", "*.golden"))
	require.NoError(t, err)
	require.NotEmpty(t, goldens)
	for _, golden := range goldens {
		name := strings.TrimSuffix(filepath.Base(golden), ".golden")
		t.Run(name, func(t *testing.T) {
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: name})
			require.NoError(t, err)
			if res.Kind != scout.ReadKindSummary {
				if !strings.HasSuffix(name, ".go") {
					t.Skip("summaries of this language need cgo")
				}
				t.Fatalf("kind %s, want summary", res.Kind)
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			res.Tag = "" // the rows in the hashline style, without the ¶path#TAG header
			assert.Equal(t, strings.TrimSuffix(string(want), "\n"), ReadText(res, &ReadOptions{Style: StyleHashline}))
		})
	}
}

// TestSummaryFooter checks the footer: always "re-read needed ranges, e.g."
// with at most two ranges as the example, the count in the singular.
func TestSummaryFooter(t *testing.T) {
	tests := []struct {
		spans  []scout.ElidedSpan
		lines  int
		want   string
		reason string
	}{
		{[]scout.ElidedSpan{{Start: 5, End: 16, Lines: 10, Merged: true}}, 10, "[10 lines elided; re-read needed ranges, e.g. a.go:5-16]", "one span: still an example"},
		{[]scout.ElidedSpan{{Start: 5, End: 16, Lines: 12}, {Start: 40, End: 80, Lines: 38}}, 50, "[50 lines elided; re-read needed ranges, e.g. a.go:5-16,40-80]", "two spans, both named"},
		{[]scout.ElidedSpan{{Start: 5, End: 16, Lines: 12}, {Start: 40, End: 80, Lines: 38}, {Start: 90, End: 95, Lines: 5}}, 55, "[55 lines elided; re-read needed ranges, e.g. a.go:5-16,40-80]", "more than two: the first two"},
		{[]scout.ElidedSpan{{Start: 3, End: 3, Lines: 1}}, 1, "[1 line elided; re-read needed ranges, e.g. a.go:3-3]", "singular"},
	}
	for _, tt := range tests {
		res := &scout.ReadResult{Kind: scout.ReadKindSummary, Path: "a.go", Summary: &scout.ReadSummary{Language: "go", Elided: tt.spans, ElidedLines: tt.lines}}
		got := ReadText(res, nil)
		assert.True(t, strings.HasSuffix(got, "\n\n"+tt.want), "%s: %q", tt.reason, got)
	}
}
