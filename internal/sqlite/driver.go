//go:build cgo && unix

package sqlite

/*
#include <stdlib.h>
#include "vfs.h"
*/
import "C"

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	sqlite3 "github.com/mattn/go-sqlite3"
	"golang.org/x/sys/unix"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
)

// maxTempBytes bounds the temporary storage of one read (sorting, grouping,
// a recursive query's queue), which is held in memory: past it a query
// fails with TOO_LARGE. A variable so that tests can lower it.
var maxTempBytes int64 = 64 << 20

// vfsSeq numbers the VFS of each read.
var vfsSeq atomic.Uint64

// files are the files of one read, handed to SQLite through a VFS of its
// own: the database, its -wal and its -journal, each an open descriptor or
// a copy in C memory. SQLite opens nothing by name.
type files struct {
	c    *C.scout_vfs
	name string // the VFS's registered name
	// inMemory is how many bytes the copies in memory hold, max the most
	// they may (<= 0: no cap).
	inMemory, max int64
	stop          func() bool // ends the cancellation watch
	// mu keeps the watch from canceling a released VFS.
	mu       sync.Mutex
	released bool
}

// newFiles registers the VFS of one read. A done ctx makes its reads,
// locks and sleeps fail at once.
func newFiles(ctx context.Context, max int64) (*files, error) {
	name := "scout-" + strconv.FormatUint(vfsSeq.Add(1), 10)
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	c := C.scout_vfs_new(cname, C.sqlite3_int64(maxTempBytes))
	if c == nil {
		return nil, errs.New(errs.Internal, "SQLite: cannot register Scout's read-only VFS")
	}
	f := &files{c: c, name: name, max: max}
	f.stop = context.AfterFunc(ctx, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if !f.released {
			C.scout_vfs_cancel(c)
		}
	})
	return f, nil
}

// release unregisters the VFS; SQLite must have closed its files.
func (f *files) release() {
	f.stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.released = true
	C.scout_vfs_release(f.c)
}

// The VFS numbers the files of a read as fileIndex does.
var (
	_ = [1]int{}[mainFile-C.SCOUT_MAIN]
	_ = [1]int{}[walFile-C.SCOUT_WAL]
	_ = [1]int{}[journalFile-C.SCOUT_JOURNAL]
)

// add gives the VFS the open regular file file, named name, as its file i:
// the descriptor itself when file is an OS file, a copy in memory
// otherwise. head holds bytes already read from file, which come first.
func (f *files) add(ctx context.Context, i fileIndex, file fs.File, size int64, head []byte, name string) error {
	if sc, ok := file.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			fd := -1
			var dupErr error
			if err := raw.Control(func(s uintptr) { fd, dupErr = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0) }); err == nil {
				if dupErr != nil {
					return dupErr
				}
				C.scout_vfs_set_fd(f.c, C.int(i), C.int(fd))
				return nil
			}
		}
	}
	return f.copy(ctx, i, io.MultiReader(bytes.NewReader(head), file), size, name)
}

// copyChunk is how much copy reads at a time.
const copyChunk = 1 << 20

