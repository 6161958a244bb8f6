// Package par splits loops over large slices between the processors.
package par

import (
	"runtime"
	"slices"
	"sync"
)

// maxOpeners bounds Openers.
const maxOpeners = 16

// Openers is the number of processors that the goroutines which hold files
// or directories open (a search's, a walk's) are sized by: GOMAXPROCS, at
// most 16. Each holds a descriptor or two while it works, and Linux starts
// a process's descriptor table at 64 entries; growing a table that threads
// share waits for an RCU grace period while every thread that opens a file
// waits too (20-25 ms a growth on a 16-core virtual machine, as long as a
// whole search of the Go tree there). ripgrep likewise runs at most 12
// threads unless told otherwise.
func Openers() int { return min(runtime.GOMAXPROCS(0), maxOpeners) }

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

// SortFunc sorts s by cmp as slices.SortFunc does, on all processors: each
// processor sorts a part, then the sorted parts are merged in pairs, the
// pairs of a round in parallel. The order of elements that compare equal
// is unspecified. Below minPer elements per processor it sorts on the
// caller's goroutine.
func SortFunc[T any](s []T, minPer int, cmp func(a, b T) int) {
	parts := min(runtime.GOMAXPROCS(0), len(s)/max(minPer, 1))
	if parts <= 1 {
		slices.SortFunc(s, cmp)
		return
	}
	// bounds[i] is where part i starts; the last bound is len(s).
	bounds := make([]int, parts+1)
	for p := range bounds {
		bounds[p] = p * len(s) / parts
	}
	var wg sync.WaitGroup
	for p := range parts {
		part := s[bounds[p]:bounds[p+1]]
		wg.Go(func() { slices.SortFunc(part, cmp) })
	}
	wg.Wait()
	src, dst := s, make([]T, len(s))
	for len(bounds) > 2 {
		next := []int{0}
		for i := 0; i+1 < len(bounds); i += 2 {
			lo, hi := bounds[i], bounds[min(i+2, len(bounds)-1)]
			mid := bounds[i+1]
			wg.Go(func() { merge(dst[lo:hi], src[lo:mid], src[mid:hi], cmp) })
			next = append(next, hi)
		}
		wg.Wait()
		src, dst, bounds = dst, src, next
	}
	if &src[0] != &s[0] {
		copy(s, src)
	}
}

// merge writes the sorted runs a and b to dst in order, a's element first
// of two that compare equal.
func merge[T any](dst, a, b []T, cmp func(a, b T) int) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if cmp(b[j], a[i]) < 0 {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}
