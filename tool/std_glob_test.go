package tool

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
)

func TestStdGlobBreakers(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 20100 {
		m[fmt.Sprintf("f%05d.txt", i)] = &fstest.MapFile{}
	}
	m["a.py"] = &fstest.MapFile{}
	cfg := Config{FS: m}

	env := Call(context.Background(), cfg, Standardized, "Glob", []byte(`{"pattern":"*.go"}`))
	if env.Status != scout.StatusError || env.Error.Code != scout.CodeInternal || !strings.Contains(env.Text, "more than 20000 items") {
		t.Fatalf("no match before the count breaker: %s %+v %q", env.Status, env.Error, env.Text)
	}
	if d := env.Data.(map[string]any); d["aborted_reason"] != "count_limit" {
		t.Errorf("data = %v, want aborted_reason count_limit", d)
	}
	if got := string(env.Context.ParamsInput); got != `{"pattern":"*.go"}` {
		t.Errorf("params_input = %s, want the arguments as given", got)
	}

	env = Call(context.Background(), cfg, Standardized, "Glob", []byte(`{"pattern":"*.py"}`))
	if env.Status != scout.StatusPartial || !strings.Contains(env.Text, "[Partial: Scanned more than 20000 items") {
		t.Fatalf("match before the count breaker: %s %q", env.Status, env.Text)
	}
	if d := env.Data.(map[string]any); d["aborted_reason"] != "count_limit" || fmt.Sprint(d["paths"]) != "[a.py]" {
		t.Errorf("data = %v", d)
	}
	if env.Stats.Visited < 20000 {
		t.Errorf("visited %d, want the breaker's 20000", env.Stats.Visited)
	}

	// Matches past the limit before the breaker: both truncated and aborted.
	env = Call(context.Background(), cfg, Standardized, "Glob", []byte(`{"pattern":"f*.txt","limit":3}`))
	if d := env.Data.(map[string]any); env.Status != scout.StatusPartial || d["truncated"] != true || d["aborted_reason"] != "count_limit" {
		t.Errorf("limit and breaker: %s %v", env.Status, d)
	}
}

// TestRelativeRootAbsolutePath: an absolute path inside the project root is
// accepted when the root is given as a relative path or left to the current
// directory.
func TestRelativeRootAbsolutePath(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "a,b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "a.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	abs := filepath.ToSlash(filepath.Join(dir, "src"))
	for _, tc := range []struct{ root, toolset, name, args string }{
		{".", Standardized, "Glob", `{"pattern":"*.py","path":"` + abs + `"}`},
		{"", Standardized, "Glob", `{"pattern":"*.py","path":"` + abs + `"}`},
		{".", Amplifier, "glob", `{"pattern":"*.py","path":"` + abs + `"}`},
		{".", Pi, "find", `{"paths":["` + abs + `/a,b"]}`}, // an existing name with a comma is one path
	} {
		env := Call(context.Background(), Config{Root: tc.root}, tc.toolset, tc.name, []byte(tc.args))
		if env.Status == scout.StatusError {
			t.Errorf("root %q, %s %s: %s", tc.root, tc.name, tc.args, env.Text)
		}
	}
}
