// Package sqlite reads SQLite databases for Scout's read tool: the table
// list with row counts, a table's schema with sample rows, one row by key,
// a page of rows with order and where, or a read-only query of the caller's
// own, each rendered as pi does (ASCII tables 120 wide, 40 per column).
//
// Nothing is ever written. A database that is an OS file is opened in place
// with mode=ro and query_only (so SQLite itself refuses writes and its -wal
// is honoured); one inside a fake file system or an archive is copied into
// an in-memory database with sqlite3_deserialize. On both, every statement
// is prepared first and refused unless SQLite reports it read-only, ATTACH
// is disabled, and a where condition is validated before it is used.
//
// The package needs cgo (github.com/mattn/go-sqlite3); built without it,
// every read fails with an UNSUPPORTED error.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"io/fs"
	"net/url"
	"os"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// Magic is the first 16 bytes of every SQLite database file.
const Magic = "SQLite format 3\x00"

// IsSQLite reports whether head starts with Magic.
func IsSQLite(head []byte) bool { return len(head) >= len(Magic) && string(head[:len(Magic)]) == Magic }

var exts = []string{".sqlite3", ".sqlite", ".db3", ".db"}

// HasExt reports whether name ends in .sqlite, .sqlite3, .db or .db3, in
// any case.
func HasExt(name string) bool {
	for _, e := range exts {
		if len(name) >= len(e) && strings.EqualFold(name[len(name)-len(e):], e) {
			return true
		}
	}
	return false
}

// Split is one way to read a path as a database file and a selector.
type Split struct {
	DB       string // the database file, e.g. "data/app.db"
	Selector string // what followed it: "", ":t", ":t:5", ":t?limit=5", "?q=..."
}

// Candidates returns every split of p after a database extension that is
// followed by ':', '?' or the end of p, longest database path first. nil
// means p names no database.
func Candidates(p string) []Split {
	var out []Split
	for end := len(p); end > 0; end-- {
		if end < len(p) && p[end] != ':' && p[end] != '?' {
			continue
		}
		if HasExt(p[:end]) {
			out = append(out, Split{DB: p[:end], Selector: p[end:]})
		}
	}
	return out
}

// Resolve returns the first of Candidates(p) whose database path is a
// regular file in fsys that starts with Magic. ok is false when there is
// none; a ".db" file that is not SQLite is then read as a plain file. err
// is set only for a failure other than "does not exist".
func Resolve(fsys fs.FS, p string) (s Split, ok bool, err error) {
	for _, c := range Candidates(p) {
		head, err := readHead(fsys, c.DB)
		switch {
		case err == nil:
			if IsSQLite(head) {
				return c, true, nil
			}
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrInvalid), errors.Is(err, errNotRegular):
		default:
			return Split{}, false, err
		}
	}
	return Split{}, false, nil
}

var errNotRegular = errors.New("not a regular file")

func readHead(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errNotRegular
	}
	head := make([]byte, len(Magic))
	n, err := io.ReadFull(f, head)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return head[:n], err
}

// headerLen is the size of the database header at the start of the file.
const headerLen = 100

// DefaultMaxInMemory is the default of Options.MaxInMemory.
const DefaultMaxInMemory = 512 << 20

// Options configures ReadFS and ReadBytes.
type Options struct {
	// MaxInMemory caps the size of a database copied into memory. 0 means
	// DefaultMaxInMemory (512 MiB); a negative value means no cap.
	MaxInMemory int64
}

// ReadFile reads the database at osPath, a real file, opened in place
// read-only (mode=ro, query_only, busy timeout 3,000 ms), so that its -wal
// is honoured. A WAL database without a -wal file is opened with
// immutable=1 instead, because SQLite would otherwise create -wal and -shm
// beside it; with a -wal present, SQLite keeps its read marks in the
// existing -shm, the database and -wal are not touched. The caller must
// have confined osPath to its workspace. ctx, and at most 30 s, bound the
// read.
func ReadFile(ctx context.Context, osPath, selector string) (*Result, error) {
	sel, err := ParseSelector(selector)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(osPath)
	if err != nil {
		return nil, errs.Wrap(errs.CodeOf(err), err, "Cannot read SQLite database '%s': %v", osPath, err)
	}
	if !st.Mode().IsRegular() {
		return nil, errs.New(errs.Unsupported, "Cannot read SQLite database '%s': not a regular file", osPath)
	}
	dsn := "file:" + url.PathEscape(osPath) + "?mode=ro&_query_only=1&_busy_timeout=3000"
	if walWithoutLog(osPath) {
		dsn += "&immutable=1"
	}
	d, err := open(ctx, dsn, nil)
	if err != nil {
		return nil, err
	}
	defer d.close()
	return d.read(ctx, sel)
}

