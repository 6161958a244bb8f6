package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/search"
)

// Backend is an index as the planner uses it; see scout.Index, which the
// root package adapts to it. Paths are relative to the repository's top.
type Backend interface {
	Status(ctx context.Context) (Status, error)
	Search(ctx context.Context, q *Query) (Answer, error)
	Unindexed(ctx context.Context, commit string) ([]Unindexed, error)
}

// Status is what an index holds.
type Status struct {
	Commit    string
	Files     int
	Bytes     int64
	Endpoints int
}

// Query is a search in an index's terms (see scout.IndexQuery).
type Query struct {
	Commit           string
	Pattern          string
	IgnoreCase       bool
	Include, Exclude []string
	MaxFiles         int
}

// Answer is an index's answer (see scout.IndexAnswer).
type Answer struct {
	Files      []string
	Capped     bool
	Incomplete []string
	Endpoints  int
}

// Unindexed is a file an index holds without its content.
type Unindexed struct {
	Path, Reason string
}

// Report says how a search was answered (see scout.Backend).
type Report struct {
	Index     bool
	Endpoints int
	Commit    string
	Overlay   int
	Unindexed int
	Fallback  string
	Detail    string
}

// The fallback reasons (see scout.Backend).
const (
	EmptyPattern   = "empty_pattern"
	Multiline      = "multiline"
	LineRanges     = "line_ranges"
	ArchiveMember  = "archive_member"
	InternalURL    = "internal_url"
	NamedFiles     = "named_files"
	NoLiteral      = "no_literal"
	FoldRegex      = "fold_regex"
	NotOSDir       = "not_os_dir"
	NotGit         = "not_git"
	SmallIndex     = "small_index"
	RepoNotIndexed = "repo_not_indexed"
	ForeignCommit  = "foreign_commit"
	StaleCommit    = "stale_commit"
	ChangedSet     = "changed_set"
	ColdOverlay    = "cold_overlay"
	IndexBroad     = "index_broad"
	Incomplete     = "index_incomplete"
	Deadline       = "index_deadline"
	IndexError     = "index_error"
)

// The planner's cost model. A scan reads about scanRate bytes a second;
// the index gets a quarter of a scan's estimated time (within
// [minDeadline, maxDeadline]) and may name at most 1/32 of its files, so
// that reading its candidates costs a fraction of a scan, and a probe that
// proves a pattern too common wastes little.
const (
	scanRate    = 1 << 30
	minDeadline = 250 * time.Millisecond
	maxDeadline = 5 * time.Second
	minCap      = 64
	capShare    = 32
	// smallProbe is the cap of the first, small probe.
	smallProbe = 64
	// minChanged and changedShare bound the changed files read directly:
	// the larger of minChanged and 1/changedShare of the indexed files.
	minChanged   = 256
	changedShare = 8
	// A plan undecided after 1/hedgeShare of a scan's estimated time
	// (within [minHedge, maxHedge]) races a scan.
	hedgeShare = 4
	minHedge   = 10 * time.Millisecond
	maxHedge   = time.Second
)

// MinBytes is the least indexed content for which the index is asked: on
// smaller trees a scan takes tens of milliseconds, no more than the work
// around an index answer. Tests lower it.
var MinBytes int64 = 32 << 20

// GitPerFile is what finding the changed set with git costs per indexed
// file, about (git diff stats every tracked file, git ls-files --others
// lists every directory). When the tree is not watched yet and that costs
// more than half a scan, the tree is scanned: the first searches of a
// process, and every search of a one-shot command, on a tree of small
// files. Tests set it to 0.
var GitPerFile = 10 * time.Microsecond

// Hedge starts a scan beside a plan that is slow to decide or finds many
// files (see Search).
// Tests turn it off to see the index answer on trees a scan reads in a
// millisecond.
var Hedge = true

