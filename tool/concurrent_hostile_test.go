package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// mixedCalls are calls of every tool over mixedTree.
var mixedCalls = []struct {
	toolset, name, args string
}{
	{Pi, "search", `{"paths":".","pattern":"func \\w+"}`},
	{Pi, "search", `{"pattern":"TODO","paths":["src/","docs/*.md"],"i":true}`},
	{Pi, "search", `{"pattern":"member","paths":["pkg.zip"]}`},
	{Pi, "read", `{"path":"src/a.go"}`},
	{Pi, "read", `{"path":"src/a.go:2-3"}`},
	{Pi, "read", `{"path":"src"}`},
	{Pi, "read", `{"path":"pkg.zip:in/m.txt"}`},
	{Pi, "read", `{"path":"nb.ipynb"}`},
	{Pi, "read", `{"path":"missing.txt"}`},
	{Pi, "find", `{"paths":["**/*.go"]}`},
	{Pi, "find", `{"paths":["src/","docs/"],"limit":3}`},
	{Amplifier, "grep", `{"pattern":"func","output_mode":"content","-n":true,"-C":1}`},
	{Amplifier, "grep", `{"pattern":"todo","-i":true,"output_mode":"count"}`},
	{Amplifier, "glob", `{"pattern":"**/*.md"}`},
	{Standardized, "Glob", `{"pattern":"**/*"}`},
	{Standardized, "Glob", `{"pattern":"src/*.go","limit":1}`},
}

func mixedTree(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{
		"pkg.zip":    {Data: testfs.Zip(testfs.Member{Name: "in/m.txt", Body: "a member line\n"})},
		"nb.ipynb":   {Data: []byte(`{"cells":[{"cell_type":"code","source":["print(1)\n"],"outputs":[]},{"cell_type":"markdown","source":"# TODO notes"}],"nbformat":4,"nbformat_minor":5}`)},
		"docs/a.md":  {Data: []byte("# Docs\nTODO: write\n")},
		"docs/b.md":  {Data: []byte("nothing here\n")},
		".hidden.go": {Data: []byte("package hidden\nfunc H() {}\n")},
	}
	for i := range 12 {
		m[fmt.Sprintf("src/f%02d.go", i)] = &fstest.MapFile{Data: fmt.Appendf(nil, "package src\n\nfunc F%d() int { return %d } // todo %d\n", i, i, i)}
	}
	m["src/a.go"] = &fstest.MapFile{Data: []byte("package src\n\nfunc A() {}\n// TODO: more\nfunc B() {}\n")}
	for p, f := range m {
		f.ModTime = time.Date(2024, 1, 1, 0, 0, len(p), 0, time.UTC) // a fixed order by mtime
	}
	return m
}

// elapsed is the time the standardized Glob's text gives.
var elapsed = regexp.MustCompile(`in [0-9]+ms\)`)

// canonical is an Envelope's JSON without its timings.
func canonical(t *testing.T, env *scout.Envelope) string {
	t.Helper()
	env.Stats.TimeMS = 0
	env.Text = elapsed.ReplaceAllString(env.Text, "in (time))")
	b, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestConcurrentEqualsSerial runs the mixed calls serially, then 64 at
// once (each call four times) through one Config, over an fstest.MapFS
// and a temporary directory: every concurrent Envelope equals the serial
// one (run under -race, the calls share no unguarded state).
func TestConcurrentEqualsSerial(t *testing.T) {
	m := mixedTree(t)
	dir := t.TempDir()
	for p, f := range m {
		writeTestFile(t, filepath.Join(dir, p), string(f.Data))
		if err := os.Chtimes(filepath.Join(dir, p), f.ModTime, f.ModTime); err != nil {
			t.Fatal(err)
		}
	}
	for name, cfg := range map[string]Config{"MapFS": {FS: m}, "OS": {Root: dir}} {
		serial := make([]string, len(mixedCalls))
		for i, c := range mixedCalls {
			serial[i] = canonical(t, Call(context.Background(), cfg, c.toolset, c.name, []byte(c.args)))
			if strings.Contains(serial[i], "INTERNAL_ERROR") {
				t.Fatalf("%s %s/%s %s: %s", name, c.toolset, c.name, c.args, serial[i])
			}
		}
		const n = 64
		got := make([]string, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for g := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				c := mixedCalls[g%len(mixedCalls)]
				got[g] = canonical(t, Call(context.Background(), cfg, c.toolset, c.name, []byte(c.args)))
			}()
		}
		close(start)
		wg.Wait()
		for g := range n {
			if i := g % len(mixedCalls); got[g] != serial[i] {
				c := mixedCalls[i]
				t.Errorf("%s %s/%s %s: concurrent call %d differs from the serial one:\n%s\nwant\n%s", name, c.toolset, c.name, c.args, g, got[g], serial[i])
			}
		}
	}
}

// TestFilesChangeDuringCalls runs searches, finds, globs and reads while
// another goroutine creates, rewrites, renames and deletes files and
// directories under them: no call panics or fails as a whole; a file that
// vanishes is at most a per-file skip, and a read of it NOT_FOUND.
func TestFilesChangeDuringCalls(t *testing.T) {
	dir := t.TempDir()
	for i := range 40 {
		writeTestFile(t, filepath.Join(dir, fmt.Sprintf("d%d/f%02d.txt", i%4, i)), strings.Repeat("churn line\n", 50))
	}
	cfg := Config{Root: dir}
	ctx, cancel := context.WithCancel(context.Background())
	var changes atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ctx.Err() == nil; i++ {
			d := filepath.Join(dir, fmt.Sprintf("d%d", i%4))
			p := filepath.Join(d, fmt.Sprintf("f%02d.txt", i%40))
			switch i % 5 {
			case 0:
				os.Remove(p)
			case 1:
				os.WriteFile(p, []byte(strings.Repeat("churn line\n", i%200)), 0o644)
			case 2:
				os.Rename(p, p+".moved")
			case 3:
				os.Rename(p+".moved", p)
			case 4:
				tmp := filepath.Join(dir, fmt.Sprintf("t%d", i%3))
				os.MkdirAll(filepath.Join(tmp, "sub"), 0o755)
				os.WriteFile(filepath.Join(tmp, "sub", "x.txt"), []byte("churn line\n"), 0o644)
				os.RemoveAll(tmp)
			}
			changes.Add(1)
		}
	}()
	calls := []struct{ toolset, name, args string }{
		{Pi, "search", `{"paths":".","pattern":"churn"}`},
		{Pi, "find", `{"paths":["**/*.txt"]}`},
		{Pi, "read", `{"path":"d1"}`},
		{Pi, "read", `{"path":"d2/f02.txt:3-9"}`},
		{Amplifier, "grep", `{"pattern":"churn","output_mode":"content","head_limit":50}`},
		{Amplifier, "grep", `{"pattern":"churn","output_mode":"count"}`},
		{Amplifier, "glob", `{"pattern":"**/*.txt"}`},
		{Standardized, "Glob", `{"pattern":"**/*.txt"}`},
	}
	n := 0
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline) || changes.Load() < 100; n++ {
		c := calls[n%len(calls)]
		env := Call(context.Background(), cfg, c.toolset, c.name, []byte(c.args))
		switch {
		case env.Status != scout.StatusError:
		case c.name == "read" && env.Error.Code == scout.CodeNotFound:
			// the file or directory was removed or renamed just then
		default:
			t.Errorf("%s/%s %s during changes: %+v", c.toolset, c.name, c.args, env.Error)
		}
	}
	cancel()
	wg.Wait()
	t.Logf("%d calls during %d changes", n, changes.Load())
}
