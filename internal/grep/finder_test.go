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
