package grep

import "bytes"

// Context emission (ripgrep's sink): a matching line is reported with the
// lines before it that were not reported yet, and the lines after it are
// reported as the next buffers come, each line once however contexts
// overlap.

// report adds the matching line data[ls:le] (number n) with its context.
// spans and matches are computed when spans is nil.
func (fs *fileSearch) report(data []byte, ls, le, n int, spans [][2]int, matches int) {
	fs.reportText(data, ls, le, n, nil, spans, matches, false)
}

// reportText is report with the line's text given (nil: data[ls:le]);
// cut marks a text that is not the whole line (a long line's).
func (fs *fileSearch) reportText(data []byte, ls, le, n int, text []byte, spans [][2]int, matches int, cut bool) {
	o := &fs.m.opts
	if fs.limitHit {
		fs.flushAfter(data, ls)
		fs.res.Truncated, fs.res.Stop = true, StopLimit
		fs.stop = true
		fs.afterLeft = 0
		return
	}
	fs.flushAfter(data, ls)
	if fs.partFull() && !fs.endPart() {
		return
	}
	fs.emitBefore(data, ls, n)
	line, in := text, []byte(nil)
	if line == nil {
		line, in = trimCR(data, ls, le), data
	}
	if spans == nil {
		spans, matches = fs.s.spans(in, ls, line, fs.m.shownEnd(line))
	}
	ln := fs.s.mem.makeLine(line, n, true, spans, o.MaxColumns)
	ln.Cut = ln.Cut || cut
	ln.Matches = matches
	fs.res.Lines = append(fs.res.Lines, ln)
	fs.res.MatchLines++
	fs.res.Matches += matches
	fs.total++
	fs.lastMatch, fs.lastLine = n, n
	fs.lastEnd = fs.off + le + 1
	fs.afterLeft = o.After
	if o.FirstOnly {
		fs.stop = true
	}
	if fs.maxLines > 0 && fs.total >= fs.maxLines {
		fs.limitHit = true
	}
}

// flushAfter reports pending after-context lines that start before
// data[upTo].
func (fs *fileSearch) flushAfter(data []byte, upTo int) {
	for fs.afterLeft > 0 {
		p := fs.lastEnd - fs.off
		if p < 0 || p >= upTo {
			return
		}
		le := upTo
		if j := bytes.IndexByte(data[p:upTo], '\n'); j >= 0 {
			le = p + j
		}
		fs.context(data, p, le, fs.lastLine+1, fs.split && le == len(data))
		fs.lastEnd = fs.off + le + 1
		fs.afterLeft--
	}
}

// emitBefore reports up to Before context lines before data[ls] (line n)
// that were not reported yet.
func (fs *fileSearch) emitBefore(data []byte, ls, n int) {
	before := fs.m.opts.Before
	if before == 0 {
		return
	}
	lo := max(fs.lastEnd-fs.off, 0)
	p, k := ls, 0
	for k < before && p > lo {
		p = bytes.LastIndexByte(data[lo:p-1], '\n') + 1 + lo
		k++
	}
	if ll := &fs.long; k < before && p == lo && ll.ctx.Number == n-k-1 && fs.lastLine < ll.ctx.Number {
		// The line before is a long line that has ended: it shows from
		// its head, after the lines kept from before it.
		for _, l := range ll.ctxBefore {
			if l.Number >= n-before && l.Number > fs.lastLine {
				fs.res.Lines = append(fs.res.Lines, l)
				fs.lastLine = l.Number
			}
		}
		fs.lastLine = ll.ctx.Number
		if fs.m.inRanges(ll.ctx.Number) {
			fs.res.Lines = append(fs.res.Lines, ll.ctx)
		}
	}
	for ; k > 0; k-- {
		le := p + bytes.IndexByte(data[p:ls], '\n')
		fs.context(data, p, le, n-k, false)
		p = le + 1
	}
}

// context reports a context line unless a line range excludes it; cut
// marks a part of a long line.
func (fs *fileSearch) context(data []byte, ls, le, n int, cut bool) {
	fs.lastLine = n
	if !fs.m.inRanges(n) {
		return
	}
	ln := fs.s.mem.makeLine(trimCR(data, ls, le), n, false, nil, fs.m.opts.MaxColumns)
	ln.Cut = ln.Cut || cut
	fs.res.Lines = append(fs.res.Lines, ln)
}

// spans returns the matches in a matching line that start at or before
// offset keep (the rest cannot be shown), in a scratch slice that the next
// call reuses, and how many matches the line holds. The line starts at
// data[ls] when data is not nil (see lineSkipper).
func (s *Scanner) spans(data []byte, ls int, line []byte, keep int) ([][2]int, int) {
	out, n := s.spanBuf[:0], 0
	w := matchWalk{pos: 0, prevEnd: -1}
	s.walk(line, &w, true, len(line), s.lineSkipper(data, ls), func(a, b int) bool {
		if a <= keep {
			out = append(out, [2]int{a, b})
		}
		n++
		return true
	})
	s.spanBuf = out[:0]
	return out, n
}

// shownEnd is the offset in line past which nothing is shown: the end of
// its first MaxColumns characters, or its length.
func (m *Matcher) shownEnd(line []byte) int {
	if m.opts.MaxColumns > 0 {
		return colEnd(line, m.opts.MaxColumns)
	}
	return len(line)
}
