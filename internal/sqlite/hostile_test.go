//go:build cgo && unix

package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// TestSymlinkSwapRace: while another goroutine swaps x.db for a symlink to
// a database outside the root and back, no read returns a row of the
// outside database: SQLite reads the file the traversal-safe FS opened.
func TestSymlinkSwapRace(t *testing.T) {
	base := t.TempDir()
	root, outside, keep := filepath.Join(base, "root"), filepath.Join(base, "outside"), filepath.Join(base, "keep")
	for _, d := range []string{root, outside, keep} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	makeDB(t, filepath.Join(keep, "in.db"), "CREATE TABLE t(v)", "INSERT INTO t VALUES ('inside')")
	makeDB(t, filepath.Join(outside, "out.db"), "CREATE TABLE t(v)", "INSERT INTO t VALUES ('outside')")
	x := filepath.Join(root, "x.db")
	if err := os.Link(filepath.Join(keep, "in.db"), x); err != nil {
		t.Fatal(err)
	}
	fsys, release, err := fsx.OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	defer release()

	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tmp := filepath.Join(root, "swap.tmp")
		for {
			select {
			case <-stop:
				return
			default:
			}
			os.Remove(tmp)
			os.Symlink(filepath.Join(outside, "out.db"), tmp)
			os.Rename(tmp, x)
			os.Link(filepath.Join(keep, "in.db"), tmp)
			os.Rename(tmp, x)
		}
	}()
	// At least 300 reads, and on until both outcomes were seen: on a busy
	// machine the swapper may not run between the first few hundred.
	var inside, refused, n int
	for ; n < 300 || (inside == 0 || refused == 0) && n < 20000; n++ {
		res, err := ReadFS(context.Background(), fsys, "x.db", "?q=SELECT v FROM t", Options{})
		switch {
		case err == nil && strings.Contains(dump(res), "outside"):
			close(stop)
			<-done
			t.Fatalf("a read returned a row of the database outside the root:\n%s", dump(res))
		case err == nil:
			inside++
		case errs.CodeOf(err) == errs.AccessDenied:
			refused++
		default:
			t.Errorf("unexpected error: %v (%s)", err, errs.CodeOf(err))
		}
	}
	close(stop)
	<-done
	t.Logf("%d reads during the swaps: %d read x.db, %d refused the symlink", n, inside, refused)
	if inside == 0 || refused == 0 {
		t.Errorf("the swaps did not interleave with the reads (%d inside, %d refused): the test is not meaningful", inside, refused)
	}
}

