// Command walkbench times Scout's walker on a directory for comparison with
// ripgrep and GNU find (see run.sh). It is a development tool, not part of
// the library.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
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
	sorted := flag.Bool("sorted", false, "ordered walk (Options.Sorted)")
	grep := flag.String("grep", "", "search the files for this literal and print path:line:text (as rg -n)")
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
	bufs := sync.Pool{New: func() any { return new(searchBuf) }}
	var out []byte
	opts := walk.Options{Hidden: *hidden, NoIgnore: *noIgnore, Workers: *workers, Sorted: *sorted}
	st, err := walk.Walk(context.Background(), fsys, ".", opts, func(e walk.Entry) error {
		if e.Type.IsDir() || !strings.HasSuffix(e.Path, *ext) {
			return nil
		}
		if *grep != "" {
			if e.Type.IsRegular() {
				b := bufs.Get().(*searchBuf)
				if b.search(fsys, e.Path, []byte(*grep)) {
					mu.Lock()
					out = append(out, b.out...)
					mu.Unlock()
				}
				bufs.Put(b)
			}
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
	if *grep != "" {
		os.Stdout.Write(out)
		fmt.Fprintf(os.Stderr, "visited %d, skipped %v, errors %d\n", st.Visited, st.Skipped, len(st.Errors))
		return
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

// searchBuf is one goroutine's file buffer and output.
type searchBuf struct {
	data, out []byte
}

// search reads the file and appends its matching lines to b.out; it
// reports whether there were any. Files with a NUL in the first 64 KiB
// are binary and skipped, as rg does.
func (b *searchBuf) search(fsys fs.FS, name string, lit []byte) bool {
	b.out = b.out[:0]
	data, err := fsx.ReadFileBuf(fsys, name, b.data, 0)
	b.data = data
	if err != nil || bytes.IndexByte(data[:min(len(data), 64<<10)], 0) >= 0 {
		return false
	}
	line, counted := 1, 0
	for off := 0; ; {
		i := bytes.Index(data[off:], lit)
		if i < 0 {
			break
		}
		i += off
		start := bytes.LastIndexByte(data[:i], '\n') + 1
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += i
		}
		line += bytes.Count(data[counted:start], []byte{'\n'})
		counted = start
		b.out = append(b.out, name...)
		b.out = append(b.out, ':')
		b.out = strconv.AppendInt(b.out, int64(line), 10)
		b.out = append(b.out, ':')
		b.out = append(b.out, data[start:end]...)
		b.out = append(b.out, '\n')
		off = end
		if off >= len(data) {
			break
		}
	}
	return len(b.out) > 0
}
