package read

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/testfs"
)

// TestSelectorBlank: a blank after the colon of a selector is taken as it
// is after a comma, after a file and after an archive member; a file whose
// name holds the blank is read as it is, and so is such a member when no
// member is named as the text before the colon (an archive member's name
// ends at the first ':' a selector follows, blank or not).
func TestSelectorBlank(t *testing.T) {
	fsys := fstest.MapFS{
		"f.txt":    {Data: []byte("one\ntwo\nthree\n")},
		"g.txt":    {Data: []byte("one\ntwo\n")},
		"g.txt: 2": {Data: []byte("a file named so\n")},
		"a.zip": {Data: testfs.Zip(testfs.Member{Name: "f.txt", Body: "one\ntwo\nthree\n"},
			testfs.Member{Name: "h.txt: 2", Body: "a member named so\n"})},
	}
	tests := []struct {
		path  string
		first string
		lines int
	}{
		{"f.txt: 2", "two", 2},
		{"f.txt: 2-2", "two", 1},
		{"f.txt: 2, 3", "two", 2},
		{"f.txt: 2:raw", "two", 2},
		{"g.txt: 2", "a file named so", 1},
		{"a.zip:f.txt: 2-2", "two", 1},
		{"a.zip:h.txt: 2", "a member named so", 1},
	}
	for _, tt := range tests {
		res, err := Run(context.Background(), &Config{FS: fsys}, tt.path)
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		if len(res.Blocks) == 0 || len(res.Blocks[0].Lines) != tt.lines || res.Blocks[0].Lines[0].Text != tt.first {
			t.Errorf("%s: blocks %+v, want %d lines from %q", tt.path, res.Blocks, tt.lines, tt.first)
		}
	}
}
