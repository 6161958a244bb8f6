package search

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/walk"
)

// Candidates limit a search to the files that may match, as an index finds
// them. The search reads only these, each one only if a scan of the scope
// would have reached it (same targets, globs, types, hidden and ignore
// rules), so the outcome equals the scan's as long as every file of the
// scope that matches is a candidate. The files left out are not counted in
// Skipped. The files the scope names, and the directories it names through
// a symlink, are read whatever the candidates hold: an index names a file
// by its own path, never by a symlink's to it or through a symlinked
// directory, and holds a symlinked directory as the link alone, where a
// walk given it as its root follows it.
type Candidates struct {
	// Files are FS paths of files, in any order; duplicates and paths that
	// do not exist are allowed.
	Files []string
	// Dirs are FS paths of directories all of whose files are candidates,
	// walked with the request's rules; one that no target of the scope
	// would enter (an ignored directory, say) is not walked.
	Dirs []string
}

// candidates lists the candidate files the scope admits, in byte-wise
// path order.
func (p *prepared) candidates(ctx context.Context) ([]file, error) {
	c := p.req.Candidates
	chk := walk.NewChecker(p.fsys, p.req.Walk)
	seen := map[string]bool{}
	var files []file
	add := func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		if f, ok := p.admit(chk, name); ok {
			files = append(files, f)
		}
	}
	dirs := c.Dirs
	for _, t := range p.scope.Targets {
		switch {
		case t.Mem || t.Archive:
		case !t.Dir:
			add(t.Path)
		case linked(p.fsys, t.Path):
			dirs = append(slices.Clip(dirs), t.Path)
		}
	}
	for _, name := range c.Files {
		add(name)
	}
	for _, dir := range p.reached(chk, dirs) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var found []string
		wo := p.req.Walk
		wo.Sorted = true
		_, err := walk.Walk(ctx, p.fsys, dir, wo, func(e walk.Entry) error {
			if !e.Type.IsDir() {
				found = append(found, e.Path)
			}
			return nil
		})
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// A directory that is gone or not a directory holds no candidate.
		for _, name := range found {
			add(name)
		}
	}
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.path, b.path) })
	return files, nil
}

// admit returns the file to search for the candidate name, and false when
// no target of the scope would reach it or it does not exist.
func (p *prepared) admit(chk *walk.Checker, name string) (file, bool) {
	if !fs.ValidPath(name) || name == "." {
		return file{}, false
	}
	for _, t := range p.scope.Targets {
		switch {
		case t.Mem:
			continue
		case !t.Dir:
			if t.Path == name {
				return file{path: name, mode: t.Mode, noTag: t.NoTag}, true
			}
			continue
		}
		rel := name
		if t.Path != "." {
			if !strings.HasPrefix(name, t.Path+"/") {
				continue
			}
			rel = name[len(t.Path)+1:]
		}
		if !t.Glob.Match(rel) || !p.filter.globsPass(name, rel) || !p.filter.Types.Match(rel) {
			continue
		}
		if ok, _ := chk.Reports(t.Path, name, false); !ok {
			continue
		}
		fi, err := fsx.Lstat(p.fsys, name)
		if errors.Is(err, fs.ErrNotExist) || err == nil && fi.IsDir() {
			return file{}, false
		}
		var mode fs.FileMode
		if err == nil {
			mode = fi.Mode().Type()
		}
		return file{path: name, mode: mode, noTag: t.NoTag}, true
	}
	return file{}, false
}

// reached returns the directories to walk for the candidate directories
// dirs: each one that a directory target of the scope would enter, and
// each directory target inside one (a target below an ignored directory
// is walked all the same), without duplicates.
func (p *prepared) reached(chk *walk.Checker, dirs []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(d string) {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, dir := range dirs {
		if !fs.ValidPath(dir) {
			continue
		}
		for _, t := range p.scope.Targets {
			switch {
			case t.Mem || !t.Dir:
			case dir == t.Path || t.Path == "." && dir != "." || strings.HasPrefix(dir, t.Path+"/"):
				if dir == t.Path {
					add(dir)
				} else if ok, _ := chk.Reports(t.Path, dir, true); ok {
					add(dir)
				}
			case dir == "." || strings.HasPrefix(t.Path, dir+"/"):
				add(t.Path)
			}
		}
	}
	return out
}
