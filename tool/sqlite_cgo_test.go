//go:build cgo && unix

package tool

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// testDatabase returns the bytes of a SQLite database created by running
// stmts.
func testDatabase(t *testing.T, stmts ...string) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.db")
	db, err := sql.Open("sqlite3", p)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	db.Close()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
