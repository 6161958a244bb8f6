package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
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
	unindexed []Unindexed
	queries   atomic.Int64
	last      atomic.Value // *Query
}

func (f *fakeBackend) Status(ctx context.Context) (Status, error) { return f.status, f.statusErr }

func (f *fakeBackend) Search(ctx context.Context, q *Query) (Answer, error) {
	f.queries.Add(1)
	f.last.Store(q)
	select {
	case <-time.After(f.delay):
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

// lenient lets the index answer on the tests' tiny trees: no size
// threshold, no cost for asking git, a scan estimated at minScan (which
// sets the probe's cap and deadline, and when a scan races the plan) and
// at a GiB a second whatever the processors, nothing learned.
func lenient(t *testing.T, minScan time.Duration) {
	minBytes, prior := MinBytes, Prior
	t.Cleanup(func() { Settle(); MinBytes, Prior = minBytes, prior })
	MinBytes = 0
	Prior.MinScan, Prior.GitPerFile, Prior.Learn, Prior.ScanProcs = minScan, 0, false, 1
}

func TestPlan(t *testing.T) {
	lenient(t, time.Minute)
	g, commit, fsys := openRepo(t, map[string]string{
		"a.go": "package a\n// needle one\n", "b.go": "package b\n// needle two\n", "c.go": "package c\n",
		"docs/n.md": "needle in the docs\n", "bin.dat": "needle\x00binary\n", "u16.txt": "\xff\xfen\x00e\x00e\x00d\x00l\x00e\x00\n\x00",
	})
	g.write("x.zip", string(testfs.Zip(testfs.Member{Name: "a.go", Body: "needle in a zip\n"})))
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
	Prior.GitPerFile = 10 * time.Microsecond
	f := good()
	f.status.Files = 1 << 30
	if _, rep, _ := Search(ctx, fsys, g.dir, req("needle"), f); rep.Fallback != ColdOverlay {
		t.Errorf("cold overlay: %+v", rep)
	}
	Prior.GitPerFile = 0
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
		{"entry line ranges", search.Request{Grep: grep.Options{Pattern: "needle"}, Paths: []string{"a.go:1-2", "b.go"}}, nil, LineRanges},
		{"archive", search.Request{Grep: grep.Options{Pattern: "needle"}, Paths: []string{"x.zip:a.go"}}, nil, ArchiveMember},
		{"named files", search.Request{Grep: grep.Options{Pattern: "needle"}, Paths: []string{"a.go", "b.go"}}, nil, NamedFiles},
		{"status error", req("needle"), func(f *fakeBackend) { f.statusErr = errors.New("boom") }, IndexError},
		{"not indexed", req("needle"), func(f *fakeBackend) { f.status.Commit = "" }, RepoNotIndexed},
		{"small", req("needle"), func(f *fakeBackend) { f.status.Bytes = -1 }, SmallIndex},
		{"foreign", req("needle"), func(f *fakeBackend) { f.status.Commit = strings.Repeat("cd", 20) }, ForeignCommit},
		{"capped", req("needle"), func(f *fakeBackend) { f.capped = true }, IndexBroad},
		{"incomplete", req("needle"), func(f *fakeBackend) { f.partial = []string{"2 shards skipped"} }, Incomplete},
		{"search error", req("needle"), func(f *fakeBackend) { f.searchErr = errors.New("bad reply") }, IndexError},
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
	// An index on this machine that misses its deadline: a quarter of the
	// scan's estimated time.
	Prior.MinScan = 400 * time.Millisecond
	f = good()
	f.delay = time.Minute
	start := time.Now()
	if _, rep, _ := Search(ctx, fsys, g.dir, req("needle"), f); rep.Fallback != Deadline || time.Since(start) > 5*time.Second {
		t.Errorf("deadline: %+v after %v", rep, time.Since(start))
	}
	Prior.MinScan = time.Minute
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
				Include: []string{`^(?s:(?:.*/)?[^/]*\.go)$`, `^(?:.*/)?(?:[^/]+\.go)$`}, Exclude: []string{`^(?s:(?:.*/)?b[^/]*)$`}, MaxFiles: int(time.Minute / wasteShare / Prior.ProbePerFile)}},
		{search.Request{Grep: grep.Options{Pattern: "^needle (one|two)$"}, Paths: []string{"docs", "a.go"}},
			&Query{Commit: commit, Pattern: `(?m:^\x{feff}?needle (one|two)\r?$)`, Include: []string{`(?:^docs/|^a\.go$)`}, MaxFiles: int(time.Minute / wasteShare / Prior.ProbePerFile)}},
	} {
		f := good()
		tc.r.MaxFileSize = -1
		if _, rep, err := Search(ctx, fsys, g.dir, tc.r, f); err != nil || !rep.Index {
			t.Fatalf("%+v %v", rep, err)
		}
		assert.Equal(t, tc.want, f.last.Load().(*Query), "the query sent to the index")
	}
}

