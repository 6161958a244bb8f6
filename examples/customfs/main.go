// Command customfs runs Scout over file systems that are not OS
// directories: an in-memory tree (testing/fstest.MapFS) and a zip file
// opened with archive/zip, whose *zip.Reader is an fs.FS. Any fs.FS works
// the same way: set Workspace.FS.
//
//	go run ./examples/customfs [FILE.zip]
//
// With no argument it builds a small zip in memory.
package main

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

func main() {
	zfs, closeZip, err := openZip(os.Args[1:])
	if err == nil {
		err = run(context.Background(), os.Stdout, []tree{{"memory", memTree()}, {"zip", zfs}})
		closeZip()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "customfs:", err)
		os.Exit(1)
	}
}

// memTree is a project held in memory.
func memTree() fs.FS {
	t := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return fstest.MapFS{
		"go.mod":          {Data: []byte("module example.com/mem\n"), ModTime: t},
		"main.go":         {Data: []byte("package main\n\n// TODO: flags\nfunc main() {}\n"), ModTime: t.Add(2 * time.Hour)},
		"store/store.go":  {Data: []byte("package store\n\n// TODO: persist\ntype Store struct{}\n"), ModTime: t.Add(time.Hour)},
		"docs/design.md":  {Data: []byte("# Design\n\nStores keep data in memory.\n"), ModTime: t},
		".hidden/skip.go": {Data: []byte("package hidden // TODO: never listed\n"), ModTime: t},
	}
}

// openZip opens the zip file named in args, or builds one in memory, and
// returns it with the function that closes it. A zip file is read in
// place: *zip.Reader reads members through the file's io.ReaderAt.
func openZip(args []string) (fs.FS, func() error, error) {
	if len(args) > 0 {
		zr, err := zip.OpenReader(args[0])
		if err != nil {
			return nil, nil, err
		}
		return zr, zr.Close, nil
	}
	var b bytes.Buffer
	if err := writeZip(&b); err != nil {
		return nil, nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	return zr, func() error { return nil }, err
}

// tree is a named file system.
type tree struct {
	name string
	fsys fs.FS
}

// writeZip writes a small Python project as a zip file.
func writeZip(w io.Writer) error {
	zw := zip.NewWriter(w)
	for _, f := range []struct{ name, body string }{
		{"src/app.py", "def main():\n    # TODO: parse args\n    print('hi')\n"},
		{"src/util.py", "def helper():\n    return 42\n"},
		{"README.md", "# Zipped project\n"},
	} {
		fw, err := zw.Create(f.name)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(fw, f.body); err != nil {
			return err
		}
	}
	return zw.Close()
}

// run lists, searches and reads each file system with the same code.
func run(ctx context.Context, w io.Writer, trees []tree) error {
	for _, t := range trees {
		ws := scout.Workspace{FS: t.fsys}
		fmt.Fprintf(w, "#### %s\n", t.name)

		finder := scout.Finder{Workspace: ws}
		found, err := finder.Find(ctx, scout.FindRequest{Kind: scout.FilesOnly})
		if err != nil {
			return err
		}
		listing, _ := format.FindText(found, nil)
		fmt.Fprintf(w, "== find (every file)\n%s\n", listing)
		if n := found.Skipped[scout.SkipHidden]; n > 0 {
			fmt.Fprintf(w, "(%d hidden entries left out)\n", n)
		}

		searcher := scout.Searcher{Workspace: ws}
		res, err := searcher.Search(ctx, scout.SearchRequest{Pattern: `TODO:?\s*(\w+)`})
		if err != nil {
			return err
		}
		text, _ := format.SearchText(res, &format.SearchOptions{Plain: true})
		fmt.Fprintf(w, "== search TODO\n%s\n", text)

		if len(found.Entries) > 0 {
			path := found.Entries[0].Path
			reader := scout.Reader{Workspace: ws}
			rr, err := reader.Read(ctx, scout.ReadRequest{Path: path + ":raw"})
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "== read %s:raw\n%s\n", path, format.ReadText(rr, nil))
		}
	}
	return nil
}