// TestSideFileSymlinks: a -wal or -journal that is a symlink leading out of
// the root fails the read with ACCESS_DENIED; it is neither followed nor
// ignored.
func TestSideFileSymlinks(t *testing.T) {
	for _, suffix := range []string{"-wal", "-journal"} {
		base := t.TempDir()
		root := filepath.Join(base, "root")
		if err := os.Mkdir(root, 0o755); err != nil {
			t.Fatal(err)
		}
		makeDB(t, filepath.Join(root, "y.db"), "CREATE TABLE t(v)", "INSERT INTO t VALUES ('inside')")
		secret := filepath.Join(base, "secret")
		if err := os.WriteFile(secret, []byte("outside"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(secret, filepath.Join(root, "y.db"+suffix)); err != nil {
			t.Fatal(err)
		}
		_, err := readFile(context.Background(), filepath.Join(root, "y.db"), "")
		if errs.CodeOf(err) != errs.AccessDenied || !strings.Contains(err.Error(), "y.db"+suffix) {
			t.Errorf("%s leading outside: %v (%s), want ACCESS_DENIED naming it", suffix, err, errs.CodeOf(err))
		}
	}
}

// TestWALWithoutShm: a WAL database copied with its -wal and without its
// -shm (as a backup or a crash leaves it) is read with the rows of the
// -wal, and no read creates -shm or any other file, or changes a byte or
// an mtime of the directory.
func TestWALWithoutShm(t *testing.T) {
	src := t.TempDir()
	path := filepath.Join(src, "w.db")
	w, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	for _, s := range []string{"PRAGMA wal_autocheckpoint=0", "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT)",
		"PRAGMA wal_checkpoint(TRUNCATE)", "INSERT INTO t(a) VALUES ('one'), ('two'), ('three')"} {
		if _, err := w.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	dst := t.TempDir()
	for _, n := range []string{"w.db", "w.db-wal"} {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copied := filepath.Join(dst, "w.db")
	before := snapshot(t, dst)
	time.Sleep(10 * time.Millisecond) // an mtime change would show
	cases := []struct{ sel, want string }{
		{"", "t (3 rows)"},
		{":t:3", "id: 3\na: three"},
		{":t?order=id:desc&limit=1", "id: 3\na: three"},
		{"?q=SELECT group_concat(a) FROM t", "one,two,three"},
		{"?q=PRAGMA page_count", "page_count: "},
	}
	for range 2 {
		for _, c := range cases {
			res, err := readFile(context.Background(), copied, c.sel)
			if err != nil || !strings.Contains(dump(res), c.want) {
				t.Errorf("%q: %v %v, want %q (the rows are in the -wal)", c.sel, res, err, c.want)
			}
		}
	}
	checkUnchanged(t, dst, before, "reading a WAL database without -shm")
}

// TestNoSettingChanges: a query cannot change a setting, of SQLite's
// process or of its own connection: every PRAGMA that sets something, a
// transaction and the functions that load code are refused with an error
// that says what runs, and later reads, and SQLite's process-wide
// settings, are as before.
func TestNoSettingChanges(t *testing.T) {
	_, path := fixtureDB(t)
	refused := []string{
		"PRAGMA hard_heap_limit=1",
		"PRAGMA hard_heap_limit = 1",
		"PRAGMA soft_heap_limit=1",
		"PRAGMA temp_store_directory='/tmp'",
		"PRAGMA temp_store_directory=''",
		"PRAGMA threads=4",
		"PRAGMA cache_size=1",
		"PRAGMA mmap_size=1000000",
		"PRAGMA query_only=0",
		"PRAGMA locking_mode=NORMAL",
		"PRAGMA journal_mode=DELETE",
		"PRAGMA writable_schema=1",
		"PRAGMA case_sensitive_like=1",
		"PRAGMA main.user_version=3",
		"PRAGMA optimize",
		"PRAGMA shrink_memory",
		"PRAGMA wal_checkpoint",
		"PRAGMA hard_heap_limit",
		"PRAGMA journal_mode",
		"SELECT fts3_tokenizer('simple')",
		"SELECT load_extension('/nonexistent')",
		"BEGIN",
		"SAVEPOINT s",
		"ANALYZE",
	}
	ctx := context.Background()
	for _, q := range refused {
		_, err := readFile(ctx, path, "?q="+q)
		if errs.CodeOf(err) != errs.InvalidParam || !strings.Contains(err.Error(), "only statements that read are run: SELECT, WITH, VALUES, EXPLAIN, and PRAGMAs that report") {
			t.Errorf("%s: %v (%s), want INVALID_PARAM saying what runs", q, err, errs.CodeOf(err))
		}
		res, err := readFile(ctx, path, ":users?limit=1")
		if err != nil || !strings.Contains(dump(res), "alice") {
			t.Fatalf("a read after %s: %v %v", q, res, err)
		}
	}
	for q, want := range map[string]string{
		"PRAGMA hard_heap_limit=1":              "PRAGMA hard_heap_limit = 1 is refused",
		"SELECT load_extension('/nonexistent')": "load_extension() is refused",
		"SELECT * FROM pragma_threads":          "PRAGMA threads is refused",
	} {
		if _, err := readFile(ctx, path, "?q="+q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", q, err, want)
		}
	}
	// the table-valued forms of the process-wide settings take no value
	for _, q := range []string{"SELECT * FROM pragma_hard_heap_limit(1)", "SELECT * FROM pragma_soft_heap_limit(1)", "SELECT * FROM pragma_cache_size(1)"} {
		if _, err := readFile(ctx, path, "?q="+q); errs.CodeOf(err) != errs.InvalidParam {
			t.Errorf("%s: %v, want INVALID_PARAM", q, err)
		}
	}
	// what reads still runs
	for q, want := range map[string]string{
		"PRAGMA user_version":                         "user_version: 0\n",
		"PRAGMA table_info(users)":                    "cid: 1\nname: name\ntype: TEXT\n",
		"PRAGMA main.table_xinfo(users)":              "hidden: 0\n",
		"SELECT name FROM pragma_table_info('notes')": "name: body\n",
		"PRAGMA index_list(codes)":                    "sqlite_autoindex_codes_1",
		"PRAGMA integrity_check":                      "integrity_check: ok\n",
		"PRAGMA compile_options":                      "THREADSAFE=1",
		"EXPLAIN QUERY PLAN SELECT * FROM users":      "SCAN users",
		"WITH RECURSIVE c(x) AS (VALUES(1) UNION ALL SELECT x+1 FROM c WHERE x < 3) SELECT sum(x) FROM c": "sum(x): 6\n",
	} {
		res, err := readFile(ctx, path, "?q="+q)
		if err != nil || !strings.Contains(dump(res), want) {
			t.Errorf("%s: %v %v, want %q", q, res, err, want)
		}
	}
	// SQLite's process-wide settings are untouched
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, p := range []string{"hard_heap_limit", "soft_heap_limit"} {
		var n int64
		if err := db.QueryRow("PRAGMA " + p).Scan(&n); err != nil || n != 0 {
			t.Errorf("PRAGMA %s of the process: %d %v, want 0", p, n, err)
		}
	}
	var dir sql.NullString
	if err := db.QueryRow("PRAGMA temp_store_directory").Scan(&dir); err != nil && err != sql.ErrNoRows || dir.String != "" {
		t.Errorf("temp_store_directory of the process: %q %v, want none", dir.String, err)
	}
}

// TestTempStorage: a query that sorts an endless recursive query, directly
// or through a view that a schema read opens, stops with TOO_LARGE at the
// temporary storage cap, and writes no temporary file, in the tree or in
// TMPDIR.
func TestTempStorage(t *testing.T) {
	defer func(n int64) { maxTempBytes = n }(maxTempBytes)
	maxTempBytes = 4 << 20
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("SQLITE_TMPDIR", tmp)
	dir := t.TempDir()
	path := filepath.Join(dir, "v.db")
	endless := "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, printf('%030d', x) AS pad FROM c ORDER BY x DESC"
	makeDB(t, path, "CREATE TABLE t(a)", "CREATE VIEW v AS "+endless)
	before := snapshot(t, dir)
	for _, sel := range []string{":v", ":v?limit=1", "?q=SELECT * FROM v LIMIT 1", "?q=" + endless, "?q=SELECT count(DISTINCT x) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c)"} {
		_, err := readFile(context.Background(), path, sel)
		if errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "temporary storage") || !strings.Contains(err.Error(), narrowHint) {
			t.Errorf("%s: %v (%s), want TOO_LARGE about temporary storage", sel, err, errs.CodeOf(err))
		}
	}
	checkUnchanged(t, dir, before, "sorting an endless query")
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("temporary files written to TMPDIR: %v", entries)
	}
}

// TestCancel: a canceled read returns CANCELED, whatever it was doing:
// computing, sorting into temporary storage, waiting on a lock held by a
// writer, or copying a database into memory.
func TestCancel(t *testing.T) {
	_, path := fixtureDB(t)
	locked := filepath.Join(t.TempDir(), "locked.db")
	makeDB(t, locked, "CREATE TABLE t(a)")
	w, err := sql.Open("sqlite3", "file:"+locked)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	if _, err := w.Exec("BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer w.Exec("ROLLBACK")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		read func(ctx context.Context) error
	}{
		{"computing", func(ctx context.Context) error {
			_, err := readFile(ctx, path, "?q=WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
			return err
		}},
		{"sorting", func(ctx context.Context) error {
			_, err := readFile(ctx, path, "?q=WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c ORDER BY x DESC")
			return err
		}},
		{"waiting on a lock", func(ctx context.Context) error {
			_, err := readFile(ctx, locked, "")
			return err
		}},
		{"copying into memory", func(ctx context.Context) error {
			// an endless stream that, like an archive member's, fails
			// once ctx is done
			r, pw := io.Pipe()
			go func() {
				pw.Write(data[:headerLen])
				for ctx.Err() == nil {
					pw.Write(make([]byte, 4096))
				}
				pw.CloseWithError(ctx.Err())
			}()
			_, err := ReadReader(ctx, "slow.db", r, -1, "", Options{MaxInMemory: -1})
			return err
		}},
	}
	for _, c := range cases {
		ctx, cancel := context.WithCancel(context.Background())
		const after = 50 * time.Millisecond
		start := time.Now()
		time.AfterFunc(after, cancel)
		err := c.read(ctx)
		t.Logf("%s: returned %v after the cancel", c.name, time.Since(start)-after)
		if errs.CodeOf(err) != errs.Canceled {
			t.Errorf("%s: %v (%s), want CANCELED", c.name, err, errs.CodeOf(err))
		}
		cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := readFile(ctx, path, ""); errs.CodeOf(err) != errs.Canceled {
		t.Errorf("a read with a canceled context: %v, want CANCELED", err)
	}
}

// TestInMemoryCap: a database copied into memory stops at the cap with
// TOO_LARGE saying how big it is and what the cap is, before reading when
// its size is known and once past the cap when it is not.
func TestInMemoryCap(t *testing.T) {
	_, path := fixtureDB(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	small := int64(len(data) - 1)
	_, err = ReadReader(context.Background(), "a.zip:app.db", strings.NewReader(string(data)), int64(len(data)), "", Options{MaxInMemory: small})
	if errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "'a.zip:app.db' is ") || !strings.Contains(err.Error(), "over") {
		t.Errorf("known size over the cap: %v", err)
	}
	_, err = ReadReader(context.Background(), "a.zip:app.db", strings.NewReader(string(data)), -1, "", Options{MaxInMemory: small})
	if errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("unknown size over the cap: %v", err)
	}
	_, err = ReadReader(context.Background(), "a.zip:app.db", strings.NewReader(string(data)), 10, "", Options{MaxInMemory: small})
	if errs.CodeOf(err) != errs.TooLarge {
		t.Errorf("a size that lies: %v", err)
	}
	res, err := ReadReader(context.Background(), "a.zip:app.db", strings.NewReader(string(data)), 10, ":users:2", Options{MaxInMemory: int64(len(data))})
	if err != nil || !strings.Contains(dump(res), "name: bob") {
		t.Errorf("at the cap: %v %v", res, err)
	}
}

// peakEnv names the database and selector that TestPeakHelper reads.
const peakEnv = "SCOUT_SQLITE_PEAK"

// TestPeakHelper is run by TestPeakMemory in a process of its own: it
// reads the database and selector of SCOUT_SQLITE_PEAK ("path\tselector",
// or "path\tselector\tstream" to read it as an archive member) and prints
// the process's peak resident size.
func TestPeakHelper(t *testing.T) {
	spec := os.Getenv(peakEnv)
	if spec == "" {
		t.Skip("run by TestPeakMemory")
	}
	parts := strings.Split(spec, "\t")
	var res *Result
	var err error
	if len(parts) == 3 {
		f, ferr := os.Open(parts[0])
		if ferr != nil {
			t.Fatal(ferr)
		}
		defer f.Close()
		res, err = ReadReader(context.Background(), "a.zip:big.db", f, -1, parts[1], Options{})
	} else {
		res, err = readFile(context.Background(), parts[0], parts[1])
	}
	// VmHWM, unlike getrusage's maxrss, starts afresh at exec.
	status, ferr := os.ReadFile("/proc/self/status")
	if ferr != nil {
		t.Skip("no /proc/self/status")
	}
	var peak int64
	for _, l := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &peak)
		}
	}
	n := 0
	if res != nil {
		n = len(dump(res))
	}
	fmt.Printf("peak=%d text=%d code=%s err=%v\n", peak<<10, n, errs.CodeOf(err), err)
}