// TestRace: beside an index on another machine, a scan starts after a
// quarter of its estimated time, and the first to finish answers; an index
// on this machine is never raced, but given a deadline.
func TestRace(t *testing.T) {
	lenient(t, 400*time.Millisecond)
	g, commit, fsys := openRepo(t, map[string]string{"a.go": "needle\n", "b.go": "other\n"})
	req := search.Request{Grep: grep.Options{Pattern: "needle"}, MaxFiles: -1, Budget: -1, MaxFileSize: -1}
	status := func(local bool) Status {
		return Status{Commit: commit, Files: 2, Bytes: 1 << 20, Endpoints: 1, Local: local}
	}
	for _, tc := range []struct {
		name       string
		local      bool
		delay      time.Duration
		minScan    time.Duration // the scan's estimate: the race starts after a quarter of it
		index      bool
		want       string // the fallback's detail starts with it
		minT, maxT time.Duration
	}{
		// The racing scan starts after 100 ms and wins.
		{"remote slow", false, 10 * time.Second, 400 * time.Millisecond, false, "a scan started beside the plan", 100 * time.Millisecond, 5 * time.Second},
		// The fast index answers before a scan starts, however loaded
		// the machine (git's part of the plan took over 100 ms on CI).
		{"remote fast", false, 0, 20 * time.Second, true, "", 0, 5 * time.Second},
		// No scan before the deadline of 100 ms (times the machine's load).
		{"local slow", true, 10 * time.Second, 400 * time.Millisecond, false, "no answer within ", 100 * time.Millisecond, 5 * time.Second},
		{"local fast", true, 0, 20 * time.Second, true, "", 0, 5 * time.Second},
	} {
		Prior.MinScan = tc.minScan
		f := &fakeBackend{status: status(tc.local), files: []string{"a.go"}, delay: tc.delay}
		start := time.Now()
		out, rep, err := Search(context.Background(), fsys, g.dir, req, f)
		took := time.Since(start)
		if err != nil || len(out.Files) != 1 || rep.Index != tc.index || !strings.HasPrefix(rep.Detail, tc.want) || took < tc.minT || took > tc.maxT {
			t.Errorf("%s: %v %+v, %d files, after %v", tc.name, err, rep, len(out.Files), took)
		}
	}
}

