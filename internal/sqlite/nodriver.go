//go:build !cgo

package sqlite

import (
	"context"

	"github.com/scoutkit/scout/internal/errs"
)

// errNoCgo is returned by every read in a build without cgo.
var errNoCgo = errs.New(errs.Unsupported, "SQLite support needs a build with cgo enabled (CGO_ENABLED=1 and a C compiler)")

func open(context.Context, string, []byte) (*db, error) { return nil, errNoCgo }

type statement struct {
	cols    []string
	convert bool
}

func (d *db) inspect(string, []any, bool) (statement, error) { return statement{}, errNoCgo }

func driverError(error) (errs.Code, string, bool) { return "", "", false }
