package grep

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"slices"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"golang.org/x/text/transform"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// Buffer sizes.
const (
	// MaxLineBytes is the longest line searched in one piece; longer
	// lines are searched in windows of this size (FileResult.LongLines).
	MaxLineBytes = 4 << 20
	// MaxWholeBytes caps a whole-file (multiline) search; the rest of a
	// larger file is not searched (StopSize).
	MaxWholeBytes = 16 << 20
	// readSize is the buffer size of a streamed search of a large file,
	// and the largest file read whole in line mode.
	readSize = 1 << 20
	// streamStart is the initial buffer size of a stream of unknown size.
	streamStart = 64 << 10
	// checkEvery is how many matching lines pass between two checks of
	// the context.
	checkEvery = 64
)

// Scanner searches files for a Matcher. It holds reusable buffers and
// automaton caches, so keep one per goroutine; it is not safe for
// concurrent use.
type Scanner struct {
	m    *Matcher
	dfa  *dfa
	fwd  *mdfa // the match automata (see matchDFAs); nil until used
	back *mdfa
	fnd  finder
	buf  []byte

	lines   []Line     // scratch for the lines of a file (see settle)
	spanBuf [][2]int   // scratch for the spans of a line
	state   fileSearch // the search of the current file

	// Buffer sizes (tests shrink them): chunk is the read size of a
	// streamed search, maxLine the longest line searched whole and the
	// largest file read whole, maxWhole the cap of a whole-file search.
	chunk, maxLine, maxWhole int
}

// NewScanner returns a Scanner for m.
func (m *Matcher) NewScanner() *Scanner {
	s := &Scanner{m: m, dfa: newDFA(m.prog), fnd: newFinder(m.lits),
		chunk: readSize, maxLine: MaxLineBytes, maxWhole: MaxWholeBytes}
	s.dfa.poll = s.state.canceled
	return s
}

// SearchFile searches the regular file name of fsys, unless it is larger
// than max bytes (max < 0: no cap), which fails with an error wrapping
// fsx.ErrTooLarge without reading. A file up to MaxLineBytes is read with
// a single read into a reused buffer. The returned error is a coded
// *errs.Error: the file cannot be opened or read, or is not a regular file
// (the caller records it and goes on), or ctx ended (the partial result is
// returned with it).
func (s *Scanner) SearchFile(ctx context.Context, fsys fs.FS, name string, max int64) (*FileResult, error) {
	return s.SearchOpened(ctx, name, max, func() (fsx.Regular, error) { return fsx.OpenRegular(fsys, name) })
}

// SearchOpened is SearchFile for a file that open opens (through a
// directory descriptor, say); name is its path for errors. It closes the
// file.
func (s *Scanner) SearchOpened(ctx context.Context, name string, max int64, open func() (fsx.Regular, error)) (*FileResult, error) {
	f, err := open()
	if err != nil {
		return nil, &errs.Error{Code: errs.CodeOf(err), Path: name, Message: "cannot open " + name + ": " + err.Error(), Err: err}
	}
	defer f.Close()
	if max >= 0 && f.Size() > max {
		return nil, &errs.Error{Code: errs.TooLarge, Path: name, Message: name + " is over the size cap", Err: fsx.ErrTooLarge}
	}
	res, err := s.search(ctx, f, f.Size())
	s.settle(res)
	if err != nil {
		if e, ok := err.(*errs.Error); ok && e.Path == "" {
			e.Path = name
		}
	}
	return res, err
}

// SearchReader searches everything r yields, in chunks.
func (s *Scanner) SearchReader(ctx context.Context, r io.Reader) (*FileResult, error) {
	res, err := s.search(ctx, r, -1)
	s.settle(res)
	return res, err
}

// SearchBytes searches b, which it does not modify or retain.
func (s *Scanner) SearchBytes(ctx context.Context, b []byte) (*FileResult, error) {
	if enc, _ := bomEncoding(b); enc != nil {
		return s.SearchReader(ctx, bytes.NewReader(b))
	}
	res := &FileResult{}
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
		res.Encoding = "utf-8"
	}
	fs := s.begin(ctx, res)
	if s.m.whole && len(b) > s.maxWhole {
		b = b[:s.maxWhole]
		res.Truncated, res.Stop = true, StopSize
	}
	if !fs.binaryCheck(b, 0, len(b)) {
		return res, nil
	}
	fs.process(b, 0, len(b))
	s.settle(res)
	return res, fs.err
}

