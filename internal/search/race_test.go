//go:build race

package search

// raceEnabled shortens the slowest tests under the race detector, which
// makes searching GOROOT/src ten times slower, and loosens the counts of
// allocations, which its random sync.Pool drops make vary.
const raceEnabled = true
