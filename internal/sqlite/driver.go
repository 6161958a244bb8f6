//go:build cgo

package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/scoutkit/scout/internal/errs"
)

// open connects to dsn, loads data into it when data is not nil, disables
// ATTACH and parses the schema, so that a broken database fails here.
func open(ctx context.Context, dsn string, data []byte) (*db, error) {
	pool, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, dbError(err)
	}
	pool.SetMaxOpenConns(1)
	conn, err := pool.Conn(ctx)
	if err != nil {
		pool.Close()
		return nil, openError(err)
	}
	d := &db{pool: pool, conn: conn}
	err = conn.Raw(func(dc any) error {
		c := dc.(*sqlite3.SQLiteConn)
		if data != nil {
			if err := c.Deserialize(data, "main"); err != nil {
				return err
			}
		}
		c.SetLimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
		// A value is held in memory whole when a row is read: bound it (the
		// default, 1e9 bytes, let q=SELECT zeroblob(999999999) take 3 GB).
		c.SetLimit(sqlite3.SQLITE_LIMIT_LENGTH, MaxValueBytes)
		return nil
	})
	if err == nil {
		var n int
		err = conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n)
	}
	if err != nil {
		d.close()
		return nil, openError(err)
	}
	return d, nil
}

// openError codes an error met while opening, before any statement of
// the caller's: a write SQLite wanted to make then is the rollback of a
// hot journal.
func openError(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && se.Code == sqlite3.ErrReadonly {
		return errs.Wrap(errs.Unsupported, err, "Cannot read SQLite database: an interrupted write left a hot journal that only a writer can roll back, and Scout only reads. Open the database once with sqlite3 to recover it (%v)", err)
	}
	return dbError(err)
}

// statement is what SQLite says about a statement before it runs.
type statement struct {
	cols    []string // result columns, when the statement could be wrapped
	convert bool     // a column's declared type makes the driver convert values
}

// inspect prepares q without running it and refuses it unless SQLite
// reports it read-only and it takes exactly nargs parameters. When q is a
// SELECT, it also finds its columns through "SELECT * FROM (q) LIMIT 0" and
// whether any is declared DATE, DATETIME, TIMESTAMP or BOOLEAN, which the
// driver would turn into time.Time or bool, unless typed is false.
func (d *db) inspect(q string, args []any, typed bool) (statement, error) {
	var st statement
	err := d.conn.Raw(func(dc any) error {
		c := dc.(*sqlite3.SQLiteConn)
		s, err := c.Prepare(q)
		if err != nil {
			return err
		}
		ss := s.(*sqlite3.SQLiteStmt)
		ro, nin := ss.Readonly(), ss.NumInput()
		s.Close()
		if !ro {
			return errs.New(errs.InvalidParam, "Scout opens databases read-only; only statements that read (SELECT, WITH, read-only PRAGMA, EXPLAIN) are run")
		}
		if nin != len(args) {
			return errs.New(errs.InvalidParam, "Bound parameters ('?', ':name', '@name', '$name') are not supported; write the values into the query")
		}
		if !typed || !selectLike(q) {
			return nil
		}
		vals := make([]driver.Value, len(args))
		for i, a := range args {
			vals[i] = a
		}
		r, err := c.Query("SELECT * FROM (\n"+q+"\n) LIMIT 0", vals)
		if err != nil {
			return nil // not wrappable: run as written
		}
		defer r.Close()
		st.cols = r.Columns()
		for _, t := range r.(*sqlite3.SQLiteRows).DeclTypes() {
			switch t {
			case "date", "datetime", "timestamp", "boolean":
				st.convert = true
			}
		}
		return nil
	})
	return st, err
}

// driverError maps a SQLite error to a code and a message.
func driverError(err error) (errs.Code, string, bool) {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return "", "", false
	}
	if strings.Contains(err.Error(), "too many attached databases") {
		return errs.InvalidParam, "ATTACH is refused: Scout reads only the database named in the path; read another database by its own path", true
	}
	if strings.Contains(err.Error(), "too many columns") {
		return errs.TooLarge, fmt.Sprintf("Cannot read SQLite database: %v; a table has more columns than SQLite allows (2,000)", err), true
	}
	switch se.Code {
	case sqlite3.ErrNotADB, sqlite3.ErrCorrupt:
		return errs.Unsupported, fmt.Sprintf("Cannot read SQLite database: %v (the file may be truncated, corrupt or encrypted)", err), true
	case sqlite3.ErrBusy, sqlite3.ErrLocked:
		return errs.Timeout, fmt.Sprintf("SQLite database is locked by another process (waited 3 s): %v", err), true
	case sqlite3.ErrInterrupt:
		return errs.Timeout, fmt.Sprintf("SQLite query stopped at its deadline (%v); %s", err, narrowHint), true
	case sqlite3.ErrReadonly, sqlite3.ErrAuth:
		return errs.InvalidParam, fmt.Sprintf("Scout opens databases read-only; statements that write are refused (%v)", err), true
	case sqlite3.ErrCantOpen, sqlite3.ErrPerm:
		return errs.Unsupported, fmt.Sprintf("Cannot open SQLite database: %v", err), true
	case sqlite3.ErrTooBig:
		return errs.TooLarge, fmt.Sprintf("SQLite: %v: a value is over Scout's %d MiB cap; leave that column out or select its length, e.g. ?q=SELECT id, length(body) FROM t", err, MaxValueBytes>>20), true
	case sqlite3.ErrNomem, sqlite3.ErrFull:
		return errs.TooLarge, fmt.Sprintf("SQLite: %v", err), true
	case sqlite3.ErrError, sqlite3.ErrRange, sqlite3.ErrMismatch, sqlite3.ErrConstraint:
		return errs.InvalidParam, fmt.Sprintf("SQLite error: %v", err), true
	}
	return errs.Internal, fmt.Sprintf("SQLite error: %v", err), true
}
