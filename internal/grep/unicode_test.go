package grep

import (
	"context"
	"errors"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/errs"
)

// TestUnicodeClasses checks which strings each pattern matches whole:
// the Perl classes by Unicode in and out of brackets, negated, folded,
// quoted, and ASCII under Rust's (?-u).
func TestUnicodeClasses(t *testing.T) {
	for _, c := range []struct {
		pattern     string
		match, miss []string
	}{
		{`\w`, []string{"a", "é", "中", "٣", "\u0301", "_", "Ⓐ", "\u200d", "‿"}, []string{" ", "-", "\u00a0", "😀", "½"}},
		{`\W`, []string{" ", "-", "\u00a0", "😀"}, []string{"a", "é", "٣"}},
		{`\d`, []string{"0", "٣", "०", "３"}, []string{"a", "½", "²", "Ⅻ"}},
		{`\D`, []string{"a", "½", "²"}, []string{"0", "٣"}},
		{`\s`, []string{" ", "\t", "\v", "\u00a0", "\u3000", "\u0085", "\u2028", "\u202f"}, []string{"a", "\u200b", "\u200d"}},
		{`\S`, []string{"a", "\u200b"}, []string{" ", "\u3000", "\v"}},
		{`[\w-]`, []string{"é", "-", "a"}, []string{" ", "+"}},
		{`[^\s]`, []string{"é", "a"}, []string{"\u3000", " "}},
		{`[^\W\d]`, []string{"é", "_"}, []string{"٣", "0", " "}},
		{`[\W\d]`, []string{"٣", " "}, []string{"é", "_"}},
		{`[\D]`, []string{"a"}, []string{"٣"}},
		{`(?i)\w`, []string{"ſ", "\u212a", "Σ"}, []string{" "}},
		{`(?i)[^\W]`, []string{"ſ", "\u212a"}, []string{" "}},
		{`(?-u:\w)`, []string{"a", "_", "0"}, []string{"é", "٣"}},
		{`(?-u:\d)`, []string{"0"}, []string{"٣"}},
		{`(?-u:\s)`, []string{" ", "\v", "\t"}, []string{"\u00a0", "\u3000"}},
		{`(?-u:\W)`, []string{"é", " "}, []string{"a"}},
		{`(?-u:[\w])`, []string{"a"}, []string{"é"}},
		{`(?-u:[^\W])`, []string{"a"}, []string{"é", " "}},
		{`(?i-u:\w)`, []string{"a", "A"}, []string{"ſ", "\u212a"}},
		{`(?-u)\w(?u)\w`, []string{"aé"}, []string{"éa"}},
		{`(?-u:\w(?u:\w))\w`, []string{"aéé"}, []string{"éaé"}},
		{`(?-u:(\w))\w`, []string{"aé"}, []string{"éa"}},
		{`(?u:\w)`, []string{"é"}, nil},
		{`\Q\w\E\w`, []string{`\wé`}, []string{"aé"}},
		{`[\]\w]`, []string{"]", "é"}, []string{"["}},
		{`[\s-z]`, []string{" ", "-", "z", "\u3000"}, []string{"a", "y", "!"}}, // a '-' after a class is a literal
		{`[\s-\d]`, []string{" ", "-", "٣", "0"}, []string{"a", "!"}},
		{`(?-u:[\s-z])`, []string{" ", "-", "z"}, []string{"a", "!", "\u3000"}},
		{`[[:alpha:]\d]`, []string{"a", "٣"}, []string{"é"}},
		{`\p{Greek}\w`, []string{"αé"}, nil},
		{`\x{e9}\w`, []string{"éé"}, nil},
	} {
		for _, s := range c.match {
			if !matchesWhole(t, c.pattern, s) {
				t.Errorf("%s does not match %q", c.pattern, s)
			}
		}
		for _, s := range c.miss {
			if matchesWhole(t, c.pattern, s) {
				t.Errorf("%s matches %q", c.pattern, s)
			}
		}
	}
}

