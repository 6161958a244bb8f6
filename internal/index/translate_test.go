package index

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/scoutkit/scout/internal/grep"
)

func TestLineSafe(t *testing.T) {
	for _, tc := range []struct {
		pattern    string
		ignoreCase bool
		want       string
		fold       bool
		why        string
	}{
		{"MaxHeaderBytes", false, "MaxHeaderBytes", false, "a literal stays"},
		{"errorf", true, "ERRORF", true, "case folding becomes the flag, not (?i) (the parser keeps a folded literal in its smallest form)"},
		{"Foo(?i:bar)", false, "FooBAR", true, "a folded part folds the whole (a superset)"},
		{`a.b`, false, `(?-s:a.b)`, false, "dot never matches a newline"},
		{`(?s)a.b`, false, `(?-s:a.b)`, false, "not even with (?s)"},
		{`[^x]y`, false, `[^\nx]y`, false, "negated classes lose the newline"},
		{`\sfoo`, false, `[\t\v-\r \x85\xa0\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]foo`, false, `\s (Unicode) loses the newline`},
		{`\w+`, false, `[0-9A-Z_a-z\x80-\x{10ffff}]+`, false, `\w (Unicode) is widened to every character outside ASCII`},
		{`[^\W\d]x`, false, `[A-Z_a-z\x80-\x{10ffff}]x`, false, "so is a class built from them"},
		{`^func main`, false, `(?m:^\x{feff}?func main)`, false, "^ is a line start, maybe after a byte-order mark"},
		{`\Afunc`, false, `(?m:^\x{feff}?func)`, false, `\A is a line start too: Scout matches each line alone`},
		{`end$`, false, `(?m:end\r?$)`, false, "$ is a line end, maybe before a CR"},
		{`end\z`, false, `(?m:end\r?$)`, false, `\z likewise`},
		{`[\n-\r]`, false, `[\v-\r]`, false, "a class loses its newline"},
		{`\bé\b`, false, `(?:)é(?:)`, false, "word boundaries (Unicode) are left out"},
		{`\b\A`, false, `(?m:^\x{feff}?(?:))`, false, "a line start goes before the assertions beside it"},
		{`x$\B(\b)`, false, `(?m:x(?:)()\r?$)`, false, "a line end goes after them"},
		{`$^`, false, `(?m:^\x{feff}?\r?$)`, false, "an empty line may hold a mark or a CR"},
	} {
		got, fold, err := LineSafe(tc.pattern, tc.ignoreCase)
		if err != nil {
			t.Fatalf("%q: %v", tc.pattern, err)
		}
		if got != tc.want || fold != tc.fold {
			t.Errorf("LineSafe(%q, %v) = %q, %v; want %q, %v (%s)", tc.pattern, tc.ignoreCase, got, fold, tc.want, tc.fold, tc.why)
		}
	}
	for _, p := range []string{`a\nb`, `(`, `x{2,1}`} {
		if _, _, err := LineSafe(p, false); err == nil {
			t.Errorf("LineSafe(%q) succeeded", p)
		}
	}
}

// lineSafeHolds checks the two promises of LineSafe on one text: every
// match of the result lies within a line, and every file in which Scout's
// matcher finds a match has a match of the result (run as zoekt runs it:
// Go's regexp over the whole text, (?i) for the fold flag). Texts that
// start with a UTF-16 or UTF-32 byte-order mark are left out: zoekt holds
// them without content (they have NUL bytes) and Scout reads them itself.
func lineSafeHolds(t *testing.T, pattern string, ignoreCase bool, text []byte) {
	for _, bom := range []string{"\xff\xfe", "\xfe\xff", "\x00\x00\xfe\xff"} {
		if strings.HasPrefix(string(text), bom) {
			return
		}
	}
	m, err := grep.Compile(grep.Options{Pattern: pattern, IgnoreCase: ignoreCase, CountOnly: true})
	if err != nil {
		return
	}
	safe, fold, err := LineSafe(pattern, ignoreCase)
	if err != nil {
		if strings.Contains(err.Error(), "newline") {
			return
		}
		t.Fatalf("LineSafe(%q): %v", pattern, err)
	}
	src := safe
	if fold {
		src = "(?i)" + safe
	}
	re, err := regexp.Compile(src)
	if err != nil {
		t.Fatalf("LineSafe(%q) = %q does not compile: %v", pattern, safe, err)
	}
	for _, loc := range re.FindAllIndex(text, 100) {
		if strings.Contains(string(text[loc[0]:loc[1]]), "\n") {
			t.Fatalf("LineSafe(%q) = %q matches across a line: %q", pattern, safe, text[loc[0]:loc[1]])
		}
	}
	res, err := m.NewScanner().SearchBytes(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	if res.MatchLines > 0 && !re.Match(text) {
		t.Fatalf("Scout matches %q in %q (%d lines) but LineSafe's %q does not", pattern, text, res.MatchLines, src)
	}
}

func FuzzLineSafe(f *testing.F) {
	for _, s := range []struct {
		pattern string
		fold    bool
		text    string
	}{
		{"^foo$", false, "\ufefffoo\r\nbar\n"},
		{`foo\s+bar`, false, "foo\nbar\nfoo  bar\n"},
		{"sss", true, "ſſſ\n"},
		{"σ.ς", true, "Σxσ\n"},
		{`\Afunc`, false, "x\nfunc\n"},
		{`[^a]b`, false, "a\nb\n"},
		{`(?i)k\b`, false, "\u212a\r\n"},
		{`x$`, false, "x\r"},
		{`a.*z`, false, "a\nz"},
		{`\bword\b`, false, "\ufeffword\r\n"},
		{`(?m)^$`, false, "\n\n"},
		{`\x00`, false, "a\x00b\n"},
		{`\b\A`, false, "\ufeff0"},
		{`x$\b`, false, "x\r\n"},
		{`$^`, false, "\r\n"},
		{`\w+é\b`, false, "ça été\n"},
		{`\b\d\s\D`, false, "x ٣\u3000é\n"},
		{`[^\W\d]\B`, true, "ΣΑ\n"},
		{`(?-u:\w)\S`, false, "aé\n"},
	} {
		f.Add(s.pattern, s.fold, []byte(s.text))
	}
	f.Fuzz(func(t *testing.T, pattern string, fold bool, text []byte) {
		if len(pattern) > 200 || len(text) > 2000 {
			return
		}
		lineSafeHolds(t, pattern, fold, text)
	})
}
