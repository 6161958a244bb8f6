package fname

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote returns a file, directory or archive member name as text shows
// it: unchanged when it is valid UTF-8 and holds no control character, no
// invisible format character (a bidi override, a zero-width space) and no
// line or paragraph separator; else in Go's double-quoted form
// (strconv.Quote), as git's core.quotePath quotes unusual names. So a name
// cannot forge a line of the text or reorder what is shown, and a name
// that is not UTF-8 keeps its bytes (`"a\n*1|fake"`, `"b\xffc"`); Unquote
// reads the form back, and Quote leaves it as it is. Spaces of every kind
// (U+00A0, the U+202F of a macOS screenshot's name) stay as they are. The
// common name costs one pass over its bytes and no allocation.
func Quote(name string) string {
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= utf8.RuneSelf:
			return quoteRunes(name, i)
		case c < ' ' || c == 0x7f:
			return strconv.Quote(name)
		}
	}
	return name
}

// quoteRunes is Quote from name[i:], the first byte that is not ASCII.
func quoteRunes(name string, i int) string {
	for i < len(name) {
		r, size := utf8.DecodeRuneInString(name[i:])
		if r == utf8.RuneError && size == 1 || hidden(r) {
			return strconv.Quote(name)
		}
		i += size
	}
	return name
}

// hidden reports a rune that a name must not show raw: a control
// character, an invisible format character or a line or paragraph
// separator.
func hidden(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp)
}

// QuoteJoin joins names with ", ", each as Quote shows it.
func QuoteJoin(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Quote(n))
	}
	return b.String()
}

// WireName is a name as JSON carries it: unchanged when it is valid UTF-8
// (JSON escapes control characters itself), else Quote's form, which
// Unquote reads back, where JSON would replace each invalid byte by
// U+FFFD.
func WireName(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	return strconv.Quote(name)
}

// Unquote reads back the names Quote shows: it returns s with each segment
// in Go's double-quoted form replaced by its value, and whether there was
// one. A segment starts at the start of s or after '/' or ':' and ends at
// the end of s or before '/' or ':', so that a whole path (`"a\n*1|fake"`),
// a name in a directory (`dir/"b\xffc"`), an archive member
// (`a.zip:"m\n"`) and a quoted path before a selector (`"a\n":5-9`) are
// read. s is returned as is, with false, when it has no such segment.
func Unquote(s string) (string, bool) {
	if strings.IndexByte(s, '"') < 0 {
		return s, false
	}
	var b strings.Builder
	done := 0 // s[:done] is in b
	for i := 0; i < len(s); i++ {
		if s[i] != '"' || i > 0 && s[i-1] != '/' && s[i-1] != ':' {
			continue
		}
		q, err := strconv.QuotedPrefix(s[i:])
		if err != nil {
			continue
		}
		end := i + len(q)
		if end < len(s) && s[end] != '/' && s[end] != ':' {
			continue
		}
		v, err := strconv.Unquote(q)
		if err != nil {
			continue
		}
		b.WriteString(s[done:i])
		b.WriteString(v)
		done = end
		i = end - 1
	}
	if done == 0 {
		return s, false
	}
	b.WriteString(s[done:])
	return b.String(), true
}
