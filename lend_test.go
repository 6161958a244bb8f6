package scout_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/search"
)

// TestStreamFuncLent: with a context marked by search.Lend (the command
// line's), StreamFunc lends fn each file's lines, texts and spans in memory
// written again for the next file; a copy made while fn runs is what
// StreamFunc gives without the mark, in every order and part size, over
// texts that are short, long, cut at the column limit, invalid UTF-8 and
// in CRLF lines.
func TestStreamFuncLent(t *testing.T) {
	tree := fstest.MapFS{}
	for i := range 60 {
		var b strings.Builder
		for j := range 40 + i*7 {
			switch j % 6 {
			case 0:
				fmt.Fprintf(&b, "hit %d in file %d\n", j, i)
			case 1:
				fmt.Fprintf(&b, "%s hit %d\n", strings.Repeat("long ", 30+i), j)
			case 2:
				fmt.Fprintf(&b, "bad \xff\xfe hit %d\r\n", j)
			case 3:
				b.WriteString(strings.Repeat("x", 3000+i) + " hit\n")
			default:
				fmt.Fprintf(&b, "context line %d of file %d\n", j, i)
			}
		}
		tree[fmt.Sprintf("d%d/f%02d.txt", i%4, i)] = &fstest.MapFile{Data: []byte(b.String())}
	}
	forEachFS(t, tree, func(t *testing.T, s scout.Searcher) {
		for _, unordered := range []bool{false, true} {
			for _, part := range []int{0, 5} {
				t.Run(fmt.Sprintf("unordered=%v/part=%d", unordered, part), func(t *testing.T) {
					req := scout.SearchRequest{Pattern: "hit \\d+", Before: 1, After: 2, MaxFiles: -1, MaxMatches: -1,
						MaxColumns: 100, Unordered: unordered, PartLines: part}
					collect := func(ctx context.Context) []scout.FileMatch {
						var got []scout.FileMatch
						_, err := s.StreamFunc(ctx, req, func(f *scout.FileMatch) bool {
							c := *f
							c.Lines = slices.Clone(f.Lines)
							for i, l := range c.Lines {
								c.Lines[i].Text = strings.Clone(l.Text)
								c.Lines[i].Spans = slices.Clone(l.Spans)
							}
							got = append(got, c)
							return true
						})
						require.NoError(t, err)
						slices.SortStableFunc(got, func(a, b scout.FileMatch) int { return strings.Compare(a.Path, b.Path) })
						return got
					}
					want := collect(context.Background())
					if part == 0 {
						require.Len(t, want, 60)
					} else {
						require.Greater(t, len(want), 60) // files in parts
					}
					assert.Equal(t, want, collect(search.Lend(context.Background())))
				})
			}
		}
	})
}
