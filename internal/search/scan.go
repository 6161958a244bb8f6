package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/hashline"
	"github.com/scoutkit/scout/internal/par"
	"github.com/scoutkit/scout/internal/walk"
)

// outcome is what searching one file gave: a result, or the reason the file
// was left out.
type outcome struct {
	res  *grep.FileResult
	skip string // a Skip reason; "" when res is set
	err  error  // the cause when skip is SkipError
	n    int    // the entries a skip stands for when more than one (an archive's entries leaving it)
	size int64  // the bytes of a searched file (res set)
	tag  string // the hashline tag of a matching file, when tagged
	// tagged: tag was asked for (perFile.tags, not paused) and is set, ""
	// for a file that gets none (over hashline.MaxTagBytes, unreadable).
	tagged bool
}

// perFile is how a scan's workers treat each file.
type perFile struct {
	maxSize int64 // the size cap; negative means none
	// tags has the worker that found a file matching also compute its
	// hashline tag (FS files only), so that a stream, which passes files
	// on one at a time, does not read them again one after another.
	tags bool
	// paused, when not nil, holds tags off while it is set: a page sets
	// it for the files before and after it, whose tags it would drop.
	paused *atomic.Bool
}

// scan searches the files that produce passes to its emit function, with
// several goroutines, and calls fn for each in the order produced, so the
// output does not depend on scheduling. produce runs in its own goroutine
// and may stream (a walk) or replay a list. Files go to the workers in
// batches of consecutive files (see batch and batcher): one hand-off and
// one completion signal per batch, not per file. A batch is closed when
// it is full, when fn has taken every file before it (the consumer never
// waits on a batch still being filled) or, early in a scan, when a worker
// waits for work. Workers run at most a bounded window of batches ahead
// of fn, which bounds memory. When fn returns false, or ctx is done, emit
// returns fs.SkipAll and the files in flight are dropped. scan returns
// ctx's error if ctx ended it, else produce's error.
func scan(ctx context.Context, fsys fs.FS, produce func(ctx context.Context, emit func(file) error) error, m *grep.Matcher, pf perFile, workers int, fn func(f file, o outcome) bool) error {
	if workers <= 0 {
		workers = par.Openers()
	}
	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	window := 2*workers + 2
	// Batches are registered in order when opened and handed to the
	// workers when closed: jobs holds at most the window, the batch the
	// consumer waits on and the one being filled.
	jobs := make(chan *batch, window+2)
	order := make(chan *batch, window)
	bt := batcher{window: window}
	var (
		wg   sync.WaitGroup
		idle atomic.Int32 // workers waiting for a batch
	)
	for range workers {
		wg.Go(func() {
			sc, slot := m.NewScanner(), new(fsx.Slot)
			for {
				var b *batch
				select {
				case b = <-jobs:
				default:
					idle.Add(1)
					b = <-jobs
					idle.Add(-1)
				}
				if b == nil {
					return // jobs is closed
				}
				var bytes, n int64
				for i := range b.files {
					if ctx.Err() != nil {
						b.outs[i] = outcome{skip: SkipError, err: ctx.Err()}
						continue
					}
					o := searchOne(ctx, fsys, sc, slot, &b.files[i], pf)
					if o.res != nil {
						bytes, n = bytes+o.size, n+1
					}
					b.outs[i] = o
				}
				bt.searched(bytes, n)
				close(b.done)
			}
		})
	}
	var perr error
	go func() {
		var cur *batch // the batch being filled
		perr = produce(ctx, func(f file) error {
			if cur == nil || !cur.add(f) {
				cur = bt.next(f)
				select {
				case order <- cur:
				case <-ctx.Done():
					cur = nil
					return fs.SkipAll
				}
			}
			// A batch goes to the workers when full and, while batches
			// still grow (early in a scan, when a page waits for its
			// first results), as soon as a worker waits for work and none
			// is queued; later, waking a worker per file or two would
			// cost more than the search.
			if cur.full() || cap(cur.files) < maxBatchFiles && idle.Load() > 0 && len(jobs) == 0 {
				cur.close(jobs)
			}
			return nil
		})
		if cur != nil {
			cur.close(jobs)
		}
		close(jobs)
		close(order)
	}()
	stopped := false
	for b := range order {
		if stopped {
			continue // drain, so that produce can return
		}
		b.close(jobs) // fn took every file before it: do not wait for more
		<-b.done
		for i, f := range b.files {
			if outer.Err() != nil || !fn(f, b.outs[i]) {
				stopped = true
				cancel()
				break
			}
		}
		bt.took(len(b.files))
	}
	wg.Wait()
	if err := outer.Err(); err != nil {
		return err
	}
	if stopped {
		return nil
	}
	return perr
}

