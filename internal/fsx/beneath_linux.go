package fsx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/sys/unix"
)

// beneathFS is the Linux FS of OpenDir: every path is resolved by one
// openat2 call relative to the root descriptor with RESOLVE_BENEATH, so
// the kernel refuses "..", absolute symlinks and symlinks leading out.
type beneathFS struct {
	root   int    // O_PATH descriptor of the root directory
	dir    string // absolute OS path of the root
	mounts mounts // which directories lie on local file systems
}

// openBeneath opens dir and checks that openat2 works here (it is missing
// before Linux 5.6 and some sandboxes refuse it); ok is false otherwise.
func openBeneath(dir string) (fs.FS, func(), bool) {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, false
	}
	f := &beneathFS{root: fd, dir: dir}
	probe, err := f.openat2(sysCalls{}, ".", unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		unix.Close(fd)
		return nil, nil, false
	}
	unix.Close(probe)
	if real, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd)); err == nil {
		if info, err := readProc("/proc/self/mountinfo"); err == nil {
			f.mounts = readMounts(real, string(info))
		}
	}
	return f, func() { unix.Close(fd) }, true
}

// readProc returns the contents of the proc file name, read with plain
// system calls: os.ReadFile would stat it, register it with the runtime's
// poller, set a finalizer (the process's first) and read it in pieces
// from 512 bytes on, about 2 ms of CPU on the way to every command's
// first walk.
func readProc(name string) ([]byte, error) {
	fd, err := unix.Open(name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	b := make([]byte, 0, 8<<10)
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, cap(b))
		}
		n, err := unix.Read(fd, b[len(b):cap(b)])
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return nil, err
		case n == 0:
			return b, nil
		}
		b = b[:len(b)+n]
	}
}

const resolveFlags = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS

// openat2 opens name beneath the root with sys, retrying on EINTR and on
// the EAGAIN that a concurrent rename can cause.
func (f *beneathFS) openat2(sys sysCalls, name string, flags int, resolve uint64) (int, error) {
	how := unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC), Resolve: resolveFlags | resolve}
	for range 8 {
		fd, err := sys.openat2(f.root, name, &how)
		if err != unix.EINTR && err != unix.EAGAIN {
			return fd, err
		}
	}
	return -1, unix.EAGAIN
}

