package search

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
)

// TestLongLinesCounted: a file with a line over grep.MaxLineBytes is
// searched in windows, where a match across a window edge is missed; the
// Outcome counts such files, whether they matched or not, in Run (paged
// and exhaustive) and Stream, on an fstest.MapFS and on the OS. A search
// of a 64 MiB line that missed "a needle" at the 4 MiB edge said "No
// matches found" and nothing else.
func TestLongLinesCounted(t *testing.T) {
	files := map[string]string{
		"edge.txt":  strings.Repeat("a", grep.MaxLineBytes-1) + " needle\n", // the match crosses the edge
		"far.txt":   strings.Repeat("a", grep.MaxLineBytes+100) + " needle\n",
		"short.txt": "a needle\n",
		"sub/x.txt": "nothing here\n",
	}
	m := fstest.MapFS{}
	dir := t.TempDir()
	for p, body := range files {
		m[p] = &fstest.MapFile{Data: []byte(body)}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	osfs, release, err := fsx.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	for name, fsys := range map[string]fs.FS{"MapFS": m, "OS": osfs} {
		for _, tt := range []struct {
			paths []string
			want  int
		}{
			{nil, 2},
			{[]string{"edge.txt"}, 1},
			{[]string{"short.txt", "sub"}, 0},
		} {
			for _, paged := range []bool{true, false} {
				req := Request{Paths: tt.paths, Grep: grep.Options{Pattern: "a needle"}, MaxFileSize: -1, MaxFiles: -1, Budget: -1}
				if paged {
					req.MaxFiles, req.Budget = 20, 2000
				}
				out, err := Run(context.Background(), fsys, "", req)
				if err != nil {
					t.Fatal(err)
				}
				if out.LongLines != tt.want {
					t.Errorf("%s Run %v (paged %v): LongLines %d, want %d", name, tt.paths, paged, out.LongLines, tt.want)
				}
			}
			out, err := Stream(context.Background(), fsys, "", Request{Paths: tt.paths, Grep: grep.Options{Pattern: "a needle"}, MaxFileSize: -1}, func(Hit) bool { return true })
			if err != nil {
				t.Fatal(err)
			}
			if out.LongLines != tt.want {
				t.Errorf("%s Stream %v: LongLines %d, want %d", name, tt.paths, out.LongLines, tt.want)
			}
		}
	}
}
