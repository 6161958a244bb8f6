//go:build cgo && unix

package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	_ "github.com/mattn/go-sqlite3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// readFile reads the database at the OS path path as Scout's read tool
// does: through the traversal-safe FS of its directory.
func readFile(ctx context.Context, path, sel string) (*Result, error) {
	fsys, release, err := fsx.OpenDir(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer release()
	return ReadFS(ctx, fsys, filepath.Base(path), sel, Options{})
}

// readBytes reads a database held in data, as an archive member is read.
func readBytes(ctx context.Context, data []byte, sel string) (*Result, error) {
	return ReadReader(ctx, "mem.db", bytes.NewReader(data), int64(len(data)), sel, Options{})
}

// makeDB creates a database at path by running stmts with the driver.
func makeDB(t testing.TB, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+url.PathEscape(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range append([]string{"PRAGMA synchronous = OFF"}, stmts...) {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

var fixture = []string{
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

// fixtureDB writes the fixture database into a temporary directory.
func fixtureDB(t testing.TB) (dir, path string) {
	dir = t.TempDir()
	path = filepath.Join(dir, "app.db")
	if _, err := os.Stat(path); err != nil {
		makeDB(t, path, fixture...)
	}
	return dir, path
}

// readers returns the three ways a database is read: in place, from a fake
// FS, from bytes.
func readers(t testing.TB, path string) map[string]func(sel string) (*Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"d/app.db": {Data: data}}
	ctx := context.Background()
	return map[string]func(string) (*Result, error){
		"file":  func(sel string) (*Result, error) { return readFile(ctx, path, sel) },
		"mapfs": func(sel string) (*Result, error) { return ReadFS(ctx, fsys, "d/app.db", sel, Options{}) },
		"bytes": func(sel string) (*Result, error) { return readBytes(ctx, data, sel) },
	}
}

// snapshot records every file of dir with its bytes and mtime, and under
// "." the mtime of dir itself, which a file created and removed changes.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{".": fmt.Sprint(st.ModTime().UnixNano())}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = fmt.Sprintf("%x@%d", b, st.ModTime().UnixNano())
	}
	return out
}

func checkUnchanged(t *testing.T, dir string, before map[string]string, what string) {
	t.Helper()
	after := snapshot(t, dir)
	for name, b := range before {
		if after[name] != b {
			t.Errorf("%s changed %s", what, name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s created %s", what, name)
		}
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		sel    string
		code   errs.Code
		msg    string
		reason string
	}{
		{":nope", errs.NotFound, "SQLite table 'nope' not found", "unknown table"},
		{":Items:a", errs.InvalidParam, "no single-column primary key and no rowid", "WITHOUT ROWID composite key"},
		{":notes:x", errs.InvalidParam, "rowid, a whole number", "rowid key must be a number"},
		{":users?order=nope", errs.InvalidParam, "order column 'nope' does not exist in table 'users'; its columns are id, name", "order column must exist"},
		{":users?where=bogus_col = 1", errs.InvalidParam, "no such column: bogus_col", "SQL error in where"},
		{"?q=SELECT nope FROM users", errs.InvalidParam, "no such column", "SQL error in q"},
		{"?q=SELECT 1; SELECT 2", errs.InvalidParam, "more than one statement", "two statements"},
		{"?q=SELECT * FROM users WHERE id = ?", errs.InvalidParam, "Bound parameters", "parameters"},
		{"?q=SELECT * FROM users WHERE id = :id", errs.InvalidParam, "Bound parameters", "named parameters"},
	}
	_, path := fixtureDB(t)
	for name, read := range readers(t, path) {
		for _, c := range cases {
			_, err := read(c.sel)
			if errs.CodeOf(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%s %q (%s): got %v (%s), want %s containing %q", name, c.sel, c.reason, err, errs.CodeOf(err), c.code, c.msg)
			}
		}
	}
}

func TestReadOnly(t *testing.T) {
	attempts := []string{
		"?q=INSERT INTO users(name) VALUES ('x')",
		"?q=UPDATE users SET name = 'x'",
		"?q=DELETE FROM users",
		"?q=DROP TABLE users",
		"?q=CREATE TABLE t2(a)",
		"?q=CREATE TEMP TABLE t3(a)",
		"?q=ALTER TABLE users ADD COLUMN z",
		"?q=ATTACH 'other.db' AS o",
		"?q=ATTACH ':memory:' AS o",
		"?q=DETACH main",
		"?q=PRAGMA user_version = 7",
		"?q=PRAGMA journal_mode = WAL",
		"?q=PRAGMA journal_mode = DELETE",
		"?q=VACUUM",
		"?q=VACUUM INTO 'copy.db'",
		"?q=REINDEX",
		"?q=ANALYZE",
		"?q=INSERT INTO users(name) VALUES ('x') RETURNING id",
		"?q=WITH x AS (SELECT 1) INSERT INTO notes SELECT * FROM x",
		"?q=SELECT load_extension('/nonexistent')",
		":users?where=1) UNION SELECT * FROM users WHERE (1",
		":users?where=1; DROP TABLE users",
		":users?where=id = 1 -- comment",
		":users?where=id = 1 /* c */",
		":users?where=1=1) ATTACH 'x.db' AS y; (",
	}
	dir, path := fixtureDB(t)
	// attach targets would be resolved against the working directory
	t.Chdir(dir)
	before := snapshot(t, dir)
	for name, read := range readers(t, path) {
		for _, q := range attempts {
			if _, err := read(q); err == nil {
				t.Errorf("%s %q: no error", name, q)
			}
		}
		// the error says why and what to do instead
		for q, want := range map[string]string{
			"?q=INSERT INTO users(name) VALUES ('x')": "Scout opens databases read-only",
			"?q=PRAGMA user_version = 7":              "Scout opens databases read-only",
			"?q=ATTACH 'other.db' AS o":               "ATTACH is refused: Scout reads only the database named in the path",
			":users?where=1; DROP TABLE users":        "where may not contain ';'",
		} {
			if _, err := read(q); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s %q: error %v, want %q", name, q, err, want)
			}
		}
	}
	checkUnchanged(t, dir, before, "a write attempt")
	// the read-only guard did not stop reads
	res, err := readFile(context.Background(), path, "?q=SELECT count(*) FROM users")
	if err != nil || !strings.Contains(dump(res), ": 30") {
		t.Fatalf("read after attempts: %v %v", res, err)
	}
}

func TestEveryReadLeavesFileAlone(t *testing.T) {
	sels := []string{"", ":users", ":users:3", ":users?limit=3&order=name", "?q=SELECT * FROM notes", ":nope", "?q=bad sql"}
	for _, mode := range []string{"delete", "wal"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "app.db")
		stmts := append([]string{"PRAGMA journal_mode=" + mode}, fixture...)
		makeDB(t, path, stmts...)
		before := snapshot(t, dir)
		if mode == "wal" && len(before) != 2 { // the database and "."
			t.Fatalf("wal fixture left side files: %v", before)
		}
		time.Sleep(10 * time.Millisecond) // an mtime change would show
		for _, s := range sels {
			readFile(context.Background(), path, s)
		}
		checkUnchanged(t, dir, before, mode+" read")
	}
}

func TestWAL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.db")
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{"PRAGMA wal_autocheckpoint=0", "CREATE TABLE t(a)", "INSERT INTO t VALUES (1), (2), (3)"} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	// the writer stays open: -wal and -shm exist, the rows are in -wal;
	// the reader reads -wal without touching -shm, SQLite's shared memory
	before := snapshot(t, dir)
	if len(before) != 4 {
		t.Fatalf("files of a live WAL database: %v", before)
	}
	time.Sleep(10 * time.Millisecond) // an mtime change would show
	res, err := readFile(context.Background(), path, "")
	if err != nil || dump(res) != "t (3 rows)\n" {
		t.Errorf("in place: %v %v", res, err)
	}
	checkUnchanged(t, dir, before, "reading a live WAL database")
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if data[18] != 2 {
		t.Fatalf("fixture is not in WAL mode")
	}
	res, err = readBytes(context.Background(), data, ":t")
	if err != nil || !strings.Contains(dump(res), "a: 3\n") {
		t.Errorf("deserialized WAL file: %v %v", res, err)
	}
	if data[18] != 2 {
		t.Errorf("ReadBytes modified its input")
	}
}

