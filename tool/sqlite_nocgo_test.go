//go:build !cgo || !unix

package tool

import "testing"

// testDatabase returns a file that is no database: Scout reads SQLite
// only in a build with cgo on a Unix system.
func testDatabase(t *testing.T, stmts ...string) []byte {
	return []byte("not a database without cgo\n")
}
