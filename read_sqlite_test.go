//go:build cgo

package scout_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/testfs"
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
		setup              func(*scout.Reader)
	}{
		{"app.db", "users (2 rows)", "the table list", nil},
		{"app.db:users", "CREATE TABLE users", "a table's schema and samples", nil},
		{"app.db:users:2", "name: bob", "a row by primary key", nil},
		{"app.db:users?limit=1&order=id:desc", "bob", "a query page", nil},
		{"app.db?q=SELECT name FROM users WHERE id=1", "ada", "a raw query", nil},
		{"app.db?q=DELETE FROM users", "error", "writes are refused", nil},
		{"notes.db", "1:not a database", "a .db without the SQLite header is a plain file", nil},
		{"state.db", "resolved to 'var/deep/state.db' via suffix match]\nusers (2 rows)", "a database found by suffix lists its tables, not a binary notice", suffixMatch},
		{"state.db:users", "resolved to 'var/deep/state.db' via suffix match]\n", "a database table found by suffix", suffixMatch},
		{"state.db", "error NOT_FOUND: Path 'state.db' not found", "without SuffixMatch a missing database is NOT_FOUND", nil},
		{"state.db:users", "error NOT_FOUND", "without SuffixMatch a missing database is NOT_FOUND", nil},
	}
	for _, tt := range tests {
		got := readBoth(t, files, tt.path, tt.setup)
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: missing %q (%s) in:\n%s", tt.path, tt.want, tt.reason, got)
		}
	}
}

// sqliteFixture is the database of TestReadSQLiteViews.
var sqliteFixture = []string{
	`CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, created DATETIME, ok BOOLEAN, data BLOB, score REAL)`,
	`INSERT INTO users VALUES (1,'alice','2024-01-02 03:04:05',5,x'0102',1.5), (2,'bob','not a date',0,NULL,2.0),
	 (3,'carol' || char(10) || 'two' || char(9) || 'lines',NULL,NULL,zeroblob(2000),NULL)`,
	`INSERT INTO users(id, name) SELECT value, 'user' || value FROM (WITH RECURSIVE s(value) AS (SELECT 4 UNION ALL SELECT value + 1 FROM s WHERE value < 30) SELECT value FROM s)`,
	`CREATE TABLE Items(k TEXT, v INT, PRIMARY KEY(k, v)) WITHOUT ROWID`,
	`INSERT INTO Items VALUES ('a', 1)`,
	`CREATE TABLE notes(body TEXT)`,
	`INSERT INTO notes VALUES ('first'), ('second')`,
	`CREATE TABLE codes(code TEXT PRIMARY KEY, label TEXT)`,
	`INSERT INTO codes VALUES ('x1', 'one'), ('007', 'bond')`,
	`CREATE TABLE empty(a, b)`,
	`CREATE VIEW adults AS SELECT id, name FROM users WHERE id > 28`,
}