// pathErr converts an errno from a lookup into a *fs.PathError.
func pathErr(op, name string, err error) error {
	if err == unix.EXDEV {
		err = ErrOutsideRoot
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// open validates name and opens it beneath the root.
func (f *beneathFS) open(op, name string, flags int) (int, error) {
	fd, _, err := f.openSys(op, name, flags)
	return fd, err
}

// openSys is open, also returning how to make the system calls on what it
// opened: directly (see sysCalls) where name lies on a local file system.
func (f *beneathFS) openSys(op, name string, flags int) (int, sysCalls, error) {
	if !validPath(name) {
		return -1, sysCalls{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	sys := f.mounts.sysFor(name)
	fd, err := f.openat2(sys, name, flags, 0)
	if err != nil {
		return -1, sys, pathErr(op, name, err)
	}
	return fd, sys, nil
}

func (f *beneathFS) OSDir() string { return f.dir }

// Open opens name for reading. FIFOs are opened without blocking.
func (f *beneathFS) Open(name string) (fs.File, error) {
	fd, err := f.open("open", name, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path.Join(f.dir, name)), nil
}

// Stat returns the FileInfo of name, following a final symlink.
func (f *beneathFS) Stat(name string) (fs.FileInfo, error) { return f.stat("stat", name, 0) }

// Lstat returns the FileInfo of name without following a final symlink.
func (f *beneathFS) Lstat(name string) (fs.FileInfo, error) {
	return f.stat("lstat", name, unix.O_NOFOLLOW)
}

func (f *beneathFS) stat(op, name string, flags int) (fs.FileInfo, error) {
	fd, sys, err := f.openSys(op, name, unix.O_PATH|flags)
	if err != nil {
		return nil, belowFile(err)
	}
	defer sys.close(fd)
	var st unix.Stat_t
	if err := sys.fstat(fd, &st); err != nil {
		return nil, pathErr(op, name, err)
	}
	return newFileInfo(path.Base(name), &st), nil
}

// ReadLink returns the target of the symlink name.
func (f *beneathFS) ReadLink(name string) (string, error) {
	fd, err := f.open("readlink", name, unix.O_PATH|unix.O_NOFOLLOW)
	if err != nil {
		return "", err
	}
	defer unix.Close(fd)
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(fd, "", buf)
		if err == unix.ENOENT { // readlinkat on a descriptor that is not a symlink
			err = unix.EINVAL
		}
		if err != nil {
			return "", pathErr("readlink", name, err)
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}

// ReadFile returns the contents of name.
func (f *beneathFS) ReadFile(name string) ([]byte, error) {
	fd, err := f.open("read", name, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, pathErr("read", name, err)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		return nil, pathErr("read", name, unix.EISDIR)
	}
	buf := make([]byte, 0, max(st.Size, 0)+1)
	for {
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, pathErr("read", name, err)
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// ReadDir returns the entries of the directory name sorted by name.
func (f *beneathFS) ReadDir(name string) ([]fs.DirEntry, error) {
	fd, err := f.open("readdir", name, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	d := &dirFD{fd: fd}
	defer d.Close()
	var list []fs.DirEntry
	err = d.ReadEntries(func(n string, typ fs.FileMode) {
		list = append(list, &dirEntry{name: n, typ: typ})
	})
	if err != nil {
		return nil, pathErr("readdir", name, err)
	}
	// Fill in the infos now: the descriptor is closed on return.
	for _, e := range list {
		de := e.(*dirEntry)
		de.info, de.err = d.Lstat(de.name)
	}
	sortEntries(list)
	return list, nil
}

// OpenDirFD opens the directory name for ReadEntries and Lstat.
func (f *beneathFS) OpenDirFD(name string) (DirFD, error) { return f.openDir("open", name) }

func (f *beneathFS) openDir(op, name string) (*dirFD, error) {
	fd, sys, err := f.openSys(op, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW)
	if err != nil {
		return nil, err
	}
	return &dirFD{fd: fd, sys: sys}, nil
}

// dirFD is an open directory; mu guards fd against a concurrent Close.
type dirFD struct {
	mu  sync.RWMutex
	fd  int      // -1 once closed
	sys sysCalls // for the directory and the files opened through it
}

var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func (d *dirFD) ReadEntries(fn func(name string, typ fs.FileMode)) error {
	return d.readBatches(func(batch []byte) error {
		// The names of the batch share one string, of their length only:
		// one allocation per batch, and none for the records around them.
		size := 0
		if err := dirents(batch, func(_ byte, raw []byte) { size += len(raw) }); err != nil {
			return err
		}
		var names strings.Builder
		names.Grow(size)
		dirents(batch, func(typ byte, raw []byte) {
			start := names.Len()
			names.Write(raw)
			name := names.String()[start:]
			if mode, ok := d.entryType(typ, name); ok {
				fn(name, mode)
			}
		})
		return nil
	})
}

func (d *dirFD) ReadNames(fn func(name []byte, typ fs.FileMode)) error {
	return d.readBatches(func(batch []byte) error {
		return dirents(batch, func(typ byte, raw []byte) {
			// lstatat copies the name it is given: no string is kept.
			if mode, ok := d.entryType(typ, unsafe.String(unsafe.SliceData(raw), len(raw))); ok {
				fn(raw, mode)
			}
		})
	})
}

// readBatches calls fn with each batch of records that getdents64 returns
// for the directory, in a pooled buffer, until the end or an error of
// either.
func (d *dirFD) readBatches(fn func(batch []byte) error) error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.fd < 0 {
		return fs.ErrClosed
	}
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	for {
		n, err := d.sys.getdents(d.fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			return nil
		}
		if err := fn(buf[:n]); err != nil {
			return err
		}
	}
}

// entryType returns the type bits of the entry name of d_type typ, found
// with lstat when the directory does not give it; ok is false for an
// entry removed since it was listed. d.mu must be held.
func (d *dirFD) entryType(typ byte, name string) (mode fs.FileMode, ok bool) {
	if mode, known := direntType(typ); known {
		return mode, true
	}
	var st unix.Stat_t
	if err := d.sys.lstatat(d.fd, name, &st); err != nil {
		return 0, false
	}
	return fileMode(st.Mode).Type(), true
}

// dirents calls fn with the type and name of each record of a getdents64
// batch, except "." and "..".
func dirents(b []byte, fn func(typ byte, name []byte)) error {
	for len(b) >= 19 {
		// struct linux_dirent64: ino u64, off s64, reclen u16, type u8, name.
		reclen := int(b[16]) | int(b[17])<<8
		if reclen < 19 || reclen > len(b) {
			return errors.New("malformed directory entry from getdents64")
		}
		typ, raw := b[18], b[19:reclen]
		b = b[reclen:]
		if i := bytes.IndexByte(raw, 0); i >= 0 {
			raw = raw[:i]
		}
		if string(raw) != "." && string(raw) != ".." {
			fn(typ, raw)
		}
	}
	return nil
}

func (d *dirFD) Lstat(name string) (fs.FileInfo, error) {
	var st unix.Stat_t
	if err := d.lstat(name, &st); err != nil {
		return nil, err
	}
	return newFileInfo(name, &st), nil
}

// StatEntry is Lstat without a FileInfo: nothing is allocated.
func (d *dirFD) StatEntry(name string) (Stat, error) {
	var st unix.Stat_t
	if err := d.lstat(name, &st); err != nil {
		return Stat{}, err
	}
	return Stat{Size: st.Size, ModTime: time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)), Mode: fileMode(st.Mode)}, nil
}

// lstat fills st with the lstat information of the entry name.
func (d *dirFD) lstat(name string, st *unix.Stat_t) error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.fd < 0 {
		return &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrClosed}
	}
	for {
		err := d.sys.lstatat(d.fd, name, st)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "lstat", Path: name, Err: err}
		}
		return nil
	}
}

func (d *dirFD) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.fd < 0 {
		return fs.ErrClosed
	}
	err := d.sys.close(d.fd)
	d.fd = -1
	return err
}

