package search

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/walk"
)

// BenchmarkGoroot searches $GOROOT/src for a literal, as the amplifier
// files_with_matches case of the comparison script does.
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
	for _, mode := range []struct {
		name string
		g    grep.Options
	}{
		{"lit-files", grep.Options{Pattern: "ErrUnexpectedEOF", FirstOnly: true}},
		{"walk-only", grep.Options{Pattern: "ErrUnexpectedEOF", FirstOnly: true}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			for b.Loop() {
				if mode.name == "walk-only" {
					var sc Scope
					sc.Targets = []Target{{Path: ".", Dir: true}}
					if _, err := collect(context.Background(), fsys, &sc, walk.Options{}, Filter{}, map[string]int{}); err != nil {
						b.Fatal(err)
					}
					continue
				}
				_, err := Run(context.Background(), fsys, root, Request{Grep: mode.g, MaxFileSize: 10 << 20, MaxFiles: -1, Budget: -1})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
