package scout_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/pitext"
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
// same call ("want.json"). The text is read as the pi tool reads it, a
// range widened by 1 line before and 3 after, pi's directories pruned
// from listings and a missing path found by suffix match, so that both
// show the same lines (TestReadExact checks the exact reads,
// TestReaderHostSettings the zero Reader's listings and missing paths). Each case runs over
// fstest.MapFS and over the same tree in a temporary directory.
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
					Now: func() time.Time { return goldenNow }, PruneDirs: pitext.ReadPruneDirs, SuffixMatch: true}
				if mode == "mapfs" {
					r.FS, r.Root = c.MapFS, "/scout-root"
				} else {
					r.Root = testfs.WriteDir(t, c.MapFS)
				}
				path := strings.ReplaceAll(strings.TrimSuffix(string(p), "\n"), "$ROOT", r.Root)
				res, err := r.Read(context.Background(), scout.ReadRequest{Path: path, Before: 1, After: 3})
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

// TestReadExact checks that a range reads exactly its lines from every
// source, and that Before and After widen a single range only.
func TestReadExact(t *testing.T) {
	var text strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&text, "l%d\n", i)
	}
	src := []byte(text.String())
	files := map[string][]byte{"f.txt": src, "d.pdf": src, "a.zip": testfs.Zip(testfs.Member{Name: "top.txt", Body: string(src)})}
	setup := func(r *scout.Reader) {
		r.Converters = map[string]scout.Converter{".pdf": upper{}}
		r.Resolvers = map[string]scout.Resolver{"memory": memResolver{"memory://n": {Text: text.String(), Immutable: true}}}
		r.Fetcher = &mapFetcher{pages: map[string]string{"https://x.example/t": text.String()}}
	}
	tests := []struct {
		path          string
		before, after int
		first, last   int // the first and last line shown
		blocks        int
		why           string
	}{
		{"f.txt:30-40", 0, 0, 30, 40, 1, "a file"},
		{"f.txt:30", 0, 0, 30, 50, 1, "an open-ended range"},
		{"a.zip:top.txt:30-40", 0, 0, 30, 40, 1, "an archive member"},
		{"d.pdf:30-40", 0, 0, 30, 40, 1, "a converted document"},
		{"memory://n:30-40", 0, 0, 30, 40, 1, "an internal URL"},
		{"https://x.example/t:30-40", 0, 0, 30, 40, 1, "a web URL (its header counts as lines)"},
		{"f.txt:30-40", 1, 3, 29, 43, 1, "Before and After widen the range"},
		{"f.txt:30", 1, 3, 29, 50, 1, "an open end gets no After"},
		{"f.txt:1-5", 2, 0, 1, 5, 1, "Before stops at line 1"},
		{"f.txt:30-40:raw", 1, 3, 30, 40, 1, "a raw range is exact"},
		{"f.txt:3-4,30-40", 1, 3, 3, 40, 2, "a list of ranges is exact"},
	}
	for _, tt := range tests {
		r := scout.Reader{Workspace: scout.Workspace{FS: mapFS(files)}}
		setup(&r)
		res, err := r.Read(context.Background(), scout.ReadRequest{Path: tt.path, Before: tt.before, After: tt.after})
		require.NoError(t, err, tt.path)
		require.Len(t, res.Blocks, tt.blocks, tt.why)
		first, last := res.Blocks[0], res.Blocks[len(res.Blocks)-1]
		assert.Equal(t, tt.first, first.Lines[0].N, "%s %d/%d: %s", tt.path, tt.before, tt.after, tt.why)
		assert.Equal(t, tt.last, last.Lines[len(last.Lines)-1].N, "%s %d/%d: %s", tt.path, tt.before, tt.after, tt.why)
	}
	r := scout.Reader{Workspace: scout.Workspace{FS: mapFS(files)}}
	_, err := r.Read(context.Background(), scout.ReadRequest{Path: "f.txt:3", After: -1})
	assert.Equal(t, scout.CodeInvalidParam, scout.CodeOf(err), "a negative context is an error")
}

// mapFS makes an fstest.MapFS of files.
func mapFS(files map[string][]byte) fstest.MapFS {
	m := fstest.MapFS{}
	for name, data := range files {
		m[name] = &fstest.MapFile{Data: data, Mode: 0o644, ModTime: testfs.Epoch}
	}
	return m
}
