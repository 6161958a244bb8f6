//go:build cgo && unix

package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
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

// TestPiReadSQLiteSeed001 checks seed 001's SQLite statements through the
// tool: every database extension, the header check, each selector kind
// and its defaults and caps, and the errors of parameter combinations the
// parser rejects.
func TestPiReadSQLiteSeed001(t *testing.T) {
	seq := func(n int) string {
		return fmt.Sprintf("(WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < %d) SELECT v FROM s)", n)
	}
	db := testDatabase(t,
		"CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO users SELECT v, 'u' || v FROM "+seq(30),
		"CREATE TABLE pairs(a INT, b INT, v TEXT, PRIMARY KEY(a, b))", "INSERT INTO pairs VALUES (1, 2, 'one-two'), (3, 4, 'three-four')",
		"CREATE TABLE wide(a TEXT, b TEXT, c TEXT, d TEXT)", "INSERT INTO wide VALUES ("+strings.Repeat("printf('%.60c', 'w'), ", 3)+"printf('%.60c', 'w'))")
	many := []string{}
	for i := range 501 {
		many = append(many, fmt.Sprintf("CREATE TABLE t%03d(a)", i))
	}
	m := fstest.MapFS{
		"app.db": {Data: db}, "app.sqlite": {Data: db}, "app.sqlite3": {Data: db}, "app.db3": {Data: db},
		"none.db": {Data: testDatabase(t, "PRAGMA user_version = 1")},
		"many.db": {Data: testDatabase(t, many...)},
		"text.db": {Data: []byte("not a database\n")},
	}
	users20 := "| id | name |\n| -- | ---- |\n"
	for i := 1; i <= 20; i++ {
		users20 += fmt.Sprintf("| %-2d | %-4s |\n", i, fmt.Sprint("u", i))
	}
	rows := []seed001Row{
		{rule: "parseSqlitePathCandidates() scans for .sqlite", path: "app.sqlite", status: scout.StatusSuccess, text: "pairs (2 rows)\nusers (30 rows)\nwide (1 rows)"},
		{rule: "parseSqlitePathCandidates() scans for .sqlite3", path: "app.sqlite3", status: scout.StatusSuccess, text: "pairs (2 rows)\nusers (30 rows)\nwide (1 rows)"},
		{rule: "parseSqlitePathCandidates() scans for .db3", path: "app.db3:pairs:1", status: scout.StatusSuccess, text: "a: 1\nb: 2\nv: one-two"},
		{rule: "Database detection requires both a matching extension and a valid SQLite file header",
			path: "text.db", status: scout.StatusSuccess, text: "¶text.db#…", has: []string{"\n1:not a database"}},
		{rule: "db.sqlite: Lists non-sqlite_% tables with row counts (none)", path: "none.db", status: scout.StatusSuccess, text: "(no tables)"},
		{rule: "#readSqlite() caps the rendered list to 500 tables via applyListLimit(); table lists also set details.meta.limits",
			path: "many.db", status: scout.StatusPartial, text: "t000 (0 rows)\n…",
			has: []string{"t499 (0 rows)\n\n[Showing 500 of 501 tables.", `"limits":{"resultLimit":{"reached":500}}`}, lacks: []string{"t500 ("}},
		{rule: "db.sqlite:table returns sqlite_master.sql plus sample rows; DEFAULT_SCHEMA_SAMPLE_LIMIT = 5",
			path: "app.db:users", status: scout.StatusSuccess,
			text: "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT)\n\nSample rows:\n| id | name |\n| -- | ---- |\n| 1  | u1   |\n| 2  | u2   |\n| 3  | u3   |\n| 4  | u4   |\n| 5  | u5   |\n\n[25 more rows; append :users?limit=20&offset=5 to the database path to continue]"},
		{rule: "db.sqlite:table:key resolves by primary key when the table has exactly one PK column",
			path: "app.db:users:7", status: scout.StatusSuccess, text: "id: 7\nname: u7"},
		{rule: "db.sqlite:table:key: otherwise falls back to rowid lookup (a two-column primary key)",
			path: "app.db:pairs:2", status: scout.StatusSuccess, text: "a: 3\nb: 4\nv: three-four"},
		{rule: "No query parameters allowed on row lookups",
			path: "app.db:users:7?limit=1", status: scout.StatusError, code: "INVALID_PARAM", text: "A row lookup (:users:7) takes no query parameters…"},
		{rule: "db.sqlite:table?...: Defaults: limit = 20, offset = 0",
			path: "app.db:users?order=id", status: scout.StatusSuccess, text: users20 + "\n[Showing rows 1-20; more rows match. Append :users?limit=20&offset=20&order=id to the database path to continue]"},
		{rule: "limit is capped at 500",
			path: "app.db:users?limit=501", status: scout.StatusSuccess, text: "| id | name |…", has: []string{"| 30 | u30  |\n\n[limit lowered to 500, the maximum]"}},
		{rule: "order accepts column or column:asc|desc",
			path: "app.db:users?order=id:desc&limit=2&offset=1", status: scout.StatusSuccess, text: "| id | name |\n| -- | ---- |\n| 29 | u29  |\n| 28 | u28  |…"},
		{rule: "order ... must name an existing column",
			path: "app.db:users?order=nope", status: scout.StatusError, code: "INVALID_PARAM", text: "order column 'nope' does not exist in table 'users'…"},
		{rule: "where is accepted only after validateWhereClause()",
			path: "app.db:users?where=id > 28", status: scout.StatusSuccess, text: "| id | name |\n| -- | ---- |\n| 29 | u29  |\n| 30 | u30  |"},
		{rule: "validateWhereClause() rejects comments", path: "app.db:users?where=id > 1 -- x", status: scout.StatusError, code: "INVALID_PARAM", text: "where may not contain comments…"},
		{rule: "validateWhereClause() rejects semicolons", path: "app.db:users?where=id > 1; SELECT 1", status: scout.StatusError, code: "INVALID_PARAM", text: "where may not contain ';'…"},
		{rule: "validateWhereClause() rejects control keywords like LIMIT", path: "app.db:users?where=id > 1 LIMIT 2", status: scout.StatusError, code: "INVALID_PARAM", text: "where may not contain LIMIT…"},
		{rule: "validateWhereClause() rejects control keywords like OFFSET", path: "app.db:users?where=id > 1 offset 2", status: scout.StatusError, code: "INVALID_PARAM", text: "where may not contain OFFSET…"},
		{rule: "validateWhereClause() rejects control keywords like UNION", path: "app.db:users?where=1 UNION SELECT 1", status: scout.StatusError, code: "INVALID_PARAM", text: "where may not contain UNION…"},
		{rule: "validateWhereClause() rejects control keywords like ATTACH", path: "app.db:users?where=ATTACH", status: scout.StatusError, code: "INVALID_PARAM", text: "where may not contain ATTACH…"},
		{rule: "validateWhereClause() rejects control keywords like PRAGMA", path: "app.db:users?where=PRAGMA", status: scout.StatusError, code: "INVALID_PARAM", text: "where may not contain PRAGMA…"},
		{rule: "Unknown query parameters throw", path: "app.db:users?foo=1", status: scout.StatusError, code: "INVALID_PARAM", text: "Unknown query parameter 'foo'…"},
		{rule: "db.sqlite?q=SELECT ...: kind raw",
			path: "app.db?q=SELECT name FROM users WHERE id < 3", status: scout.StatusSuccess, text: "| name |\n| ---- |\n| u1   |\n| u2   |"},
		{rule: "q cannot be combined with table selectors", path: "app.db:users?q=SELECT 1", status: scout.StatusError, code: "INVALID_PARAM", text: "q cannot be combined with a table…"},
		{rule: "q cannot be combined with ... any other query param", path: "app.db?q=SELECT 1&limit=2", status: scout.StatusError, code: "INVALID_PARAM", text: "q cannot be combined with other query parameters…"},
		{rule: "Empty q throws", path: "app.db?q=", status: scout.StatusError, code: "INVALID_PARAM", text: "q is empty…"},
		{rule: "executeReadQuery() ... rejects bound parameters", path: "app.db?q=SELECT ?", status: scout.StatusError, code: "INVALID_PARAM", text: "Bound parameters…"},
		{rule: "ASCII table width 120 (MAX_RENDER_WIDTH); per-column width 40 (MAX_COLUMN_WIDTH)",
			path: "app.db?q=SELECT a, b FROM wide", status: scout.StatusSuccess,
			text: "| a                                        | b                                        |\n| ---------------------------------------- | ---------------------------------------- |\n| " + strings.Repeat("w", 39) + "… | " + strings.Repeat("w", 39) + "… |"},
		{rule: "ASCII table width 120 (MAX_RENDER_WIDTH): four columns of 40 shrink to fit",
			path: "app.db?q=SELECT * FROM wide", status: scout.StatusSuccess,
			text: "| a                          | b                           | c                           | d                           |\n" +
				"| " + strings.Repeat("-", 26) + " | " + strings.Repeat("-", 27) + " | " + strings.Repeat("-", 27) + " | " + strings.Repeat("-", 27) + " |\n" +
				"| " + strings.Repeat("w", 25) + "… | " + strings.Repeat("w", 26) + "… | " + strings.Repeat("w", 26) + "… | " + strings.Repeat("w", 26) + "… |"},
	}
	for _, tr := range testfs.Trees(t, m) {
		for i, r := range rows {
			t.Run(fmt.Sprintf("%02d_%s/%s", i, r.path, tr.Name), func(t *testing.T) {
				r.check(t, Config{FS: tr.FS, Root: tr.Root})
			})
		}
	}
}
