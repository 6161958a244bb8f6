package scout_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/testfs"
	"github.com/scoutkit/scout/tool"
)

// goldenNow is the clock of the golden cases: two days after the fixtures'
// modification times.
var goldenNow = testfs.Epoch.Add(48 * time.Hour)

// TestReadGolden runs every case in testdata/read. A case holds the fixture
// tree ("fs/..."), the path to read ("path", where $ROOT stands for the
// root), optional options ("options.json": style, limit, noSummaries,
// imageMetadataOnly), the expected text ("want.txt"), which for an error
// is "error CODE: message", and the Envelope of the pi read tool for the
// same call ("want.json"). Each case runs over fstest.MapFS and over the
// same tree in a temporary directory.
func TestReadGolden(t *testing.T) {
	for _, file := range testfs.Cases(t, "testdata/read/*.txtar") {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			c := testfs.Load(t, file)
			var opts struct {
				Style             string
				Limit             int
				NoSummaries       bool
				ImageMetadataOnly bool
			}
			if o, ok := c.Section("options.json"); ok {
				if err := json.Unmarshal(o, &opts); err != nil {
					t.Fatalf("options.json: %v", err)
				}
			}
			p, ok := c.Section("path")
			if !ok {
				t.Fatal("no path section")
			}
			for _, mode := range []string{"mapfs", "dir"} {
				r := scout.Reader{DefaultLimit: opts.Limit, NoSummaries: opts.NoSummaries, ImageMetadataOnly: opts.ImageMetadataOnly,
					Now: func() time.Time { return goldenNow }}
				if mode == "mapfs" {
					r.FS, r.Root = c.MapFS, "/scout-root"
				} else {
					r.Root = testfs.WriteDir(t, c.MapFS)
				}
				path := strings.ReplaceAll(strings.TrimSuffix(string(p), "\n"), "$ROOT", r.Root)
				res, err := r.Read(context.Background(), scout.ReadRequest{Path: path})
				var got string
				if err != nil {
					var se *scout.Error
					if !errors.As(err, &se) {
						t.Fatalf("%s: error %v is not a *scout.Error", mode, err)
					}
					got = "error " + string(se.Code) + ": " + se.Message
				} else {
					got = format.ReadText(res, &format.ReadOptions{Style: opts.Style})
				}
				got = strings.ReplaceAll(got, r.Root, "$ROOT")
				cfg := tool.Config{FS: r.FS, Root: r.Root, Style: opts.Style, ReadLimit: opts.Limit,
					NoSummaries: r.NoSummaries, ImageMetadataOnly: r.ImageMetadataOnly, Now: r.Now}
				args, _ := json.Marshal(map[string]string{"path": path})
				env := tool.Call(context.Background(), cfg, tool.Pi, "read", args)
				env.Stats.TimeMS = 0
				js, err := json.MarshalIndent(env, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				js = bytes.ReplaceAll(js, []byte(r.Root), []byte("$ROOT"))
				if mode == "dir" && testfs.Updating() {
					continue // the MapFS run wrote the expectations; this run must agree
				}
				c.Check(t, "want.txt", []byte(got))
				c.Check(t, "want.json", js)
			}
		})
	}
}
