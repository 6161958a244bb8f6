package grep

import (
	"fmt"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/errs"
)

// Perl classes and word boundaries as Rust's regex crate (ripgrep's
// engine) defines them by default, Unicode-aware: \w is a letter or other
// alphabetic character, a mark, a decimal digit, a connector punctuation
// or a join control; \d a decimal digit (Nd); \s a White_Space character;
// \b holds between a character of \w and one outside it (or a text or
// line end). Go's regexp/syntax gives them their ASCII meaning, so the
// pattern is rewritten before it is parsed (UnicodeClasses), and the
// automata test word characters with isWordRune.

// perlRanges are the sorted, disjoint [lo, hi] pairs of the Unicode
// classes: word (\w), digit (\d), space (\s), and their complements.
type perlRanges struct {
	word, digit, space       []rune
	notWord, notDigit, notSp []rune
	bmpWord                  [0x10000 / 64]uint64 // \w in the Basic Multilingual Plane: bit r%64 of word r/64
}

var unicodePerl = sync.OnceValue(func() *perlRanges {
	word := tableRanges(unicode.L, unicode.Nl, unicode.Other_Alphabetic, unicode.M, unicode.Nd, unicode.Pc, unicode.Join_Control)
	digit := tableRanges(unicode.Nd)
	space := tableRanges(unicode.White_Space)
	p := &perlRanges{word: word, digit: digit, space: space,
		notWord: complement(word), notDigit: complement(digit), notSp: complement(space)}
	for i := 0; i < len(word) && word[i] <= 0xFFFF; i += 2 {
		for r := word[i]; r <= min(word[i+1], 0xFFFF); r++ {
			p.bmpWord[r/64] |= 1 << (r % 64)
		}
	}
	return p
})

