package posixclass

import (
	"slices"
	"strings"
	"testing"
)

// TestLookup checks each class, byte by byte, against its definition in
// POSIX's C locale, written independently of the table.
func TestLookup(t *testing.T) {
	alpha := func(c int) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }
	digit := func(c int) bool { return '0' <= c && c <= '9' }
	graph := func(c int) bool { return 32 < c && c < 127 }
	defs := map[string]func(c int) bool{
		"alnum":  func(c int) bool { return alpha(c) || digit(c) },
		"alpha":  alpha,
		"blank":  func(c int) bool { return c == ' ' || c == '\t' },
		"cntrl":  func(c int) bool { return c < 32 || c == 127 },
		"digit":  digit,
		"graph":  graph,
		"lower":  func(c int) bool { return 'a' <= c && c <= 'z' },
		"print":  func(c int) bool { return c == ' ' || graph(c) },
		"punct":  func(c int) bool { return graph(c) && !alpha(c) && !digit(c) },
		"space":  func(c int) bool { return strings.ContainsRune(" \t\n\v\f\r", rune(c)) },
		"upper":  func(c int) bool { return 'A' <= c && c <= 'Z' },
		"xdigit": func(c int) bool { return digit(c) || strings.ContainsRune("abcdefABCDEF", rune(c)) },
	}
	var names []string
	for name, def := range defs {
		names = append(names, name)
		ranges, ok := Lookup(name)
		if !ok {
			t.Errorf("Lookup(%q): no class", name)
			continue
		}
		for i, r := range ranges {
			if r.Lo > r.Hi || i > 0 && ranges[i-1].Hi+1 >= r.Lo {
				t.Errorf("%s: ranges %v not sorted, disjoint and apart", name, ranges)
			}
		}
		for c := range 256 {
			in := slices.ContainsFunc(ranges, func(r Range) bool { return int(r.Lo) <= c && c <= int(r.Hi) })
			if in != def(c) {
				t.Errorf("%s: byte %#x in the class: %v, want %v", name, c, in, def(c))
			}
		}
	}
	slices.Sort(names)
	if got := strings.Join(names, ", "); got != Names {
		t.Errorf("Names = %q, want %q", Names, got)
	}
	for _, name := range []string{"", "Digit", "word", "digit:"} {
		if _, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) found a class", name)
		}
	}
}
