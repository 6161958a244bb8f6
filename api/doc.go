// Package api holds the snapshots of Scout's exported API and the checks
// that keep it stable; it has no code of its own.
//
// The files *.export are apidiff export data of the packages scout, format
// and tool. check.sh compares the current packages with them and fails on
// an incompatible change (CI runs it; "check.sh -w" rewrites them after an
// intended change).
//
// apidiff compares a type defined in another package by name only, and
// the public packages alias several types of internal packages
// (scout.ReadResult = read.Result). aliases.txt therefore lists the
// exported fields, JSON tags and methods of every aliased type; the tests
// here fail when a listed line is gone, and "go test ./api -update"
// rewrites it. They also require a doc comment on every exported name of
// the public packages and of the aliased types.
package api
