//go:build !cgo || !unix

package sqlite

import (
	"context"
	"io"
	"io/fs"

	"github.com/scoutkit/scout/internal/errs"
)

// errNoCgo is returned by every read in a build without cgo.
var errNoCgo = errs.New(errs.Unsupported, "SQLite support needs a build with cgo enabled (CGO_ENABLED=1 and a C compiler) on a Unix system")

type files struct{}

func newFiles(context.Context, int64) (*files, error) { return nil, errNoCgo }

func (*files) release() {}

func (*files) add(context.Context, fileIndex, fs.File, int64, []byte, string) error { return errNoCgo }

func (*files) copy(context.Context, fileIndex, io.Reader, int64, string) error { return errNoCgo }

func open(context.Context, *files, string) (*db, error) { return nil, errNoCgo }

type statement struct {
	cols []string
}

func (d *db) inspect(string, []any, bool) (statement, error) { return statement{}, errNoCgo }

func (d *db) driverError(error) (errs.Code, string, bool) { return "", "", false }