func TestCounts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.db")
	seq := func(n int) string {
		return fmt.Sprintf("(WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < %d) SELECT value FROM s)", n)
	}
	makeDB(t, path,
		"CREATE TABLE big(id INTEGER PRIMARY KEY, v)",
		"INSERT INTO big(v) SELECT value FROM "+seq(60_000),
		"CREATE TABLE mid(id INTEGER PRIMARY KEY, v)",
		"INSERT INTO mid(v) SELECT value FROM "+seq(20_000),
		"CREATE TABLE small(a)",
		"INSERT INTO small VALUES (1)",
	)
	res, err := readFile(context.Background(), path, "")
	require.NoError(t, err)
	assert.Equal(t, []Table{{Name: "big", Count: Count{N: 50000, AtLeast: true}}, {Name: "mid", Count: Count{N: 20000}}, {Name: "small", Count: Count{N: 1}}},
		res.Tables, "probe: exact up to 50000 rows, as pi counts")
	makeDB(t, path, "ANALYZE")
	res, err = readFile(context.Background(), path, "")
	require.NoError(t, err)
	assert.Equal(t, []Table{{Name: "big", Count: Count{N: 60000, Estimated: true}}, {Name: "mid", Count: Count{N: 20000}}, {Name: "small", Count: Count{N: 1}}},
		res.Tables, "an estimate under 50000 is counted")
	res, err = readFile(context.Background(), path, ":big")
	require.NoError(t, err)
	assert.Equal(t, Count{N: 60000, Estimated: true}, res.Count, "schema of a big table")
	assert.Equal(t, ":big?limit=20&offset=5", res.Next)
	res, err = readFile(context.Background(), path, ":mid")
	require.NoError(t, err)
	assert.Equal(t, Count{N: 20000}, res.Count, "schema of a counted table")
	assert.Equal(t, ":mid?limit=20&offset=5", res.Next)
}

