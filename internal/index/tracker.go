package index

import (
	"context"
	"path"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// A tracker keeps the changed set of one work tree for a long-lived
// process, so that a search does not run git over the whole tree each time.
//
// The first search of a work tree asks git (see repo.changes), as a
// one-shot command must. From the second search on, the tracker watches
// the tree's directories for changes (inotify on Linux; elsewhere it keeps
// asking git): it asks git once per indexed commit, after the watches are
// in place, and adds every path written, created, deleted or moved since.
// A search first takes the events the kernel has queued, so a write that
// finished before the search began is always seen. A path touched but
// restored is read directly for nothing, which costs time, never
// exactness; after rebase touched paths the tracker asks git again. A new
// directory's files count as touched one by one. The watches skip the
// directories the ignore files exclude: a search with NoIgnore asks git,
// and one whose rules bring such a directory back walks it; a change to
// an ignore file, a moved directory or an overflowing event queue makes
// the tracker start over.
type tracker struct {
	r        *repo
	calls    atomic.Int64
	watching atomic.Bool // ready, readable while mu is held by a search asking git

	mu      sync.Mutex
	w       watcher // nil until watching starts
	ready   bool    // the watches are in place
	restart bool    // the watches may not cover the tree any more
	failed  bool    // watching is not possible here: always ask git
	base    *Changes
	commit  string // the commit base is for
	touched map[string]bool
	dirs    map[string]bool
}

// watcher is an OS mechanism that reports changed paths.
type watcher interface {
	// drain passes each path changed since the last call (relative to the
	// top) to fn, with dir set for a directory created, deleted or moved;
	// ok is false when events were lost and the tracker must start over.
	drain(fn func(p string, dir bool)) (ok bool)
	// unwatched returns the directories (relative to the top) that the
	// watches leave out, as the ignore files exclude them, once they are
	// in place: a search that re-includes one walks it.
	unwatched() []string
	close()
}

// maxTouched bounds the paths a tracker collects before it starts over.
const maxTouched = 1 << 20

// rebase is the number of touched paths after which the tracker asks git
// again: paths touched and then restored or deleted would otherwise keep
// counting towards the changed set's bound.
const rebase = minChanged

// maxTrackers bounds the work trees watched at once.
const maxTrackers = 4

var (
	trackersMu sync.Mutex
	trackers   []*tracker
)

// trackerOf returns the tracker of r's work tree.
func trackerOf(r *repo) *tracker {
	trackersMu.Lock()
	defer trackersMu.Unlock()
	for _, t := range trackers {
		if t.r.top == r.top {
			return t
		}
	}
	t := &tracker{r: &repo{top: r.top}}
	trackers = append(trackers, t)
	if len(trackers) > maxTrackers {
		old := trackers[0]
		trackers = trackers[1:]
		old.mu.Lock()
		old.reset()
		old.failed = true
		old.mu.Unlock()
	}
	return t
}

// visit registers a search of the tree, starts watching it on the second,
// and reports whether the changed set is watched (so cheap to get). A
// search with noIgnore always asks git.
func (t *tracker) visit(noIgnore bool) bool {
	n := t.calls.Add(1)
	if noIgnore {
		return false
	}
	if !t.mu.TryLock() {
		return t.watching.Load() // a search is asking git
	}
	defer t.mu.Unlock()
	if t.w == nil && !t.failed && n >= 2 {
		t.start()
	}
	return t.ready
}

// cheap reports whether the changes since commit come without asking git:
// the tree is watched and git was asked for commit since the last start
// (and is not being asked now).
func (t *tracker) cheap(commit string) bool {
	if !t.mu.TryLock() {
		return false
	}
	defer t.mu.Unlock()
	return t.ready && !t.restart && t.base != nil && t.commit == commit && len(t.touched)+len(t.dirs) < rebase
}

// gitTimeout bounds the git commands whose answer a watched tree keeps.
const gitTimeout = time.Minute

// changes returns what differs between commit and the work tree. When the
// tree is watched, the git commands that set the base go on after ctx ends
// (within gitTimeout): their answer serves the searches that follow.
func (t *tracker) changes(ctx context.Context, commit string, noIgnore bool) (*Changes, error) {
	if noIgnore {
		return t.r.changes(ctx, commit, true)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.ready {
		return t.r.changes(ctx, commit, false)
	}
	if !t.w.drain(t.touch) || t.restart || len(t.touched)+len(t.dirs) > maxTouched {
		t.reset()
		t.start()
		return t.r.changes(ctx, commit, false)
	}
	if t.base == nil || t.commit != commit || len(t.touched)+len(t.dirs) >= rebase {
		// Paths touched from here on are collected again; git sees the
		// tree as it is now.
		t.touched, t.dirs = map[string]bool{}, map[string]bool{}
		gctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), gitTimeout)
		base, err := t.r.changes(gctx, commit, false)
		cancel()
		if err != nil {
			return nil, err
		}
		t.base, t.commit = base, commit
	}
	return t.merged(), nil
}

// touch records a changed path. t.mu is held.
func (t *tracker) touch(p string, dir bool) {
	switch path.Base(p) {
	case ".gitignore", ".ignore", ".rgignore", ".git", ".gitattributes":
		// What is ignored, or what is a work tree, may have changed: the
		// watches may not cover the tree any more (nor git's lists of the
		// ignored and filtered files hold).
		t.restart = true
		return
	}
	if dir {
		t.dirs[p] = true
	} else {
		t.touched[p] = true
	}
}

// merged returns the base changes plus the touched paths. t.mu is held.
func (t *tracker) merged() *Changes {
	c := &Changes{Stale: t.base.Stale, Files: append([]string(nil), t.base.Files...), Dirs: append([]string(nil), t.base.Dirs...),
		Ignored: t.base.Ignored, IgnoredDirs: slices.Clip(t.base.IgnoredDirs), Filtered: t.base.Filtered,
		Negated: t.base.Negated, RgNegated: t.base.RgNegated}
	// The directories the watches leave out: most of them git ignores.
	if un := t.w.unwatched(); len(un) > 0 {
		listed := make(map[string]bool, len(t.base.IgnoredDirs))
		for _, d := range t.base.IgnoredDirs {
			listed[d] = true
		}
		for _, d := range un {
			if !listed[d] {
				c.IgnoredDirs = append(c.IgnoredDirs, d)
			}
		}
	}
	for p := range t.touched {
		if !t.base.files[p] {
			c.Files = append(c.Files, p)
		}
	}
	for d := range t.dirs {
		c.Dirs = append(c.Dirs, d)
	}
	c.index()
	return c
}

// start begins watching in the background. t.mu is held.
func (t *tracker) start() {
	w, err := newWatcher(t.r.top, t.started)
	if err != nil {
		t.failed = true
		return
	}
	t.w = w
}

// started is called by the watcher once its watches are in place, or with
// ok false when they cannot be.
func (t *tracker) started(w watcher, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != w {
		return // reset meanwhile
	}
	if !ok {
		t.reset()
		t.failed = true
		return
	}
	t.ready, t.base, t.commit = true, nil, ""
	t.watching.Store(true)
	t.touched, t.dirs = map[string]bool{}, map[string]bool{}
}

// reset stops watching. t.mu is held.
func (t *tracker) reset() {
	if t.w != nil {
		t.w.close()
	}
	t.w, t.ready, t.restart, t.base, t.commit = nil, false, false, nil, ""
	t.watching.Store(false)
	t.touched, t.dirs = nil, nil
}
