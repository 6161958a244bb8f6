//go:build race

package search

// raceEnabled shortens the slowest tests under the race detector, which
// makes searching GOROOT/src ten times slower.
const raceEnabled = true
