package walk

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestIgnoreFileBounds walks trees whose .gitignore is at or past the
// bounds of an ignore file: past them it is refused whole, its rules do
// not apply, and Stats.Errors says why; at them it applies. A file of a
// million rules took 600 MB and 22 s for 50 files, and one line of 100 MB
// ran out of memory.
func TestIgnoreFileBounds(t *testing.T) {
	rules := func(n int) string {
		var b strings.Builder
		for i := range n - 1 {
			fmt.Fprintf(&b, "pat%d/*.log\n", i)
		}
		b.WriteString("*.log\n")
		return b.String()
	}
	long := strings.Repeat("a", maxIgnoreLine)
	tests := []struct {
		name, gitignore string
		err             string // in the recorded error; "" when the file applies
	}{
		{"10,000 rules apply", rules(maxIgnoreRules), ""},
		{"10,001 rules are refused", rules(maxIgnoreRules + 1), "more than 10000 rules"},
		{"a rule of 4096 bytes applies", long + "\n*.log\n", ""},
		{"a rule of 4097 bytes is refused", long + "b\n*.log\n", "line 1 is longer than 4096 bytes"},
		{"a comment of any length applies", "#" + strings.Repeat("c", 1<<19) + "\n*.log\n", ""},
		{"a file over 1 MiB is refused", "*.log\n#" + strings.Repeat("c", 1<<20), "file too large"},
	}
	for _, tt := range tests {
		tr := tree{".git/HEAD": "ref: refs/heads/main\n", ".gitignore": tt.gitignore, "a.go": "x", "b.log": "x"}
		for fsName, fsys := range tr.both(t) {
			var got []string
			var st Stats
			grew := testfs.HeapPeak(func() { got, st = collect(t, fsys, ".", Options{Hidden: true}) })
			if grew > 64<<20 {
				t.Errorf("%s, %s: the heap grew by %d MiB", tt.name, fsName, grew>>20)
			}
			applied := !slices.Contains(got, "b.log")
			if applied != (tt.err == "") {
				t.Errorf("%s, %s: got %q; the rules applied: %v", tt.name, fsName, got, applied)
			}
			var msgs []string
			for _, err := range st.Errors {
				msgs = append(msgs, err.Error())
			}
			if tt.err != "" && (len(st.Errors) != 1 || !errors.Is(st.Errors[0], fsx.ErrTooLarge) || !strings.Contains(msgs[0], tt.err) || !strings.Contains(msgs[0], ".gitignore")) {
				t.Errorf("%s, %s: errors %q, want one naming .gitignore and %q", tt.name, fsName, msgs, tt.err)
			}
			if tt.err == "" && len(st.Errors) != 0 {
				t.Errorf("%s, %s: errors %q", tt.name, fsName, msgs)
			}
		}
	}
}
