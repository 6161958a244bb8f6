package scout

import (
	"context"
	"io/fs"
	"sync"
)

// hostCalls carries a panic out of a host's callback (a stream's fn or
// loop body, a Progress func), which a search or a find may call from a
// goroutine of its own: the callback's panic is recovered there, the call
// is stopped (cancel), and raise panics again with the same value on the
// caller's goroutine, where the host can recover it. Without it the panic
// would end the process from a goroutine the host does not own.
type hostCalls struct {
	cancel context.CancelFunc
	mu     sync.Mutex
	v      any  // the first panic's value
	set    bool // a callback panicked
}

// call is a Search, StreamFunc or Find under way: the tree it reads and
// the guard of the host's callbacks.
type call struct {
	fsys    fs.FS
	root    string
	release func()
	hc      *hostCalls
}

// begin opens the tree of a call with open (a Workspace's open, say) and
// makes ctx cancelable for the host's callbacks. When it returns no
// error, the caller defers c.end().
func begin(ctx context.Context, open func() (fs.FS, string, func(), error)) (context.Context, *call, error) {
	fsys, root, release, err := open()
	if err != nil {
		return nil, nil, err
	}
	ctx, hc := newHostCalls(ctx)
	return ctx, &call{fsys: fsys, root: root, release: release, hc: hc}, nil
}

// end ends the call: it releases the tree, and raises a callback's panic
// again.
func (c *call) end() {
	defer c.release()
	c.hc.raise()
}

// newHostCalls returns ctx made cancelable for the calls, and the calls.
func newHostCalls(ctx context.Context) (context.Context, *hostCalls) {
	ctx, cancel := context.WithCancel(ctx)
	return ctx, &hostCalls{cancel: cancel}
}

// guard runs f, recovering a panic in it: the call is then stopped and
// guard reports false, as a callback that stops the search.
func (h *hostCalls) guard(f func() bool) (ok bool) {
	done := false
	defer func() {
		if done {
			return
		}
		if v := recover(); v != nil {
			h.mu.Lock()
			if !h.set {
				h.v, h.set = v, true
			}
			h.mu.Unlock()
			h.cancel()
			ok = false
		}
	}()
	ok = f()
	done = true
	return ok
}

// progress returns p guarded, nil for nil.
func progress[T any](h *hostCalls, p func(T)) func(T) {
	if p == nil {
		return nil
	}
	return func(v T) { h.guard(func() bool { p(v); return true }) }
}

// raise ends the calls: it releases the context and panics again with a
// callback's panic, if one did.
func (h *hostCalls) raise() {
	h.cancel()
	h.mu.Lock()
	v, set := h.v, h.set
	h.mu.Unlock()
	if set {
		panic(v)
	}
}
