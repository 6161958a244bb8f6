package search

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
)

// BenchmarkTagPieces times a worker's search of one 2 MiB file read in
// 128 KiB pieces, with its hashline tag (tags) and without: its first match
// in its first line (early), just past its first piece (late-130K) or in
// its middle (late-1M), a match every 500 lines after it; or none; and
// the early file's first MiB in UTF-16 (2 MiB, decoded as it is searched).
func BenchmarkTagPieces(b *testing.B) {
	const size = 2 << 20
	body := bytes.Repeat([]byte("\tif err := f(x); err != nil {\n\t\tthing = err  \n\t}\n"), size/48+1)[:size]
	hit := []byte("\t\treturn err\n")
	dir := b.TempDir()
	cases := []struct {
		name string
		at   int // the first match; < 0: none
	}{{"early", 0}, {"late-130K", 130 << 10}, {"late-1M", 1 << 20}, {"none", -1}}
	for _, c := range cases {
		data := bytes.Clone(body)
		if c.at >= 0 {
			for at := c.at; at+len(hit) < size; at += 500 * 16 {
				at += bytes.IndexByte(data[at:], '\n') + 1
				copy(data[at:], hit)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, c.name), data, 0o644); err != nil {
			b.Fatal(err)
		}
		if c.name == "early" {
			u := []byte{0xFF, 0xFE}
			for _, c := range data[:size/2-1] {
				u = append(u, c, 0)
			}
			if err := os.WriteFile(filepath.Join(dir, "utf-16"), u, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	cases = append(cases, struct {
		name string
		at   int
	}{"utf-16", 0})
	fsys, release, err := fsx.OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer release()
	m, err := grep.Compile(grep.Options{Pattern: "return"})
	if err != nil {
		b.Fatal(err)
	}
	sc := m.NewScanner()
	for _, c := range cases {
		for _, tags := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/tags=%v", c.name, tags), func(b *testing.B) {
				b.SetBytes(size)
				for b.Loop() {
					o := searchOne(context.Background(), fsys, sc, nil, &file{path: c.name}, perFile{maxSize: -1, tags: tags})
					if o.res == nil || (o.res.MatchLines > 0) != (c.at >= 0) || (o.tag != "") != (tags && c.at >= 0) {
						b.Fatalf("%s: %+v", c.name, o)
					}
				}
			})
		}
	}
}
