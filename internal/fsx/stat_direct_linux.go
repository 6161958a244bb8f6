//go:build amd64 || arm64 || riscv64

package fsx

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// lstatat stats the entry name of the directory dirfd without following a
// symlink (newfstatat fills unix.Stat_t as it is on these architectures).
func (s sysCalls) lstatat(dirfd int, name string, st *unix.Stat_t) error {
	if !s.direct {
		return unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
	}
	var buf [256]byte // NAME_MAX + 1: a directory entry's name fits
	p, err := cString(&buf, name)
	if err != nil {
		return err
	}
	_, _, e := unix.RawSyscall6(unix.SYS_NEWFSTATAT, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
	return errnoErr(e)
}

// fstat stats the open fd (fstat fills unix.Stat_t as it is here).
func (s sysCalls) fstat(fd int, st *unix.Stat_t) error {
	if !s.direct {
		return unix.Fstat(fd, st)
	}
	_, _, e := unix.RawSyscall(unix.SYS_FSTAT, uintptr(fd), uintptr(unsafe.Pointer(st)), 0)
	return errnoErr(e)
}

// pread reads from off on (the offset fits one register here).
func (s sysCalls) pread(fd int, b []byte, off int64) (int, error) {
	if !s.direct || len(b) == 0 {
		return unix.Pread(fd, b, off)
	}
	n, _, e := unix.RawSyscall6(unix.SYS_PREAD64, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)), uintptr(off), 0, 0)
	return int(n), errnoErr(e)
}
