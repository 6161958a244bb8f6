package read

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestArchiveListingRanges checks that a line selector bounds a listing
// inside an archive as it bounds a local directory listing: the entries
// listed, where the listing goes on, past the end (the text is tested in
// the root package's TestReadArchiveListings).
func TestArchiveListingRanges(t *testing.T) {
	var names []string
	for i := range 30 {
		names = append(names, fmt.Sprintf("d/f%02d.txt", i))
	}
	names = append(names, "d/", "top.txt", "İç/é.txt")
	files := fstest.MapFS{"a.zip": {Data: testfs.Zip(testfs.SelfNamed(names...)...)}, "dİr/b.zip": {Data: testfs.Zip(testfs.SelfNamed("x.txt")...)}}
	tests := []struct {
		path        string
		first, last dirtree.Entry // the first and last entries listed
		next        int
		beyond      int
		reason      string
	}{
		{"a.zip:d/:10-14", dirtree.Entry{Path: "f09.txt", Line: 10, Depth: 1, Size: 10}, dirtree.Entry{Path: "f13.txt", Line: 14, Depth: 1, Size: 10}, 15, 0, "a range end bounds the listing exactly"},
		{"a.zip:d/:10+2", dirtree.Entry{Path: "f09.txt", Line: 10, Depth: 1, Size: 10}, dirtree.Entry{Path: "f10.txt", Line: 11, Depth: 1, Size: 10}, 12, 0, "A+C is a range too"},
		{"a.zip:d/:28", dirtree.Entry{Path: "f27.txt", Line: 28, Depth: 1, Size: 10}, dirtree.Entry{Path: "f29.txt", Line: 30, Depth: 1, Size: 10}, 0, 0, "an open range lists the rest"},
		{"a.zip:d/:29-40", dirtree.Entry{Path: "f28.txt", Line: 29, Depth: 1, Size: 10}, dirtree.Entry{Path: "f29.txt", Line: 30, Depth: 1, Size: 10}, 0, 0, "an end past the last child is clamped"},
		{"a.zip:d/:31", dirtree.Entry{}, dirtree.Entry{}, 0, 31, "past the end"},
		{"a.zip:/:1-1", dirtree.Entry{Path: "d", Line: 1, Depth: 1, Dir: true}, dirtree.Entry{Path: "d", Line: 1, Depth: 1, Dir: true}, 2, 0, "the root"},
		{"a.zip", dirtree.Entry{Path: "d", Line: 1, Depth: 1, Dir: true}, dirtree.Entry{Path: "top.txt", Line: 3, Depth: 1, Size: 8}, 0, 0, "no selector lists everything under the cap"},
		{"a.zip:2", dirtree.Entry{Path: "İç", Line: 2, Depth: 1, Dir: true}, dirtree.Entry{Path: "top.txt", Line: 3, Depth: 1, Size: 8}, 0, 0, "a selector alone pages the root when no member has its name"},
		{"a.zip:İç/", dirtree.Entry{Path: "é.txt", Line: 1, Depth: 1, Size: 12}, dirtree.Entry{Path: "é.txt", Line: 1, Depth: 1, Size: 12}, 0, 0, "a non-ASCII directory"},
		{"dİr/b.zip", dirtree.Entry{Path: "x.txt", Line: 1, Depth: 1, Size: 6}, dirtree.Entry{Path: "x.txt", Line: 1, Depth: 1, Size: 6}, 0, 0, "a non-ASCII directory before the archive (İ lower-cases to more bytes)"},
	}
	root := testfs.WriteDir(t, files)
	configs := map[string]*Config{
		"mapfs": {FS: files},
		"dir":   {FS: os.DirFS(root), Root: root},
	}
	for _, tt := range tests {
		for fsName, c := range configs {
			res, err := Run(context.Background(), c, tt.path)
			require.NoError(t, err, "%s %s", fsName, tt.path)
			assert.Equal(t, KindArchive, res.Kind)
			var first, last dirtree.Entry
			if n := len(res.Entries); n > 0 {
				first, last = res.Entries[0], res.Entries[n-1]
				first.ModTime, last.ModTime = time.Time{}, time.Time{}
			}
			assert.Equal(t, tt.first, first, "%s %s: %s", fsName, tt.path, tt.reason)
			assert.Equal(t, tt.last, last, "%s %s: %s", fsName, tt.path, tt.reason)
			assert.Equal(t, tt.next, res.Next, "%s %s: %s", fsName, tt.path, tt.reason)
			assert.Equal(t, tt.beyond, res.BeyondEnd, "%s %s: %s", fsName, tt.path, tt.reason)
			assert.Empty(t, res.Truncated, "%s %s: a window shown as asked is not partial", fsName, tt.path)
			assert.Zero(t, res.Unlisted, "%s %s", fsName, tt.path)
		}
	}
}

