package tool

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
)

// TestPiFindRefusesOSRoot: with the project root at "/", a find that would
// walk "/" is refused with pi's error, before any walk.
func TestPiFindRefusesOSRoot(t *testing.T) {
	for _, args := range []string{
		`{"paths":["/"],"timeout":0.5}`,                      // the root itself
		`{"paths":["*.scout-none"],"timeout":0.5}`,           // a bare glob searches from the root
		`{"paths":["/etc/*.conf","/usr/*.h"],"timeout":0.5}`, // the bases share only the root
	} {
		env := Call(context.Background(), Config{Root: "/"}, Pi, "find", []byte(args))
		if env.Status != scout.StatusError || env.Error.Code != scout.CodeInvalidParam ||
			!strings.HasPrefix(env.Text, "Searching from root directory '/' is not allowed") {
			t.Errorf("%s: %s %q", args, env.Status, env.Text)
		}
	}
}

// slowFS delays every directory read, so that a walk outlasts a timeout.
type slowFS struct{ fstest.MapFS }

func (s slowFS) ReadDir(name string) ([]fs.DirEntry, error) {
	time.Sleep(150 * time.Millisecond)
	return s.MapFS.ReadDir(name)
}

// TestPiFindTimeout: at the timeout, the matches found so far are returned
// as a partial, truncated result with pi's notice.
func TestPiFindTimeout(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 20 {
		m[fmt.Sprintf("d%02d/f.txt", i)] = &fstest.MapFile{}
	}
	env := Call(context.Background(), Config{FS: slowFS{m}}, Pi, "find", []byte(`{"paths":["**/*.txt"],"timeout":0.5}`))
	d, _ := env.Data.(map[string]any)
	n, _ := d["fileCount"].(int)
	notice := fmt.Sprintf("find timed out after 0.5s; returning %d partial matches — increase timeout or narrow pattern", n)
	if env.Status != scout.StatusPartial || d["truncated"] != true || !strings.Contains(env.Text, notice) || n >= 20 {
		t.Errorf("%s %v %q, want a partial result with %q", env.Status, d, env.Text, notice)
	}
}