// direntType maps a d_type to type bits; known is false for DT_UNKNOWN.
func direntType(t byte) (mode fs.FileMode, known bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

// fileMode converts st_mode to an fs.FileMode.
func fileMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

// fileInfo is the part of a stat result that fs.FileInfo exposes: a walk
// keeps one per file it reports, so it holds no whole unix.Stat_t, and Sys
// returns nil.
type fileInfo struct {
	name      string
	size      int64
	sec, nsec int64
	mode      uint32
}

func newFileInfo(name string, st *unix.Stat_t) *fileInfo {
	return &fileInfo{name: name, size: st.Size, sec: int64(st.Mtim.Sec), nsec: int64(st.Mtim.Nsec), mode: st.Mode}
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode  { return fileMode(fi.mode) }
func (fi *fileInfo) ModTime() time.Time { return time.Unix(fi.sec, fi.nsec) }
func (fi *fileInfo) IsDir() bool        { return fi.Mode().IsDir() }
func (fi *fileInfo) Sys() any           { return nil }

// dirEntry is an fs.DirEntry of ReadDir, with its info already read.
type dirEntry struct {
	name string
	typ  fs.FileMode
	info fs.FileInfo
	err  error
}

func (e *dirEntry) Name() string               { return e.name }
func (e *dirEntry) IsDir() bool                { return e.typ.IsDir() }
func (e *dirEntry) Type() fs.FileMode          { return e.typ }
func (e *dirEntry) Info() (fs.FileInfo, error) { return e.info, e.err }
func (e *dirEntry) String() string             { return fs.FormatDirEntry(e) }

// sortEntries sorts directory entries by name, as fs.ReadDir does.
func sortEntries(list []fs.DirEntry) {
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
}

// openRegular opens the regular file name with raw system calls: no
// *os.File, no poller registration, three system calls besides the reads,
// made directly on a local file system (see sysCalls).
func (f *beneathFS) openRegular(name string, slot *Slot) (Regular, error) {
	fd, sys, err := f.openSys("open", name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY)
	if err != nil {
		return nil, err
	}
	return regularFD(fd, name, sys, slot)
}

// OpenRegular opens the entry name (one path element) of the directory,
// into slot unless it is nil.
func (d *dirFD) OpenRegular(name string, slot *Slot) (Regular, error) {
	if name == "" || name == "." || name == ".." || strings.IndexByte(name, '/') >= 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	d.mu.RLock()
	defer d.mu.RUnlock()
	if d.fd < 0 {
		// fs.ErrClosed itself, allocating nothing: an ordered walk's
		// files are often opened after their directory is closed (and
		// then by path).
		return nil, fs.ErrClosed
	}
	for {
		fd, err := d.sys.openat(d.fd, name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_NOFOLLOW|unix.O_CLOEXEC)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, pathErr("open", name, err)
		}
		return regularFD(fd, name, d.sys, slot)
	}
}

// regularFD checks that the open fd is a regular file and wraps it, in
// slot unless it is nil; it closes fd on failure.
func regularFD(fd int, name string, sys sysCalls, slot *Slot) (Regular, error) {
	var st unix.Stat_t
	if err := sys.fstat(fd, &st); err != nil {
		sys.close(fd)
		return nil, pathErr("open", name, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		sys.close(fd)
		return nil, &fs.PathError{Op: "open", Path: name, Err: errNotRegular(fileMode(st.Mode))}
	}
	if slot == nil {
		slot = new(Slot)
	}
	slot.f = rawFile{fd: fd, name: name, size: st.Size, fid: FileID{uint64(st.Dev), st.Ino}, sys: sys}
	return &slot.f, nil
}

// rawFile is a regular file read through its descriptor.
type rawFile struct {
	fd   int
	name string
	size int64
	fid  FileID
	sys  sysCalls
}

func (r *rawFile) Size() int64 { return r.size }
func (r *rawFile) id() FileID  { return r.fid }

func (r *rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := r.sys.read(r.fd, p)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, pathErr("read", r.name, err)
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// ReadAt reads len(p) bytes from off on (io.ReaderAt), leaving the
// offset of the next Read as it is.
func (r *rawFile) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		k, err := r.sys.pread(r.fd, p[n:], off+int64(n))
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return n, pathErr("read", r.name, err)
		case k == 0:
			return n, io.EOF
		}
		n += k
	}
	return n, nil
}

// Seek sets the offset of the next Read (io.Seeker), so that a search can
// go on from the middle of the file.
func (r *rawFile) Seek(offset int64, whence int) (int64, error) {
	off, err := unix.Seek(r.fd, offset, whence)
	if err != nil {
		return 0, pathErr("seek", r.name, err)
	}
	return off, nil
}

func (r *rawFile) Close() error {
	if r.fd < 0 {
		return fs.ErrClosed
	}
	err := r.sys.close(r.fd)
	r.fd = -1
	return err
}

// validPath is fs.ValidPath without its demand for UTF-8: a Linux file
// name is any bytes but '/' and NUL, and the walk, which lists such names,
// opens them by their directory's descriptor; the same name opened from
// the root must not fail instead, by when the directory was closed.
func validPath(name string) bool {
	if !utf8.ValidString(name) {
		name = strings.ToValidUTF8(name, "\uFFFD")
	}
	return fs.ValidPath(name)
}
