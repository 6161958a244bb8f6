// Package par splits loops over large slices between the processors.
package par

import (
	"runtime"
	"sync"
)

// Range calls fn on consecutive parts [lo, hi) that together cover [0, n),
// one per processor, in parallel, and returns when all have returned. With
// fewer than minPer items per processor it makes one call on the caller's
// goroutine. fn must be safe to run concurrently on disjoint parts.
func Range(n, minPer int, fn func(lo, hi int)) {
	parts := min(runtime.GOMAXPROCS(0), n/max(minPer, 1))
	if parts <= 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*n/parts, (p+1)*n/parts
		wg.Go(func() { fn(lo, hi) })
	}
	wg.Wait()
}
