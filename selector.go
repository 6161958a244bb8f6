package scout

import (
	"slices"
	"strconv"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
)

// Range is an inclusive, 1-based line range. End == 0 means "to the end of
// the file" (open-ended); otherwise Start <= End.
type Range struct {
	Start, End int
}

// Selector is what may follow the last ':' of a path given to Read or
// Search: line ranges, raw mode, or the merge-conflict view. The zero
// Selector selects nothing special (the whole default view).
type Selector struct {
	// Ranges are sorted by Start and merged where they overlap or touch; an
	// open-ended range comes last, having swallowed those after it. nil
	// means no line selection.
	Ranges []Range
	// Raw asks for the bytes unchanged: no line prefixes, no summary.
	Raw bool
	// Conflicts asks for the unresolved git merge-conflict blocks. It never
	// comes with Ranges or Raw.
	Conflicts bool
}

// ParseSelector parses a selector, given without its leading ':'. The forms
// (an 'L' or 'l' may precede each number):
//
//	N, N-, N..     line N to the end of the file
//	A-B, A..B      lines A to B
//	A+C            C lines from A (A to A+C-1)
//	R1,R2,...      several of the above, sorted and merged
//	raw            raw output; also range:raw and raw:range
//	conflicts      the merge-conflict view
//
// "" gives the zero Selector. An error is an *Error with CodeInvalidParam:
// line 0 ("Line selector 0 is invalid; lines are 1-indexed. Use :1."), a
// zero count ("Invalid range 5+0: count must be >= 1."), an end before the
// start ("Invalid range 5-3: end must be >= start."), a number too large,
// or text that is not a selector.
func ParseSelector(s string) (Selector, error) {
	if s == "" {
		return Selector{}, nil
	}
	sel, ok, err := parseSelector(s)
	if err != nil {
		return Selector{}, exportErr(err)
	}
	if !ok {
		return Selector{}, exportErr(errs.New(errs.InvalidParam,
			"Invalid selector ':%s': use :N, :A-B, :A+C, :A.., a comma list of those (:5-16,960-973), :raw, :range:raw or :conflicts", s))
	}
	return sel, nil
}

// String returns the canonical text of s, without a leading ':': ranges
// as "A-B" or "N" (open-ended) joined by ',', then ":raw" when Raw is set
// ("raw" alone without ranges); "conflicts". The zero Selector gives "".
// ParseSelector(s.String()) gives s back for every parsed Selector.
func (s Selector) String() string {
	if s.Conflicts {
		return "conflicts"
	}
	parts := make([]string, 0, len(s.Ranges))
	for _, r := range s.Ranges {
		if r.End == 0 {
			parts = append(parts, strconv.Itoa(r.Start))
		} else {
			parts = append(parts, strconv.Itoa(r.Start)+"-"+strconv.Itoa(r.End))
		}
	}
	out := strings.Join(parts, ",")
	if s.Raw {
		if out == "" {
			return "raw"
		}
		out += ":raw"
	}
	return out
}

// IsZero reports whether s selects nothing special.
func (s Selector) IsZero() bool {
	return len(s.Ranges) == 0 && !s.Raw && !s.Conflicts
}

// SplitPathSelector peels a selector off p: the text after the last ':',
// when that colon is not the first character and the text is a selector;
// one compound "range:raw" or "raw:range" is peeled whole. A suffix that is
// not a selector stays part of the path (ok false, err nil), so archive
// members ("a.zip:dir/f.ts"), SQLite tables and "foo:../bar.ts" pass
// through. A suffix that has the form of a selector but is invalid (":0",
// ":5-3", ":3+0") gives its error, with path p and the zero Selector.
//
// A file whose name really ends in a selector ("test:1-2") is the caller's
// to check first: stat the whole path before splitting.
func SplitPathSelector(p string) (path string, sel Selector, ok bool, err error) {
	i := strings.LastIndexByte(p, ':')
	if i <= 0 {
		return p, Selector{}, false, nil
	}
	sel, ok, err = parseChunk(p[i+1:])
	if !ok || err != nil {
		return p, Selector{}, false, exportErr(err)
	}
	path = p[:i]
	// One compound: raw after a range list, or a range list after raw.
	if j := strings.LastIndexByte(path, ':'); j > 0 && !sel.Conflicts {
		prev, pok, perr := parseChunk(path[j+1:])
		if pok && !prev.Conflicts && prev.Raw != sel.Raw {
			if perr != nil {
				return p, Selector{}, false, exportErr(perr)
			}
			sel = Selector{Ranges: slices.Concat(prev.Ranges, sel.Ranges), Raw: true}
			path = path[:j]
		}
	}
	return path, sel, true, nil
}

