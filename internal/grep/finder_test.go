package grep

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// naiveIndex is the reference for the case-insensitive finders: the first
// start at or after from where needle occurs under case folding.
func naiveIndex(data []byte, needle string, from int) int {
	for p := from; p+len(needle) <= len(data); p++ {
		s := string(data[p : p+len(needle)])
		if strings.EqualFold(s, needle) {
			return p
		}
	}
	return -1
}

// allStarts lists every occurrence f reports, searching on from each one.
func allStarts(f finder, data []byte) []int {
	f.reset()
	var out []int
	for i := f.index(data, 0); i >= 0; i = f.index(data, i+1) {
		out = append(out, i)
	}
	return out
}

func naiveStarts(data []byte, needle string) []int {
	var out []int
	for i := naiveIndex(data, needle, 0); i >= 0; i = naiveIndex(data, needle, i+1) {
		out = append(out, i)
	}
	return out
}

// TestPairFinder compares the word-at-a-time finder with the reference on
// random texts over small alphabets (both letter cases, non-letters whose
// bytes differ from a letter's by 0x20, a newline, a multi-byte rune),
// literals of 2 to 9 bytes, at every length around the 16-byte step.
func TestPairFinder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "A", "b", "B", "x", "@", "`", "\n", "é"}
	for iter := 0; iter < 3000; iter++ {
		var text strings.Builder
		for n := r.IntN(80); n > 0; n-- {
			text.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		data := []byte(text.String())
		var needle strings.Builder
		for n := 2 + r.IntN(8); n > 0; n-- {
			needle.WriteString(alphabet[r.IntN(6)]) // ASCII only
		}
		nd := strings.ToLower(needle.String())
		// Plant it sometimes, so that matches are not all by chance.
		if r.IntN(2) == 0 && len(data) > 0 {
			at := r.IntN(len(data))
			data = append(data[:at:at], append([]byte(strings.ToUpper(nd)), data[at:]...)...)
		}
		got := allStarts(newPairFinder([]byte(nd)), data)
		if want := naiveStarts(data, nd); !slices.Equal(got, want) {
			t.Fatalf("pairFinder(%q) on %q = %v, want %v", nd, data, got, want)
		}
	}
}

// TestFoldFinderDense: a literal whose scan byte is on nearly every other
// position hands over to the pair finder and still finds every match,
// including the one at the hand-over.
func TestFoldFinderDense(t *testing.T) {
	var b bytes.Buffer
	for i := 0; i < 20000; i++ {
		b.WriteString("unexpecte ") // every letter of the literal, never all of it
		if i%997 == 0 {
			b.WriteString("UnExPeCtEd ")
		}
	}
	data := b.Bytes()
	f := newFoldFinder("unexpected")
	got := allStarts(f, data)
	if f.pair == nil {
		t.Fatalf("dense candidates did not switch to the pair finder")
	}
	if want := naiveStarts(data, "unexpected"); !slices.Equal(got, want) {
		t.Fatalf("found %d matches, want %d", len(got), len(want))
	}
	// Sparse candidates keep the byte scan.
	g := newFoldFinder("unexpected")
	allStarts(g, bytes.Repeat([]byte("0123456789 + 42\n"), 20000))
	if g.pair != nil {
		t.Errorf("sparse candidates switched to the pair finder")
	}
}

func TestLastNewline(t *testing.T) {
	long := strings.Repeat("x", 10000)
	for _, s := range []string{"", "a", "\n", "a\nb", long, long + "\n" + long, "\n" + long, long + "\n", "a\n" + long + "\nb\n" + long, strings.Repeat("ab\n", 3000) + long} {
		if got, want := lastNewline([]byte(s)), strings.LastIndexByte(s, '\n'); got != want {
			t.Errorf("lastNewline of %d bytes = %d, want %d", len(s), got, want)
		}
	}
}

