package walk

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/testfs"
)

// BenchmarkWalkGOROOT walks $GOROOT/src (about 12,800 entries) reporting
// the .go files, as `rg --files -g '*.go'` does; "newest" also lstats each
// of them, as a find sorted by mtime must.
func BenchmarkWalkGOROOT(b *testing.B) {
	dir := testfs.GoSrc(b)
	fsys, closeFn, err := fsx.OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer closeFn()
	for _, stat := range []bool{false, true} {
		name := "files"
		if stat {
			name = "newest"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var n atomic.Int64
				_, err := Walk(context.Background(), fsys, ".", Options{}, func(e Entry) error {
					if strings.HasSuffix(e.Path, ".go") {
						if stat {
							if _, err := e.Info(); err != nil {
								return err
							}
						}
						n.Add(1)
					}
					return nil
				})
				if err != nil || n.Load() == 0 {
					b.Fatal(err, n.Load())
				}
			}
		})
	}
}