// Search answers req (with fsys the tree at the OS directory root) through
// the index when the planner finds that it can be exact and is likely
// faster, and by a scan otherwise, saying which in the report. The outcome
// is a scan's in either case.
//
// The plan is hedged: a scan starts beside it, and whichever finishes
// first answers, when the index's first, small probe finds more than 64
// matching files (the pattern may be too common for the index: the full
// probe then runs beside the scan, not before it), or when the plan is
// still undecided after a quarter of a scan's estimated time (hedgeShare,
// within [minHedge, maxHedge]): a slow index, or git slow to list the
// changes, costs at most that much more than the scan.
func Search(ctx context.Context, fsys fs.FS, root string, req search.Request, b Backend) (*search.Outcome, Report, error) {
	type planned struct {
		rep  Report
		cand *search.Candidates
		err  error
	}
	type scanned struct {
		out *search.Outcome
		err error
	}
	start := time.Now()
	pctx, cancelPlan := context.WithCancel(ctx)
	defer cancelPlan()
	hedgeAt := make(chan time.Duration, 2)
	plans := make(chan planned, 1)
	go func() {
		rep, cand, err := plan(pctx, fsys, root, &req, b, hedgeAt)
		plans <- planned{rep, cand, err}
	}()
	sctx, cancelScan := context.WithCancel(ctx)
	defer cancelScan()
	var (
		hedge <-chan time.Time
		scans chan scanned // nil until the scan starts
	)
	for {
		select {
		case at := <-hedgeAt:
			if Hedge && scans == nil {
				hedge = time.After(at - time.Since(start))
			}
		case <-hedge:
			hedge = nil
			scans = make(chan scanned, 1)
			go func(req search.Request) {
				out, err := search.Run(sctx, fsys, root, req)
				scans <- scanned{out, err}
			}(req)
		case s := <-scans:
			if s.err != nil {
				return nil, Report{}, s.err
			}
			return s.out, Report{Fallback: Deadline, Detail: fmt.Sprintf("a scan started beside the plan finished first, after %v", time.Since(start).Round(time.Millisecond))}, nil
		case p := <-plans:
			switch {
			case p.err != nil:
				return nil, p.rep, p.err
			case p.cand == nil && scans != nil:
				s := <-scans
				return s.out, p.rep, s.err
			case p.cand == nil:
				out, err := search.Run(ctx, fsys, root, req)
				return out, p.rep, err
			}
			cancelScan()
			req.Candidates = p.cand
			out, err := search.Run(ctx, fsys, root, req)
			return out, p.rep, err
		}
	}
}

// plan returns the candidates to search, or nil when the tree must be
// scanned, with the reason in the report. It sends on hedgeAt when a scan
// should start beside it (a time since the search began): once the
// index's status tells the scan's estimated time, and at once when a first
// small probe finds that many files match.
func plan(ctx context.Context, fsys fs.FS, root string, req *search.Request, b Backend, hedgeAt chan<- time.Duration) (Report, *search.Candidates, error) {
	why, detail, err := static(fsys, req)
	if err != nil || why != "" {
		return Report{Fallback: why, Detail: detail}, nil, err
	}
	pattern, fold, err := LineSafe(req.Grep.Pattern, req.Grep.IgnoreCase)
	if err != nil {
		return Report{Fallback: Multiline, Detail: err.Error()}, nil, nil
	}
	lits, err := grep.RequiredLiterals(req.Grep)
	if err != nil {
		return Report{}, nil, err
	}
	switch {
	case lits.MinRunes < 3:
		return Report{Fallback: NoLiteral}, nil, nil
	case fold && !lits.Exact:
		return Report{Fallback: FoldRegex}, nil, nil
	}
	dir := fsys.(fsx.OSDir).OSDir()

	// The index's status, the repository and its changes since the
	// indexed commit.
	sctx, cancel := context.WithTimeout(ctx, maxDeadline)
	st, err := b.Status(sctx)
	cancel()
	if err != nil {
		return indexFailure(ctx, err)
	}
	rep := Report{Endpoints: st.Endpoints, Commit: st.Commit}
	hedgeAt <- min(max(scanEstimate(st.Bytes)/hedgeShare, minHedge), maxHedge)
	switch {
	case st.Commit == "":
		rep.Fallback = RepoNotIndexed
		return rep, nil, nil
	case st.Bytes < MinBytes:
		rep.Fallback, rep.Detail = SmallIndex, fmt.Sprintf("%d bytes indexed", st.Bytes)
		return rep, nil, nil
	}
	r, err := findRepo(ctx, dir)
	if err != nil {
		rep.Fallback, rep.Detail = NotGit, err.Error()
		return rep, nil, errs.Stopped(ctx, "Search", ctx.Err())
	}
	tr := trackerOf(r)
	if git := GitPerFile * time.Duration(st.Files); !tr.visit(req.Walk.NoIgnore) && git > scanEstimate(st.Bytes)/2 {
		rep.Fallback, rep.Detail = ColdOverlay, fmt.Sprintf("finding the changed files with git would take about %v, a scan about %v", git.Round(time.Millisecond), scanEstimate(st.Bytes).Round(time.Millisecond))
		return rep, nil, nil
	}
	include, exclude, ok, err := search.PathFilters(ctx, fsys, root, req)
	if err != nil || !ok {
		if err == nil {
			rep.Fallback = ArchiveMember
		}
		return rep, nil, err
	}
	deadline := min(max(scanEstimate(st.Bytes)/4, minDeadline), maxDeadline)
	q := &Query{
		Commit:     st.Commit,
		Pattern:    pattern,
		IgnoreCase: fold,
		Include:    r.fromRoot(include),
		Exclude:    r.fromRoot(exclude),
		MaxFiles:   max(st.Files/capShare, minCap),
	}
	if r.prefix != "" {
		q.Include = append(q.Include, "^"+regexp.QuoteMeta(r.prefix))
	}

	// The changes, the index's answer and its unindexed files at once.
	var (
		wg                   sync.WaitGroup
		ch                   *Changes
		chErr, ansErr, unErr error
		ans                  Answer
		un                   []Unindexed
	)
	ictx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	wg.Go(func() { ch, chErr = tr.changes(ctx, st.Commit, req.Walk.NoIgnore) })
	wg.Go(func() {
		// A small probe first: most patterns worth the index match few
		// files. When more match, a scan starts beside the full probe.
		if q.MaxFiles > smallProbe {
			small := *q
			small.MaxFiles = smallProbe
			if ans, ansErr = b.Search(ictx, &small); ansErr != nil || !ans.Capped {
				return
			}
			hedgeAt <- 0
		}
		ans, ansErr = b.Search(ictx, q)
	})
	wg.Go(func() { un, unErr = unindexed(ictx, b, r, st) })
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return rep, nil, err
	}
	switch {
	case chErr != nil:
		var fe *foreignError
		switch {
		case errors.As(chErr, &fe):
			rep.Fallback, rep.Detail = ForeignCommit, chErr.Error()
		default:
			rep.Fallback, rep.Detail = NotGit, chErr.Error()
		}
		return rep, nil, nil
	case ch.Stale:
		rep.Fallback, rep.Detail = StaleCommit, "HEAD does not descend from "+st.Commit
		return rep, nil, nil
	case ansErr != nil || unErr != nil:
		if ictx.Err() != nil {
			rep.Fallback, rep.Detail = Deadline, fmt.Sprintf("no answer within %v", deadline)
			return rep, nil, nil
		}
		rep.Fallback, rep.Detail = IndexError, errors.Join(ansErr, unErr).Error()
		return rep, nil, nil
	case ans.Capped:
		rep.Fallback, rep.Detail = IndexBroad, fmt.Sprintf("more than %d files match", q.MaxFiles)
		return rep, nil, nil
	case len(ans.Incomplete) > 0:
		rep.Fallback, rep.Detail = Incomplete, strings.Join(ans.Incomplete, "; ")
		return rep, nil, nil
	}
	limit := max(st.Files/changedShare, minChanged)
	cand, n := ch.inRoot(r)
	if n < 0 {
		rep.Fallback, rep.Detail = ChangedSet, "the search root is not tracked by git"
		return rep, nil, nil
	}
	if n > limit {
		rep.Fallback, rep.Detail = ChangedSet, fmt.Sprintf("%d changed paths since %s (at most %d)", n, st.Commit, limit)
		return rep, nil, nil
	}
	rep.Index, rep.Overlay = true, n
	rep.Endpoints = ans.Endpoints
	for _, p := range ans.Files {
		if rel, ok := r.toRoot(p); ok && !ch.covers(p) {
			cand.Files = append(cand.Files, rel)
		}
	}
	extra, err := readable(ctx, fsys, r, st, un, ch, include, exclude, req.MaxFileSize)
	if err != nil {
		return rep, nil, err
	}
	rep.Unindexed = len(extra)
	cand.Files = append(cand.Files, extra...)
	return rep, cand, nil
}

