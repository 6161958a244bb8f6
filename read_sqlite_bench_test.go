//go:build cgo

package scout_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

// BenchmarkReadSQLite times, in process, the reads bench/containers.sh
// times with the CLI: the table list (db) and db:t?limit=20&order=id:desc,
// each through the public Reader and rendered as the CLI prints it. So the
// figures leave out the process start-up the CLI pays. SCOUT_BENCH_DB names
// the database to read (bench/containers.sh passes its 10,000,000-row
// fixture: a table t(id INTEGER PRIMARY KEY, ...) and a table small);
// without it a 1,000,000-row database of that shape is made in a temporary
// directory.
func BenchmarkReadSQLite(b *testing.B) {
	path := os.Getenv("SCOUT_BENCH_DB")
	if path == "" {
		path = filepath.Join(b.TempDir(), "rows.db")
		makeBenchDB(b, path, 1_000_000)
	}
	r := scout.Reader{Workspace: scout.Workspace{Root: filepath.Dir(path)}}
	name := filepath.Base(path)
	for _, c := range []struct{ name, path, want string }{
		{"db-tables", name, "small (1 rows)"},
		{"db-page", name + ":t?limit=20&order=id:desc", "[Showing rows 1-20; more rows match."},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := r.Read(context.Background(), scout.ReadRequest{Path: c.path})
				if err != nil {
					b.Fatal(err)
				}
				if text := format.ReadText(res, nil); !strings.Contains(text, c.want) {
					b.Fatalf("%s: %q not in %q", c.path, c.want, text)
				}
			}
		})
	}
}

// makeBenchDB writes a database with a table t of rows rows and a table
// small of one row, as bench/containers.sh does.
func makeBenchDB(b *testing.B, path string, rows int) {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, note TEXT)",
		fmt.Sprintf(`INSERT INTO t SELECT value, 'name' || value, value * 0.5, 'a note about row ' || value
		 FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < %d) SELECT value FROM s)`, rows),
		"CREATE TABLE small(a, b)",
		"INSERT INTO small VALUES (1, 2)",
	} {
		if _, err := db.Exec(q); err != nil {
			b.Fatal(err)
		}
	}
}