// TestCosts: the probe's cap follows the scan's estimated time, which the
// scans of the same shape refine; a query found too common at a commit is
// scanned at once the next time, without asking the index.
func TestCosts(t *testing.T) {
	lenient(t, 0)
	Prior.Learn = true
	Prior.MinScan = time.Millisecond
	g, commit, fsys := openRepo(t, map[string]string{"a.go": "needle\n", "b.go": "needle\n", "c.go": "other\n"})
	req := search.Request{Grep: grep.Options{Pattern: "needle"}, MaxFiles: -1, Budget: -1, MaxFileSize: -1}
	f := &fakeBackend{status: Status{Commit: commit, Files: 3, Bytes: 1 << 30, Endpoints: 1, Local: true}, files: []string{"a.go", "b.go"}}
	// 1 GiB: a scan of a second by the prior; a 64th of it at 20 µs per
	// file named (three quarters at 20 + 40 µs per file named and read
	// would allow more).
	if _, rep, err := Search(context.Background(), fsys, g.dir, req, f); err != nil || !rep.Index {
		t.Fatalf("%v %+v", err, rep)
	}
	if q := f.last.Load().(*Query); q.MaxFiles != 781 {
		t.Errorf("cap %d, want 781", q.MaxFiles)
	}
	// Too common: the answer is capped, the tree scanned, and the scan's
	// time (much less than a second) learned for the shape.
	f.capped = true
	_, rep, err := Search(context.Background(), fsys, g.dir, req, f)
	if err != nil || rep.Fallback != IndexBroad {
		t.Fatalf("%v %+v", err, rep)
	}
	m := modelOf(g.dir)
	k := kind{literal: true}
	e := m.estimate(shapeOf(&req, k), k, 1<<30, false)
	if e.scan >= time.Second/2 {
		t.Errorf("learned scan time %v", e.scan)
	}
	// Once the index, asked again after the scan with the whole path's
	// cap, answered capped too, the next such search asks it nothing,
	// unless the cap doubled.
	Settle()
	n := f.queries.Load()
	if _, rep, err := Search(context.Background(), fsys, g.dir, req, f); err != nil || rep.Fallback != IndexBroad || f.queries.Load() != n {
		t.Errorf("%v %+v, %d queries", err, rep, f.queries.Load()-n)
	}
	// Another shape (a glob) starts from the prior, scaled by the scans
	// seen: its cap is below the first one. (Its deadline is the least,
	// 25 ms, which git may miss on a loaded machine: the cap is the point.)
	f.capped = false
	glob := req
	glob.Globs = []string{"*.go"}
	if _, rep, err := Search(context.Background(), fsys, g.dir, glob, f); err != nil || !rep.Index && rep.Fallback != Deadline {
		t.Fatalf("%v %+v", err, rep)
	}
	if q := f.last.Load().(*Query); q.MaxFiles >= 781 || q.MaxFiles < minCap {
		t.Errorf("cap %d after a fast scan", q.MaxFiles)
	}
}

