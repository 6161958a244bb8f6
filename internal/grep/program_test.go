package grep

import (
	"regexp/syntax"
	"testing"
	"unicode/utf8"
)

// TestProgramConsumes checks the instruction tables of program against
// regexp/syntax: consumes answers as the instruction does for every ASCII
// character, runes outside ASCII and the end of the text (-1), and kind
// sorts the instructions as the automata's closures treat them.
func TestProgramConsumes(t *testing.T) {
	runes := []rune{-1, 0x80, 0xe9, 0xc9, 0x212a, 0x17f, 0x391, 0x3b1, utf8.RuneError, utf8.MaxRune}
	for c := range rune(utf8.RuneSelf) {
		runes = append(runes, c)
	}
	for _, p := range []string{
		"[ab]{3}", "(?i)k", "(?i)s", "(?i)é", "(?i)[a-z]x", "[^a]", "[^\\n]", ".", "(?s).", `\p{Greek}`, `\w\b\d`,
		"x*y+z?", "^a|b$", "[\x00-\x7f]", "[~-\u0101]", "a|b|c", "\\x{7f}\\x{80}", "",
	} {
		for _, rev := range []bool{false, true} {
			m, err := Compile(Options{Pattern: p})
			if err != nil {
				t.Fatal(err)
			}
			prog := m.prog
			if rev {
				prog = m.rprog.get()
			}
			for pc := range prog.Inst {
				in := &prog.Inst[pc]
				var kind uint8
				switch in.Op {
				case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
					kind = kRune
				case syntax.InstMatch:
					kind = kMatch
				case syntax.InstEmptyWidth:
					kind = kEmpty
				}
				if prog.kind[pc] != kind {
					t.Errorf("%q: instruction %d (%v): kind %d, want %d", p, pc, in.Op, prog.kind[pc], kind)
				}
				for _, r := range runes {
					want := false
					switch in.Op {
					case syntax.InstRune, syntax.InstRune1:
						want = r >= 0 && in.MatchRune(r)
					case syntax.InstRuneAny:
						want = r >= 0
					case syntax.InstRuneAnyNotNL:
						want = r >= 0 && r != '\n'
					}
					got := prog.consumes(uint32(pc), r)
					if r >= 0 && r < utf8.RuneSelf && got != prog.consumesASCII(uint32(pc), uint32(r)) {
						t.Fatalf("%q: instruction %d: consumes and consumesASCII disagree on %q", p, pc, r)
					}
					if got != want {
						t.Errorf("%q (reversed %v): instruction %d (%v %q): consumes(%q) = %v, want %v", p, rev, pc, in.Op, in.Rune, r, got, want)
					}
				}
			}
		}
	}
}

// TestInstSetWrap: a set whose generation wraps around forgets what it
// held before, as every clear does.
func TestInstSetWrap(t *testing.T) {
	s := newInstSet(4)
	s.add(1)
	s.gen = ^uint32(0) // the next clear wraps
	s.add(2)
	s.clear()
	for x := range uint32(4) {
		if s.has(x) {
			t.Fatalf("after a wrapped clear the set holds %d", x)
		}
	}
	s.add(3)
	if !s.has(3) || s.has(1) || len(s.dense) != 1 {
		t.Fatalf("set after the wrap: %v", s.dense)
	}
}
