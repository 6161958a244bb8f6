//go:build unix

package tool

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scoutkit/scout"
)

// TestSpecialFiles passes a FIFO, character devices (a copy of /dev/zero,
// which never ends, and of /dev/null; made when the test may) and links
// to devices, as paths and inside a walked directory, to every tool: no
// call blocks, reads a device or follows a link; a read is refused as
// not a regular file, a search counts them as not searched, and a listing
// names them.
func TestSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "a.txt"), "hit\n")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	special := []string{"fifo"}
	// Devices need privileges; without them the FIFO and the links stay.
	if syscall.Mknod(filepath.Join(dir, "zero"), syscall.S_IFCHR|0o644, 1<<8|5) == nil &&
		syscall.Mknod(filepath.Join(dir, "null"), syscall.S_IFCHR|0o644, 1<<8|3) == nil {
		special = append(special, "zero", "null")
	}
	for name, target := range map[string]string{"devzero": "/dev/zero", "stdin": "/dev/stdin"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := Config{Root: dir}
	call := func(toolset, name string, args map[string]any) *scout.Envelope {
		t.Helper()
		in, _ := json.Marshal(args)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		start := time.Now()
		env := Call(ctx, cfg, toolset, name, in)
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s/%s %v took %v: it blocked on a special file", toolset, name, args, d)
		}
		return env
	}
	for _, p := range special {
		if env := call(Pi, "read", map[string]any{"path": p}); env.Error == nil || env.Error.Code != scout.CodeUnsupported || !strings.Contains(env.Text, "not a regular file") {
			t.Errorf("read %s: %s %+v, want UNSUPPORTED: not a regular file", p, env.Status, env.Error)
		}
		for _, c := range []struct{ toolset, name string }{{Pi, "search"}, {Amplifier, "grep"}} {
			args := map[string]any{"pattern": "hit", "paths": []string{p}}
			if c.name == "grep" {
				args = map[string]any{"pattern": "hit", "path": p}
			}
			if env := call(c.toolset, c.name, args); env.Status == scout.StatusError || !strings.Contains(env.Text, "Not searched: 1 special") {
				t.Errorf("%s %s: %s %q, want no match and 1 special not searched", c.name, p, env.Status, env.Text)
			}
		}
		if env := call(Pi, "find", map[string]any{"paths": []string{p}}); env.Status != scout.StatusSuccess || strings.TrimSpace(env.Text) != p {
			t.Errorf("find %s: %s %q, want it listed", p, env.Status, env.Text)
		}
	}
	for _, p := range []string{"devzero", "stdin"} {
		for _, c := range pathCalls {
			if env := call(c.toolset, c.name, c.args(p)); env.Error == nil || env.Error.Code != scout.CodeAccessDenied {
				t.Errorf("%s/%s %s: %s %+v, want ACCESS_DENIED (the link leads out of the root)", c.toolset, c.name, p, env.Status, env.Error)
			}
		}
	}
	// Walking the directory passes them by.
	for _, c := range []struct {
		toolset, name string
		args          map[string]any
		want          string
	}{
		{Pi, "search", map[string]any{"paths": ".", "pattern": "hit"}, "a.txt"},
		{Amplifier, "grep", map[string]any{"pattern": "hit", "output_mode": "content"}, "a.txt:1:hit"},
		{Pi, "find", map[string]any{"paths": []string{"*"}}, "fifo"},
		{Amplifier, "glob", map[string]any{"pattern": "*"}, "fifo"},
		{Standardized, "Glob", map[string]any{"pattern": "*"}, "fifo"},
		{Pi, "read", map[string]any{"path": "."}, "fifo"},
	} {
		if env := call(c.toolset, c.name, c.args); env.Status == scout.StatusError || !strings.Contains(env.Text, c.want) {
			t.Errorf("%s/%s of the directory: %s %q, want %q", c.toolset, c.name, env.Status, env.Text, c.want)
		}
	}
}
