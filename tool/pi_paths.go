package tool

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/pathutil"
)

// rejectCommaJoined refuses a paths entry holding a comma outside braces,
// unless the whole entry names an existing path (DESIGN.md), with the
// seeds' error "paths is an array — pass ["a", "b"] not ["a,b"]" and the
// entry split as it should have been passed; raw is the entry as given.
func rejectCommaJoined(fsys fs.FS, root, entry, raw string) error {
	if !pathutil.HasTopLevelComma(entry) || entryExists(fsys, root, entry) {
		return nil
	}
	parts := strings.Split(raw, ",")
	for i := range parts {
		parts[i] = strconv.Quote(strings.TrimSpace(parts[i]))
	}
	return errs.New(errs.InvalidParam, `paths is an array — pass ["a", "b"] not ["a,b"]: the entry %q holds several paths; pass them as separate elements: [%s].`, raw, strings.Join(parts, ", "))
}

// entryExists reports whether the entry names an existing path (one that
// cannot be stat'ed for another reason than absence counts as existing).
func entryExists(fsys fs.FS, root, e string) bool {
	p, err := pathutil.Resolve(root, e)
	if err != nil {
		return false
	}
	_, err = fs.Stat(fsys, p)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}
