package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

// TestInPartNotes: a search that read some file only in part says so in
// pi search and amplifier grep, with a match and without one (each was a
// silent partial answer): a line over 4 MiB (searched in 4 MiB windows
// that overlap by 64 KiB, a longer match across a window edge missed: a
// pattern with an unbounded repetition), a multiline search of a file over
// 16 MiB (only its first 16 MiB read), and a NUL byte past the first
// 64 KiB of a file that matched before it (the rest not searched).
func TestInPartNotes(t *testing.T) {
	cfg := Config{MaxFileSize: -1, FS: fstest.MapFS{
		"edge.txt":    {Data: []byte(strings.Repeat("a", 4<<20-1) + " needle\n")},
		"short.txt":   {Data: []byte("a needle\n")},
		"nul.txt":     {Data: []byte("a needle\n" + strings.Repeat("text\n", 20000) + "\x00\na needle\n")},
		"big/big.txt": {Data: []byte(strings.Repeat("line\n", 16<<20/5) + "a\nneedle\n")},
	}}
	const (
		long  = "1 file has a line over 4 MiB, searched in 4 MiB windows that overlap by 64 KiB: a match longer than 64 KiB that crosses a window edge is missed."
		multi = "1 file is over 16 MiB: a multiline search reads only the first 16 MiB of a file."
		nul   = "1 file has a NUL byte after the first 64 KiB: the search stopped there, the rest being binary."
	)
	for _, c := range []struct {
		toolset, name string
		args          map[string]any
		notes         []string
	}{
		{Pi, "search", map[string]any{"pattern": "a +needle", "paths": []string{"edge.txt", "short.txt", "nul.txt"}}, []string{long, nul}},
		{Pi, "search", map[string]any{"pattern": "a +needle", "paths": []string{"edge.txt"}}, []string{long}},
		// A match of at most 64 KiB is found across the edge: no note.
		{Pi, "search", map[string]any{"pattern": "a needle", "paths": []string{"edge.txt"}}, nil},
		{Pi, "search", map[string]any{"pattern": "a needle", "paths": []string{"short.txt"}}, nil},
		{Amplifier, "grep", map[string]any{"pattern": "a +needle", "path": "edge.txt", "output_mode": "content"}, []string{long}},
		{Amplifier, "grep", map[string]any{"pattern": "a needle", "path": "edge.txt", "output_mode": "count"}, nil},
		// Listing files stops at a file's first match: nul.txt is whole.
		{Amplifier, "grep", map[string]any{"pattern": "a +needle", "glob": "{edge,nul}.txt"}, []string{long}},
		{Amplifier, "grep", map[string]any{"pattern": "a +needle", "glob": "{edge,nul}.txt", "output_mode": "count"}, []string{long, nul}},
		{Amplifier, "grep", map[string]any{"pattern": "a\\s+needle", "path": "big", "multiline": true, "output_mode": "content"}, []string{multi}},
		{Amplifier, "grep", map[string]any{"pattern": "a\\s+needle", "multiline": true, "glob": "{big/big,short}.txt"}, []string{multi}},
		{Amplifier, "grep", map[string]any{"pattern": "a needle", "path": "short.txt"}, nil},
	} {
		in, _ := json.Marshal(c.args)
		env := Call(context.Background(), cfg, c.toolset, c.name, in)
		for _, n := range []string{long, multi, nul} {
			want := strings.Contains(strings.Join(c.notes, "\n"), n)
			if env.Status == scout.StatusError || strings.Contains(env.Text, n) != want {
				t.Errorf("%s/%s %v: %s, note %q shown %v, want %v:\n%.300s", c.toolset, c.name, c.args, env.Status, n, !want, want, env.Text)
			}
		}
		if c.args["multiline"] == nil && strings.Contains(env.Text, "No matches found") {
			t.Errorf("%s/%s %v: %.300s", c.toolset, c.name, c.args, env.Text)
		}
	}
	// The Go API counts them in data, streamed or paged.
	sr := &scout.Searcher{Workspace: scout.Workspace{FS: cfg.FS}}
	res, err := sr.StreamFunc(context.Background(), scout.SearchRequest{Pattern: "a +needle"}, func(*scout.FileMatch) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if res.LongLines != 1 || res.NULStops != 1 || res.MultilineCut != 0 {
		t.Errorf("StreamFunc: LongLines %d, NULStops %d, MultilineCut %d; want 1, 1, 0", res.LongLines, res.NULStops, res.MultilineCut)
	}
	res, err = sr.Search(context.Background(), scout.SearchRequest{Pattern: "a\\s+needle", Multiline: true, MaxFileSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.MultilineCut != 1 {
		t.Errorf("Search multiline: MultilineCut %d, want 1", res.MultilineCut)
	}
}
