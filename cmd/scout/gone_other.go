//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package main

import (
	"context"
	"os"
)

// watchReader would notice that the client reading out went away; without
// poll(2) the server learns it only when an answer cannot be written.
func watchReader(ctx context.Context, out *os.File, gone func()) {}
