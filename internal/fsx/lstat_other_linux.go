//go:build !(amd64 || arm64 || riscv64)

package fsx

import "golang.org/x/sys/unix"

// lstatat stats the entry name of the directory dirfd without following a
// symlink, through the scheduler (the kernel's stat layout differs here).
func (s sysCalls) lstatat(dirfd int, name string, st *unix.Stat_t) error {
	return unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
}
