package search

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
)

// BenchmarkGoroot searches $GOROOT/src as the comparison script's cases do:
// a literal listing files (exhaustive: walk and search overlap) and the
// first pi page of a common word (ordered scan with early stop).
func BenchmarkGoroot(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(root); err != nil {
		b.Skip("no GOROOT/src")
	}
	fsys, release, err := fsx.OpenDir(root)
	if err != nil {
		b.Fatal(err)
	}
	defer release()
	cases := []struct {
		name string
		req  Request
	}{
		{"lit-files", Request{Grep: grep.Options{Pattern: "ErrUnexpectedEOF", FirstOnly: true}, MaxFileSize: 10 << 20, MaxFiles: -1, Budget: -1}},
		{"casei-count", Request{Grep: grep.Options{Pattern: "errunexpectedeof", IgnoreCase: true, CountOnly: true}, MaxFileSize: 10 << 20, MaxFiles: -1, Budget: -1}},
		{"first-page", Request{Grep: grep.Options{Pattern: "return", Before: 1, After: 3, MaxColumns: 512}, PerFile: 20, PerFileOne: 200, MaxFileSize: 10 << 20, MaxFiles: 20, Budget: 2000}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(context.Background(), fsys, root, c.req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
