// Package sqlite reads SQLite databases for Scout's read tool: the table
// list with row counts, a table's schema with sample rows, one row by key,
// a page of rows with order and where, or a read-only query of the caller's
// own, each as typed values (the format package renders them). Selectors
// are parsed by internal/selector.
//
// Nothing is ever written, and nothing but the database named is read.
// SQLite runs on a VFS of each read's own that opens no path: it reads the
// database, its -wal and its -journal through the files the caller's file
// system opened (in place for OS files, copied into memory otherwise), in
// EXCLUSIVE locking mode so that a WAL is read without shared memory, with
// temporary storage in memory under a cap. Every statement is checked by
// an authorizer that allows only reading (no ATTACH, no extension, no
// PRAGMA that sets anything), is prepared first and refused unless SQLite
// reports it read-only, and a where condition is validated before it is
// used. Values past a row's byte budget are shown as their size.
//
// A database that another process writes through its WAL while Scout
// reads it is read without the WAL's shared memory (writing it would be a
// write): if that process checkpoints meanwhile, the read may see some of
// the new rows or fail as corrupt; reading again gives a consistent view.
//
// The package needs cgo (github.com/mattn/go-sqlite3) on a Unix system;
// built otherwise, every read fails with an UNSUPPORTED error.
package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"io/fs"
	"strings"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/selector"
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

// IsSQLiteFile reports whether name is a regular file of fsys that starts
// with Magic.
func IsSQLiteFile(fsys fs.FS, name string) bool {
	head, err := readHead(fsys, name)
	return err == nil && IsSQLite(head)
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

// fileIndex numbers the files of a read as the VFS does.
type fileIndex int

const (
	mainFile    fileIndex = iota // the database
	walFile                      // its -wal
	journalFile                  // its -journal
)

// DefaultMaxInMemory is the default of Options.MaxInMemory.
const DefaultMaxInMemory = 128 << 20

// Options configures ReadFS and ReadReader.
type Options struct {
	// MaxInMemory caps the bytes of a database (with its -wal and
	// -journal) copied into memory: one that is not an OS file, or an
	// archive member. 0 means DefaultMaxInMemory (128 MiB); a negative
	// value means no cap.
	MaxInMemory int64
}

func (o Options) maxInMemory() int64 {
	if o.MaxInMemory == 0 {
		return DefaultMaxInMemory
	}
	return o.MaxInMemory
}

// ReadFS reads the database name in fsys with the selector selText. The database, its
// -wal and its -journal (next to the file a symlink leads to, as SQLite
// names them) are opened through fsys once, and SQLite reads
// those open files, never a path: a file swapped for a symlink after fsys
// checked it cannot lead the read elsewhere. When fsys gives OS files (the
// FS of fsx.OpenDir, os.DirFS) they are read in place, the -wal's
// committed content included, whatever their size; other files are copied
// into memory, up to opt.MaxInMemory. Nothing is written: no -shm, no
// journal, no temporary file. ctx, and at most 30 s, bound the read.
func ReadFS(ctx context.Context, fsys fs.FS, name, selText string, opt Options) (*Result, error) {
	sel, err := selector.ParseDB(selText)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	fl, err := newFiles(ctx, opt.maxInMemory())
	if err != nil {
		return nil, err
	}
	defer fl.release()
	f, err := fsys.Open(name)
	if err != nil {
		return nil, errs.Wrap(errs.CodeOf(err), err, "Cannot read SQLite database '%s': %v", errs.Echo(name), err)
	}
	defer f.Close()
	size, err := regularSize(f, name)
	if err != nil {
		return nil, err
	}
	head, err := readHeader(f)
	if err != nil {
		return nil, failure(ctx, nil, err)
	}
	if err := fl.add(ctx, mainFile, f, size, head, name); err != nil {
		return nil, failure(ctx, nil, err)
	}
	// SQLite keeps a database's -wal and -journal next to the file its
	// symlinks lead to: read through a link, the committed rows of the
	// -wal would be missed. (A link out of the tree failed the open.)
	base, err := pathutil.RealPath(fsys, name)
	if err != nil {
		return nil, failure(ctx, nil, err)
	}
	for _, side := range []struct {
		i      fileIndex
		suffix string
	}{{walFile, "-wal"}, {journalFile, "-journal"}} {
		if err := addSide(ctx, fl, fsys, base+side.suffix, side.i); err != nil {
			return nil, failure(ctx, nil, err)
		}
	}
	return readOpen(ctx, fl, name, sel)
}

// addSide gives fl the side file name (a -wal or -journal) when it exists.
func addSide(ctx context.Context, fl *files, fsys fs.FS, name string, i fileIndex) error {
	f, err := fsys.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return errs.Wrap(errs.CodeOf(err), err, "Cannot read SQLite database: its side file '%s' cannot be opened: %v", errs.Echo(name), err)
	}
	defer f.Close()
	size, err := regularSize(f, name)
	if err != nil {
		return err
	}
	return fl.add(ctx, i, f, size, nil, name)
}

