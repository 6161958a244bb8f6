package walk

import (
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/scoutkit/scout/internal/fsx"
)

// Checker tells whether Walk would report a given path, without walking:
// it looks only at the directories on the way, as Walk sees them (lstat,
// their rule files), and caches what it learns about each one. It is for
// a caller that knows the few files it cares about (an index's candidates)
// and must search exactly those a walk would reach. Safe for concurrent
// use; the tree is assumed not to change while a Checker is used.
type Checker struct {
	w *walker

	mu    sync.Mutex
	outer *dirRules          // the work tree around the FS root, or nil
	dirs  map[string]*chkDir // by FS path
}

// chkDir is what a Checker knows about one directory.
type chkDir struct {
	real  bool      // an existing directory, not a symlink to one
	rules *dirRules // the rules in force inside it
}

// NewChecker returns a Checker for walks of fsys with opts (Sorted,
// StatAhead, Workers, MaxVisited and Filter do not matter).
func NewChecker(fsys fs.FS, opts Options) *Checker {
	c := &Checker{w: newWalker(fsys, opts, nil), dirs: map[string]*chkDir{}}
	c.outer = c.w.ancestorRules(".")
	return c
}

// Reports reports whether Walk(root) reports the entry name, a slash path
// strictly below root ("." for the FS root), that is a directory when
// isDir. When it does not, reason says why: a directory on the way or the
// entry itself is hidden or ignored, or a directory on the way is missing,
// a symlink or not a directory, or Options.Override excludes an entry on
// the way (reason ""). Whether name itself exists is
// not checked.
func (c *Checker) Reports(root, name string, isDir bool) (ok bool, reason Reason) {
	rel := name
	if root != "." {
		if !strings.HasPrefix(name, root+"/") {
			return false, ""
		}
		rel = name[len(root)+1:]
	}
	if rel == "" || !fs.ValidPath(name) {
		return false, ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	parent := root
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			break
		}
		dir := childPath(parent, rel[:i])
		if v := c.w.verdict(c.inside(parent).rules, rel[:i], dir, true); v != report {
			return false, reasons[v]
		}
		if !c.inside(dir).real {
			return false, ""
		}
		parent, rel = dir, rel[i+1:]
	}
	if v := c.w.verdict(c.inside(parent).rules, rel, name, isDir); v != report {
		return false, reasons[v]
	}
	return true, ""
}

// inside returns what the checker knows about the directory dir, reading
// it on first use. c.mu is held.
func (c *Checker) inside(dir string) *chkDir {
	if d, ok := c.dirs[dir]; ok {
		return d
	}
	d := &chkDir{}
	if fi, err := fsx.Lstat(c.w.fsys, dir); err == nil && fi.IsDir() {
		d.real = true
	} else if dir == "." && err == nil {
		d.real = true // the FS root may be reached through a symlink
	}
	parent := c.outer
	if dir != "." {
		parent = c.inside(path.Dir(dir)).rules
	}
	d.rules = parent
	if !c.w.opts.NoIgnore && d.real {
		var f dirFiles
		for _, name := range c.w.loader.names {
			if fi, err := fsx.Lstat(c.w.fsys, childPath(dir, name)); err == nil {
				f.note(name, fi.Mode().Type())
			}
		}
		d.rules = c.w.loader.child(parent, dir, f)
	}
	c.dirs[dir] = d
	return d
}
