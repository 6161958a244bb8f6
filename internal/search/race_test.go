//go:build race

package search

// raceEnabled shortens the slowest tests under the race detector, which
// makes searching GOROOT/src ten times slower.
const raceEnabled = true

// allocTries is how many searches a count of allocations takes the least
// of: under the race detector, which drops a quarter of what goes back to
// a sync.Pool, a search of a few directories seldom runs without a drop
// (one costs a directory's listing some twenty allocations).
const allocTries = 20
