package grep

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// diffPatterns are the patterns of the differential tests, chosen to hit
// every path: complete literals (no verification), literal prefilters with
// DFA verification, folded literals, the DFA alone, assertions, and
// whole-line patterns.
var diffPatterns = []string{
	"a", "b", "ab", "ba|ab", "a+b", "a*b", "aa", "é", "aé", "bé|ab",
	"^a", "a$", "^$", "^", "$", "(?m)^b$", "(?i)A", "(?i)AB", "(?i)é", "(?i)É+",
	"[^a]", `\bb`, `b\b`, `\Bb`, `\w+`, `\W`, ".", "a.b", ".$",
	"\r", `\x{FFFD}`, "(a|b)*é", "[aé]+", "a{2}", "x", "", "é$", "(?i)ab|é",
	`a\b`, `[ab]b`, `b?a`, `a\r`, `\pL+a`,
	// Unicode-aware Perl classes and word boundaries.
	`\bé`, `é\b`, `\Bé`, `é\B`, `\b\w+\b`, `\d`, `\D+`, `\s\S`, `[\w-]+`, `[^\s]+`,
	`[^\W\d]`, `(?i)\w\b`, `(?-u:\w)+`, `(?-u:\s)`, `\b.`,
}

// alphabet for the exhaustive sweep: letters, both line terminators and a
// multi-byte rune.
var sweepAlphabet = []string{"a", "b", "\n", "\r", "é"}

// randAlphabet adds a NUL, an invalid UTF-8 byte, and characters that
// Unicode's Perl classes take and ASCII's do not (or the reverse): an
// Arabic-Indic digit, NBSP, ideographic space, a Greek letter, a
// combining mark, a CJK ideograph, NEL, \v, the Kelvin sign.
var randAlphabet = []string{"a", "b", "\n", "\r", "é", "\x00", "\xff", "A", " ",
	"٣", "\u00a0", "\u3000", "ς", "\u0301", "中", "\u0085", "\v", "K"}

// randOptions draws search options for a pattern.
func randOptions(r *rand.Rand, pattern string) Options {
	o := Options{Pattern: pattern}
	o.Before = r.IntN(3)
	o.After = r.IntN(3)
	if r.IntN(3) == 0 {
		o.MaxColumns = 1 + r.IntN(4)
	}
	if r.IntN(3) == 0 {
		o.MaxMatchesPerFile = 1 + r.IntN(2)
	}
	switch r.IntN(6) {
	case 0:
		o.CountOnly = true
	case 1:
		o.FirstOnly = true
	case 2:
		o.CountOnly, o.FirstOnly = true, true
	}
	if r.IntN(4) == 0 {
		o.LineRanges = [][2]int{{2, 3}}
		if r.IntN(2) == 0 {
			o.LineRanges = append(o.LineRanges, [2]int{5, 0})
		}
	}
	switch r.IntN(4) {
	case 0:
		o.BinaryScan = 2
	case 1:
		o.BinaryScan = 5
	case 2:
		o.BinaryScan = -1
	}
	if r.IntN(5) == 0 {
		o.Multiline = true
		if m, err := Compile(o); err == nil && m.whole {
			o.Multiline = false // the line reference cannot check whole-file mode
		}
	}
	return o
}

// TestDifferentialSweep compares the engine with the line-by-line regexp
// reference on every string of up to 5 symbols over a small alphabet,
// for every pattern, with options drawn at random (fixed seed).
func TestDifferentialSweep(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	maxLen := 5
	if testing.Short() {
		maxLen = 4
	}
	var inputs []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		inputs = append(inputs, prefix)
		if n == 0 {
			return
		}
		for _, s := range sweepAlphabet {
			gen(prefix+s, n-1)
		}
	}
	gen("", maxLen)
	failures := 0
	for pi, p := range diffPatterns {
		for i, in := range inputs {
			if len(in) >= 5 && (pi+i)%3 != 0 {
				continue // the longest inputs: a third of them per pattern
			}
			o := Options{Pattern: p}
			if i%3 != 0 {
				o = randOptions(r, p)
			}
			// One input in 8 also through a mapped file (a file per input
			// costs more than the search).
			if msg := searchVariants(t, o, []byte(in), refSearch(o, []byte(in)), i%8 == 0); msg != "" {
				t.Error(msg)
				if failures++; failures > 5 {
					t.FailNow()
				}
			}
		}
	}
}

