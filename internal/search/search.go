// Package search runs Scout's content search over a tree: it resolves the
// request's paths into targets (files, directories, globs, archive
// members, in-memory texts), lists the files to search with the walker,
// searches them in parallel with the engine of internal/grep, and hands the
// results on in byte-wise path order, so that the output never depends on
// scheduling. The members of an archive named as a path are searched as the
// archive is walked, a zip's in name order and a tar's in archive order (a
// tar is one stream), at the archive's place.
//
// Paging works on matching files: the first Skip matching files are passed
// over, the next MaxFiles form the page, and the scan goes on past the page
// only to count the matching files that remain, until the line budget is
// spent. Budget bounds the work of one call: once that many matching lines
// have been seen from the page start the scan stops as soon as one more
// matching file proves the result incomplete. If the page itself holds more
// matching lines than the budget, the lines are dealt out round robin, so
// that one hot file cannot take the whole page.
package search

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/scoutkit/scout/internal/archive"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/hashline"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/par"
	"github.com/scoutkit/scout/internal/textio"
	"github.com/scoutkit/scout/internal/walk"
)

// Request is one search, with the defaults already resolved by the caller.
type Request struct {
	Paths []string // entries (see Resolve); none means the root
	// Grep holds the pattern, case, multiline, context, columns and mode;
	// its LineRanges are those of the one entry of Paths (see
	// ResolveOptions.Lines), whose entries may also carry their own. Its
	// PartLines has Stream yield a file of more matching lines in parts
	// (Hit.More); Run holds files whole and ignores it.
	Grep grep.Options
	// PerFile caps the matching lines reported per file (PerFileOne when
	// the scope is a single file); negative means no cap. It replaces
	// Grep.MaxMatchesPerFile.
	PerFile int
	Walk    walk.Options // hidden files, ignore files
	Globs   []string     // ripgrep-style file filters ("!x" excludes)
	Types   []string     // file types (see CompileTypes)
	// RipgrepGlobs applies Globs as ripgrep's -g does (see
	// Filter.RipgrepGlobs): from the root, ahead of the hidden and ignore
	// rules of the walk.
	RipgrepGlobs bool
	// MaxFileSize skips files larger than this many bytes (counted as
	// too_large); negative means no cap.
	MaxFileSize int64
	// Skip, MaxFiles and Budget page the result (see the package doc).
	// MaxFiles and Budget: negative means unlimited.
	Skip, MaxFiles, Budget int
	// Tags asks for the hashline tag of each page file of at most
	// hashline.MaxTagBytes bytes.
	Tags bool
	// Workers is the number of search goroutines; 0 means par.Openers()
	// for an ordered scan that may stop early and twice that walkers for an
	// exhaustive one, with par.Openers() helpers beside them on more than
	// two processors.
	Workers int
	// Registry resolves internal URLs; nil means none.
	Registry *iurl.Registry

	// PerFileOne is PerFile for a scope of a single file.
	PerFileOne int
	// Unordered lets Stream pass matching files on as they are found
	// instead of in path order.
	Unordered bool
	// Progress, when not nil, is called with the size of each file
	// searched, from one goroutine at a time.
	Progress func(size int64)
	// Candidates, when not nil, limit the search to the files an index
	// found (see Candidates).
	Candidates *Candidates
	// Archive holds the caps of an archive searched member by member (a
	// member's bytes, a pass's bytes, the entries); the zero value means
	// the archive package's defaults.
	Archive archive.Limits
}

// Hit is one matching file.
type Hit struct {
	Path  string // FS path, or the display path of an in-memory text
	Mem   bool   // an in-memory text: an archive member or a virtual resource
	NoTag bool   // an immutable source: never tagged
	Tag   string // hashline tag, when asked for and available
	// More, set by Stream, says that this is a part of the file and more
	// follow (Request.Grep.PartLines); the last part has it false. Each
	// part's counts are its own.
	More bool
	// Single, set by Stream, says that the scope is this one file
	// (Scope.Single), before the Outcome says so at the end.
	Single bool
	*grep.FileResult
}

// Truncation reasons of an Outcome.
const (
	TruncFiles  = "files"   // more matching files than the page holds
	TruncBudget = "budget"  // the line budget stopped the scan; totals are lower bounds
	TruncLines  = "matches" // the page's lines were cut to the budget
)

