package grep

import "bytes"

// Line iteration (ripgrep's searcher core): the next matching line is
// found in the whole buffer, by the literal prefilter or the line DFA, and
// only the line around a candidate is verified; lines in between are
// never looked at one by one.

// processLines searches the lines of data[from:] one matching line at a
// time, counting or reporting each.
func (fs *fileSearch) processLines(data []byte, from int) {
	m := fs.m
	if fs.split || fs.contKey != 0 {
		fs.partMax = 0 // a long line's state does not resume: one part from here on
		from = fs.longLine(data, from)
		if from >= len(data) || fs.stop {
			return
		}
	}
	if fs.keys && m.complete && fs.s.fnd != nil {
		fs.countLiterals(data, from)
		return
	}
	for pos := from; pos < len(data) && !fs.stop; {
		ls, le := fs.s.nextLine(data, pos)
		if ls < 0 {
			return
		}
		pos = le + 1
		line := trimCR(data, ls, le)
		if fs.keys {
			fs.count(fs.lineKey(ls, le), fs.s.count(data, ls, line))
		} else if n := fs.lineNo(data, ls); !m.inRanges(n) {
			continue
		} else if m.opts.CountOnly || n == fs.lastMatch {
			fs.count(n, fs.s.count(data, ls, line))
		} else {
			fs.report(data, ls, le, n, nil, -1)
		}
		if fs.checks++; fs.checks%checkEvery == 0 && fs.canceled() {
			return
		}
	}
}

// countLiterals counts the lines of data[from:] that hold the pattern, a
// literal or an alternation of literals, and its matches, in one pass of
// the finder over the buffer: a line is found by its end only, and only
// when it holds a match (ripgrep's counting without materialising lines).
func (fs *fileSearch) countLiterals(data []byte, from int) {
	for p := fs.s.fnd.index(data, from); p >= 0 && !fs.stop; {
		le := len(data)
		if j := bytes.IndexByte(data[p:], '\n'); j >= 0 {
			le = p + j
		}
		key := fs.lineKey(p, le)
		var k int
		k, p = fs.s.litMatches(data, p, le)
		fs.count(key, k)
		if fs.checks++; fs.checks%checkEvery == 0 && fs.canceled() {
			return
		}
	}
}

// litMatches counts the matches of a complete literal set from data[p],
// where the finder found one, to le, the end of its line (no literal holds
// a newline: each match ends in the line), and returns the finder's next
// hit after them (-1: none).
func (s *Scanner) litMatches(data []byte, p, le int) (int, int) {
	k := 0
	for ; p >= 0 && p < le; p = s.fnd.index(data, p+s.m.litLen(data[p:le])) {
		k++
	}
	return k, p
}

// litLen returns the length of the match at the start of b, where the
// finder found a literal of a complete set: the first literal of the set
// (the order of the pattern's preference) that b starts with, in any
// ASCII letter case where it is folded.
func (m *Matcher) litLen(b []byte) int {
	if m.plainLit != nil {
		return len(m.plainLit)
	}
	for _, l := range m.lits {
		if len(b) < len(l.s) {
			continue
		}
		if string(b[:len(l.s)]) == l.s || l.fold && asciiFoldEqual(b[:len(l.s)], l.s) {
			return len(l.s)
		}
	}
	return 1 // not reached: the finder found one of the literals here
}

// nextLine returns the bounds [ls, le) of the next matching line in
// data[from:] (le is the offset of its '\n' or len(data)), or -1, -1.
// from must be a line start.
func (s *Scanner) nextLine(data []byte, from int) (int, int) {
	for from < len(data) {
		var p int
		if s.fnd != nil {
			p = s.fnd.index(data, from)
		} else {
			p = s.dfa.scan(data, from, len(data))
			if p == scanFailed {
				return s.nextLineEach(data, from)
			}
		}
		if p < 0 { // none, or stopped
			return -1, -1
		}
		ls := from + lastNewline(data[from:p]) + 1
		le := len(data)
		if j := bytes.IndexByte(data[p:], '\n'); j >= 0 {
			le = p + j
		}
		from = le + 1
		sure := s.m.complete || s.fnd == nil && !s.dfa.left // the line matches
		if !sure && s.fnd != nil {
			// A candidate of the finder: does the line match?
			switch s.dfa.scan(data, ls, min(le+1, len(data))) {
			case -1:
				continue
			case stopped:
				return -1, -1
			case scanFailed:
			default:
				sure = !s.dfa.left
			}
		}
		if !sure {
			// The line DFA left the line to the match automata: it gave
			// up, or its states grow big (and the forward automaton
			// builds them anyway to count or locate the line's matches).
			e := s.firstEnd(trimCR(data, ls, le))
			if s.fwd != nil && s.fwd.raw && s.dfa.leave >= 0 && !s.dfa.failed {
				s.dfa.keepLines() // cached, it beats the uncached match automata
			}
			switch e {
			case -1:
				continue
			case stopped:
				return -1, -1
			}
		}
		return ls, le
	}
	return -1, -1
}

// nextLineEach is nextLine by the match automata, line by line: the
// fallback when the line automaton gives up.
func (s *Scanner) nextLineEach(data []byte, from int) (int, int) {
	next := from + pollBytes // where to poll next
	for ls := from; ls < len(data); {
		if ls >= next {
			if s.state.canceled() {
				return -1, -1
			}
			next = ls + pollBytes
		}
		le := len(data)
		if j := bytes.IndexByte(data[ls:], '\n'); j >= 0 {
			le = ls + j
		}
		switch s.firstEnd(trimCR(data, ls, le)) {
		case -1:
		case stopped:
			return -1, -1
		default:
			return ls, le
		}
		ls = le + 1
	}
	return -1, -1
}

// count returns the number of matches in line, a matching line that
// starts at data[ls].
func (s *Scanner) count(data []byte, ls int, line []byte) int {
	if lit := s.m.plainLit; lit != nil {
		return bytes.Count(line, lit)
	}
	if s.m.complete && data != nil && s.fnd != nil {
		n, _ := s.litMatches(data, s.fnd.index(data, ls), ls+len(line))
		return n
	}
	n := 0
	w := matchWalk{pos: 0, prevEnd: -1}
	s.walk(line, &w, false, len(line), s.lineSkipper(data, ls), func(int, int) bool { n++; return true })
	return n
}

// lineSkipper returns the skipper of a walk over a line that starts at
// data[ls] (nil: none, as for a text not in data): the automata start
// where the finder, run over the buffer (its vector loop stops short of a
// slice's last 32 bytes), says a match may start, not at the line's
// start. A count of lines of 84 bytes whose match lay 16 bytes in took 4
// times ripgrep's time.
func (s *Scanner) lineSkipper(data []byte, ls int) *skipper {
	if data == nil || s.fnd == nil || s.m.lead < 0 {
		return nil
	}
	return &skipper{f: s.fnd, data: data, off: ls, lead: s.m.lead}
}