// settle gives res its own Lines, of the right size, and keeps the
// slice they were gathered in as scratch for the next file: most files
// report a few lines, and growing a slice for each costs more than one
// copy.
func (s *Scanner) settle(res *FileResult) {
	if res == nil {
		return
	}
	if c := cap(res.Lines); c > 0 && c <= 4096 {
		s.lines = res.Lines[:0]
	}
	if len(res.Lines) == 0 {
		res.Lines = nil
	} else {
		res.Lines = slices.Clone(res.Lines)
	}
}

// bomEncoding returns the decoder and name for a UTF-16 or UTF-32
// byte-order mark at the start of b, or nil.
func bomEncoding(b []byte) (encoding.Encoding, string) {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}):
		return utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM), "utf-32le"
	case bytes.HasPrefix(b, []byte{0, 0, 0xFE, 0xFF}):
		return utf32.UTF32(utf32.BigEndian, utf32.ExpectBOM), "utf-32be"
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), "utf-16le"
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), "utf-16be"
	}
	return nil, ""
}

// search reads r (size bytes when size >= 0) and searches it.
func (s *Scanner) search(ctx context.Context, r io.Reader, size int64) (*FileResult, error) {
	res := &FileResult{}
	fs := s.begin(ctx, res)
	// want is the buffer size to reach before searching: the whole file
	// when it is small or in whole-file mode, else one chunk, and at
	// least the binary window. A stream of unknown size starts with a
	// small buffer that grows while data keeps coming.
	want := s.chunk
	switch {
	case s.m.whole:
		want = s.maxWhole + 1
		if size >= 0 && size < int64(s.maxWhole) {
			want = int(size) + 1
		}
	case s.m.opts.FirstOnly && size > streamStart:
		// Likely to stop early: read in small chunks, as ripgrep does.
		want = min(s.chunk, streamStart)
	case size >= 0 && size <= int64(s.chunk):
		want = int(size) + 1
	case size < 0:
		want = min(s.chunk, streamStart)
	}
	want = max(want, min(s.m.opts.BinaryScan, s.maxLine), 4) // 4: the longest byte-order mark
	start := want
	if size < 0 {
		start = min(want, 4<<10)
	}
	buf := s.buffer(start)
	defer s.release()
	n, from := 0, 0 // buf[:n] holds data; buf[:from] is context already searched
	first := true
	for {
		var eof bool
		var err error
		n, eof, err = fill(r, buf, n, size, fs.off)
		if err != nil {
			return res, errs.Wrap(errs.CodeOf(err), err, "read error: %v", err)
		}
		if !eof && n == len(buf) && len(buf) < want {
			buf = s.grow(buf, min(2*len(buf), want), n)
			continue
		}
		if first {
			first = false
			if enc, name := bomEncoding(buf[:n]); enc != nil && res.Encoding == "" {
				// Restart on the decoded stream.
				head := bytes.Clone(buf[:n])
				r = transform.NewReader(io.MultiReader(bytes.NewReader(head), r), enc.NewDecoder())
				res.Encoding, size, n = name, -1, 0
				if s.m.whole {
					want = s.maxWhole + 1 // the decoded text may be larger
				}
				first = true
				continue
			}
			if scan := fs.m.opts.BinaryScan; scan > 0 && bytes.IndexByte(buf[:min(n, scan)], 0) >= 0 {
				res.Binary = true
				return res, nil
			}
			// A UTF-8 byte-order mark; not a U+FEFF that a UTF-16 or
			// UTF-32 text (decoded by now) holds after its own mark.
			if res.Encoding == "" && n >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF {
				copy(buf, buf[3:n])
				n -= 3
				fs.off = 3
				fs.cntPos = 3
				fs.lastEnd = 3
				res.Encoding = "utf-8"
			}
		}
		end := n
		split := false
		if s.m.whole {
			if !eof {
				res.Truncated, res.Stop = true, StopSize
				eof = true
				end = min(n, s.maxWhole)
			}
		} else if !eof {
			nl := lastNewline(buf[from:n])
			switch {
			case nl >= 0:
				end = from + nl + 1
			case len(buf) < s.maxLine:
				buf = s.grow(buf, min(2*len(buf), s.maxLine), n)
				continue
			default:
				split = true
				res.LongLines++
			}
		}
		if !fs.binaryCheck(buf, from, end) {
			return res, nil
		}
		fs.process(buf, from, end)
		if fs.err != nil || eof {
			return res, fs.err
		}
		if fs.stop && fs.afterLeft == 0 {
			// Stopped early: the rest of the binary window must still be
			// free of NUL bytes for the result to stand.
			if scan := fs.m.opts.BinaryScan; fs.nulLine < 0 && fs.off+n < scan && nulAhead(r, buf, scan-(fs.off+n)) {
				*res = FileResult{Binary: true, Encoding: res.Encoding}
			}
			return res, nil
		}
		if split {
			fs.afterLeft = 0
			fs.lastEnd = fs.off + end
			// No newline after from: the line starts in the context.
			fs.contKey = fs.lineKey(bytes.LastIndexByte(buf[:from], '\n') + 1)
		} else {
			fs.contKey = 0
		}
		// Roll: keep the lines that may serve as context before the next
		// match, drop the rest.
		keep := end
		if !split {
			lo := max(fs.lastEnd-fs.off, 0)
			for k := 0; k < fs.m.opts.Before && keep > lo; k++ {
				keep = bytes.LastIndexByte(buf[:keep-1], '\n') + 1
			}
			keep = max(keep, lo)
		}
		if !fs.keys {
			fs.countTo(buf, keep)
		}
		copy(buf, buf[keep:n])
		n -= keep
		from = end - keep
		fs.off += keep
		if n > len(buf)/2 && len(buf) < s.maxLine {
			buf = s.grow(buf, min(2*len(buf), s.maxLine), n)
		}
		if fs.canceled() {
			return res, fs.err
		}
	}
}

