//go:build !linux

package fsx

import "io/fs"

// openBeneath reports false: only Linux has openat2.
func openBeneath(dir string) (fs.FS, func(), bool) { return nil, nil, false }
