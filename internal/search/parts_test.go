package search

import (
	"context"
	"io/fs"
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

// panicFS opens its files as fstest.MapFS does, but from the second open
// on, reading panics: an engine failure in the search of a split file's
// later parts, which runs on the yielding goroutine.
type panicFS struct {
	fstest.MapFS
	opens *int
}

func (p panicFS) Open(name string) (fs.File, error) {
	f, err := p.MapFS.Open(name)
	if *p.opens++; err != nil || *p.opens < 2 {
		return f, err
	}
	return panicFile{f}, nil
}

type panicFile struct{ fs.File }

func (panicFile) Read([]byte) (int, error) { panic("boom") }

// TestStreamPartsPanic: a panic in the engine while a split file's later
// parts are searched (on the goroutine that yields) becomes that file's
// error, as a worker's does; a panic of the host's yield there goes on up
// with its own value.
func TestStreamPartsPanic(t *testing.T) {
	data := []byte(strings.Repeat("hit\n", 10))
	req := Request{Paths: []string{"many.txt"}, Grep: grep.Options{Pattern: "hit", PartLines: 3}, PerFile: -1, PerFileOne: -1, MaxFileSize: -1}
	opens := 0
	fsys := panicFS{fstest.MapFS{"many.txt": {Data: data}}, &opens}
	var parts []bool
	out, err := Stream(context.Background(), fsys, "", req, func(h Hit) bool {
		parts = append(parts, h.More)
		return true
	})
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false}, parts, "the first part, then a last one without lines")
	assert.Equal(t, 1, out.Skipped[SkipError])
	require.Len(t, out.Errors, 1)
	assert.Contains(t, out.Errors[0].Error(), "internal error searching many.txt: boom")

	n := 0
	assert.PanicsWithValue(t, "host", func() {
		_, _ = Stream(context.Background(), fstest.MapFS{"many.txt": {Data: data}}, "", req, func(h Hit) bool {
			if n++; n == 2 { // the second part: yielded from the search of the rest
				panic("host")
			}
			return true
		})
	})
}
