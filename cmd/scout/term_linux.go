package main

import "golang.org/x/sys/unix"

// terminalFd reports whether the descriptor is a terminal.
func terminalFd(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}