// enginePanic is the error of a file whose search panicked with r.
func enginePanic(path string, r any) error {
	return &errs.Error{Code: errs.Internal, Path: path,
		Message: fmt.Sprintf("internal error searching %s: %v; this is a bug in Scout, please report it", path, r)}
}

// searchOne searches one file, opened into slot unless it is nil (see
// fsx.Slot: the worker's own, reused from file to file). A panic in the
// engine is turned into a failure of that file (counted and sampled)
// instead of ending the process from a worker goroutine.
func searchOne(ctx context.Context, fsys fs.FS, sc *grep.Scanner, slot *fsx.Slot, f *file, pf perFile) (o outcome) {
	maxSize := pf.maxSize
	defer func() {
		if r := recover(); r != nil {
			o = outcome{skip: SkipError, err: enginePanic(f.path, r)}
		}
	}()
	switch {
	case f.done != nil:
		return *f.done
	case f.mode&fs.ModeSymlink != 0:
		return outcome{skip: SkipSymlink}
	case f.mode.Type() != 0:
		return outcome{skip: SkipSpecial}
	case f.mem && maxSize >= 0 && int64(len(f.text)) > maxSize:
		return outcome{skip: SkipTooLarge}
	case f.m != nil:
		sc = f.m.NewScanner() // a file named with line ranges: one of few
	}
	var (
		res  *grep.FileResult
		err  error
		tg   *tagger // set when wantTag
		text func([]byte, bool) bool
		size int64
	)
	wantTag := pf.tags && !f.mem && !f.noTag && (pf.paused == nil || !pf.paused.Load())
	if wantTag {
		tg = &tagger{}
		text = tg.write
	}
	open := func() (fsx.Regular, error) {
		var r fsx.Regular
		var err error
		if f.walked {
			r, err = f.entry.OpenRegular(slot)
		} else {
			r, err = fsx.OpenRegularIn(fsys, f.path, slot)
		}
		if err == nil {
			size = r.Size()
			if tg != nil {
				tg.size = size
			}
		}
		return r, err
	}
	switch {
	case f.r != nil:
		res, err = sc.SearchReader(ctx, f.r)
	case f.mem:
		res, err = sc.SearchBytes(ctx, f.text)
		size = int64(len(f.text))
	default:
		res, err = sc.SearchOpened(ctx, f.path, maxSize, open, text)
	}
	switch {
	case errors.Is(err, fsx.ErrTooLarge), errs.CodeOf(err) == errs.TooLarge:
		// Over the size cap, or an archive member over the archive's own
		// cap while it was read.
		return outcome{skip: SkipTooLarge}
	case errors.Is(err, fsx.ErrNotRegular):
		return outcome{skip: SkipSpecial}
	case err != nil:
		return outcome{skip: SkipError, err: err}
	}
	if res.Binary || res.Stop == grep.StopNUL && res.MatchLines == 0 {
		// A NUL byte in the head, or one further on before any match:
		// the file is binary (past its head, as ripgrep quits at it).
		return outcome{skip: SkipBinary}
	}
	o = outcome{res: res, size: size}
	if wantTag && res.MatchLines > 0 {
		o.tag, o.tagged = tg.tag, true
		if !tg.done && size <= hashline.MaxTagBytes {
			o.tag = fileTag(fsys, f.path) // no ReadAt, cut at MaxWholeBytes, or a read failed: read it again
		}
	}
	return o
}

// tagger computes the hashline tag of a file from its text as the search
// reads it (grep.Scanner.SearchOpened's text), so that a matching file is
// not read again for it: a file read in pieces is hashed as they are read
// once it matches, the text dropped before its first match read again from
// the open file; a text decoded from UTF-16 or UTF-32 as it is decoded. A
// file that changed meanwhile gets the tag of the text searched. It is
// allocated only for a search that tags, so that one that does not
// allocates nothing for it.
type tagger struct {
	h    hashline.Hasher
	n    int   // the bytes of text given
	size int64 // the file's size, once open
	tag  string
	done bool // tag is set: the whole text was given
}

// write is the text function of SearchOpened.
func (t *tagger) write(p []byte, end bool) bool {
	if t.n += len(p); t.size > hashline.MaxTagBytes || t.n > hashline.MaxTagBytes {
		return false // no tag
	}
	if t.n == len(p) {
		p = bytes.TrimPrefix(p, utf8BOM) // a second mark, which read's tag leaves out too
	}
	t.h.Write(p)
	if end {
		t.tag, t.done = t.h.Tag(), true
	}
	return true
}

