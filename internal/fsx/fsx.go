// Package fsx holds the file-system helpers shared by the tools: opening an
// OS directory traversal-safe (OpenDir), listing directories by descriptor
// (DirOpener), symlink-aware stat, reading files into reused buffers
// (ReadFileBuf), and random access to files with a fallback for file
// systems that do not offer it (OpenReaderAt).
package fsx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// OpenDir opens the OS directory dir as a traversal-safe FS and returns it
// with a function that releases it. Paths with "..", absolute paths and
// symlinks that lead outside dir fail with an error wrapping
// fs.ErrPermission (see ErrOutsideRoot).
//
// On Linux 5.6 and newer the FS resolves every path with one openat2 call
// (RESOLVE_BENEATH) and implements DirOpener; elsewhere, or when openat2
// is unavailable, it is the FS of os.OpenRoot. Either way it implements
// fs.StatFS, fs.ReadDirFS, fs.ReadFileFS and fs.ReadLinkFS, its Open
// returns *os.File values (so files give io.ReaderAt), and it implements
// OSDir. With openat2, Open does not block on a FIFO. A caveat: the
// entries that ReadDir on a directory opened with Open returns stat lazily
// through the OS path of the directory; the FS's own ReadDir and
// DirOpener stay beneath the root even if the tree changes meanwhile.
func OpenDir(dir string) (fs.FS, func(), error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	if fsys, closeFn, ok := openBeneath(abs); ok {
		return fsys, closeFn, nil
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, nil, err
	}
	return &rootFS{FS: r.FS(), dir: abs}, func() { r.Close() }, nil
}

// ErrOutsideRoot is the cause of the error for a path that resolves outside
// the root of an FS from OpenDir. It matches fs.ErrPermission with errors.Is.
var ErrOutsideRoot error = &outsideRoot{}

// outsideRoot is ErrOutsideRoot's type: a value made at link time, where
// fmt.Errorf would format it when the program starts.
type outsideRoot struct{}

func (*outsideRoot) Error() string { return "path escapes from the root: permission denied" }

func (*outsideRoot) Unwrap() error { return fs.ErrPermission }

// OSDir is implemented by the FS values of OpenDir: it returns the absolute
// OS directory the FS stands for.
type OSDir interface {
	OSDir() string
}

// DirOpener is implemented by FS values that can list a directory through
// an open descriptor, which is faster than fs.ReadDir: no sorting, the entry
// type comes from the directory itself, and lstat needs no path lookup.
type DirOpener interface {
	// OpenDirFD opens the directory name (a valid fs path) without
	// following a final symlink.
	OpenDirFD(name string) (DirFD, error)
}

// DirFD is an open directory of a DirOpener. Its methods are safe for
// concurrent use.
type DirFD interface {
	// ReadEntries calls fn for each entry of the directory except "." and
	// "..", in the order the OS returns them, with the entry's base name
	// and type bits (0 for a regular file, fs.ModeDir, fs.ModeSymlink, ...).
	// When the directory does not give the type, it is found with lstat;
	// an entry removed meanwhile is left out.
	ReadEntries(fn func(name string, typ fs.FileMode)) error
	// ReadNames is ReadEntries giving each name as bytes, valid only
	// during the call to fn: for a caller that copies the names anyway
	// (a walk building paths), the names are not allocated twice.
	ReadNames(fn func(name []byte, typ fs.FileMode)) error
	// Lstat returns the FileInfo of the entry name of the directory
	// without following a symlink. After Close it fails with fs.ErrClosed.
	Lstat(name string) (fs.FileInfo, error)
	// OpenRegular opens the entry name of the directory as OpenRegularIn
	// does, without following a symlink and without a path lookup from
	// the root. After Close it fails with fs.ErrClosed.
	OpenRegular(name string, slot *Slot) (Regular, error)
	// Close releases the descriptor.
	Close() error
}

// Stat is the part of an entry's lstat information that a walk reads, as
// a value.
type Stat struct {
	Size    int64
	ModTime time.Time
	Mode    fs.FileMode
}

