package zoekt

import (
	"errors"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

// zoektToken models the tokenizer of zoekt's query parser: it returns the
// text of the first atom of in and the bytes it took. An atom ends at an
// unescaped space, tab or newline, or at a ')' that closes no '(' of the
// atom; '(' and ')' are counted inside classes too; a backslash pair is
// kept as it is; a '"' starts a quoted string whose backslashes only
// escape the next byte and are dropped.
func zoektToken(in string) (string, int, error) {
	var cur []byte
	left := in
	parens := 0
loop:
	for len(left) > 0 {
		c := left[0]
		switch c {
		case '(':
			parens++
			cur = append(cur, c)
			left = left[1:]
		case ')':
			if parens == 0 {
				if len(cur) == 0 {
					cur = []byte{')'}
					left = left[1:]
				}
				break loop
			}
			parens--
			cur = append(cur, c)
			left = left[1:]
		case '"':
			left = left[1:]
			closed := false
			for len(left) > 0 && !closed {
				c := left[0]
				left = left[1:]
				switch c {
				case '"':
					closed = true
				case '\\':
					if len(left) == 0 {
						return "", 0, errors.New("missing char after \\")
					}
					cur = append(cur, left[0])
					left = left[1:]
				default:
					cur = append(cur, c)
				}
			}
			if !closed {
				return "", 0, errors.New("unterminated quoted string")
			}
		case '\\':
			left = left[1:]
			if len(left) == 0 {
				return "", 0, errors.New("lone \\ at end")
			}
			cur = append(cur, '\\', left[0])
			left = left[1:]
		case ' ', '\n', '\t':
			break loop
		default:
			cur = append(cur, c)
			left = left[1:]
		}
	}
	return string(cur), len(in) - len(left), nil
}

// roundTrips checks that the atom "content:"+escapeValue(re) reaches
// zoekt's regex parser whole and means re.
func roundTrips(t *testing.T, re string) {
	t.Helper()
	want, err := syntax.Parse(re, zoektFlags)
	if err != nil {
		return
	}
	atom := "content:" + escapeValue(re)
	text, n, err := zoektToken(atom)
	if err != nil || n != len(atom) {
		t.Fatalf("%q: the atom %q is cut after %d bytes (%v)", re, atom, n, err)
	}
	got, err := syntax.Parse(strings.TrimPrefix(text, "content:"), zoektFlags)
	if err != nil {
		t.Fatalf("%q: zoekt would read %q: %v", re, text, err)
	}
	if got.String() != want.String() {
		t.Fatalf("%q: zoekt would read %q, which means %q, not %q", re, text, got.String(), want.String())
	}
}

func TestEscapeValue(t *testing.T) {
	for _, tc := range []struct{ re, want string }{
		{`Errorf\(\s+"`, `Errorf\(\s+\"`},
		{`[^)]+`, `[^\)]+`},
		{`[(]`, `[\(]`},
		{`a b`, `a\x20b`},
		{"a\tb", `a\tb`},
		{`"quoted"`, `\"quoted\"`},
		{`(?:a|b)c`, `(?:a|b)c`},
		{`[]()]`, `[]\(\)]`},
		{`[^]"]`, `[^]\"]`},
		{`\\ x`, `\\\x20x`},
	} {
		if got := escapeValue(tc.re); got != tc.want {
			t.Errorf("escapeValue(%q) = %q, want %q", tc.re, got, tc.want)
		}
		roundTrips(t, tc.re)
	}
}

func FuzzEscapeValue(f *testing.F) {
	for _, s := range []string{`Errorf\(\s+"`, `[^)]`, `a b`, `"x"`, `[ ")(]`, `\(\)`, `(?i:x)`, `[\]]`, "\t\n", `\pL+ \d`, `a{2,3}`, `(a)(b)`, `[[:space:]]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		re, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil || len(pattern) > 100 {
			return
		}
		// What reaches escapeValue is always a regex as syntax prints it
		// (never the user's text, whose \Q...\E would hold the escapes).
		roundTrips(t, re.String())
	})
}

func TestContentQuery(t *testing.T) {
	for _, tc := range []struct {
		re       string
		fold     bool
		caseAtom string
		content  string
		why      string
	}{
		{"MaxHeaderBytes", false, "case:yes", "content:MaxHeaderBytes", "case-sensitive: the regex as it is"},
		{"ERRORF", true, "case:no", "content:errorf", "no letter with an odd lowercase: one atom"},
		{"KEY", true, "case:no", "content:key", "K: the Kelvin sign lowercases to k too"},
		{"RESPONSE", true, "case:no", "(content:response or content:responſe or content:reſponse or content:reſponſe)", "s folds with ſ, whose lowercase is itself"},
		{"Σ", true, "case:no", "(content:σ or content:ς)", "final sigma"},
		{"(?:FOO|BAR)", true, "case:no", "(content:foo or content:bar)", "an alternation of literals"},
		{`S\w+`, true, "case:no", `content:[Ssſ][0-9A-Z_a-z]+`, "a regex: s becomes the class of its orbit"},
		{`a b"`, false, "case:yes", `content:a\x20b\"`, "escaped for the tokenizer"},
	} {
		caseAtom, content, err := contentQuery(tc.re, tc.fold)
		if err != nil {
			t.Fatalf("%q: %v", tc.re, err)
		}
		if caseAtom != tc.caseAtom || content != tc.content {
			t.Errorf("contentQuery(%q, %v) = %q %q, want %q %q (%s)", tc.re, tc.fold, caseAtom, content, tc.caseAtom, tc.content, tc.why)
		}
	}
	if _, _, err := contentQuery("(", false); err == nil {
		t.Error("a bad regex was accepted")
	}
	// Too many spellings: a regex with classes instead.
	_, content, _ := contentQuery(strings.Repeat("S", 10), true)
	if !strings.HasPrefix(content, "content:[Ssſ]") {
		t.Errorf("ten s: %q", content)
	}
}

func TestSpellings(t *testing.T) {
	if got := spellings("ks"); !slices.Equal(got, []string{"ks", "kſ"}) {
		t.Errorf("spellings(ks) = %q", got)
	}
	if got := lowerForms('µ'); len(got) != 2 {
		t.Errorf("lowerForms(µ) = %q: µ folds with μ, whose lowercase differs", got)
	}
}
