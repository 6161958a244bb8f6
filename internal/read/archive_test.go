package read

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

// zipOf builds a zip of the given members ("d/" is a directory).
func zipOf(t *testing.T, names ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, n := range names {
		f, err := w.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(n, "/") {
			fmt.Fprintf(f, "%s\n", n)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestArchiveListingRanges checks that a line selector bounds a listing
// inside an archive as it bounds a local directory listing.
func TestArchiveListingRanges(t *testing.T) {
	var names []string
	for i := range 30 {
		names = append(names, fmt.Sprintf("d/f%02d.txt", i))
	}
	names = append(names, "d/", "top.txt", "İç/é.txt")
	files := fstest.MapFS{"a.zip": {Data: zipOf(t, names...)}, "dİr/b.zip": {Data: zipOf(t, "x.txt")}}
	tests := []struct {
		path    string
		first   string // the first line of the body
		last    string // its last line
		lines   int
		omitted int
		reason  string
	}{
		{"a.zip:d/:10-14", "f09.txt (10B)", "[16 more lines in listing. Use a.zip:d/:15 to continue]", 7, 0, "a range end bounds the listing exactly"},
		{"a.zip:d/:10+2", "f09.txt (10B)", "[19 more lines in listing. Use a.zip:d/:12 to continue]", 4, 0, "A+C is a range too"},
		{"a.zip:d/:28", "f27.txt (10B)", "f29.txt (10B)", 3, 0, "an open range shows the rest; reaching the end needs no notice"},
		{"a.zip:d/:29-40", "f28.txt (10B)", "f29.txt (10B)", 2, 0, "an end past the last child is clamped"},
		{"a.zip:d/:31", "Line 31 is beyond end of listing (30 lines total). Use a.zip:d/:1 to read from the start, or a.zip:d/:30 to read the last line.", "", 1, 0, "past the end, with the local text and the archive path"},
		{"a.zip:/:1-1", "d/", "[2 more lines in listing. Use a.zip:/:2 to continue]", 3, 0, "the root, named a.zip:/ in the hint"},
		{"a.zip", "d/", "top.txt (8B)", 3, 0, "no selector lists everything under the cap"},
		{"a.zip:2", "İç/", "top.txt (8B)", 2, 0, "a selector alone pages the root when no member has its name"},
		{"a.zip:1-1", "d/", "[2 more lines in listing. Use a.zip:/:2 to continue]", 3, 0, "a range alone, too"},
		{"a.zip:İç/", "é.txt (12B)", "é.txt (12B)", 1, 0, "a non-ASCII directory"},
		{"dİr/b.zip", "x.txt (6B)", "x.txt (6B)", 1, 0, "a non-ASCII directory before the archive (İ lower-cases to more bytes)"},
	}
	root := testfs.WriteDir(t, files)
	configs := map[string]*Config{
		"mapfs": {FS: files},
		"dir":   {FS: os.DirFS(root), Root: root},
	}
	for _, tt := range tests {
		for fsName, c := range configs {
			res, err := Run(context.Background(), c, tt.path)
			if err != nil {
				t.Fatalf("%s %s (%s): %v", fsName, tt.path, tt.reason, err)
			}
			lines := strings.Split(res.Body, "\n")
			if res.Kind != KindArchive || lines[0] != tt.first || lines[len(lines)-1] != tt.last && tt.last != "" || len(lines) != tt.lines || res.Unlisted != tt.omitted {
				t.Errorf("%s %s (%s): kind %s unlisted %d body\n%s", fsName, tt.path, tt.reason, res.Kind, res.Unlisted, res.Body)
			}
			if res.Truncated != "" {
				t.Errorf("%s %s (%s): a window shown as asked is not partial", fsName, tt.path, tt.reason)
			}
		}
	}
}

func TestArchiveListingErrors(t *testing.T) {
	files := fstest.MapFS{"a.zip": {Data: zipOf(t, "d/x.txt", "d/y.txt")}}
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

// TestArchiveListingCap checks the 500 cap: a partial result whose notice
// continues where it stopped.
func TestArchiveListingCap(t *testing.T) {
	var names []string
	for i := range 620 {
		names = append(names, fmt.Sprintf("f%03d", i))
	}
	c := &Config{FS: fstest.MapFS{"a.zip": {Data: zipOf(t, names...)}}}
	tests := []struct {
		path, last string
		omitted    int
		reason     string
	}{
		{"a.zip", "[Showing lines 1-500 of 620. Use a.zip:/:501 to continue]", 120, "open-ended: the cap"},
		{"a.zip:/:2-600", "[Showing lines 2-501 of 620. Use a.zip:/:502 to continue]", 99, "a window wider than the cap is capped"},
		{"a.zip:/:501", "f619 (5B)", 0, "the continuation reads the rest"},
	}
	for _, tt := range tests {
		res, err := Run(context.Background(), c, tt.path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(res.Body, "\n")
		if lines[len(lines)-1] != tt.last || res.Unlisted != tt.omitted || (res.Truncated == TruncLimit) != (tt.omitted > 0) {
			t.Errorf("%s (%s): unlisted %d, last line %q", tt.path, tt.reason, res.Unlisted, lines[len(lines)-1])
		}
	}
}

// TestArchiveMemberBudget checks that paging a member keeps the 50 KB
// budget of in-memory texts, so a continuation is as long as the first page.
func TestArchiveMemberBudget(t *testing.T) {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	f, err := w.Create("big.txt")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5000 {
		fmt.Fprintf(f, "line %05d %s\n", i+1, strings.Repeat("q", 60))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	c := &Config{FS: fstest.MapFS{"b.zip": {Data: b.Bytes()}}}
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
