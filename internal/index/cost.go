package index

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/scoutkit/scout/internal/search"
)

// Costs are the planner's assumptions about the time things take, before
// a process has measured any (Prior), with the shares that turn them into
// a probe's cap and deadline.
type Costs struct {
	// ScanRate is the bytes of indexed content a scan of the whole tree
	// reads per second on each processor it runs on, counted up to
	// ScanProcs.
	ScanRate  float64
	ScanProcs int
	// MinScan is the least a scan is estimated to take.
	MinScan time.Duration
	// ProbePerFile is the index's time per matching file it names, and
	// VerifyPerFile the time to read one candidate file with Scout's
	// matcher (opening it at random costs more than a scan's sequential
	// reading).
	ProbePerFile, VerifyPerFile time.Duration
	// GitPerFile is what listing the changes with git costs per indexed
	// file (git diff stats every tracked file, git ls-files --others lists
	// every directory), when the tree is not watched.
	GitPerFile time.Duration
	// Learn refines the scan estimates and the per-file times from what
	// this process measures.
	Learn bool
}

// Prior is the cost model a process starts from; tests replace it. The
// figures were measured on a 2-core machine, with the tree in the page
// cache: a scan of the Go source tree (130 MB, 11,478 files) takes 60-170
// ms, of a 1 GB tree 0.45-2 s; a zoekt webserver names matching files at
// 12-19 µs each for a rare pattern, and a probe of a common one capped at
// n matches (shared by the shards) takes 3 ms plus 15-22 µs per match;
// Scout reads a candidate in 25-40 µs; git diff and git ls-files --others
// together take 2-7 µs per file. The scan's rate is the least expected:
// an estimate too low only scans where the index might have won.
var Prior = Costs{
	ScanRate:      1 << 30,
	ScanProcs:     8,
	MinScan:       10 * time.Millisecond,
	ProbePerFile:  20 * time.Microsecond,
	VerifyPerFile: 40 * time.Microsecond,
	GitPerFile:    4 * time.Microsecond,
	Learn:         true,
}

// The shares of a scan's estimated time.
const (
	// winNum/winDen and wasteShare set a probe's cap: the index path
	// (naming the files, git's listing of the changes when the tree is
	// not watched, reading every candidate) must take at most
	// winNum/winDen of a scan, and a probe that finds the pattern too
	// common (its answer capped) at most 1/wasteShare of one.
	winNum, winDen = 3, 4
	wasteShare     = 64
	// deadlineShare: an index on this machine gets 1/deadlineShare of a
	// scan's estimated time (plus git's, when the tree is not watched)
	// before the plan gives up and scans.
	deadlineShare = 4
	// hedgeShare: beside an index on another machine, a scan starts after
	// 1/hedgeShare of its estimated time, and the first to finish answers.
	hedgeShare = 4
)

// learnMin is the least number of files from which a time per file is
// learned: an answer that names a few files costs the index mostly what
// the query costs it whatever it finds (the round trip, the candidates a
// regex rejects), and would make every pattern of its kind look dear.
const learnMin = 256

// The bounds of the derived figures.
const (
	minCap      = 16
	maxCap      = 1 << 16
	minDeadline = 25 * time.Millisecond
	maxDeadline = 5 * time.Second
)

// A model is what a process has learned about searching one tree: how
// long its scans take by the request's shape (the scope, the filters, the
// kind of pattern), how that compares with the prior estimate, the
// index's and the verification's time per file, and what the index
// answered to each query at an indexed commit.
type model struct {
	mu    sync.Mutex
	scans map[string]*mean
	calib mean                // observed scan time ÷ prior estimate
	per   map[kind]*rates     // per-file times by the kind of pattern
	known map[string]answered // by query and commit (queryKey)
}

// answered is the last that an index answered to a query at a commit:
// it named n files, or, when capped, more than n.
type answered struct {
	n      int
	capped bool
}

// kind is what the index's and the verification's time per file depend
// on: whether the pattern is a literal (a regex costs more per file), and
// whether it folds case.
type kind struct{ literal, fold bool }

// rates are the learned per-file times of one kind of pattern.
type rates struct {
	probe  mean // seconds per file named by the index
	verify mean // seconds per candidate read
	path   mean // seconds per candidate of a whole search the index answered, its status round trip aside
}

// mean is an exponentially weighted mean; n counts the samples.
type mean struct {
	v float64
	n int
}

func (m *mean) add(x float64) {
	if m.n == 0 {
		m.v = x
	} else {
		m.v += (x - m.v) * 0.3
	}
	m.n++
}