// Outcome is the result of Run.
type Outcome struct {
	Scope *Scope
	Files []Hit // the page, in path order
	// TotalFiles counts the matching files seen, the skipped ones included;
	// a lower bound when Truncated is TruncBudget.
	TotalFiles int
	// TotalLines and TotalMatches count matching lines and matches over
	// the matching files seen, the skipped ones included.
	TotalLines, TotalMatches int
	Truncated                string // "" or a Trunc reason
	NextSkip                 int    // Skip for the next page; 0 if none
	Searched                 int    // files searched
	// LongLines counts the files searched that hold a line longer than
	// grep.MaxLineBytes, searched in windows of that size that overlap by
	// grep.Margin, when the pattern can match more than grep.Margin bytes:
	// such a match that crosses a window edge is missed.
	LongLines int
	// MultilineCut counts the files a whole-file (multiline) search read
	// only the first grep.MaxWholeBytes of.
	MultilineCut int
	// NULStops counts the matching files whose search ended at a NUL byte
	// past the binary window: the rest is binary and was not searched (a
	// file with no match before it is counted as binary).
	NULStops int
	Skipped  map[string]int
	// Errors are the first maxErrors failures behind SkipError.
	Errors []error
}

// maxErrors is how many per-file failures an Outcome keeps as samples.
const maxErrors = 10

// skip counts a file left out, keeping a sample of the failure.
func (o *Outcome) skip(oc outcome) {
	o.Skipped[oc.skip] += max(oc.n, 1)
	if oc.err != nil && len(o.Errors) < maxErrors {
		o.Errors = append(o.Errors, oc.err)
	}
}

// searched counts a file searched.
func (o *Outcome) searched(res *grep.FileResult) {
	o.Searched++
	o.ended(res)
}

// ended counts how the search of a file ended, res being its result or
// its last part.
func (o *Outcome) ended(res *grep.FileResult) {
	if res.LongLines > 0 {
		o.LongLines++
	}
	switch res.Stop {
	case grep.StopSize:
		o.MultilineCut++
	case grep.StopNUL:
		o.NULStops++
	}
}

// prepared is a request ready to scan.
type prepared struct {
	fsys    fs.FS
	req     *Request
	scope   *Scope
	matcher *grep.Matcher
	filter  Filter
	skipped map[string]int
}

func prepare(ctx context.Context, fsys fs.FS, root string, req *Request) (*prepared, error) {
	// Compile before touching the tree, so that a bad pattern is reported
	// first; the per-file cap and the ranges come below, on a copy.
	m, err := grep.Compile(req.Grep)
	if err != nil {
		return nil, err
	}
	globs, err := CompileGlobs(req.Globs)
	if err != nil {
		return nil, err
	}
	types, err := CompileTypes(req.Types)
	if err != nil {
		return nil, err
	}
	sc, err := Resolve(ctx, fsys, root, req.Paths, ResolveOptions{MaxMember: req.MaxFileSize, Registry: req.Registry, Lines: req.Grep.LineRanges})
	if err != nil {
		return nil, err
	}
	if req.RipgrepGlobs && globs != nil {
		req.Walk.Override = globs.override
	}
	perFile := req.PerFile
	if sc.Single() {
		perFile = req.PerFileOne
	}
	req.Grep.MaxMatchesPerFile = max(perFile, 0) // 0: no cap
	req.Grep.LineRanges = nil                    // Resolve gave them to their target
	if m, err = m.WithRanges(nil); err != nil {
		return nil, err
	}
	m = m.WithMaxMatchesPerFile(req.Grep.MaxMatchesPerFile)
	for i := range sc.Targets {
		// A file with its own line ranges is searched with a copy of the
		// matcher that shares its compiled pattern.
		if t := &sc.Targets[i]; t.Ranges != nil {
			if t.m, err = m.WithRanges(t.Ranges); err != nil {
				return nil, err
			}
		}
	}
	return &prepared{fsys: fsys, req: req, scope: sc, matcher: m, filter: Filter{Globs: globs, Types: types, RipgrepGlobs: req.RipgrepGlobs}, skipped: map[string]int{}}, nil
}

