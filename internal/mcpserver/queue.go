package mcpserver

import (
	"context"
	"sync"
)

// queue is a first-in first-out queue bounded by the count of its values
// and their cost (bytes): push waits for room, pop for a value. A value's
// cost is held from its push until the taker releases it, so that a queue
// can count the value being worked on (an answer being written) or not
// (a call once a worker took it).
type queue[T any] struct {
	ctx     context.Context
	maxLen  int
	maxCost int

	mu      sync.Mutex
	cond    sync.Cond // signals a value pushed or released, and the end
	items   []queued[T]
	n, cost int  // the values pushed and not released, and their cost
	closed  bool // no value will be pushed: pop ends once the queue is empty
	dropped bool // the values are dropped: push drops its value, pop ends
}

type queued[T any] struct {
	v    T
	cost int
}

// newQueue returns an empty queue of at most maxLen values and maxCost
// of cost; a wait for room ends when ctx does.
func newQueue[T any](ctx context.Context, maxLen, maxCost int) *queue[T] {
	q := &queue[T]{ctx: ctx, maxLen: maxLen, maxCost: maxCost}
	q.cond.L = &q.mu
	context.AfterFunc(ctx, func() {
		q.mu.Lock()
		q.cond.Broadcast()
		q.mu.Unlock()
	})
	return q
}

// push appends v, which costs cost, and reports whether it did: not once
// the queue is closed or dropped. While the queue holds other values and
// has no room for v it waits, until ctx ends (then it appends v all the
// same): one value over maxCost is queued alone.
func (q *queue[T]) push(v T, cost int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.n > 0 && (q.n >= q.maxLen || q.cost+cost > q.maxCost) && !q.closed && !q.dropped && q.ctx.Err() == nil {
		q.cond.Wait()
	}
	if q.closed || q.dropped {
		return false
	}
	q.items = append(q.items, queued[T]{v, cost})
	q.n++
	q.cost += cost
	q.cond.Broadcast()
	return true
}

// pop takes the oldest value and its cost, waiting for one; ok is false
// once the queue is dropped, or closed and empty. The taker releases the
// cost.
func (q *queue[T]) pop() (v T, cost int, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed && !q.dropped {
		q.cond.Wait()
	}
	if len(q.items) == 0 || q.dropped {
		return v, 0, false
	}
	it := q.items[0]
	q.items[0] = queued[T]{}
	q.items = q.items[1:]
	return it.v, it.cost, true
}

// release ends the hold of a value taken, which cost cost.
func (q *queue[T]) release(cost int) {
	q.mu.Lock()
	q.n--
	q.cost -= cost
	q.cond.Broadcast()
	q.mu.Unlock()
}

// close ends the pushes: pop takes what is left, then ends.
func (q *queue[T]) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
}

// drop drops the values waiting and ends pushes and pops; it reports how
// many values were dropped and whether one taken is still held.
func (q *queue[T]) drop() (dropped int, held bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	dropped = len(q.items)
	for _, it := range q.items {
		q.n--
		q.cost -= it.cost
	}
	q.items = nil
	q.dropped = true
	q.cond.Broadcast()
	return dropped, q.n > 0
}
