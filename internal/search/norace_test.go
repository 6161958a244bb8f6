//go:build !race

package search

const raceEnabled = false

const allocTries = 6
