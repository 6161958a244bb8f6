package scout_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// findTree is the fixture for the Finder table tests: the i-th path gets
// time t0+i minutes, so "newest first" is the reverse of this order.
var findTree = []string{
	"go.mod",
	"cmd/tool/main.go",
	"internal/a/a.go",
	"internal/a/a_test.go",
	"internal/b/b.go",
	"docs/guide.md",
	".github/workflows/ci.yml",
	"vendor/x/x.go",
	"README.md",
}

func findFixture() fstest.MapFS {
	m := fstest.MapFS{}
	for i, p := range findTree {
		m[p] = &fstest.MapFile{Data: []byte(p + "\n"), Mode: 0o644, ModTime: testfs.Epoch.Add(time.Duration(i) * time.Minute)}
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			m[d] = &fstest.MapFile{Mode: fs.ModeDir | 0o755, ModTime: testfs.Epoch.Add(-time.Hour)}
		}
	}
	return m
}

// workspaces returns the fixture as a MapFS and as a temp dir, by name.
func workspaces(t *testing.T, m fstest.MapFS) map[string]scout.Workspace {
	ws := map[string]scout.Workspace{}
	for _, tr := range testfs.Trees(t, m) {
		ws[tr.Name] = scout.Workspace{FS: tr.FS, Root: tr.Root}
	}
	return ws
}

func paths(r *scout.FindResult) []string {
	var out []string
	for _, e := range r.Entries {
		p := e.Path
		if e.Dir {
			p += "/"
		}
		out = append(out, p)
	}
	return out
}

func TestFind(t *testing.T) {
	tests := []struct {
		name   string
		req    scout.FindRequest
		want   []string
		reason string
	}{
		{"recursive", scout.FindRequest{Patterns: []string{"*.go"}, Recursive: true},
			[]string{"vendor/x/x.go", "internal/b/b.go", "internal/a/a_test.go", "internal/a/a.go", "cmd/tool/main.go"},
			"a bare glob is made recursive; newest first"},
		{"non-recursive", scout.FindRequest{Patterns: []string{"*.go"}}, nil,
			"without Recursive a bare glob only matches the root's own entries"},
		{"dir-glob", scout.FindRequest{Patterns: []string{"internal/*"}, Recursive: true},
			[]string{"internal/a/", "internal/b/"}, "internal/* stays one level deep; equal times fall back to path order"},
		{"globstar-zero", scout.FindRequest{Patterns: []string{"internal/**/a.go"}},
			[]string{"internal/a/a.go"}, "** matches zero or more directories"},
		{"path-order", scout.FindRequest{Patterns: []string{"internal/**/*.go"}, Order: scout.ByPath},
			[]string{"internal/a/a.go", "internal/a/a_test.go", "internal/b/b.go"}, "ByPath sorts byte-wise"},
		{"files-only", scout.FindRequest{Patterns: []string{"internal"}, Kind: scout.FilesOnly, Order: scout.ByPath},
			[]string{"internal/a/a.go", "internal/a/a_test.go", "internal/b/b.go"}, "a directory input lists everything below it"},
		{"dirs-only", scout.FindRequest{Patterns: []string{"internal"}, Kind: scout.DirsOnly, Order: scout.ByPath},
			[]string{"internal/a/", "internal/b/"}, "DirsOnly"},
		{"exclude", scout.FindRequest{Patterns: []string{"internal/**/*.go"}, Exclude: []string{"*_test.go"}, Order: scout.ByPath},
			[]string{"internal/a/a.go", "internal/b/b.go"}, "an exclude glob without / matches base names"},
		{"prune", scout.FindRequest{Patterns: []string{"**/*.go"}, PruneDirs: []string{"vendor"}, Order: scout.ByPath},
			[]string{"cmd/tool/main.go", "internal/a/a.go", "internal/a/a_test.go", "internal/b/b.go"}, "pruned directories are not entered"},
		{"hidden", scout.FindRequest{Patterns: []string{"**/*.yml"}, Hidden: true},
			[]string{".github/workflows/ci.yml"}, "Hidden includes dot directories"},
		{"no-hidden", scout.FindRequest{Patterns: []string{"**/*.yml"}}, nil, "hidden entries are left out by default"},
		{"exact-file", scout.FindRequest{Patterns: []string{"docs/guide.md"}},
			[]string{"docs/guide.md"}, "an existing file is returned as is"},
		{"union", scout.FindRequest{Patterns: []string{"docs", "cmd/**/*.go"}, Order: scout.ByPath},
			[]string{"cmd/tool/main.go", "docs/guide.md"}, "several patterns are one union"},
		{"base", scout.FindRequest{Base: "internal", Patterns: []string{"a"}},
			[]string{"internal/a/"}, "with Base, a name is a glob below it, not a directory to list"},
		{"base-no-match", scout.FindRequest{Base: ".", Patterns: []string{"nope.go"}}, nil,
			"with Base, a name that matches nothing is no match, not a missing path"},
		{"base-prunes", scout.FindRequest{Base: ".", Patterns: []string{"vendor/**/*.go"}, PruneDirs: []string{"vendor"}}, nil,
			"with Base, the walk starts there, so a pruned directory the pattern names stays pruned"},
	}
	for wsName, ws := range workspaces(t, findFixture()) {
		for _, tt := range tests {
			t.Run(wsName+"/"+tt.name, func(t *testing.T) {
				f := scout.Finder{Workspace: ws}
				res, err := f.Find(context.Background(), tt.req)
				if err != nil {
					t.Fatalf("Find: %v (%s)", err, tt.reason)
				}
				if got := paths(res); !slices.Equal(got, tt.want) {
					t.Errorf("got %q, want %q (%s)", got, tt.want, tt.reason)
				}
			})
		}
	}
}

