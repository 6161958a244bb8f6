// Package selector is the one grammar of the selectors a read or search
// path may end with: line ranges, :raw and :conflicts after a file, an
// archive member, a web URL or an internal URL (this file), and the views
// of a SQLite database (db.go).
//
// A line selector follows the last ':' of the path:
//
//	N, N-, N..     line N to the end
//	A-B, A..B      lines A to B
//	A+C            C lines from A (A to A+C-1)
//	R1,R2,...      several of the above, sorted and merged
//	raw            the bytes as they are
//	conflicts      the merge-conflict view
//	range:raw      one compound of a range list and raw, in either order
//	raw:range
//
// An 'L' (or 'l') may precede each number ("L41-L60"), and raw and
// conflicts are read without regard to case ("RAW"). Blanks (spaces and
// tabs) may surround each range, raw and conflicts: after the ':' and
// around the commas ("f.go: 5-10, 20-30", "f.go:5-10 : raw"); a path that
// exists as written is still read as it is (a file named "f.go: 5"), which
// is the caller's to check first. Lines are 1-based.
// The same grammar applies to every source; only where a selector may
// start differs (see Split, SplitURL and SplitInternal).
package selector

import (
	"slices"
	"strconv"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// MaxBytes is the longest selector or database query, in bytes: what
// follows the file of a path ("5-10", "users?where=...", "?q=SELECT ...")
// is at most 64 KiB. The path before it has its own caps (PATH_MAX and
// NAME_MAX).
const MaxBytes = 64 << 10

// Range is an inclusive, 1-based line range. End 0 means to the end;
// otherwise Start <= End.
type Range struct{ Start, End int }

// Selector is a parsed line selector. The zero Selector selects nothing
// special.
type Selector struct {
	// Ranges are sorted by Start and merged where they overlap or touch;
	// an open-ended range comes last, having swallowed those after it.
	// nil means no line selection.
	Ranges []Range
	// Raw asks for the bytes unchanged.
	Raw bool
	// Conflicts asks for the merge-conflict view; it never comes with
	// Ranges or Raw.
	Conflicts bool
}

// IsZero reports whether s selects nothing special.
func (s Selector) IsZero() bool { return len(s.Ranges) == 0 && !s.Raw && !s.Conflicts }

// String returns the canonical text of s without a leading ':': ranges as
// "A-B" or "N" (open-ended) joined by ',', then ":raw" when Raw is set
// ("raw" alone without ranges); "conflicts". The zero Selector gives "".
// Parse(s.String()) gives s back for every parsed Selector.
func (s Selector) String() string {
	if s.Conflicts {
		return "conflicts"
	}
	var b strings.Builder
	for i, r := range s.Ranges {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(r.Start))
		if r.End != 0 {
			b.WriteString("-" + strconv.Itoa(r.End))
		}
	}
	if s.Raw {
		if b.Len() == 0 {
			return "raw"
		}
		b.WriteString(":raw")
	}
	return b.String()
}

// Parse parses a whole selector given without its leading ':': one chunk
// (a range list, raw or conflicts) or a range list and raw joined by ':'
// in either order. ok is false when s is not of that form (the caller may
// then take the text as part of a path, or report NotSelector); err
// reports a well-formed but invalid range (":0", ":5-3", ":3+0").
func Parse(s string) (sel Selector, ok bool, err error) {
	first, rest, compound := strings.Cut(s, ":")
	if !compound {
		return chunk(s)
	}
	a, aok, aerr := chunk(first)
	b, bok, berr := chunk(rest)
	if !aok || !bok || a.Conflicts || b.Conflicts || a.Raw == b.Raw {
		return Selector{}, false, nil
	}
	if aerr != nil {
		return Selector{}, true, aerr
	}
	if berr != nil {
		return Selector{}, true, berr
	}
	return Selector{Ranges: Merge(slices.Concat(a.Ranges, b.Ranges)), Raw: true}, true, nil
}

// NotSelector is the error for text that was given as a selector but is
// not one; after, when not "", names what the selector followed.
func NotSelector(s, after string) *errs.Error {
	if after != "" {
		after = " after '" + errs.Echo(after) + "'"
	}
	return errs.New(errs.InvalidParam,
		"Invalid selector ':%s'%s: use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts", errs.Echo(s), after)
}

// Split peels a selector off a file or archive path p: the text after
// the last ':', when that colon is not the first character and the text
// is a selector; one compound "range:raw" or "raw:range" is peeled whole.
// A suffix that is not a selector stays part of the path (ok false, err
// nil), so archive members ("a.zip:dir/f.ts"), SQLite tables and
// "foo:../bar.ts" pass through. A suffix that has the form of a selector
// but is invalid gives its error.
//
// A file whose name really ends in a selector ("test:1-2") is the
// caller's to check first: stat the whole path before splitting.
func Split(p string) (path string, sel Selector, ok bool, err error) {
	return split(p, 1)
}

// SplitURL peels a selector off a web URL. A colon in the host part is a
// port, never a selector: the selector must follow the first '/' after
// the scheme ("https://x.example/:80" is line 80, "https://x.example:80"
// port 80).
func SplitURL(p string) (url string, sel Selector, ok bool, err error) {
	start := 0
	if i := strings.Index(p, "://"); i >= 0 {
		start = i + 3
	}
	slash := strings.IndexByte(p[start:], '/')
	if slash < 0 {
		return p, Selector{}, false, nil
	}
	return split(p, start+slash+1)
}