// The bounds of what a process keeps.
const (
	maxModels = 8
	maxShapes = 256
	maxKnown  = 4096
)

var (
	modelsMu sync.Mutex
	models   = map[string]*model{}
)

// modelOf returns the model of the tree at the OS directory dir.
func modelOf(dir string) *model {
	modelsMu.Lock()
	defer modelsMu.Unlock()
	m := models[dir]
	if m == nil {
		if len(models) >= maxModels {
			clear(models)
		}
		m = &model{scans: map[string]*mean{}, per: map[kind]*rates{}, known: map[string]answered{}}
		models[dir] = m
	}
	return m
}

// shapeOf names what a scan's time depends on besides the tree: its
// scope and filters, the kind of pattern and of output.
func shapeOf(req *search.Request, k kind) string {
	return fmt.Sprintf("%q %q %v %q %v %v %v %q %d %v %v", req.Paths, req.Globs, req.RipgrepGlobs, req.Types, req.Walk.Hidden,
		req.Walk.NoIgnore, req.Walk.RgIgnore, req.Walk.PruneDirs, req.MaxFileSize, k, req.Grep.CountOnly)
}

// An estimate is the model's view of one request.
type estimate struct {
	m     *model
	shape string
	kind  kind
	prior time.Duration // the scan's time by the prior
	scan  time.Duration // the scan's estimated time
	// rtt and git are the index's status round trip and git's estimated
	// time in the plan; set by the plan.
	rtt, git time.Duration
}

// scopedShare is the share of the tree a scoped search (paths, globs,
// types) is taken to read until a scan of its shape has been timed: a
// glob such as *_test.go reads a sixth of the Go tree, *.md less, and a
// probe sized for the whole tree would cost such a scan more than it
// could save.
const scopedShare = 0.25

// estimate returns the model's view of a request of the given shape and
// kind over an index of bytes; scoped says the request reads part of the
// tree (paths, globs, types).
func (m *model) estimate(shape string, k kind, bytes int64, scoped bool) *estimate {
	procs := max(min(runtime.GOMAXPROCS(0), Prior.ScanProcs), 1)
	prior := time.Duration(float64(bytes) / (Prior.ScanRate * float64(procs)) * float64(time.Second))
	if scoped {
		prior = time.Duration(float64(prior) * scopedShare)
	}
	e := &estimate{m: m, shape: shape, kind: k, prior: prior, scan: prior}
	if Prior.Learn {
		m.mu.Lock()
		if s := m.scans[shape]; s != nil {
			e.scan = time.Duration(s.v)
		} else if m.calib.n > 0 {
			e.scan = time.Duration(float64(prior) * m.calib.v)
		}
		m.mu.Unlock()
	}
	e.scan = max(e.scan, Prior.MinScan)
	return e
}

// perFile returns the learned times per file of the estimate's kind of
// pattern, or the prior's: the index's, the verification's, and the whole
// index path's (0 until learned).
func (e *estimate) perFile() (probe, verify, path time.Duration) {
	probe, verify = Prior.ProbePerFile, Prior.VerifyPerFile
	if !Prior.Learn {
		return probe, verify, 0
	}
	e.m.mu.Lock()
	defer e.m.mu.Unlock()
	if r := e.m.per[e.kind]; r != nil {
		if r.probe.n > 0 {
			probe = time.Duration(r.probe.v * float64(time.Second))
		}
		if r.verify.n > 0 {
			verify = time.Duration(r.verify.v * float64(time.Second))
		}
		if r.path.n > 0 {
			path = time.Duration(r.path.v * float64(time.Second))
		}
	}
	return probe, verify, path
}

// rates returns the learned times of the estimate's kind. m.mu is held.
func (e *estimate) rates() *rates {
	r := e.m.per[e.kind]
	if r == nil {
		r = &rates{}
		e.m.per[e.kind] = r
	}
	return r
}

// cap is the number of files a probe asks for: as many as the index path
// can name and read in three quarters of a scan (fullCap), and no more
// than the index names in a sixty-fourth of one (what a capped probe
// wastes).
func (e *estimate) cap() int {
	probe, _, _ := e.perFile()
	return clampCap(min(e.winFiles(), float64(e.scan)/wasteShare/float64(max(probe, time.Nanosecond))))
}

// fullCap is the number of files the index path can name and read (at the
// larger of the sum of its parts' learned times per file and its own),
// after git's listing of the changes (0 when the tree is watched), in
// three quarters of a scan: the cap of a probe made once a search has
// answered, which delays no search.
func (e *estimate) fullCap() int { return clampCap(e.winFiles()) }

