package grep

import (
	"bytes"
	"regexp/syntax"
	"slices"
	"unicode/utf8"
)

// reversed returns a copy of re that matches the reversed texts of re's
// matches: its concatenations and literals reversed, each anchor turned
// into its mirror (^ and $, \A and \z).
func reversed(re *syntax.Regexp) *syntax.Regexp {
	r := *re
	r.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, sub := range re.Sub {
		r.Sub[i] = reversed(sub)
	}
	switch re.Op {
	case syntax.OpConcat:
		slices.Reverse(r.Sub)
	case syntax.OpLiteral:
		r.Rune = slices.Clone(re.Rune)
		slices.Reverse(r.Rune)
	case syntax.OpBeginLine:
		r.Op = syntax.OpEndLine
	case syntax.OpEndLine:
		r.Op = syntax.OpBeginLine
	case syntax.OpBeginText:
		r.Op = syntax.OpEndText
	case syntax.OpEndText:
		r.Op = syntax.OpBeginText
	}
	return &r
}

// forward returns the scanner's automaton that finds where matches end
// (see matchdfa.go), building it on first use.
func (s *Scanner) forward() *mdfa {
	if s.fwd == nil {
		s.fwd = newMDFA(s.m.prog, false, s.m.growth)
		s.fwd.poll = s.state.canceled
	}
	return s.fwd
}

// backward returns the scanner's automaton that finds where matches start,
// building it (and compiling the reversed pattern) on first use: a count
// needs none.
func (s *Scanner) backward() *mdfa {
	if s.back == nil {
		s.back = newMDFA(s.m.rprog.get(), true, s.m.growth)
		s.back.poll = s.state.canceled
	}
	return s.back
}

// eachMatch calls fn with the matches [a, b) of hay, in order, as
// regexp's FindAllIndex finds them, until fn returns false; hay is the
// whole text (a line, or a file in whole-file mode). Without starts, a is
// -1 (finding where a match starts takes a second, backward scan). It
// returns false when the search's context ended. A plain literal is found
// with bytes.Index, any other pattern by the match automata, one match at
// a time, so that a long line with millions of matches takes no memory for
// them.
func (s *Scanner) eachMatch(hay []byte, starts bool, fn func(a, b int) bool) bool {
	w := matchWalk{pos: 0, prevEnd: -1}
	return s.walk(hay, &w, starts, len(hay), nil, fn)
}

// matchWalk is where FindAllIndex's walk over a text stands: the offset
// it searches from next, and where the last match ended (-1: none), so
// that a walk over a long line goes on in the next window.
type matchWalk struct{ pos, prevEnd int }

// walk is eachMatch from where w stands, up to the first match that
// starts after limit: it stops before that match, w standing where the
// walk would take it up (a window owns the matches that start up to its
// limit). A match found with b > limit has its start found even without
// starts (see startOf). With sk, the automata search from where sk says
// the next match may start (nil: from where the last match ended).
func (s *Scanner) walk(hay []byte, w *matchWalk, starts bool, limit int, sk *skipper, fn func(a, b int) bool) bool {
	pos, prevEnd := w.pos, w.prevEnd
	next := pos + pollBytes // the offset of the next poll
	if s.m.plainLit != nil || s.m.complete && s.exact() && sk != nil && sk.f != nil {
		// The literals' occurrences are the matches.
		for {
			if pos >= next {
				if s.state.canceled() {
					w.pos, w.prevEnd = pos, prevEnd
					return false
				}
				next = pos + pollBytes
			}
			a, n := s.nextLit(hay, pos, sk)
			if a < 0 || a > limit {
				w.pos, w.prevEnd = pos, prevEnd
				return true
			}
			pos, prevEnd = a+n, a+n
			if !fn(a, a+n) {
				w.pos, w.prevEnd = pos, prevEnd
				return true
			}
			next -= pollMatchBytes
		}
	}
	fwd, back := s.forward(), s.back // back: built when a match's start is first asked for
	// FindAllIndex's rule: after an empty match step one character; an
	// empty match right where the previous match ended does not count.
	for pos <= len(hay) {
		if pos >= next {
			if s.state.canceled() {
				w.pos, w.prevEnd = pos, prevEnd
				return false
			}
			next = pos + pollBytes
		}
		if sk != nil {
			p := sk.next(pos, len(hay))
			if p < 0 {
				w.pos, w.prevEnd = pos, prevEnd
				return true
			}
			pos = p
		}
		b := fwd.matchEnd(hay, pos)
		if b == stopped {
			w.pos, w.prevEnd = pos, prevEnd
			return false
		}
		if b < 0 {
			w.pos, w.prevEnd = pos, prevEnd
			return true
		}
		a := -1
		if b == pos {
			a = pos // an empty match: it starts at pos
		} else if starts || b > limit {
			if back == nil {
				back = s.backward()
			}
			if a = s.startOf(back, hay, pos, b, limit, starts); a == stopped {
				w.pos, w.prevEnd = pos, prevEnd
				return false
			}
		}
		if a > limit {
			w.pos, w.prevEnd = pos, prevEnd
			return true
		}
		accept := true
		if b == pos {
			accept = pos != prevEnd
			if _, n := utf8.DecodeRune(hay[pos:]); n > 0 {
				pos += n
			} else {
				pos = len(hay) + 1
			}
		} else {
			pos = b
		}
		prevEnd = b
		if !starts {
			a = -1
		}
		if accept {
			if !fn(a, b) {
				w.pos, w.prevEnd = pos, prevEnd
				return true
			}
			next -= pollMatchBytes
		}
	}
	w.pos, w.prevEnd = pos, prevEnd
	return true
}

