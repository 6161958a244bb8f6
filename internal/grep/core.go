package grep

import (
	"bytes"
	"context"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// The state of the search of one file, shared by its reading side
// (buffer.go), line iteration (lines.go), whole-file search (whole.go) and
// context emission (sink.go): binary detection, line ranges and lazy line
// numbering.

// fileSearch is the state of the search of one file. Offsets named abs
// or stored in fields are absolute (from the start of the file's data);
// off is the absolute offset of the current buffer's first byte.
type fileSearch struct {
	s      *Scanner
	m      *Matcher
	res    *FileResult
	doneCh <-chan struct{}
	ctx    context.Context
	err    error

	off       int
	cntPos    int // absolute offset whose line number is cntLine
	cntLine   int
	lastEnd   int // absolute offset just after the last reported line
	lastLine  int // number of the last reported line
	afterLeft int // context lines still to report after the last match
	lastMatch int // number (or key) of the last matching line
	// keys: counting needs no line numbers (CountOnly without ranges), so
	// lines are told apart by lineKey and newlines are never counted.
	keys     bool
	contKey  int      // the key of the long line the buffer continues; 0: none
	contEnd  int      // where that line ends in the buffer (its first newline, or its end)
	split    bool     // the buffer ends inside a long line
	long     longLine // the long line the buffer ends in or continues
	limitHit bool
	nulLine  int  // start of the line holding a late NUL in the current buffer, or -1
	nulFree  int  // absolute offset before which the data is known to hold no NUL
	stop     bool // stop: a limit, FirstOnly, the last line range, a late NUL or ctx
	checks   int
	maxLines int // the matching lines still reported (MaxMatchesPerFile or Resume.Left); 0: no limit
	total    int // the matching lines reported, over the parts
	// Parts (Options.PartLines): partMax is the matching lines of a part
	// (0: the file is not split, or no more); part is given each full part
	// and says whether to go on (nil: stop at the first, with Resume set).
	partMax int
	part    func(*FileResult) bool
	size    int64      // the bytes of the file searched (Resume.Size)
	id      fsx.FileID // its identity (Resume.File)
}

// begin starts the search of a file into res.
func (s *Scanner) begin(ctx context.Context, res *FileResult) *fileSearch {
	res.Lines = s.lines[:0]
	if s.lendAll {
		s.mem.text, s.mem.spans = s.mem.text[:0], s.mem.spans[:0]
	}
	s.state = fileSearch{s: s, m: s.m, res: res, ctx: ctx, doneCh: ctx.Done(), cntLine: 1, nulLine: -1,
		keys: s.m.opts.CountOnly && s.m.ranges == nil && !s.m.whole, maxLines: max(s.m.opts.MaxMatchesPerFile, 0)}
	return &s.state
}

// parts makes the search end a part at every Options.PartLines matching
// lines, where it can (see PartLines), giving each to part (nil: stopping
// at the first).
func (fs *fileSearch) parts(part func(*FileResult) bool) {
	o := &fs.m.opts
	if o.PartLines > 0 && !o.CountOnly && !o.FirstOnly && !fs.m.whole {
		fs.partMax, fs.part = o.PartLines, part
	}
}

// resume starts the search at at, a line start that a search of the same
// file stopped at: the lines before it were searched, and the binary
// window checked.
func (fs *fileSearch) resume(at *Resume) {
	off := int(at.Offset)
	fs.off, fs.cntPos, fs.lastEnd = off, off, off
	fs.cntLine, fs.lastLine = at.Line, at.Line-1
	fs.maxLines = at.Left
	fs.nulFree = max(fs.m.opts.BinaryScan, 0)
	fs.res.Encoding = at.Encoding
}

// partFull reports that the current part holds its PartLines matching
// lines.
func (fs *fileSearch) partFull() bool {
	return fs.partMax > 0 && fs.res.MatchLines >= fs.partMax
}

// endPart ends the part that holds PartLines matching lines, the next
// matching line being found and the after-context before it reported: the
// part goes to fs.part, and the search goes on with a fresh part (true);
// without fs.part, or when it returns false, the search stops there, with
// Resume set.
func (fs *fileSearch) endPart() bool {
	res := fs.res
	res.Resume = &Resume{Offset: int64(fs.lastEnd), Line: fs.lastLine + 1, Encoding: res.Encoding, Size: fs.size, File: fs.id}
	if fs.maxLines > 0 {
		res.Resume.Left = fs.maxLines - fs.total
	}
	if fs.part != nil && fs.part(res) {
		res.Lines, res.MatchLines, res.Matches, res.Resume = res.Lines[:0], 0, 0, nil
		return true
	}
	fs.stop, fs.afterLeft = true, 0
	return false
}

// canceled reports (and records) whether the context has ended.
func (fs *fileSearch) canceled() bool {
	if fs.doneCh == nil {
		return false
	}
	select {
	case <-fs.doneCh:
		err := fs.ctx.Err()
		fs.err = errs.Wrap(errs.CodeOf(err), err, "search stopped: %v", err)
		fs.stop = true
		return true
	default:
		return false
	}
}

// binaryCheck looks for a NUL in buf[from:end], past what the first
// buffer's check already found free of NUL (nulFree). Inside the binary window
// the file is binary: the result is cleared and false returned. After it,
// end is cut back to the start of the NUL's line and the search stops
// there. It returns true when the search goes on.
func (fs *fileSearch) binaryCheck(buf []byte, from, end int) bool {
	scan := fs.m.opts.BinaryScan
	if scan < 0 {
		return true
	}
	from = max(from, fs.nulFree-fs.off)
	if from >= end {
		return true
	}
	i := bytes.IndexByte(buf[from:end], 0)
	if i < 0 {
		return true
	}
	i += from
	if fs.off+i < scan {
		enc := fs.res.Encoding
		*fs.res = FileResult{Binary: true, Encoding: enc}
		return false
	}
	fs.nulLine = bytes.LastIndexByte(buf[:i], '\n') + 1
	return true
}

// quiet reports that buf[from:end] can be passed over: it holds no NUL
// byte and no start of a required literal, so none of its lines match, and
// no context line after a match is due. It answers only where one pass of
// the SIMD prefilter can tell, which then replaces the separate NUL scan of
// binaryCheck; where it answers false, binaryCheck and process run.
func (fs *fileSearch) quiet(buf []byte, from, end int) bool {
	f, ok := fs.s.fnd.(*simdFinder)
	if !ok || fs.m.whole || fs.m.ranges != nil || fs.afterLeft > 0 || fs.stop || fs.contKey != 0 {
		return false
	}
	return f.quiet(buf[:end], from)
}

// process searches the lines of buf[from:end] (buf[:from] is context
// only).
func (fs *fileSearch) process(buf []byte, from, end int) {
	if fs.nulLine >= 0 {
		end = fs.nulLine
		from = min(from, end) // a long line's NUL: the window's context goes too
	}
	data := buf[:end]
	if f := fs.s.fnd; f != nil {
		f.reset() // cursors point into the previous contents
	}
	if fs.contKey != 0 {
		fs.contEnd = len(data)
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			fs.contEnd = j
		}
	}
	pastRanges := false
	if !fs.stop && !fs.m.whole && fs.m.ranges != nil {
		// Nothing after the last range can match or be shown: do not
		// search it.
		if e := fs.rangesEnd(data, from); e < len(data) {
			data, pastRanges = data[:e], true
		}
	}
	if fs.stop {
		// Only after-context is still wanted: after the long line the
		// buffer continues when it ends here.
		if fs.contKey != 0 && !fs.split {
			fs.longEnd(fs.contEnd)
		}
	} else if fs.m.whole {
		fs.processWhole(data)
	} else {
		fs.processLines(data, from)
	}
	fs.flushAfter(data, len(data))
	if pastRanges {
		fs.stop, fs.afterLeft = true, 0
	}
	if fs.nulLine >= 0 {
		// Report the NUL if the search reached it and the lines it hides
		// were wanted (a line range may end before it).
		if !fs.stop && (fs.m.ranges == nil || fs.lineNo(buf, fs.nulLine) <= fs.m.lastRangeLine()) {
			fs.res.Truncated, fs.res.Stop = true, StopNUL
		}
		fs.stop, fs.afterLeft = true, 0 // nothing after the NUL's line
	}
}

