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

// TestInPartCounted: the files searched only in part are counted, in Run
// (paged and exhaustive) and Stream, on an fstest.MapFS and on the OS; each
// was a silent partial answer ("No matches found" while rg finds one):
//   - a line over grep.MaxLineBytes is searched in overlapping windows,
//     where a match longer than the overlap across a window edge is missed
//     (LongLines, matching or not, for a pattern that can match more; a
//     bounded one finds the match at the edge and counts nothing);
//   - a multiline search reads the first grep.MaxWholeBytes of a file
//     (MultilineCut);
//   - a NUL byte past the binary window ends the search; a file that
//     matched before it is counted (NULStops), one that did not is binary.
func TestInPartCounted(t *testing.T) {
	text := strings.Repeat("text\n", 20000) // past the 64 KiB binary window
	files := map[string]string{
		"edge.txt":    strings.Repeat("a", grep.MaxLineBytes-1) + " needle\n", // the match crosses the edge
		"far.txt":     strings.Repeat("a", grep.MaxLineBytes+100) + " needle\n",
		"short.txt":   "a needle\n",
		"nul_hit.txt": "a needle\n" + text + "\x00\na needle\n",
		"nul_no.txt":  text + "\x00\na needle\n",
		"sub/big.txt": strings.Repeat("line\n", grep.MaxWholeBytes/5) + "a\nneedle\n",
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
	type counts struct{ long, multiline, nul, binary, searched int }
	for name, fsys := range map[string]fs.FS{"MapFS": m, "OS": osfs} {
		for _, tt := range []struct {
			paths     []string
			multiline bool
			want      counts
		}{
			{nil, false, counts{long: 2, nul: 1, binary: 1, searched: 5}},
			{[]string{"edge.txt"}, false, counts{long: 1, searched: 1}},
			{[]string{"short.txt", "sub"}, false, counts{searched: 2}},
			{[]string{"nul_hit.txt", "nul_no.txt"}, false, counts{nul: 1, binary: 1, searched: 1}},
			{[]string{"sub", "short.txt"}, true, counts{multiline: 1, searched: 2}},
		} {
			g := grep.Options{Pattern: "a\\s+needle", Multiline: tt.multiline}
			check := func(how string, out *Outcome) {
				got := counts{out.LongLines, out.MultilineCut, out.NULStops, out.Skipped[SkipBinary], out.Searched}
				if got != tt.want {
					t.Errorf("%s %s %v (multiline %v): %+v, want %+v", name, how, tt.paths, tt.multiline, got, tt.want)
				}
			}
			for _, paged := range []bool{true, false} {
				req := Request{Paths: tt.paths, Grep: g, MaxFileSize: -1, MaxFiles: -1, Budget: -1}
				if paged {
					req.MaxFiles, req.Budget = 20, 2000
				}
				out, err := Run(context.Background(), fsys, "", req)
				if err != nil {
					t.Fatal(err)
				}
				check("Run", out)
			}
			out, err := Stream(context.Background(), fsys, "", Request{Paths: tt.paths, Grep: g, MaxFileSize: -1}, func(Hit) bool { return true })
			if err != nil {
				t.Fatal(err)
			}
			check("Stream", out)
		}
		out, err := Run(context.Background(), fsys, "", Request{Paths: []string{"edge.txt", "far.txt"}, Grep: grep.Options{Pattern: "a needle"}, MaxFileSize: -1, MaxFiles: -1, Budget: -1})
		if err != nil {
			t.Fatal(err)
		}
		if out.LongLines != 0 || out.TotalFiles != 2 || out.TotalMatches != 2 {
			t.Errorf("%s a bounded pattern: LongLines %d, %d files, %d matches; want 0, 2, 2", name, out.LongLines, out.TotalFiles, out.TotalMatches)
		}
	}
}
