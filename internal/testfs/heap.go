package testfs

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// HeapPeak runs f and returns the most that the heap's objects, live or
// not yet collected, grew while it ran, sampled every millisecond: the
// memory a hostile input makes a call take, without a process of its own.
func HeapPeak(f func()) uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	base, peak := s[0].Value.Uint64(), uint64(0)
	done, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	<-sampled
	return max(peak, base) - base
}

// LeastAllocs returns the fewest heap allocations that one call of f made
// over n calls (after one to warm up), run at GOMAXPROCS 1 as
// testing.AllocsPerRun runs it. What happens beside f only ever adds
// allocations to a call's count, never takes one away: a sync.Pool that
// the race detector empties at random, or a collection empties; another
// goroutine that allocates meanwhile. The least of a few calls is f's own
// count where their average, on a loaded machine or under -race, moves by
// some tens.
func LeastAllocs(n int, f func()) float64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	var ms runtime.MemStats
	least := ^uint64(0)
	for range n {
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		f()
		runtime.ReadMemStats(&ms)
		least = min(least, ms.Mallocs-before)
	}
	return float64(least)
}
