//go:build cgo

package read

import (
	"archive/zip"
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	_ "github.com/mattn/go-sqlite3"
)

// TestArchivedDatabase reads a SQLite database that is a zip member, with
// the member's own selectors.
func TestArchivedDatabase(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "data.db")
	db, err := sql.Open("sqlite3", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"create table users(id integer primary key, name text)", "insert into users(name) values('ann'),('bob')"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	raw, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create("data.db")
	w.Write(raw)
	zw.Close()
	fsys := fstest.MapFS{"a.zip": {Data: zb.Bytes()}}
	tests := []struct{ path, want, reason string }{
		{"a.zip:data.db", "users (2 rows)", "table list"},
		{"a.zip:data.db:users", "Sample rows:", "schema and samples"},
		{"a.zip:data.db:users:2", "name: bob", "row by key"},
	}
	for _, tt := range tests {
		res, err := Run(context.Background(), &Config{FS: fsys}, tt.path)
		if err != nil {
			t.Fatalf("%s: %v (%s)", tt.path, err, tt.reason)
		}
		if res.Kind != KindSQLite || !strings.Contains(res.Body, tt.want) {
			t.Errorf("%s: kind %v body %q, want %q (%s)", tt.path, res.Kind, res.Body, tt.want, tt.reason)
		}
	}
}
