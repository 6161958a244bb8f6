package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

// TestLongLinesNote: a search over a file with a line over 4 MiB, which is
// searched in 4 MiB windows, says so in pi search and amplifier grep,
// with a match and without one: a match across a window edge was missed
// with only "No matches found" to show for it.
func TestLongLinesNote(t *testing.T) {
	cfg := Config{FS: fstest.MapFS{
		"edge.txt":  {Data: []byte(strings.Repeat("a", 4<<20-1) + " needle\n")},
		"short.txt": {Data: []byte("a needle\n")},
	}}
	const note = "1 file has a line over 4 MiB, searched in 4 MiB windows: a match that crosses a window edge is missed."
	for _, c := range []struct {
		toolset, name string
		args          map[string]any
		note          bool
	}{
		{Pi, "search", map[string]any{"pattern": "a needle"}, true},
		{Pi, "search", map[string]any{"pattern": "a needle", "paths": []string{"edge.txt"}}, true},
		{Pi, "search", map[string]any{"pattern": "a needle", "paths": []string{"short.txt"}}, false},
		{Amplifier, "grep", map[string]any{"pattern": "a needle", "output_mode": "content"}, true},
		{Amplifier, "grep", map[string]any{"pattern": "a needle"}, true},
		{Amplifier, "grep", map[string]any{"pattern": "a needle", "output_mode": "count"}, true},
		{Amplifier, "grep", map[string]any{"pattern": "a needle", "path": "edge.txt", "output_mode": "content"}, true},
		{Amplifier, "grep", map[string]any{"pattern": "a needle", "path": "short.txt"}, false},
	} {
		in, _ := json.Marshal(c.args)
		env := Call(context.Background(), cfg, c.toolset, c.name, in)
		if env.Status == scout.StatusError || strings.Contains(env.Text, note) != c.note {
			t.Errorf("%s/%s %v: %s, note %v, want %v:\n%s", c.toolset, c.name, c.args, env.Status, !c.note, c.note, env.Text)
		}
	}
	// The Go API counts them in data, streamed or paged.
	sr := &scout.Searcher{Workspace: scout.Workspace{FS: cfg.FS}}
	res, err := sr.StreamFunc(context.Background(), scout.SearchRequest{Pattern: "a needle"}, func(*scout.FileMatch) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if res.LongLines != 1 {
		t.Errorf("StreamFunc: LongLines %d, want 1", res.LongLines)
	}
	res, err = sr.Search(context.Background(), scout.SearchRequest{Pattern: "a needle", Paths: []string{"short.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.LongLines != 0 {
		t.Errorf("Search of short.txt: LongLines %d, want 0", res.LongLines)
	}
}
