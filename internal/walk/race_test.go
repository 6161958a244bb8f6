//go:build race

package walk

// raceEnabled skips the counts of allocations under the race detector,
// whose sync.Pool drops values at random.
const raceEnabled = true
