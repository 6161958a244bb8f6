package grep

import (
	"bytes"
	"context"
	"io"
	"sync"
	"unsafe"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"golang.org/x/text/transform"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// Buffer handling: files are read in chunks into the Scanner's buffer;
// the unfinished last line and the lines that may serve as context are
// carried over to the next chunk. A mapped file is searched in the same
// windows, taken from the mapping instead of read into the buffer, so that
// the result is the same.

// stream is the reading side of the search of one file: a buffer of win
// bytes holding buf[:n], of which buf[:from] is context already searched,
// filled from r (or taken from the mapping mp) and rolled forward as its
// lines are searched (ripgrep's line buffer).
type stream struct {
	s     *Scanner
	fs    *fileSearch
	r     io.Reader
	mp    *fsx.Mapping // the file's mapping, or nil: buf is read from r
	size  int64        // the bytes r holds, or -1 when unknown
	want  int          // the buffer size to reach before searching
	then  int          // the size of want after the first buffer (> want: FirstOnly read a first chunk)
	win   int          // the buffer size; a window of mp of at most win bytes
	buf   []byte
	n     int
	from  int
	first bool // the first buffer is yet to be examined (encoding, binary)
	// text is SearchOpened's, given the text read from r; given is the
	// offset up to which it was, or -1 when it is given no more.
	text  func(p []byte, end bool) bool
	given int
}

// how says how a file is searched; its zero value searches it whole from
// its start.
type how struct {
	// text is given the text read (see SearchOpened); nil: none.
	text func([]byte, bool) bool
	// parts splits the result (Options.PartLines), giving each full part
	// to part (nil: stopping at the first).
	parts bool
	part  func(*FileResult) bool
	// at is where a split search goes on (SearchFrom); nil: at the start.
	at *Resume
	// id is the identity of the file searched (Resume.File).
	id fsx.FileID
}

// search reads r (size bytes when size >= 0, r's data starting at the
// offset h.at when set), or the mapping mp when not nil, and searches it,
// a buffer at a time, as h says.
func (s *Scanner) search(ctx context.Context, r io.Reader, mp *fsx.Mapping, size int64, h how) (*FileResult, error) {
	res := s.newResult()
	fs := s.begin(ctx, res)
	if h.parts {
		fs.parts(h.part)
		fs.size, fs.id = size, h.id
	}
	if h.at != nil {
		fs.resume(h.at)
	}
	st := s.open(fs, r, mp, size)
	if h.at != nil {
		st.first, st.given = false, -1 // the head was examined by the first part
	}
	st.text = h.text
	defer s.release()
	for {
		eof, err := st.fill()
		if err != nil {
			return res, errs.Wrap(errs.CodeOf(err), err, "read error: %v", err)
		}
		if fs.err != nil { // canceled while the buffer filled
			return res, fs.err
		}
		if !eof && st.n == st.win && st.win < st.want {
			st.grow(st.want)
			continue
		}
		if st.first {
			restart, binary := st.head()
			if binary {
				return res, nil
			}
			if restart {
				continue
			}
		}
		end, last, split, more := st.cut(eof)
		if more {
			continue
		}
		fs.split = split
		if !split && fs.quiet(st.buf, st.from, end) {
			// Nothing to report in this buffer.
		} else if !fs.binaryCheck(st.buf, st.from, end) {
			return res, nil
		} else {
			fs.process(st.buf, st.from, end)
		}
		if fs.err == nil {
			st.give(last && eof)
		}
		if fs.err != nil || last {
			return res, fs.err
		}
		if fs.stop && fs.afterLeft == 0 {
			if !st.drain() {
				st.stopEarly()
			}
			return res, fs.err
		}
		st.roll(end, split)
		if fs.canceled() {
			return res, fs.err
		}
	}
}

// open starts the stream of r, or of mp. The buffer to fill before
// searching is the whole file when it is small or in whole-file mode, else
// one chunk, and at least the binary window. A stream of unknown size
// starts with a small buffer that grows while data keeps coming.
func (s *Scanner) open(fs *fileSearch, r io.Reader, mp *fsx.Mapping, size int64) *stream {
	want := s.chunk
	switch {
	case s.m.whole:
		want = s.maxWhole + 1
		if size >= 0 && size < int64(s.maxWhole) {
			want = int(size) + 1
		}
	case size >= 0 && size <= int64(s.chunk):
		want = int(size) + 1
	case size < 0:
		want = min(s.chunk, s.start)
	}
	want = max(want, min(s.m.opts.BinaryScan, s.maxLine), 4) // 4: the longest byte-order mark
	then := want
	if s.m.opts.FirstOnly && !s.m.whole && size > int64(s.start) {
		// Likely to stop early: a first small chunk, as ripgrep reads;
		// without a match there, the rest in big reads.
		want = max(min(want, s.start), min(s.m.opts.BinaryScan, s.maxLine), 4)
	}
	start := want
	if size < 0 {
		start = min(want, 4<<10)
	}
	s.st = stream{s: s, fs: fs, r: r, mp: mp, size: size, want: want, then: then, win: start, first: true}
	if mp == nil {
		room := start
		if size >= 0 {
			room = then // a FirstOnly search may grow to it: in place
		}
		s.buffer(room)
		s.st.buf = s.place(fs.off, start)
	}
	return &s.st
}

// fill reads into the rest of the buffer; it reports the end of the
// stream. From a mapping it takes the window at the current offset.
func (st *stream) fill() (bool, error) {
	if st.mp != nil {
		off := st.fs.off
		left := len(st.mp.Data) - off
		st.n = min(st.win, left)
		st.buf = st.mp.Data[off : off+st.n : off+st.n]
		return left < st.win, nil
	}
	n, eof, err := readInto(st.r, st.buf, st.n, st.size, st.fs.off, st.fs.canceled)
	st.n = n
	return eof, err
}

// grow doubles the buffer, up to limit bytes.
func (st *stream) grow(limit int) {
	st.resize(min(2*st.win, limit))
}

// resize makes the buffer win bytes, keeping what it holds.
func (st *stream) resize(win int) {
	st.win = win
	if st.mp == nil {
		st.buf = st.s.grow(st.buf, st.win, st.n, st.fs.off, st.fs.canceled)
	}
}

// growLine grows the buffer, up to limit bytes, for a line longer than it:
// at once to the rest of the file when its size is known, the rest fits,
// and the search reads it all anyway or it is at most jumpMax buffers (each
// doubling copies the line read so far into fresh memory, a page fault per
// 4 KiB: a line of 1.4 MB in a file of 1.4 MB went through buffers of 256
// KiB to 2 MiB, 1.9 MB copied); jumpMax-fold towards the limit when the
// rest does not fit and the search reads it all anyway; else twofold.
func (st *stream) growLine(limit int) {
	rest := st.size - int64(st.fs.off) + 1 // as open sizes a file read whole
	whole := st.s.m.readsWhole()
	switch {
	case st.size < 0 || rest <= int64(2*st.win):
		st.grow(limit)
	case rest <= int64(limit) && (whole || rest <= int64(jumpMax*st.win)):
		st.resize(int(rest))
	case whole && rest > int64(limit):
		st.resize(min(jumpMax*st.win, limit))
	default:
		st.grow(limit)
	}
}

// jumpMax bounds what a search that may stop within a long line (at its
// first match, say) reads ahead at once: at most this many times the
// buffer it has outgrown.
const jumpMax = 8

// head examines the first buffer: a UTF-16 or UTF-32 byte-order mark
// restarts the stream on the decoded text (restart); a NUL byte in the
// binary window makes the file binary; a UTF-8 byte-order mark is skipped.
func (st *stream) head() (restart, binary bool) {
	st.first = false
	fs, res := st.fs, st.fs.res
	buf := st.buf[:st.n]
	if enc, name := bomEncoding(buf); enc != nil && res.Encoding == "" {
		head := bytes.Clone(buf)
		if st.mp != nil {
			// The decoded text is read into the buffer.
			st.r, st.mp, st.buf = &mapReader{mp: st.mp, off: st.n}, nil, st.s.buffer(st.win)
		}
		st.r = transform.NewReader(io.MultiReader(bytes.NewReader(head), st.r), enc.NewDecoder())
		res.Encoding, st.size, st.n = name, -1, 0
		fs.partMax = 0 // a decoded text's offsets are not the file's: no parts
		if st.s.m.whole {
			st.want = st.s.maxWhole + 1 // the decoded text may be larger
		}
		st.first = true
		return true, false
	}
	if scan := fs.m.opts.BinaryScan; scan > 0 {
		if bytes.IndexByte(buf[:min(len(buf), scan)], 0) >= 0 {
			res.Binary = true
			return false, true
		}
		fs.nulFree = min(len(buf), scan)
	}
	// A UTF-8 byte-order mark; not a U+FEFF that a UTF-16 or UTF-32 text
	// (decoded by now) holds after its own mark.
	if res.Encoding == "" && len(buf) >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF {
		if st.mp != nil {
			st.buf = buf[3:]
		} else {
			st.buf = st.s.place(3, st.win)
			copy(st.buf, buf[3:])
		}
		st.n -= 3
		fs.off, fs.cntPos, fs.lastEnd = 3, 3, 3
		res.Encoding = "utf-8"
	}
	st.given = fs.off
	return false, false
}

// decoded reports a text decoded from UTF-16 or UTF-32, which cannot be
// read again from the file (giveDropped): it is given to st.text from its
// start as it is read, before a match too.
func (st *stream) decoded() bool {
	e := st.fs.res.Encoding
	return e != "" && e != "utf-8"
}

// cut returns where the data to search now ends: all of it at the end of
// the stream (last); in whole-file mode, at most the cap, the rest of a
// larger file not searched (last, StopSize); otherwise after the last
// whole line, or the whole buffer when one line fills it (split: a long
// line is searched in windows). more reports that the buffer grew for a
// line longer than it: read on first.
func (st *stream) cut(eof bool) (end int, last, split, more bool) {
	s, res := st.s, st.fs.res
	switch {
	case eof:
		return st.n, true, false, false
	case s.m.whole:
		res.Truncated, res.Stop = true, StopSize
		return min(st.n, s.maxWhole), true, false, false
	}
	if nl := lastNewline(st.buf[st.from:st.n]); nl >= 0 {
		return st.from + nl + 1, false, false, false
	}
	limit := s.maxLine
	if st.fs.contKey == 0 {
		// Room for a line of maxLine bytes after the context lines the
		// buffer carries (buf[:from], up to maxLine bytes of them), not
		// a window of a long line that overlaps the one before.
		limit += min(st.from, s.maxLine)
	}
	if st.win < limit {
		st.growLine(limit)
		return 0, false, false, true
	}
	if st.fs.contKey == 0 && !s.exact() {
		res.LongLines++ // a match longer than the margin may be missed
	}
	return st.n, false, true, false
}

// give gives st.text the text read since the last call, once the file
// has a match (a file read in one buffer is given whole) or from the
// start for a decoded text; end: this is the end of the text. The text of
// a file read in pieces that the search dropped before its first match is
// read again first (giveDropped).
func (st *stream) give(end bool) {
	fs := st.fs
	switch {
	case st.text == nil || st.mp != nil || st.given < 0 || fs.res.MatchLines == 0 && !st.decoded():
		return
	case st.given < fs.off && !st.giveDropped():
		st.given = -1
		return
	}
	from := st.given - fs.off
	st.given = fs.off + st.n
	if !st.text(st.buf[from:st.n], end) {
		st.given = -1
	}
}

// giveDropped gives st.text the text from st.given up to the buffer's
// start, which the search read and dropped before the file matched, read
// again from the open file (io.ReaderAt, which leaves the offset of its
// reads as it is) into the Scanner's spare buffer; it reports whether it
// gave all of it and st.text asks for more. Only that text is read again,
// not the file: it is not hashed as it is searched, which would cost every
// file read in pieces that does not match.
func (st *stream) giveDropped() bool {
	ra, ok := st.r.(io.ReaderAt)
	if !ok {
		return false
	}
	s, end := st.s, st.fs.off
	if cap(s.spare) < s.chunk {
		s.spare = make([]byte, s.chunk)
	}
	for off := st.given; off < end; {
		p := s.spare[:min(s.chunk, end-off)]
		if n, _ := ra.ReadAt(p, int64(off)); n < len(p) || !st.text(p, false) {
			return false // shrank, failed, or no more text wanted
		}
		off += len(p)
	}
	st.given = end
	return true
}

// drain reads the rest of the file after a search that stopped before its
// end, for st.text, when every byte read so far was given to it and it
// asks for more; it reports whether it did. As stopEarly, it looks at the
// rest of the binary window (read on for it when st.text asks for no
// more): a NUL there makes the file binary, and st.text gets no end.
func (st *stream) drain() bool {
	fs := st.fs
	off := fs.off + st.n // the offset of the next byte of the file
	if st.text == nil || st.mp != nil || st.given != off {
		return false
	}
	scan := fs.m.opts.BinaryScan
	buf := st.s.place(off, st.win)
	for !fs.canceled() {
		n, eof, err := readInto(st.r, buf, 0, st.size, off, nil)
		if err != nil {
			return true // the result stands; the text has no end
		}
		nul := fs.nulLine < 0 && off < scan && bytes.IndexByte(buf[:min(n, scan-off)], 0) >= 0
		more := !nul && st.text(buf[:n], eof) && !eof
		off += n
		if !more && !nul && !eof && fs.nulLine < 0 && off < scan {
			nul = nulAhead(st.r, buf, scan-off)
		}
		if nul {
			*fs.res = FileResult{Binary: true, Encoding: fs.res.Encoding}
		}
		if !more {
			return true
		}
	}
	return true
}

// stopEarly settles a search that stopped before the end of the stream:
// the rest of the binary window must still be free of NUL bytes for the
// result to stand.
func (st *stream) stopEarly() {
	fs := st.fs
	scan := fs.m.opts.BinaryScan
	if fs.nulLine >= 0 || fs.off+st.n >= scan || fs.nulFree >= scan {
		return
	}
	var nul bool
	if st.mp != nil {
		nul = bytes.IndexByte(st.mp.Data[fs.off+st.n:min(scan, len(st.mp.Data))], 0) >= 0
	} else {
		nul = nulAhead(st.r, st.buf, scan-(fs.off+st.n))
	}
	if nul {
		*fs.res = FileResult{Binary: true, Encoding: fs.res.Encoding}
	}
}

// roll drops the data searched up to end, except the lines that may serve
// as context before the next match, and moves the rest to the start of
// the buffer. After a split long line the next buffer goes on with it.
func (st *stream) roll(end int, split bool) {
	fs, buf := st.fs, st.buf
	keep := end
	if split {
		fs.lastEnd = lineUnknown
		fs.contKey = fs.lineKey(end-1, end) // the line that fills the buffer
		if !fs.stop {
			keep = fs.long.keep - fs.off // the windows overlap
		}
	} else {
		fs.contKey = 0
		lo := max(fs.lastEnd-fs.off, 0)
		for k := 0; k < fs.m.opts.Before && keep > lo; k++ {
			keep = bytes.LastIndexByte(buf[:keep-1], '\n') + 1
		}
		keep = max(keep, lo)
	}
	if !fs.keys {
		fs.countTo(buf, keep)
	}
	fs.off += keep
	if st.mp != nil {
		st.buf = buf[keep:st.n]
		st.mp.Drop(fs.off)
	} else {
		st.buf = st.s.place(fs.off, st.win)
		copy(st.buf, buf[keep:st.n])
	}
	st.n -= keep
	st.from = end - keep
	if st.want < st.then {
		// FirstOnly found no match in its first chunk: the rest in one go
		// (a buffer grown past then for a long line stays as it is: it
		// may hold more than then bytes still).
		st.want = st.then
		if st.win < st.then {
			st.resize(st.then)
		}
	}
	if st.n > st.win/2 && st.win < st.s.maxLine {
		st.grow(st.s.maxLine)
	}
}

// mapReader reads a mapping from off on, releasing what it has read.
type mapReader struct {
	mp  *fsx.Mapping
	off int
}

func (r *mapReader) Read(p []byte) (int, error) {
	if r.off >= len(r.mp.Data) {
		return 0, io.EOF
	}
	n := copy(p, r.mp.Data[r.off:])
	r.off += n
	r.mp.Drop(r.off)
	return n, nil
}

// readInto reads from r into buf[n:] until buf is full or r is exhausted. A
// reader of known size is taken as exhausted once size bytes are read.
// stop, when not nil, is asked every pollBytes read whether to stop
// before buf is full (a whole-file search fills megabytes).
func readInto(r io.Reader, buf []byte, n int, size int64, off int, stop func() bool) (int, bool, error) {
	empty := 0
	next := n + pollBytes // where stop is asked next
	for n < len(buf) {
		if stop != nil && n >= next {
			if stop() {
				return n, false, nil
			}
			next = n + pollBytes
		}
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

// lastNewline is bytes.LastIndexByte(b, '\n'), which is a loop over bytes,
// but 32 bytes at a time where there is a SIMD kernel, and elsewhere finds
// a long stretch without a newline (a minified file) with the vectorised
// bytes.IndexByte.
func lastNewline(b []byte) int {
	const tail = 4 << 10
	if hasSIMD || len(b) <= tail {
		return lastIndexByte(b, '\n')
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

// buffer returns a window of n bytes of the scanner's buffer for data
// that starts at offset 0.
func (s *Scanner) buffer(n int) []byte {
	if cap(s.buf) < n+readAlign {
		s.buf, s.anon = s.alloc(n + readAlign)
	}
	return s.place(0, n)
}

// grow returns a window of n bytes holding buf[:keep], a window of the
// scanner's buffer for data that starts at offset off: the same window
// made longer when the buffer has room, else one of a new buffer. It
// copies a step at a time and asks stop (nil: never) between steps: a
// copy into fresh memory takes a page fault per 4 KiB, in some virtual
// machines 5-20 µs each (16 MiB: up to 80 ms). When stop says yes, what
// the window holds past the steps copied is undefined.
func (s *Scanner) grow(buf []byte, n, keep, off int, stop func() bool) []byte {
	if cap(s.buf) >= n+readAlign {
		return s.place(off, n)
	}
	old, anon := s.buf, s.anon
	s.buf, s.anon = s.alloc(n + readAlign)
	nb := s.place(off, n)
	for i := 0; i < keep; i += copyStep {
		if i > 0 && stop != nil && stop() {
			break
		}
		copy(nb[i:keep], buf[i:min(i+copyStep, keep)])
	}
	freeBig(old, anon)
	return nb
}

// copyStep is how much grow copies between two asks of stop: 16 page
// faults of the slowest seen take 0.3 ms.
const copyStep = pollBytes

// Buffers. A scanner keeps a buffer of up to ownMax bytes between files
// (s.own): room for a chunk (readSize), so for the binary window and for
// any file read whole in line mode; a file that needs more (a line longer
// than a chunk, a whole-file search) takes one from bigBufs and gives it
// back when its search ends. A search runs a scanner per goroutine that
// searches (dozens on a large machine): with chunks of 1 MiB, big buffers
// were more than half of what a search of a source tree allocated at 16
// processors (20 of 35 MB), enough for a collection in a short search.
const ownMax = readSize + 1 + readAlign

// bigBufs holds buffers of more than ownMax bytes, as *[]byte, by size
// class: bigBufs[k] those of readSize<<(k+1) bytes and the byte and the
// alignment a read of that many needs (a chunk, a file read whole);
// a larger buffer (a whole-file search's) is not kept.
var bigBufs [6]sync.Pool

// bigClass returns the class of a big buffer of at least need bytes and
// its size; ok is false when need is over the largest class.
func bigClass(need int) (k, size int, ok bool) {
	for k = range bigBufs {
		if size = readSize<<(k+1) + 1 + readAlign; need <= size {
			return k, size, true
		}
	}
	return 0, need, false
}

// alloc returns a buffer of at least need bytes: the scanner's own, of
// need bytes the first time (a search of one small file), then of a whole
// chunk (up to ownMax), so that files of rising sizes do not each cost a
// new one (fresh memory costs a page fault per 4 KiB, written or copied
// into), or a big one. A buffer over the largest class (a
// whole-file search's) is memory of fsx.Anon where there is some (anon):
// a make of 16 MiB cleared memory that the collector had reused, which
// took up to 75 ms with page faults and could not be canceled.
func (s *Scanner) alloc(need int) (b []byte, anon bool) {
	if need <= ownMax {
		n := need
		if s.own != nil {
			n = max(need, min(s.chunk+1+readAlign, ownMax))
		}
		s.own = make([]byte, n)
		return s.own, false
	}
	k, size, ok := bigClass(need)
	if ok {
		if p, _ := bigBufs[k].Get().(*[]byte); p != nil {
			return *p, false
		}
		return make([]byte, size), false
	}
	if b := fsx.Anon(size); b != nil {
		return b, true
	}
	return make([]byte, size), false
}

// freeBig gives b, when it is a big buffer of a class, back to bigBufs,
// and b, when it is memory of fsx.Anon (anon), back to the system.
func freeBig(b []byte, anon bool) {
	if anon {
		fsx.FreeAnon(b)
		return
	}
	if cap(b) <= ownMax {
		return
	}
	if k, size, ok := bigClass(cap(b)); ok && size == cap(b) {
		p := new([]byte) // not &b, which would move b to the heap on every call
		*p = b[:size]
		bigBufs[k].Put(p)
	}
}

// readAlign is the alignment of the data in the buffer relative to its
// offset in the file. The kernel copies a read with rep movsb, which on
// x86 slows down as much as threefold (measured on AMD Zen 4) when the
// destination lies less than 32 bytes past the source modulo 4 KiB (the
// page-cache page is the source), and a buffer whose start is page-aligned
// puts it there after every roll of a short unfinished line. With the
// data's offsets congruent modulo 64 in the buffer and in the file, the
// distance is a multiple of 64.
const readAlign = 64

// place returns the window of n bytes of the scanner's buffer whose start
// sits at offset off modulo readAlign (cap(s.buf) >= n+readAlign).
func (s *Scanner) place(off, n int) []byte {
	pad := (off - int(uintptr(unsafe.Pointer(unsafe.SliceData(s.buf))))) & (readAlign - 1)
	return s.buf[pad : pad+n : pad+n]
}

// release ends a file's use of the buffer: a big one goes back to
// bigBufs and the scanner's own is its buffer again.
func (s *Scanner) release() {
	if cap(s.buf) > ownMax {
		freeBig(s.buf, s.anon)
		s.buf, s.anon = s.own, false
	}
}
