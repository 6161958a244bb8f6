//go:build cgo && unix

package sqlite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// benchDB returns a database with one table t of SCOUT_BENCH_ROWS rows
// (1,000,000 by default; 10,000,000 for the documented comparison with the
// sqlite3 shell). SCOUT_BENCH_DIR keeps it between runs.
func benchDB(b *testing.B) string {
	rows, _ := strconv.Atoi(os.Getenv("SCOUT_BENCH_ROWS"))
	if rows <= 0 {
		rows = 1_000_000
	}
	dir := os.Getenv("SCOUT_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	path := filepath.Join(dir, fmt.Sprintf("rows%d.db", rows))
	if _, err := os.Stat(path); err != nil {
		makeDB(b, path,
			"CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, note TEXT)",
			fmt.Sprintf(`INSERT INTO t SELECT value, 'name' || value, value * 0.5, 'a note about row ' || value
			 FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < %d) SELECT value FROM s)`, rows),
			"CREATE TABLE small(a, b)", "INSERT INTO small VALUES (1, 2)")
	}
	return path
}

// BenchmarkList reads the table list (db), counting rows.
func BenchmarkList(b *testing.B) {
	path := benchDB(b)
	for b.Loop() {
		if _, err := readFile(context.Background(), path, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPageDesc reads db:t?limit=20&order=id:desc.
func BenchmarkPageDesc(b *testing.B) {
	path := benchDB(b)
	for b.Loop() {
		res, err := readFile(context.Background(), path, ":t?limit=20&order=id:desc")
		if err != nil || len(res.Rows) != 20 {
			b.Fatal(err)
		}
	}
}