func TestHintsWork(t *testing.T) {
	_, path := fixtureDB(t)
	ctx := context.Background()
	var ids []string
	res, err := readFile(ctx, path, ":users")
	for err == nil {
		for _, r := range res.Rows {
			ids = append(ids, fmt.Sprint(r[0]))
		}
		if res.Next == "" {
			break
		}
		res, err = readFile(ctx, path, res.Next)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 30 || ids[0] != "1" || ids[29] != "30" || slices.Compact(slices.Clone(ids))[29] != "30" {
		t.Errorf("following hints read %v", ids)
	}
	// a hint keeps a where that holds '&' and '%'
	res, err = readFile(ctx, path, ":users?limit=1&where=name LIKE 'user%' AND (id & 1) = 0")
	if err != nil || res.Next != ":users?limit=1&offset=1&where=name LIKE 'user%' AND (id & 1) = 0" {
		t.Fatalf("where hint: %v %v", res, err)
	}
	next, err := readFile(ctx, path, res.Next)
	if err != nil || next.Rows[0][0] != int64(6) {
		t.Errorf("following the where hint: %v %v", next, err)
	}
}

func TestLimitsAndList(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "many.db")
	stmts := []string{"CREATE TABLE r(id INTEGER PRIMARY KEY)", "INSERT INTO r SELECT value FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 700) SELECT value FROM s)"}
	for i := range 503 {
		stmts = append(stmts, fmt.Sprintf("CREATE TABLE t%03d(a)", i))
	}
	makeDB(t, path, append(stmts, "ANALYZE")...) // sqlite_stat1 is never listed
	ctx := context.Background()
	res, err := readFile(ctx, path, "")
	if err != nil || len(res.Tables) != MaxTables || res.TotalTables != 504 {
		t.Fatalf("list: %v", err)
	}
	rest, err := readFile(ctx, path, res.Next)
	if err != nil || len(rest.Rows) != 4 {
		t.Errorf("list hint: %v %v", rest, err)
	}
	res, err = readFile(ctx, path, ":r?limit=9999")
	if err != nil || len(res.Rows) != 500 || !res.Clamped || res.Limit != 500 || !res.More || res.Next != ":r?limit=500&offset=500" {
		t.Errorf("clamped limit: %v %+v", err, res)
	}
	res, err = readFile(ctx, path, "?q=SELECT * FROM r")
	if err != nil || len(res.Rows) != MaxRawRows || !res.More || res.Next != "" {
		t.Errorf("raw cap: %v", err)
	}
}