func TestFindErrors(t *testing.T) {
	tests := []struct {
		name   string
		req    scout.FindRequest
		code   scout.Code
		reason string
	}{
		{"missing", scout.FindRequest{Patterns: []string{"nope"}}, scout.CodeNotFound, "a single missing path"},
		{"all-missing", scout.FindRequest{Patterns: []string{"nope", "gone/*.go"}}, scout.CodeNotFound, "every entry missing"},
		{"outside", scout.FindRequest{Patterns: []string{"../x"}}, scout.CodeAccessDenied, ".. above the root"},
		{"absolute", scout.FindRequest{Patterns: []string{"/etc/passwd"}}, scout.CodeAccessDenied, "absolute path outside the root"},
		{"not-dir", scout.FindRequest{Patterns: []string{"go.mod/*.go"}}, scout.CodeInvalidParam, "a glob below a file"},
		{"bad-glob", scout.FindRequest{Patterns: []string{"internal/{a"}}, scout.CodeInvalidParam, "unclosed brace"},
		{"empty", scout.FindRequest{Patterns: []string{" "}}, scout.CodeInvalidParam, "blank pattern"},
		{"nul", scout.FindRequest{Patterns: []string{"a\x00b"}}, scout.CodeInvalidParam, "NUL byte"},
		{"kind", scout.FindRequest{Kind: scout.DirsOnly + 1}, scout.CodeInvalidParam, "a Kind that names no kind was read as files only"},
		{"negative-kind", scout.FindRequest{Kind: -1}, scout.CodeInvalidParam, "a negative Kind"},
		{"order", scout.FindRequest{Order: scout.TreeOrder + 1}, scout.CodeInvalidParam, "an Order that names no order"},
	}
	for wsName, ws := range workspaces(t, findFixture()) {
		for _, tt := range tests {
			t.Run(wsName+"/"+tt.name, func(t *testing.T) {
				f := scout.Finder{Workspace: ws}
				_, err := f.Find(context.Background(), tt.req)
				if scout.CodeOf(err) != tt.code {
					t.Fatalf("err = %v (code %q), want code %s (%s)", err, scout.CodeOf(err), tt.code, tt.reason)
				}
				if !errors.Is(err, tt.code) {
					t.Errorf("errors.Is does not match the code %s", tt.code)
				}
			})
		}
	}
}