// lastNewline is bytes.LastIndexByte(b, '\n'), which is a loop over bytes,
// but finds a long stretch without a newline (a minified file) with the
// vectorised bytes.IndexByte.
func lastNewline(b []byte) int {
	const tail = 4 << 10
	if len(b) <= tail {
		return bytes.LastIndexByte(b, '\n')
	}
	if i := bytes.LastIndexByte(b[len(b)-tail:], '\n'); i >= 0 {
		return len(b) - tail + i
	}
	last := -1
	for head := b[:len(b)-tail]; ; {
		i := bytes.IndexByte(head[last+1:], '\n')
		if i < 0 {
			return last
		}
		last += 1 + i
	}
}

// nulAhead reads up to k more bytes from r, using buf as scratch, and
// reports whether they hold a NUL byte (read errors count as no).
func nulAhead(r io.Reader, buf []byte, k int) bool {
	for k > 0 {
		n, err := r.Read(buf[:min(k, len(buf))])
		if bytes.IndexByte(buf[:n], 0) >= 0 {
			return true
		}
		k -= n
		if err != nil || n == 0 {
			return false
		}
	}
	return false
}

// fill reads from r into buf[n:] until buf is full or r is exhausted. A
// reader of known size is taken as exhausted once size bytes are read.
func fill(r io.Reader, buf []byte, n int, size int64, off int) (int, bool, error) {
	empty := 0
	for n < len(buf) {
		if size >= 0 && int64(off+n) >= size && size > 0 {
			return n, true, nil
		}
		k, err := r.Read(buf[n:])
		n += k
		if err == io.EOF {
			return n, true, nil
		}
		if err != nil {
			return n, false, err
		}
		if k > 0 {
			empty = 0
		} else if empty++; empty >= 100 {
			return n, false, io.ErrNoProgress
		}
	}
	return n, false, nil
}

// buffer returns the scanner's buffer with length n. It grows at least
// twofold (up to one chunk), so that files of rising sizes do not each
// cost a new buffer: fresh memory costs a page fault per 4 KiB.
func (s *Scanner) buffer(n int) []byte {
	if cap(s.buf) < n {
		s.buf = make([]byte, max(n, min(2*cap(s.buf), s.chunk+1)))
	}
	return s.buf[:n]
}

// grow returns a buffer of length n holding buf[:keep].
func (s *Scanner) grow(buf []byte, n, keep int) []byte {
	nb := make([]byte, n)
	copy(nb, buf[:keep])
	s.buf = nb
	return nb
}