// rangesEnd returns the offset just after the last line of data[from:]
// that a line range allows, or len(data).
func (fs *fileSearch) rangesEnd(data []byte, from int) int {
	last := fs.m.lastRangeLine()
	end := from
	for n := fs.lineNo(data, from); n <= last; n++ {
		j := bytes.IndexByte(data[end:], '\n')
		if j < 0 {
			return len(data)
		}
		end += j + 1
	}
	return end
}

// trimCR returns the line data[ls:le] without a '\r' that precedes its
// '\n'.
func trimCR(data []byte, ls, le int) []byte {
	if le > ls && le < len(data) && data[le-1] == '\r' {
		return data[ls : le-1]
	}
	return data[ls:le]
}

// lineKey identifies, in place of its number, the line that holds
// data[p] and ends at le: its end's absolute offset plus one, or, in the
// long line that the buffer continues, that line's key.
func (fs *fileSearch) lineKey(p, le int) int {
	if fs.contKey != 0 && p < fs.contEnd {
		return fs.contKey
	}
	return fs.off + le + 1
}

// lineNo returns the number of the line starting at data[ls].
func (fs *fileSearch) lineNo(data []byte, ls int) int {
	fs.countTo(data, ls)
	return fs.cntLine
}

// countTo advances the lazy line count to data[p].
func (fs *fileSearch) countTo(data []byte, p int) {
	if abs := fs.off + p; abs > fs.cntPos {
		fs.cntLine += bytes.Count(data[fs.cntPos-fs.off:p], []byte{'\n'})
		fs.cntPos = abs
	}
}

// count records a matching line without reporting it; n is its number,
// or its lineKey when fs.keys is set.
func (fs *fileSearch) count(n, matches int) {
	if n != fs.lastMatch {
		fs.res.MatchLines++
		fs.lastMatch = n
		if fs.m.opts.FirstOnly {
			fs.stop = true
		}
	} else if k := len(fs.res.Lines) - 1; k >= 0 && fs.res.Lines[k].Match && fs.res.Lines[k].Number == n {
		fs.res.Lines[k].Matches += matches // a reported line's later windows
	}
	fs.res.Matches += matches
}
