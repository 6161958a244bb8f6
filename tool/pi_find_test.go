package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/testfs"
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

// TestPiFindTimeout: at the timeout, the matches found so far are returned
// as a partial, truncated result with pi's notice; a timeout under 0.5 s is
// clamped to 0.5 s, not refused.
func TestPiFindTimeout(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 20 {
		m[fmt.Sprintf("d%02d/f.txt", i)] = &fstest.MapFile{}
	}
	for _, timeout := range []string{"0.5", "0.1", "0", "-1e400"} { // -1e400: -Infinity to JSON.parse
		t.Run(timeout, func(t *testing.T) {
			t.Parallel()
			env := Call(context.Background(), Config{FS: testfs.SlowFS{MapFS: m, Delay: 150 * time.Millisecond}}, Pi, "find", []byte(`{"paths":["**/*.txt"],"timeout":`+timeout+`}`))
			d, ok := env.Data.(*piFindData)
			if !ok {
				t.Fatalf("data %T (%q), want *piFindData", env.Data, env.Text)
			}
			notice := fmt.Sprintf("find timed out after 0.5s; returning %d partial matches — increase timeout or narrow pattern", d.FileCount)
			if env.Status != scout.StatusPartial || !d.Truncated || !strings.Contains(env.Text, notice) || d.FileCount >= 20 {
				t.Errorf("%s %+v %q, want a partial result with %q", env.Status, d, env.Text, notice)
			}
		})
	}
	// "No files found matching pattern, optionally followed by a timeout
	// ... notice": nothing found before the timeout.
	env := Call(context.Background(), Config{FS: testfs.SlowFS{MapFS: m, Delay: 150 * time.Millisecond}}, Pi, "find", []byte(`{"paths":["**/*.zz"],"timeout":0.5}`))
	want := "No files found matching pattern\nfind timed out after 0.5s; returning 0 partial matches — increase timeout or narrow pattern"
	if env.Status != scout.StatusPartial || env.Text != want {
		t.Errorf("nothing found: %s %q, want partial %q", env.Status, env.Text, want)
	}
}

// TestPiFindMeta: a result limit and the 50 KB cap show in data as pi's
// details.meta (limits.resultLimit, truncation) and details.truncation.
func TestPiFindMeta(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 200 {
		m[fmt.Sprintf("%s%03d/%s.txt", strings.Repeat("d", 200), i, strings.Repeat("n", 250))] = &fstest.MapFile{}
	}
	env := Call(context.Background(), Config{FS: m}, Pi, "find", []byte(`{"paths":["**/*.txt"],"limit":150}`))
	js, _ := json.Marshal(env.Data)
	js = js[bytes.Index(js, []byte(`],`))+2:] // after the files
	for _, want := range []string{
		`"limits":{"resultLimit":{"reached":150}}`,
		`"truncation":{"direction":"head","truncatedBy":"bytes"`,
		`"resultLimitReached":true`,
	} {
		if !strings.Contains(string(js), want) {
			t.Errorf("data %s\nlacks %s", js, want)
		}
	}
	// The hint names what shows the rest: a lower limit only shows fewer of
	// the same newest paths.
	if !strings.Contains(env.Text, "(50KB limit). Narrow the pattern or paths to see the rest") || strings.Count(string(js), `"truncation":`) != 2 {
		t.Errorf("text ending %q\ndata %s: want the cap notice, and truncation in data and data.meta", env.Text[max(0, len(env.Text)-200):], js)
	}
}

// TestPiFindInternalURL: find takes an internal URL with a backing file and
// refuses a glob in one with search's error.
func TestPiFindInternalURL(t *testing.T) {
	m := fstest.MapFS{"skills/x.md": &fstest.MapFile{Data: []byte("x\n")}}
	res := scout.Resolver(resolverFunc(func(url string) *scout.Resource { return &scout.Resource{SourcePath: "skills/x.md"} }))
	cfg := Config{FS: m}
	cfg.Resolvers = map[string]scout.Resolver{"skill": res}
	env := Call(context.Background(), cfg, Pi, "find", []byte(`{"paths":["skill://x"]}`))
	if env.Status != scout.StatusSuccess || env.Text != "skills/x.md" {
		t.Errorf("skill://x: %s %q, want the backing file", env.Status, env.Text)
	}
	env = Call(context.Background(), cfg, Pi, "find", []byte(`{"paths":["skill://*"]}`))
	if env.Status != scout.StatusError || !strings.Contains(env.Text, "Glob patterns are not supported for internal URLs: skill://*") {
		t.Errorf("skill://*: %s %q, want the glob refused", env.Status, env.Text)
	}
}

type resolverFunc func(url string) *scout.Resource

func (f resolverFunc) Resolve(_ context.Context, url string) (*scout.Resource, error) {
	return f(url), nil
}

// piOps is a FindOperations over a list of paths that records what Glob
// was given and applies its ignore globs.
type piOps struct {
	paths []string
	globs []scout.GlobOptions
}

func (o *piOps) Exists(_ context.Context, p string) (bool, error) {
	for _, q := range o.paths {
		if p == "." || q == p || strings.HasPrefix(q, p+"/") {
			return true, nil
		}
	}
	return false, nil
}

