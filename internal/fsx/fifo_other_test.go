//go:build !unix

package fsx

import "errors"

func syscallMkfifo(string) error { return errors.New("no FIFOs on this system") }