// each searches the scope and calls fn for every file in byte-wise path
// order, until fn returns false. With exhaustive set, the caller promises
// to consume every file: the walk and the search then overlap and the
// results are sorted at the end, which is faster but holds every matching
// file's result until then. With req.Unordered the walk and the search
// overlap too, and fn gets each file as it is searched. With tags set, the
// workers compute the hashline tag of each matching file (outcome.tag),
// but while paused (when not nil) is set. expect, when not nil, may be told
// how many matching files fn is about to get, before the first.
func (p *prepared) each(ctx context.Context, exhaustive, tags bool, paused *atomic.Bool, expect func(n int), fn func(f file, o outcome) bool) error {
	if progress := p.req.Progress; progress != nil {
		inner := fn
		fn = func(f file, o outcome) bool {
			if o.res != nil {
				progress(o.size)
			}
			return inner(f, o)
		}
	}
	pf := perFile{maxSize: p.req.MaxFileSize, tags: tags, paused: paused}
	if p.req.Candidates != nil {
		files, err := p.candidates(ctx)
		if err != nil {
			return err
		}
		return scan(ctx, p.fsys, produce(files, nil), p.matcher, pf, p.req.Workers, fn)
	}
	ms := &memberSearch{fsys: p.fsys, m: p.matcher, pf: pf, wo: p.req.Walk, filter: p.filter, lim: p.req.Archive}
	if exhaustive || p.req.Unordered {
		return scanAll(ctx, p.fsys, p.scope, ms, p.req.Workers, p.req.Unordered, p.skipped, expect, fn)
	}
	if t := p.scope.Targets; len(t) == 1 && t[0].Dir {
		// One directory: stream a sorted walk, so that a page can fill
		// (and the scan stop) before the walk is done.
		walked := map[string]int{} // written by the walk while fn runs
		produce := func(ctx context.Context, emit func(file) error) error {
			return walkSorted(ctx, p.fsys, t[0], p.req.Walk, p.filter, walked, emit)
		}
		err := scan(ctx, p.fsys, produce, p.matcher, pf, p.req.Workers, fn)
		for r, n := range walked {
			p.skipped[r] += n
		}
		return err
	}
	files, err := collect(ctx, p.fsys, p.scope, p.req.Walk, p.filter, p.skipped)
	if err != nil {
		return err
	}
	return scan(ctx, p.fsys, produce(files, ms), p.matcher, pf, p.req.Workers, fn)
}

// Run searches and pages the result.
func Run(ctx context.Context, fsys fs.FS, root string, req Request) (*Outcome, error) {
	req.Unordered = false  // a page is in path order
	req.Grep.PartLines = 0 // a page holds files whole
	p, err := prepare(ctx, fsys, root, &req)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Scope: p.scope, Skipped: p.skipped}
	single := p.scope.Single()
	skip := req.Skip
	if single {
		skip = 0
	}
	var (
		seen      int  // matching files seen, skipped ones included
		spent     int  // matching lines seen after skip
		overspent bool // the budget is spent: one more matching file ends the scan
	)
	exhaustive := skip == 0 && req.MaxFiles < 0 && req.Budget < 0
	// The workers tag the page's files as they search them (req.Tags),
	// paused for the matching files before the page and after it, which
	// are only counted. A page file searched while paused (ahead of fn)
	// is tagged at the end (untagged, its index in out.Files).
	var (
		paused   atomic.Bool
		untagged []int
	)
	full := func() bool { return req.MaxFiles >= 0 && len(out.Files) >= req.MaxFiles }
	paused.Store(skip > 0 || full())
	// An exhaustive scan gives every matching file to the page: its
	// slice is made once (fresh memory costs a page fault per 4 KiB).
	expect := func(n int) { out.Files = slices.Grow(out.Files, n) }
	err = p.each(ctx, exhaustive, req.Tags, &paused, expect, func(f file, o outcome) bool {
		if o.res == nil {
			out.skip(o)
			return true
		}
		out.searched(o.res)
		if o.res.MatchLines == 0 {
			return true
		}
		seen++
		if seen > skip && overspent {
			out.Truncated = TruncBudget
			return false
		}
		out.TotalLines += o.res.MatchLines
		out.TotalMatches += o.res.Matches
		if seen <= skip {
			if seen == skip {
				paused.Store(full()) // the page starts with the next matching file
			}
			return true
		}
		spent += o.res.MatchLines
		if !full() {
			if req.Tags && !o.tagged && !f.mem && !f.noTag {
				untagged = append(untagged, len(out.Files))
			}
			out.Files = append(out.Files, Hit{Path: f.path, Mem: f.mem, NoTag: f.noTag, Tag: o.tag, FileResult: o.res})
			paused.Store(full())
		} else if out.Truncated == "" {
			out.Truncated = TruncFiles
		}
		overspent = req.Budget >= 0 && spent >= req.Budget
		return true
	})
	if err != nil {
		return nil, errs.Stopped(ctx, "Search", err)
	}
	out.TotalFiles = seen
	if out.Truncated == TruncBudget {
		out.TotalFiles-- // the file that proved more exist was not counted as seen
	}
	if out.Truncated != "" && len(out.Files) > 0 {
		out.NextSkip = skip + len(out.Files)
	}
	if req.Budget >= 0 && !req.Grep.CountOnly && out.pageLines() > req.Budget {
		// Lines are dealt out round robin; counts are never cut.
		roundRobin(out.Files, req.Budget, req.Grep.After)
		if out.Truncated == "" {
			out.Truncated = TruncLines
		}
	}
	addTags(fsys, out.Files, untagged)
	return out, nil
}

