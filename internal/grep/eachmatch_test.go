package grep

import (
	"bytes"
	"context"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allMatches returns the matches that Scanner.eachMatch finds in hay and
// those of regexp's FindAllIndex, for comparison. cache, when positive,
// shrinks the automata's caches (to make them flush or go uncached).
func allMatches(t testing.TB, o Options, hay []byte, cache int) (got, want [][2]int) {
	t.Helper()
	m, err := Compile(o)
	if err != nil {
		t.Fatal(err)
	}
	s := m.NewScanner()
	if cache > 0 {
		fwd, back := s.matchDFAs()
		shrinkCache(fwd, cache)
		shrinkCache(back, cache)
	}
	if !s.eachMatch(hay, true, func(a, b int) bool { got = append(got, [2]int{a, b}); return true }) {
		t.Fatal("eachMatch stopped without a context")
	}
	var ends []int
	s.eachMatch(hay, false, func(a, b int) bool { ends = append(ends, b); return true })
	if len(ends) != len(got) {
		t.Errorf("%d ends without starts, %d with", len(ends), len(got))
	}
	for i := range min(len(ends), len(got)) {
		if ends[i] != got[i][1] {
			t.Errorf("end %d without starts, %d with", ends[i], got[i][1])
			break
		}
	}
	for _, x := range mustRef(goPattern(o)).FindAllIndex(hay, -1) {
		want = append(want, [2]int{x[0], x[1]})
	}
	return got, want
}

// shrinkCache sets the budget of d's cache to n bytes, which it may not
// grow, to make it flush or go uncached.
func shrinkCache(d *mdfa, n int) { d.limit, d.growth = n, nil }

// goPattern is the pattern of o for regexp, with the option flags.
func goPattern(o Options) string {
	flags := ""
	if o.IgnoreCase {
		flags += "i"
	}
	if o.Multiline {
		flags += "m"
	}
	if o.DotAll {
		flags += "s"
	}
	if flags == "" {
		return o.Pattern
	}
	return "(?" + flags + ")" + o.Pattern
}

// TestEachMatch: the match automata find FindAllIndex's matches: empty
// ones, assertions looking at the text around a match, leftmost-first
// alternations, Unicode and invalid bytes, whole texts with newlines, and
// with a cache too small to hold the states (flushes, then uncached
// stepping).
func TestEachMatch(t *testing.T) {
	tests := []struct {
		o   Options
		hay string
	}{
		{Options{Pattern: `a*`}, "baaac aa"},
		{Options{Pattern: `x*`}, "héllo wörld"},
		{Options{Pattern: `(?:)`}, "abc"},
		{Options{Pattern: `a|`}, "banana"},
		{Options{Pattern: `\d*?`}, "a1b22"},
		{Options{Pattern: `[a-z]+`}, "one two  three"},
		{Options{Pattern: `o$`}, "foo o"},
		{Options{Pattern: `é+|`}, "ééaé"},
		{Options{Pattern: `(?i)AB`}, "abABaB"},
		{Options{Pattern: `.`}, "a\xffb\xe2\x82"},
		{Options{Pattern: `^a`}, "aaa"},
		{Options{Pattern: `\bword\b`}, "word sword words word"},
		{Options{Pattern: `x\B`}, "xx x xy"},
		{Options{Pattern: `\B`}, "ab cd"},
		{Options{Pattern: `a|ab`}, "abab"},
		{Options{Pattern: `ab|a`}, "abab"},
		{Options{Pattern: `a.*z|b`}, "a b z b"},
		{Options{Pattern: `(a+)(b+)?`}, "aab ab a"},
		{Options{Pattern: `a*?b|a`}, "aaab aa"},
		{Options{Pattern: `[^a]+`}, "bbabba"},
		{Options{Pattern: `^$`, Multiline: true}, "a\n\nb\n"},
		{Options{Pattern: `^b|a$`, Multiline: true}, "ba\nab\nb"},
		{Options{Pattern: `\Aa|b\z`, Multiline: true}, "ab\nab"},
		{Options{Pattern: `a\nb`, Multiline: true}, "a\nb\na\nb"},
		{Options{Pattern: `.+`, DotAll: true}, "a\nb"},
		{Options{Pattern: `\s+`, Multiline: true}, "a \n b\n\nc"},
		{Options{Pattern: `[A-Z][a-z]+[0-9]{2,}[a-z]`}, "Abc12d xyz Hello99x Ab1c"},
		{Options{Pattern: `(a|b)*a(a|b){5}`}, strings.Repeat("abbabaababbbaab", 20)},
		{Options{Pattern: `\w+\d`}, "ab1 cd ef22 é3"},
		{Options{Pattern: `(?i)straße|k`}, "STRASSE Straße K \u212a"},
		{Options{Pattern: `\x{FFFD}`}, "a\xffb�"},
		{Options{Pattern: `$`}, "ab"},
		{Options{Pattern: `\b`}, "ab cd"},
	}
	for _, tt := range tests {
		for _, cache := range []int{0, 1 << 11} {
			if got, want := allMatches(t, tt.o, []byte(tt.hay), cache); !slices.Equal(got, want) {
				t.Errorf("%q on %q (cache %d): %v, want %v", goPattern(tt.o), tt.hay, cache, got, want)
			}
		}
	}
}

// TestEachMatchUncached: a pattern whose states thrash the cache makes the
// automata step uncached, with the same matches.
func TestEachMatchUncached(t *testing.T) {
	o := Options{Pattern: `(a|b)*a(a|b){12}`}
	m, err := Compile(o)
	if err != nil {
		t.Fatal(err)
	}
	s := m.NewScanner()
	fwd, back := s.matchDFAs()
	shrinkCache(fwd, 64<<10)
	shrinkCache(back, 64<<10)
	hay := make([]byte, 60_000)
	for i, x := 0, uint32(1); i < len(hay); i++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		hay[i] = "ab"[x&1]
		if i%1000 == 999 {
			hay[i] = ' '
		}
	}
	var got [][2]int
	s.eachMatch(hay, true, func(a, b int) bool { got = append(got, [2]int{a, b}); return true })
	var want [][2]int
	for _, x := range mustRef(o.Pattern).FindAllIndex(hay, -1) {
		want = append(want, [2]int{x[0], x[1]})
	}
	if !slices.Equal(got, want) {
		t.Errorf("%d matches, want %d", len(got), len(want))
	}
	if !fwd.raw {
		t.Errorf("the forward automaton did not go uncached: the test tests nothing")
	}
}