func TestHostileDatabases(t *testing.T) {
	dir, path := fixtureDB(t)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wide := filepath.Join(dir, "wide.db")
	cols := make([]string, 10000)
	for i := range cols {
		cols[i] = fmt.Sprintf("c%d", i)
	}
	makeDB(t, wide, "CREATE TABLE w(a)", "PRAGMA writable_schema=ON",
		"UPDATE sqlite_schema SET sql = 'CREATE TABLE w("+strings.Join(cols, ",")+")' WHERE name = 'w'")
	wideData, err := os.ReadFile(wide)
	if err != nil {
		t.Fatal(err)
	}
	garbage := append([]byte(Magic), bytes.Repeat([]byte{0xA5}, 4096)...)
	cases := []struct {
		name   string
		data   []byte
		sel    string
		code   errs.Code
		reason string
	}{
		{"truncated", good[:1500], ":users", errs.Unsupported, "cut after the first page"},
		{"header only", good[:100], "", errs.Unsupported, "just the header"},
		{"short header", good[:18], "", errs.Unsupported, "the magic and two bytes"},
		{"garbage", garbage, "", errs.Unsupported, "magic then noise"},
		{"encrypted", bytes.Repeat([]byte{0x5A}, 8192), "", errs.Unsupported, "no SQLite header (SQLCipher and SEE encrypt it)"},
		{"ten thousand columns", wideData, ":w", errs.TooLarge, "a schema SQLite refuses to parse"},
	}
	before := snapshot(t, dir)
	for _, c := range cases {
		_, err := readBytes(context.Background(), c.data, c.sel)
		if errs.CodeOf(err) != c.code {
			t.Errorf("%s (%s): got %v (%s), want %s", c.name, c.reason, err, errs.CodeOf(err), c.code)
		}
		p := filepath.Join(dir, "hostile.db")
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		now := snapshot(t, dir)
		before["hostile.db"], before["."] = now["hostile.db"], now["."]
		if _, err := readFile(context.Background(), p, c.sel); err == nil {
			t.Errorf("%s in place: no error", c.name)
		}
		checkUnchanged(t, dir, before, c.name)
	}
}

func TestManyColumnsAsRecords(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.db")
	cols := make([]string, 40)
	vals := make([]string, 40)
	for i := range cols {
		cols[i] = fmt.Sprintf("col%d", i)
		vals[i] = fmt.Sprint(i)
	}
	makeDB(t, path, "CREATE TABLE w("+strings.Join(cols, ",")+")", "INSERT INTO w VALUES ("+strings.Join(vals, ",")+")")
	res, err := readFile(context.Background(), path, "?q=SELECT * FROM w")
	if err != nil || !strings.HasPrefix(dump(res), "col0: 0\ncol1: 1\n") || !strings.HasSuffix(dump(res), "col39: 39\n") {
		t.Errorf("forty columns: %v %+v", err, res)
	}
}