// regularSize returns the size of the open file f, which must be a regular
// file.
func regularSize(f fs.File, name string) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, errs.Wrap(errs.CodeOf(err), err, "Cannot read SQLite database '%s': %v", errs.Echo(name), err)
	}
	if !st.Mode().IsRegular() {
		return 0, errs.New(errs.Unsupported, "Cannot read SQLite database '%s': not a regular file", errs.Echo(name))
	}
	return st.Size(), nil
}

// readHeader reads the database header from r and checks it.
func readHeader(r io.Reader) ([]byte, error) {
	head := make([]byte, headerLen)
	n, err := io.ReadFull(r, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	head = head[:n]
	if !IsSQLite(head) {
		return nil, errs.New(errs.Unsupported, "Not a SQLite database: the file does not start with the SQLite header (it may be encrypted or truncated)")
	}
	if len(head) < headerLen {
		return nil, errs.New(errs.Unsupported, "Cannot read SQLite database: it is truncated (%d bytes, less than its %d-byte header)", len(head), headerLen)
	}
	return head, nil
}

// ReadReader reads a database that r streams (an archive member, say),
// named name in messages, whose size is size bytes (-1 when unknown). It
// is copied into memory, up to opt.MaxInMemory: a larger one fails with
// TOO_LARGE before anything is read when size tells.
func ReadReader(ctx context.Context, name string, r io.Reader, size int64, selText string, opt Options) (*Result, error) {
	sel, err := selector.ParseDB(selText)
	if err != nil {
		return nil, err
	}
	max := opt.maxInMemory()
	if max > 0 && size > max {
		return nil, tooLarge(name, size, max)
	}
	ctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	fl, err := newFiles(ctx, max)
	if err != nil {
		return nil, err
	}
	defer fl.release()
	head, err := readHeader(r)
	if err != nil {
		return nil, failure(ctx, nil, err)
	}
	if err := fl.copy(ctx, mainFile, io.MultiReader(bytes.NewReader(head), r), size, name); err != nil {
		return nil, failure(ctx, nil, err)
	}
	return readOpen(ctx, fl, name, sel)
}

// tooLarge is the error for a database over the in-memory cap.
func tooLarge(name string, size, max int64) error {
	what := "is larger than"
	if size >= 0 {
		what = "is " + dirtree.FormatBytes(size) + ", over"
	}
	return errs.New(errs.TooLarge, "SQLite database '%s' %s %s, the limit for a database read into memory (one inside an archive, or not an OS file); extract it to a directory to read it in place", errs.Echo(name), what, dirtree.FormatBytes(max))
}

// readOpen opens the database of fl and reads sel from it.
func readOpen(ctx context.Context, fl *files, name string, sel selector.DB) (*Result, error) {
	d, err := open(ctx, fl, name)
	if err != nil {
		return nil, err
	}
	defer d.close()
	res, err := d.read(ctx, sel)
	if err != nil {
		return nil, failure(ctx, d, err)
	}
	return res, nil
}

// db is one connection, used for one read and then closed.
type db struct {
	pool    *sql.DB
	conn    *sql.Conn
	files   *files
	hasStat *bool // whether sqlite_stat1 exists; nil until asked
}

func (d *db) close() {
	if d.conn != nil {
		d.conn.Close()
	}
	d.pool.Close()
}

// narrowHint says how to avoid a query's deadline.
const narrowHint = "narrow the query (a WHERE, a LIMIT) so that it ends sooner"

// failure codes an error of a read on d (nil before the database is open)
// and says what it means for the caller: CANCELED or TIMEOUT once ctx is
// done, whatever SQLite reported.
func failure(ctx context.Context, d *db, err error) error {
	cause := ctx.Err()
	if cause == nil && errors.Is(err, context.Canceled) {
		// The caller's context, canceled a moment before ctx, which
		// derives from it, learns of it.
		cause = context.Canceled
	}
	switch cause {
	case context.Canceled:
		return errs.Wrap(errs.Canceled, err, "SQLite read canceled: %s", errs.Echo(err.Error()))
	case context.DeadlineExceeded:
		return errs.Wrap(errs.Timeout, err, "SQLite query stopped at its deadline; %s", narrowHint)
	}
	var coded *errs.Error
	if errors.As(err, &coded) {
		return err
	}
	if d != nil {
		if code, msg, ok := d.driverError(err); ok {
			return errs.Wrap(code, err, "%s", msg)
		}
	}
	return errs.Wrap(errs.Internal, err, "SQLite: %s", errs.Echo(err.Error()))
}
