package grep

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// refRegexp is the reference's regexp: Go's regexp on the pattern with
// its Perl classes made Unicode-aware (UnicodeClasses); for a pattern
// with \b or \B, whose Unicode meaning Go's regexp lacks, a backtracker
// over the compiled program with Go's leftmost-first semantics.
type refRegexp interface {
	FindAllIndex(b []byte, n int) [][]int
}

func mustRef(src string) refRegexp {
	x, err := UnicodeClasses(src)
	if err != nil {
		panic(err)
	}
	tree, err := syntax.Parse(x, syntax.Perl)
	if err != nil {
		panic(err)
	}
	if !hasWordBoundary(tree) {
		return regexp.MustCompile(x)
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		panic(err)
	}
	return &backtrack{prog: prog}
}

func hasWordBoundary(re *syntax.Regexp) bool {
	if re.Op == syntax.OpWordBoundary || re.Op == syntax.OpNoWordBoundary {
		return true
	}
	for _, s := range re.Sub {
		if hasWordBoundary(s) {
			return true
		}
	}
	return false
}

// backtrack finds matches by a depth-first search of the program, an
// Alt's Out before its Arg, each (instruction, position) visited once per
// match found: the first match found is the leftmost-first one, as in Go's
// regexp, whose word boundaries it tests with Unicode word characters.
type backtrack struct {
	prog *syntax.Prog
	seen []bool // by position*len(prog.Inst)+pc, for one start
}

// context returns the assertions that hold at position i of b.
func refContext(b []byte, i int) syntax.EmptyOp {
	r1, r2 := rune(-1), rune(-1)
	if i > 0 {
		r1, _ = utf8.DecodeLastRune(b[:i])
	}
	if i < len(b) {
		r2, _ = utf8.DecodeRune(b[i:])
	}
	op := syntax.EmptyOpContext(r1, r2) &^ (syntax.EmptyWordBoundary | syntax.EmptyNoWordBoundary)
	if isWordRune(r1) != isWordRune(r2) {
		op |= syntax.EmptyWordBoundary
	} else {
		op |= syntax.EmptyNoWordBoundary
	}
	return op
}

// matchAt returns the end of the leftmost-first match starting at pos, or
// -1.
func (bt *backtrack) matchAt(b []byte, pos int) int {
	n := len(bt.prog.Inst)
	seen := bt.seen
	var try func(pc uint32, i int) int
	try = func(pc uint32, i int) int {
		for {
			k := i*n + int(pc)
			if seen[k] {
				return -1
			}
			seen[k] = true
			in := &bt.prog.Inst[pc]
			switch in.Op {
			case syntax.InstFail:
				return -1
			case syntax.InstMatch:
				return i
			case syntax.InstAlt, syntax.InstAltMatch:
				if e := try(in.Out, i); e >= 0 {
					return e
				}
				pc = in.Arg
			case syntax.InstNop, syntax.InstCapture:
				pc = in.Out
			case syntax.InstEmptyWidth:
				if syntax.EmptyOp(in.Arg)&^refContext(b, i) != 0 {
					return -1
				}
				pc = in.Out
			default:
				if i >= len(b) {
					return -1
				}
				r, w := utf8.DecodeRune(b[i:])
				if !in.MatchRune(r) {
					return -1
				}
				pc, i = in.Out, i+w
			}
		}
	}
	return try(uint32(bt.prog.Start), pos)
}

// FindAllIndex is regexp's, n < 0 only.
func (bt *backtrack) FindAllIndex(b []byte, n int) [][]int {
	var out [][]int
	prevEnd := -1
	for pos := 0; pos <= len(b); {
		// A (pc, position) visited once fails from any start: the marks
		// hold until a match is found.
		bt.seen = make([]bool, len(bt.prog.Inst)*(len(b)+1))
		start, end := -1, -1
		for s := pos; s <= len(b); {
			if e := bt.matchAt(b, s); e >= 0 {
				start, end = s, e
				break
			}
			if s == len(b) {
				break
			}
			_, w := utf8.DecodeRune(b[s:])
			s += w
		}
		if start < 0 {
			break
		}
		accept := true
		if end == pos {
			// An empty match: not right after the previous match; the
			// next search starts a character on.
			if start == prevEnd {
				accept = false
			}
			if pos < len(b) {
				_, w := utf8.DecodeRune(b[pos:])
				pos += w
			} else {
				pos = len(b) + 1
			}
		} else {
			pos = end
		}
		prevEnd = end
		if accept {
			out = append(out, []int{start, end})
		}
	}
	return out
}