// TestPeakMemory reads hostile databases, each in a process of its own,
// and checks the peak resident size stays under 256 MB: a row of many
// columns of large values (each value alone is under MaxValueBytes), read
// by every view and by queries, a query and a view computing large values,
// a database streamed into memory as an archive member is, and a view that
// sorts an endless query.
func TestPeakMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 130 MB of databases")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory inflates resident sizes")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc/self/status")
	}
	dir := t.TempDir()
	wide := filepath.Join(dir, "wide.db")
	cols := make([]string, 16)
	vals := make([]string, 16)
	for i := range cols {
		cols[i] = fmt.Sprintf("c%d TEXT", i)
		vals[i] = "printf('%.*c', 4194304, 'x')"
	}
	joined := make([]string, 8)
	for i := range joined {
		joined[i] = fmt.Sprintf("c%d || c%d AS j%d", 2*i, 2*i+1, i)
	}
	makeDB(t, wide, "CREATE TABLE w(id INTEGER PRIMARY KEY, "+strings.Join(cols, ", ")+")",
		"INSERT INTO w VALUES (1, "+strings.Join(vals, ", ")+")",
		"CREATE VIEW v AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, printf('%030d', x) AS pad FROM c ORDER BY x DESC",
		"CREATE VIEW j AS SELECT "+strings.Join(joined, ", ")+" FROM w",
		"CREATE VIEW j2 AS SELECT j0 || j1 || j2 || j3 AS big FROM j")
	blob := filepath.Join(dir, "blob.db")
	makeDB(t, blob, "PRAGMA page_size=65536", "CREATE TABLE b(id INTEGER PRIMARY KEY, x)", "INSERT INTO b VALUES (1, zeroblob(60000000)), (2, 'small')")
	// Read whole, the row of 16 values of 4 MiB would take 64 MB in SQLite
	// and 64 MB more in Go: its reads must stay well under that.
	const row, all = 48 << 20, 256 << 20
	cases := []struct {
		spec, code string
		max        int64
	}{
		{wide + "\t", "", row},
		{wide + "\t:w", "", row},
		{wide + "\t:w:1", "", row},
		{wide + "\t:w?limit=500", "", row},
		{wide + "\t?q=SELECT * FROM w", "", row},
		{wide + "\t?q=SELECT c0, c0, c0, c0, c0, c0, c0, c0, c1, c1, c1, c1, c1, c1, c1, c1 FROM w", "", row},
		{wide + "\t?q=SELECT c0 || c1 || c2 || c3 || c4 || c5 || c6 || c7 || c8 FROM w", string(errs.TooLarge), all},
		{wide + "\t:v", string(errs.TooLarge), all},
		{wide + "\t:j", "", all},
		{wide + "\t?q=SELECT * FROM j", "", all},
		{wide + "\t:j2", string(errs.TooLarge), all},
		{blob + "\t:b:2\tstream", "", all},
	}
	for _, c := range cases {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPeakHelper$", "-test.v")
		cmd.Env = append(os.Environ(), peakEnv+"="+c.spec)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", c.spec, err, out)
			continue
		}
		i := strings.Index(string(out), "peak=")
		if i < 0 {
			t.Errorf("%s: no peak in\n%s", c.spec, out)
			continue
		}
		var peak, text int64
		var code string
		fmt.Sscanf(string(out[i:]), "peak=%d text=%d code=%s", &peak, &text, &code)
		code = strings.TrimSuffix(code, "err=<nil>")
		t.Logf("%-90s peak %4d MB, text %d bytes, %s", filepath.Base(c.spec), peak>>20, text, code)
		if code != c.code {
			t.Errorf("%s: code %q, want %q", c.spec, code, c.code)
		}
		if peak > c.max {
			t.Errorf("%s: peak resident size %d MB, over %d MB", c.spec, peak>>20, c.max>>20)
		}
	}
}

