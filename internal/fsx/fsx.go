// Package fsx holds the file-system helpers shared by the tools: opening an
// OS directory traversal-safe, symlink-aware stat, and random access to
// files with a fallback for file systems that do not offer it.
package fsx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// OpenDir opens dir with os.OpenRoot and returns its FS and a function that
// closes the root.
func OpenDir(dir string) (fs.FS, func(), error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	return r.FS(), func() { r.Close() }, nil
}

// Lstat returns the FileInfo of name without following a final symlink when
// fsys implements fs.ReadLinkFS, and fs.Stat otherwise.
func Lstat(fsys fs.FS, name string) (fs.FileInfo, error) {
	if _, ok := fsys.(fs.ReadLinkFS); ok {
		return fs.Lstat(fsys, name)
	}
	return fs.Stat(fsys, name)
}

// ReaderAt is a random-access view of a file.
type ReaderAt interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

// ErrTooLarge reports a file over the cap given to OpenReaderAt.
var ErrTooLarge = errors.New("file too large")

// OpenReaderAt opens name for random access. When the opened file implements
// io.ReaderAt it is used in place; otherwise the file is read into memory,
// refusing files larger than maxInMemory bytes (<= 0 means no cap).
// It refuses anything that is not a regular file (FIFOs, devices, dirs)
// without reading from it.
func OpenReaderAt(fsys fs.FS, name string, maxInMemory int64) (ReaderAt, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("not a regular file (%s)", st.Mode().Type())}
	}
	if ra, ok := f.(io.ReaderAt); ok {
		return &fileReaderAt{ReaderAt: ra, Closer: f, size: st.Size()}, nil
	}
	defer f.Close()
	if maxInMemory > 0 && st.Size() > maxInMemory {
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrTooLarge}
	}
	var buf bytes.Buffer
	r := io.Reader(f)
	if maxInMemory > 0 {
		r = io.LimitReader(f, maxInMemory+1)
	}
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	if maxInMemory > 0 && int64(buf.Len()) > maxInMemory {
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrTooLarge}
	}
	b := buf.Bytes()
	return &fileReaderAt{ReaderAt: bytes.NewReader(b), Closer: nopCloser{}, size: int64(len(b))}, nil
}

type fileReaderAt struct {
	io.ReaderAt
	io.Closer
	size int64
}

func (f *fileReaderAt) Size() int64 { return f.size }

type nopCloser struct{}

func (nopCloser) Close() error { return nil }
