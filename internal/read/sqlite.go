package read

import (
	"context"

	"github.com/scoutkit/scout/internal/errs"
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
		if !ok || !sqlite.IsSQLiteFile(r.c.FS, name) {
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

// notDatabase returns the error of a missing path p that names a table
// or a query of a file with a database extension that is not a SQLite
// database ("notes.db:users" of a text file): such a file is read as a
// file, and what follows its name cannot be read from it. nil when p names
// no such file.
func (r *reader) notDatabase(p string) error {
	for _, cand := range sqlite.Candidates(p) {
		if cand.Selector == "" {
			continue
		}
		name, _, ok, err := r.locate(cand.DB)
		if err != nil || !ok || sqlite.IsSQLiteFile(r.c.FS, name) {
			continue
		}
		return notDatabaseErr(p, pathutil.Display(name))
	}
	return nil
}

// notDatabaseErr is the error of the read p of a table or a query of db,
// a file or archive member named like a database that is not one.
func notDatabaseErr(p, db string) error {
	e := errs.New(errs.Unsupported, "Cannot read '%s': '%s' is not a SQLite database (it does not start with the SQLite header), so it has no tables to read or query. Read '%s' to see the file as it is, e.g. as text.",
		errs.Echo(p), errs.Echo(db), errs.Echo(db))
	e.Path = db
	return e
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