// matchesWhole reports whether the pattern matches all of s (one line).
func matchesWhole(t *testing.T, pattern, s string) bool {
	t.Helper()
	m, err := Compile(Options{Pattern: "^(?:" + pattern + ")$", CountOnly: true})
	if err != nil {
		t.Fatalf("%s: %v", pattern, err)
	}
	res, err := m.NewScanner().SearchBytes(context.Background(), []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return res.Matches > 0
}

// TestUnicodeWordBoundary: \b and \B by Unicode word characters.
func TestUnicodeWordBoundary(t *testing.T) {
	for _, c := range []struct {
		pattern, text string
		matches       int
	}{
		{`\bcaf\b`, "café", 0},
		{`\bcaf\b`, "caf é", 1},
		{`caf\B`, "café", 1},
		{`\bé`, " é", 1},
		{`\bé`, "aé", 0},
		{`é\b`, "é ", 1},
		{`\b٣`, "x ٣", 1},
		{`\b\w+\b`, "naïve résumé 中文", 3},
		{`\B`, "éé", 1},
		{`\b`, "\u3000é\u3000", 2},
		{`x\b`, "x\u0301", 0}, // a combining mark is a word character
	} {
		for _, ic := range []bool{false, true} {
			m, err := Compile(Options{Pattern: c.pattern, IgnoreCase: ic, CountOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			res, err := m.NewScanner().SearchBytes(context.Background(), []byte(c.text))
			if err != nil {
				t.Fatal(err)
			}
			if res.Matches != c.matches {
				t.Errorf("%s in %q (ignore case %v): %d matches, want %d", c.pattern, c.text, ic, res.Matches, c.matches)
			}
		}
	}
}

// TestUnicodeClassErrors: an invalid pattern's error is in the terms of
// the pattern as written, its position counted there; an ASCII word
// boundary says what to do.
func TestUnicodeClassErrors(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{`\w+(`, "Invalid regex: missing closing ): `\\w+(` at position 0"},
		{`\w[`, "Invalid regex: missing closing ]: `[` at position 2"},
		{`\d\s)`, "Invalid regex: unexpected ): `\\d\\s)` at position 0"},
		{`[a-\w]`, "Invalid regex: invalid escape sequence: `\\w` at position 3"},
		{`(?-u:\b)x`, "Invalid regex: an ASCII word boundary `(?-u:\\b)` is not supported: \\b and \\B are Unicode-aware; use \\b outside (?-u)"},
		{`(?-u)x\B`, "use \\B outside (?-u)"},
	} {
		_, err := Compile(Options{Pattern: c.pattern})
		var e *errs.Error
		if !errors.As(err, &e) || e.Code != errs.InvalidParam {
			t.Errorf("%s: %v, want an InvalidParam error", c.pattern, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q, want %q", c.pattern, err, c.want)
		}
	}
	// The u flag alone is no error, and (?u:\b) is Unicode.
	for _, p := range []string{`(?u)\b\w`, `(?-u:\w)(?u:\b)`, `(?i-u)\w`, `(?-u)`, `(?u:)`} {
		if _, err := Compile(Options{Pattern: p}); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestUnicodeWordTable checks isWordRune against the definition, and
// that \w is closed under simple case folding (what lets its class skip
// the parser's folding under (?i)).
func TestUnicodeWordTable(t *testing.T) {
	def := func(r rune) bool {
		return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r) ||
			unicode.IsMark(r) || unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Join_Control, r)
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		w := isWordRune(r)
		if w != def(r) {
			t.Fatalf("isWordRune(%U) = %v", r, w)
		}
		if w {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				if !isWordRune(f) {
					t.Fatalf("%U folds to %U, not a word character", r, f)
				}
			}
		}
	}
	if isWordRune(-1) || isWordRune(unicode.ReplacementChar) {
		t.Error("no text or an invalid byte is a word character")
	}
}

// FuzzUnicodeClasses checks the rewrite on arbitrary patterns: no panic;
// a pattern Go's parser accepts (the u flag taken out) is one whose
// rewrite it accepts too, unless it asks for an ASCII word boundary; and
// on ASCII text without \v, where the Unicode classes are Go's ASCII
// ones, the engine finds the matches of Go's regexp with the pattern as
// written (the u flag taken out).
func FuzzUnicodeClasses(f *testing.F) {
	for _, p := range []string{
		`\w`, `\W`, `\d`, `\D`, `\s`, `\S`, `[\w-]`, `[^\s]`, `[^\W\d]`, `[\W\d]`, `[\D]`, `(?i)\w`, `(?i)[^\W]`,
		`(?-u:\w)`, `(?-u:\d)`, `(?-u:\s)`, `(?-u:\W)`, `(?-u:[\w])`, `(?-u:[^\W])`, `(?i-u:\w)`, `(?-u)\w(?u)\w`,
		`(?-u:\w(?u:\w))\w`, `(?-u:(\w))\w`, `(?u:\w)`, `\Q\w\E\w`, `[\]\w]`, `[[:alpha:]\d]`, `\p{Greek}\w`, `\x{e9}\w`,
		`\bcaf\b`, `\B\w+\B`, `(?-u:\b)x`, `(?-u)x\B`, `[a-\w]`, `\w+(`, `(?P<n>\w)\s*`, `[\s-z]+`, `(?-u:[\s-z])`, `[\s-\d]`, `(?-u:[\d-])`,
	} {
		f.Add(p, "café x_1 a-b\tz\r\n  9z", uint8(0))
	}
	f.Fuzz(func(t *testing.T, pattern, hay string, flags uint8) {
		if len(pattern) > 40 || len(hay) > 256 {
			return
		}
		src, err := UnicodeClasses(pattern)
		if err != nil {
			if !strings.Contains(err.Error(), "ASCII word boundary") {
				t.Fatalf("UnicodeClasses(%q): %v", pattern, err)
			}
			return
		}
		if _, err := syntax.Parse(stripU(pattern), syntax.Perl); err != nil {
			return
		}
		if _, err := syntax.Parse(src, syntax.Perl); err != nil {
			t.Fatalf("%q is rewritten as %q: %v", pattern, src, err)
		}
		o := Options{Pattern: pattern, IgnoreCase: flags&1 != 0, Multiline: flags&2 != 0, DotAll: flags&4 != 0}
		if _, err := Compile(o); err != nil || strings.Contains(pattern, "{") {
			return // {n} repetitions can blow up
		}
		b := []byte(hay)
		for i, c := range b {
			if c >= utf8.RuneSelf || c == '\v' {
				b[i] = 'A' + c%26
			}
		}
		got, _ := allMatches(t, o, b, 0)
		var want [][2]int
		for _, x := range regexp.MustCompile(goPattern(Options{Pattern: stripU(pattern), IgnoreCase: o.IgnoreCase, Multiline: o.Multiline, DotAll: o.DotAll})).FindAllIndex(b, -1) {
			want = append(want, [2]int{x[0], x[1]})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q (as %q) on %q: %v, want %v", goPattern(o), stripU(pattern), b, got, want)
		}
	})
}