// setStarts is the reference for a literal set: every start at which one
// of its literals occurs (a folded one under ASCII case folding).
func setStarts(data []byte, set litSet) []int {
	var out []int
	for p := range data {
		for _, l := range set {
			if p+len(l.s) > len(data) {
				continue
			}
			s := string(data[p : p+len(l.s)])
			if l.fold && strings.EqualFold(s, l.s) || !l.fold && s == l.s {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// TestSIMDFinder compares the SIMD finder with the reference on random
// texts around the 32-byte blocks and random sets of up to 8 literals,
// exact or folded, of 1 to 20 bytes, planted at random.
func TestSIMDFinder(t *testing.T) {
	if !hasSIMD {
		t.Skip("no SIMD kernels on this machine")
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "A", "b", "B", "x", "@", "`", "\n", "é", "\xff"}
	for iter := 0; iter < 4000; iter++ {
		var set litSet
		for n := 1 + r.IntN(8); n > 0; n-- {
			var b strings.Builder
			for k := 1 + r.IntN(20); k > 0; k-- {
				b.WriteString(alphabet[r.IntN(6)]) // ASCII only
			}
			l := lit{s: b.String(), fold: r.IntN(3) == 0}
			if l.fold {
				l.s = strings.ToLower(l.s)
			}
			set = append(set, l)
		}
		var text strings.Builder
		for n := r.IntN(200); n > 0; n-- {
			if r.IntN(40) == 0 {
				text.WriteString(set[r.IntN(len(set))].s)
				continue
			}
			text.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		data := []byte(text.String())
		got := allStarts(newSIMDFinder(set), data)
		if want := setStarts(data, set); !slices.Equal(got, want) {
			t.Fatalf("set %+v in %q: %v, want %v", set, data, got, want)
		}
	}
}

// TestSIMDQuiet compares simdFinder.quiet (NUL bytes and literal starts
// in one pass) with the reference on random texts of up to 600 bytes that
// hold, each with some chance, a NUL or a literal at a random place, from
// random offsets.
func TestSIMDQuiet(t *testing.T) {
	if !hasSIMD {
		t.Skip("no SIMD kernels on this machine")
	}
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := []string{"a", "A", "b", "B", "x", "@", "`", "\n", "é", "\xff"}
	quiet := 0
	for iter := 0; iter < 6000; iter++ {
		var set litSet
		for n := 1 + r.IntN(3)*r.IntN(4); n > 0; n-- {
			var b strings.Builder
			for k := 1 + r.IntN(12); k > 0; k-- {
				b.WriteString(alphabet[r.IntN(6)])
			}
			l := lit{s: b.String(), fold: r.IntN(3) == 0}
			if l.fold {
				l.s = strings.ToLower(l.s)
			}
			set = append(set, l)
		}
		data := make([]byte, r.IntN(600))
		for i := range data {
			data[i] = "xyz \n"[r.IntN(5)]
		}
		if len(data) > 0 && r.IntN(3) == 0 {
			data[r.IntN(len(data))] = 0
		}
		if l := set[r.IntN(len(set))].s; len(data) > len(l) && r.IntN(3) == 0 {
			copy(data[r.IntN(len(data)-len(l)):], l)
		}
		from := 0
		if len(data) > 0 && r.IntN(2) == 0 {
			from = r.IntN(len(data))
		}
		want := bytes.IndexByte(data[from:], 0) < 0 && !slices.ContainsFunc(setStarts(data, set), func(p int) bool { return p >= from })
		if got := newSIMDFinder(set).quiet(data, from); got != want {
			t.Fatalf("set %+v in %q from %d: quiet %v, want %v", set, data, from, got, want)
		}
		if want {
			quiet++
		}
	}
	if quiet < 1000 {
		t.Fatalf("only %d quiet texts: the test does not cover the passes", quiet)
	}
}

// TestLastIndexByte compares the SIMD kernel with bytes.LastIndexByte.
func TestLastIndexByte(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for iter := 0; iter < 2000; iter++ {
		b := make([]byte, r.IntN(300))
		for i := range b {
			b[i] = 'a'
			if r.IntN(40) == 0 {
				b[i] = '\n'
			}
		}
		if got, want := lastIndexByte(b, '\n'), bytes.LastIndexByte(b, '\n'); got != want {
			t.Fatalf("%q: %d, want %d", b, got, want)
		}
	}
}