func TestFindMissingOfSeveral(t *testing.T) {
	f := scout.Finder{Workspace: scout.Workspace{FS: findFixture()}}
	res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"docs", "nope"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.MissingPaths, []string{"nope"}) || len(res.Entries) != 1 {
		t.Errorf("missing %q entries %v, want [nope] and docs/guide.md", res.MissingPaths, paths(res))
	}
}

// The .git of the walked directory is never listed and no option lists it,
// so it is not counted as ignored: the notice would suggest gitignore:
// false, which changes nothing. Ignored entries still count.
func TestFindSkippedLeavesOutGit(t *testing.T) {
	m := fstest.MapFS{
		".git/HEAD":  {Data: []byte("ref: refs/heads/main\n")},
		".gitignore": {Data: []byte("out/\n")},
		"out/x.go":   {},
		"a.go":       {},
	}
	for name, ws := range workspaces(t, m) {
		f := scout.Finder{Workspace: ws}
		res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"**/*.go"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Skipped[scout.SkipIgnored]; got != 1 || !slices.Equal(paths(res), []string{"a.go"}) {
			t.Errorf("%s: ignored %d entries %v, want 1 (out/, not .git) and [a.go]", name, got, paths(res))
		}
	}
}

func TestFindLimitKeepsNewest(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 500 {
		m[fmt.Sprintf("d%d/f%03d.txt", i%7, i)] = &fstest.MapFile{ModTime: testfs.Epoch.Add(time.Duration((i*7919)%500) * time.Second)}
	}
	f := scout.Finder{Workspace: scout.Workspace{FS: m}}
	res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"**/*.txt"}, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Truncated != scout.TruncLimit || res.Matched != 500 || len(res.Entries) != 10 {
		t.Fatalf("truncated=%q matched=%d entries=%d", res.Truncated, res.Matched, len(res.Entries))
	}
	for i, e := range res.Entries {
		if want := testfs.Epoch.Add(time.Duration(499-i) * time.Second); !e.ModTime.Equal(want) {
			t.Errorf("entry %d %s has time %v, want the %d-th newest %v", i, e.Path, e.ModTime, i+1, want)
		}
	}
}

func TestFindMaxVisited(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 100 {
		m[fmt.Sprintf("f%03d.txt", i)] = &fstest.MapFile{}
	}
	f := scout.Finder{Workspace: scout.Workspace{FS: m}}
	res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"*"}, MaxVisited: 20, Order: scout.ByPath})
	if err != nil {
		t.Fatal(err)
	}
	if res.Truncated != scout.TruncVisited || len(res.Entries) == 0 || len(res.Entries) > 20 {
		t.Fatalf("truncated=%q entries=%d", res.Truncated, len(res.Entries))
	}
	if res.Entries[0].Path != "f000.txt" {
		t.Errorf("first entry %s: the breaker must apply to a deterministic, sorted walk", res.Entries[0].Path)
	}
	// The entries the breaker kept the walk from are not skipped by a
	// rule: Truncated says so, and Skipped holds only the SkipReason
	// constants a host can switch on.
	for r, n := range res.Skipped {
		if !slices.Contains(skipReasons, r) {
			t.Errorf("Skipped[%q] = %d: not a SkipReason constant", r, n)
		}
	}
}

// skipReasons are the documented SkipReason values.
var skipReasons = []scout.SkipReason{scout.SkipIgnored, scout.SkipHidden, scout.SkipSymlink, scout.SkipBinary, scout.SkipTooLarge, scout.SkipSpecial, scout.SkipUnreadable}

func TestFindTimeoutReturnsPartial(t *testing.T) {
	m := fstest.MapFS{}
	for i := range 60 {
		m[fmt.Sprintf("d%02d/f.txt", i)] = &fstest.MapFile{}
	}
	f := scout.Finder{Workspace: scout.Workspace{FS: testfs.SlowFS{MapFS: m, Delay: 30 * time.Millisecond}}}
	start := time.Now()
	res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"**/*.txt"}, Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Truncated != scout.TruncTimeout {
		t.Errorf("truncated=%q, want a timeout", res.Truncated)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Find took %v after a 100ms timeout", d)
	}
}

func TestFindCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := scout.Finder{Workspace: scout.Workspace{FS: findFixture()}}
	_, err := f.Find(ctx, scout.FindRequest{Patterns: []string{"**/*"}})
	if scout.CodeOf(err) != scout.CodeCanceled {
		t.Fatalf("err = %v, want CANCELED", err)
	}
}

// TestFindProgress: progress comes at most once per 200 ms. The walk is a
// chain of directories, read one after the other, so that it outlasts
// several periods on a machine of any number of cores (40 directories side
// by side were read in under 200 ms at GOMAXPROCS 16: no call at all). A
// call is timed as it starts, which a loaded machine may delay after Find
// took its time: the i-th call starts at least i periods after Find was
// called, and a call at least j-1 periods after the one j before it.
func TestFindProgress(t *testing.T) {
	const period = 200 * time.Millisecond
	m := fstest.MapFS{}
	dir := "d"
	for range 40 {
		m[dir+"/f.txt"] = &fstest.MapFile{}
		dir += "/d"
	}
	var mu sync.Mutex
	calls := []time.Time{time.Now()}
	f := scout.Finder{Workspace: scout.Workspace{FS: testfs.SlowFS{MapFS: m, Delay: 30 * time.Millisecond}}}
	_, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"**/*.txt"}, Progress: func(p scout.FindProgress) {
		mu.Lock()
		calls = append(calls, time.Now())
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) < 3 {
		t.Fatalf("%d progress calls during a walk of over a second, want several", len(calls)-1)
	}
	for j := 1; j < len(calls); j++ {
		if d := calls[j].Sub(calls[0]); d < time.Duration(j)*period {
			t.Errorf("progress call %d came %v after Find started; want at most one per %v", j, d, period)
		}
		for i := 1; i < j; i++ {
			if d := calls[j].Sub(calls[i]); d < time.Duration(j-i-1)*period {
				t.Errorf("progress calls %d and %d only %v apart; want at most one per %v", i, j, d, period)
			}
		}
	}
}

// fakeOps is a FindOperations backed by a list of paths.
type fakeOps struct {
	paths  []string
	gotOpt scout.GlobOptions
}

func (o *fakeOps) Exists(_ context.Context, p string) (bool, error) {
	for _, q := range o.paths {
		if p == "." || q == p || strings.HasPrefix(q, p+"/") {
			return true, nil
		}
	}
	return false, nil
}

func (o *fakeOps) Glob(_ context.Context, pattern, dir string, opt scout.GlobOptions) ([]string, error) {
	o.gotOpt = opt
	var out []string
	for _, q := range o.paths {
		if ok, _ := path.Match(strings.TrimPrefix(pattern, "**/"), path.Base(q)); ok && (dir == "." || strings.HasPrefix(q, dir+"/")) {
			out = append(out, strings.TrimPrefix(q, dir+"/"))
		}
	}
	return out, nil
}

func TestFindOperations(t *testing.T) {
	ops := &fakeOps{paths: []string{"src/a.go", "src/b.go", "src/c.txt"}}
	f := scout.Finder{Operations: ops}
	res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"src/**/*.go"}, Order: scout.ByPath, PruneDirs: []string{"node_modules", "a*b"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(res); !slices.Equal(got, []string{"src/a.go", "src/b.go"}) {
		t.Errorf("got %q", got)
	}
	wantIgnore := []string{"**/node_modules/**", `**/a\*b/**`, "**/.git/**"}
	assert.Equal(t, scout.GlobOptions{Ignore: wantIgnore, Limit: 200}, ops.gotOpt, "Glob gets the limit and the ignores (the pruned directories, quoted, then .git)")
	if _, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"src"}}); err != nil || !slices.Equal(ops.gotOpt.Ignore, []string{"**/.git/**"}) {
		t.Errorf("no PruneDirs: Glob ignores %q (err %v), want only .git: node_modules is the pi adapter's to prune", ops.gotOpt.Ignore, err)
	}
	if _, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"nope/*.go"}}); scout.CodeOf(err) != scout.CodeNotFound {
		t.Errorf("missing base through Operations: err %v, want NOT_FOUND", err)
	}
}

