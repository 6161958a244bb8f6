package convert

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestTidy(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"\n\n\n", ""},
		{"a", "a"},
		{"\n\na\nb\n\nc\n\n\n", "a\nb\n\nc"},
		{"a\n\n\nb", "a\n\nb"},
		{"a \nb\t\r\n", "a\nb"},
		{"a\n  \nb", "a\n\nb"},
		{" a\n", " a"},
		{"| 1 |  |\n| --- | --- |\n\n## S\n\n", "| 1 |  |\n| --- | --- |\n\n## S"},
	}
	for _, tt := range tests {
		if got := tidy(tt.in); got != tt.want {
			t.Errorf("tidy(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// tidied's answers, when it gives one, are tidyCopy's.
	rng := rand.New(rand.NewPCG(3, 4))
	parts := []string{"a", "b c", " ", "\t", "\r", "\n", "\n", "\n\n"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		if got, want := tidy(s), tidyCopy(s); got != want {
			t.Fatalf("tidy(%q) = %q, tidyCopy %q", s, got, want)
		}
	}
}

// TestTidyNoCopy: a text whose lines need no change but at its ends is
// not copied.
func TestTidyNoCopy(t *testing.T) {
	s := "\n\n" + strings.Repeat("| a |  | b |\n", 1000) + "\n## S\n\n(empty sheet)\n\n"
	if n := testing.AllocsPerRun(10, func() { tidy(s) }); n != 0 {
		t.Errorf("tidy allocated %v times, want none", n)
	}
}

func FuzzTidy(f *testing.F) {
	for _, s := range []string{"", "a\n\n\nb", "a \n", "\n\na\n\n", "a\r\n\r\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := tidy(s), tidyCopy(s); got != want {
			t.Fatalf("tidy(%q) = %q, tidyCopy %q", s, got, want)
		}
	})
}