// TestAsManyColumnsAsSQLiteAllows: a table of 2,000 columns, SQLite's
// limit, is read by every view (each value took two result columns, so
// that any table of more than 1,000 failed with "too many columns").
func TestAsManyColumnsAsSQLiteAllows(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.db")
	const n = 2000
	cols := make([]string, n)
	vals := make([]string, n)
	for i := range cols {
		cols[i] = fmt.Sprintf("c%d", i)
		vals[i] = fmt.Sprint(i)
	}
	vals[1] = "zeroblob(5)"
	vals[2] = "'" + strings.Repeat("x", 10000) + "'" // over its share, 8 KiB
	makeDB(t, path, "CREATE TABLE w("+strings.Join(cols, ",")+")", "INSERT INTO w VALUES ("+strings.Join(vals, ",")+")")
	for _, sel := range []string{":w", ":w:1", "?q=SELECT * FROM w"} {
		res, err := readFile(context.Background(), path, sel)
		require.NoError(t, err, sel)
		require.Len(t, res.Rows, 1, sel)
		row := res.Rows[0]
		require.Len(t, row, n, sel)
		assert.Equal(t, int64(0), row[0], sel)
		assert.Equal(t, Sized{Type: "blob", Bytes: 5}, row[1], sel)
		if sel != ":w:1" { // the row view loads a long text's head
			assert.Equal(t, Sized{Type: "text", Bytes: 10000}, row[2], sel)
		}
		assert.Equal(t, int64(n-1), row[n-1], sel)
	}
}

func TestDeadline(t *testing.T) {
	_, path := fixtureDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := readFile(ctx, path, "?q=WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
	if errs.CodeOf(err) != errs.Timeout || time.Since(start) > 2*time.Second {
		t.Errorf("endless query: %v after %v", err, time.Since(start))
	}
}

// TestDefaultDeadline: a read stops at queryTimeout even when ctx has no
// deadline, with a TIMEOUT that says how to avoid it.
func TestDefaultDeadline(t *testing.T) {
	_, path := fixtureDB(t)
	defer func(d time.Duration) { queryTimeout = d }(queryTimeout)
	queryTimeout = 100 * time.Millisecond
	start := time.Now()
	_, err := readFile(context.Background(), path, "?q=WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
	if errs.CodeOf(err) != errs.Timeout || !strings.Contains(err.Error(), narrowHint) || time.Since(start) > 2*time.Second {
		t.Errorf("endless query without a deadline: %v after %v", err, time.Since(start))
	}
}

// TestValueCap: a value over MaxValueBytes fails the read with TOO_LARGE
// and a hint, instead of being held in memory; a smaller one is read.
func TestValueCap(t *testing.T) {
	_, path := fixtureDB(t)
	_, err := readFile(context.Background(), path, fmt.Sprintf("?q=SELECT zeroblob(%d)", MaxValueBytes+1))
	if errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "octet_length(") {
		t.Errorf("a value over the cap: %v, want TOO_LARGE with a hint", err)
	}
	res, err := readFile(context.Background(), path, "?q=SELECT zeroblob(1048576) AS b")
	if err != nil || !strings.Contains(dump(res), "<BLOB 1.0MB>") {
		t.Errorf("a value under the cap: %v, %v", res, err)
	}
}

// TestSizedValues: the table views show a BLOB's size without loading it,
// and a value over MaxValueBytes as its size instead of failing, and so
// does a query selecting it; a query computing such a value fails with the
// hint.
func TestSizedValues(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 34 MB database")
	}
	path := filepath.Join(t.TempDir(), "big.db")
	big := MaxValueBytes + 1
	makeDB(t, path, "CREATE TABLE v(id INTEGER PRIMARY KEY, kind TEXT, b BLOB, t TEXT)",
		"INSERT INTO v VALUES (1, 'small', x'0102', 'hi')",
		fmt.Sprintf("INSERT INTO v VALUES (2, 'big', zeroblob(%d), replace(hex(zeroblob(%d)), '0', 'x'))", big, big/2+1))
	ctx := context.Background()
	for _, sel := range []string{":v", ":v?limit=5&order=id:desc", ":v?where=kind='big'", ":v:2"} {
		res, err := readFile(ctx, path, sel)
		if err != nil {
			t.Errorf("%s: %v", sel, err)
			continue
		}
		for _, want := range []string{"<BLOB 16.0MB>", "<TEXT 16.0MB>"} {
			if !strings.Contains(dump(res), want) {
				t.Errorf("%s: no %s in\n%s", sel, want, dump(res))
			}
		}
		if sel != ":v:2" && sel != ":v?where=kind='big'" && (!strings.Contains(dump(res), "<BLOB 2B>") || !strings.Contains(dump(res), "hi")) {
			t.Errorf("%s: the small row is not shown as before:\n%s", sel, dump(res))
		}
		for _, row := range res.Rows {
			for _, v := range row {
				if b, ok := v.([]byte); ok {
					t.Errorf("%s: a BLOB of %d bytes was loaded", sel, len(b))
				}
			}
		}
	}
	res, err := readFile(ctx, path, "?q=SELECT * FROM v")
	if err != nil || !strings.Contains(dump(res), "<TEXT 16.0MB>") || !strings.Contains(dump(res), "<BLOB 16.0MB>") {
		t.Errorf("a query selecting values over the cap shows their sizes: %v %v", res, err)
	}
	_, err = readFile(ctx, path, "?q=SELECT t || 'x' FROM v WHERE id = 2")
	if errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "e.g. ?q=SELECT id, octet_length(body) FROM t") {
		t.Errorf("computing a value over the cap: %v, want TOO_LARGE with a hint", err)
	}
	// The hint works for a text over the cap, whose length() (characters)
	// loads it and fails: octet_length() reads the size from the record.
	res, err = readFile(ctx, path, "?q=SELECT id, octet_length(t) FROM v WHERE id = 2")
	if err != nil || !strings.Contains(dump(res), fmt.Sprint(big+1)) {
		t.Errorf("the hint followed: %v %v", res, err)
	}
}

