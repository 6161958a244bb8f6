// Package api holds the snapshots of Scout's exported API and the checks
// that keep it stable; it has no code of its own.
//
// The files *.export are apidiff export data of the packages scout, format
// and tool. check.sh compares the current packages with them and fails on
// an incompatible change (CI runs it; "check.sh -w" rewrites them after an
// intended change). The tests here require a doc comment on every exported
// name of those packages.
package api
