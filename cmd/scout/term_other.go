//go:build !linux

package main

import "os"

// terminalFd reports whether the descriptor is a character device, which
// is how a terminal shows itself without termios.
func terminalFd(fd uintptr) bool {
	st, err := os.NewFile(fd, "").Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
