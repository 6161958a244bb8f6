package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/search"
	"github.com/scoutkit/scout/internal/testfs"
)

// fakeBackend is an index that answers from a list of matching files
// (computed by the test), with knobs for the ways an index fails.
type fakeBackend struct {
	status    Status
	statusErr error
	files     []string // the answer
	capped    bool
	partial   []string
	searchErr error
	delay     time.Duration
	fullDelay time.Duration // the delay of a probe with a cap over smallProbe
	unindexed []Unindexed
	queries   atomic.Int64
	last      atomic.Value // *Query
}

func (f *fakeBackend) Status(ctx context.Context) (Status, error) { return f.status, f.statusErr }

func (f *fakeBackend) Search(ctx context.Context, q *Query) (Answer, error) {
	f.queries.Add(1)
	f.last.Store(q)
	delay := f.delay
	if q.MaxFiles > smallProbe {
		delay += f.fullDelay
	}
	select {
	case <-time.After(delay):
	case <-ctx.Done():
		return Answer{}, ctx.Err()
	}
	files := f.files
	capped := f.capped || len(files) > q.MaxFiles
	if len(files) > q.MaxFiles {
		files = files[:q.MaxFiles]
	}
	return Answer{Files: files, Capped: capped, Incomplete: f.partial, Endpoints: 1}, f.searchErr
}

func (f *fakeBackend) Unindexed(ctx context.Context, commit string) ([]Unindexed, error) {
	return f.unindexed, nil
}