// TestLearnWide: a first probe capped small, the tree is scanned; then the
// index is asked with the whole path's cap, and the next search of the
// query reads the files it named.
func TestLearnWide(t *testing.T) {
	lenient(t, 10*time.Millisecond) // a cap of 16 files (the least) at first, 125 for the whole path
	Prior.Learn = true
	files := map[string]string{}
	var names []string
	for i := range 40 {
		name := fmt.Sprintf("f%02d.go", i)
		files[name] = "needle\n"
		names = append(names, name)
	}
	g, commit, fsys := openRepo(t, files)
	f := &fakeBackend{status: Status{Commit: commit, Files: 40, Bytes: 1 << 20, Endpoints: 1, Local: true}, files: names}
	req := search.Request{Grep: grep.Options{Pattern: "needle"}, MaxFiles: -1, Budget: -1, MaxFileSize: -1}
	out, rep, err := Search(context.Background(), fsys, g.dir, req, f)
	if err != nil || rep.Fallback != IndexBroad || len(out.Files) != 40 || !strings.Contains(rep.Detail, "asked for up to 125") {
		t.Fatalf("first: %v %+v, %d files", err, rep, len(out.Files))
	}
	Settle()
	if q := f.last.Load().(*Query); q.MaxFiles != 125 {
		t.Errorf("the query after the search had a cap of %d, want 125", q.MaxFiles)
	}
	// The second search's deadline is the least, 25 ms, which git may miss
	// on a loaded machine: a miss is retried, as it says nothing of the cap,
	// for up to 20 s (CI under load missed it five times in a row).
	for end := time.Now().Add(20 * time.Second); ; {
		forgetTimes(modelOf(g.dir))
		out, rep, err = Search(context.Background(), fsys, g.dir, req, f)
		if err != nil || rep.Fallback != Deadline || time.Now().After(end) {
			break
		}
		Settle()
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil || !rep.Index || len(out.Files) != 40 {
		t.Errorf("second: %v %+v, %d files", err, rep, len(out.Files))
	}
	// The cap is the whole path's, 125 by the prior's times (which
	// forgetTimes restored: a loaded machine measured scans four times
	// as long as the least, and the cap with them), not the probe's 16.
	if q := f.last.Load().(*Query); q.MaxFiles != 125 {
		t.Errorf("the second search's cap %d, want about 125 (the whole path's, for a query of known size)", q.MaxFiles)
	}
}

// forgetTimes makes m forget the times it learned (its scans' and its
// per-file times), so that its next estimate is the prior's: the times
// measured on a loaded machine move a cap the test expects; what it
// learned of the index's answers stays.
func forgetTimes(m *model) {
	m.mu.Lock()
	defer m.mu.Unlock()
	clear(m.scans)
	clear(m.per)
	m.calib = mean{}
}

// TestCapLearnsThePath: a whole index path slower than its parts (the
// probe and the reading) lowers the cap of the next probe of that kind;
// a search in which git took part teaches nothing about it.
func TestCapLearnsThePath(t *testing.T) {
	lenient(t, 0)
	Prior.Learn = true
	m := modelOf(t.TempDir())
	k := kind{literal: true}
	e := m.estimate("shape", k, 1<<30, false) // a scan of a second by the prior
	if c := e.cap(); c != 781 {
		t.Fatalf("prior cap %d, want 781", c)
	}
	e.git = time.Millisecond
	e.verified(1000, 10*time.Millisecond, 2*time.Second)
	if c := m.estimate("shape", k, 1<<30, false).cap(); c != 781 {
		t.Errorf("cap %d after a search with git, want 781 still", c)
	}
	e.git = 0
	e.verified(1000, 10*time.Millisecond, 2*time.Second) // 2 ms per candidate in all
	if c := m.estimate("shape", k, 1<<30, false).cap(); c != 375 {
		t.Errorf("cap %d, want 375", c)
	}
}

// TestKnownSize: the number of files an answer named is kept per query
// and commit, and lifts the next probe's cap where reading that many
// files still beats a scan.
func TestKnownSize(t *testing.T) {
	lenient(t, 0)
	Prior.Learn = true
	m := modelOf(t.TempDir())
	e := m.estimate("shape", kind{}, 1<<30, false) // a scan of a second
	q := &Query{Commit: "c1", Pattern: `func \(\w+\) Close\(\)`}
	if _, ok := m.knownSize(q); ok {
		t.Fatal("a size known before any answer")
	}
	m.setSize(q, 5000)
	other := *q
	other.Commit = "c2"
	if n, ok := m.knownSize(q); !ok || n != 5000 {
		t.Errorf("knownSize = %d, %v", n, ok)
	}
	if _, ok := m.knownSize(&other); ok {
		t.Error("a size known at another commit")
	}
	// 60 µs a file by the prior: 5,000 files take 300 ms, 20,000 take
	// 1.2 s, against three quarters of the scan (750 ms), less git's time.
	for _, tc := range []struct {
		n    int
		git  time.Duration
		want bool
	}{{5000, 0, true}, {20000, 0, false}, {5000, 500 * time.Millisecond, false}} {
		e.git = tc.git
		if got := e.wins(tc.n); got != tc.want {
			t.Errorf("wins(%d) with git %v = %v, want %v", tc.n, tc.git, got, tc.want)
		}
	}
}

// TestGitAfterProbe: git lists the changes only once the index has
// answered within the cap; a pattern too common costs the scan the probe
// alone. A git that logs its calls tells.
func TestGitAfterProbe(t *testing.T) {
	lenient(t, time.Minute)
	g, commit, fsys := openRepo(t, map[string]string{"a.go": "needle\n", "b.go": "other\n"})
	log := filepath.Join(t.TempDir(), "calls")
	wrapGit(t, `echo "$*" >> '`+log+`'`)
	calls := func() string {
		b, _ := os.ReadFile(log)
		return string(b)
	}
	f := &fakeBackend{status: Status{Commit: commit, Files: 2, Bytes: 1 << 40, Endpoints: 1, Local: true}, files: []string{"a.go"}, capped: true}
	req := search.Request{Grep: grep.Options{Pattern: "needle"}, MaxFiles: -1, Budget: -1, MaxFileSize: -1}
	if _, rep, err := Search(context.Background(), fsys, g.dir, req, f); err != nil || rep.Fallback != IndexBroad {
		t.Fatalf("capped: %v %+v", err, rep)
	}
	if c := calls(); strings.Contains(c, "diff") || strings.Contains(c, "status") {
		t.Errorf("git listed the changes for a capped answer:\n%s", c)
	}
	f.capped = false
	req.Grep.Pattern = "eedle" // not known as too common
	if out, rep, err := Search(context.Background(), fsys, g.dir, req, f); err != nil || !rep.Index || len(out.Files) != 1 {
		t.Fatalf("within the cap: %v %+v", err, rep)
	}
	if c := calls(); !strings.Contains(c, "diff") || !strings.Contains(c, "status") {
		t.Errorf("git did not list the changes for an answer within the cap:\n%s", c)
	}
}

// TestWatchedBase: in a long-lived process whose searches the index only
// ever answers over the cap, the watched tree's changes are still learned,
// so that later searches do not pay for git (and get caps without its
// cost).
func TestWatchedBase(t *testing.T) {
	lenient(t, time.Minute)
	g, commit, fsys := openRepo(t, map[string]string{"a.go": "needle\n", "b.go": "other\n"})
	r, err := findRepo(context.Background(), g.dir)
	if err != nil {
		t.Fatal(err)
	}
	tr := trackerOf(r)
	Prior.GitPerFile = time.Millisecond // git counts while the changes are not known
	f := &fakeBackend{status: Status{Commit: commit, Files: 2, Bytes: 1 << 40, Endpoints: 1, Local: true}, files: []string{"a.go"}, capped: true}
	req := search.Request{Grep: grep.Options{Pattern: "needle"}, MaxFiles: -1, Budget: -1, MaxFileSize: -1}
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; !tr.cheap(commit); i++ {
		if time.Now().After(deadline) {
			tr.mu.Lock()
			failed := tr.failed
			tr.mu.Unlock()
			if failed {
				t.Skip("watching is not available here")
			}
			t.Fatalf("after %d capped searches the changes are still not known without git", i)
		}
		req.Grep.Pattern = fmt.Sprintf("needle%d", i) // never known as too common
		if _, rep, err := Search(context.Background(), fsys, g.dir, req, f); err != nil || rep.Fallback != IndexBroad {
			t.Fatalf("%v %+v", err, rep)
		}
		time.Sleep(20 * time.Millisecond)
	}
	tr.mu.Lock()
	tr.reset()
	tr.mu.Unlock()
}

// TestScanProcs: the prior's scan rate is per processor, up to ScanProcs.
func TestScanProcs(t *testing.T) {
	lenient(t, 0)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	m := modelOf(t.TempDir())
	for _, tc := range []struct {
		procs int
		want  time.Duration
	}{{1, time.Second}, {2, time.Second / 2}, {8, time.Second / 4}} {
		Prior.ScanProcs = tc.procs
		if got := m.estimate("shape", kind{}, 1<<30, false).scan; got != tc.want {
			t.Errorf("ScanProcs %d at GOMAXPROCS 4: a GiB is scanned in %v, want %v", tc.procs, got, tc.want)
		}
	}
}

// TestColdFirstSearch: a process's first search of a tree whose changes
// git would list slower than half a scan scans without waiting for git to
// name the repository (a git that answers only once the search has
// returned tells), and still counts for the tracker.
func TestColdFirstSearch(t *testing.T) {
	lenient(t, time.Millisecond)
	Prior.GitPerFile = time.Millisecond
	g, commit, fsys := openRepo(t, map[string]string{"a.go": "needle\n"})
	gate := filepath.Join(t.TempDir(), "gate")
	open := func() {
		if err := os.WriteFile(gate, nil, 0o644); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(open) // a git still waiting goes on
	wrapGit(t, "while [ ! -e '"+gate+"' ]; do sleep 0.01; done")
	f := &fakeBackend{status: Status{Commit: commit, Files: 1000, Bytes: 1 << 20, Endpoints: 1, Local: true}, files: []string{"a.go"}}
	req := search.Request{Grep: grep.Options{Pattern: "needle"}, MaxFiles: -1, Budget: -1, MaxFileSize: -1}
	var out *search.Outcome
	var rep Report
	var err error
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		out, rep, err = Search(context.Background(), fsys, g.dir, req, f)
	}()
	// No bound on the search's time but a hang's: git answers nothing
	// until it returns.
	select {
	case <-returned:
	case <-time.After(time.Minute):
		t.Fatal("the first search waits for git")
	}
	if err != nil || rep.Fallback != ColdOverlay || len(out.Files) != 1 {
		t.Fatalf("%v %+v", err, rep)
	}
	open()
	// The tracker counts the search once git has named the repository.
	deadline := time.Now().Add(30 * time.Second)
	for {
		r, err := findRepo(context.Background(), g.dir)
		if err == nil && trackerOf(r).calls.Load() >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first search was not counted for the tracker")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// wrapGit puts first on the PATH, for the rest of the test, a git that
// runs the shell command before, then the real git.
func wrapGit(t *testing.T, before string) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	script := "#!/bin/sh\n" + before + "\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// openRepo makes a git repository of files with one commit, and returns
// it, the commit and the tree as the planner reads it.
func openRepo(t *testing.T, files map[string]string) (*gitRepo, string, fs.FS) {
	t.Helper()
	g := newGitRepo(t, files)
	fsys, release, err := fsx.OpenDir(g.dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return g, g.run("rev-parse", "HEAD"), fsys
}

// TestReincluded: files git ignores, which an index of the commit never
// holds, but which a scan reads as a rule brings them back (a "!" line of
// an .ignore or .rgignore file, a ripgrep glob), are read on the index
// path too; those a re-include cannot reach (in an ignored directory)
// stay out, as in a scan.
func TestReincluded(t *testing.T) {
	lenient(t, time.Minute)
	g, commit, fsys := openRepo(t, map[string]string{
		".gitignore": "*.gen\n*.out\nbuild/\nout/\n", ".ignore": "!keep.gen\n!build/\n", ".rgignore": "!rg.out\n",
		"a.go": "needle tracked\n", "nested/.ignore": "!*.out\n",
	})
	for p, c := range map[string]string{
		"src/keep.gen": "needle\n", "src/drop.gen": "needle\n", "src/rg.out": "needle\n", "src/other.out": "needle\n",
		"build/b.txt": "needle\n", "build/x.gen": "needle\n", "out/keep.gen": "needle\n", "out/o.txt": "needle\n",
		"nested/n.out": "needle\n", ".hid/keep.gen": "needle\n", "mixed/plain.txt": "needle\n", "mixed/keep.gen": "needle\n",
	} {
		g.write(p, c)
	}
	if err := os.Symlink("src", filepath.Join(g.dir, "linkdir")); err != nil {
		t.Skip("no symlinks here: ", err)
	}
	if err := os.Symlink("a.go", filepath.Join(g.dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	f := &fakeBackend{status: Status{Commit: commit, Files: 5, Bytes: 1000, Endpoints: 1}, files: []string{"a.go"}}
	base := search.Request{Grep: grep.Options{Pattern: "needle", CountOnly: true}, MaxFiles: -1, Budget: -1, MaxFileSize: -1}
	with := func(fn func(r *search.Request)) search.Request {
		r := base
		fn(&r)
		return r
	}
	paths := func(out *search.Outcome) []string {
		var p []string
		for _, h := range out.Files {
			p = append(p, h.Path)
		}
		return p
	}
	for _, tc := range []struct {
		name string
		root string
		req  search.Request
	}{
		{"default", "", base},
		{"rgignore", "", with(func(r *search.Request) { r.Walk.RgIgnore = true })},
		{"hidden", "", with(func(r *search.Request) { r.Walk.Hidden = true })},
		{"rg glob", "", with(func(r *search.Request) { r.Globs, r.RipgrepGlobs = []string{"*.out"}, true })},
		{"rg glob dir", "", with(func(r *search.Request) { r.Globs, r.RipgrepGlobs = []string{"out", "out/*"}, true })},
		{"path in an ignored directory", "", with(func(r *search.Request) { r.Paths = []string{"out"} })},
		{"nested root", "nested", base},
		{"through a symlink", "", with(func(r *search.Request) { r.Paths = []string{"linkdir", "nested"} })},
		{"files through a symlink", "", with(func(r *search.Request) { r.Paths = []string{"linkdir/keep.gen", "link.go", "nested"} })},
	} {
		ctx := context.Background()
		root := filepath.Join(g.dir, tc.root)
		rfs := fsys
		if tc.root != "" {
			var release func()
			var err error
			rfs, release, err = fsx.OpenDir(root)
			if err != nil {
				t.Fatal(err)
			}
			defer release()
		}
		want, err := search.Run(ctx, rfs, root, tc.req)
		if err != nil {
			t.Fatal(err)
		}
		got, rep, err := Search(ctx, rfs, root, tc.req, f)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Index {
			t.Errorf("%s: the index did not answer: %+v", tc.name, rep)
		}
		assert.Equal(t, paths(want), paths(got), tc.name)
		assert.Equal(t, want.TotalLines, got.TotalLines, tc.name)
	}
}

// TestIgnoredWhenReincluded: the files git ignores are candidates only
// when the search's rules may bring one back (a ripgrep glob, a "!" line
// of a .ignore file, or of a .rgignore file the search reads, in the tree
// or above its top); either way the outcome is a scan's.
func TestIgnoredWhenReincluded(t *testing.T) {
	lenient(t, time.Minute)
	g, commit, fsys := openRepo(t, map[string]string{".gitignore": "*.o\n", "a.c": "needle\n", ".rgignore": "!*.o\n"})
	g.write("x.o", "needle ignored\n")
	g.write("sub/y.o", "needle ignored\n")
	f := &fakeBackend{status: Status{Commit: commit, Files: 3, Bytes: 1000, Endpoints: 1}, files: []string{"a.c"}}
	base := search.Request{Grep: grep.Options{Pattern: "needle", CountOnly: true}, MaxFiles: -1, Budget: -1, MaxFileSize: -1}
	check := func(name string, req search.Request, wantIgnored bool) {
		t.Helper()
		ctx := context.Background()
		d, err := plan(ctx, fsys, g.dir, &req, f, make(chan time.Duration, 1))
		if err != nil || d.cand == nil {
			t.Fatalf("%s: %v %+v", name, err, d.rep)
		}
		if got := slices.Contains(d.cand.Files, "sub/y.o"); got != wantIgnored {
			t.Errorf("%s: the ignored files are candidates: %v, want %v", name, got, wantIgnored)
		}
		want, err := search.Run(ctx, fsys, g.dir, req)
		if err != nil {
			t.Fatal(err)
		}
		got, rep, err := Search(ctx, fsys, g.dir, req, f)
		if err != nil || !rep.Index {
			t.Fatalf("%s: %v %+v", name, err, rep)
		}
		var wantPaths, gotPaths []string
		for _, h := range want.Files {
			wantPaths = append(wantPaths, h.Path)
		}
		for _, h := range got.Files {
			gotPaths = append(gotPaths, h.Path)
		}
		assert.Equal(t, wantPaths, gotPaths, name)
	}
	rg := base
	rg.Walk.RgIgnore = true
	globbed := base
	globbed.Globs, globbed.RipgrepGlobs = []string{"*.o"}, true
	check("default", base, false)
	check("rgignore", rg, true)
	check("ripgrep glob", globbed, true)
	// A .ignore above the work tree's top, which a search reads.
	above := filepath.Join(filepath.Dir(g.dir), ".ignore")
	if err := os.WriteFile(above, []byte("# re-included\n!x.o\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("above the top", base, true)
	if err := os.WriteFile(above, []byte("*.tmp\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("above the top, no re-include", base, false)
	// One in the tree, untracked and ignored.
	g.write(".gitignore", "*.o\n.ignore\n")
	g.write("sub/.ignore", "\ufeff!y.o\n")
	check("ignored .ignore", base, true)
}