// TestFindOperationsRemoteRoot: a Finder with Operations and no FS opens
// no OS directory, so its Root may be a directory of the remote workspace
// that does not exist here; it places absolute inputs.
func TestFindOperationsRemoteRoot(t *testing.T) {
	ops := &fakeOps{paths: []string{"src/a.go", "src/b.go"}}
	remote := filepath.Join(t.TempDir(), "remote", "proj") // not on this machine
	f := scout.Finder{Workspace: scout.Workspace{Root: remote}, Operations: ops}
	for _, p := range []string{"src/**/*.go", remote + "/src/**/*.go"} {
		res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{p}, Order: scout.ByPath})
		if assert.NoError(t, err, "%s: the remote root was opened on this machine", p) {
			assert.Equal(t, []string{"src/a.go", "src/b.go"}, paths(res), p)
		}
	}
	_, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"/elsewhere/src/*.go"}})
	assert.Equal(t, scout.CodeAccessDenied, scout.CodeOf(err), "an absolute path outside the remote root")
	local := scout.Finder{Workspace: scout.Workspace{Root: remote}}
	_, err = local.Find(context.Background(), scout.FindRequest{})
	assert.Equal(t, scout.CodeNotFound, scout.CodeOf(err), "without Operations the root is opened, and a missing one is an error")
}

// TestFindOperationsLimit: Operations.Glob is asked for at most the limit,
// so an answer of that many paths may stand for more: the result says the
// limit was reached. A shorter answer is complete; a longer one is cut.
func TestFindOperationsLimit(t *testing.T) {
	ops := &fakeOps{paths: []string{"a.go", "b.go", "c.go"}}
	f := scout.Finder{Operations: ops}
	for _, tt := range []struct {
		limit     int
		entries   int
		truncated scout.Truncation
		reason    string
	}{
		{4, 3, "", "fewer paths than the limit: complete"},
		{3, 3, scout.TruncLimit, "as many paths as the limit: the host may have stopped there"},
		{2, 2, scout.TruncLimit, "a host that returns more than the limit is cut"},
		{-1, 3, "", "no limit"},
	} {
		res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"*.go"}, Limit: tt.limit})
		if assert.NoError(t, err, tt.reason) {
			assert.Len(t, res.Entries, tt.entries, tt.reason)
			assert.Equal(t, tt.truncated, res.Truncated, tt.reason)
			assert.Equal(t, 3, res.Matched, tt.reason)
		}
	}
}

// staterOps is a fakeOps with the FindStater ability: each path is a
// file of size len(path), modified at its index in minutes; the
// directories above them exist.
type staterOps struct{ fakeOps }

func (o *staterOps) Stat(_ context.Context, p string) (fs.FileInfo, error) {
	m := fstest.MapFS{}
	for i, q := range o.paths {
		m[q] = &fstest.MapFile{Data: make([]byte, len(q)), ModTime: time.Unix(int64(i)*60, 0)}
	}
	return m.Stat(p)
}

// TestFindStater: with FindStater, an input naming a file is returned as
// the exact file, and the globbed entries carry the kind, size and time
// Stat gave, so that newest-first order works through Operations.
func TestFindStater(t *testing.T) {
	ops := &staterOps{fakeOps{paths: []string{"src/a.go", "src/bb.go", "src/c.txt"}}}
	f := scout.Finder{Operations: ops}
	res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"src/c.txt"}})
	if assert.NoError(t, err) {
		assert.True(t, res.ExactFile, "a file input is answered by Stat, without a glob")
		assert.Equal(t, []scout.FindEntry{{Path: "src/c.txt", Size: 9, ModTime: time.Unix(120, 0)}}, res.Entries)
	}
	res, err = f.Find(context.Background(), scout.FindRequest{Patterns: []string{"src/**/*.go"}})
	if assert.NoError(t, err) {
		assert.Equal(t, []scout.FindEntry{
			{Path: "src/bb.go", Size: 9, ModTime: time.Unix(60, 0)},
			{Path: "src/a.go", Size: 8, ModTime: time.Unix(0, 0)},
		}, res.Entries, "newest first, by the times Stat gave")
	}
}