// static returns the fallback reason a request has on its own, before any
// index is asked.
func static(fsys fs.FS, req *search.Request) (why, detail string, err error) {
	switch {
	case req.Grep.Pattern == "":
		return EmptyPattern, "", nil
	case req.Grep.Multiline || req.Grep.DotAll:
		return Multiline, "", nil
	case len(req.Grep.LineRanges) > 0:
		return LineRanges, "", nil
	}
	if _, ok := fsys.(fsx.OSDir); !ok {
		return NotOSDir, "", nil
	}
	files := len(req.Paths) > 0
	for _, p := range req.Paths {
		switch {
		case req.Registry != nil && req.Registry.CanHandle(p):
			return InternalURL, p, nil
		case strings.ContainsRune(p, ':'):
			return ArchiveMember, p, nil
		}
		if files {
			fi, err := pathutil.Stat(fsys, strings.TrimPrefix(p, "./"))
			files = err == nil && fi.Mode().IsRegular()
		}
	}
	if files {
		return NamedFiles, "", nil
	}
	return "", "", nil
}

// indexFailure turns a failed Status into a fallback, or the context's
// error when the search itself was canceled.
func indexFailure(ctx context.Context, err error) (Report, *search.Candidates, error) {
	if err := errs.Stopped(ctx, "Search", ctx.Err()); err != nil {
		return Report{}, nil, err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Report{Fallback: Deadline, Detail: err.Error()}, nil, nil
	}
	return Report{Fallback: IndexError, Detail: err.Error()}, nil, nil
}

// scanEstimate is how long a scan of n bytes takes, about.
func scanEstimate(n int64) time.Duration {
	return time.Duration(float64(n) / scanRate * float64(time.Second))
}
