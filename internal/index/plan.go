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
	"github.com/scoutkit/scout/internal/selector"
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
	Local     bool
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

// minChanged and changedShare bound the changed files read directly: the
// larger of minChanged and 1/changedShare of the indexed files.
const (
	minChanged   = 256
	changedShare = 8
)

// MinBytes is the least indexed content for which the index is asked: on
// smaller trees a scan takes tens of milliseconds, no more than the work
// around an index answer. Tests lower it.
var MinBytes int64 = 32 << 20

// Search answers req (with fsys the tree at the OS directory root) through
// the index when the planner finds that it can be exact and is likely
// faster, and by a scan otherwise, saying which in the report. The outcome
// is a scan's in either case.
//
// The plan decides before any scan starts. It estimates the scan's time
// (from the indexed bytes and the processors, a quarter of them for a
// search of part of the tree, refined by the scans of the same shape this
// process has timed), and asks the index for at most as many files as the
// index path can name and read (after git's listing of the changes, when
// the tree is not watched) in three quarters of that time, and no more
// than the index names in a sixty-fourth of it: an answer within the cap
// is read file by file, a capped one means a scan. Once that scan has
// answered, the index is asked again in the background with the first
// bound alone, and what it answers is remembered for the query at that
// commit: the next such search reads the files it named, or scans at once
// (a query found too common is asked again only when the cap has
// doubled). Git is asked only once the index has answered within the cap.
// An index on this machine is never raced by a scan, which would compete
// with it for the processors: a plan still undecided after a quarter of
// the scan's estimated time (plus git's, when the tree is not watched)
// gives up and scans. Beside an index on another machine a scan starts
// after a quarter of its estimated time, and the first to finish answers.
func Search(ctx context.Context, fsys fs.FS, root string, req search.Request, b Backend) (*search.Outcome, Report, error) {
	type planned struct {
		d   decision
		err error
	}
	type scanned struct {
		out *search.Outcome
		err error
	}
	start := time.Now()
	pctx, cancelPlan := context.WithCancel(ctx)
	defer cancelPlan()
	hedgeAt := make(chan time.Duration, 1)
	plans := make(chan planned, 1)
	go func() {
		d, err := plan(pctx, fsys, root, &req, b, hedgeAt)
		plans <- planned{d, err}
	}()
	sctx, cancelScan := context.WithCancel(ctx)
	defer cancelScan()
	var (
		hedge <-chan time.Time
		scans chan scanned // nil until a scan starts beside the plan
	)
	for {
		select {
		case at := <-hedgeAt:
			hedge = time.After(at - time.Since(start))
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
			d := p.d
			if d.learn != nil {
				defer d.learn()
			}
			switch {
			case p.err != nil:
				return nil, d.rep, p.err
			case d.cand == nil && scans != nil:
				s := <-scans
				return s.out, d.rep, s.err
			case d.cand == nil:
				t := time.Now()
				out, err := search.Run(ctx, fsys, root, req)
				if err == nil && d.est != nil {
					d.est.scanned(time.Since(t))
				}
				return out, d.rep, err
			}
			cancelScan()
			req.Candidates = d.cand
			t := time.Now()
			out, err := search.Run(ctx, fsys, root, req)
			if err == nil {
				d.est.verified(len(d.cand.Files), time.Since(t), time.Since(start))
			}
			return out, d.rep, err
		}
	}
}

// decision is a plan's outcome: the candidates to search, or nil when the
// tree must be scanned (the report says why), and the estimate the plan
// used (nil when the request never reached it), which learns the time the
// search then takes.
type decision struct {
	rep  Report
	cand *search.Candidates
	est  *estimate
	// learn, when not nil, starts what the plan wants learned once the
	// search has answered.
	learn func()
}