func TestFindUnionQuotesLiteralNames(t *testing.T) {
	m := findFixture()
	m["notes/a,b.txt"] = &fstest.MapFile{Data: []byte("x\n")}
	m["notes/a.txt"] = &fstest.MapFile{Data: []byte("y\n")}
	for wsName, ws := range workspaces(t, m) {
		f := scout.Finder{Workspace: ws}
		res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"notes/a,b.txt", "docs"}, Order: scout.ByPath})
		if err != nil {
			t.Fatal(err)
		}
		if got := paths(res); !slices.Equal(got, []string{"docs/guide.md", "notes/a,b.txt"}) {
			t.Errorf("%s: got %q: a file name with a comma must stay one literal name in the union", wsName, got)
		}
	}
}

// TestFindInternalURL: an internal URL stands for its backing file; a
// glob in one, or one without a backing file, is an error.
func TestFindInternalURL(t *testing.T) {
	res := memResolver{
		"skill://guide": {SourcePath: "docs/guide.md"},
		"memory://note": {Text: "virtual"},
	}
	for wsName, ws := range workspaces(t, findFixture()) {
		f := scout.Finder{Workspace: ws, Resolvers: map[string]scout.Resolver{"skill": res, "memory": res}}
		got, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"skill://guide"}})
		if err != nil || !got.ExactFile || !slices.Equal(paths(got), []string{"docs/guide.md"}) {
			t.Errorf("%s: skill://guide = %v, %v; want the backing file docs/guide.md", wsName, paths(got), err)
		}
		got, err = f.Find(context.Background(), scout.FindRequest{Patterns: []string{"skill://guide", "cmd"}})
		if err != nil || !slices.Contains(paths(got), "docs/guide.md") || len(paths(got)) < 2 {
			t.Errorf("%s: with another path = %v, %v; want the backing file among the results", wsName, paths(got), err)
		}
		for _, c := range []struct {
			pattern string
			code    scout.Code
			reason  string
		}{
			{"skill://gu*", scout.CodeInvalidParam, "a glob in an internal URL"},
			{"memory://note", scout.CodeNotFound, "a resource without a backing file"},
			{"skill://nope", scout.CodeNotFound, "an unknown resource"},
		} {
			if _, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{c.pattern}}); scout.CodeOf(err) != c.code {
				t.Errorf("%s: %s: err %v, want code %s (%s)", wsName, c.pattern, err, c.code, c.reason)
			}
		}
	}
}

// TestFindTypeOfLinks: with FilesOnly or DirsOnly a symlink counts as its
// target's kind (os.walk, pathlib); a link whose target lies outside the
// root is neither, and is counted as a skipped symlink (it was left out
// uncounted, so an empty result did not say why); a dangling link is a
// file.
func TestFindTypeOfLinks(t *testing.T) {
	outside := t.TempDir()
	root := t.TempDir()
	for _, d := range []string{"d", "f.txt"} {
		if d == "d" {
			if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(filepath.Join(root, d), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"ldir": "d", "lfile": "f.txt", "lnone": "missing", "lout": outside} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Skip("no symlinks here:", err)
		}
	}
	f := scout.Finder{Workspace: scout.Workspace{Root: root}}
	for _, c := range []struct {
		kind     scout.EntryKind
		pattern  string
		want     []string
		symlinks int // Skipped[SkipSymlink]
	}{
		{scout.FilesOnly, "*", []string{"f.txt", "lfile", "lnone"}, 1},
		{scout.DirsOnly, "*", []string{"d/", "ldir/"}, 1},
		{scout.FilesAndDirs, "*", []string{"d/", "f.txt", "ldir", "lfile", "lnone", "lout"}, 0},
		{scout.FilesOnly, "lou?", nil, 1},
		{scout.FilesOnly, "l[a-n]*", []string{"lfile", "lnone"}, 0}, // only links the pattern matches count
	} {
		res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{c.pattern}, Kind: c.kind, Order: scout.ByPath})
		if err != nil {
			t.Fatal(err)
		}
		if got := paths(res); !slices.Equal(got, c.want) {
			t.Errorf("kind %d, %s: %v, want %v", c.kind, c.pattern, got, c.want)
		}
		if got := res.Skipped[scout.SkipSymlink]; got != c.symlinks {
			t.Errorf("kind %d, %s: %d skipped symlinks, want %d (%v)", c.kind, c.pattern, got, c.symlinks, res.Skipped)
		}
	}
}

