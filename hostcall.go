package scout

import (
	"context"
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

// progress2 is progress for a func of two arguments.
func progress2[T, U any](h *hostCalls, p func(T, U)) func(T, U) {
	if p == nil {
		return nil
	}
	return func(t T, u U) { h.guard(func() bool { p(t, u); return true }) }
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