// TestGeneratedColumns: the table views show generated columns, as
// SELECT * does, and order by them.
func TestGeneratedColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gen.db")
	makeDB(t, path, "CREATE TABLE g(a INTEGER, b INTEGER GENERATED ALWAYS AS (10 - a) VIRTUAL, c TEXT GENERATED ALWAYS AS (a || 'x') STORED)",
		"INSERT INTO g(a) VALUES (1), (2), (3)")
	res, err := readFile(context.Background(), path, ":g?order=b")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c"}; !slices.Equal(res.Columns, want) {
		t.Errorf("columns %v, want %v", res.Columns, want)
	}
	if len(res.Rows) != 3 || res.Rows[0][0] != int64(3) || res.Rows[0][2] != "3x" {
		t.Errorf("rows ordered by the generated column: %v", res.Rows)
	}
}

// TestResolve: the first of Candidates(p) that IsSQLiteFile accepts, as a
// read looks for a database, is the database file of a path with a
// selector, and there is none for a text file or a directory named like
// a database.
func TestResolve(t *testing.T) {
	_, path := fixtureDB(t)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"data/app.db": good, "notes.db": []byte("just text\n"), "x.sqlite/inner": []byte("dir")}
	mfs := fstest.MapFS{}
	dir := t.TempDir()
	for name, b := range files {
		mfs[name] = &fstest.MapFile{Data: b}
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	cases := []struct {
		p      string
		ok     bool
		want   Split
		reason string
	}{
		{"data/app.db", true, Split{"data/app.db", ""}, "database"},
		{"data/app.db:users:3", true, Split{"data/app.db", ":users:3"}, "row selector"},
		{"data/app.db?q=SELECT 'a.db'", true, Split{"data/app.db", "?q=SELECT 'a.db'"}, "a query naming another .db"},
		{"notes.db", false, Split{}, "a .db that is not SQLite is a plain file"},
		{"x.sqlite", false, Split{}, "a directory"},
		{"missing.db:t", false, Split{}, "missing"},
	}
	resolve := func(fsys fs.FS, p string) (Split, bool) {
		for _, c := range Candidates(p) {
			if IsSQLiteFile(fsys, c.DB) {
				return c, true
			}
		}
		return Split{}, false
	}
	for fsName, fsys := range map[string]fs.FS{"mapfs": mfs, "osdir": root.FS()} {
		for _, c := range cases {
			got, ok := resolve(fsys, c.p)
			assert.Equal(t, c.ok, ok, "%s resolve(%q) (%s)", fsName, c.p, c.reason)
			assert.Equal(t, c.want, got, "%s resolve(%q) (%s)", fsName, c.p, c.reason)
		}
	}
}

