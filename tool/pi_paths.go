package tool

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/pitext"
)

// rejectCommaJoined refuses a paths entry holding a comma outside braces
// and classes, unless the whole entry names an existing path,
// with the error "paths is an array — pass ["a", "b"] not ["a,b"]"
// and the entry split as it should have been passed (no empty element for
// a stray comma); raw is the entry as given. An entry longer than an error
// quotes (errs.MaxEcho) is quoted once, cut, with the number of its paths.
func rejectCommaJoined(fsys fs.FS, root, entry, raw string) error {
	if _, hasComma := pathutil.CommaParts(entry); !hasComma || entryExists(fsys, root, entry) {
		return nil
	}
	parts, _ := pathutil.CommaParts(raw)
	const array = `paths is an array — pass ["a", "b"] not ["a,b"]: `
	long := len(raw) > errs.MaxEcho
	switch {
	case len(parts) == 0:
		return errs.New(errs.InvalidParam, array+`the entry %q names no path; pass a path or glob, e.g. ["src/**/*.ts"].`, errs.Clip(raw))
	case long && len(parts) == 1:
		return errs.New(errs.InvalidParam, array+`the entry %q holds one path and a stray comma; pass the path without it.`, errs.Clip(raw))
	case long:
		return errs.New(errs.InvalidParam, array+`the entry %q holds %d paths; pass them as separate elements.`, errs.Clip(raw), len(parts))
	}
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = strconv.Quote(p)
	}
	if len(parts) == 1 {
		return errs.New(errs.InvalidParam, array+`the entry %q holds one path and a stray comma; pass it as [%s].`, raw, errs.Echo(quoted[0]))
	}
	return errs.New(errs.InvalidParam, array+`the entry %q holds several paths; pass them as separate elements: [%s].`, raw, errs.Echo(strings.Join(quoted, ", ")))
}

// splitEntry recovers several paths given as one entry, joined by ';' or
// white space (pi's delimited-entry recovery, as read does), when they
// exist; base returns the path to stat for a part (its base directory
// when it is a glob). It returns the entry alone when it does not split.
func splitEntry(fsys fs.FS, root, entry string, base func(part string) string) []string {
	return pathutil.SplitDelimited(entry, func(part string) bool {
		return entryExists(fsys, root, base(part))
	})
}

// piSplit is a paths entry that named several paths, and the paths it was
// taken for (details.splitEntries).
type piSplit struct {
	Entry string   `json:"entry"`
	Paths []string `json:"paths"`
}

// splitNotes are the notes on the entries taken for several paths, worded
// as read words them.
func splitNotes(splits []piSplit) []string {
	notes := make([]string, len(splits))
	for i, s := range splits {
		notes[i] = pitext.DelimitedNote(s.Paths)
	}
	return notes
}

// entryExists reports whether the entry names an existing path (one that
// cannot be stat'ed for another reason than absence counts as existing).
func entryExists(fsys fs.FS, root, e string) bool {
	p, err := pathutil.Resolve(root, e)
	if err != nil {
		return false
	}
	_, err = pathutil.Stat(fsys, p)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}
