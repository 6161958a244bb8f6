package format

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
)

var updateConflicts = flag.Bool("update-conflicts", false, "rewrite the golden files in testdata/conflicts")

// TestConflictsGolden renders the :conflicts index and the footer of a
// window that shows conflict blocks, read by a Reader, against the files
// in testdata/conflicts.
func TestConflictsGolden(t *testing.T) {
	big := "<<<<<<< HEAD\nours one\n=======\ntheirs one\n>>>>>>> feature/x\n" + strings.Repeat("filler line of the big file\n", 400_000)
	r := scout.Reader{Workspace: scout.Workspace{FS: fstest.MapFS{
		"many.ts":  {Data: []byte(many)},
		"wide.ts":  {Data: []byte(many)},
		"clean.ts": {Data: []byte("x\n")},
		"big.ts":   {Data: []byte(big)},
	}}}
	tests := []struct {
		name, path string
		footer     bool // the golden is the text's end, after a blank line
		reason     string
	}{
		{"list", "many.ts:conflicts", false, "the :conflicts index with labels and right-aligned IDs"},
		{"list_clean", "clean.ts:conflicts", false, "a clean file says so"},
		{"list_truncated", "big.ts:conflicts", false, "a capped scan adds a note"},
		{"footer_all", "many.ts", true, "all blocks visible: bodies capped at 6 lines, ≡ sides"},
		{"footer_partial", "wide.ts:1-6", true, "a window that misses blocks points at :conflicts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: tt.path})
			require.NoError(t, err)
			got := ReadText(res, &ReadOptions{Style: StylePlain})
			if tt.footer {
				_, got, _ = strings.Cut(got, "\n\n⚠")
				got, _, _ = strings.Cut("⚠"+got, "\n\n[") // the notice after the footer
			}
			path := filepath.Join("testdata", "conflicts", tt.name+".golden")
			if *updateConflicts {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(want), got, tt.reason)
		})
	}
}

// TestConflictFooterShape checks the footer of a block with empty sides
// and no labels.
func TestConflictFooterShape(t *testing.T) {
	res := &scout.ReadResult{Kind: scout.ReadKindText, Path: "a.go", TotalLines: 4, Blocks: []scout.ReadBlock{{Start: 1, Lines: lines(1, "<<<<<<<", "=======", "b", ">>>>>>>")}},
		Conflicts: &scout.ReadConflicts{Blocks: []scout.ConflictBlock{{ID: 1, Start: 1, End: 4, Ours: scout.ConflictSide{Start: 2, Lines: []string{}},
			Theirs: scout.ConflictSide{Start: 3, Count: 1, Lines: []string{"b"}}}}}}
	_, got, _ := strings.Cut(ReadText(res, &ReadOptions{Style: StylePlain}), "\n\n")
	assert.True(t, strings.HasPrefix(got, "⚠ 1 unresolved conflict detected\n"), "singular, and total 0 counts as the visible ones:\n%s", got)
	assert.Contains(t, got, "<<< ours\n(empty)\n>>> theirs\nb", "an empty side prints (empty)")
	assert.NotContains(t, got, "- ours =", "no label line without labels")
	assert.False(t, strings.HasSuffix(got, "\n"), "no trailing newline")
}

const many = `<<<<<<< HEAD
ours one
=======
theirs one
>>>>>>> feature/x
keep
<<<<<<< HEAD
a
b
c
d
e
f
g
h
||||||| merged common ancestors
a
b
=======
a
b
c
d
e
f
g
h
>>>>>>> feature/x
<<<<<<< HEAD
same
||||||| base
same
=======
other
>>>>>>> feature/x
`
