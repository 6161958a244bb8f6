package testfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

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

// GoSrc returns the src directory of the Go tree that runs the test (a
// real corpus for benchmarks and differential tests: $GOROOT/src, from the
// environment or `go env GOROOT`), skipping tb when there is none.
func GoSrc(tb testing.TB) string {
	tb.Helper()
	root := os.Getenv("GOROOT")
	if root == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			tb.Skipf("no Go tree: go env GOROOT: %v", err)
		}
		root = strings.TrimSpace(string(out))
	}
	dir := filepath.Join(root, "src")
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("no Go tree: %v", err)
	}
	return dir
}
