package scout

import (
	"strconv"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// Truncation says why a result is not complete. "" means complete. Each
// reason's doc says which totals become lower bounds.
type Truncation string

// The truncation reasons.
const (
	// TruncLimit: Find matched more entries than its Limit (Matched is
	// exact); Read's line limit ended the text (TotalLines is exact, Next
	// says where to continue) or a listing's rows (the rows left out are
	// counted).
	TruncLimit Truncation = "limit"
	// TruncBytes: Read's byte budget ended the text (Next says where to
	// continue).
	TruncBytes Truncation = "bytes"
	// TruncFiles: Search found more matching files than the page holds
	// (TotalFiles is exact; NextSkip continues).
	TruncFiles Truncation = "files"
	// TruncBudget: Search's MaxMatches budget stopped the scan and more
	// matching files exist (TotalFiles, TotalMatchLines and TotalMatches
	// are lower bounds).
	TruncBudget Truncation = "budget"
	// TruncMatches: Search's page held more matching lines than MaxMatches
	// and was cut round robin across its files.
	TruncMatches Truncation = "matches"
	// TruncTimeout: the deadline passed; the counts are lower bounds.
	TruncTimeout Truncation = "timeout"
	// TruncVisited: Find's MaxVisited breaker tripped; the counts are
	// lower bounds.
	TruncVisited Truncation = "visited"
)

// SkipReason says why an entry was left out of a search, a find or a
// listing. Results count skipped entries in a map[SkipReason]int (JSON
// "skipped", zero counts dropped, nil when none).
type SkipReason string

// The skip reasons.
const (
	SkipIgnored    SkipReason = "ignored"    // an ignore rule (.gitignore, .ignore, git excludes), a pruned directory, or .git
	SkipHidden     SkipReason = "hidden"     // the name starts with '.', and hidden entries were not asked for
	SkipSymlink    SkipReason = "symlink"    // symlinks are not followed
	SkipBinary     SkipReason = "binary"     // a NUL byte in the first 64 KiB, or text that cannot be decoded
	SkipTooLarge   SkipReason = "too_large"  // larger than the size cap
	SkipSpecial    SkipReason = "special"    // a FIFO, device or socket: never opened
	SkipUnreadable SkipReason = "unreadable" // it could not be opened or read (or vanished)
)

// SkippedPath names one entry left out of a result and why. Results list
// the skipped entries they can name in SkippedPaths; the counts by reason
// are in their Skipped map, which counts the entries found while walking,
// not those the request named (Named).
type SkippedPath struct {
	// Path is the entry's slash path relative to the root, or
	// "archive.zip:member" for an archive member.
	Path   string     `json:"path"`
	Reason SkipReason `json:"reason"`
	// Code classifies the failure of an unreadable entry (e.g.
	// CodeAccessDenied); "" for the other reasons.
	Code Code `json:"code,omitempty"`
	// Message says what failed for an unreadable entry, or why an entry
	// counts as binary when it is not a NUL byte ("not UTF-8"); "" when
	// Reason says it all.
	Message string `json:"message,omitempty"`
	// Named reports an entry that the request named (an archive member,
	// directory or glob given in SearchRequest.Paths), left out on its
	// own and not counted in Skipped. false means an entry found while
	// walking, counted in Skipped.
	Named bool `json:"named,omitempty"`
}

// enum names the values of an integer enumeration, 0 first: its first
// element says what the values are ("search mode"), the others are the
// names, used by String, MarshalText and UnmarshalText.
type enum[T ~int] []string

// valid reports whether v has a name.
func (e enum[T]) valid(v T) bool { return v >= 0 && int(v) < len(e)-1 }

// name returns v's name, or its number when it has none.
func (e enum[T]) name(v T) string {
	if e.valid(v) {
		return e[v+1]
	}
	return strconv.Itoa(int(v))
}

// parse sets *v to the value named b; "" is the zero value. An unknown
// name is a CodeInvalidParam error listing the names.
func (e enum[T]) parse(b []byte, v *T) error {
	s := string(b)
	if s == "" {
		*v = 0
		return nil
	}
	for i, n := range e[1:] {
		if n == s {
			*v = T(i)
			return nil
		}
	}
	return e.invalid("'" + errs.Echo(s) + "'")
}

// check returns nil when v is one of the named values, and otherwise the
// CodeInvalidParam error of a request field set to a number out of range.
func (e enum[T]) check(v T) error {
	if e.valid(v) {
		return nil
	}
	return e.invalid(strconv.Itoa(int(v)))
}

// invalid is the error of a value, as quoted, that names no value.
func (e enum[T]) invalid(quoted string) error {
	names := e[1:]
	return &Error{Code: CodeInvalidParam, Message: "Invalid " + e[0] + " " + quoted + ": use " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + "."}
}
