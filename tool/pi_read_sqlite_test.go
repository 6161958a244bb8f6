//go:build cgo && unix

package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
)

// TestPiReadSQLiteCounts checks seed 001's "db.sqlite: Lists non-sqlite_%
// tables with row counts" past the small tables: pi counts a table exactly
// up to 50,000 rows (its probe cap) and shows a larger one as a lower
// bound, here without sqlite_stat1 statistics.
func TestPiReadSQLiteCounts(t *testing.T) {
	seq := func(n int) string {
		return fmt.Sprintf("(WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < %d) SELECT v FROM s)", n)
	}
	db := testDatabase(t,
		"CREATE TABLE a12k(id INTEGER PRIMARY KEY)", "INSERT INTO a12k SELECT v FROM "+seq(12_000),
		"CREATE TABLE b50k(id INTEGER PRIMARY KEY)", "INSERT INTO b50k SELECT v FROM "+seq(50_000),
		"CREATE TABLE c50k1(id INTEGER PRIMARY KEY)", "INSERT INTO c50k1 SELECT v FROM "+seq(50_001))
	tests := []struct {
		path, want, reason string
	}{
		{"app.db", "a12k (12000 rows)\nb50k (50000 rows)\nc50k1 (50000+ rows)", "exact up to 50,000 rows, a lower bound past them"},
		{"app.db:a12k", "[11995 more rows; append :a12k?limit=20&offset=5 to the database path to continue]", "the schema's sample counts the rest exactly"},
	}
	for _, tr := range testfs.Trees(t, fstest.MapFS{"app.db": {Data: db}}) {
		cfg := Config{FS: tr.FS, Root: tr.Root}
		for _, tt := range tests {
			t.Run(tt.path+"/"+tr.Name, func(t *testing.T) {
				args, _ := json.Marshal(map[string]string{"path": tt.path})
				env := Call(context.Background(), cfg, Pi, "read", args)
				if env.Status != scout.StatusSuccess || len(env.Text) < len(tt.want) || env.Text[len(env.Text)-len(tt.want):] != tt.want {
					t.Fatalf("%s %q, want it to end in %q (%s)", env.Status, env.Text, tt.want, tt.reason)
				}
			})
		}
	}
}
