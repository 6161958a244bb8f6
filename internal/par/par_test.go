package par

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
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

func TestSortFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, procs := range []int{1, 2, 3, 8} {
		prev := runtime.GOMAXPROCS(procs)
		for _, c := range []struct {
			n, minPer, keys int
			reason          string
		}{
			{0, 1, 10, "empty"},
			{1, 1, 10, "one element"},
			{10, 100, 1000, "too few to split: sorted on the caller's goroutine"},
			{1000, 1, 1 << 30, "distinct keys, split between the processors"},
			{1001, 7, 5, "many equal keys, parts of unequal size"},
			{5, 0, 3, "minPer 0 counts as 1"},
		} {
			s := make([]int, c.n)
			for i := range s {
				s[i] = rng.IntN(c.keys)
			}
			want := slices.Clone(s)
			slices.Sort(want)
			SortFunc(s, c.minPer, func(a, b int) int { return a - b })
			if !slices.Equal(s, want) {
				t.Errorf("GOMAXPROCS %d, %s: not sorted or not a permutation", procs, c.reason)
			}
		}
		runtime.GOMAXPROCS(prev)
	}
}

// TestSortFuncStrings: with distinct keys the result is slices.SortFunc's.
func TestSortFuncStrings(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	var s []string
	for i := range 5000 {
		s = append(s, fmt.Sprintf("dir%d/sub%d/file%d.go", i%7, i%13, i))
	}
	want := slices.Clone(s)
	slices.Sort(want)
	SortFunc(s, 16, strings.Compare)
	assert.Equal(t, want, s)
}

// TestOpeners: the processors Go uses, at most maxOpeners.
func TestOpeners(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, c := range []struct{ procs, want int }{{1, 1}, {4, 4}, {16, 16}, {17, 16}, {64, 16}} {
		runtime.GOMAXPROCS(c.procs)
		if got := Openers(); got != c.want {
			t.Errorf("GOMAXPROCS %d: Openers() = %d, want %d", c.procs, got, c.want)
		}
	}
}
