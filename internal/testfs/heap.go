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