// TestValueOverShare: a text over its column's share of MaxRowBytes is
// shown as its size in the table views and in a query, and the row view
// shows its head with the hint to read on, as for any long value.
func TestValueOverShare(t *testing.T) {
	path := filepath.Join(t.TempDir(), "share.db")
	cols := []string{"id INTEGER PRIMARY KEY", "body TEXT"}
	for i := range 30 {
		cols = append(cols, fmt.Sprintf("c%d", i))
	}
	makeDB(t, path, "CREATE TABLE r("+strings.Join(cols, ", ")+")",
		"INSERT INTO r(id, body, c0) VALUES (1, 'é' || printf('%.*c', 1000000, 'x'), 'small')")
	if share(len(cols)) >= 1000002 {
		t.Fatalf("the value is not over its share (%d bytes)", share(len(cols)))
	}
	ctx := context.Background()
	for _, sel := range []string{":r", ":r?limit=5", "?q=SELECT * FROM r"} {
		res, err := readFile(ctx, path, sel)
		if err != nil || !strings.Contains(dump(res), "body: <TEXT 976.6KB>") || !strings.Contains(dump(res), "c0: small") {
			t.Errorf("%s: %v\n%v", sel, err, res)
		}
	}
	res, err := readFile(ctx, path, ":r:1")
	if err != nil {
		t.Fatal(err)
	}
	want := "body: é" + strings.Repeat("x", MaxValueChars-1) + "\nc0: small\n"
	assert.Contains(t, dump(res), want, "row view")
	assert.Equal(t, Cut{Rest: 983617, Next: "?q=SELECT substr(\"body\", 16385, 16384) FROM \"r\" WHERE \"id\" = 1"}, res.Cuts[1], "row view: the long value's cut")
}

