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
// of them with Entry.Stat, as a find sorted by mtime does, and "info" with
// Entry.Info.
func BenchmarkWalkGOROOT(b *testing.B) {
	dir := testfs.GoSrc(b)
	fsys, closeFn, err := fsx.OpenDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer closeFn()
	for _, name := range []string{"files", "newest", "info"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var n atomic.Int64
				_, err := Walk(context.Background(), fsys, ".", Options{}, func(e Entry) error {
					if strings.HasSuffix(e.Path, ".go") {
						var err error
						switch name {
						case "newest":
							_, err = e.Stat()
						case "info":
							_, err = e.Info()
						}
						if err != nil {
							return err
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
