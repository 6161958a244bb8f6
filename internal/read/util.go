package read

import (
	"errors"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
)

func sizeOf(n int64) string { return dirtree.FormatBytes(n) }

func asErr(err error, target **errs.Error) bool { return errors.As(err, target) }

// asciiMasked returns p with every non-ASCII byte replaced by '_': the same
// length, and lower-casing it keeps the length. The archive and SQLite
// candidate finders slice their input by offsets taken from its lower-case
// form, which only works when both have the same length; extensions are
// ASCII, so masking changes no candidate, and the offsets map back to p.
func asciiMasked(p string) string {
	b := []byte(p)
	for i, c := range b {
		if c >= utf8.RuneSelf {
			b[i] = '_'
		}
	}
	return string(b)
}
