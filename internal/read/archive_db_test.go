//go:build cgo && unix

package read

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	_ "github.com/mattn/go-sqlite3"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/sqlite"
	"github.com/scoutkit/scout/internal/testfs"
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
	fsys := fstest.MapFS{"a.zip": {Data: testfs.Zip(testfs.Member{Name: "data.db", Body: string(raw)})}}
	tests := []struct {
		path   string
		check  func(*sqlite.Result) bool
		reason string
	}{
		{"a.zip:data.db", func(r *sqlite.Result) bool {
			return len(r.Tables) == 1 && r.Tables[0].Name == "users" && r.Tables[0].Count.N == 2
		}, "table list"},
		{"a.zip:data.db:users", func(r *sqlite.Result) bool { return r.Table == "users" && len(r.Schema) == 2 && len(r.Rows) == 2 }, "schema and samples"},
		{"a.zip:data.db:users:2", func(r *sqlite.Result) bool { return r.Key == "2" && len(r.Rows) == 1 && r.Rows[0][1] == "bob" }, "row by key"},
	}
	for _, tt := range tests {
		res, err := Run(context.Background(), &Config{FS: fsys}, tt.path)
		if err != nil {
			t.Fatalf("%s: %v (%s)", tt.path, err, tt.reason)
		}
		if res.Kind != KindSQLite || res.Archive != "a.zip" || !tt.check(res.SQLite) {
			t.Errorf("%s: kind %v archive %q view %+v (%s)", tt.path, res.Kind, res.Archive, res.SQLite, tt.reason)
		}
	}
}

// TestArchivedDatabaseOverCap: a database inside a zip that is larger than
// the cap on databases read into memory fails with TOO_LARGE saying its
// size and the cap, before it is decompressed.
func TestArchivedDatabaseOverCap(t *testing.T) {
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	w, err := zw.Create("big.db")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(sqlite.Magic))
	zero := make([]byte, 1<<20)
	for range 140 {
		w.Write(zero)
	}
	zw.Close()
	fsys := fstest.MapFS{"a.zip": {Data: zb.Bytes()}}
	_, err = Run(context.Background(), &Config{FS: fsys}, "a.zip:big.db")
	if errs.CodeOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "'a.zip:big.db' is 140.0MB, over 128.0MB") {
		t.Errorf("a 140 MB database in a %d KB zip: %v (%s), want TOO_LARGE with its size and the cap", zb.Len()>>10, err, errs.CodeOf(err))
	}
}

// TestDatabaseSwapRace: while another goroutine swaps a database, and a
// zip holding one, for symlinks to their like outside the root and back,
// no read returns a row from outside.
func TestDatabaseSwapRace(t *testing.T) {
	base := t.TempDir()
	root, outside, keep := filepath.Join(base, "root"), filepath.Join(base, "outside"), filepath.Join(base, "keep")
	for _, d := range []string{root, outside, keep} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for dir, v := range map[string]string{keep: "inside", outside: "outside"} {
		raw := testDB(t, v)
		if err := os.WriteFile(filepath.Join(dir, "x.db"), raw, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a.zip"), testfs.Zip(testfs.Member{Name: "data.db", Body: string(raw)}), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"x.db", "a.zip"} {
		if err := os.Link(filepath.Join(keep, n), filepath.Join(root, n)); err != nil {
			t.Fatal(err)
		}
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
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			n := []string{"x.db", "a.zip"}[i%2]
			os.Remove(tmp)
			os.Symlink(filepath.Join(outside, n), tmp)
			os.Rename(tmp, filepath.Join(root, n))
			os.Link(filepath.Join(keep, n), tmp)
			os.Rename(tmp, filepath.Join(root, n))
		}
	}()
	read := map[string]int{}
	for i := range 400 {
		p := []string{"x.db?q=SELECT v FROM t", "a.zip:data.db?q=SELECT v FROM t"}[i%2]
		res, err := Run(context.Background(), &Config{FS: fsys}, p)
		if err == nil && fmt.Sprint(res.SQLite.Rows) == "[[outside]]" {
			close(stop)
			<-done
			t.Fatalf("%s returned a row from outside the root: %v", p, res.SQLite.Rows)
		}
		if err == nil && fmt.Sprint(res.SQLite.Rows) == "[[inside]]" {
			read[p]++
		}
	}
	close(stop)
	<-done
	t.Logf("reads that saw the database inside: %v", read)
	if len(read) < 2 {
		t.Errorf("some path was never read (%v): the test is not meaningful", read)
	}
}

// testDB returns a database with a table t holding the row v.
func testDB(t *testing.T, v string) []byte {
	dbPath := filepath.Join(t.TempDir(), "t.db")
	db, err := sql.Open("sqlite3", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE TABLE t(v)", "INSERT INTO t VALUES ('" + v + "')"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	raw, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