// tableRanges returns the union of the tables as sorted, merged [lo, hi]
// pairs.
func tableRanges(tabs ...*unicode.RangeTable) []rune {
	var pairs [][2]rune
	add := func(lo, hi, stride rune) {
		if stride == 1 {
			pairs = append(pairs, [2]rune{lo, hi})
			return
		}
		for c := lo; c <= hi; c += stride {
			pairs = append(pairs, [2]rune{c, c})
		}
	}
	for _, t := range tabs {
		for _, r := range t.R16 {
			add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
		for _, r := range t.R32 {
			add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
		}
	}
	slices.SortFunc(pairs, func(a, b [2]rune) int { return int(a[0] - b[0]) })
	var out []rune
	for _, p := range pairs {
		if n := len(out); n > 0 && p[0] <= out[n-1]+1 {
			out[n-1] = max(out[n-1], p[1])
			continue
		}
		out = append(out, p[0], p[1])
	}
	return out
}

// complement returns the runes outside the sorted [lo, hi] pairs.
func complement(ranges []rune) []rune {
	var out []rune
	next := rune(0)
	for i := 0; i < len(ranges); i += 2 {
		if ranges[i] > next {
			out = append(out, next, ranges[i]-1)
		}
		next = ranges[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

// wordASCII is \w on ASCII, by byte.
var wordASCII = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = syntax.IsWordChar(rune(c))
	}
	return
}()

// isWordRune reports whether r is a word character of Unicode \w (r < 0:
// none, the text's end; an invalid byte, read as U+FFFD, is not).
func isWordRune(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return wordASCII[r]
	}
	if r < 0 {
		return false
	}
	u := unicodePerl()
	if r <= 0xFFFF {
		return u.bmpWord[r/64]>>(r%64)&1 != 0
	}
	// The number of bounds <= r is odd inside a range.
	i, found := slices.BinarySearch(u.word, r)
	return found || i&1 == 1
}

// UnicodeClasses rewrites pattern, in Go's RE2 syntax, so that Go's
// parser gives \w, \d, \s, \W, \D and \S, in or out of a bracket class,
// their Unicode meaning in Rust's regex crate: each becomes its class of
// ranges. Rust's u flag is taken out of the flag groups ((?u), (?-u:...),
// (?i-u)), which Go's parser refuses: where it is off, the classes are
// ASCII as in Rust ([0-9A-Za-z_], [0-9], [\t\n\v\f\r ]), and a \b or \B
// there is an error (the automata's word boundaries are Unicode-aware).
// Everything else is copied as it is, errors included (the parser reports
// them); a pattern without a backslash or a flag group is returned as it
// is.
func UnicodeClasses(pattern string) (string, error) {
	return rewritePerl(pattern, true)
}

// stripU is pattern without Rust's u flag, its Perl classes as they are
// (Go's ASCII ones): what errors are reported from.
func stripU(pattern string) string {
	s, _ := rewritePerl(pattern, false)
	return s
}

// rewritePerl is UnicodeClasses; with expand false it only takes the u
// flag out.
func rewritePerl(pattern string, expand bool) (string, error) {
	if !strings.Contains(pattern, `\`) && !strings.Contains(pattern, "(?") {
		return pattern, nil
	}
	var b strings.Builder
	ascii := false // the u flag is off
	var stack []bool
	p := pattern
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			e := p[i+1]
			switch {
			case e == 'Q':
				j := strings.Index(p[i+2:], `\E`)
				n := len(p) - i
				if j >= 0 {
					n = 2 + j + 2
				}
				b.WriteString(p[i : i+n])
				i += n
				continue
			case strings.IndexByte("wWdDsS", e) >= 0 && expand:
				writePerl(&b, e, ascii, false)
				i += 2
				continue
			case (e == 'b' || e == 'B') && ascii && expand:
				return "", errs.New(errs.InvalidParam, "Invalid regex: an ASCII word boundary `(?-u:\\%c)` is not supported: \\b and \\B are Unicode-aware; use \\%c outside (?-u)", e, e)
			}
			i += copyEscape(&b, p, i)
		case c == '[':
			i += copyClass(&b, p, i, ascii, expand)
		case c == '(':
			if n, set, on, ok := flagGroup(&b, p, i); ok {
				if p[i+n-1] == ':' {
					stack = append(stack, ascii)
				}
				if set {
					ascii = !on
				}
				i += n
				continue
			}
			stack = append(stack, ascii)
			b.WriteByte(c)
			i++
		case c == ')':
			if n := len(stack); n > 0 {
				ascii, stack = stack[n-1], stack[:n-1]
			}
			b.WriteByte(c)
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// copyEscape copies the escape at p[i] (a backslash and at least one more
// byte) and returns its length: \p{...}, \P{...} and \x{...} whole,
// anything else as its first two bytes.
func copyEscape(b *strings.Builder, p string, i int) int {
	n := 2
	if strings.IndexByte("pPx", p[i+1]) >= 0 && i+2 < len(p) && p[i+2] == '{' {
		if j := strings.IndexByte(p[i+2:], '}'); j >= 0 {
			n = 2 + j + 1
		}
	}
	b.WriteString(p[i : i+n])
	return n
}

// copyClass copies the bracket class at p[i], its Perl classes expanded
// in place, and returns its length (to the end of p if it is not closed).
func copyClass(b *strings.Builder, p string, i int, ascii, expand bool) int {
	start := i
	b.WriteByte('[')
	i++
	if i < len(p) && p[i] == '^' {
		b.WriteByte('^')
		i++
	}
	if i < len(p) && p[i] == ']' { // a literal ']' first
		b.WriteByte(']')
		i++
	}
	for i < len(p) {
		c := p[i]
		switch {
		case c == ']':
			b.WriteByte(']')
			return i + 1 - start
		case c == '[' && strings.HasPrefix(p[i:], "[:"):
			if j := strings.Index(p[i+2:], ":]"); j >= 0 {
				b.WriteString(p[i : i+2+j+2])
				i += 2 + j + 2
				continue
			}
			b.WriteByte(c)
			i++
		case c == '\\' && i+1 < len(p):
			if strings.IndexByte("wWdDsS", p[i+1]) >= 0 && expand {
				writePerl(b, p[i+1], ascii, true)
				i += 2
				continue
			}
			i += copyEscape(b, p, i)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return i - start
}

// flagGroup recognises a flag group at p[i], "(?flags)" or "(?flags:",
// whose flags include Rust's u: it writes the group without it and
// returns its length, whether u is set or cleared (set) and to what (on).
// ok is false for any other group, which the caller copies.
func flagGroup(b *strings.Builder, p string, i int) (n int, set, on, ok bool) {
	if !strings.HasPrefix(p[i:], "(?") {
		return 0, false, false, false
	}
	var pos, neg []byte
	sign := true
	for j := i + 2; j < len(p); j++ {
		switch c := p[j]; c {
		case 'i', 'm', 's', 'U', 'u':
			switch {
			case c == 'u':
				set, on = true, sign
			case sign:
				pos = append(pos, c)
			default:
				neg = append(neg, c)
			}
		case '-':
			if !sign {
				return 0, false, false, false
			}
			sign = false
		case ':', ')':
			if !set {
				return 0, false, false, false // no u: copied as it is
			}
			g := string(pos)
			if len(neg) > 0 {
				g += "-" + string(neg)
			}
			switch {
			case c == ':':
				b.WriteString("(?" + g + ":")
			case g != "":
				b.WriteString("(?" + g + ")")
			}
			return j + 1 - i, set, on, true
		default:
			return 0, false, false, false
		}
	}
	return 0, false, false, false
}

// perlTexts caches writePerl's texts, by perlKey.
var perlTexts sync.Map

// writePerl writes the class of the Perl escape \e: Unicode, or ASCII
// where the u flag is off; inside a bracket class (in) as ranges only.
// Outside one the class is not folded by (?i): the Unicode classes are
// closed under case folding already, and Rust's ASCII ones do not fold
// to ſ or K.
func writePerl(b *strings.Builder, e byte, ascii, in bool) {
	key := string([]byte{e, boolByte(ascii), boolByte(in)})
	if t, ok := perlTexts.Load(key); ok {
		b.WriteString(t.(string))
		return
	}
	neg := e == 'W' || e == 'D' || e == 'S'
	var ranges []rune
	if ascii {
		switch e {
		case 'w', 'W':
			ranges = []rune{'0', '9', 'A', 'Z', '_', '_', 'a', 'z'}
		case 'd', 'D':
			ranges = []rune{'0', '9'}
		default:
			ranges = []rune{'\t', '\r', ' ', ' '}
		}
		if in && neg {
			ranges = complement(ranges)
		}
	} else {
		u := unicodePerl()
		switch {
		case e == 'w' || e == 'W' && !in:
			ranges = u.word
		case e == 'W':
			ranges = u.notWord
		case e == 'd' || e == 'D' && !in:
			ranges = u.digit
		case e == 'D':
			ranges = u.notDigit
		case e == 's' || e == 'S' && !in:
			ranges = u.space
		default:
			ranges = u.notSp
		}
	}
	var t strings.Builder
	if !in {
		t.WriteString("(?-i:[")
		if neg {
			t.WriteByte('^')
		}
	}
	for k := 0; k < len(ranges); k += 2 {
		// In a bracket class, the last character is written as a range
		// too: a '-' after the escape ([\s-z]) is then a literal, as it
		// is after a class, not the start of a range from it.
		if ranges[k] == ranges[k+1] && (!in || k+2 < len(ranges)) {
			fmt.Fprintf(&t, `\x{%X}`, ranges[k])
		} else {
			fmt.Fprintf(&t, `\x{%X}-\x{%X}`, ranges[k], ranges[k+1])
		}
	}
	if !in {
		t.WriteString("])")
	}
	perlTexts.Store(key, t.String())
	b.WriteString(t.String())
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