func TestArchiveListingErrors(t *testing.T) {
	files := fstest.MapFS{"a.zip": {Data: testfs.Zip(testfs.SelfNamed("d/x.txt", "d/y.txt")...)}}
	tests := []struct {
		path, msg string
		reason    string
	}{
		{"a.zip:d/:1-2,5-6", "Multi-range line selectors are not supported for directory listings. Use one range, e.g. a.zip:d/:1-100.", "multi-range, as for a local directory"},
		{"a.zip:d/:conflicts", "'a.zip:d/' is a directory inside an archive: :conflicts needs a file.", ":conflicts needs a file"},
		{"a.zip:1-2,5-6", "Multi-range line selectors are not supported for directory listings. Use one range, e.g. a.zip:/:1-100.", "a selector alone applies to the root"},
		{"a.zip:0", "Line selector 0 is invalid; lines are 1-indexed. Use :1.", "an invalid selector alone gives its error, not 'not found'"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), &Config{FS: files}, tt.path)
		if errs.CodeOf(err) != errs.InvalidParam || err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s (%s): %v", tt.path, tt.reason, err)
		}
	}
}

// TestArchiveListingCap checks the 500 cap: a partial result that says
// where to continue.
func TestArchiveListingCap(t *testing.T) {
	var names []string
	for i := range 620 {
		names = append(names, fmt.Sprintf("f%03d", i))
	}
	c := &Config{FS: fstest.MapFS{"a.zip": {Data: testfs.Zip(testfs.SelfNamed(names...)...)}}}
	tests := []struct {
		path              string
		first, last, next int // the lines of the first and last entries listed, the line to continue from
		unlisted          int
		reason            string
	}{
		{"a.zip", 1, 500, 501, 120, "open-ended: the cap"},
		{"a.zip:/:2-600", 2, 501, 502, 99, "a window wider than the cap is capped"},
		{"a.zip:/:501", 501, 620, 0, 0, "the continuation reads the rest"},
	}
	for _, tt := range tests {
		res, err := Run(context.Background(), c, tt.path)
		require.NoError(t, err)
		got := []int{res.Entries[0].Line, res.Entries[len(res.Entries)-1].Line, res.Next, res.Unlisted}
		assert.Equal(t, []int{tt.first, tt.last, tt.next, tt.unlisted}, got, "%s: %s", tt.path, tt.reason)
		assert.Equal(t, tt.unlisted > 0, res.Truncated == TruncLimit, "%s: %s", tt.path, tt.reason)
	}
}

// TestArchiveMemberBudget checks that paging a member keeps the 50 KB
// budget of in-memory texts, so a continuation is as long as the first page.
func TestArchiveMemberBudget(t *testing.T) {
	var big strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&big, "line %05d %s\n", i+1, strings.Repeat("q", 60))
	}
	c := &Config{FS: fstest.MapFS{"b.zip": {Data: testfs.Zip(testfs.Member{Name: "big.txt", Body: big.String()})}}}
	for _, p := range []string{"b.zip:big.txt", "b.zip:big.txt:650", "b.zip:big.txt:100-4000"} {
		res, err := Run(context.Background(), c, p)
		if err != nil {
			t.Fatal(err)
		}
		if b := res.Blocks[0]; res.Truncated != TruncBytes || b.Truncated != TruncBytes || b.ByteLimit != 50<<10 {
			t.Errorf("%s: truncated %q, block %+v, want the 50KB byte limit", p, res.Truncated, b)
		}
	}
}
