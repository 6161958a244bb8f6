//go:build !(amd64 || arm64 || riscv64)

package fsx

import "golang.org/x/sys/unix"

// lstatat stats the entry name of the directory dirfd without following a
// symlink, through the scheduler (the kernel's stat layout differs here).
func (s sysCalls) lstatat(dirfd int, name string, st *unix.Stat_t) error {
	return unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
}

// fstat stats the open fd with unix.Fstat, which makes the call that fills
// unix.Stat_t here.
func (s sysCalls) fstat(fd int, st *unix.Stat_t) error { return unix.Fstat(fd, st) }

// pread reads from off on with unix.Pread (a 32-bit system passes the
// offset in two registers).
func (s sysCalls) pread(fd int, b []byte, off int64) (int, error) { return unix.Pread(fd, b, off) }
