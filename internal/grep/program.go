package grep

import (
	"regexp/syntax"
	"sync"
	"unicode"
	"unicode/utf8"
)

// program is a compiled pattern with what the automata ask of it on their
// slow paths, computed once per Matcher and shared by the automata of its
// scanners (the line DFA and the forward match automaton share one).
type program struct {
	*syntax.Prog
	bounds []rune   // the rune class bounds (runeBounds)
	kind   []uint8  // by instruction: its kind (kFollow...)
	ascii  []uint64 // by instruction pc: the ASCII characters c it consumes, bit c%64 of ascii[2*pc+c/64]
}

// reversedProgram is the pattern reversed (see reversed), for the
// backward match automaton, compiled on first use: a search that counts or
// lists matching lines never asks where a match starts, and compiling a
// long pattern a second time cost as much as the first (syntax.Compile's
// instructions, the reversed tree, the tables). The copies of its Matcher
// (WithRanges) share it; it is safe for concurrent use.
type reversedProgram struct {
	once sync.Once
	tree *syntax.Regexp // the pattern, simplified; nil once compiled
	prog *program
}

// get returns the program, compiling it on the first call.
func (r *reversedProgram) get() *program {
	r.once.Do(func() {
		prog, err := syntax.Compile(reversed(r.tree))
		if err != nil {
			// syntax.Compile has no error to give, and the pattern
			// itself compiled.
			panic("grep: the reversed pattern does not compile: " + err.Error())
		}
		r.prog, r.tree = newProgram(prog), nil
	})
	return r.prog
}

// Kinds of instructions: what a closure does with them.
const (
	kFollow uint8 = iota // Alt, Nop, Capture (followed), Fail (dropped): never a thread of a state
	kRune                // a thread that consumes a rune: nothing to follow
	kMatch               // a thread that matches: nothing to follow
	kEmpty               // an assertion: followed where it holds, a thread where it may hold later
)

func newProgram(prog *syntax.Prog) *program {
	p := &program{Prog: prog, bounds: runeBounds(prog), kind: make([]uint8, len(prog.Inst)), ascii: make([]uint64, 2*len(prog.Inst))}
	for pc := range prog.Inst {
		in := &prog.Inst[pc]
		add := func(lo, hi rune) {
			for c := lo; c <= min(hi, utf8.RuneSelf-1); c++ {
				p.ascii[2*pc+int(c>>6)] |= 1 << (c & 63)
			}
		}
		switch in.Op {
		case syntax.InstMatch:
			p.kind[pc] = kMatch
			continue
		case syntax.InstEmptyWidth:
			p.kind[pc] = kEmpty
			continue
		case syntax.InstRune1:
			add(in.Rune[0], in.Rune[0])
		case syntax.InstRuneAny:
			add(0, utf8.RuneSelf-1)
		case syntax.InstRuneAnyNotNL:
			add(0, '\n'-1)
			add('\n'+1, utf8.RuneSelf-1)
		case syntax.InstRune:
		default:
			continue
		}
		p.kind[pc] = kRune
		switch {
		case in.Op != syntax.InstRune:
		case len(in.Rune) == 1:
			// One rune, and its case folds when FoldCase says so (as
			// syntax.Inst.MatchRunePos does).
			r0 := in.Rune[0]
			add(r0, r0)
			if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				for r := unicode.SimpleFold(r0); r != r0; r = unicode.SimpleFold(r) {
					add(r, r)
				}
			}
		default:
			for k := 0; k+1 < len(in.Rune) && in.Rune[k] < utf8.RuneSelf; k += 2 {
				add(in.Rune[k], in.Rune[k+1])
			}
		}
	}
	return p
}

// consumes reports whether the instruction pc consumes the rune r (r < 0:
// none, the end of the text). Callers test an ASCII r themselves, by
// consumesASCII, which inlines.
func (p *program) consumes(pc uint32, r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return p.consumesASCII(pc, uint32(r))
	}
	if r < 0 || p.kind[pc] != kRune {
		return false
	}
	in := &p.Inst[pc]
	switch in.Op {
	case syntax.InstRune:
		return in.MatchRune(r)
	case syntax.InstRune1:
		return r == in.Rune[0]
	}
	return true // InstRuneAny, InstRuneAnyNotNL: r is not '\n'
}

// consumesASCII is consumes for c < utf8.RuneSelf: one bit test.
func (p *program) consumesASCII(pc, c uint32) bool {
	return p.ascii[2*pc+c>>6]>>(c&63)&1 != 0
}

// thread reports whether the instruction pc is a thread with nothing to
// follow: one that consumes a rune or matches. The closure of such an
// instruction is itself, added to a set without a call to closure (most
// threads of a large state). The automata's steps test it inline, at each
// of their four places: a helper that does test-then-add is over the
// inliner's budget, and its call made a chain of 3000 classes 30% slower.
func (p *program) thread(pc uint32) bool {
	k := p.kind[pc]
	return k == kRune || k == kMatch
}
