package search

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/archive"
	"github.com/scoutkit/scout/internal/grep"
)

// TestArchiveCaps: an archive member over the archive's member cap, and an
// archive whose pass goes over its scan cap, are counted too_large, as a
// file over the size cap is, not unreadable (they were found attacking
// Scout with bombs, at the default caps of 4 and 8 GiB; the test lowers
// the caps). Both search paths count alike: the exhaustive scan and the
// paged one.
func TestArchiveCaps(t *testing.T) {
	big := strings.Repeat("x", 2<<20) + "\nhit\n"
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	for _, m := range [][2]string{{"a.txt", "hit a\n"}, {"big.txt", big}, {"c.txt", "hit c\n"}} {
		tw.WriteHeader(&tar.Header{Name: m[0], Mode: 0o644, Size: int64(len(m[1])), Typeflag: tar.TypeReg})
		tw.Write([]byte(m[1]))
	}
	tw.Close()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(tb.Bytes())
	zw.Close()
	var zb bytes.Buffer
	z := zip.NewWriter(&zb)
	for _, m := range [][2]string{{"a.txt", "hit a\n"}, {"big.txt", big}, {"c.txt", "hit c\n"}} {
		w, _ := z.Create(m[0])
		w.Write([]byte(m[1]))
	}
	z.Close()
	tree := fstest.MapFS{"b.tgz": {Data: gz.Bytes()}, "b.zip": {Data: zb.Bytes()}}
	for _, tt := range []struct {
		path            string
		lim             archive.Limits
		matches, counts int
		reason          string
	}{
		{"b.tgz", archive.Limits{MaxMemberBytes: 1 << 20}, 2, 1, "a .tgz member over the member cap"},
		{"b.zip", archive.Limits{MaxMemberBytes: 1 << 20}, 2, 1, "a zip member over the member cap"},
		// The member being read when the cap is reached, then the rest of
		// the archive, which is not searched.
		{"b.tgz", archive.Limits{MaxScanBytes: 1 << 20}, 1, 2, "a .tgz over the scan cap after its first member"},
		{"b.zip", archive.Limits{MaxScanBytes: 1 << 20}, 1, 2, "a zip over the scan cap after its first member"},
	} {
		for _, paged := range []bool{false, true} {
			req := Request{Paths: []string{tt.path}, Grep: grep.Options{Pattern: "hit"}, MaxFileSize: -1, MaxFiles: -1, Budget: -1, Archive: tt.lim}
			if paged {
				req.MaxFiles = 10
			}
			out, err := Run(context.Background(), tree, "", req)
			if err != nil {
				t.Fatalf("%s: %v", tt.reason, err)
			}
			if len(out.Files) != tt.matches || out.Skipped[SkipTooLarge] != tt.counts || out.Skipped[SkipError] != 0 || len(out.Errors) != 0 {
				t.Errorf("%s (paged %v): %d matching members, skipped %v, errors %v; want %d, %d too_large", tt.reason, paged, len(out.Files), out.Skipped, out.Errors, tt.matches, tt.counts)
			}
		}
	}
}