// scanAll walks the scope and searches each file on the walker goroutine
// that found it, or on an idle helper goroutine, then calls fn for each
// file that matched in byte-wise path order, or as they come when
// unordered. Files that did not match or were left out are passed to fn in
// batches as they come (serialised), before the matches: they carry no
// order-dependent information. expect, when not nil, is told how many
// matching files fn is about to get in path order, before the first.
// When unordered, the Lines of a result are valid only while fn runs.
// workers > 0 sets the number of walker goroutines. It returns ctx's error
// if ctx ended, even while fn stopped the scan, else the walk's.
func scanAll(ctx context.Context, fsys fs.FS, sc *Scope, ms *memberSearch, workers int, unordered bool, skipped map[string]int, expect func(n int), fn func(f file, o outcome) bool) error {
	wo, f, m, pf := ms.wo, ms.filter, ms.m, ms.pf
	if workers > 0 {
		wo.Workers = workers
	}
	outer, lent := ctx, Lent(ctx)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu   sync.Mutex // guards fn, seen and all
		stop atomic.Bool
		seen = map[string]bool{} // only with several targets, which may overlap
		all  []*scanWorker       // every worker made, for the end
	)
	// flush passes a worker's batch of files that did not match to fn.
	flush := func(w *scanWorker) {
		mu.Lock()
		defer mu.Unlock()
		for i := range w.misses {
			x := &w.misses[i]
			if x.o.skip == "" && x.o.res == nil {
				x.o.res = &x.res
			}
			if !stop.Load() && !fn(x.f, x.o) {
				stop.Store(true)
				cancel()
			}
		}
		clear(w.misses)
		w.misses = w.misses[:0]
	}
	// Workers (a Scanner, which holds buffers and automaton caches, and the
	// results gathered) go from file to file through a pool; results meet
	// only at the end, so no lock is taken per file.
	free := make(chan *scanWorker, 3*par.Openers()+max(workers, 0))
	search := func(fl file) error {
		var w *scanWorker
		select {
		case w = <-free:
		default:
			w = &scanWorker{s: m.NewScanner()}
			if unordered {
				// fn gets each match before the scanner searches
				// again: it copies what it keeps of the lines, so the
				// scanner lends them instead of copying them first,
				// and their texts too when fn keeps nothing (Lend).
				if lent {
					w.s.LendAll()
				} else {
					w.s.Lend()
				}
			}
			mu.Lock()
			all = append(all, w)
			mu.Unlock()
		}
		defer func() {
			select {
			case free <- w:
			default:
			}
		}()
		if stop.Load() {
			return fs.SkipAll
		}
		o := searchOne(ctx, fsys, w.s, &w.slot, &fl, pf)
		if o.res != nil && o.res.MatchLines > 0 {
			if unordered {
				fl.entry, fl.walked, fl.text = walk.Entry{}, false, nil // not needed by fn
				mu.Lock()
				defer mu.Unlock()
				if !stop.Load() && !fn(fl, o) {
					stop.Store(true)
					cancel()
					return fs.SkipAll
				}
				return nil
			}
			h := w.newHit()
			*h = hit{path: fl.path, mem: fl.mem, noTag: fl.noTag, res: o.res, size: o.size, tag: o.tag, tagged: o.tagged}
			if fl.done == nil && fl.m == nil {
				// The hit keeps the result by value, the scanner's
				// struct given back for its next file: one allocation
				// less per matching file.
				h.val, h.res = *o.res, &h.val
				w.s.Reuse(o.res)
			}
			return nil
		}
		fl.entry, fl.walked, fl.text = walk.Entry{}, false, nil // not needed by fn
		x := miss{f: fl, o: o}
		if o.res != nil && fl.done == nil && fl.m == nil {
			// fn reads the result of a file that did not match only
			// while it is called: a copy is kept, the scanner's given
			// back for its next file.
			x.res, x.o.res = *o.res, nil
			w.s.Reuse(o.res)
		}
		if w.misses = append(w.misses, x); len(w.misses) == missBatch {
			flush(w)
		}
		if stop.Load() {
			return fs.SkipAll
		}
		return nil
	}
	// Helpers search the files that walkers hand over. A walker searches
	// the files of the directory it reads; one that reads a large
	// directory (cmd/compile/internal/ssa is 8% of the Go tree) would
	// search it alone while the others wait at the end of the walk. A
	// file goes to a helper only when one waits for work (a non-blocking
	// send on an unbuffered channel), so while all are busy the walkers
	// search what they find, with no hand-off. On one or two processors
	// there are none: the walkers keep them busy, and a hand-off only
	// costs a wake-up and a scanner's cold buffers (on 2 cores, 4,000
	// files of 256 KiB took 8% less time without, the Go tree the same).
	handoff := make(chan file)
	var helpers sync.WaitGroup
	for range helperCount(workers) {
		helpers.Go(func() {
			for fl := range handoff {
				search(fl)
			}
		})
	}
	emit := func(fl file) error {
		if len(sc.Targets) > 1 {
			mu.Lock()
			dup := seen[fl.path]
			seen[fl.path] = true
			mu.Unlock()
			if dup {
				return nil
			}
		}
		select {
		case handoff <- fl:
			return nil
		default:
			return search(fl)
		}
	}
	walked := map[string]int{} // written by walkScope while files are searched
	err := walkScope(ctx, fsys, sc, wo, f, ms, walked, emit)
	close(handoff)
	helpers.Wait()
	for r, n := range walked {
		skipped[r] += n
	}
	n := 0
	for _, w := range all {
		flush(w)
		for _, c := range w.hits {
			n += len(c)
		}
	}
	// The workers' hits are sorted by reference: fresh memory costs a
	// page fault per 4 KiB, and a copy of every hit and a buffer for its
	// merge would take eight times what the references take.
	hits := make([]*hit, 0, n)
	for _, w := range all {
		for _, c := range w.hits {
			for i := range c {
				hits = append(hits, &c[i])
			}
		}
	}
	if stop.Load() {
		// fn stopped the scan: no error, unless ctx ended meanwhile (fn
		// gives up on a file's parts then), as scan reports it.
		return outer.Err()
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return err
	}
	// 90,000 matching files took 40 ms to sort on one processor.
	par.SortFunc(hits, 1024, func(a, b *hit) int { return strings.Compare(a.path, b.path) })
	if expect != nil {
		expect(len(hits))
	}
	for _, h := range hits {
		if !fn(file{path: h.path, mem: h.mem, noTag: h.noTag}, outcome{res: h.res, size: h.size, tag: h.tag, tagged: h.tagged}) {
			break
		}
	}
	return nil
}