// sqliteBytes makes a database of stmts and returns its bytes.
func sqliteBytes(t testing.TB, stmts ...string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestReadSQLiteViews checks the text of each database view, rendered by
// format from the typed view, over MapFS, a directory and an archive
// member.
func TestReadSQLiteViews(t *testing.T) {
	data := sqliteBytes(t, sqliteFixture...)
	files := map[string][]byte{"app.db": data, "a.zip": testfs.Zip(testfs.Member{Name: "app.db", Body: string(data)})}
	cases := []struct{ sel, want, reason string }{
		{"", "codes (2 rows)\nempty (0 rows)\nItems (1 rows)\nnotes (2 rows)\nusers (30 rows)",
			"tables sorted without case, views left out, never singular"},
		{":users", `CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, created DATETIME, ok BOOLEAN, data BLOB, score REAL)

Sample rows:
| id | name             | created             | ok   | data         | score |
| -- | ---------------- | ------------------- | ---- | ------------ | ----- |
| 1  | alice            | 2024-01-02 03:04:05 | 5    | <BLOB 2B>    | 1.5   |
| 2  | bob              | not a date          | 0    | NULL         | 2     |
| 3  | carol\ntwo lines | NULL                | NULL | <BLOB 2.0KB> | NULL  |
| 4  | user4            | NULL                | NULL | NULL         | NULL  |
| 5  | user5            | NULL                | NULL | NULL         | NULL  |

[25 more rows; append :users?limit=20&offset=5 to the database path to continue]`,
			"schema, 5 samples, stored values kept whatever the declared type, hint"},
		{":USERS:2", "id: 2\nname: bob\ncreated: not a date\nok: 0\ndata: NULL\nscore: 2", "row by integer primary key; table name without case"},
		{":users:99", "No row found in table 'users' for key '99'.", "missing row"},
		{":codes:007", "code: 007\nlabel: bond", "text primary key keeps leading zeros"},
		{":notes:2", "body: second", "no primary key: rowid"},
		{":users?limit=2&order=id:desc", "| id | name   | created | ok   | data | score |\n| -- | ------ | ------- | ---- | ---- | ----- |\n| 30 | user30 | NULL    | NULL | NULL | NULL  |\n| 29 | user29 | NULL    | NULL | NULL | NULL  |\n\n[Showing rows 1-2; more rows match. Append :users?limit=2&offset=2&order=id:desc to the database path to continue]",
			"order desc with a hint that keeps the order"},
		{":users?where=name LIKE 'b%'&limit=5", "| id | name | created    | ok | data | score |\n| -- | ---- | ---------- | -- | ---- | ----- |\n| 2  | bob  | not a date | 0  | NULL | 2     |",
			"where; DATETIME text that is not a date is kept"},
		{":empty", "CREATE TABLE empty(a, b)\n\nSample rows:\n(no rows)", "empty table"},
		{":adults", "CREATE VIEW adults AS SELECT id, name FROM users WHERE id > 28\n\nSample rows:\n| id | name   |\n| -- | ------ |\n| 29 | user29 |\n| 30 | user30 |", "a view reads like a table"},
		{"?q=SELECT count(*) AS n, max(id) FROM users", "| n  | max(id) |\n| -- | ------- |\n| 30 | 30      |", "raw query"},
		{"?q=SELECT created FROM users WHERE id < 3;  -- trailing", "| created             |\n| ------------------- |\n| 2024-01-02 03:04:05 |\n| not a date          |", "raw query with ';' and a comment"},
		{"?q=PRAGMA table_info(Items)", "| cid | name | type | notnull | dflt_value | pk |\n| --- | ---- | ---- | ------- | ---------- | -- |\n| 0   | k    | TEXT | 1       | NULL       | 1  |\n| 1   | v    | INT  | 1       | NULL       | 2  |", "read-only pragma"},
		{":users?where=id > 100", "(no rows)", "no match"},
		{"?q=SELECT id, created, ok FROM users WHERE id < 4 ORDER BY id DESC", "| id | created             | ok   |\n| -- | ------------------- | ---- |\n| 3  | NULL                | NULL |\n| 2  | not a date          | 0    |\n| 1  | 2024-01-02 03:04:05 | 5    |",
			"a raw query over DATETIME and BOOLEAN columns keeps stored values and its order"},
		{"?q=WITH x AS (SELECT created FROM users WHERE id = 2) SELECT * FROM x", "| created    |\n| ---------- |\n| not a date |", "WITH query over a DATETIME column"},
		{":users?offset=500", "(no rows)\n\n[No rows at offset 500; use a smaller offset]", "offset past the end"},
		{"?q=SELECT id, name AS id FROM users WHERE id = 2", "| id | id:1 |\n| -- | ---- |\n| 2  | bob  |", "a repeated column name told apart as SQLite names it in a subquery"},
	}
	for _, c := range cases {
		for _, db := range []string{"app.db", "a.zip:app.db"} {
			assert.Equal(t, c.want, readBoth(t, files, db+c.sel, nil), "%s%s: %s", db, c.sel, c.reason)
		}
	}
}

// TestReadSQLiteNotices checks the notices of views over larger
// databases: estimated and probed counts, the table list cap, a lowered
// limit, a query's row cap, a table too wide for columns, a long value.
func TestReadSQLiteNotices(t *testing.T) {
	seq := func(n int) string {
		return fmt.Sprintf("(WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < %d) SELECT value FROM s)", n)
	}
	counts := []string{"CREATE TABLE big(id INTEGER PRIMARY KEY, v)", "INSERT INTO big(v) SELECT value FROM " + seq(60_000),
		"CREATE TABLE mid(id INTEGER PRIMARY KEY, v)", "INSERT INTO mid(v) SELECT value FROM " + seq(20_000),
		"CREATE TABLE small(a)", "INSERT INTO small VALUES (1)"}
	many := []string{"CREATE TABLE r(id INTEGER PRIMARY KEY)", "INSERT INTO r SELECT value FROM " + seq(700)}
	for i := range 503 {
		many = append(many, fmt.Sprintf("CREATE TABLE t%03d(a)", i))
	}
	cols := make([]string, 40)
	vals := make([]string, 40)
	for i := range cols {
		cols[i], vals[i] = fmt.Sprintf("col%d", i), fmt.Sprint(i)
	}
	files := map[string][]byte{
		"probed.db":  sqliteBytes(t, counts...),
		"counted.db": sqliteBytes(t, append(counts, "ANALYZE")...),
		"many.db":    sqliteBytes(t, append(many, "ANALYZE")...),
		"wide.db":    sqliteBytes(t, "CREATE TABLE w("+strings.Join(cols, ",")+")", "INSERT INTO w VALUES ("+strings.Join(vals, ",")+")"),
		"long.db": sqliteBytes(t, "CREATE TABLE docs(name TEXT PRIMARY KEY, body TEXT)",
			"INSERT INTO docs VALUES ('it''s', 'é' || replace(hex(zeroblob(20000)), '0', 'x'))"),
	}
	hint := "?q=SELECT substr(\"body\", 16385, 16384) FROM \"docs\" WHERE \"name\" = 'it''s'"
	tests := []struct {
		path, want, reason string
		suffix             bool // want ends the text; otherwise it is the whole text
	}{
		{"probed.db", "big (50000+ rows)\nmid (20000 rows)\nsmall (1 rows)", "counting stops at 50000", false},
		{"counted.db", "big (~60000 rows)\nmid (20000 rows)\nsmall (1 rows)", "a sqlite_stat1 estimate above 50000; one under it is counted", false},
		{"counted.db:big", "[~59995 more rows; append :big?limit=20&offset=5 to the database path to continue]", "the rest of an estimate", true},
		{"probed.db:big", "[49995+ more rows; append :big?limit=20&offset=5 to the database path to continue]", "the rest of a lower bound", true},
		{"probed.db:mid", "[19995 more rows; append :mid?limit=20&offset=5 to the database path to continue]", "the rest of an exact count", true},
		{"many.db", "[Showing 500 of 504 tables. Append ?q=SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name COLLATE NOCASE, name LIMIT -1 OFFSET 500 to the database path to list more]", "the table list cap", true},
		{"many.db:r?limit=9999", "[limit lowered to 500, the maximum. Showing rows 1-500; more rows match. Append :r?limit=500&offset=500 to the database path to continue]", "a limit over 500", true},
		{"many.db?q=SELECT * FROM r", "[Showing the first 500 rows; add LIMIT and OFFSET to the query to page through the rest]", "a query's row cap", true},
		{"long.db:docs:it's", "… [23617 more characters; append " + hint + " to the database path to read on]", "a long value in a row", true},
	}
	for _, tt := range tests {
		got := readBoth(t, files, tt.path, nil)
		if tt.suffix {
			assert.True(t, strings.HasSuffix(got, tt.want), "%s (%s): %q", tt.path, tt.reason, got[max(0, len(got)-300):])
		} else {
			assert.Equal(t, tt.want, got, "%s: %s", tt.path, tt.reason)
		}
	}
	got := readBoth(t, files, "wide.db?q=SELECT * FROM w", nil)
	assert.True(t, strings.HasPrefix(got, "-- row 1 --\ncol0: 0\ncol1: 1\n") && strings.HasSuffix(got, "col39: 39"), "forty columns are shown as records: %q", got)
}

// TestReadSQLiteTyped checks the typed views a host reads instead of the
// text.
func TestReadSQLiteTyped(t *testing.T) {
	data := sqliteBytes(t, append(sqliteFixture,
		"CREATE TABLE g(a INTEGER NOT NULL DEFAULT 7, b INTEGER GENERATED ALWAYS AS (10 - a) VIRTUAL, c TEXT)",
		"INSERT INTO g(a, c) VALUES (1, 'x'), (2, NULL)",
		"CREATE TABLE f(x REAL)", "INSERT INTO f VALUES (9e999), (-9e999), (0.25)")...)
	r := scout.Reader{Workspace: scout.Workspace{FS: mapFS(map[string][]byte{"app.db": data})}}
	read := func(p string) *scout.SQLiteView {
		t.Helper()
		res, err := r.Read(context.Background(), scout.ReadRequest{Path: p})
		require.NoError(t, err, p)
		require.Equal(t, scout.ReadKindSQLite, res.Kind, p)
		require.NotNil(t, res.SQLite, p)
		return res.SQLite
	}
	integer := func(n int64) scout.SQLiteValue { return scout.SQLiteValue{Type: "integer", Int: n} }
	text := func(s string) scout.SQLiteValue { return scout.SQLiteValue{Type: "text", Text: s} }
	null := scout.SQLiteValue{Type: "null"}

	v := read("app.db")
	assert.Equal(t, 7, v.TotalTables)
	assert.Equal(t, scout.SQLiteTable{Name: "users", Rows: 30}, v.Tables[6])
	assert.Nil(t, v.Schema)
	assert.Nil(t, v.Rows)

	v = read("app.db:g")
	require.NotNil(t, v.Schema)
	assert.Equal(t, scout.SQLiteTable{Name: "g", Rows: 2}, v.Schema.Table)
	assert.Equal(t, []scout.SQLiteColumn{{Name: "a", Type: "INTEGER", NotNull: true, Default: "7"}, {Name: "b", Type: "INTEGER", Generated: true}, {Name: "c", Type: "TEXT"}}, v.Schema.Columns)
	assert.Equal(t, [][]scout.SQLiteValue{{integer(1), integer(9), text("x")}, {integer(2), integer(8), null}}, v.Schema.Samples)
	assert.Empty(t, v.Next, "no more rows than the samples")

	v = read("app.db:users")
	assert.Equal(t, scout.SQLiteColumn{Name: "id", Type: "INTEGER", PrimaryKey: 1}, v.Schema.Columns[0])
	assert.Equal(t, []scout.SQLiteValue{integer(1), text("alice"), text("2024-01-02 03:04:05"), integer(5), {Type: "blob", Size: 2}, {Type: "real", Real: 1.5}}, v.Schema.Samples[0])
	assert.Equal(t, ":users?limit=20&offset=5", v.Next)

	v = read("app.db:users:2")
	assert.Equal(t, &scout.SQLiteRows{Table: "users", Key: "2", Columns: []string{"id", "name", "created", "ok", "data", "score"},
		Rows: [][]scout.SQLiteValue{{integer(2), text("bob"), text("not a date"), integer(0), null, {Type: "real", Real: 2}}}}, v.Rows)
	v = read("app.db:users:99")
	assert.Empty(t, v.Rows.Rows, "no row has the key")

	v = read("app.db:users?limit=2&offset=3&order=id")
	assert.Equal(t, [][]scout.SQLiteValue{{integer(4)}, {integer(5)}}, [][]scout.SQLiteValue{v.Rows.Rows[0][:1], v.Rows.Rows[1][:1]})
	assert.Equal(t, 3, v.Rows.Offset)
	assert.Equal(t, 2, v.Rows.Limit)
	assert.True(t, v.Rows.More)
	assert.Equal(t, ":users?limit=2&offset=5&order=id", v.Next)

	v = read("app.db?q=SELECT x FROM f")
	assert.Equal(t, [][]scout.SQLiteValue{{{Type: "real", Real: math.Inf(1)}}, {{Type: "real", Real: math.Inf(-1)}}, {{Type: "real", Real: 0.25}}}, v.Rows.Rows)
	js, err := json.Marshal(v.Rows.Rows)
	require.NoError(t, err, "an infinite REAL is written as a string")
	assert.Equal(t, `[[{"type":"real","real":"Infinity"}],[{"type":"real","real":"-Infinity"}],[{"type":"real","real":0.25}]]`, string(js))
	var back [][]scout.SQLiteValue
	require.NoError(t, json.Unmarshal(js, &back))
	assert.Equal(t, v.Rows.Rows, back, "the JSON reads back")
}
