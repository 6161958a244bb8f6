package par

import (
	"sync/atomic"
	"testing"
)

func TestRange(t *testing.T) {
	for _, c := range []struct {
		n, minPer int
		reason    string
	}{
		{0, 1, "nothing to do: no call"},
		{1, 1, "one item"},
		{10, 100, "too few to split: one call"},
		{1000, 1, "split between the processors"},
		{1001, 7, "parts of unequal size"},
		{5, 0, "minPer 0 counts as 1"},
	} {
		seen := make([]int32, c.n)
		var calls atomic.Int32
		Range(c.n, c.minPer, func(lo, hi int) {
			calls.Add(1)
			if lo >= hi {
				t.Errorf("%s: empty part [%d, %d)", c.reason, lo, hi)
			}
			for i := lo; i < hi; i++ {
				atomic.AddInt32(&seen[i], 1)
			}
		})
		for i, v := range seen {
			if v != 1 {
				t.Fatalf("%s: item %d covered %d times", c.reason, i, v)
			}
		}
		if c.n == 0 && calls.Load() != 0 {
			t.Errorf("%s: %d calls", c.reason, calls.Load())
		}
	}
}
