package grep

import "bytes"

// processWhole searches data as one text: a match may span lines, and
// each line it touches is a matching line.
func (fs *fileSearch) processWhole(data []byte) {
	if f := fs.s.fnd; f != nil && f.index(data, 0) < 0 {
		return
	}
	w := &wholeSearch{fs: fs, data: data, ls: -1, lines: lineCursor{ls: -1}}
	fs.s.eachMatch(data, true, w.match)
	w.flush()
}

// wholeSearch gathers the matches of a whole-file search into lines.
type wholeSearch struct {
	fs    *fileSearch
	data  []byte
	lines lineCursor
	// The line being gathered: data[ls:le] (ls < 0: none), number n,
	// matches starting on it, and spans up to keep, the offset past which
	// nothing can be shown.
	ls, le, n, count int
	keep             int
	spans            [][2]int
}

// match adds the match [a, b) to each line it touches.
func (w *wholeSearch) match(a, b int) bool {
	data, m := w.data, w.fs.m
	if a == len(data) && (a == 0 || data[a-1] == '\n') {
		return false // an empty match after the last line
	}
	first := true
	for p := a; ; {
		ls, le := w.lines.at(data, p)
		text := trimCR(data, ls, le)
		if ls != w.ls {
			w.flush()
			if w.fs.stop {
				return false
			}
			w.ls, w.le, w.n = ls, le, w.fs.lineNo(data, ls)
			w.spans = [][2]int{} // not nil: report takes the spans and count given
			w.keep = m.shownEnd(text)
		}
		if sa := min(max(a, ls)-ls, len(text)); sa <= w.keep && !m.opts.CountOnly {
			w.spans = append(w.spans, [2]int{sa, min(b, le, ls+len(text)) - ls})
		}
		if first {
			w.count++
			first = false
		}
		if b <= le+1 || le >= len(data) {
			break
		}
		p = le + 1
	}
	return true
}

// flush reports the line gathered, if any.
func (w *wholeSearch) flush() {
	if w.ls < 0 {
		return
	}
	if fs := w.fs; fs.m.inRanges(w.n) {
		if fs.m.opts.CountOnly {
			fs.count(w.n, w.count)
		} else {
			fs.report(w.data, w.ls, w.le, w.n, w.spans, w.count)
		}
	}
	w.ls, w.spans, w.count = -1, nil, 0
}

// lineCursor finds the bounds [ls, le) of the line that holds a position
// (ls < 0: none found yet). The positions asked for only grow, so the
// last line is reused and the next one looked for from its end: each byte
// is scanned once however many matches a line holds.
type lineCursor struct{ ls, le int }

func (c *lineCursor) at(data []byte, p int) (int, int) {
	if c.ls >= 0 && p >= c.ls && p <= c.le {
		return c.ls, c.le
	}
	from := 0
	if c.ls >= 0 && p > c.le {
		from = c.le // a newline: the search below finds it at least
	}
	c.ls = from + bytes.LastIndexByte(data[from:p], '\n') + 1
	c.le = len(data)
	if j := bytes.IndexByte(data[p:], '\n'); j >= 0 {
		c.le = p + j
	}
	return c.ls, c.le
}
