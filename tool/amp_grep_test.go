package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

// TestAmpGrepLowerBound: a page of 10 over a tree where every line matches
// returns at once; counting total_matches stops at the budget and says so.
func TestAmpGrepLowerBound(t *testing.T) {
	tree := fstest.MapFS{}
	for i := range 1200 {
		tree[fmt.Sprintf("d%02d/f%04d.txt", i%10, i)] = &fstest.MapFile{Data: []byte(strings.Repeat("x\n", 100))}
	}
	env := Call(context.Background(), Config{FS: tree}, Amplifier, "grep", []byte(`{"pattern":"x","output_mode":"content","head_limit":10}`))
	if env.Status != "partial" {
		t.Fatalf("status %s: %s", env.Status, env.Text)
	}
	b, _ := json.Marshal(env.Data)
	var d struct {
		Total      int  `json:"total_matches"`
		Count      int  `json:"matches_count"`
		LowerBound bool `json:"total_is_lower_bound"`
	}
	json.Unmarshal(b, &d)
	if d.Count != 10 || !d.LowerBound || d.Total < ampTotalBudget || d.Total >= 120000 {
		t.Errorf("want 10 results and a lower-bound total of at least %d, got %+v", ampTotalBudget, d)
	}
	if !strings.Contains(env.Text, "[Showing results 1-10 of at least") {
		t.Errorf("the text says the total is a lower bound: %s", env.Text[max(0, len(env.Text)-120):])
	}
}

// TestAmpGrepSizeCap: the host's Searcher.MaxFileSize is the size cap;
// larger files are skipped and counted.
func TestAmpGrepSizeCap(t *testing.T) {
	tree := fstest.MapFS{"big.txt": {Data: []byte(strings.Repeat("x", 200) + "\n")}, "small.txt": {Data: []byte("x\n")}}
	c := Config{FS: tree}
	c.Searcher.MaxFileSize = 100
	env := Call(context.Background(), c, Amplifier, "grep", []byte(`{"pattern":"x"}`))
	if env.Text != "small.txt" || env.Stats.Skipped != 1 {
		t.Errorf("big.txt is over the cap: got %q, skipped %d", env.Text, env.Stats.Skipped)
	}
}

// TestAmpGrepSymlinkOut: a path through a symlink out of the project root
// is ACCESS_DENIED with a message saying so (it passed on the OS's "stat
// out: path escapes from the root").
func TestAmpGrepSymlinkOut(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(root, "out")); err != nil {
		t.Skip("no symlinks:", err)
	}
	env := Call(context.Background(), Config{Root: root}, Amplifier, "grep", []byte(`{"pattern":"x","path":"out"}`))
	want := "Access denied: 'out' leads outside the project root through a symlink. Use a path inside the root."
	if env.Error == nil || env.Error.Code != scout.CodeAccessDenied || env.Text != want {
		t.Errorf("%s %+v %q, want ACCESS_DENIED %q", env.Status, env.Error, env.Text, want)
	}
}

// TestSearchSymlinkLoop: a path that is a symlink loop is INVALID_PARAM
// saying so, in grep and pi search as in find and read (it was an
// INTERNAL_ERROR on the OS's "too many levels of symbolic links").
func TestSearchSymlinkLoop(t *testing.T) {
	root := t.TempDir()
	if err := os.Symlink("b", filepath.Join(root, "a")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink("a", filepath.Join(root, "b")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ toolset, tool, args string }{
		{Amplifier, "grep", `{"pattern":"x","path":"a"}`},
		{Pi, "search", `{"pattern":"x","paths":["a"]}`},
	} {
		env := Call(context.Background(), Config{Root: root}, c.toolset, c.tool, []byte(c.args))
		want := "Too many levels of symlinks in 'a'."
		if env.Error == nil || env.Error.Code != scout.CodeInvalidParam || env.Text != want {
			t.Errorf("%s: %s %+v %q, want INVALID_PARAM %q", c.tool, env.Status, env.Error, env.Text, want)
		}
	}
}

// TestAmpGrepNewline: without multiline a pattern that spells a newline is
// an INVALID_PARAM error that says to pass multiline (ripgrep refuses it
// too); with multiline it matches across lines. A pattern over the cap is
// refused with the cap stated.
func TestAmpGrepNewline(t *testing.T) {
	tree := fstest.MapFS{"a.py": {Data: []byte("def foo():\n    return 1\n")}}
	env := Call(context.Background(), Config{FS: tree}, Amplifier, "grep", []byte(`{"pattern":"foo\\(\\):\\n\\s+return","output_mode":"content"}`))
	if env.Status != scout.StatusError || env.Error.Code != "INVALID_PARAM" || !strings.Contains(env.Error.Message, `"multiline": true`) {
		t.Errorf("without multiline: %+v %+v", env.Status, env.Error)
	}
	env = Call(context.Background(), Config{FS: tree}, Amplifier, "grep", []byte(`{"pattern":"foo\\(\\):\\n\\s+return","output_mode":"content","multiline":true}`))
	if env.Status != scout.StatusSuccess || env.Text != "a.py:1:def foo():\na.py:2:    return 1" {
		t.Errorf("with multiline: %s %q", env.Status, env.Text)
	}
	long, _ := json.Marshal(map[string]string{"pattern": strings.Repeat("x", 70_000)})
	env = Call(context.Background(), Config{FS: tree}, Amplifier, "grep", long)
	if env.Status != scout.StatusError || env.Error.Code != "INVALID_PARAM" || !strings.Contains(env.Error.Message, "over the cap of 65536 bytes") {
		t.Errorf("long pattern: %+v %+v", env.Status, env.Error)
	}
}