// release drops a buffer too big to keep between files.
func (s *Scanner) release() {
	if cap(s.buf) > s.maxLine+1 {
		s.buf = nil
	}
}

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
	contKey  int // the key of the long line the next buffer continues; 0: none
	limitHit bool
	nulLine  int  // start of the line holding a late NUL in the current buffer, or -1
	stop     bool // stop: a limit, FirstOnly, the last line range, a late NUL or ctx
	checks   int
}

func (s *Scanner) begin(ctx context.Context, res *FileResult) *fileSearch {
	res.Lines = s.lines[:0]
	s.state = fileSearch{s: s, m: s.m, res: res, ctx: ctx, doneCh: ctx.Done(), cntLine: 1, nulLine: -1,
		keys: s.m.opts.CountOnly && s.m.ranges == nil && !s.m.whole}
	return &s.state
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

// binaryCheck looks for a NUL in buf[from:end]. Inside the binary window
// the file is binary: the result is cleared and false returned. After it,
// end is cut back to the start of the NUL's line and the search stops
// there. It returns true when the search goes on.
func (fs *fileSearch) binaryCheck(buf []byte, from, end int) bool {
	scan := fs.m.opts.BinaryScan
	if scan < 0 {
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

// process searches the lines of buf[from:end] (buf[:from] is context
// only).
func (fs *fileSearch) process(buf []byte, from, end int) {
	if fs.nulLine >= 0 {
		end = fs.nulLine
	}
	data := buf[:end]
	if f := fs.s.fnd; f != nil {
		f.reset() // cursors point into the previous contents
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
		// Only after-context is still wanted.
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

func (fs *fileSearch) processLines(data []byte, from int) {
	m := fs.m
	for pos := from; pos < len(data) && !fs.stop; {
		ls, le := fs.s.nextLine(data, pos)
		if ls < 0 {
			return
		}
		pos = le + 1
		line := trimCR(data, ls, le)
		if fs.keys {
			fs.count(fs.lineKey(ls), fs.s.count(line))
		} else if n := fs.lineNo(data, ls); !m.inRanges(n) {
			continue
		} else if m.opts.CountOnly || n == fs.lastMatch {
			fs.count(n, fs.s.count(line))
		} else {
			fs.report(data, ls, le, n, nil, -1)
		}
		if fs.checks++; fs.checks%checkEvery == 0 && fs.canceled() {
			return
		}
	}
}

// processWhole searches data as one text (matches may span lines).
func (fs *fileSearch) processWhole(data []byte) {
	if f := fs.s.fnd; f != nil && f.index(data, 0) < 0 {
		return
	}
	if fs.canceled() { // regexp cannot be interrupted: check before it runs
		return
	}
	m := fs.m
	curLS, curLE, curN, curCount := -1, 0, 0, 0
	keep := 0 // the offset in the current line past which spans are not kept
	var spans [][2]int
	// lineAt returns the bounds [ls, le) of the line holding data[p]. The
	// positions asked for only grow, so the last line found is reused and
	// the next one is looked for from its end: each byte is scanned once
	// however many matches a line holds.
	lastLS, lastLE := -1, -1
	lineAt := func(p int) (int, int) {
		if lastLS >= 0 && p >= lastLS && p <= lastLE {
			return lastLS, lastLE
		}
		from := 0
		if lastLS >= 0 && p > lastLE {
			from = lastLE // a newline: the search below finds it at least
		}
		lastLS = from + bytes.LastIndexByte(data[from:p], '\n') + 1
		lastLE = len(data)
		if j := bytes.IndexByte(data[p:], '\n'); j >= 0 {
			lastLE = p + j
		}
		return lastLS, lastLE
	}
	flush := func() {
		if curLS < 0 {
			return
		}
		if m.inRanges(curN) {
			if m.opts.CountOnly {
				fs.count(curN, curCount)
			} else {
				fs.report(data, curLS, curLE, curN, spans, curCount)
			}
		}
		curLS, spans, curCount = -1, nil, 0
	}
	s := fs.s
	s.eachMatch(data, true, func(a, b int) bool {
		if a == len(data) && (a == 0 || data[a-1] == '\n') {
			return false // an empty match after the last line
		}
		first := true
		for p := a; ; {
			ls, le := lineAt(p)
			text := trimCR(data, ls, le)
			if ls != curLS {
				flush()
				if fs.stop {
					return false
				}
				curLS, curLE, curN = ls, le, fs.lineNo(data, ls)
				spans = [][2]int{} // not nil: report takes the spans and count given
				keep = m.shownEnd(text)
			}
			if sa := min(max(a, ls)-ls, len(text)); sa <= keep && !m.opts.CountOnly { // the rest cannot be shown
				spans = append(spans, [2]int{sa, min(b, le, ls+len(text)) - ls})
			}
			if first {
				curCount++
				first = false
			}
			if b <= le+1 || le >= len(data) {
				break
			}
			p = le + 1
		}
		return true
	})
	flush()
}

// trimCR returns the line data[ls:le] without a '\r' that precedes its
// '\n'.
func trimCR(data []byte, ls, le int) []byte {
	if le > ls && le < len(data) && data[le-1] == '\r' {
		return data[ls : le-1]
	}
	return data[ls:le]
}

// lineKey identifies, in place of its number, the line that starts at ls in
// the current buffer: its absolute offset plus one, or the key of the long
// line whose next window the buffer begins with.
func (fs *fileSearch) lineKey(ls int) int {
	if ls == 0 && fs.contKey != 0 {
		return fs.contKey
	}
	return fs.off + ls + 1
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
	}
	fs.res.Matches += matches
}

// report adds the matching line data[ls:le] (number n) with its context.
// spans and matches are computed when spans is nil.
func (fs *fileSearch) report(data []byte, ls, le, n int, spans [][2]int, matches int) {
	o := &fs.m.opts
	if fs.limitHit {
		fs.flushAfter(data, ls)
		fs.res.Truncated, fs.res.Stop = true, StopLimit
		fs.stop = true
		fs.afterLeft = 0
		return
	}
	fs.flushAfter(data, ls)
	fs.emitBefore(data, ls, n)
	line := trimCR(data, ls, le)
	if spans == nil {
		spans, matches = fs.s.spans(line, fs.m.shownEnd(line))
	}
	fs.res.Lines = append(fs.res.Lines, makeLine(line, n, true, spans, o.MaxColumns))
	fs.res.MatchLines++
	fs.res.Matches += matches
	fs.lastMatch, fs.lastLine = n, n
	fs.lastEnd = fs.off + le + 1
	fs.afterLeft = o.After
	if o.FirstOnly {
		fs.stop = true
	}
	if o.MaxMatchesPerFile > 0 && fs.res.MatchLines >= o.MaxMatchesPerFile {
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
		fs.context(data, p, le, fs.lastLine+1)
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
	for ; k > 0; k-- {
		le := p + bytes.IndexByte(data[p:ls], '\n')
		fs.context(data, p, le, n-k)
		p = le + 1
	}
}

// context reports a context line unless a line range excludes it.
func (fs *fileSearch) context(data []byte, ls, le, n int) {
	fs.lastLine = n
	if !fs.m.inRanges(n) {
		return
	}
	fs.res.Lines = append(fs.res.Lines, makeLine(trimCR(data, ls, le), n, false, nil, fs.m.opts.MaxColumns))
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
		if s.fnd == nil || s.m.complete {
			return ls, le
		}
		to := min(le+1, len(data))
		switch s.dfa.scan(data, ls, to) {
		case -1:
		case stopped:
			return -1, -1
		case scanFailed:
			switch s.firstEnd(trimCR(data, ls, le)) {
			case -1:
			case stopped:
				return -1, -1
			default:
				return ls, le
			}
		default:
			return ls, le
		}
		from = le + 1
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

// spans returns the matches in a matching line that start at or before
// offset keep (the rest cannot be shown), in a scratch slice that the next
// call reuses, and how many matches the line holds.
func (s *Scanner) spans(line []byte, keep int) ([][2]int, int) {
	out, n := s.spanBuf[:0], 0
	s.eachMatch(line, true, func(a, b int) bool {
		if a <= keep {
			out = append(out, [2]int{a, b})
		}
		n++
		return true
	})
	s.spanBuf = out[:0]
	return out, n
}

// count returns the number of matches in a matching line.
func (s *Scanner) count(line []byte) int {
	if lit := s.m.plainLit; lit != nil {
		return bytes.Count(line, lit)
	}
	n := 0
	s.eachMatch(line, false, func(int, int) bool { n++; return true })
	return n
}

// shownEnd is the offset in line past which nothing is shown: the end of
// its first MaxColumns characters, or its length.
func (m *Matcher) shownEnd(line []byte) int {
	if m.opts.MaxColumns > 0 {
		return colEnd(line, m.opts.MaxColumns)
	}
	return len(line)
}
