package search

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/scoutkit/scout/internal/archive"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/walk"
)

// Skip reasons: why a file was left out. The walker's own reasons
// (ignored, hidden, unreadable, symlink) are passed through as they are.
const (
	SkipBinary   = "binary"    // a NUL byte in the first 64 KiB
	SkipTooLarge = "too_large" // over the size cap
	SkipSpecial  = "special"   // a FIFO, device or socket: never opened
	SkipSymlink  = "symlink"   // symlinks are not followed
	SkipError    = "unreadable"
)

// file is one file to search: an FS file, an in-memory text, an archive
// member already searched, or an archive still to expand.
type file struct {
	path   string      // FS path, or the display path of an in-memory text or member
	mode   fs.FileMode // type bits
	text   []byte      // content of an in-memory text
	mem    bool
	noTag  bool       // never give it a hashline tag
	entry  walk.Entry // the walk entry, which opens the file cheaply, when walked
	walked bool       // false: open path from the root
	// r streams the bytes of an archive member, to be read once.
	r io.Reader
	// done is the outcome of an archive member searched as its archive
	// was walked; nil for other files.
	done *outcome
	// archive is an archive target not yet expanded into its members;
	// path is then "archive:dir", which sorts where the members' display
	// paths sort.
	archive *Target
	// m is the matcher of a file searched in its own line ranges; nil
	// means the scan's.
	m *grep.Matcher
}

// Filter selects the files of a directory walk.
type Filter struct {
	Globs *GlobFilter // nil: every file
	Types *TypeFilter // nil: every type
	// RipgrepGlobs applies Globs as ripgrep does (the walk's override
	// has already applied them to the entries they match): against a
	// file's path from the FS root, the last glob that matches deciding
	// (MatchLast). false matches them relative to the searched directory
	// (Match). An archive member is matched as without it.
	RipgrepGlobs bool
}

// globsPass reports whether the file at rootRel (relative to the FS
// root), rel below its searched directory, passes f's globs.
func (f *Filter) globsPass(rootRel, rel string) bool {
	if f.RipgrepGlobs {
		return f.Globs.MatchLast(rootRel)
	}
	return f.Globs.Match(rel)
}

// collect lists the files of the scope in byte-wise path order, without
// duplicates, and counts the entries the walk left out. An archive target
// is listed as one file to expand (see produce).
func collect(ctx context.Context, fsys fs.FS, sc *Scope, wo walk.Options, f Filter, skipped map[string]int) ([]file, error) {
	var (
		mu    sync.Mutex
		files []file
	)
	err := walkScope(ctx, fsys, sc, wo, f, nil, skipped, func(fl file) error {
		mu.Lock()
		files = append(files, fl)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b file) int {
		if c := strings.Compare(a.path, b.path); c != 0 || a.archive == nil || b.archive == nil {
			return c
		}
		return strings.Compare(a.archive.Entry, b.archive.Entry) // two globs in one archive directory
	})
	// Two archive targets may name one archive ("a.zip", "a.zip:src"): both
	// are kept, and their expansion drops the members seen twice.
	return slices.CompactFunc(files, func(a, b file) bool { return a.path == b.path && a.archive == nil && b.archive == nil }), nil
}

