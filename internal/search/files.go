package search

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/scoutkit/scout/internal/fsx"
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

// file is one file to search: an FS file or an in-memory text.
type file struct {
	path   string      // FS path, or the display path of an in-memory text
	mode   fs.FileMode // type bits
	text   []byte      // content of an in-memory text
	mem    bool
	noTag  bool       // never give it a hashline tag
	entry  walk.Entry // the walk entry, which opens the file cheaply, when walked
	walked bool       // false: open path from the root
}

// Filter selects the files of a directory walk.
type Filter struct {
	Globs *GlobFilter // nil: every file
	Types *TypeFilter // nil: every type
}

// collect lists the files of the scope in byte-wise path order, without
// duplicates, and counts the entries the walk left out.
func collect(ctx context.Context, fsys fs.FS, sc *Scope, wo walk.Options, f Filter, skipped map[string]int) ([]file, error) {
	var (
		mu    sync.Mutex
		files []file
	)
	err := walkScope(ctx, fsys, sc, wo, f, skipped, func(fl file) error {
		mu.Lock()
		files = append(files, fl)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.path, b.path) })
	return slices.CompactFunc(files, func(a, b file) bool { return a.path == b.path }), nil
}

// walkScope passes every file of the scope to emit, concurrently and in no
// particular order: in-memory texts and explicit files first, then the
// files of each directory target that pass its glob and the filter. It
// counts the entries the walk left out. emit returning fs.SkipAll stops
// the walk.
func walkScope(ctx context.Context, fsys fs.FS, sc *Scope, wo walk.Options, f Filter, skipped map[string]int, emit func(file) error) error {
	for _, t := range sc.Targets {
		var err error
		switch {
		case t.Mem:
			err = emit(file{path: t.Path, text: t.Text, mem: true})
		case !t.Dir:
			// An explicit file is searched even when ignored or hidden.
			err = emit(file{path: t.Path, mode: t.Mode, noTag: t.NoTag})
		}
		if err != nil {
			return nil
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
			if fl, ok := t.fileOf(e, f); ok {
				return emit(fl)
			}
			return nil
		})
		AddWalkSkips(fsys, t.Path, st, skipped)
		if err != nil {
			return err
		}
	}
	return nil
}

// AddWalkSkips adds a walk's skip counts, leaving out the ".git" of the
// walk root: the walker counts it as ignored, but it is never searched or
// listed and no option includes it, so counting it would only mislead.
func AddWalkSkips(fsys fs.FS, root string, st walk.Stats, skipped map[string]int) {
	for r, n := range st.Skipped {
		skipped[string(r)] += n
	}
	if skipped[string(walk.ReasonIgnored)] > 0 {
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
	if !t.Glob.Match(rel) || !f.Globs.Match(rel) || !f.Types.Match(rel) {
		return file{}, false
	}
	return file{path: e.Path, mode: e.Type, noTag: t.NoTag, entry: e, walked: true}, true
}

// walkSorted walks the directory target t sequentially in name order and
// passes its files to emit in byte-wise path order (see orderer), counting
// the entries the walk left out.
func walkSorted(ctx context.Context, fsys fs.FS, t Target, wo walk.Options, f Filter, skipped map[string]int, emit func(file) error) error {
	wo.Sorted = true
	o := &orderer{fsys: fsys, emit: emit}
	st, err := walk.Walk(ctx, fsys, t.Path, wo, func(e walk.Entry) error {
		fl, ok := t.fileOf(e, f)
		if !ok {
			return o.entry(e, nil)
		}
		return o.entry(e, &fl)
	})
	if err == nil {
		err = o.flush()
		if err == fs.SkipAll {
			err = nil
		}
	}
	AddWalkSkips(fsys, t.Path, st, skipped)
	return err
}
