package fsx

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// sysCalls makes the system calls on a directory and the files opened
// through it. With direct set they bypass the Go scheduler's system call
// hand-off (RawSyscall): on a local file system a call returns in
// microseconds, and the hand-off (the scheduler's monitor taking the
// processor of a goroutine in a call and waking another thread) costs more
// than the call when a search makes tens of thousands of them. Elsewhere (a
// network or FUSE file system, where a call may block for long) they go
// through the scheduler, so that one blocked call never stalls the rest.
type sysCalls struct{ direct bool }

// localFS lists the file system types (statfs f_type) whose calls are made
// directly: disk and memory file systems of the kernel.
var localFS = map[int64]bool{
	unix.EXT4_SUPER_MAGIC:      true, // ext2, ext3, ext4
	unix.XFS_SUPER_MAGIC:       true,
	unix.BTRFS_SUPER_MAGIC:     true,
	unix.TMPFS_MAGIC:           true,
	unix.RAMFS_MAGIC:           true,
	unix.OVERLAYFS_SUPER_MAGIC: true,
	unix.F2FS_SUPER_MAGIC:      true,
	unix.SQUASHFS_MAGIC:        true,
	unix.MSDOS_SUPER_MAGIC:     true,
	unix.EXFAT_SUPER_MAGIC:     true,
	0x2fc12fc1:                 true, // ZFS
	0xca451a4e:                 true, // bcachefs
}

// sysFor returns how to make the calls on the open directory fd: directly
// when it lies on a local file system.
func sysFor(fd int) sysCalls {
	var st unix.Statfs_t
	if err := unix.Fstatfs(fd, &st); err != nil {
		return sysCalls{}
	}
	return sysCalls{direct: localFS[int64(st.Type)]}
}

func errnoErr(e unix.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

func (s sysCalls) openat(dirfd int, name string, flags int) (int, error) {
	if !s.direct {
		return unix.Openat(dirfd, name, flags, 0)
	}
	p, err := unix.BytePtrFromString(name)
	if err != nil {
		return -1, err
	}
	fd, _, e := unix.RawSyscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(flags), 0, 0, 0)
	return int(fd), errnoErr(e)
}

func (s sysCalls) read(fd int, b []byte) (int, error) {
	if !s.direct || len(b) == 0 {
		return unix.Read(fd, b)
	}
	n, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	return int(n), errnoErr(e)
}

func (s sysCalls) getdents(fd int, b []byte) (int, error) {
	if !s.direct || len(b) == 0 {
		return unix.Getdents(fd, b)
	}
	n, _, e := unix.RawSyscall(unix.SYS_GETDENTS64, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	return int(n), errnoErr(e)
}

func (s sysCalls) fstat(fd int, st *unix.Stat_t) error {
	if !s.direct {
		return unix.Fstat(fd, st)
	}
	_, _, e := unix.RawSyscall(unix.SYS_FSTAT, uintptr(fd), uintptr(unsafe.Pointer(st)), 0)
	return errnoErr(e)
}

func (s sysCalls) close(fd int) error {
	if !s.direct {
		return unix.Close(fd)
	}
	_, _, e := unix.RawSyscall(unix.SYS_CLOSE, uintptr(fd), 0, 0)
	return errnoErr(e)
}