func TestOddPaths(t *testing.T) {
	base := t.TempDir()
	for _, name := range []string{"we?ird #dir %20", "spa ce", "ünï"} {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "x&y.db")
		makeDB(t, path, "CREATE TABLE t(a)", "INSERT INTO t VALUES (1)")
		before := snapshot(t, dir)
		res, err := readFile(context.Background(), path, "")
		if err != nil || dump(res) != "t (1 rows)\n" {
			t.Errorf("%q: %v %v", path, res, err)
		}
		checkUnchanged(t, dir, before, "reading "+path)
	}
	_, err := readFile(context.Background(), filepath.Join(base, "missing.db"), "")
	if errs.CodeOf(err) != errs.NotFound {
		t.Errorf("missing file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(base, "missing.db")); err == nil {
		t.Errorf("reading a missing database created it")
	}
	_, err = readFile(context.Background(), base, "")
	if errs.CodeOf(err) != errs.Unsupported {
		t.Errorf("directory: %v", err)
	}
}

func TestBusy(t *testing.T) {
	_, path := fixtureDB(t)
	w, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	if _, err := w.Exec("BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer w.Exec("ROLLBACK")
	start := time.Now()
	_, err = readFile(context.Background(), path, "")
	if errs.CodeOf(err) != errs.Timeout || time.Since(start) < 2500*time.Millisecond {
		t.Errorf("locked database: %v after %v (the busy timeout is 3 s)", err, time.Since(start))
	}
}

func FuzzReadReader(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "f.db")
	makeDB(f, path, "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT)", "INSERT INTO t VALUES (1, 'x'), (2, 'y')")
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, ":t")
	f.Add(good[:20], "")
	f.Add(good, "?q=SELECT * FROM t")
	// a schema of every kind of object, an endless view and long values
	rich := filepath.Join(dir, "rich.db")
	makeDB(f, rich, "PRAGMA page_size=512", "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b BLOB)",
		"CREATE TABLE w(k TEXT PRIMARY KEY, v) WITHOUT ROWID", "CREATE INDEX ta ON t(a)",
		"CREATE VIEW v AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c",
		"CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM w; END",
		"INSERT INTO t VALUES (1, 'x', x'00ff'), (2, NULL, zeroblob(3000)), (3, hex(zeroblob(2000)), 1.5)",
		"INSERT INTO w VALUES ('k', 1.5), ('l', NULL)")
	richData, err := os.ReadFile(rich)
	if err != nil {
		f.Fatal(err)
	}
	for _, sel := range []string{"", ":v?limit=2", ":t?order=a:desc&where=b IS NOT NULL", ":w:k", ":t:3", "?q=SELECT x, typeof(x) FROM v LIMIT 3"} {
		f.Add(richData, sel)
	}
	// header fields that size the file: a page size of 1, and a page
	// count of 2^32-1 in a file of a few pages
	badPage := bytes.Clone(richData)
	badPage[16], badPage[17] = 0, 1
	f.Add(badPage, ":t")
	bigCount := bytes.Clone(richData)
	copy(bigCount[28:32], []byte{0xff, 0xff, 0xff, 0xff})
	f.Add(bigCount, ":t")
	f.Add(richData[:len(richData)-300], ":t")
	f.Fuzz(func(t *testing.T, data []byte, sel string) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		in := bytes.Clone(data)
		_, err := readBytes(ctx, data, sel)
		if !bytes.Equal(in, data) {
			t.Fatalf("ReadBytes modified its input")
		}
		if err != nil && errs.CodeOf(err) == "" {
			t.Fatalf("uncoded error %v", err)
		}
	})
}