// SplitInternal peels a selector off an internal URL ("skill://x:5-9").
// The colon that ends the scheme never starts a selector, but the one
// right after "://" may ("rule://:5"); mcp:// URLs are opaque and keep
// their text whole.
func SplitInternal(p string) (url string, sel Selector, ok bool, err error) {
	i := strings.Index(p, "://")
	if i <= 0 || strings.EqualFold(p[:i], "mcp") {
		return p, Selector{}, false, nil
	}
	return split(p, i+3)
}

// split peels the selector that follows the last ':' of p at index min or
// later, and a compound's first part when its ':' is at min or later too.
func split(p string, min int) (string, Selector, bool, error) {
	i := strings.LastIndexByte(p, ':')
	if i < max(min, 1) {
		return p, Selector{}, false, nil
	}
	sel, ok, err := chunk(p[i+1:])
	if !ok || err != nil {
		return p, Selector{}, false, err
	}
	path := p[:i]
	if j := strings.LastIndexByte(path, ':'); j >= max(min, 1) && !sel.Conflicts {
		prev, pok, perr := chunk(path[j+1:])
		if pok && !prev.Conflicts && prev.Raw != sel.Raw {
			if perr != nil {
				return p, Selector{}, false, perr
			}
			sel = Selector{Ranges: Merge(slices.Concat(prev.Ranges, sel.Ranges)), Raw: true}
			path = path[:j]
		}
	}
	return path, sel, true, nil
}

// chunk parses "raw", "conflicts" or a comma list of ranges, each of
// them between optional blanks.
func chunk(s string) (Selector, bool, error) {
	s = strings.Trim(s, " \t")
	switch {
	case s == "":
		return Selector{}, false, nil
	case strings.EqualFold(s, "raw"):
		return Selector{Raw: true}, true, nil
	case strings.EqualFold(s, "conflicts"):
		return Selector{Conflicts: true}, true, nil
	}
	items := strings.Split(s, ",")
	ranges := make([]Range, 0, len(items))
	var first error // the first invalid range, reported once the whole list has the right form
	for _, item := range items {
		r, ok, err := parseRange(strings.Trim(item, " \t"))
		if !ok {
			return Selector{}, false, nil
		}
		if err != nil && first == nil {
			first = err
		}
		ranges = append(ranges, r)
	}
	if first != nil {
		return Selector{}, true, first
	}
	return Selector{Ranges: Merge(ranges)}, true, nil
}

// parseRange parses one range: L?N, then optionally "-", "+" or ".." and
// L?M, where M may be missing ("5-", "5-L": open-ended; "5+": an error).
// ok is false when item does not have that form.
func parseRange(item string) (Range, bool, error) {
	start, rest, ok := number(item)
	if !ok {
		return Range{}, false, nil
	}
	var op string
	for _, o := range []string{"..", "-", "+"} {
		if strings.HasPrefix(rest, o) {
			op, rest = o, rest[len(o):]
			break
		}
	}
	if op == "" && rest != "" {
		return Range{}, false, nil
	}
	end, tail, _ := number(rest) // pi's grammar lets an 'L' stand alone here
	if tail != "" {
		return Range{}, false, nil
	}
	r, err := checkRange(start, op, end)
	return r, true, err
}

// number reads an optional 'L' or 'l' and one or more ASCII digits from
// the front of s, returning the digits and the rest.
func number(s string) (digits, rest string, ok bool) {
	if s != "" && (s[0] == 'L' || s[0] == 'l') {
		s = s[1:]
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return s[:n], s[n:], n > 0
}

// MaxLine bounds line numbers and counts, so that A+C-1 and End+1 fit in
// an int even on 32-bit platforms.
const MaxLine = 1 << 30

// checkRange turns the parsed text of a range into a Range, checking it.
func checkRange(startText, op, endText string) (Range, error) {
	start, err := lineNumber(startText)
	if err != nil {
		return Range{}, err
	}
	if start == 0 {
		return Range{}, errs.New(errs.InvalidParam, "Line selector 0 is invalid; lines are 1-indexed. Use :1.")
	}
	if endText == "" {
		if op == "+" {
			return Range{}, errs.New(errs.InvalidParam, "Invalid range %d+0: count must be >= 1.", start)
		}
		return Range{Start: start}, nil
	}
	n, err := lineNumber(endText)
	if err != nil {
		return Range{}, err
	}
	if op == "+" {
		if n == 0 {
			return Range{}, errs.New(errs.InvalidParam, "Invalid range %d+0: count must be >= 1.", start)
		}
		if start+n-1 > MaxLine {
			return Range{}, errs.New(errs.InvalidParam, "Invalid range %d+%d: it ends past line %d. Use :%d- to read to the end.", start, n, MaxLine, start)
		}
		return Range{Start: start, End: start + n - 1}, nil
	}
	if n < start {
		return Range{}, errs.New(errs.InvalidParam, "Invalid range %d-%d: end must be >= start.", start, n)
	}
	return Range{Start: start, End: n}, nil
}

// lineNumber converts digits to a line number of at most MaxLine.
func lineNumber(digits string) (int, error) {
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > MaxLine {
		return 0, errs.New(errs.InvalidParam, "Line number %s is too large; the limit is %d.", errs.Echo(digits), MaxLine)
	}
	return int(n), nil
}

// Merge sorts ranges by start and merges those that overlap or touch; an
// open-ended range swallows every range after it. It reuses the storage
// of ranges.
func Merge(ranges []Range) []Range {
	slices.SortStableFunc(ranges, func(a, b Range) int { return a.Start - b.Start })
	out := ranges[:0]
	for _, r := range ranges {
		n := len(out)
		if n > 0 && (out[n-1].End == 0 || r.Start <= out[n-1].End+1) {
			last := &out[n-1]
			if last.End != 0 && (r.End == 0 || r.End > last.End) {
				last.End = r.End
			}
			continue
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