// EntryStater is implemented by the DirFD values that stat an entry
// without allocating (those of OpenDir on Linux): a find that reads the
// time of thousands of entries then takes no fresh memory for them.
type EntryStater interface {
	// StatEntry returns what DirFD.Lstat of the entry name would. After
	// Close it fails with fs.ErrClosed.
	StatEntry(name string) (Stat, error)
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
	f, st, err := openChecked(fsys, name)
	if err != nil {
		return nil, err
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

// rootFS is the FS of os.OpenRoot, with its OS directory. Its errors for
// paths that escape the root wrap ErrOutsideRoot, like those of the Linux FS.
type rootFS struct {
	fs.FS
	dir string
}

func (r *rootFS) OSDir() string { return r.dir }

func (r *rootFS) Open(name string) (fs.File, error) {
	f, err := r.FS.Open(name)
	return f, outside(err)
}

func (r *rootFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := fs.Stat(r.FS, name)
	return fi, belowFile(outside(err))
}

func (r *rootFS) ReadFile(name string) ([]byte, error) {
	b, err := fs.ReadFile(r.FS, name)
	return b, outside(err)
}

func (r *rootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	list, err := fs.ReadDir(r.FS, name)
	return list, outside(err)
}

func (r *rootFS) ReadLink(name string) (string, error) {
	s, err := fs.ReadLink(r.FS, name)
	return s, outside(err)
}

func (r *rootFS) Lstat(name string) (fs.FileInfo, error) {
	fi, err := fs.Lstat(r.FS, name)
	return fi, belowFile(outside(err))
}

// belowFile turns the "not a directory" of a stat whose path goes on below
// a file into fs.ErrNotExist: that path does not exist (as in an
// fstest.MapFS).
func belowFile(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && errors.Is(pe.Err, syscall.ENOTDIR) {
		return &fs.PathError{Op: pe.Op, Path: pe.Path, Err: fs.ErrNotExist}
	}
	return err
}

// outside replaces the unexported "path escapes from parent" error of
// os.Root (recognisable only by its text) with ErrOutsideRoot.
func outside(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err.Error() == "path escapes from parent" {
		return &fs.PathError{Op: pe.Op, Path: pe.Path, Err: ErrOutsideRoot}
	}
	return err
}

// Regular is an open regular file of known size, read sequentially.
type Regular interface {
	io.ReadCloser
	// Size is the file's size when it was opened.
	Size() int64
}

// FileID identifies a file of the OS (its device and inode numbers), so
// that a file opened again by name can be told from another one put in
// its place meanwhile. The zero FileID means unknown.
type FileID struct{ dev, ino uint64 }

// ID returns the identity of f, a file opened by OpenRegular, or the zero
// FileID where its FS does not tell it (an fstest.MapFS).
func ID(f Regular) FileID {
	if i, ok := f.(interface{ id() FileID }); ok {
		return i.id()
	}
	return FileID{}
}

// OpenRegular opens the regular file name of fsys for reading. It refuses,
// without reading or blocking, anything that is not a regular file (FIFOs,
// devices, directories). On the OS FS of OpenDir the file is read with raw
// system calls and no *os.File, which matters when searching thousands of
// small files.
func OpenRegular(fsys fs.FS, name string) (Regular, error) {
	return OpenRegularIn(fsys, name, nil)
}

// Slot is the storage of one open file, for a caller that opens many
// files one after another (a search's worker) to reuse: OpenRegularIn
// opens a file of the OS FS of OpenDir into it instead of allocating one
// (each allocation of a large search is fresh memory, a page fault per
// 4 KiB). The file opened into a slot must be closed, and no longer used,
// before the slot is used again. The zero Slot is ready for use.
type Slot struct{ f rawFile }

// OpenRegularIn is OpenRegular opening into slot where fsys is the OS FS of
// OpenDir; a nil slot, or another FS, allocates the file.
func OpenRegularIn(fsys fs.FS, name string, slot *Slot) (Regular, error) {
	if o, ok := fsys.(interface {
		openRegular(string, *Slot) (Regular, error)
	}); ok {
		return o.openRegular(name, slot)
	}
	f, st, err := openChecked(fsys, name)
	if err != nil {
		return nil, err
	}
	return &sizedFile{File: f, size: st.Size(), fid: statID(st)}, nil
}

type sizedFile struct {
	fs.File
	size int64
	fid  FileID
}

func (f *sizedFile) Size() int64 { return f.size }
func (f *sizedFile) id() FileID  { return f.fid }

// ReadAt is the file's own (io.ReaderAt); a file of an FS without one
// fails with an error wrapping errors.ErrUnsupported.
func (f *sizedFile) ReadAt(p []byte, off int64) (int, error) {
	if ra, ok := f.File.(io.ReaderAt); ok {
		return ra.ReadAt(p, off)
	}
	return 0, errors.ErrUnsupported
}

// ReadFileBuf reads the regular file name of fsys into buf, reusing its
// storage (growing it when the file is larger), and returns the contents.
// It refuses, without reading, anything that is not a regular file and
// files larger than max bytes (max <= 0 means no cap; the error wraps
// ErrTooLarge). A file that grows while it is read is read up to the size
// it had when opened.
func ReadFileBuf(fsys fs.FS, name string, buf []byte, max int64) ([]byte, error) {
	f, err := OpenRegular(fsys, name)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	size := f.Size()
	if max > 0 && size > max {
		return buf[:0], &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge}
	}
	buf = buf[:0]
	if need := int(size) + 1; cap(buf) < need {
		buf = make([]byte, 0, need)
	}
	for empty := 0; ; {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if n == 0 && err == nil {
			if empty++; empty == 100 {
				return buf[:0], &fs.PathError{Op: "read", Path: name, Err: io.ErrNoProgress}
			}
		}
		// Stop at the size from the open: saves the read that returns 0.
		if err == io.EOF || (size > 0 && int64(len(buf)) == size) {
			return buf, nil
		}
		if err != nil {
			return buf[:0], err
		}
		if max > 0 && int64(len(buf)) > max {
			return buf[:0], &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge}
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// openChecked opens the regular file name of fsys and returns it with its
// FileInfo; it refuses anything else without reading from it.
func openChecked(fsys fs.FS, name string) (fs.File, fs.FileInfo, error) {
	// Stat before opening: opening a FIFO without O_NONBLOCK blocks.
	if st, err := fs.Stat(fsys, name); err != nil {
		return nil, nil, err
	} else if !st.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: errNotRegular(st.Mode())}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: name, Err: errNotRegular(st.Mode())}
	}
	return f, st, nil
}

// ErrNotRegular is the cause of the error for opening, as a regular file,
// something that is not one (a FIFO, device, socket or directory).
var ErrNotRegular = errors.New("not a regular file")

// errNotRegular describes a file that is not a regular one.
func errNotRegular(mode fs.FileMode) error {
	return fmt.Errorf("%w (%s)", ErrNotRegular, mode.Type())
}