func (o *piOps) Glob(_ context.Context, pattern, dir string, opt scout.GlobOptions) ([]string, error) {
	o.globs = append(o.globs, opt)
	g, err := glob.Compile(pattern)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, q := range o.paths {
		rel, ok := strings.CutPrefix(q, dir+"/")
		if dir == "." {
			rel, ok = q, true
		}
		if ok && g.Match(rel) && !o.ignored(q, opt.Ignore) {
			out = append(out, rel)
		}
	}
	return out, nil
}

// ignored reports whether one of the ignore globs matches q, as a
// delegate applies them.
func (o *piOps) ignored(q string, ignore []string) bool {
	for _, i := range ignore {
		if g, err := glob.Compile(i); err == nil && g.Match(q) {
			return true
		}
	}
	return false
}

// TestPiFindOperations: with Config.FindOperations, pi find is the seed's
// custom operations branch: discovery through the host's delegate, whose
// Glob always gets pi's ignore list (node_modules and .git, even where a
// path names node_modules) and the limit, and a missing path fails the
// call even among several ("The custom-operations branch hard-fails the
// first missing searchPath it checks").
func TestPiFindOperations(t *testing.T) {
	ignore := []string{"**/node_modules/**", "**/.git/**"} // pi's list, in its order
	tests := []struct {
		args      string
		want      []string // files; nil: an error
		code      scout.Code
		text      string
		wantLimit int
	}{
		{args: `{"paths":["src/*.ts"]}`, want: []string{"src/a.ts"}, wantLimit: 200},
		{args: `{"paths":["node_modules/**/*.ts"],"limit":5}`, want: []string{}, wantLimit: 5},
		{args: `{"paths":["src/*.ts","lib/*.ts"]}`, want: []string{"lib/b.ts", "src/a.ts"}, wantLimit: 200},
		{args: `{"paths":["src/*.ts","nope/*.ts"]}`, code: scout.CodeNotFound, text: "Path not found: nope"},
		{args: `{"paths":["nope"]}`, code: scout.CodeNotFound, text: "Path not found: nope"},
	}
	for _, tt := range tests {
		ops := &piOps{paths: []string{"src/a.ts", "lib/b.ts", "node_modules/m/x.ts"}}
		env := Call(context.Background(), Config{FS: fstest.MapFS{}, FindOperations: ops}, Pi, "find", []byte(tt.args))
		if tt.want == nil {
			if env.Status != scout.StatusError || env.Error.Code != tt.code || env.Text != tt.text {
				t.Errorf("%s: %s %q, want %s %q", tt.args, env.Status, env.Text, tt.code, tt.text)
			}
			continue
		}
		d, ok := env.Data.(*piFindData)
		if !ok {
			t.Fatalf("%s: data %T (%q)", tt.args, env.Data, env.Text)
		}
		got := slices.Sorted(slices.Values(d.Files))
		assert.Equal(t, tt.want, append([]string{}, got...), tt.args)
		for _, g := range ops.globs {
			assert.Equal(t, scout.GlobOptions{Ignore: ignore, Limit: tt.wantLimit}, g, tt.args)
		}
	}
}

// piStatOps is piOps that can also Stat: each path's time is given by
// mtime (unix seconds).
type piStatOps struct {
	piOps
	mtime map[string]int64
}

func (o *piStatOps) Stat(_ context.Context, p string) (fs.FileInfo, error) {
	m := fstest.MapFS{}
	for q, t := range o.mtime {
		m[q] = &fstest.MapFile{ModTime: time.Unix(t, 0)}
	}
	return fs.Stat(m, p)
}

// TestPiFindOperationsOrder: the custom operations branch lists the paths
// in the order the delegate answered them, not by modification time or
// path (only the built-in local branch sorts, newest first), and a
// delegate answering more than the limit is cut in that order.
func TestPiFindOperationsOrder(t *testing.T) {
	answer := []string{"src/z.ts", "lib/b.ts", "src/a.ts"}
	mtime := map[string]int64{"src/z.ts": 1, "lib/b.ts": 3, "src/a.ts": 2} // newest first would be b, a, z
	tests := []struct {
		name string
		ops  scout.FindOperations
		args string
		want []string
		text string
	}{
		{"no stat", &piOps{paths: answer}, `{"paths":["**/*.ts"]}`, answer, "# src/\nz.ts\na.ts\n\n# lib/\nb.ts"},
		{"stat", &piStatOps{piOps{paths: answer}, mtime}, `{"paths":["**/*.ts"]}`, answer, ""},
		{"below a base", &piStatOps{piOps{paths: answer}, mtime}, `{"paths":["src/*.ts"]}`, []string{"src/z.ts", "src/a.ts"}, "# src/\nz.ts\na.ts"},
		{"over the limit", &piStatOps{piOps{paths: answer}, mtime}, `{"paths":["**/*.ts"],"limit":2}`, answer[:2], ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := Call(context.Background(), Config{FS: fstest.MapFS{}, FindOperations: tt.ops}, Pi, "find", []byte(tt.args))
			d, ok := env.Data.(*piFindData)
			if !ok {
				t.Fatalf("data %T (%q)", env.Data, env.Text)
			}
			assert.Equal(t, tt.want, d.Files)
			if tt.text != "" {
				assert.Equal(t, tt.text, env.Text)
			}
		})
	}
}
