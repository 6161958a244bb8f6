//go:build race

package sqlite

// raceEnabled reports a build with the race detector, whose shadow memory
// makes resident sizes meaningless.
const raceEnabled = true