// parseSelector parses a whole selector: one chunk, or a range chunk and
// "raw" joined by ':' in either order. ok is false when s is not of that
// form; err reports a well-formed but invalid range.
func parseSelector(s string) (Selector, bool, error) {
	first, rest, compound := strings.Cut(s, ":")
	if !compound {
		return parseChunk(s)
	}
	a, aok, aerr := parseChunk(first)
	b, bok, berr := parseChunk(rest)
	if !aok || !bok || a.Conflicts || b.Conflicts || a.Raw == b.Raw {
		return Selector{}, false, nil
	}
	if aerr != nil {
		return Selector{}, true, aerr
	}
	if berr != nil {
		return Selector{}, true, berr
	}
	return Selector{Ranges: slices.Concat(a.Ranges, b.Ranges), Raw: true}, true, nil
}

// parseChunk parses "raw", "conflicts" or a comma list of ranges.
func parseChunk(s string) (Selector, bool, error) {
	switch s {
	case "raw":
		return Selector{Raw: true}, true, nil
	case "conflicts":
		return Selector{Conflicts: true}, true, nil
	case "":
		return Selector{}, false, nil
	}
	items := strings.Split(s, ",")
	type parsed struct {
		r   Range
		err error
	}
	list := make([]parsed, 0, len(items))
	for _, item := range items {
		r, ok, err := parseRange(item)
		if !ok {
			return Selector{}, false, nil
		}
		list = append(list, parsed{r, err})
	}
	var ranges []Range
	for _, p := range list {
		if p.err != nil {
			return Selector{}, true, p.err
		}
		ranges = append(ranges, p.r)
	}
	return Selector{Ranges: mergeRanges(ranges)}, true, nil
}

// parseRange parses one range: L?N, then optionally "-", "+" or ".." and
// L?M, where M may be missing ("5-", "5-L": open-ended; "5+": an error). ok is false when item does not
// have that form.
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

// number reads an optional 'L' or 'l' and one or more ASCII digits from the
// front of s, returning the digits and the rest.
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

// maxLine bounds line numbers and counts, so that A+C-1 and End+1 fit in an
// int even on 32-bit platforms.
const maxLine = 1 << 30

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
		if start+n-1 > maxLine {
			return Range{}, errs.New(errs.InvalidParam, "Invalid range %d+%d: it ends past line %d. Use :%d- to read to the end.", start, n, maxLine, start)
		}
		return Range{Start: start, End: start + n - 1}, nil
	}
	if n < start {
		return Range{}, errs.New(errs.InvalidParam, "Invalid range %d-%d: end must be >= start.", start, n)
	}
	return Range{Start: start, End: n}, nil
}

// lineNumber converts digits to a line number of at most maxLine.
func lineNumber(digits string) (int, error) {
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > maxLine {
		return 0, errs.New(errs.InvalidParam, "Line number %s is too large; the limit is %d.", digits, maxLine)
	}
	return int(n), nil
}

// mergeRanges sorts ranges by start and merges those that overlap or touch;
// an open-ended range swallows every range after it.
func mergeRanges(ranges []Range) []Range {
	slices.SortStableFunc(ranges, func(a, b Range) int { return a.Start - b.Start })
	var out []Range
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
	return out
}
