package read

import (
	"errors"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
)

func sizeOf(n int64) string { return dirtree.FormatBytes(n) }

func asErr(err error, target **errs.Error) bool { return errors.As(err, target) }
