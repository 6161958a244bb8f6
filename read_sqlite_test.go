//go:build cgo

package scout_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

// TestReadSQLite reads a database through the Reader over MapFS (copied
// into memory) and over a directory (opened in place, read-only); a .db
// file that is not SQLite is read as text.
func TestReadSQLite(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "app.db")
	db, err := sql.Open("sqlite3", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO users VALUES (1, 'ada'), (2, 'bob')"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	data, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"app.db": data, "notes.db": []byte("not a database\n"), "var/deep/state.db": data}
	tests := []struct {
		path, want, reason string
	}{
		{"app.db", "users (2 rows)", "the table list"},
		{"app.db:users", "CREATE TABLE users", "a table's schema and samples"},
		{"app.db:users:2", "name: bob", "a row by primary key"},
		{"app.db:users?limit=1&order=id:desc", "bob", "a query page"},
		{"app.db?q=SELECT name FROM users WHERE id=1", "ada", "a raw query"},
		{"app.db?q=DELETE FROM users", "error", "writes are refused"},
		{"notes.db", "1:not a database", "a .db without the SQLite header is a plain file"},
		{"state.db", "resolved to 'var/deep/state.db' via suffix match]\nusers (2 rows)", "a database found by suffix lists its tables, not a binary notice"},
	}
	for _, tt := range tests {
		got := readBoth(t, files, tt.path, nil)
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: missing %q (%s) in:\n%s", tt.path, tt.want, tt.reason, got)
		}
	}
}