// nextLit returns where the next match of a complete literal set starts
// in hay at or after pos, and its length; -1 if none. A set needs sk's
// finder (hay starts at sk.data[sk.off]) and an exact scanner (a match
// that starts in a long line's window ends in it).
func (s *Scanner) nextLit(hay []byte, pos int, sk *skipper) (int, int) {
	if lit := s.m.plainLit; lit != nil {
		i := bytes.Index(hay[pos:], lit)
		if i < 0 {
			return -1, 0
		}
		return pos + i, len(lit)
	}
	a := sk.f.index(sk.data, sk.off+pos) - sk.off
	if a < pos || a >= len(hay) {
		return -1, 0
	}
	return a, s.m.litLen(hay[a:])
}

// A skipper tells a walk over a long line where the next match may start:
// every match holds an occurrence of a required literal, which its finder
// finds in the buffer, so no match starts before the next occurrence less
// the most bytes a match holds before it (Matcher.lead), and none is left
// after the last. The automata then run near the literals only, not over
// every byte. Where matches lie closer than that (a match every few
// bytes), a call of the finder costs more than the bytes it spares the
// automata: after skipProbe calls that spared fewer than skipGain bytes
// each on average, the skipper stops skipping.
type skipper struct {
	f      finder // nil: stopped
	data   []byte // the buffer; the text walked starts at data[off]
	off    int
	lead   int
	calls  int
	spared int // bytes skipped by the first skipProbe calls
}

const skipProbe, skipGain = 64, 8

// next returns where in the text, of n bytes, a match may start at or
// after pos, or -1 if none can.
func (k *skipper) next(pos, n int) int {
	if k.f == nil {
		return pos
	}
	q := k.f.index(k.data, k.off+pos) - k.off
	if q < 0 || q >= n {
		return -1
	}
	p := max(pos, q-k.lead)
	for p > pos && !utf8.RuneStart(k.data[k.off+p]) {
		p-- // a search starts at a character, as the walk's do
	}
	if k.calls < skipProbe {
		k.calls++
		k.spared += p - pos
		if k.calls == skipProbe && k.spared < skipProbe*skipGain {
			k.f = nil
		}
	}
	return p
}

// startOf returns where the match found from pos that ends at b starts,
// or stopped. Without starts, for a pattern that can match more than a
// long line's windows overlap (a match that is then missed or cut at a
// window edge anyway), only whether it starts after limit counts: the
// start is looked for back to limit only, not over the megabytes that
// a.*z may span.
func (s *Scanner) startOf(back *mdfa, hay []byte, pos, b, limit int, starts bool) int {
	from := pos
	if !starts && !s.exact() {
		from = max(pos, limit)
	}
	a := back.matchStart(hay, from, b)
	switch {
	case a == stopped:
		return stopped
	case a < 0 && from > pos:
		return pos // it starts before limit
	case a < 0:
		panic("grep: the reversed pattern finds no start for a match")
	}
	return a
}

// firstEnd returns where the first match of hay ends, -1 if there is
// none, or stopped.
func (s *Scanner) firstEnd(hay []byte) int {
	if lit := s.m.plainLit; lit != nil {
		if i := bytes.Index(hay, lit); i >= 0 {
			return i + len(lit)
		}
		return -1
	}
	return s.forward().matchEnd(hay, 0)
}
