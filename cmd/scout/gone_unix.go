//go:build linux || darwin || freebsd || netbsd || openbsd

package main

import (
	"context"
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// watchReader calls gone when the reading end of out, a pipe or a socket,
// is closed: the client that reads the answers went away (crashed or was
// killed), so nothing more the server computes can reach it. It watches
// until ctx ends; on a file or a terminal it never calls gone.
func watchReader(ctx context.Context, out *os.File, gone func()) {
	fds := []unix.PollFd{{Fd: int32(out.Fd())}} // no events: only errors and hangups are reported
	go func() {
		for ctx.Err() == nil {
			n, err := unix.Poll(fds, 250)
			if errors.Is(err, unix.EINTR) {
				continue
			}
			if err != nil {
				return
			}
			if n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0 {
				gone()
				return
			}
		}
	}()
}
