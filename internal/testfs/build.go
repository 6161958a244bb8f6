package testfs

import "runtime"

// BuildMode is the -buildmode a test passes to the go command to build a
// program, and the one of the test command's vet (go vet -buildmode=pie):
// on Linux, position-independent code, which is also what libscout.so is
// compiled as. A cold test run then compiles every package twice (that way
// and with -race) rather than three times. Elsewhere it is the default.
func BuildMode() string {
	if runtime.GOOS == "linux" {
		return "-buildmode=pie"
	}
	return "-buildmode=default"
}
