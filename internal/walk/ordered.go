package walk

import (
	"errors"
	"sync"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/par"
)

// The ordered walk (Options.Sorted) calls fn from one goroutine, depth
// first and in name order, while worker goroutines list the directories
// it will need next: each listed directory makes nodes for the
// subdirectories it will enter, which the workers list in turn, at most
// maxAhead directories ahead of the caller. When the caller needs a
// directory no worker has claimed yet, it lists it itself, so it never
// waits on the workers' budget. All counting happens on the caller's
// side, so the calls to fn, the stats and MaxVisited are deterministic.

// maxAhead bounds the directories listed but not yet walked through (each
// holds its entries and an open descriptor). With one file open per search
// worker (par.Openers, which says why) and the process's own few, an
// ordered search stays under the 64 descriptors a Linux process's table
// starts with.
const maxAhead = 32

// errStopped marks a node left unlisted because the walk stopped.
var errStopped = errors.New("walk stopped")

// node is a directory of an ordered walk. The fields after done are
// written by whoever claims the node, before done is closed.
type node struct {
	job
	state     nodeState // guarded by walker.mu
	abandoned bool      // guarded by walker.mu: the caller will not walk it
	done      chan struct{}

	l     *listing
	rules *dirRules // the rules in force inside the directory
	err   error     // the listing failed
	kids  []*node   // per entry: the node of a directory to enter, else nil
	verds []int8    // per entry: verdict
}

type nodeState uint8

const (
	pending  nodeState = iota // waiting for a worker
	claimed                   // being listed
	listed                    // done is closed; holds budget until released
	released                  // walked through or abandoned; descriptor closed
)

// ordered is the shared state of the workers of an ordered walk; it uses
// walker.mu and walker.cond.
type ordered struct {
	stack    []*node // pending nodes, the next needed on top
	ahead    int     // nodes claimed or listed, not yet released
	waiting  int     // workers waiting in prefetch
	finished bool    // the caller is done: workers return
}

// orderedWalk walks from root in order; see the comment above.
func (w *walker) orderedWalk(root job) {
	n := w.opts.Workers
	if n <= 0 {
		n = 2 * par.Openers()
	}
	o := &w.ord
	rootNode := &node{job: root, done: make(chan struct{})}
	var wg sync.WaitGroup
	for range n {
		wg.Go(w.prefetch)
	}
	st := w.newStats()
	w.visit(rootNode, st) // releases every node it listed or had listed
	w.mu.Lock()
	o.finished = true
	w.cond.Broadcast()
	w.mu.Unlock()
	wg.Wait()
}

// prefetch is a worker: it lists pending nodes while the budget allows.
func (w *walker) prefetch() {
	o := &w.ord
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		for !o.finished && !w.stop.Load() && (len(o.stack) == 0 || o.ahead >= maxAhead) {
			o.waiting++
			w.cond.Wait()
			o.waiting--
		}
		if o.finished || w.stop.Load() {
			return
		}
		nd := o.stack[len(o.stack)-1]
		o.stack = o.stack[:len(o.stack)-1]
		if nd.state != pending || nd.abandoned {
			continue
		}
		w.claimAndList(nd)
	}
}

// claimAndList lists nd; it is called with w.mu held and returns with it
// held, releasing it while listing.
func (w *walker) claimAndList(nd *node) {
	o := &w.ord
	nd.state = claimed
	o.ahead++
	w.mu.Unlock()
	w.fill(nd)
	w.mu.Lock()
	nd.state = listed
	close(nd.done)
	if nd.abandoned {
		fds := w.abandon(nd, nil)
		w.mu.Unlock()
		closeAll(fds)
		w.mu.Lock()
		return
	}
	// Push the subdirectories last first, so that the first is on top,
	// and wake a waiting worker for each.
	pushed := 0
	for i := len(nd.kids) - 1; i >= 0; i-- {
		if k := nd.kids[i]; k != nil {
			o.stack = append(o.stack, k)
			pushed++
		}
	}
	for range min(pushed, o.waiting) {
		w.cond.Signal()
	}
}

// fill lists the directory of nd and decides the fate of its entries.
func (w *walker) fill(nd *node) {
	if w.stop.Load() {
		nd.err = errStopped
		return
	}
	l, rules, err := w.prepare(nd.job)
	if err != nil {
		nd.err = err
		return
	}
	nd.l, nd.rules = l, rules
	nd.kids = make([]*node, len(l.ents))
	nd.verds = make([]int8, len(l.ents))
	for i := range l.ents {
		e := &l.ents[i]
		p, isDir := l.paths[e.start:e.end], e.typ.IsDir()
		v := w.verdict(rules, l.nameOf(e), p, isDir)
		nd.verds[i] = int8(v)
		if v != report {
			continue
		}
		if w.opts.StatAhead {
			l.info(i, p) // cached for the Entry's Info
		}
		if isDir {
			nd.kids[i] = &node{job: job{dir: p, depth: nd.depth + 1, rules: rules}, done: make(chan struct{})}
		}
	}
}

// await returns nd listed: it waits for the worker that claimed it, or
// lists it itself when no worker has.
func (w *walker) await(nd *node) {
	w.mu.Lock()
	if nd.state == pending {
		w.claimAndList(nd)
		w.mu.Unlock()
		return
	}
	w.mu.Unlock()
	<-nd.done
}

// visit walks the directory of nd: it reports its entries in order and
// visits the subdirectories fn lets it enter.
func (w *walker) visit(nd *node, st *stats) {
	w.await(nd)
	defer w.drop(nd)
	if nd.err != nil {
		if nd.err != errStopped {
			w.unreadable(nd.job, st, nd.err)
		}
		return
	}
	depth := nd.depth + 1
	l := nd.l
	for i, e := range l.ents {
		if w.stop.Load() || w.overLimit(st, len(l.ents)-i) {
			return
		}
		st.visited++
		if v := nd.verds[i]; v != report {
			st.skipped[v]++
			continue
		}
		descend, next := w.call(Entry{Path: l.paths[e.start:e.end], Type: e.typ, Depth: depth, list: l, idx: i})
		if kid := nd.kids[i]; kid != nil {
			if descend {
				w.visit(kid, st)
			} else {
				w.drop(kid)
			}
		}
		if !next {
			return
		}
	}
}

// drop releases nd once walked, or when the caller will not walk it,
// with its unwalked subdirectories (see abandon), and closes their
// descriptors outside the lock.
func (w *walker) drop(nd *node) {
	w.mu.Lock()
	fds := w.abandon(nd, nil)
	w.mu.Unlock()
	closeAll(fds)
}

// abandon marks nd and, recursively, its subdirectories as not to be
// walked: listed ones free their place in the budget and their
// descriptors are appended to fds, pending ones are never listed, claimed
// ones are released by their lister. It is called with w.mu held.
func (w *walker) abandon(nd *node, fds []fsx.DirFD) []fsx.DirFD {
	nd.abandoned = true
	if nd.state != listed {
		return fds
	}
	nd.state = released
	if w.ord.ahead--; w.ord.ahead == maxAhead-1 && w.ord.waiting > 0 {
		w.cond.Signal() // a worker may wait for budget
	}
	if nd.l != nil && nd.l.fd != nil {
		fds = append(fds, nd.l.fd)
	}
	for _, k := range nd.kids {
		if k != nil && !k.abandoned {
			fds = w.abandon(k, fds)
		}
	}
	return fds
}

func closeAll(fds []fsx.DirFD) {
	for _, fd := range fds {
		fd.Close()
	}
}