func (o *Outcome) pageLines() int {
	n := 0
	for _, h := range o.Files {
		n += h.MatchLines
	}
	return n
}

// Stream searches and calls yield for each matching file in path order
// (as found when req.Unordered), until yield returns false. Skip, MaxFiles
// and Budget are ignored. The returned Outcome has no Files.
//
// With req.Grep.PartLines, a file split into parts (see grep.Options) is
// yielded part after part (Hit.More), each in turn, as the search goes on
// from where the last stopped: the other files wait meanwhile, as for a
// slow yield, so that memory is bounded by the files in flight, each
// holding at most one part. The totals are those of a search of whole
// files. A file that cannot be searched on (it is gone, shrank, or another
// took its place) ends with a last part without lines, and counts as
// unreadable too.
//
// yield must copy what it keeps of a Hit's Lines: once it returns, the
// lines of a part, and with req.Unordered those of any hit, may be
// overwritten by the next search.
func Stream(ctx context.Context, fsys fs.FS, root string, req Request, yield func(Hit) bool) (*Outcome, error) {
	p, err := prepare(ctx, fsys, root, &req)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Scope: p.scope, Skipped: p.skipped}
	single := p.scope.Single()
	var sc *grep.Scanner // searches on split files; made when one comes
	err = p.each(ctx, false, req.Tags, nil, nil, func(f file, o outcome) bool {
		if o.res == nil {
			out.skip(o)
			return true
		}
		out.searched(o.res)
		if o.res.MatchLines == 0 {
			return true
		}
		out.TotalFiles++
		out.TotalLines += o.res.MatchLines
		out.TotalMatches += o.res.Matches
		h := Hit{Path: f.path, Mem: f.mem, NoTag: f.noTag, Tag: o.tag, Single: single, FileResult: o.res}
		if o.res.Resume == nil {
			return yield(h)
		}
		if f.m != nil {
			return p.goOn(ctx, f.m.NewScanner(), f.path, h, out, yield) // a file in its own line ranges: one of few
		}
		if sc == nil {
			sc = p.matcher.NewScanner()
		}
		return p.goOn(ctx, sc, f.path, h, out, yield)
	})
	if err != nil {
		return nil, errs.Stopped(ctx, "Search", err)
	}
	return out, nil
}