// TestSymlinkedWAL: a database read through a symlink is read with the
// -wal next to the file the link leads to, where SQLite keeps it, through
// a chain of links and from another directory; the rows committed to the
// -wal were missing, the read showing the older rows without a word.
func TestSymlinkedWAL(t *testing.T) {
	src := t.TempDir()
	w, err := sql.Open("sqlite3", "file:"+filepath.Join(src, "w.db")+"?_journal_mode=WAL")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	for _, s := range []string{"PRAGMA wal_autocheckpoint=0", "CREATE TABLE t(a TEXT)", "INSERT INTO t VALUES ('main')",
		"PRAGMA wal_checkpoint(TRUNCATE)", "INSERT INTO t VALUES ('wal')"} {
		if _, err := w.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "nested"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"w.db", "w.db-wal"} {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "data", n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link.db": "data/w.db", "chain.db": "link.db", "nested/up.db": "../data/w.db"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	fsys, release, err := fsx.OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	data := filepath.Join(root, "data")
	before := snapshot(t, data)
	for _, name := range []string{"data/w.db", "link.db", "chain.db", "nested/up.db"} {
		res, err := ReadFS(context.Background(), fsys, name, "?q=SELECT group_concat(a) FROM t", Options{})
		if err != nil || !strings.Contains(dump(res), "main,wal") {
			t.Errorf("%s: %v %v, want the row of the -wal too", name, dump(res), err)
		}
	}
	checkUnchanged(t, data, before, "reading a WAL database through symlinks")
}

// TestRowOfManyLongTexts: the row view of a row of 1,999 texts each over
// its column's share (9,000 characters, 18 MB in all) shows every text's
// head, in a few queries: a query for each head and each length read the
// row's overflow pages from the start, some 4,000 passes over 18 MB (a row
// of 1,000 texts of 100 KB ran past the 30 s deadline). The read must end
// within a deadline far below what those took.
func TestRowOfManyLongTexts(t *testing.T) {
	defer func(d time.Duration) { queryTimeout = d }(queryTimeout)
	path := filepath.Join(t.TempDir(), "wide.db")
	const n, size = 1999, 9000
	cols, vals := []string{"id INTEGER PRIMARY KEY"}, []string{"1"}
	for i := range n {
		cols = append(cols, fmt.Sprintf("c%d TEXT", i))
		vals = append(vals, fmt.Sprintf("printf('%%.*c', %d, '%c')", size, 'a'+i%26))
	}
	makeDB(t, path, "CREATE TABLE w("+strings.Join(cols, ", ")+")", "INSERT INTO w VALUES ("+strings.Join(vals, ", ")+")")
	if share(n+1) >= size {
		t.Fatalf("the values are not over their share (%d bytes)", share(n+1))
	}
	queryTimeout = 10 * time.Second
	start := time.Now()
	res, err := readFile(context.Background(), path, ":w:1")
	took := time.Since(start)
	require.NoError(t, err)
	require.Len(t, res.Rows, 1)
	for i, v := range res.Rows[0][1:] {
		if s, ok := v.(string); !ok || len(s) != size || s[0] != byte('a'+i%26) {
			t.Fatalf("column c%d: %.20q (%T), want %d characters %c", i, v, v, size, 'a'+i%26)
		}
	}
	t.Logf("read in %v", took)
}

// TestHugeCreateStatement: a table whose CREATE statement is over
// MaxValueBytes (a 17 MB comment in it), which SQLite refuses to load, is
// listed, its rows read by key, page and query, and its schema view is a
// TOO_LARGE error that names the statement and how to read the rows. Every
// view of the table failed with the error of a large value, whose hint
// (leave a column out) did not apply.
func TestHugeCreateStatement(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.db")
	makeDB(t, path, "CREATE TABLE t(a /*"+strings.Repeat("x", 17<<20)+"*/, b)", "INSERT INTO t VALUES (1, 2)")
	ctx := context.Background()
	for sel, want := range map[string]string{"": "t (1 rows)\n", ":t:1": "a: 1\nb: 2\n", ":t?limit=5": "a: 1\nb: 2\n", "?q=SELECT * FROM t": "a: 1\nb: 2\n"} {
		res, err := readFile(ctx, path, sel)
		if assert.NoError(t, err, sel) {
			assert.Equal(t, want, dump(res), sel)
		}
	}
	_, err := readFile(ctx, path, ":t")
	assert.Equal(t, errs.TooLarge, errs.CodeOf(err), "%v", err)
	assert.ErrorContains(t, err, "SQLite table 't' is created by a statement of 17.0MB, over Scout's 16 MiB cap for a value, so its schema is not shown; append :t?limit=5 to the database path to read its rows")
}
