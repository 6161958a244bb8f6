package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/testfs"
)

// TestGolden runs every txtar case under testdata/tool/<toolset>/<tool>/.
// A case holds the fixture tree (sections "fs/..."), the arguments
// ("request.json", where $ROOT stands for the project root), optionally the
// host settings ("config.json": style, contextBefore, contextAfter,
// readLimit), and the expected Envelope text ("want.txt") and JSON
// ("want.json"). Each case runs twice, over fstest.MapFS and over the same
// tree written to a temporary directory, and both must give the expected
// output. Run with -update to rewrite the expectations.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("../testdata/tool/*/*/*.txtar")
	if len(files) == 0 {
		t.Skip("no golden cases yet")
	}
	for _, file := range files {
		rel, _ := filepath.Rel("../testdata/tool", file)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		toolset, name := parts[0], parts[1]
		t.Run(strings.TrimSuffix(filepath.ToSlash(rel), ".txtar"), func(t *testing.T) {
			c := testfs.Load(t, file)
			for _, mode := range []string{"mapfs", "dir"} {
				cfg := Config{}
				if conf, ok := c.Section("config.json"); ok {
					var s struct {
						Style                       string
						ContextBefore, ContextAfter int
						ReadLimit                   int
					}
					if err := json.Unmarshal(conf, &s); err != nil {
						t.Fatalf("config.json: %v", err)
					}
					cfg.Style, cfg.ContextBefore, cfg.ContextAfter, cfg.ReadLimit = s.Style, s.ContextBefore, s.ContextAfter, s.ReadLimit
				}
				if mode == "mapfs" {
					cfg.FS, cfg.Root = c.MapFS, "/scout-root"
				} else {
					cfg.Root = testfs.WriteDir(t, c.MapFS)
				}
				req, _ := c.Section("request.json")
				req = bytes.ReplaceAll(req, []byte("$ROOT"), []byte(cfg.Root))
				env := Call(context.Background(), cfg, toolset, name, req)
				got, err := json.MarshalIndent(env, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				text := normalize(env.Text, cfg.Root)
				js := normalize(string(got), cfg.Root)
				if mode == "dir" && testfs.Updating() {
					continue // the MapFS run wrote the expectations; this run must agree
				}
				c.Check(t, "want.txt", []byte(text))
				c.Check(t, "want.json", []byte(js))
			}
		})
	}
}

var (
	reTimeMS  = regexp.MustCompile(`"time_ms": \d+`)
	reScanned = regexp.MustCompile(`in \d+ms\)`)
)

// normalize replaces what differs between runs: the root, timings and ages.
func normalize(s, root string) string {
	s = strings.ReplaceAll(s, root, "$ROOT")
	s = reTimeMS.ReplaceAllString(s, `"time_ms": 0`)
	s = reScanned.ReplaceAllString(s, "in Tms)")
	return s
}