// TestDifferentialRandom compares on longer random inputs that include NUL
// and invalid UTF-8.
func TestDifferentialRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 3000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		var b []byte
		for k := r.IntN(40); k > 0; k-- {
			b = append(b, randAlphabet[r.IntN(len(randAlphabet))]...)
		}
		p := diffPatterns[r.IntN(len(diffPatterns))]
		o := randOptions(r, p)
		if r.IntN(4) == 0 {
			o.IgnoreCase = true
		}
		if msg := searchAll(t, o, b, refSearch(o, b)); msg != "" {
			t.Fatal(msg)
		}
	}
}

// FuzzSearch checks the engine against the reference on arbitrary data
// and a pattern from the list.
func FuzzSearch(f *testing.F) {
	f.Add([]byte("a\nb\r\nab é\n"), uint8(0), uint64(0))
	f.Add([]byte("\xffa\x00b\n\nba"), uint8(7), uint64(12345))
	f.Add([]byte("é\r\r\n\nAB"), uint8(18), uint64(99))
	f.Fuzz(func(t *testing.T, data []byte, pi uint8, seed uint64) {
		if len(data) > 256 {
			return
		}
		r := rand.New(rand.NewPCG(seed, 7))
		p := diffPatterns[int(pi)%len(diffPatterns)]
		o := randOptions(r, p)
		o.IgnoreCase = seed%5 == 0
		if msg := searchAll(t, o, data, refSearch(o, data)); msg != "" {
			t.Fatal(msg)
		}
	})
}

// wholePatterns can match a newline or anchor at the text's ends, so with
// Multiline or DotAll the whole file is searched as one text.
var wholePatterns = []string{
	"a\nb", "\n", "a\n*b", "(?s)a.b", ".\n.", `\s+`, "[^a]+", "b$\n^a", "(?s).+", "\r\n", "é\n", "(?i)A\nB", "^\n", "\n*", "(?m)$",
	`\Aa`, `b\z`, `(?-m)^a|b$`, `\A`, `\z`, `\A\z`, `a\z|\Ab`, `\n\z`,
}

// TestDifferentialWhole compares whole-file searches with the reference
// built on one regexp run over the whole text.
func TestDifferentialWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	wholeRuns := 0
	n := 3000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		var b []byte
		for k := r.IntN(30); k > 0; k-- {
			b = append(b, randAlphabet[r.IntN(len(randAlphabet))]...)
		}
		o := randOptions(r, wholePatterns[r.IntN(len(wholePatterns))])
		o.Multiline, o.DotAll = r.IntN(2) == 0, r.IntN(2) == 0
		m, err := Compile(o)
		if errors.Is(err, ErrNewline) {
			continue // outside multiline mode
		}
		if err != nil {
			t.Fatal(err)
		}
		if !m.whole {
			continue // line mode: covered above
		}
		wholeRuns++
		if msg := searchAll(t, o, b, refSearch(o, b)); msg != "" {
			t.Fatal(msg)
		}
	}
	if wholeRuns < n/2 {
		t.Errorf("only %d of %d cases ran in whole-file mode", wholeRuns, n)
	}
}

// FuzzPattern checks arbitrary patterns (literal extraction, the DFA's
// handling of assertions and classes) against the reference.
func FuzzPattern(f *testing.F) {
	for i, p := range append(diffPatterns, wholePatterns...) {
		f.Add(p, []byte("ab\r\nba é\n\nxAb"), uint64(i))
	}
	f.Add(`(?i)k\b|[^\s]{2}$`, []byte("K\nok\nſs"), uint64(3))
	f.Fuzz(func(t *testing.T, pattern string, data []byte, seed uint64) {
		if len(pattern) > 24 || len(data) > 128 || strings.Contains(pattern, "{") {
			return // keep each case fast; {n} repetitions can blow up
		}
		r := rand.New(rand.NewPCG(seed, 11))
		o := randOptions(r, pattern)
		o.IgnoreCase = seed%3 == 0
		if _, err := Compile(o); err != nil {
			return
		}
		if msg := searchAll(t, o, data, refSearch(o, data)); msg != "" {
			t.Fatal(msg)
		}
	})
}