// goOn yields h, the first part of the file name split into parts, then
// searches on from where it stopped with sc, yielding each part as it
// fills, until the file ends or yield returns false (false then). It
// counts the parts in out.
func (p *prepared) goOn(ctx context.Context, sc *grep.Scanner, name string, h Hit, out *Outcome, yield func(Hit) bool) bool {
	h.More = true
	if !yield(h) {
		return false
	}
	stopped, yielding := false, false
	open := func() (fsx.Regular, error) { return fsx.OpenRegular(p.fsys, name) }
	last, err := searchOn(func() (*grep.FileResult, error) {
		return sc.SearchFrom(ctx, name, open, h.Resume, func(r *grep.FileResult) bool {
			out.TotalLines += r.MatchLines
			out.TotalMatches += r.Matches
			h.FileResult = r
			yielding = true
			stopped = !yield(h)
			yielding = false
			return !stopped
		})
	}, name, &yielding)
	switch {
	case stopped || ctx.Err() != nil:
		return false
	case err != nil:
		out.skip(outcome{skip: SkipError, err: err})
		last = &grep.FileResult{}
	}
	out.TotalLines += last.MatchLines
	out.TotalMatches += last.Matches
	out.ended(last)
	h.More, h.FileResult = false, last
	return yield(h)
}

// searchOn runs search, goOn's search of the rest of the file name, on
// the goroutine that yields (the host's): a panic in the engine becomes
// the file's error, as a worker's does (searchOne), while one raised
// while yielding is the host's and goes on up untouched.
func searchOn(search func() (*grep.FileResult, error), name string, yielding *bool) (res *grep.FileResult, err error) {
	defer func() {
		if *yielding {
			return // not recovered: the host's panic keeps its stack
		}
		if r := recover(); r != nil {
			res, err = nil, enginePanic(name, r)
		}
	}()
	return search()
}

// addTags sets the hashline tag of the FS files hits[i] for each i of at,
// reading several files at once (fileTag).
func addTags(fsys fs.FS, hits []Hit, at []int) {
	var (
		wg   sync.WaitGroup
		next atomic.Int64
	)
	for range min(2*par.Openers(), len(at)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(at) {
					return
				}
				h := &hits[at[i]]
				h.Tag = fileTag(fsys, h.Path)
			}
		})
	}
	wg.Wait()
}

// fileTag returns the hashline tag of the file name of fsys, of its text
// as the search reads it (and read tags it): less a UTF-8 byte-order
// mark, or decoded from UTF-16 or UTF-32 by its mark. It is "" when the
// file cannot be read, or it or its text is over hashline.MaxTagBytes.
func fileTag(fsys fs.FS, name string) string {
	f, err := fsys.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || info.Size() > hashline.MaxTagBytes {
		return ""
	}
	b, err := io.ReadAll(io.LimitReader(f, hashline.MaxTagBytes+1))
	if err != nil || len(b) > hashline.MaxTagBytes {
		return ""
	}
	if enc, _ := textio.Sniff(b); enc != textio.UTF8 {
		b, err = io.ReadAll(io.LimitReader(textio.Decode(bytes.NewReader(b), enc), hashline.MaxTagBytes+1))
		if err != nil || len(b) > hashline.MaxTagBytes {
			return ""
		}
	}
	return hashline.Tag(b) // less a second mark too
}

// roundRobin cuts the page's matching lines to budget, taking one line
// from each file in turn, and drops the context lines that belonged only
// to the lines cut; a cut file's Matches counts the lines kept.
func roundRobin(hits []Hit, budget, after int) {
	keep := make([]int, len(hits))
	for left := budget; left > 0; {
		took := false
		for i := range hits {
			if left > 0 && keep[i] < hits[i].MatchLines {
				keep[i]++
				left--
				took = true
			}
		}
		if !took {
			break
		}
	}
	for i := range hits {
		h := &hits[i]
		if keep[i] == h.MatchLines {
			continue
		}
		r := *h.FileResult
		r.Lines = cutLines(r.Lines, keep[i], after)
		r.MatchLines, r.Matches, r.Truncated, r.Stop = keep[i], 0, true, grep.StopLimit
		for _, l := range r.Lines {
			r.Matches += l.Matches
		}
		h.FileResult = &r
	}
}

// cutLines keeps the lines up to the n-th matching line and its after
// context.
func cutLines(lines []grep.Line, n, after int) []grep.Line {
	last := -1 // line number of the n-th match
	for i, l := range lines {
		if !l.Match {
			continue
		}
		if n == 0 {
			end := i
			for end > 0 && !lines[end-1].Match && (last < 0 || lines[end-1].Number > last+after) {
				end--
			}
			return lines[:end]
		}
		n--
		last = l.Number
	}
	return lines
}
