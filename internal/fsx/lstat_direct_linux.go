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
