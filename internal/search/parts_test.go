package search

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/grep"
)

// TestStreamPartsGone: a split file that cannot be opened again to go on
// ends with a last part without lines, and counts as unreadable too (with
// the failure as a sample); the parts given before stand in the totals.
func TestStreamPartsGone(t *testing.T) {
	fsys := fstest.MapFS{"many.txt": {Data: []byte(strings.Repeat("hit\n", 10))}}
	req := Request{Paths: []string{"many.txt"}, Grep: grep.Options{Pattern: "hit", PartLines: 3}, PerFile: -1, PerFileOne: -1, MaxFileSize: -1}
	var parts []Hit
	out, err := Stream(context.Background(), fsys, "", req, func(h Hit) bool {
		if len(parts) == 0 {
			delete(fsys, "many.txt") // one file alone: no worker reads the map now
		}
		r := *h.FileResult
		h.FileResult = &r
		parts = append(parts, h)
		return true
	})
	require.NoError(t, err)
	require.Len(t, parts, 2)
	assert.True(t, parts[0].More && parts[0].Single, "the first part: more to come, of the one file searched")
	assert.Equal(t, 3, parts[0].MatchLines)
	assert.False(t, parts[1].More, "the last part")
	assert.Empty(t, parts[1].Lines)
	assert.Equal(t, 1, out.TotalFiles)
	assert.Equal(t, 3, out.TotalLines)
	assert.Equal(t, 1, out.Skipped[SkipError])
	assert.Len(t, out.Errors, 1)
}
