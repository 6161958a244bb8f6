package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestPiReadListing checks how much of a directory pi read shows: without
// a selector the whole listing up to 3000 rows and 50 KB, cut with a
// notice whose selector, followed, shows the next rows until every entry
// was shown once; with one the selector's rows, an open-ended one the read
// limit's. Over MapFS and a directory.
func TestPiReadListing(t *testing.T) {
	// many: 1201 rows of about 30 bytes. flat: 4001 rows of 13 bytes over
	// MapFS (no times, so neither size nor age is shown), of about 30
	// over a directory. long: 401 rows of 224 bytes.
	m := fstest.MapFS{}
	for i := range 400 {
		m[fmt.Sprintf("many/d%03d/a", i)] = &fstest.MapFile{Mode: 0o644, ModTime: testfs.Epoch}
		m[fmt.Sprintf("many/d%03d/b", i)] = &fstest.MapFile{Mode: 0o644, ModTime: testfs.Epoch}
		m[fmt.Sprintf("long/%03d%s", i, strings.Repeat("n", 197))] = &fstest.MapFile{Mode: 0o644, ModTime: testfs.Epoch}
	}
	for i := range 4000 {
		m[fmt.Sprintf("flat/f%04d", i)] = &fstest.MapFile{Mode: 0o644}
	}
	type want struct {
		status  scout.Status
		notice  string // the text's last line; "" when the listing is whole
		trunc   string // data.truncation as JSON; "" for none
		metaCut string // data.meta.truncation.truncatedBy; "" for none
		rows    int    // rows shown, "." included
	}
	tests := []struct {
		name, path string
		want       want
	}{
		{"over 300 rows, whole", "many", want{status: scout.StatusSuccess, rows: 1201}},
		{"over 3000 rows", "flat", want{status: scout.StatusPartial, notice: "[Showing lines 1-3000 of 4001. Use :3001 to continue]",
			trunc: `{"reason":"lines","startLine":1,"endLine":3000,"totalLines":4001,"totalBytes":56001,"nextOffset":3001}`, metaCut: "lines", rows: 3000}},
		{"over 50 KB", "long", want{status: scout.StatusPartial, notice: "[Showing lines 1-228 of 401 (50KB limit). Use :229 to continue]",
			trunc: `{"reason":"bytes","startLine":1,"endLine":228,"totalLines":401,"totalBytes":90001,"nextOffset":229,"byteLimit":51200}`, metaCut: "bytes", rows: 228}},
		{"a range", "many:1-5", want{status: scout.StatusSuccess, notice: "[1196 more lines in listing. Use :6 to continue]", rows: 5}},
		{"an open range: the read limit", "many:301", want{status: scout.StatusPartial, notice: "[Showing lines 301-600 of 1201. Use :601 to continue]",
			trunc: `{"reason":"lines","startLine":301,"endLine":600,"totalLines":1201,"totalBytes":28001,"nextOffset":601}`, metaCut: "lines", rows: 300}},
	}
	dir := testfs.WriteDir(t, m)
	for _, tt := range tests {
		for _, mode := range []string{"mapfs", "dir"} {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				cfg := Config{Now: func() time.Time { return testfs.Epoch }}
				if mode == "mapfs" {
					cfg.FS, cfg.Root = m, "/r"
				} else {
					cfg.Root = dir
				}
				env, d := piReadListing(t, cfg, tt.path)
				res := d.Result
				if mode == "dir" && tt.path == "flat" {
					// Rows with an age: 50 KB comes first.
					assert.Equal(t, scout.TruncBytes, res.Truncated)
					assert.Less(t, len(res.Blocks[0].Lines), 3000)
					return
				}
				assert.Equal(t, tt.want.status, env.Status)
				lastLine := env.Text[strings.LastIndexByte(env.Text, '\n')+1:]
				if tt.want.notice == "" {
					assert.NotContains(t, env.Text, "[Showing", "a whole listing has no notice")
				} else {
					assert.Equal(t, tt.want.notice, lastLine)
				}
				assert.Equal(t, tt.want.rows, len(res.Blocks[0].Lines))
				trunc := ""
				if d.Truncation != nil {
					b, _ := json.Marshal(d.Truncation)
					trunc = string(b)
				}
				if mode == "mapfs" {
					assert.Equal(t, tt.want.trunc, trunc, "data.truncation")
				}
				metaCut := ""
				if d.Meta != nil && d.Meta.Truncation != nil {
					metaCut = d.Meta.Truncation.TruncatedBy
				}
				assert.Equal(t, tt.want.metaCut, metaCut, "data.meta.truncation")
			})
		}
	}

	// Following the notices lists every entry once, in order.
	for _, path := range []string{"many", "flat", "long"} {
		for _, mode := range []string{"mapfs", "dir"} {
			t.Run("follow "+path+"/"+mode, func(t *testing.T) {
				cfg := Config{Now: func() time.Time { return testfs.Epoch }}
				if mode == "mapfs" {
					cfg.FS, cfg.Root = m, "/r"
				} else {
					cfg.Root = dir
				}
				next := regexp.MustCompile(`Use :(\d+) to continue\]$`)
				var seen []string
				sel, calls := "", 0
				for ; calls < 20; calls++ {
					env, d := piReadListing(t, cfg, path+sel)
					for _, e := range d.Result.Entries {
						seen = append(seen, e.Path)
					}
					got := next.FindStringSubmatch(env.Text)
					if got == nil {
						break
					}
					n, _ := strconv.Atoi(got[1])
					require.Equal(t, d.Result.Next, n, "the notice's selector continues where the data says")
					sel = ":" + got[1]
				}
				want := 0
				for name := range m {
					if strings.HasPrefix(name, path+"/") {
						want++
					}
				}
				if path == "many" {
					want += 400 // the subdirectories
				}
				require.Len(t, seen, want, "every entry shown once")
				slices.Sort(seen)
				require.Len(t, slices.Compact(seen), want, "no entry shown twice")
			})
		}
	}
}

