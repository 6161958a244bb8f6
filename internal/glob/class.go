package glob

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/posixclass"
)

// A character class is read into a set of rune ranges; a negated class
// becomes the ranges of its complement, and '/' and the surrogate block are
// taken out of every class, so that a class never matches a separator.

// span is an inclusive range of runes.
type span struct{ lo, hi rune }

// excluded holds the runes no class matches.
var excluded = []span{{'/', '/'}, {0xD800, 0xDFFF}}

// translateClass translates the class that opens at pattern[start] == '['.
// It returns the index of the closing ']' and the translated text.
func translateClass(pattern string, start int) (int, string, error) {
	end, set, negated, err := parseClass(pattern, start)
	if err != nil {
		return 0, "", err
	}
	text, err := emitClass(pattern[start:end+1], negated, set)
	return end, text, err
}

// ClassEnd returns the index of the ']' that closes the character class
// opening at s[start] == '[', and false when none does or the class is
// malformed (Compile would refuse it).
func ClassEnd(s string, start int) (int, bool) {
	end, _, _, err := parseClass(s, start)
	return end, err == nil
}

// parseClass reads the class that opens at pattern[start] == '[': the
// index of its closing ']', its members and whether it is negated. A ']'
// right after the '[' (and '!' or '^') is a member, '\' quotes the next
// character, "a-z" is a range, "[:name:]" a POSIX class, and a "[:" not
// closed by ":]" before the next ']' is a plain '[' member (as in git).
func parseClass(pattern string, start int) (end int, set []span, negated bool, err error) {
	i := start + 1
	if i < len(pattern) && (pattern[i] == '!' || pattern[i] == '^') {
		negated = true
		i++
	}
	for first := true; i < len(pattern); first = false {
		if pattern[i] == ']' && !first {
			return i, set, negated, nil
		}
		if spans, n, err := posixClass(pattern, i); err != nil {
			return 0, nil, false, err
		} else if n > 0 {
			set = append(set, spans...)
			i += n
			continue
		}
		lo, n := classRune(pattern, i)
		i += n
		hi := lo
		if i+1 < len(pattern) && pattern[i] == '-' && pattern[i+1] != ']' {
			hi, n = classRune(pattern, i+1)
			i += 1 + n
			if hi < lo {
				return 0, nil, false, invalid("the range '%c-%c' is reversed — write it as '%c-%c'", lo, hi, hi, lo)
			}
		}
		set = append(set, span{lo, hi})
	}
	return 0, nil, false, invalid("unclosed '[' — close it with ']' or remove it")
}

// posixClass reads a "[:name:]" class at pattern[i]: its spans and length,
// or n == 0 when there is none there (then '[' is a plain member).
func posixClass(pattern string, i int) (spans []span, n int, err error) {
	if !strings.HasPrefix(pattern[i:], "[:") {
		return nil, 0, nil
	}
	close := strings.IndexByte(pattern[i+2:], ']')
	if close < 1 || pattern[i+2+close-1] != ':' {
		return nil, 0, nil
	}
	name := pattern[i+2 : i+2+close-1]
	ranges, ok := posixclass.Lookup(name)
	if !ok {
		return nil, 0, invalid("unknown character class '[:%s:]' — use one of %s", name, posixclass.Names)
	}
	spans = make([]span, len(ranges))
	for k, r := range ranges {
		spans[k] = span{rune(r.Lo), rune(r.Hi)}
	}
	return spans, 2 + close + 1, nil
}

// classRune decodes the class character at pattern[i], reading a '\'
// escape, and returns it with the number of bytes used.
func classRune(pattern string, i int) (rune, int) {
	if pattern[i] == '\\' && i+1 < len(pattern) {
		r, n := utf8.DecodeRuneInString(pattern[i+1:])
		return r, 1 + n
	}
	r, n := utf8.DecodeRuneInString(pattern[i:])
	return r, n
}

// emitClass writes the set (or its complement) as a regexp class.
func emitClass(class string, negated bool, set []span) (string, error) {
	set = merge(set)
	if negated {
		set = complement(set)
	}
	for _, x := range excluded {
		set = subtract(set, x)
	}
	if len(set) == 0 {
		return "", invalid("the class '%s' matches no character (a class never matches '/') — remove it", errs.Echo(class))
	}
	var b strings.Builder
	b.WriteByte('[')
	for _, s := range set {
		fmt.Fprintf(&b, `\x{%x}`, s.lo)
		if s.hi != s.lo {
			fmt.Fprintf(&b, `-\x{%x}`, s.hi)
		}
	}
	b.WriteByte(']')
	return b.String(), nil
}

// merge sorts the spans and joins those that overlap or touch.
func merge(set []span) []span {
	slices.SortFunc(set, func(a, b span) int { return int(a.lo - b.lo) })
	var out []span
	for _, s := range set {
		if n := len(out); n > 0 && s.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, s.hi)
			continue
		}
		out = append(out, s)
	}
	return out
}

// complement returns the runes of [0, utf8.MaxRune] not in the merged set.
func complement(set []span) []span {
	var out []span
	next := rune(0)
	for _, s := range set {
		if s.lo > next {
			out = append(out, span{next, s.lo - 1})
		}
		next = s.hi + 1
	}
	if next <= utf8.MaxRune {
		out = append(out, span{next, utf8.MaxRune})
	}
	return out
}

// subtract removes x from the merged set.
func subtract(set []span, x span) []span {
	var out []span
	for _, s := range set {
		if s.hi < x.lo || s.lo > x.hi {
			out = append(out, s)
			continue
		}
		if s.lo < x.lo {
			out = append(out, span{s.lo, x.lo - 1})
		}
		if s.hi > x.hi {
			out = append(out, span{x.hi + 1, s.hi})
		}
	}
	return out
}
