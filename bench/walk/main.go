// Command walkbench times Scout's walker on a directory for comparison with
// ripgrep and GNU find (see run.sh). It is a development tool, not part of
// the library.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/walk"
)

func main() {
	ext := flag.String("ext", "", "report only files with this suffix (e.g. .go)")
	newest := flag.Int("newest", 0, "print the N newest matching files (lstat each match)")
	hidden := flag.Bool("hidden", false, "include hidden entries")
	noIgnore := flag.Bool("no-ignore", false, "do not read ignore files")
	workers := flag.Int("j", 0, "workers (0 = default)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: walkbench [flags] DIR")
		os.Exit(2)
	}
	fsys, closeFn, err := fsx.OpenDir(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer closeFn()
	type hit struct {
		path  string
		mtime int64
	}
	var mu sync.Mutex
	var hits []hit
	opts := walk.Options{Hidden: *hidden, NoIgnore: *noIgnore, Workers: *workers, GlobalExcludes: walk.LoadGlobalExcludes()}
	st, err := walk.Walk(context.Background(), fsys, ".", opts, func(e walk.Entry) error {
		if e.Type.IsDir() || !strings.HasSuffix(e.Path, *ext) {
			return nil
		}
		h := hit{path: e.Path}
		if *newest > 0 {
			fi, err := e.Info()
			if err != nil {
				return nil
			}
			h.mtime = fi.ModTime().UnixNano()
		}
		mu.Lock()
		hits = append(hits, h)
		mu.Unlock()
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *newest > 0 {
		slices.SortFunc(hits, func(a, b hit) int {
			if a.mtime != b.mtime {
				if a.mtime > b.mtime {
					return -1
				}
				return 1
			}
			return strings.Compare(a.path, b.path)
		})
		hits = hits[:min(*newest, len(hits))]
	}
	w := make([]byte, 0, 1<<16)
	for _, h := range hits {
		w = append(w, h.path...)
		w = append(w, '\n')
	}
	os.Stdout.Write(w)
	fmt.Fprintf(os.Stderr, "visited %d, skipped %v, errors %d\n", st.Visited, st.Skipped, len(st.Errors))
}