// copy reads r, named name, into C memory as the VFS's file i; size is
// what r is expected to hold (-1: unknown). The copies of one read hold at
// most f.max bytes in all.
func (f *files) copy(ctx context.Context, i fileIndex, r io.Reader, size int64, name string) error {
	left := int64(-1) // what the cap leaves, -1: no cap
	if f.max > 0 {
		left = f.max - f.inMemory
		if size > left {
			return tooLarge(name, size, f.max)
		}
	}
	capacity := max(size, 4096)
	if left >= 0 {
		capacity = min(capacity, left+1)
	}
	mem := C.malloc(C.size_t(capacity))
	if mem == nil {
		return errs.New(errs.TooLarge, "SQLite database '%s': cannot allocate %s", errs.Echo(name), dirtree.FormatBytes(capacity))
	}
	n := int64(0)
	for {
		if err := ctx.Err(); err != nil {
			C.free(mem)
			return err
		}
		if left >= 0 && n > left {
			C.free(mem)
			return tooLarge(name, -1, f.max)
		}
		if n == capacity {
			grown := capacity * 2
			if left >= 0 {
				grown = min(grown, left+1)
			}
			p := C.realloc(mem, C.size_t(grown))
			if p == nil {
				C.free(mem)
				return errs.New(errs.TooLarge, "SQLite database '%s': cannot allocate %s", errs.Echo(name), dirtree.FormatBytes(grown))
			}
			mem, capacity = p, grown
		}
		buf := unsafe.Slice((*byte)(unsafe.Add(mem, n)), min(capacity-n, copyChunk))
		m, err := r.Read(buf)
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			C.free(mem)
			return err
		}
	}
	if left >= 0 && n > left {
		C.free(mem)
		return tooLarge(name, -1, f.max)
	}
	f.inMemory += n
	C.scout_vfs_set_mem(f.c, C.int(i), (*C.uchar)(mem), C.sqlite3_int64(n))
	return nil
}

// tempFull reports whether a query was refused temporary storage.
func (f *files) tempFull() bool { return C.scout_vfs_temp_full(f.c) != 0 }

// open connects to the database of fl, named name, read-only: query_only,
// EXCLUSIVE locking (so that a WAL is read without shared memory), a busy
// timeout of 3,000 ms, ATTACH disabled, values capped at MaxValueBytes and
// every statement checked by the VFS's authorizer, which allows reading
// and nothing else. It parses the schema, so that a broken database fails
// here.
func open(ctx context.Context, fl *files, name string) (*db, error) {
	base := path.Base(name)
	if len(base) > 200 {
		base = base[:200]
	}
	dsn := "file:" + url.PathEscape(base) + "?vfs=" + fl.name + "&mode=ro&_query_only=1&_busy_timeout=3000&_locking_mode=EXCLUSIVE"
	pool, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, failure(ctx, nil, err)
	}
	pool.SetMaxOpenConns(1)
	d := &db{pool: pool, files: fl}
	d.conn, err = pool.Conn(ctx)
	if err == nil {
		err = d.conn.Raw(func(dc any) error {
			c := dc.(*sqlite3.SQLiteConn)
			c.SetLimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
			// A value is held in memory whole when a row is read: bound it
			// (the default, 1e9 bytes, let q=SELECT zeroblob(999999999)
			// take 3 GB).
			c.SetLimit(sqlite3.SQLITE_LIMIT_LENGTH, MaxValueBytes)
			return nil
		})
	}
	if err == nil && C.scout_vfs_guard(fl.c) != 0 {
		err = errs.New(errs.Internal, "SQLite: cannot install Scout's authorizer")
	}
	if err == nil {
		var n int
		err = d.conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n)
	}
	if err != nil {
		err = failure(ctx, d, openError(err))
		d.close()
		return nil, err
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
	return err
}

// readOnlyMsg says what a read runs.
const readOnlyMsg = "Scout opens databases read-only; only statements that read are run: SELECT, WITH, VALUES, EXPLAIN, and PRAGMAs that report a setting (PRAGMA user_version) or describe the schema (PRAGMA table_info(t), index_list(t), foreign_key_list(t), integrity_check)"

// attachMsg says why ATTACH fails.
const attachMsg = "ATTACH is refused: Scout reads only the database named in the path; read another database by its own path"

// The authorizer's action codes that refused messages tell apart.
const (
	authPragma   = 19
	authAttach   = 24
	authDetach   = 25
	authFunction = 31
)

// refusedWhy says why the authorizer last refused a statement, "" if it
// did not.
func (d *db) refusedWhy() string {
	var a1, a2 *C.char
	var has2 C.int
	switch C.scout_vfs_refused(d.files.c, &a1, &a2, &has2) {
	case 0:
		return ""
	case authFunction:
		return fmt.Sprintf("%s() is refused: it loads code or changes SQLite's state. %s", C.GoString(a2), readOnlyMsg)
	case authPragma:
		what := "PRAGMA " + C.GoString(a1)
		if has2 != 0 {
			what += " = " + C.GoString(a2)
		}
		return fmt.Sprintf("%s is refused. %s", what, readOnlyMsg)
	case authAttach, authDetach:
		return attachMsg
	}
	return readOnlyMsg
}

