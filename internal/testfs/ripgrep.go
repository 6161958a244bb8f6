package testfs

import (
	"strconv"
	"strings"
	"testing"
)

// RipgrepCounts parses the output of ripgrep's -c or --count-matches run
// with --null and --with-filename: each file's count, by its path without
// a leading "./". A record that is not "path NUL count" fails tb.
func RipgrepCounts(tb testing.TB, out []byte) map[string]int {
	tb.Helper()
	counts := map[string]int{}
	for _, rec := range strings.Split(string(out), "\n") {
		f, n, found := strings.Cut(strings.TrimSuffix(rec, "\r"), "\x00")
		if !found {
			continue
		}
		k, err := strconv.Atoi(n)
		if err != nil {
			tb.Fatalf("ripgrep count output %q", rec)
		}
		counts[strings.TrimPrefix(f, "./")] = k
	}
	return counts
}