// TestEachMatchLargeStates: a pattern of few but large states (a{1000}$
// passes through a thousand states of up to a thousand threads each, to
// stay in the last) fills the cache on its way but does not thrash it, so
// the automata stay cached: uncached, a line of 1 MB took 52 s.
func TestEachMatchLargeStates(t *testing.T) {
	const n = 20_000
	for _, c := range []struct {
		pat  string
		hay  string
		want [2]int
	}{
		{`a{1000}$`, strings.Repeat("a", n), [2]int{n - 1000, n}},
		{`(?i)\w{500}[^a]`, strings.Repeat("a", n) + "!", [2]int{n - 500, n + 1}},
	} {
		m, err := Compile(Options{Pattern: c.pat})
		require.NoError(t, err)
		s := m.NewScanner()
		var got [][2]int
		s.eachMatch([]byte(c.hay), true, func(a, b int) bool { got = append(got, [2]int{a, b}); return true })
		assert.Equal(t, [][2]int{c.want}, got, c.pat)
		fwd, back := s.matchDFAs()
		assert.False(t, fwd.raw || back.raw, "%s: an automaton went uncached", c.pat)
	}
}

// TestSpansOfALongLine: a long line of dense matches reports its count and
// keeps only the spans it can show.
func TestSpansOfALongLine(t *testing.T) {
	m, err := Compile(Options{Pattern: `[ab]`, MaxColumns: 10})
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("ab", 1<<16))
	for _, data := range [][]byte{nil, line} {
		sp, n := m.NewScanner().spans(data, 0, line, 10)
		if n != len(line) || len(sp) != 11 {
			t.Fatalf("%d matches, %d spans kept; want %d and 11", n, len(sp), len(line))
		}
	}
}

func FuzzEachMatch(f *testing.F) {
	f.Add(`a*`, "baaac", uint8(0))
	f.Add(`[a-z]+|\d*`, "ab 12 cd", uint8(1))
	f.Add(`(?i)é*`, "ÉéE", uint8(2))
	f.Add(`^\b|\B$`, "a b\nc", uint8(3))
	f.Add(`(a|b)*a(a|b){3}`, "abbabab\xffaab", uint8(4))
	f.Add(`\b\w+\b|\B\s`, "café 中文\u3000x٣ e\u0301", uint8(8))
	f.Add(`(?i)[^\W\d]\b`, "ſ\u212a é\xff٣", uint8(9))
	f.Fuzz(func(t *testing.T, pattern, hay string, flags uint8) {
		if len(pattern) > 40 || len(hay) > 512 {
			return
		}
		o := Options{Pattern: pattern, IgnoreCase: flags&1 != 0, Multiline: flags&2 != 0, DotAll: flags&4 != 0}
		if _, err := Compile(o); err != nil {
			return
		}
		cache := 0
		if flags&8 != 0 {
			cache = 1 << 11
		}
		if got, want := allMatches(t, o, []byte(hay), cache); !slices.Equal(got, want) {
			t.Fatalf("%q on %q: %v, want %v", goPattern(o), hay, got, want)
		}
	})
}

