package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestPiReadDisplay: pi read's details.displayContent is the shown lines
// of a text read of one range without prefixes, and the number of the
// first; details.conflictCount the merge-conflict blocks the read
// surfaces (those in view, or the :conflicts index's). Both are left out
// where they do not apply.
func TestPiReadDisplay(t *testing.T) {
	block := "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature/x\n"
	m := fstest.MapFS{
		"ten.txt":  {Data: []byte(lines(10))},
		"wide.txt": {Data: []byte(strings.Repeat("w", 800) + "\nshort\n")},
		"m.txt":    {Data: []byte("a\n" + block + "b\n" + block + "c\n")},
		"a.zip":    {Data: testfs.Zip(testfs.Member{Name: "e.txt", Body: "x\ny\n"})},
		"d/f.txt":  {Data: []byte("f\n")},
	}
	tests := []struct {
		path      string
		display   *piDisplay
		conflicts int
	}{
		{path: "ten.txt:4-5", display: &piDisplay{Text: "l3\nl4\nl5\nl6\nl7\nl8", StartLine: 3}},
		{path: "ten.txt:9", display: &piDisplay{Text: "l8\nl9\nl10", StartLine: 8}},
		{path: "ten.txt:2-3:raw", display: &piDisplay{Text: "l2\nl3", StartLine: 2}},
		{path: "wide.txt:1-1", display: &piDisplay{Text: strings.Repeat("w", 768) + "…\nshort", StartLine: 1}},
		{path: "a.zip:e.txt", display: &piDisplay{Text: "x\ny", StartLine: 1}},
		{path: "m.txt:1-3", display: &piDisplay{Text: "a\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature/x", StartLine: 1}, conflicts: 1},
		{path: "m.txt", display: &piDisplay{Text: "a\n" + block + "b\n" + block + "c", StartLine: 1}, conflicts: 2},
		{path: "m.txt:conflicts", conflicts: 2},
		{path: "ten.txt:1-2,5-6"},
		{path: "ten.txt:50"},
		{path: "d"},
		{path: "a.zip"},
	}
	for _, tr := range testfs.Trees(t, m) {
		for _, tt := range tests {
			args, _ := json.Marshal(map[string]string{"path": tt.path})
			env := Call(context.Background(), Config{FS: tr.FS, Root: tr.Root}, Pi, "read", args)
			if env.Status == scout.StatusError {
				t.Fatalf("%s %s: %s", tr.Name, tt.path, env.Text)
			}
			d := env.Data.(*piReadData)
			if got, want := jsonOf(d.DisplayContent), jsonOf(tt.display); got != want {
				t.Errorf("%s %s: displayContent %s, want %s", tr.Name, tt.path, got, want)
			}
			if d.ConflictCount != tt.conflicts {
				t.Errorf("%s %s: conflictCount %d, want %d", tr.Name, tt.path, d.ConflictCount, tt.conflicts)
			}
		}
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
