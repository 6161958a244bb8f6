//go:build race

package image

// raceEnabled reports a build with the race detector, under which some
// allocations are made twice (append of a made slice is not fused), so
// that byte counts exceed what a normal build allocates.
const raceEnabled = true