// walWithoutLog reports whether the database at path is in WAL mode and
// has no -wal file, so that it can be read as immutable.
func walWithoutLog(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 20)
	if _, err := io.ReadFull(f, head); err != nil || !IsSQLite(head) || head[18] != 2 {
		return false
	}
	_, err = os.Lstat(path + "-wal")
	return errors.Is(err, fs.ErrNotExist)
}

// ReadFS reads the database name in fsys by copying it into memory
// (uncheckpointed -wal content is not seen).
func ReadFS(ctx context.Context, fsys fs.FS, name, selector string, opt Options) (*Result, error) {
	sel, err := ParseSelector(selector)
	if err != nil {
		return nil, err
	}
	max := opt.MaxInMemory
	if max == 0 {
		max = DefaultMaxInMemory
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, errs.Wrap(errs.CodeOf(err), err, "Cannot read SQLite database '%s': %v", name, err)
	}
	defer f.Close()
	r := io.Reader(f)
	if max > 0 {
		r = io.LimitReader(f, max+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, errs.Wrap(errs.CodeOf(err), err, "Cannot read SQLite database '%s': %v", name, err)
	}
	if max > 0 && int64(len(data)) > max {
		return nil, errs.New(errs.TooLarge, "SQLite database '%s' is larger than %d MiB, the limit for a database that is not an OS file", name, max>>20)
	}
	return readBytes(ctx, data, sel)
}

// ReadBytes reads a database held in data (an archive member, say). data
// is not modified.
func ReadBytes(ctx context.Context, data []byte, selector string) (*Result, error) {
	sel, err := ParseSelector(selector)
	if err != nil {
		return nil, err
	}
	return readBytes(ctx, data, sel)
}

func readBytes(ctx context.Context, data []byte, sel Selector) (*Result, error) {
	if !IsSQLite(data) {
		return nil, errs.New(errs.Unsupported, "Not a SQLite database: the file does not start with the SQLite header (it may be encrypted or truncated)")
	}
	if len(data) < headerLen {
		return nil, errs.New(errs.Unsupported, "Cannot read SQLite database: it is truncated (%d bytes, less than its %d-byte header)", len(data), headerLen)
	}
	if data[18] == 2 || data[19] == 2 {
		// A WAL database cannot be deserialized as such; as a rollback
		// database its main file reads the same.
		data = append([]byte(nil), data...)
		data[18], data[19] = 1, 1
	}
	d, err := open(ctx, "file::memory:?_query_only=1", data)
	if err != nil {
		return nil, err
	}
	defer d.close()
	return d.read(ctx, sel)
}

// db is one connection, used for one read and then closed.
type db struct {
	pool    *sql.DB
	conn    *sql.Conn
	hasStat *bool // whether sqlite_stat1 exists; nil until asked
}

func (d *db) close() {
	d.conn.Close()
	d.pool.Close()
}

// narrowHint says how to avoid a query's deadline.
const narrowHint = "narrow the query (a WHERE, a LIMIT) so that it ends sooner"

// dbError codes a driver error and says what it means for the caller.
func dbError(err error) error {
	if err == nil {
		return nil
	}
	var coded *errs.Error
	if errors.As(err, &coded) {
		return err
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return errs.Wrap(errs.Timeout, err, "SQLite query stopped at its deadline (%v); %s", err, narrowHint)
	case errors.Is(err, context.Canceled):
		return errs.Wrap(errs.Canceled, err, "SQLite query stopped: %v", err)
	}
	if code, msg, ok := driverError(err); ok {
		return errs.Wrap(code, err, "%s", msg)
	}
	return errs.Wrap(errs.Internal, err, "SQLite: %v", err)
}
