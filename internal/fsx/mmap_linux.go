package fsx

import (
	"os"
	"runtime/debug"
	"time"

	"golang.org/x/sys/unix"
)

// mapRegular maps a file read through its descriptor on a local file
// system: one of a directory known to be local (sysCalls.direct), or one
// whose file system is a local one (localMagic). The mapping is read-only
// (PROT_READ of a descriptor opened O_RDONLY).
func mapRegular(f Regular) (*Mapping, error) {
	r, ok := f.(*rawFile)
	if !ok || r.fd < 0 {
		return nil, ErrNoMap
	}
	if !r.sys.direct {
		var st unix.Statfs_t
		if unix.Fstatfs(r.fd, &st) != nil || !localMagic(uint32(st.Type)) {
			return nil, ErrNoMap
		}
	}
	b, err := unix.Mmap(r.fd, 0, int(r.size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &Mapping{Data: b, file: r}, nil
}

// Shrunk reports whether the mapped file is now shorter than Data, or can
// no longer be examined: what was read of Data may hold zeros that the
// file does not.
func (m *Mapping) Shrunk() bool {
	var st unix.Stat_t
	return m.file.fd < 0 || m.file.sys.fstat(m.file.fd, &st) != nil || st.Size < int64(len(m.Data))
}

// localMagic reports the statfs types of the file systems of localFS.
func localMagic(t uint32) bool {
	switch t {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC,
		unix.F2FS_SUPER_MAGIC, unix.TMPFS_MAGIC, unix.RAMFS_MAGIC,
		unix.OVERLAYFS_SUPER_MAGIC, unix.SQUASHFS_MAGIC, unix.MSDOS_SUPER_MAGIC,
		unix.EXFAT_SUPER_MAGIC, unix.BCACHEFS_SUPER_MAGIC,
		0xe0f5e1e2, // erofs
		0x7366746e, // ntfs3
		0x2fc12fc1: // zfs
		return true
	}
	return false
}

// release drops the pages of b, a page-aligned part of Data, from the
// process; the page cache keeps them.
func (m *Mapping) release(b []byte) {
	_ = unix.Madvise(b, unix.MADV_DONTNEED) // only a hint: the pages are read-only
}

// Close unmaps the file; Data must not be read after.
func (m *Mapping) Close() error {
	if m.Data == nil {
		return nil
	}
	err := unix.Munmap(m.Data)
	m.Data = nil
	return err
}

// Pays reports whether reading m costs less than reading its file: whether
// the page faults that bring the first len(buf) bytes of m into the
// process take less time than reading the same bytes into buf. A mapping
// saves read's copy, but a page fault's cost differs by machine and by
// file (a file held in large folios takes one fault for many pages; in
// some virtual machines each fault of a 4 KiB page costs as much as
// copying thirty): a big file mapped may be searched several times faster
// than read, or slower. It measures on every call (some microseconds for a
// buffer of 128 KiB), and says false where it cannot tell: buf is empty,
// or the file cannot be read, or changed or shrank under the mapping.
func (m *Mapping) Pays(buf []byte) (yes bool) {
	buf = buf[:min(len(buf), len(m.Data)-m.dropped)]
	if len(buf) == 0 {
		return false
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil { // the file shrank under the mapping
			yes = false
		}
	}()
	var read time.Duration
	for range 2 { // the first read also faults in buf and brings a file on disk into the cache
		t := time.Now()
		if n, err := m.file.ReadAt(buf, int64(m.dropped)); n < len(buf) || err != nil {
			return false
		}
		read = time.Since(t)
	}
	data := m.Data[m.dropped : m.dropped+len(buf)]
	t := time.Now()
	for i := 0; i < len(data); i += pageSize {
		if data[i] != buf[i] { // the file changed meanwhile
			return false
		}
	}
	return time.Since(t) < read
}

// pageSize is the size of a page of memory.
var pageSize = os.Getpagesize()

// anon maps n bytes of private anonymous memory, or returns nil.
func anon(n int) []byte {
	b, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil
	}
	return b
}

// FreeAnon gives back memory of Anon.
func FreeAnon(b []byte) {
	_ = unix.Munmap(b[:cap(b)]) // fails only for memory Anon did not map
}