// piReadListing calls pi read on path and returns its Envelope and data.
func piReadListing(t *testing.T, cfg Config, path string) (*scout.Envelope, *piReadData) {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"path": path})
	env := Call(context.Background(), cfg, Pi, "read", args)
	require.Nil(t, env.Error, "read %s", path)
	d := env.Data.(*piReadData)
	require.Equal(t, scout.ReadKindDirectory, d.Result.Kind)
	return env, d
}

// TestPiReadArchiveListing checks that an archive's listing keeps its own
// cap of 500 entries (the listing limit of a directory does not apply),
// and that its notice, followed, lists the rest.
func TestPiReadArchiveListing(t *testing.T) {
	ms := make([]testfs.Member, 600)
	for i := range ms {
		ms[i] = testfs.Member{Name: fmt.Sprintf("m%03d.txt", i), Body: "x\n"}
	}
	cfg := Config{FS: fstest.MapFS{"a.zip": {Data: testfs.Zip(ms...)}}, Root: "/r"}
	read := func(path string) (*scout.Envelope, *scout.ReadResult) {
		args, _ := json.Marshal(map[string]string{"path": path})
		env := Call(context.Background(), cfg, Pi, "read", args)
		require.Nil(t, env.Error, "read %s", path)
		res := env.Data.(*piReadData).Result
		require.Equal(t, scout.ReadKindArchive, res.Kind)
		return env, res
	}
	env, res := read("a.zip")
	assert.Equal(t, scout.StatusPartial, env.Status)
	assert.Len(t, res.Entries, 500)
	assert.Equal(t, 501, res.Next)
	assert.Equal(t, 100, res.Unlisted)
	assert.Equal(t, &piReached{Reached: 500}, env.Data.(*piReadData).Meta.Limits.ResultLimit)
	got := regexp.MustCompile(`Use (\S+) to continue\]$`).FindStringSubmatch(env.Text)
	require.NotNil(t, got, "a notice names the selector that continues:\n%s", env.Text[max(0, len(env.Text)-200):])
	env, res = read(got[1])
	assert.Equal(t, scout.StatusSuccess, env.Status)
	require.Len(t, res.Entries, 100)
	assert.Equal(t, 501, res.Entries[0].Line)
	assert.Equal(t, "m599.txt", res.Entries[99].Path)
	assert.NotContains(t, env.Text, "to continue")
}