func TestLongValue(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "long.db")
	makeDB(t, path, "CREATE TABLE docs(name TEXT PRIMARY KEY, body TEXT)",
		"INSERT INTO docs VALUES ('it''s', 'é' || replace(hex(zeroblob(20000)), '0', 'x'))")
	res, err := readFile(context.Background(), path, ":docs:it's")
	if err != nil {
		t.Fatal(err)
	}
	hint := "?q=SELECT substr(\"body\", 16385, 16384) FROM \"docs\" WHERE \"name\" = 'it''s'"
	body, _ := res.Rows[0][1].(string)
	require.Equal(t, MaxValueChars, utf8.RuneCountInString(body), "long value: its first characters")
	require.Equal(t, Cut{Rest: 23617, Next: hint}, res.Cuts[1], "long value: the cut")
	more, err := readFile(context.Background(), path, hint)
	if err != nil || !strings.Contains(dump(more), "xxxx") {
		t.Errorf("following the hint: %v %v", more, err)
	}
}

func TestHotJournal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "h.db")
	makeDB(t, path, "CREATE TABLE t(a)", "INSERT INTO t SELECT hex(zeroblob(500)) FROM (WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v+1 FROM s WHERE v < 2000) SELECT v FROM s)")
	// a writer whose cache spills mid-transaction has changed the file and
	// holds the original pages in -journal; a copy of both is what a crash
	// leaves behind
	w, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	for _, q := range []string{"PRAGMA cache_size=1", "BEGIN", "UPDATE t SET a = 'zz'"} {
		if _, err := w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	dst := t.TempDir()
	for _, n := range []string{"h.db", "h.db-journal"} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w.Exec("ROLLBACK")
	before := snapshot(t, dst)
	_, err = readFile(context.Background(), filepath.Join(dst, "h.db"), "")
	if errs.CodeOf(err) != errs.Unsupported || !strings.Contains(err.Error(), "hot journal") {
		t.Errorf("hot journal: %v", err)
	}
	checkUnchanged(t, dst, before, "reading a database with a hot journal")
}

func TestResultBytesCap(t *testing.T) {
	old := maxResultBytes
	maxResultBytes = 2500
	defer func() { maxResultBytes = old }()
	dir := t.TempDir()
	path := filepath.Join(dir, "blobs.db")
	makeDB(t, path, "CREATE TABLE b(id INTEGER PRIMARY KEY, data TEXT)",
		"INSERT INTO b SELECT value, hex(zeroblob(500)) FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 10) SELECT value FROM s)")
	ctx := context.Background()
	var seen int
	res, err := readFile(ctx, path, ":b?limit=50")
	for err == nil {
		if len(res.Rows) > 3 {
			t.Fatalf("%d rows of 1000 bytes under a 2500-byte cap", len(res.Rows))
		}
		seen += len(res.Rows)
		if res.Next == "" {
			break
		}
		res, err = readFile(ctx, path, res.Next)
	}
	if err != nil || seen != 10 {
		t.Errorf("paging under the byte cap read %d rows: %v", seen, err)
	}
}

// dump lists the typed values of a result for the tests that look for
// one: the tables as "name (N rows)", each row's values as "column: value"
// lines (NULL, numbers, text, "<BLOB 2B>", "<TEXT 16.0MB>" for a value
// not loaded).
func dump(res *Result) string {
	var b strings.Builder
	for _, t := range res.Tables {
		fmt.Fprintf(&b, "%s (%d rows)\n", t.Name, t.Count.N)
	}
	for _, row := range res.Rows {
		for i, c := range res.Columns {
			v := row[i]
			switch x := v.(type) {
			case nil:
				v = "NULL"
			case []byte:
				v = fmt.Sprintf("<BLOB %s>", dirtree.FormatBytes(int64(len(x))))
			case Sized:
				v = fmt.Sprintf("<%s %s>", strings.ToUpper(x.Type), dirtree.FormatBytes(x.Bytes))
			}
			fmt.Fprintf(&b, "%s: %v\n", c, v)
		}
	}
	return b.String()
}
