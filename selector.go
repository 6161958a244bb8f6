package scout

import (
	"github.com/scoutkit/scout/internal/selector"
)

// Range is an inclusive, 1-based line range. End == 0 means "to the end of
// the file" (open-ended); otherwise Start <= End.
type Range struct {
	Start int `json:"start"`
	End   int `json:"end,omitempty"`
}

// Selector is what may follow the last ':' of a path given to Read or
// Search: line ranges, raw mode, or the merge-conflict view. The zero
// Selector selects nothing special (the whole default view).
type Selector struct {
	// Ranges are sorted by Start and merged where they overlap or touch; an
	// open-ended range comes last, having swallowed those after it. nil
	// means no line selection.
	Ranges []Range `json:"ranges,omitempty"`
	// Raw asks for the bytes unchanged: no line prefixes, no summary.
	Raw bool `json:"raw,omitempty"`
	// Conflicts asks for the unresolved git merge-conflict blocks. It never
	// comes with Ranges or Raw.
	Conflicts bool `json:"conflicts,omitempty"`
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
// raw and conflicts are read without regard to case ("RAW"). Blanks may
// surround each range, raw and conflicts ("5-10, 20-30", " 5-10",
// "5-10 : raw"). The same grammar applies after a file, a directory, an
// archive member, a web URL and an internal URL.
//
// "" gives the zero Selector. An error is an *Error with CodeInvalidParam:
// line 0 ("Line selector 0 is invalid; lines are 1-indexed. Use :1."), a
// zero or missing count ("Invalid range 5+0: count must be >= 1."), an
// end before the start ("Invalid range 5-3: end must be >= start."), a
// number too large, or text that is not a selector.
func ParseSelector(s string) (Selector, error) {
	if s == "" {
		return Selector{}, nil
	}
	sel, ok, err := selector.Parse(s)
	if err != nil {
		return Selector{}, exportErr(err)
	}
	if !ok {
		return Selector{}, exportErr(selector.NotSelector(s, ""))
	}
	return fromSelector(sel), nil
}

// String returns the canonical text of s, without a leading ':': ranges
// as "A-B" or "N" (open-ended) joined by ',', then ":raw" when Raw is set
// ("raw" alone without ranges); "conflicts". The zero Selector gives "".
// ParseSelector(s.String()) gives s back for every parsed Selector.
func (s Selector) String() string {
	in := selector.Selector{Raw: s.Raw, Conflicts: s.Conflicts}
	for _, r := range s.Ranges {
		in.Ranges = append(in.Ranges, selector.Range{Start: r.Start, End: r.End})
	}
	return in.String()
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
// to check first: stat the whole path before splitting. Read splits web
// URLs after their host (a port is not a selector) and internal URLs
// after their scheme.
func SplitPathSelector(p string) (path string, sel Selector, ok bool, err error) {
	path, in, ok, err := selector.Split(p)
	if err != nil {
		return p, Selector{}, false, exportErr(err)
	}
	return path, fromSelector(in), ok, nil
}

// fromSelector converts a parsed selector.
func fromSelector(in selector.Selector) Selector {
	s := Selector{Raw: in.Raw, Conflicts: in.Conflicts}
	for _, r := range in.Ranges {
		s.Ranges = append(s.Ranges, Range{Start: r.Start, End: r.End})
	}
	return s
}