// TestFindJSON checks the snake_case JSON of a request and a result, and
// that a request with a Progress hook still encodes.
func TestFindJSON(t *testing.T) {
	req := scout.FindRequest{Patterns: []string{"*.go"}, NoIgnore: true, PruneDirs: []string{"vendor"}, MaxVisited: 9, Progress: func(scout.FindProgress) {}}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"patterns":["*.go"],"no_ignore":true,"prune_dirs":["vendor"],"max_visited":9}`; string(b) != want {
		t.Errorf("request JSON %s, want %s", b, want)
	}
	res := scout.FindResult{Entries: []scout.FindEntry{{Path: "a.go", Size: 3}}, Scope: ".", ExactFile: true, MissingPaths: []string{"x"}, Matched: 1, Truncated: scout.TruncLimit}
	b, err = json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"entries":[{"path":"a.go","dir":false,"size":3,"mod_time":"0001-01-01T00:00:00Z"}],"scope":".","pattern":"","exact_file":true,"missing_paths":["x"],"matched":1,"visited":0,"truncated":"limit"}`
	if string(b) != want {
		t.Errorf("result JSON\n%s\nwant\n%s", b, want)
	}
}

// TestFindBaseOutsidePattern: with a Base, a pattern is matched against
// the relative paths below it, which never hold "..": an absolute pattern
// or one with a ".." segment could never match, and is a CodeInvalidParam
// error that says how to fix the call; it silently found nothing.
func TestFindBaseOutsidePattern(t *testing.T) {
	tests := []struct {
		name     string
		base     string
		patterns []string
		want     string // in the error; "" for none
	}{
		{"climbs", "internal", []string{"../*"}, "Pattern '../*' cannot match: patterns are matched against the paths below the directory searched, 'internal', which are relative and never hold '..'; search from '.' (Base) with the pattern '*'."},
		{"climbs into a sibling", "internal", []string{"../docs/*.md"}, "search from 'docs' (Base) with the pattern '*.md'"},
		{"climbs out of the root", ".", []string{"../*"}, "it names a directory outside the root"},
		{"climbs after a glob", "internal", []string{"**/../*.go"}, "Pattern '**/../*.go' cannot match"},
		{"absolute", "internal", []string{"/x/*"}, "Pattern '/x/*' cannot match"},
		{"one of several", "internal", []string{"a/*.go", "../cmd/**"}, "Pattern '../cmd/**' cannot match"},
		{"a backslash quotes, it does not separate", "internal", []string{`..\*`}, ""},
		{"dot segments match", "internal", []string{"./a/./a.go"}, ""},
		{"two dots in a name match", "internal", []string{"a..b", "a/..*"}, ""},
		{"a brace alternative may climb", "internal", []string{"{../*,b/*.go}"}, ""},
	}
	for wsName, ws := range workspaces(t, findFixture()) {
		for _, tt := range tests {
			t.Run(wsName+"/"+tt.name, func(t *testing.T) {
				f := scout.Finder{Workspace: ws}
				_, err := f.Find(context.Background(), scout.FindRequest{Base: tt.base, Patterns: tt.patterns})
				if tt.want == "" {
					require.NoError(t, err)
					return
				}
				if scout.CodeOf(err) != scout.CodeInvalidParam || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("err = %v, want INVALID_PARAM with %q", err, tt.want)
				}
			})
		}
	}
}