func (e *estimate) winFiles() float64 {
	probe, verify, path := e.perFile()
	return float64(e.scan*winNum/winDen-e.git) / float64(max(probe+verify, path, time.Nanosecond))
}

func clampCap(n float64) int { return int(min(max(n, minCap), maxCap)) }

// deadline is the time the plan may take beside an index on this machine,
// git's estimated time included, scaled by the machine's load.
func (e *estimate) deadline(git time.Duration) time.Duration {
	return bound(time.Duration(float64(e.scan/deadlineShare+git) * loadFactor()))
}

// remoteDeadline is the time the plan may take beside an index on another
// machine, while a scan races it: a whole scan and git, scaled by the load.
func (e *estimate) remoteDeadline(git time.Duration) time.Duration {
	return bound(time.Duration(float64(e.scan+git) * loadFactor()))
}

// hedge is when a scan starts beside an index on another machine.
func (e *estimate) hedge() time.Duration {
	return bound(e.scan / hedgeShare)
}

func bound(d time.Duration) time.Duration { return min(max(d, minDeadline), maxDeadline) }

// scanned records a scan of the request's shape that ran alone.
func (e *estimate) scanned(d time.Duration) {
	m := e.m
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.scans[e.shape]
	if s == nil {
		if len(m.scans) >= maxShapes {
			clear(m.scans)
		}
		s = &mean{}
		m.scans[e.shape] = s
	}
	s.add(float64(d))
	if e.prior > 0 {
		m.calib.add(float64(d) / float64(e.prior))
	}
}

// probed records an index answer that named n files in d, of which the
// status's round trip is taken to be the fixed part.
func (e *estimate) probed(n int, d time.Duration) {
	if n < learnMin {
		return
	}
	e.m.mu.Lock()
	e.rates().probe.add(max(d-e.rtt, 0).Seconds() / float64(n))
	e.m.mu.Unlock()
}

// verified records the reading of n candidates in d, and the whole
// search, which took total, when git had no part in it.
func (e *estimate) verified(n int, d, total time.Duration) {
	if n < learnMin {
		return
	}
	e.m.mu.Lock()
	defer e.m.mu.Unlock()
	e.rates().verify.add(d.Seconds() / float64(n))
	if e.git == 0 {
		e.rates().path.add(max(total-e.rtt, 0).Seconds() / float64(n))
	}
}

// queryKey names a query at its commit.
func queryKey(q *Query) string {
	return strings.Join([]string{q.Commit, q.Pattern, fmt.Sprint(q.IgnoreCase), strings.Join(q.Include, "\x01"), strings.Join(q.Exclude, "\x01")}, "\x00")
}

// knownBroad returns the cap a query exceeded at its commit before, 0 if
// none.
func (m *model) knownBroad(q *Query) int {
	if a, ok := m.lookup(q); ok && a.capped {
		return a.n
	}
	return 0
}

// knownSize returns the number of files an earlier answer to q at its
// commit named, and whether there was one: the index's answer at a
// commit does not change.
func (m *model) knownSize(q *Query) (int, bool) {
	a, ok := m.lookup(q)
	return a.n, ok && !a.capped
}

// setBroad records that more files than q.MaxFiles match q, in place of
// the size of an earlier answer.
func (m *model) setBroad(q *Query) {
	m.record(q, func(a answered) answered {
		if a.capped {
			return answered{max(a.n, q.MaxFiles), true}
		}
		return answered{q.MaxFiles, true}
	})
}

// setSize records that the index answered q naming n files, in place of
// an earlier capped answer.
func (m *model) setSize(q *Query, n int) {
	m.record(q, func(answered) answered { return answered{n: n} })
}

// lookup returns what the index answered to q at its commit before.
func (m *model) lookup(q *Query) (answered, bool) {
	if !Prior.Learn {
		return answered{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.known[queryKey(q)]
	return a, ok
}

// record replaces what is known of q's answers by next of it.
func (m *model) record(q *Query, next func(answered) answered) {
	if !Prior.Learn {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.known) >= maxKnown {
		clear(m.known)
	}
	k := queryKey(q)
	m.known[k] = next(m.known[k])
}

// wins reports whether the index path naming and reading n files is
// estimated to take less than three quarters of a scan.
func (e *estimate) wins(n int) bool {
	probe, verify, path := e.perFile()
	return time.Duration(n)*max(probe+verify, path) < e.scan*winNum/winDen-e.git
}
