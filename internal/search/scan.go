package search

import (
	"context"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/walk"
)

// outcome is what searching one file gave: a result, or the reason the file
// was left out.
type outcome struct {
	res  *grep.FileResult
	skip string // a Skip reason; "" when res is set
	err  error  // the cause when skip is SkipError
}

// scan searches the files that produce passes to its emit function, with
// several goroutines, and calls fn for each in the order produced, so the
// output does not depend on scheduling. produce runs in its own goroutine
// and may stream (a walk) or replay a list. Workers run at most a bounded
// window ahead of fn, which bounds memory; when fn returns false, or ctx
// is done, emit returns fs.SkipAll and the files in flight are dropped.
// scan returns ctx's error if ctx ended it, else produce's error.
func scan(ctx context.Context, fsys fs.FS, produce func(ctx context.Context, emit func(file) error) error, m *grep.Matcher, maxSize int64, workers int, fn func(f *file, o outcome) bool) error {
	if workers <= 0 {
		workers = 2 * runtime.GOMAXPROCS(0)
	}
	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type job struct {
		f    file
		done chan outcome
	}
	window := 4*workers + 16
	jobs := make(chan job, window)  // to the workers
	order := make(chan job, window) // to fn, in order
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := m.NewScanner()
			for j := range jobs {
				if ctx.Err() != nil {
					j.done <- outcome{skip: SkipError, err: ctx.Err()}
					continue
				}
				j.done <- searchOne(ctx, fsys, sc, &j.f, maxSize)
			}
		}()
	}
	var perr error
	go func() {
		perr = produce(ctx, func(f file) error {
			j := job{f: f, done: make(chan outcome, 1)}
			select {
			case order <- j:
			case <-ctx.Done():
				return fs.SkipAll
			}
			jobs <- j // workers always drain jobs
			return nil
		})
		close(jobs)
		close(order)
	}()
	stopped := false
	for j := range order {
		if stopped {
			continue // drain, so that produce can return
		}
		o := <-j.done
		if outer.Err() != nil || !fn(&j.f, o) {
			stopped = true
			cancel()
		}
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

// listProducer replays a list of files.
func listProducer(files []file) func(ctx context.Context, emit func(file) error) error {
	return func(ctx context.Context, emit func(file) error) error {
		for _, f := range files {
			if err := emit(f); err != nil {
				return nil
			}
		}
		return nil
	}
}

// searchOne searches one file. A panic in the engine is turned into a
// failure of that file (counted and sampled) instead of ending the process
// from a worker goroutine.
func searchOne(ctx context.Context, fsys fs.FS, sc *grep.Scanner, f *file, maxSize int64) (o outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = outcome{skip: SkipError, err: &errs.Error{Code: errs.Internal, Path: f.path,
				Message: fmt.Sprintf("internal error searching %s: %v; this is a bug in Scout, please report it", f.path, r)}}
		}
	}()
	switch {
	case f.mode&fs.ModeSymlink != 0:
		return outcome{skip: SkipSymlink}
	case f.mode.Type() != 0:
		return outcome{skip: SkipSpecial}
	case maxSize >= 0 && f.size > maxSize:
		return outcome{skip: SkipTooLarge}
	}
	var (
		res *grep.FileResult
		err error
	)
	if f.mem {
		res, err = sc.SearchBytes(ctx, f.text)
	} else {
		if f.size < 0 {
			info, serr := fs.Stat(fsys, f.path)
			if serr != nil {
				return outcome{skip: SkipError, err: &errs.Error{Code: errs.CodeOf(serr), Path: f.path, Message: "cannot stat " + f.path + ": " + serr.Error(), Err: serr}}
			}
			if !info.Mode().IsRegular() {
				return outcome{skip: SkipSpecial}
			}
			f.size = info.Size()
			if maxSize >= 0 && f.size > maxSize {
				return outcome{skip: SkipTooLarge}
			}
		}
		res, err = sc.SearchFile(ctx, fsys, f.path, f.size)
	}
	if err != nil {
		return outcome{skip: SkipError, err: err}
	}
	if res.Binary {
		return outcome{skip: SkipBinary}
	}
	return outcome{res: res}
}

// scanAll walks the scope and searches its files at the same time, with
// several goroutines, then calls fn for each file that matched in
// byte-wise path order. Files that did not match or were left out are
// passed to fn as they come (serialised), before the matches: they carry
// no order-dependent information.
func scanAll(ctx context.Context, fsys fs.FS, sc *Scope, wo walk.Options, f Filter, m *grep.Matcher, maxSize int64, workers int, skipped map[string]int, fn func(f *file, o outcome) bool) error {
	if workers <= 0 {
		workers = 2 * runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type hit struct {
		f file
		o outcome
	}
	var (
		mu   sync.Mutex
		hits []hit
		stop bool
	)
	jobs := make(chan file, 4*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := m.NewScanner()
			for fl := range jobs {
				o := searchOne(ctx, fsys, sc, &fl, maxSize)
				mu.Lock()
				switch {
				case stop:
				case o.res != nil && o.res.MatchLines > 0:
					hits = append(hits, hit{fl, o})
				default:
					if !fn(&fl, o) {
						stop = true
						cancel()
					}
				}
				mu.Unlock()
			}
		}()
	}
	seen := map[string]bool{} // only with several targets, which may overlap
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
		case jobs <- fl:
			return nil
		case <-ctx.Done():
			return fs.SkipAll
		}
	}
	walked := map[string]int{} // written by walkScope while workers run
	err := walkScope(ctx, fsys, sc, wo, f, walked, emit)
	close(jobs)
	wg.Wait()
	for r, n := range walked {
		skipped[r] += n
	}
	if stop {
		return nil
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return err
	}
	slices.SortFunc(hits, func(a, b hit) int { return strings.Compare(a.f.path, b.f.path) })
	for i := range hits {
		if !fn(&hits[i].f, hits[i].o) {
			break
		}
	}
	return nil
}
