package read

import (
	"context"
	"io"

	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/sqlite"
)

// database reads p as a SQLite database with its selector ("app.db",
// "app.db:users", "app.db:users?limit=5", "app.db?q=SELECT 1") when some
// prefix of it with a database extension is a regular file that starts
// with the SQLite header. A ".db" file that is not SQLite is read as a file.
func (r *reader) database(ctx context.Context, p string) (*Result, bool, error) {
	return r.databaseVia(ctx, p, r.locate)
}

// databaseVia is database with the database file found by locate.
func (r *reader) databaseVia(ctx context.Context, p string, locate locator) (*Result, bool, error) {
	for _, cand := range sqlite.Candidates(p) {
		name, suffix, ok, err := locate(cand.DB)
		if err != nil {
			return nil, true, err
		}
		if !ok || !r.isSQLite(name) {
			continue
		}
		res, err := sqlite.ReadFS(ctx, r.c.FS, name, cand.Selector, sqlite.Options{})
		if err != nil {
			return nil, true, err
		}
		return sqliteResult(res, pathutil.Display(name)+cand.Selector, "", suffix), true, nil
	}
	return nil, false, nil
}

// isSQLite reports whether the regular file name starts with the SQLite
// header.
func (r *reader) isSQLite(name string) bool {
	f, err := r.c.FS.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(sqlite.Magic))
	if _, err := io.ReadFull(f, head); err != nil {
		return false
	}
	return sqlite.IsSQLite(head)
}

// sqliteResult is the result of a database read shown as path, inside
// the archive archive ("" for a file).
func sqliteResult(res *sqlite.Result, path, archive string, suffix *SuffixResolution) *Result {
	out := &Result{Kind: KindSQLite, Path: path, Archive: archive, SQLite: res, SuffixResolution: suffix}
	if n := res.TotalTables - len(res.Tables); n > 0 {
		out.Unlisted, out.Truncated = n, TruncLimit
	}
	return out
}
