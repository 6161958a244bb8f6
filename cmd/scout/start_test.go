package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Bounds on what the module's packages allocate in their init, that is,
// when any command starts: a table, a regular expression or a registry
// that not every command needs is made on first use (sync.OnceValue), a
// small fixed set is a switch or an array.
const (
	maxInitBytes      = 2048 // one package
	maxInitBytesTotal = 8192 // all of them
)

// inittraceLine is one package's line of GODEBUG=inittrace=1.
var inittraceLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// TestStartInits: the module's packages do little work in their init,
// which every run of the command pays for, whatever it does. It runs this
// test binary again, running no test, with the runtime's trace of each
// package's init (this package's own init, with its tests' variables, is
// left out).
func TestStartInits(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	const module = "github.com/scoutkit/scout"
	total, seen := 0, 0
	for line := range strings.Lines(string(out)) {
		m := inittraceLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		seen++
		pkg := m[1]
		if pkg != module && !strings.HasPrefix(pkg, module+"/") || pkg == module+"/cmd/scout" || strings.HasPrefix(pkg, module+"/internal/testfs") {
			continue
		}
		bytes, _ := strconv.Atoi(m[2])
		total += bytes
		if bytes > maxInitBytes {
			t.Errorf("the init of %s allocates %d bytes (%s allocations), over %d: make what it builds on first use", pkg, bytes, m[3], maxInitBytes)
		}
	}
	if seen == 0 {
		t.Fatalf("no inittrace lines in the output:\n%s", out)
	}
	if total > maxInitBytesTotal {
		t.Errorf("the inits of the module's packages allocate %d bytes in all, over %d", total, maxInitBytesTotal)
	}
}
