package grep

import (
	"bytes"
	"math"
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Long lines: a line longer than the buffer is searched in windows of the
// buffer's size that overlap by the Scanner's margin. A window owns the
// matches that start up to its limit, margin (plus a few bytes of
// lookahead) before its end; the walk over the line's matches (where it
// stands, where the last match ended) goes on in the next window, which
// starts a few bytes before that limit, so each match is found and
// counted once, exactly where FindAllIndex finds it in the whole line,
// when it is at most margin bytes long. A longer match that reaches past
// a window's end is cut there or missed: only patterns that can match more
// than margin bytes count the line in FileResult.LongLines.

// Window sizes.
const (
	// Margin is the overlap of two windows of a long line: a match of at
	// most Margin bytes is found wherever it lies.
	Margin = 64 << 10
	// lookBytes are the bytes around a position that decide the matches
	// there: the character after a match's end (for $ and \b), the one
	// before a walk's start.
	lookBytes = utf8.UTFMax
)

// longLine is the state of the search of a line longer than the buffer.
type longLine struct {
	start int       // the absolute offset of its first byte
	walk  matchWalk // the walk over its matches, in absolute offsets
	keep  int       // the absolute offset the next window starts at
	// head is the start of the line as far as its first window owns it,
	// cut to what can be shown, kept while the line is not reported: a
	// later window may report it, or show it as context (ctx, once the
	// line has ended; Number 0: none; a line out of the line ranges is
	// never shown). before are the context lines before it, kept for a
	// report in a later window, or to come before ctx (ctxBefore), even
	// where ctx is not shown.
	head      []byte
	before    []Line
	ctx       Line
	ctxBefore []Line
}

// margin returns the overlap of the windows of a long line: Margin, or a
// quarter of the window when tests shrink it.
func (s *Scanner) margin() int { return min(Margin, s.maxLine/4) }

// exact reports that no match is missed in a long line: the pattern's
// matches are at most margin bytes long.
func (s *Scanner) exact() bool { return s.m.maxLen >= 0 && s.m.maxLen <= s.margin() }

// longLine searches the part of a line longer than the buffer that data
// holds: from from on when the line starts in the buffer, else the line
// the buffer continues, up to its end (fs.contEnd) or the end of the
// buffer (fs.split). It returns the offset at which the lines after it
// start, len(data) or more when none do.
func (fs *fileSearch) longLine(data []byte, from int) int {
	s, ll, o := fs.s, &fs.long, &fs.m.opts
	hs, le, n := 0, fs.contEnd, fs.contKey
	if fs.contKey == 0 {
		hs, le = from, len(data)
		// A long line just before may still show as context (ctx).
		*ll = longLine{start: fs.off + from, walk: matchWalk{pos: fs.off + from, prevEnd: -1}, ctx: ll.ctx, ctxBefore: ll.ctxBefore}
		if fs.keys {
			n = fs.lineKey(from, le)
		}
	}
	next := le + 1
	if fs.nulLine >= 0 && fs.nulLine <= hs || fs.split && hs >= len(data) || le < hs {
		return len(data) // the line holds a NUL, or lies past the line ranges
	}
	if !fs.keys {
		n = fs.lineNo(data, hs)
	}
	hay := trimCR(data, hs, le)
	base := fs.off + hs // the absolute offset of hay[0]
	w := matchWalk{pos: ll.walk.pos - base, prevEnd: ll.walk.prevEnd - base}
	if ll.walk.prevEnd < 0 {
		w.prevEnd = -1
	}
	limit := len(hay)
	if fs.split {
		limit = ownedEnd(hay, s.margin())
	}
	lines := !o.CountOnly && !fs.keys // lines are reported
	if w.pos <= len(hay) && fs.m.inRanges(n) {
		// The text a report shows: the line from its start.
		text, shift := hay, 0
		if fs.contKey != 0 {
			text, shift = ll.head, base-ll.start
		} else if fs.split {
			text = hay[:limit]
		}
		report := lines && n != fs.lastMatch
		show := 0
		if lines {
			show = fs.m.shownEnd(text)
		}
		spans, k := s.spanBuf[:0], 0
		if spans == nil {
			spans = [][2]int{} // not nil: reportText takes the spans given
		}
		match := func(a, b int) bool {
			if report && a+shift <= show {
				spans = append(spans, [2]int{a + shift, b + shift})
			}
			k++
			return true
		}
		ok := true
		switch {
		case fs.m.complete && s.fnd != nil && (fs.m.plainLit != nil || s.exact()):
			// The literals' occurrences are the matches: found by the
			// finder, in the buffer (whose offsets its cursors keep). Of
			// a set, the literal that starts by limit ends in hay (exact:
			// the windows overlap by more than a match).
			for p := s.fnd.index(data, hs+w.pos); p >= 0 && p-hs <= limit; p = s.fnd.index(data, w.pos+hs) {
				n := fs.m.litLen(data[p : hs+len(hay)])
				if p+n > hs+len(hay) {
					break
				}
				w.pos, w.prevEnd = p-hs+n, p-hs+n
				if report {
					match(p-hs, w.pos)
				} else if k++; k%checkEvery == 0 && fs.canceled() {
					return len(data)
				}
			}
		case fs.candidate(data, hs+w.pos, hs+len(hay)):
			var sk *skipper
			if fs.m.lead >= 0 {
				sk = &skipper{f: s.fnd, data: data, off: hs, lead: fs.m.lead}
			}
			ok = s.walk(hay, &w, report, limit, sk, match)
		}
		s.spanBuf = spans[:0]
		if !ok {
			return len(data)
		}
		switch {
		case k == 0:
			if lines && fs.contKey == 0 && fs.split {
				ll.head = bytes.Clone(text[:show])
				ll.before = fs.beforeLines(data, hs, n)
			}
		case report:
			if fs.contKey != 0 {
				fs.reportLong(n)
			}
			fs.reportText(data, hs, le, n, text, spans, k, fs.split || fs.contKey != 0)
		default:
			fs.count(n, k)
		}
	} else if lines && fs.contKey == 0 && fs.split {
		// Out of the line ranges, the line is not shown, but the context
		// lines before it may come before a match after it.
		ll.before = fs.beforeLines(data, hs, n)
	}
	if fs.contKey != 0 && !fs.split {
		// The line ends here: the lines after it come next.
		if lines && fs.lastLine < n {
			ll.ctx = s.mem.makeLine(ll.head, n, false, nil, o.MaxColumns)
			ll.ctx.Cut = true
			ll.ctxBefore = ll.before
		}
		fs.longEnd(le)
	}
	if fs.split {
		ll.walk = matchWalk{pos: base + max(w.pos, limit), prevEnd: base + w.prevEnd}
		if w.prevEnd < 0 {
			ll.walk.prevEnd = -1
		}
		ll.keep = max(ll.start, base+limit-lookBytes, fs.off+1) // +1: a window as small as a test's goes on
	}
	return next
}

// candidate reports that data[from:to] may hold the start of a match: it
// holds a required literal, or the pattern has none.
func (fs *fileSearch) candidate(data []byte, from, to int) bool {
	f := fs.s.fnd
	if f == nil {
		return true
	}
	p := f.index(data, from)
	return p >= 0 && p < to
}

// lineUnknown is fileSearch.lastEnd inside a long line reported or shown
// as context: the next lines start where it ends, not known yet.
const lineUnknown = math.MaxInt

// longEnd records that the long line the buffer continues ends at
// data[le]: the lines after it start past it.
func (fs *fileSearch) longEnd(le int) {
	if fs.lastEnd == lineUnknown || fs.lastEnd < fs.off+le+1 {
		fs.lastEnd = fs.off + le + 1
	}
}

// beforeLines returns the context lines before the long line that starts
// at data[ls] (number n), for a report in a later window, after
// reporting the after-context lines due before it.
func (fs *fileSearch) beforeLines(data []byte, ls, n int) []Line {
	if fs.m.opts.Before == 0 {
		return nil
	}
	fs.flushAfter(data, ls)
	mark, last := len(fs.res.Lines), fs.lastLine
	fs.emitBefore(data, ls, n)
	before := slices.Clone(fs.res.Lines[mark:])
	fs.res.Lines, fs.lastLine = fs.res.Lines[:mark], last
	return before
}

// reportLong readies the report of the long line numbered n in a window
// after its first: a context line that showed it gives way to the
// matching line, or goes when the limit of matching lines stops before it;
// else the context lines saved before it come first.
func (fs *fileSearch) reportLong(n int) {
	if k := len(fs.res.Lines); k > 0 && fs.res.Lines[k-1].Number == n {
		fs.res.Lines = fs.res.Lines[:k-1]
	}
	if fs.limitHit {
		return
	}
	for _, l := range fs.long.before {
		if l.Number > fs.lastLine {
			fs.res.Lines = append(fs.res.Lines, l)
			fs.lastLine = l.Number
		}
	}
	fs.long.before = nil
}

// ownedEnd returns the limit of the matches that a window ending at
// len(hay), a line going on past it, owns: margin and lookBytes before its
// end, at the start of a character.
func ownedEnd(hay []byte, margin int) int {
	limit := max(len(hay)-margin-lookBytes, 0)
	for i := limit - 1; i >= max(limit-utf8.UTFMax+1, 0); i-- {
		if utf8.RuneStart(hay[i]) {
			if _, w := utf8.DecodeRune(hay[i:]); i+w > limit {
				limit = i
			}
			break
		}
	}
	return limit
}

// maxMatchLen returns the most bytes a match of re can take, or -1 when
// that is unbounded (a repetition without a maximum).
func maxMatchLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += foldLen(r, re.Flags&syntax.FoldCase != 0)
		}
		return n
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return 0
		}
		return runeLen(re.Rune[len(re.Rune)-1])
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return utf8.UTFMax
	case syntax.OpCapture, syntax.OpQuest:
		return maxMatchLen(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		sub := maxMatchLen(re.Sub[0])
		switch {
		case sub == 0:
			return 0
		case sub < 0 || re.Op != syntax.OpRepeat || re.Max < 0:
			return -1
		}
		if re.Max > 0 && sub > (1<<30)/re.Max {
			return -1 // too long to matter
		}
		return sub * re.Max
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			k := maxMatchLen(sub)
			if k < 0 {
				return -1
			}
			n += k
		}
		return n
	case syntax.OpAlternate:
		n := 0
		for _, sub := range re.Sub {
			k := maxMatchLen(sub)
			if k < 0 {
				return -1
			}
			n = max(n, k)
		}
		return n
	}
	return 0 // empty matches and assertions
}

// foldLen is the longest UTF-8 encoding of r, or of a rune that folds to
// it when fold is set (K matches the three-byte Kelvin sign).
func foldLen(r rune, fold bool) int {
	n := runeLen(r)
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			n = max(n, runeLen(f))
		}
	}
	return n
}

// runeLen is the length of r's UTF-8 encoding; an invalid byte, which
// matches as U+FFFD, takes one.
func runeLen(r rune) int {
	if n := utf8.RuneLen(r); n > 0 {
		return n
	}
	return utf8.UTFMax
}