// matchDFAs returns the scanner's match automata, building both.
func (s *Scanner) matchDFAs() (fwd, back *mdfa) { return s.forward(), s.backward() }

// TestReversedOnDemand: a count never asks where a match starts, so
// neither the backward automaton nor the reversed pattern is built; a
// search that reports spans builds them, once for the Matcher's scanners.
func TestReversedOnDemand(t *testing.T) {
	text := []byte("one x1 two\nno match\nx22 and x333\n")
	m, err := Compile(Options{Pattern: `x\d+`, CountOnly: true})
	require.NoError(t, err)
	s := m.NewScanner()
	res, err := s.SearchBytes(context.Background(), text)
	require.NoError(t, err)
	assert.Equal(t, 3, res.Matches)
	assert.Nil(t, s.back, "a count built the backward automaton")
	assert.Nil(t, m.rprog.prog, "a count compiled the reversed pattern")

	c, err := m.WithRanges(nil)
	require.NoError(t, err)
	c.opts.CountOnly = false
	s = c.NewScanner()
	res, err = s.SearchBytes(context.Background(), text)
	require.NoError(t, err)
	require.Len(t, res.Lines, 2)
	assert.Equal(t, [][2]int{{4, 6}}, res.Lines[0].Spans)
	assert.NotNil(t, s.back)
	assert.Same(t, c.rprog.get(), m.rprog.get(), "the copies of a Matcher compile the reversed pattern once")
}

// TestCountSkipsToCandidates: a count's walk over each matching line, and
// a content search's over each line it reports, starts the automata where
// the finder, over the whole buffer, says a match may start; the counts
// and spans equal regexp's on every line, CRLF lines, matches at the
// line's ends and lines longer than the finder's vector included.
func TestCountSkipsToCandidates(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	words := []string{"fox", "jumps", "fox jumps", "return", "RETURN", "ab", "cd", "x1y", "x22y", "é", "ü", "zz", "  ", "\t"}
	var text strings.Builder
	for range 4000 {
		for range r.IntN(30) {
			text.WriteString(words[r.IntN(len(words))])
		}
		if r.IntN(5) == 0 {
			text.WriteByte('\r')
		}
		text.WriteByte('\n')
	}
	data := []byte(text.String())
	for _, p := range []string{"fox jumps|ab", "(?i)return", "ab|cd", "x[0-9]+y", "é|ü", "(?i)fox|cd",
		"ab?|b", "b|ab?", "ab??|b", "fox|fox jumps|jumps", "(?:a|ab)(?:c|bcd)|d",
		"(?i)AB?|b", "(?i)b|aB?", "(?i)FOX|fox JUMPS|jumps", "(?i)jumps|cd", "(?i)return|x1Y", "[Rr]eturn|(?i:x)1y", "(?i:f)ox"} {
		re := regexp.MustCompile(p)
		lines, matches := 0, 0
		var want []Line
		for i, l := range strings.Split(strings.TrimSuffix(text.String(), "\n"), "\n") {
			l = strings.TrimSuffix(l, "\r")
			if sp := re.FindAllStringIndex(l, -1); len(sp) > 0 {
				lines, matches = lines+1, matches+len(sp)
				ln := Line{Number: i + 1, Text: l, Match: true, Matches: len(sp)}
				for _, s := range sp {
					ln.Spans = append(ln.Spans, [2]int{s[0], s[1]})
				}
				want = append(want, ln)
			}
		}
		c, err := Compile(Options{Pattern: p})
		require.NoError(t, err)
		res, err := c.NewScanner().SearchFile(context.Background(), readerFS{bytes.NewReader(data), int64(len(data))}, "f", -1)
		require.NoError(t, err)
		assert.Equal(t, want, res.Lines, p)
		m, err := Compile(Options{Pattern: p, CountOnly: true})
		require.NoError(t, err)
		// With line ranges, a count numbers its lines (no line keys).
		ranged, err := Compile(Options{Pattern: p, CountOnly: true, LineRanges: [][2]int{{1, 0}}})
		require.NoError(t, err)
		for _, m := range []*Matcher{m, ranged} {
			for _, chunk := range []int{readSize, 4 << 10} {
				s := m.NewScanner()
				s.chunk = chunk
				res, err := s.SearchFile(context.Background(), readerFS{bytes.NewReader(data), int64(len(data))}, "f", -1)
				require.NoError(t, err)
				assert.Equal(t, []int{lines, matches}, []int{res.MatchLines, res.Matches}, "%s, chunks of %d, ranges %v", p, chunk, m.opts.LineRanges)
			}
		}
	}
}
