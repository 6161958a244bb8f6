package search

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArchiveHeaderFlood: a .tgz whose second member is preceded by more
// extended headers than the archive's bound on them is counted too_large
// after its first member is searched, by the exhaustive scan and the
// paged one, never passed over in silence.
func TestArchiveHeaderFlood(t *testing.T) {
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	add := func(name, body string) {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
		tw.Flush()
	}
	add("a.txt", "hit a\n")
	tb.Write(bytes.Repeat(testfs.TarHeader(tar.TypeXHeader, bytes.Repeat([]byte("6 a=b\n"), (1<<20-512)/6)), 6)) // 6 MiB
	add("c.txt", "hit c\n")
	tw.Close()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(tb.Bytes())
	zw.Close()
	tree := fstest.MapFS{"h.tgz": {Data: gz.Bytes()}}
	for _, paged := range []bool{false, true} {
		req := Request{Paths: []string{"h.tgz"}, Grep: grep.Options{Pattern: "hit"}, MaxFileSize: -1, MaxFiles: -1, Budget: -1}
		if paged {
			req.MaxFiles = 10
		}
		out, err := Run(context.Background(), tree, "", req)
		require.NoError(t, err)
		var files []string
		for _, f := range out.Files {
			files = append(files, f.Path)
		}
		assert.Equal(t, []string{"h.tgz:a.txt"}, files, "paged %v", paged)
		assert.Equal(t, 1, out.Skipped[SkipTooLarge], "paged %v: skipped %v", paged, out.Skipped)
		assert.Empty(t, out.Errors, "paged %v", paged)
	}
}
