//go:build !unix

package scout_test

import "errors"

var errNoSpecialFiles = errors.New("no FIFOs or devices on this system")

func mkfifo(string) error { return errNoSpecialFiles }

func mknodNull(string) error { return errNoSpecialFiles }
