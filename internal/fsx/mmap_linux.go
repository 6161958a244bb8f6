package fsx

import "golang.org/x/sys/unix"

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
		if unix.Fstatfs(r.fd, &st) != nil || !localMagic[uint32(st.Type)] {
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

// localMagic holds the statfs types of the file systems of localFS.
var localMagic = map[uint32]bool{
	unix.EXT4_SUPER_MAGIC: true, unix.XFS_SUPER_MAGIC: true, unix.BTRFS_SUPER_MAGIC: true,
	unix.F2FS_SUPER_MAGIC: true, unix.TMPFS_MAGIC: true, unix.RAMFS_MAGIC: true,
	unix.OVERLAYFS_SUPER_MAGIC: true, unix.SQUASHFS_MAGIC: true, unix.MSDOS_SUPER_MAGIC: true,
	unix.EXFAT_SUPER_MAGIC: true, unix.BCACHEFS_SUPER_MAGIC: true,
	0xe0f5e1e2: true, // erofs
	0x7366746e: true, // ntfs3
	0x2fc12fc1: true, // zfs
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
