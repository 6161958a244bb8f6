//go:build !linux

package fsx

import "io/fs"

// GrowFDTable does nothing: only Linux makes the growth of a shared
// descriptor table wait (see the Linux version).
func GrowFDTable(fs.FS) {}