// plan decides how to answer req. For an index on another machine, it
// sends on hedgeAt when a scan should start beside it (a time since the
// search began).
func plan(ctx context.Context, fsys fs.FS, root string, req *search.Request, b Backend, hedgeAt chan<- time.Duration) (decision, error) {
	why, detail, err := static(fsys, req)
	if err != nil || why != "" {
		return decision{rep: Report{Fallback: why, Detail: detail}}, err
	}
	pattern, fold, err := LineSafe(req.Grep.Pattern, req.Grep.IgnoreCase)
	if err != nil {
		return decision{rep: Report{Fallback: Multiline, Detail: err.Error()}}, nil
	}
	lits, err := grep.RequiredLiterals(req.Grep)
	if err != nil {
		return decision{}, err
	}
	switch {
	case lits.MinRunes < 3:
		return decision{rep: Report{Fallback: NoLiteral}}, nil
	case fold && !lits.Exact:
		return decision{rep: Report{Fallback: FoldRegex}}, nil
	}
	dir := fsys.(fsx.OSDir).OSDir()

	// The index's status, the repository, the estimates.
	type found struct {
		r   *repo
		err error
	}
	repoc := make(chan found, 1)
	go func() {
		// Not canceled with the plan, which may end before git answers
		// (a cold first search); git rev-parse ends on its own.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), maxDeadline)
		defer cancel()
		r, err := findRepo(rctx, dir)
		repoc <- found{r, err}
	}()
	sctx, cancel := context.WithTimeout(ctx, maxDeadline)
	t := time.Now()
	st, err := b.Status(sctx)
	rtt := time.Since(t)
	cancel()
	if err != nil {
		rep, err := indexFailure(ctx, err)
		return decision{rep: rep}, err
	}
	d := decision{rep: Report{Endpoints: st.Endpoints, Commit: st.Commit}}
	switch {
	case st.Commit == "":
		d.rep.Fallback = RepoNotIndexed
		return d, nil
	case st.Bytes < MinBytes:
		d.rep.Fallback, d.rep.Detail = SmallIndex, fmt.Sprintf("%d bytes indexed", st.Bytes)
		return d, nil
	}
	k := kind{literal: lits.Exact, fold: fold}
	scoped := len(req.Paths)+len(req.Globs)+len(req.Types) > 0
	est := modelOf(dir).estimate(shapeOf(req, k), k, st.Bytes, scoped)
	est.rtt = rtt
	d.est = est
	gitCost := Prior.GitPerFile * time.Duration(st.Files) // git's listing of the changes, estimated
	if _, found := repos.Load(dir); !found && gitCost > est.scan/2 {
		// The process's first search of the tree, which nothing watches
		// yet, and git would cost more than half a scan: the scan starts
		// without waiting for git to name the repository; the search
		// still counts for the tracker, which watches from the second.
		est.git = gitCost
		go func() {
			if f := <-repoc; f.err == nil {
				trackerOf(f.r).visit(req.Walk.NoIgnore)
			}
		}()
		d.rep.Fallback, d.rep.Detail = ColdOverlay, coldDetail(est)
		return d, nil
	}
	var f found
	select {
	case f = <-repoc:
	case <-ctx.Done():
		return d, errs.Stopped(ctx, "Search", ctx.Err())
	}
	r := f.r
	if err := f.err; err != nil {
		d.rep.Fallback, d.rep.Detail = NotGit, err.Error()
		return d, errs.Stopped(ctx, "Search", ctx.Err())
	}
	tr := trackerOf(r)
	watched := tr.visit(req.Walk.NoIgnore)
	var git time.Duration // git's estimated time, when the plan needs git
	if !watched || !tr.cheap(st.Commit) {
		git = gitCost
	}
	est.git = git
	if watched && git > 0 {
		// A watched tree whose changes since this commit are not known
		// yet: learn them once the search has answered, whatever the
		// index answers (a pattern too common never asks git), so that
		// the next search knows them without git, and git does not
		// compete with this search's scan.
		commit := st.Commit
		d.learn = func() { learning.Go(func() { _, _ = tr.changes(context.WithoutCancel(ctx), commit, false) }) }
	}
	if !watched && git > est.scan/2 {
		d.rep.Fallback, d.rep.Detail = ColdOverlay, coldDetail(est)
		return d, nil
	}
	include, exclude, ok, err := search.PathFilters(ctx, fsys, root, req)
	if err != nil || !ok {
		if err == nil {
			d.rep.Fallback = ArchiveMember
		}
		return d, err
	}
	q := &Query{
		Commit:     st.Commit,
		Pattern:    pattern,
		IgnoreCase: fold,
		Include:    r.fromRoot(include),
		Exclude:    r.fromRoot(exclude),
		MaxFiles:   est.cap(),
	}
	if r.prefix != "" {
		q.Include = append(q.Include, "^"+regexp.QuoteMeta(r.prefix))
	}
	// A query answered before at this commit names as many files again:
	// while the index path still wins with that many, the cap is the
	// whole path's, without the bound on what a capped probe may waste
	// (the cap only guards against a change, and the index's parts share
	// it, unevenly). A query found too common is asked again only when
	// the cap has doubled since (the estimates move with every search).
	if n, ok := est.m.knownSize(q); ok && est.wins(n) {
		q.MaxFiles = max(q.MaxFiles, est.fullCap())
	} else if n := est.m.knownBroad(q); n > 0 && q.MaxFiles < 2*n {
		d.rep.Fallback, d.rep.Detail = IndexBroad, fmt.Sprintf("more than %d files match at this commit (an earlier search): reading them would take longer than a scan (about %v)", n, est.scan.Round(time.Millisecond))
		return d, nil
	}
	deadline := est.deadline(git)
	if !st.Local {
		hedgeAt <- est.hedge()
		deadline = est.remoteDeadline(git)
	}

	// The index's answer and its unindexed files at once, then the
	// changes: an answer that rules the index out (a pattern too common)
	// ends the plan before git is asked, so that it costs a scan no more
	// than the probe. A watched tree's tracker goes on asking git past the
	// deadline (it keeps the answer for the next search); the plan does
	// not wait.
	type changed struct {
		ch  *Changes
		err error
	}
	type listed struct {
		un  []Unindexed
		err error
	}
	ictx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	changes, lists := make(chan changed, 1), make(chan listed, 1)
	go func() {
		un, err := unindexed(ictx, b, r, st)
		lists <- listed{un, err}
	}()
	t = time.Now()
	ans, err := b.Search(ictx, q)
	if err == nil {
		// A capped answer too: the cost per file of the patterns too
		// common for the index, which bounds what the next probe wastes.
		est.probed(len(ans.Files), time.Since(t))
	}
	var (
		ch           changed
		un           listed
		gotCh, gotUn bool
	)
	if err == nil && !ans.Capped && len(ans.Incomplete) == 0 {
		go func() {
			ch, err := tr.changes(ictx, st.Commit, req.Walk.NoIgnore)
			changes <- changed{ch, err}
		}()
	wait:
		for !gotCh || !gotUn {
			select {
			case ch = <-changes:
				gotCh = true
			case un = <-lists:
				gotUn = true
			case <-ictx.Done():
				break wait
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return d, err
	}
	late := !gotCh || ch.err != nil || !gotUn || un.err != nil
	switch {
	case ictx.Err() != nil && (err != nil || late):
		d.rep.Fallback, d.rep.Detail = Deadline, fmt.Sprintf("no answer within %v", deadline)
		return d, nil
	case err != nil:
		d.rep.Fallback, d.rep.Detail = IndexError, err.Error()
		return d, nil
	case ans.Capped:
		est.m.setBroad(q)
		d.rep.Fallback = IndexBroad
		if full := est.fullCap(); Prior.Learn && full > q.MaxFiles {
			wide := *q
			wide.MaxFiles = full
			d.learn = then(d.learn, func() { learnWide(b, &wide, est) })
			d.rep.Detail = fmt.Sprintf("more than %d files match; the index is asked for up to %d once this search has answered, for the next", q.MaxFiles, full)
			return d, nil
		}
		d.rep.Detail = fmt.Sprintf("more than %d files match: reading them would take longer than a scan (about %v)", q.MaxFiles, est.scan.Round(time.Millisecond))
		return d, nil
	case len(ans.Incomplete) > 0:
		d.rep.Fallback, d.rep.Detail = Incomplete, strings.Join(ans.Incomplete, "; ")
		return d, nil
	}
	est.m.setSize(q, len(ans.Files))
	switch {
	case ch.err != nil:
		var fe *foreignError
		switch {
		case errors.As(ch.err, &fe):
			d.rep.Fallback, d.rep.Detail = ForeignCommit, ch.err.Error()
		default:
			d.rep.Fallback, d.rep.Detail = NotGit, ch.err.Error()
		}
		return d, nil
	case ch.ch.Stale:
		d.rep.Fallback, d.rep.Detail = StaleCommit, "HEAD does not descend from "+st.Commit
		return d, nil
	case un.err != nil:
		d.rep.Fallback, d.rep.Detail = IndexError, un.err.Error()
		return d, nil
	}
	limit := max(st.Files/changedShare, minChanged)
	cand, n := ch.ch.inRoot(r)
	if n < 0 {
		d.rep.Fallback, d.rep.Detail = ChangedSet, "the search root is not tracked by git"
		return d, nil
	}
	if n > limit {
		d.rep.Fallback, d.rep.Detail = ChangedSet, fmt.Sprintf("%d changed paths since %s (at most %d)", n, st.Commit, limit)
		return d, nil
	}
	// The ignored files, each of which the search would check, only when
	// its rules may bring one back: on a tree of many (object files
	// beside the sources), the check costs more than the rest. Without
	// any, the ignore files above the top go unread.
	ignored, ok := ch.ch.ignoredInRoot(r, len(ch.ch.Ignored) > 0 && reincludes(req, ch.ch, r))
	if !ok {
		d.rep.Fallback, d.rep.Detail = ChangedSet, "the search root lies in a directory the ignore files exclude"
		return d, nil
	}
	// The files the index cannot hold as git ignores them: read when the
	// request's rules bring them back, left out otherwise.
	cand.Files = append(cand.Files, ignored.Files...)
	cand.Dirs = append(cand.Dirs, ignored.Dirs...)
	d.rep.Index, d.rep.Overlay = true, n
	d.rep.Endpoints = ans.Endpoints
	for _, p := range ans.Files {
		if rel, ok := r.toRoot(p); ok && !ch.ch.covers(p) {
			cand.Files = append(cand.Files, rel)
		}
	}
	extra, err := readable(ctx, fsys, r, st, un.un, ch.ch, include, exclude, req.MaxFileSize)
	if err != nil {
		return d, err
	}
	d.rep.Unindexed = len(extra)
	cand.Files = append(cand.Files, extra...)
	d.cand = cand
	return d, nil
}

// reincludes reports whether the rules of req may bring back a file git
// ignores: a ripgrep glob, which overrides the ignore files, or a "!" line
// of an ignore file that the search reads and git does not, in the work
// tree or above it.
func reincludes(req *search.Request, c *Changes, r *repo) bool {
	switch {
	case req.RipgrepGlobs && len(req.Globs) > 0:
		return true
	case c.Negated || req.Walk.RgIgnore && c.RgNegated:
		return true
	}
	ignore, rg := r.negatedAbove()
	return ignore || req.Walk.RgIgnore && rg
}

// coldDetail says why a search whose changes git must list scans.
func coldDetail(e *estimate) string {
	return fmt.Sprintf("finding the changed files with git would take about %v, a scan about %v", e.git.Round(time.Millisecond), e.scan.Round(time.Millisecond))
}

// learning counts what runs once a search has answered.
var learning sync.WaitGroup

// Settle waits until what the searches so far started once they had
// answered has ended; tests call it before they change Prior or MinBytes.
func Settle() { learning.Wait() }

// then returns a function that runs a (when not nil), then b.
func then(a, b func()) func() {
	if a == nil {
		return b
	}
	return func() { a(); b() }
}

// learnWide asks the index q, the query of a probe found capped, with the
// cap of the whole index path (see fullCap), and remembers its answer's
// size, or that it was capped again: the next search of the query then
// knows whether the index can answer it, though its first probe was kept
// small so that a pattern too common costs the scan little.
func learnWide(b Backend, q *Query, est *estimate) {
	learning.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), bound(est.scan))
		defer cancel()
		t := time.Now()
		ans, err := b.Search(ctx, q)
		switch {
		case err != nil || len(ans.Incomplete) > 0:
		case ans.Capped:
			est.m.setBroad(q)
		default:
			est.probed(len(ans.Files), time.Since(t))
			est.m.setSize(q, len(ans.Files))
		}
	})
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
			if _, sel, ok, _ := selector.Split(p); ok && len(sel.Ranges) > 0 {
				return LineRanges, p, nil // a file's own line selector
			}
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
func indexFailure(ctx context.Context, err error) (Report, error) {
	if err := errs.Stopped(ctx, "Search", ctx.Err()); err != nil {
		return Report{}, err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Report{Fallback: Deadline, Detail: err.Error()}, nil
	}
	return Report{Fallback: IndexError, Detail: err.Error()}, nil
}
