package grep

import (
	"slices"
	"testing"
)

// allByIteration finds the matches of a context-free pattern one at a time
// (as on a long line) and with FindAllIndex, for comparison.
func allByIteration(t testing.TB, m *Matcher, line []byte) (got, want [][2]int) {
	old := iterateAbove
	iterateAbove = 0
	defer func() { iterateAbove = old }()
	m.eachMatch(line, func(a, b int) bool { got = append(got, [2]int{a, b}); return true })
	for _, x := range m.re.FindAllIndex(line, -1) {
		want = append(want, [2]int{x[0], x[1]})
	}
	return got, want
}

// TestEachMatchIterates: matches found one at a time are FindAllIndex's,
// empty matches included.
func TestEachMatchIterates(t *testing.T) {
	tests := []struct{ pattern, line string }{
		{`a*`, "baaac aa"},
		{`x*`, "héllo wörld"},
		{`(?:)`, "abc"},
		{`a|`, "banana"},
		{`\d*?`, "a1b22"},
		{`[a-z]+`, "one two  three"},
		{`o$`, "foo o"},
		{`é+|`, "ééaé"},
		{`(?i)AB`, "abABaB"},
		{`.`, "a\xffb"},
	}
	for _, tt := range tests {
		m, err := Compile(Options{Pattern: tt.pattern})
		if err != nil {
			t.Fatal(err)
		}
		if !m.contextFree {
			t.Fatalf("%q: not context-free", tt.pattern)
		}
		if got, want := allByIteration(t, m, []byte(tt.line)); !slices.Equal(got, want) {
			t.Errorf("%q on %q: %v, want %v", tt.pattern, tt.line, got, want)
		}
	}
	for _, p := range []string{`^a`, `\bword`, `x\B`, `(?m)^x`} {
		if m, err := Compile(Options{Pattern: p}); err != nil || m.contextFree {
			t.Errorf("%q: context-free %v, %v; it looks back", p, m != nil && m.contextFree, err)
		}
	}
}

// TestSpansOfALongLine: a long line of dense matches reports its count and
// keeps only the spans it can show.
func TestSpansOfALongLine(t *testing.T) {
	m, err := Compile(Options{Pattern: `[ab]`, MaxColumns: 10})
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(repeat("ab", iterateAbove))
	sp, n := m.NewScanner().spans(line, 10)
	if n != len(line) || len(sp) != 11 {
		t.Fatalf("%d matches, %d spans kept; want %d and 11", n, len(sp), len(line))
	}
}

func repeat(s string, n int) string {
	b := make([]byte, 0, len(s)*n)
	for range n {
		b = append(b, s...)
	}
	return string(b)
}

func FuzzEachMatch(f *testing.F) {
	f.Add(`a*`, "baaac")
	f.Add(`[a-z]+|\d*`, "ab 12 cd")
	f.Add(`(?i)é*`, "ÉéE")
	f.Fuzz(func(t *testing.T, pattern, line string) {
		m, err := Compile(Options{Pattern: pattern})
		if err != nil || !m.contextFree || m.plainLit != nil {
			return
		}
		if got, want := allByIteration(t, m, []byte(line)); !slices.Equal(got, want) {
			t.Fatalf("%q on %q: %v, want %v", pattern, line, got, want)
		}
	})
}
