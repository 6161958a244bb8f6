// Package api holds the snapshots of Scout's exported API and the checks
// that keep it stable; it has no code of its own.
//
// The files *.export are apidiff export data of the packages scout, format
// and tool. check.sh compares the current packages with them and fails on
// an incompatible change (CI runs it; "check.sh -w" rewrites them after an
// intended change).
//
// The public packages define every exported type themselves (no alias of
// an internal type), so apidiff sees each field. The tests here require a
// doc comment on every exported name of the public packages.
package api
