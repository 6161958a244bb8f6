// Package memtext parses the line selectors of sources read from memory
// (web URLs, internal URLs): ":raw", range lists (":5-10", ":5+3",
// ":L5..L9", ":1-5,20-30") and their compounds (":5-10:raw", ":raw:5-10").
// Lines are 1-based.
package memtext

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Range is an inclusive 1-based line range. End 0 means "to the end".
type Range struct {
	Start int
	End   int
}

// String renders r as a selector: "5" for an open range, "5-9" otherwise.
func (r Range) String() string {
	if r.End == 0 {
		return fmt.Sprint(r.Start)
	}
	return fmt.Sprintf("%d-%d", r.Start, r.End)
}

// Selector is a parsed line selector: ":raw", a range list, or both
// (":5-10:raw", ":raw:5-10").
type Selector struct {
	Raw    bool
	Ranges []Range // sorted and merged; nil means the whole text
}

// chunkRE is one range of a range list: N, N-M, N-, N+K, N..M, N.., with an
// optional L before either number.
var chunkRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^L?(\d+)(?:(\.\.|[-+])(?:L?(\d+))?)?$`) })

// IsRangeList reports whether s has the shape of a range list (it may
// still fail ParseRanges, e.g. "0" or "5-3").
func IsRangeList(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range strings.Split(s, ",") {
		if !chunkRE().MatchString(strings.TrimSpace(c)) {
			return false
		}
	}
	return true
}

// ParseRanges parses a comma-separated range list, sorted and merged. The
// errors say how to fix the selector.
func ParseRanges(s string) ([]Range, error) {
	var out []Range
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		m := chunkRE().FindStringSubmatch(c)
		if m == nil {
			return nil, fmt.Errorf("Invalid line selector %q: use :N, :A-B, :A+C or :A-B,C-D", c)
		}
		start, err := strconv.Atoi(m[1])
		if err != nil {
			return nil, fmt.Errorf("Invalid line selector %q: line number too large", c)
		}
		if start == 0 {
			return nil, fmt.Errorf("Line selector 0 is invalid; lines are 1-indexed. Use :1.")
		}
		r := Range{Start: start}
		if m[3] != "" {
			n, err := strconv.Atoi(m[3])
			if err != nil {
				return nil, fmt.Errorf("Invalid line selector %q: line number too large", c)
			}
			switch m[2] {
			case "+":
				if n < 1 {
					return nil, fmt.Errorf("Invalid range %d+%d: count must be >= 1.", start, n)
				}
				r.End = start + n - 1
			default:
				if n < start {
					return nil, fmt.Errorf("Invalid range %d-%d: end must be >= start.", start, n)
				}
				r.End = n
			}
		} else if m[2] == "+" {
			return nil, fmt.Errorf("Invalid range %d+: count must be >= 1.", start)
		}
		out = append(out, r)
	}
	return Merge(out), nil
}

// Merge sorts ranges by start and merges those that overlap or touch; an
// open-ended range swallows every range after it. The input is not modified.
func Merge(ranges []Range) []Range {
	if len(ranges) < 2 {
		return ranges
	}
	rs := slices.Clone(ranges)
	slices.SortFunc(rs, func(a, b Range) int { return a.Start - b.Start })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if last.End == 0 {
			continue
		}
		if r.Start <= last.End+1 {
			if r.End == 0 || r.End > last.End {
				last.End = r.End
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// ParseSelector parses a selector without its leading colon. ok is false
// when s is not selector syntax at all (the colon then belongs to the
// path); err is set when it is, but is invalid (":0", ":5-3").
func ParseSelector(s string) (sel Selector, ok bool, err error) {
	if strings.EqualFold(s, "raw") {
		return Selector{Raw: true}, true, nil
	}
	rangePart := s
	if a, b, found := strings.Cut(s, ":"); found {
		switch {
		case strings.EqualFold(a, "raw") && IsRangeList(b):
			rangePart, sel.Raw = b, true
		case strings.EqualFold(b, "raw") && IsRangeList(a):
			rangePart, sel.Raw = a, true
		default:
			return Selector{}, false, nil
		}
	} else if !IsRangeList(s) {
		return Selector{}, false, nil
	}
	sel.Ranges, err = ParseRanges(rangePart)
	if err != nil {
		return Selector{}, true, err
	}
	return sel, true, nil
}

// SplitSelector peels a trailing selector off p: the text after the last
// colon, or after the second-to-last one for the compound forms
// "range:raw" and "raw:range". A colon at index 0 never starts a selector.
// When p has no selector, SplitSelector returns p and "".
func SplitSelector(p string) (base, sel string) {
	i := strings.LastIndexByte(p, ':')
	if i <= 0 {
		return p, ""
	}
	if _, ok, _ := ParseSelector(p[i+1:]); !ok {
		return p, ""
	}
	base, sel = p[:i], p[i+1:]
	if j := strings.LastIndexByte(base, ':'); j > 0 && isCompound(base[j+1:], sel) {
		return base[:j], base[j+1:] + ":" + sel
	}
	return base, sel
}

// isCompound reports whether a and b are one raw and one range list.
func isCompound(a, b string) bool {
	return (strings.EqualFold(a, "raw") && IsRangeList(b)) || (strings.EqualFold(b, "raw") && IsRangeList(a))
}
