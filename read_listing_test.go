package scout_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestReaderListingLimit checks Reader.ListingLimit: the rows a directory
// listing read without a line selector shows (0: DefaultLimit's, with a
// file read's byte budget; otherwise within 50 KB), and that a selector
// pages a listing as before, over MapFS and a directory.
func TestReaderListingLimit(t *testing.T) {
	// flat's rows are "  - f0000  0B" over MapFS, its entries having no
	// time: 3000 of them fit in 50 KB. A directory's entries have one, and
	// rows of 30 bytes: 50 KB cut them first, so that the 3000-row cap is
	// checked over MapFS only. long's rows are 224 bytes.
	m := fstest.MapFS{}
	for i := range 4000 {
		m[fmt.Sprintf("flat/f%04d", i)] = &fstest.MapFile{Mode: 0o644}
	}
	for i := range 400 {
		m[fmt.Sprintf("long/%03d%s", i, strings.Repeat("n", 197))] = &fstest.MapFile{Mode: 0o644, ModTime: testfs.Epoch}
	}
	tests := []struct {
		name                string
		path                string
		defaultLimit, limit int
		first, last         int // the rows shown
		truncated           scout.Truncation
		next, byteLimit     int
		mapfsOnly           bool
	}{
		{"0 means DefaultLimit", "flat", 0, 0, 1, 300, scout.TruncLimit, 301, 0, false},
		{"0 follows DefaultLimit", "flat", 50, 0, 1, 50, scout.TruncLimit, 51, 0, false},
		{"a limit of its own", "flat", 0, 1000, 1, 1000, scout.TruncLimit, 1001, 0, false},
		{"negative means 3000", "flat", 0, -1, 1, 3000, scout.TruncLimit, 3001, 0, true},
		{"above 3000 means 3000", "flat", 0, 5000, 1, 3000, scout.TruncLimit, 3001, 0, true},
		{"0: a file read's byte budget, not 50 KB", "long", 0, 0, 1, 300, scout.TruncLimit, 301, 0, false},
		{"cut at 50 KB", "long", 0, -1, 1, 228, scout.TruncBytes, 229, 50 * 1024, false},
		{"a range is exact", "flat:1-5", 0, -1, 1, 5, "", 6, 0, false},
		{"an open range shows DefaultLimit rows", "flat:301", 0, -1, 301, 600, scout.TruncLimit, 601, 0, false},
		{"an open range follows DefaultLimit", "flat:301", 20, -1, 301, 320, scout.TruncLimit, 321, 0, false},
		{"an open range keeps a file read's byte budget", "long:2", 0, -1, 2, 301, scout.TruncLimit, 302, 0, false},
	}
	dir := testfs.WriteDir(t, m)
	for _, tt := range tests {
		for _, mode := range []string{"mapfs", "dir"} {
			if tt.mapfsOnly && mode == "dir" {
				continue
			}
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				r := scout.Reader{DefaultLimit: tt.defaultLimit, ListingLimit: tt.limit, Now: func() time.Time { return testfs.Epoch }}
				if mode == "mapfs" {
					r.FS = m
				} else {
					r.Root = dir
				}
				res, err := r.Read(context.Background(), scout.ReadRequest{Path: tt.path})
				require.NoError(t, err)
				require.Equal(t, scout.ReadKindDirectory, res.Kind)
				require.Len(t, res.Blocks, 1)
				lines := res.Blocks[0].Lines
				require.NotEmpty(t, lines)
				assert.Equal(t, tt.first, lines[0].N, "first row")
				assert.Equal(t, tt.last, lines[len(lines)-1].N, "last row")
				assert.Equal(t, tt.truncated, res.Truncated)
				assert.Equal(t, tt.next, res.Next)
				assert.Equal(t, tt.byteLimit, res.Blocks[0].ByteLimit)
				assert.Equal(t, tt.last-max(tt.first, 2)+1, len(res.Entries), "an entry for each row shown but '.'")
			})
		}
	}
}

// TestReaderListingUnreadable checks that a listing's subdirectory that
// cannot be listed is counted and named with its failure's Code and
// Message, as SkippedPath documents for an unreadable entry.
func TestReaderListingUnreadable(t *testing.T) {
	fsys := lockedDirFS{fstest.MapFS{"a.txt": {Data: []byte("x\n")}, "locked/b.txt": {Data: []byte("y\n")}}}
	r, err := (&scout.Reader{Workspace: scout.Workspace{FS: fsys}}).Read(context.Background(), scout.ReadRequest{Path: "."})
	require.NoError(t, err, "an unreadable subdirectory is recorded in the result, not returned")
	assert.Equal(t, map[scout.SkipReason]int{scout.SkipUnreadable: 1}, r.Skipped)
	require.Len(t, r.SkippedPaths, 1)
	sp := r.SkippedPaths[0]
	assert.Equal(t, "locked", sp.Path)
	assert.Equal(t, scout.SkipUnreadable, sp.Reason)
	assert.Equal(t, scout.CodeAccessDenied, sp.Code, "the failure's class")
	assert.Contains(t, sp.Message, "permission denied", "what failed")
}

// TestReaderListingDeepWindow reads a window deep into a directory of
// 100,000 files: it shows the rows of the whole listing, and builds only
// those rows (the heap grew by 54 MiB for flat:99990-99995 when the rows
// before the window were built too, against 20 MiB for flat:1-10; now 19).
func TestReaderListingDeepWindow(t *testing.T) {
	const n = 100_000
	m := fstest.MapFS{}
	for i := range n {
		m[fmt.Sprintf("flat/f%06d", i)] = &fstest.MapFile{Mode: 0o644}
	}
	r := scout.Reader{Workspace: scout.Workspace{FS: m}, Now: func() time.Time { return testfs.Epoch }}
	read := func(path string) (*scout.ReadResult, uint64) {
		var res *scout.ReadResult
		var err error
		grew := testfs.HeapPeak(func() { res, err = r.Read(context.Background(), scout.ReadRequest{Path: path}) })
		require.NoError(t, err, path)
		return res, grew
	}
	_, shallow := read("flat:1-10")
	res, deep := read("flat:99990-99995")
	require.Len(t, res.Blocks, 1)
	var got []string
	for _, l := range res.Blocks[0].Lines {
		got = append(got, fmt.Sprintf("%d %s", l.N, strings.TrimSpace(l.Text)))
	}
	assert.Equal(t, []string{"99990 - f099988  0B", "99991 - f099989  0B", "99992 - f099990  0B", "99993 - f099991  0B", "99994 - f099992  0B", "99995 - f099993  0B"}, got)
	require.Len(t, res.Entries, 6)
	assert.Equal(t, "f099988", res.Entries[0].Path)
	assert.Equal(t, 99990, res.Entries[0].Line)
	// The deep window keeps a small node for each of the 100,000 entries
	// to order them (about 8 MiB more; 8.3 under -race on CI), not their
	// rows (34 MiB more).
	assert.Less(t, deep, shallow+16<<20, "the heap grew by %d MiB for flat:99990-99995, %d MiB for flat:1-10", deep>>20, shallow>>20)
}