// helperCount is the number of scanAll's helpers: par.Openers() on more
// than two processors, none when the caller set the number of workers (the
// files searched at once).
func helperCount(workers int) int {
	if n := par.Openers(); n > 2 && workers <= 0 {
		return n
	}
	return 0
}

// scanWorker is what a goroutine of scanAll searches a file with: a
// Scanner, and the results gathered so far.
type scanWorker struct {
	s      *grep.Scanner
	slot   fsx.Slot // the file being searched
	hits   [][]hit  // matching files, held until the walk ends, in chunks (see newHit)
	misses []miss   // files that did not match, passed to fn missBatch at a time
}

// newHit returns a place for one more hit. Hits are kept in chunks that
// are never moved, each twice the size of the one before up to 256,
// instead of a slice grown twofold, whose copies touch about twice the
// memory of the hits (fresh pages, a fault each).
func (w *scanWorker) newHit() *hit {
	n := len(w.hits)
	if n == 0 || len(w.hits[n-1]) == cap(w.hits[n-1]) {
		size := 8
		if n > 0 {
			size = min(2*cap(w.hits[n-1]), 256)
		}
		w.hits, n = append(w.hits, make([]hit, 0, size)), n+1
	}
	c := &w.hits[n-1]
	*c = (*c)[:len(*c)+1]
	return &(*c)[len(*c)-1]
}

// hit is a matching file, held until the walk ends: what fn reads of it
// (not the walk entry, which holds its whole directory listing, or an
// in-memory text).
type hit struct {
	path       string
	mem, noTag bool
	res        *grep.FileResult // &val, or one the hit does not own
	val        grep.FileResult
	size       int64  // the bytes searched, for progress
	tag        string // outcome.tag and tagged
	tagged     bool
}

// miss is a file that did not match, or was left out.
type miss struct {
	f   file
	o   outcome
	res grep.FileResult // o.res's copy, when o.res is nil and o.skip ""
}

// missBatch is how many files that did not match a worker gathers before
// passing them to fn, under its lock.
const missBatch = 64

// utf8BOM is the UTF-8 byte-order mark.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}