// statement is what SQLite says about a statement before it runs.
type statement struct {
	cols []string // its columns as a subquery, when it can be one
}

// inspect prepares q without running it and refuses it unless SQLite
// reports it read-only and it takes exactly len(args) parameters. When
// wrap is true and q is a SELECT, it also finds the columns q has as a
// subquery, through "SELECT * FROM (q) LIMIT 0".
func (d *db) inspect(q string, args []any, wrap bool) (statement, error) {
	var st statement
	C.scout_vfs_forget(d.files.c)
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
			return errs.New(errs.InvalidParam, "%s", readOnlyMsg)
		}
		if nin != len(args) {
			return errs.New(errs.InvalidParam, "Bound parameters ('?', ':name', '@name', '$name') are not supported; write the values into the query")
		}
		if !wrap || !selectLike(q) {
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
		return nil
	})
	return st, err
}

// driverError maps a SQLite error to a code and a message. SQLite's own
// text may quote the query, so it is cut as errs.Echo cuts an input.
func (d *db) driverError(err error) (errs.Code, string, bool) {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return "", "", false
	}
	text := err.Error()
	msg := errs.Echo(text)
	if strings.Contains(text, "too many attached databases") {
		return errs.InvalidParam, attachMsg, true
	}
	if why := d.refusedWhy(); why != "" && strings.Contains(text, "not authorized") {
		return errs.InvalidParam, why, true
	}
	if strings.Contains(text, "too many columns") {
		return errs.TooLarge, fmt.Sprintf("Cannot read SQLite database: %s; a table or a query result has more columns than SQLite allows (2,000): select fewer columns, e.g. ?q=SELECT id, name FROM t", msg), true
	}
	switch se.Code {
	case sqlite3.ErrNotADB, sqlite3.ErrCorrupt:
		return errs.Unsupported, fmt.Sprintf("Cannot read SQLite database: %s (the file may be truncated, corrupt or encrypted)", msg), true
	case sqlite3.ErrBusy, sqlite3.ErrLocked:
		return errs.Timeout, fmt.Sprintf("SQLite database is locked by another process (waited 3 s): %s", msg), true
	case sqlite3.ErrInterrupt:
		return errs.Timeout, fmt.Sprintf("SQLite query stopped at its deadline (%s); %s", msg, narrowHint), true
	case sqlite3.ErrAuth:
		return errs.InvalidParam, readOnlyMsg, true
	case sqlite3.ErrReadonly:
		return errs.InvalidParam, fmt.Sprintf("%s (%s)", readOnlyMsg, msg), true
	case sqlite3.ErrCantOpen, sqlite3.ErrPerm:
		return errs.Unsupported, fmt.Sprintf("Cannot open SQLite database: %s", msg), true
	case sqlite3.ErrTooBig:
		return errs.TooLarge, fmt.Sprintf("SQLite: %s: a value is over Scout's %d MiB cap; leave that column out or select its size in bytes, e.g. ?q=SELECT id, octet_length(body) FROM t", msg, MaxValueBytes>>20), true
	case sqlite3.ErrFull:
		if d.files.tempFull() {
			return errs.TooLarge, fmt.Sprintf("SQLite query needs more than %s of temporary storage (for sorting, grouping, DISTINCT or a recursive query), Scout's limit; %s", dirtree.FormatBytes(maxTempBytes), narrowHint), true
		}
		return errs.TooLarge, "SQLite: " + msg, true
	case sqlite3.ErrNomem:
		return errs.TooLarge, "SQLite: " + msg, true
	case sqlite3.ErrError, sqlite3.ErrRange, sqlite3.ErrMismatch, sqlite3.ErrConstraint:
		return errs.InvalidParam, "SQLite error: " + msg, true
	}
	return errs.Internal, "SQLite error: " + msg, true
}
