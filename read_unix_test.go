//go:build unix

package scout_test

import "syscall"

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

// mknodNull makes a character device like /dev/null (needs privileges).
func mknodNull(path string) error {
	return syscall.Mknod(path, syscall.S_IFCHR|0o600, int(1<<8|3))
}
