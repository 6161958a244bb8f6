package find

import (
	"container/heap"
	"slices"
	"sort"
	"strings"
)

// topN keeps the first n entries of an order, in O(log n) per entry; n
// negative keeps all.
type topN struct {
	n     int
	order Order
	h     entryHeap
}

func newTopN(n int, order Order) *topN {
	return &topN{n: n, order: order, h: entryHeap{order: order}}
}

func (t *topN) add(e Entry) {
	if t.n < 0 || len(t.h.es) < t.n {
		heap.Push(&t.h, e)
		return
	}
	if t.n == 0 || !less(e, t.h.es[0], t.order) {
		return
	}
	t.h.es[0] = e
	heap.Fix(&t.h, 0)
}

func (t *topN) paths() []string {
	out := make([]string, len(t.h.es))
	for i, e := range t.h.es {
		out[i] = e.Path
	}
	return out
}

func (t *topN) sorted() []Entry {
	es := slices.Clone(t.h.es)
	sortEntries(es, t.order)
	return es
}

// entryHeap is a max-heap by the order: its root is the worst entry kept.
type entryHeap struct {
	es    []Entry
	order Order
}

func (h entryHeap) Len() int           { return len(h.es) }
func (h entryHeap) Less(i, j int) bool { return less(h.es[j], h.es[i], h.order) }
func (h entryHeap) Swap(i, j int)      { h.es[i], h.es[j] = h.es[j], h.es[i] }
func (h *entryHeap) Push(x any)        { h.es = append(h.es, x.(Entry)) }
func (h *entryHeap) Pop() any {
	e := h.es[len(h.es)-1]
	h.es = h.es[:len(h.es)-1]
	return e
}

// less reports whether a comes before b.
func less(a, b Entry, order Order) bool {
	switch {
	case order == NewestFirst && !a.ModTime.Equal(b.ModTime):
		return a.ModTime.After(b.ModTime)
	case order == Tree:
		return treeLess(a.Path, b.Path)
	}
	return a.Path < b.Path
}

// treeLess reports whether slash path a comes before b in Tree order: below
// their common directory, an entry of that directory comes before the
// contents of its subdirectories, and names compare byte-wise.
func treeLess(a, b string) bool {
	for {
		ai, bi := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		switch {
		case ai < 0 && bi < 0:
			return a < b
		case ai < 0: // a is an entry here, b lies in a subdirectory
			return true
		case bi < 0:
			return false
		case a[:ai] != b[:bi]:
			return a[:ai] < b[:bi]
		}
		a, b = a[ai+1:], b[bi+1:]
	}
}

func sortEntries(es []Entry, order Order) {
	sort.SliceStable(es, func(i, j int) bool { return less(es[i], es[j], order) })
}
