package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
)

// failWriter fails every write with err, or, when err is nil, writes at
// most n bytes and reports no error (a writer that breaks io.Writer's
// contract).
type failWriter struct {
	err error
	n   int
}

func (w failWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	return min(w.n, len(p)), nil
}

// TestWriters: the three renderers refuse a nil writer with an
// INVALID_PARAM error that names the fix instead of panicking, return the
// writer's own error, and report a short write that the writer does not
// explain as io.ErrShortWrite; a good writer gets the Text variant's text.
func TestWriters(t *testing.T) {
	read := &scout.ReadResult{Kind: scout.ReadKindText, Path: "a.go", TotalLines: 1,
		Blocks: []scout.ReadBlock{{Start: 1, Lines: []scout.ReadLine{{N: 1, Text: "package a"}}}}}
	search := &scout.SearchResult{TotalFiles: 1, Files: []scout.FileMatch{{Path: "a.go", MatchLines: 1, Matches: 1,
		Lines: []scout.LineMatch{{Line: 1, Text: "package a", Match: true}}}}}
	find := &scout.FindResult{Entries: []scout.FindEntry{{Path: "a.go"}}}
	searchText, _ := SearchText(search, nil)
	findText, _ := FindText(find, nil)
	renderers := []struct {
		name string
		text string
		fn   func(io.Writer) error
	}{
		{"Read", ReadText(read, nil), func(w io.Writer) error { return Read(w, read, nil) }},
		{"Search", searchText, func(w io.Writer) error { return Search(w, search, nil) }},
		{"Find", findText, func(w io.Writer) error { return Find(w, find, nil) }},
		{"Read", "", func(w io.Writer) error { return Read(w, nil, nil) }},
	}
	boom := errors.New("disk full")
	for _, r := range renderers {
		t.Run(r.name, func(t *testing.T) {
			err := r.fn(nil)
			require.Error(t, err)
			assert.Equal(t, scout.CodeInvalidParam, scout.CodeOf(err))
			assert.Contains(t, err.Error(), "format."+r.name+": the io.Writer is nil")
			assert.ErrorIs(t, r.fn(failWriter{err: boom}), boom)
			if r.text != "" {
				assert.ErrorIs(t, r.fn(failWriter{n: 3}), io.ErrShortWrite)
			}
			var b bytes.Buffer
			require.NoError(t, r.fn(&b))
			assert.Equal(t, r.text, b.String())
		})
	}
}

// TestCapFigure: the notice of a text cut at a host's byte cap states the
// cap as it is: "1500B", not "2KB" rounded up ("1KB" for a 1-byte cap);
// a whole number of KB is still shown in KB, as pi's "50KB" is.
func TestCapFigure(t *testing.T) {
	var lines []scout.LineMatch
	var entries []scout.FindEntry
	for i := 1; i <= 400; i++ {
		lines = append(lines, scout.LineMatch{Line: i, Text: "hello world", Match: true})
		entries = append(entries, scout.FindEntry{Path: fmt.Sprintf("file%03d.go", i)})
	}
	search := &scout.SearchResult{Single: true, TotalFiles: 1, TotalMatchLines: 400, TotalMatches: 400,
		Files: []scout.FileMatch{{Path: "a.go", Single: true, MatchLines: 400, Matches: 400, Lines: lines}}}
	find := &scout.FindResult{Entries: entries, Matched: 400}
	for _, tt := range []struct {
		max  int
		want string
	}{
		{1, "(1B limit)"},
		{1500, "(1500B limit)"},
		{2048, "(2KB limit)"},
	} {
		text, cut := SearchText(search, &SearchOptions{MaxBytes: tt.max})
		assert.True(t, cut, "search, cap %d", tt.max)
		assert.Contains(t, text, tt.want, "search, cap %d", tt.max)
		text, cut = FindText(find, &FindOptions{MaxBytes: tt.max})
		assert.True(t, cut, "find, cap %d", tt.max)
		assert.Contains(t, text, tt.want, "find, cap %d", tt.max)
	}
}