func TestPlan(t *testing.T) {
	defer func(m int64, h bool, g time.Duration) { MinBytes, Hedge, GitPerFile = m, h, g }(MinBytes, Hedge, GitPerFile)
	MinBytes, Hedge, GitPerFile = 0, false, 0
	g := newGitRepo(t, map[string]string{
		"a.go": "package a\n// needle one\n", "b.go": "package b\n// needle two\n", "c.go": "package c\n",
		"docs/n.md": "needle in the docs\n", "bin.dat": "needle\x00binary\n", "u16.txt": "\xff\xfen\x00e\x00e\x00d\x00l\x00e\x00\n\x00",
	})
	commit := g.run("rev-parse", "HEAD")
	g.write("x.zip", string(testfs.Zip(testfs.Member{Name: "a.go", Body: "needle in a zip\n"})))
	fsys, release, err := fsx.OpenDir(g.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	req := func(pattern string) search.Request {
		return search.Request{Grep: grep.Options{Pattern: pattern, CountOnly: true}, MaxFiles: -1, Budget: -1, MaxFileSize: -1}
	}
	multiline := func(r search.Request) search.Request {
		r.Grep.Multiline = true
		return r
	}
	paths := func(out *search.Outcome) string {
		var p []string
		for _, h := range out.Files {
			p = append(p, h.Path)
		}
		return strings.Join(p, " ")
	}
	good := func() *fakeBackend {
		return &fakeBackend{
			status:    Status{Commit: commit, Files: 6, Bytes: 1000, Endpoints: 1},
			files:     []string{"a.go", "b.go", "docs/n.md"},
			unindexed: []Unindexed{{"bin.dat", "binary"}, {"u16.txt", "binary"}},
		}
	}
	ctx := context.Background()
	// The tree's first search: the changes are not watched yet, and
	// finding them with git would cost more than half a scan.
	GitPerFile = 10 * time.Microsecond
	f := good()
	f.status.Files = 1 << 20
	if _, rep, _ := Search(ctx, fsys, g.dir, req("needle"), f); rep.Fallback != ColdOverlay {
		t.Errorf("cold overlay: %+v", rep)
	}
	GitPerFile = 0
	out, rep, err := Search(ctx, fsys, g.dir, req("needle"), good())
	if err != nil || !rep.Index || rep.Unindexed != 1 || paths(out) != "a.go b.go docs/n.md u16.txt" {
		t.Fatalf("index path: %v %+v %q", err, rep, paths(out))
	}

	for _, tc := range []struct {
		name   string
		req    search.Request
		change func(*fakeBackend)
		want   string
	}{
		{"empty", req(""), nil, EmptyPattern},
		{"short", req("ne"), nil, NoLiteral},
		{"fold regex", search.Request{Grep: grep.Options{Pattern: `needle\w`, IgnoreCase: true}}, nil, FoldRegex},
		{"multiline", search.Request{Grep: grep.Options{Pattern: "needle", Multiline: true}}, nil, Multiline},
		{"newline", multiline(req(`needle\nx`)), nil, Multiline},
		{"line ranges", search.Request{Grep: grep.Options{Pattern: "needle", LineRanges: [][2]int{{1, 2}}}, Paths: []string{"a.go"}}, nil, LineRanges},
		{"archive", search.Request{Grep: grep.Options{Pattern: "needle"}, Paths: []string{"x.zip:a.go"}}, nil, ArchiveMember},
		{"named files", search.Request{Grep: grep.Options{Pattern: "needle"}, Paths: []string{"a.go", "b.go"}}, nil, NamedFiles},
		{"status error", req("needle"), func(f *fakeBackend) { f.statusErr = errors.New("boom") }, IndexError},
		{"not indexed", req("needle"), func(f *fakeBackend) { f.status.Commit = "" }, RepoNotIndexed},
		{"small", req("needle"), func(f *fakeBackend) { f.status.Bytes = -1 }, SmallIndex},
		{"foreign", req("needle"), func(f *fakeBackend) { f.status.Commit = strings.Repeat("cd", 20) }, ForeignCommit},
		{"capped", req("needle"), func(f *fakeBackend) { f.capped = true }, IndexBroad},
		{"incomplete", req("needle"), func(f *fakeBackend) { f.partial = []string{"2 shards skipped"} }, Incomplete},
		{"search error", req("needle"), func(f *fakeBackend) { f.searchErr = errors.New("bad reply") }, IndexError},
		{"deadline", req("needle"), func(f *fakeBackend) { f.delay = time.Minute }, Deadline},
	} {
		f := good()
		if tc.change != nil {
			tc.change(f)
		}
		r := tc.req
		if r.MaxFileSize == 0 {
			r.MaxFileSize = -1
		}
		want, err := search.Run(ctx, fsys, g.dir, r)
		if err != nil {
			t.Fatal(err)
		}
		got, rep, err := Search(ctx, fsys, g.dir, r, f)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if rep.Index || rep.Fallback != tc.want {
			t.Errorf("%s: report %+v, want the fallback %s", tc.name, rep, tc.want)
		}
		if paths(got) != paths(want) || got.TotalLines != want.TotalLines {
			t.Errorf("%s: the fallback's result %q differs from a scan's %q", tc.name, paths(got), paths(want))
		}
	}

	// A stale commit: HEAD has moved to a branch without it.
	g.run("checkout", "-q", "-b", "side", commit+"~0")
	g.write("side.go", "package side\n")
	side := g.commit("side")
	g.run("checkout", "-q", "-")
	f = good()
	f.status.Commit = side
	if _, rep, _ := Search(ctx, fsys, g.dir, req("needle"), f); rep.Fallback != StaleCommit {
		t.Errorf("stale: %+v", rep)
	}
	// Too many changed files.
	for i := range minChanged + 1 {
		g.write(fmt.Sprintf("gen/f%d.txt", i), "x\n")
	}
	if _, rep, _ := Search(ctx, fsys, g.dir, req("needle"), good()); rep.Fallback != ChangedSet {
		t.Errorf("changed set: %+v", rep)
	}
	if err := os.RemoveAll(filepath.Join(g.dir, "gen")); err != nil {
		t.Fatal(err)
	}

	// The query sent: line-safe, folded by flag, paths pushed down.
	for _, tc := range []struct {
		r    search.Request
		want *Query
	}{
		{search.Request{Grep: grep.Options{Pattern: "needle", IgnoreCase: true}, Globs: []string{"*.go", "!b*"}, Types: []string{"go"}},
			&Query{Commit: commit, Pattern: `NEEDLE`, IgnoreCase: true,
				Include: []string{`^(?s:(?:.*/)?[^/]*\.go)$`, `^(?:.*/)?(?:[^/]+\.go)$`}, Exclude: []string{`^(?s:(?:.*/)?b[^/]*)$`}, MaxFiles: minCap}},
		{search.Request{Grep: grep.Options{Pattern: "^needle (one|two)$"}, Paths: []string{"docs", "a.go"}},
			&Query{Commit: commit, Pattern: `(?m:^\x{feff}?needle (one|two)\r?$)`, Include: []string{`(?:^docs/|^a\.go$)`}, MaxFiles: minCap}},
	} {
		f := good()
		tc.r.MaxFileSize = -1
		if _, rep, err := Search(ctx, fsys, g.dir, tc.r, f); err != nil || !rep.Index {
			t.Fatalf("%+v %v", rep, err)
		}
		assert.Equal(t, tc.want, f.last.Load().(*Query), "the query sent to the index")
	}
}

// TestHedge: an index slower than a scan loses the race to it; one that
// answers first wins it.
func TestHedge(t *testing.T) {
	defer func(m int64, h bool, g time.Duration) { MinBytes, Hedge, GitPerFile = m, h, g }(MinBytes, Hedge, GitPerFile)
	MinBytes, Hedge, GitPerFile = 0, true, 0
	g := newGitRepo(t, map[string]string{"a.go": "needle\n", "b.go": "other\n"})
	commit := g.run("rev-parse", "HEAD")
	fsys, release, err := fsx.OpenDir(g.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	req := search.Request{Grep: grep.Options{Pattern: "needle"}, MaxFiles: -1, Budget: -1, MaxFileSize: -1}
	slow := &fakeBackend{status: Status{Commit: commit, Files: 2, Bytes: 1 << 40}, files: []string{"a.go"}, delay: 10 * time.Second}
	start := time.Now()
	out, rep, err := Search(context.Background(), fsys, g.dir, req, slow)
	if err != nil || rep.Fallback != Deadline || len(out.Files) != 1 || time.Since(start) > 5*time.Second {
		t.Errorf("a slow index: %v %+v after %v", err, rep, time.Since(start))
	}
	fast := &fakeBackend{status: Status{Commit: commit, Files: 2, Bytes: 1 << 40}, files: []string{"a.go"}}
	if out, rep, err := Search(context.Background(), fsys, g.dir, req, fast); err != nil || !rep.Index || len(out.Files) != 1 {
		t.Errorf("a fast index: %v %+v", err, rep)
	}
	// Many files match: the small probe is capped, and the scan starts at
	// once, long before the quarter of its estimated time (1 s here).
	many := &fakeBackend{status: Status{Commit: commit, Files: 1 << 20, Bytes: 1 << 40}, fullDelay: 10 * time.Second}
	for i := range 100 {
		many.files = append(many.files, fmt.Sprintf("f%d.go", i))
	}
	many.files = append(many.files, "a.go")
	start = time.Now()
	out, rep, err = Search(context.Background(), fsys, g.dir, req, many)
	if err != nil || rep.Fallback != Deadline || len(out.Files) != 1 || time.Since(start) > 900*time.Millisecond {
		t.Errorf("a common pattern: %v %+v after %v", err, rep, time.Since(start))
	}
	if n := many.queries.Load(); n != 2 {
		t.Errorf("%d probes, want a small one and the full one", n)
	}
}