// walkScope passes every file of the scope to emit, concurrently and in no
// particular order: in-memory texts and explicit files first, then the
// members of each archive target, then the files of each directory target
// that pass its glob and the filter. It counts the entries the walk left
// out. With ms nil, each archive target is passed as one file to expand
// later (file.archive) instead of its members. A directory walk does not
// pass again an archive that a target expands. emit returning fs.SkipAll
// stops the walk.
func walkScope(ctx context.Context, fsys fs.FS, sc *Scope, wo walk.Options, f Filter, ms *memberSearch, skipped map[string]int, emit func(file) error) error {
	expanded := map[string]bool{}
	for i, t := range sc.Targets {
		var err error
		switch {
		case t.Mem:
			err = emit(file{path: t.Path, text: t.Text, mem: true, m: t.m})
		case t.Archive && ms != nil:
			err = ms.expand(ctx, &sc.Targets[i], emit, nil)
		case t.Archive:
			err = emit(file{path: t.Path + ":" + t.Member, archive: &sc.Targets[i]})
		case !t.Dir:
			// An explicit file is searched even when ignored or hidden.
			err = emit(file{path: t.Path, mode: t.Mode, noTag: t.NoTag, m: t.m})
		}
		if err != nil {
			return skipAll(err)
		}
		if t.Archive {
			expanded[t.Path] = true
		}
	}
	for _, t := range sc.Targets {
		if !t.Dir {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		st, err := walk.Walk(ctx, fsys, t.Path, wo, func(e walk.Entry) error {
			if fl, ok := t.fileOf(e, f); ok && !expanded[fl.path] {
				return emit(fl)
			}
			return t.skipDir(e, f)
		})
		AddWalkSkips(fsys, t.Path, t.Glob.String(), st, skipped)
		if err != nil {
			return err
		}
	}
	return nil
}

// AddWalkSkips adds a walk's skip counts, leaving out the ".git" of the
// walk root unless the glob matched below root names it (walk.NamesGit):
// the walker counts it as ignored, but it is never searched or listed and
// no option includes it, so counting it would only mislead, where a glob
// that asks for it is told.
func AddWalkSkips(fsys fs.FS, root, pattern string, st walk.Stats, skipped map[string]int) {
	for r, n := range st.Skipped {
		skipped[string(r)] += n
	}
	if skipped[string(walk.ReasonIgnored)] > 0 && !walk.NamesGit(pattern) {
		if _, err := fsx.Lstat(fsys, path.Join(root, ".git")); err == nil {
			skipped[string(walk.ReasonIgnored)]--
		}
	}
}

// fileOf returns the file to search for a walk entry of the directory
// target t, and false for a directory or a file the filters leave out.
func (t *Target) fileOf(e walk.Entry, f Filter) (file, bool) {
	if e.Type.IsDir() {
		return file{}, false
	}
	rel := e.Path
	if t.Path != "." {
		rel = strings.TrimPrefix(e.Path, t.Path+"/")
	}
	if !t.Glob.Match(rel) || !f.globsPass(e.Path, rel) || !f.Types.Match(rel) {
		return file{}, false
	}
	return file{path: e.Path, mode: e.Type, noTag: t.NoTag, entry: e, walked: true}, true
}

// skipDir returns fs.SkipDir for a directory below the directory target
// t that an excluding glob of the filter matches, as ripgrep's -g
// "!node_modules" leaves out all it holds, and nil otherwise. With
// RipgrepGlobs the walk's override has decided directories already.
func (t *Target) skipDir(e walk.Entry, f Filter) error {
	if !e.Type.IsDir() || e.Path == t.Path || f.RipgrepGlobs {
		return nil
	}
	rel := e.Path
	if t.Path != "." {
		rel = strings.TrimPrefix(e.Path, t.Path+"/")
	}
	if f.Globs.SkipsDir(rel) {
		return fs.SkipDir
	}
	return nil
}

// walkSorted walks the directory target t sequentially and passes its
// files to emit in byte-wise path order (the walk's sorted order),
// counting the entries the walk left out.
func walkSorted(ctx context.Context, fsys fs.FS, t Target, wo walk.Options, f Filter, skipped map[string]int, emit func(file) error) error {
	wo.Sorted = true
	st, err := walk.Walk(ctx, fsys, t.Path, wo, func(e walk.Entry) error {
		if fl, ok := t.fileOf(e, f); ok {
			return emit(fl)
		}
		return t.skipDir(e, f)
	})
	AddWalkSkips(fsys, t.Path, t.Glob.String(), st, skipped)
	return err
}

// skipAll is nil for fs.SkipAll, which stops a walk without error, and err
// otherwise.
func skipAll(err error) error {
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

// produce replays a list of files made by collect, expanding each archive
// in it into its members with ms. A member named by an entry of its own is
// passed as that entry, not again by its archive's expansion.
func produce(files []file, ms *memberSearch) func(ctx context.Context, emit func(file) error) error {
	return func(ctx context.Context, emit func(file) error) error {
		seen := map[string]bool{} // members of an archive named twice ("a.zip", "a.zip:src"), or named alone
		for _, f := range files {
			if f.mem && f.archive == nil {
				seen[f.path] = true
			}
		}
		for _, f := range files {
			var err error
			if f.archive != nil {
				err = ms.expand(ctx, f.archive, emit, seen)
			} else {
				err = emit(f)
			}
			if err != nil {
				return skipAll(err)
			}
		}
		return nil
	}
}

// memberSearch searches the members of archive targets. A tar is one
// stream, read front to back, so an archive's members are searched in
// archive order on the goroutine that walks it and passed on already
// searched (file.done); the memory this takes is that of one member's
// search at a time, never that of the archive.
type memberSearch struct {
	fsys   fs.FS
	m      *grep.Matcher
	pf     perFile // the search's per-file settings: maxSize caps a member too
	wo     walk.Options
	filter Filter
	lim    archive.Limits // the archive's caps
}

// expand walks the archive target t and passes each file member under
// t.Member that passes t's glob and the filter to emit, in archive order,
// named "archive:member". Members are left out as a walk leaves files out:
// hidden ones (unless wo.Hidden), those under a pruned directory, links
// (never followed), unreadable ones (encrypted, an unknown compression)
// and entries whose names leave the archive; each is passed with its skip
// reason, so that it is counted (a member over the archive's member cap as
// too_large). An archive that fails part way is passed as one file after
// the members read: too_large when it went over a cap (its scan cap, say),
// unreadable otherwise (corrupt).
// seen, when not nil, drops members already passed. It returns ctx's error
// when ctx ends and fs.SkipAll when emit does.
func (ms *memberSearch) expand(ctx context.Context, t *Target, emit func(file) error, seen map[string]bool) error {
	display := pathutil.Display(t.Path)
	fail := func(err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errs.CodeOf(err) == errs.TooLarge {
			return emit(file{path: display, mem: true, done: &outcome{skip: SkipTooLarge}})
		}
		return emit(file{path: display, mem: true, done: &outcome{skip: SkipError, err: &errs.Error{
			Code: errs.CodeOf(err), Path: display, Err: err, Message: err.Error()}}})
	}
	a, err := archive.Open(ctx, ms.fsys, t.Path, ms.lim)
	if err != nil {
		return fail(err)
	}
	defer a.Close()
	sc := ms.m.NewScanner()
	var stop error // why emit stopped the walk
	rejected, err := a.Walk(ctx, t.Member, func(e archive.Entry, r io.Reader, err error) error {
		rel := e.Name
		if t.Member != "" {
			rel = strings.TrimPrefix(rel, t.Member+"/")
		}
		if !t.Glob.Match(rel) || !ms.filter.Globs.Match(rel) || !ms.filter.Types.Match(rel) {
			return nil
		}
		f := file{path: display + ":" + e.Name, mem: true}
		if seen != nil {
			if seen[f.path] {
				return nil
			}
			seen[f.path] = true
		}
		o := ms.search(ctx, sc, &f, rel, e, r, err)
		f.done = &o
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if stop = emit(f); stop != nil {
			return fs.SkipAll
		}
		return nil
	})
	switch {
	case stop != nil:
		return stop
	case err != nil:
		return fail(err)
	}
	if rejected == 0 {
		return nil
	}
	// One file for them all: a scan of several targets passes a path once.
	return emit(file{path: display, mem: true, done: &outcome{skip: SkipError, n: rejected, err: &errs.Error{Code: errs.InvalidParam, Path: display,
		Message: fmt.Sprintf("%d entries of archive '%s' have '..' in their names, or names over %d bytes, and were not searched", rejected, display, archive.MaxNameBytes)}}})
}

// search searches one archive member, or says why it is left out; rel is
// its path relative to the target's directory.
func (ms *memberSearch) search(ctx context.Context, sc *grep.Scanner, f *file, rel string, e archive.Entry, r io.Reader, err error) outcome {
	switch {
	case e.IsLink():
		return outcome{skip: SkipSymlink}
	case errs.CodeOf(err) == errs.TooLarge:
		return outcome{skip: SkipTooLarge}
	case err != nil:
		return outcome{skip: SkipError, err: &errs.Error{Code: errs.CodeOf(err), Path: f.path, Err: err, Message: err.Error()}}
	case !ms.wo.Hidden && hiddenMember(rel):
		return outcome{skip: string(walk.ReasonHidden)}
	case prunedMember(rel, ms.wo.PruneDirs):
		return outcome{skip: string(walk.ReasonIgnored)}
	case ms.pf.maxSize >= 0 && e.Size > ms.pf.maxSize:
		return outcome{skip: SkipTooLarge}
	}
	f.r = r
	if ms.pf.maxSize >= 0 {
		f.r = &capReader{r: r, left: ms.pf.maxSize}
	}
	o := searchOne(ctx, nil, sc, nil, f, perFile{maxSize: ms.pf.maxSize}) // a member has no tag
	f.r = nil
	return o
}

// hiddenMember reports whether a segment of the member path rel starts
// with '.'.
func hiddenMember(rel string) bool {
	for s := range strings.SplitSeq(rel, "/") {
		if strings.HasPrefix(s, ".") {
			return true
		}
	}
	return false
}

// prunedMember reports whether a directory of the member path rel has a
// name in prune.
func prunedMember(rel string, prune []string) bool {
	dirs := strings.Split(rel, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if slices.Contains(prune, d) {
			return true
		}
	}
	return false
}

// capReader fails with fsx.ErrTooLarge once its reader yields more than
// left bytes: a member larger than its header said.
type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, fsx.ErrTooLarge
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return 0, fsx.ErrTooLarge
	}
	return n, err
}
