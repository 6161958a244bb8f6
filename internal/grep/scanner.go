package grep

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"runtime/debug"
	"slices"
	"unsafe"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// Buffer sizes.
const (
	// MaxLineBytes is the longest line searched in one piece; longer
	// lines are searched in windows of this size that overlap by Margin
	// (FileResult.LongLines).
	MaxLineBytes = 4 << 20
	// MaxWholeBytes caps a whole-file (multiline) search; the rest of a
	// larger file is not searched (StopSize).
	MaxWholeBytes = 16 << 20
	// readSize is the buffer size of a streamed search of a large file
	// (the window of a mapped one), and the largest file read whole in
	// line mode. 128 KiB: a scanner's own buffer holds it (ownMax), and a
	// read of that many costs no more per byte than larger ones (ripgrep
	// reads 64 KiB).
	readSize = 128 << 10
	// mapSize is the size from which a file is mapped into memory
	// instead of read, where fsx.Map can and the mapping pays: a read
	// copies every byte from the page cache; a mapping costs mmap, page
	// faults and munmap, which interrupts every other core that runs the
	// process to flush its TLB, more than the copy of a small file.
	mapSize = 4 << 20
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
	fwd  *mdfa // the match automata (see forward and backward); nil until used
	back *mdfa
	fnd  finder
	buf  []byte // the buffer of the current file: own, or a big one (see alloc)
	own  []byte // the scanner's own buffer, of at most ownMax bytes
	anon bool   // buf is memory of fsx.Anon, given back when the file's search ends
	// spare holds text read again for SearchOpened's text (giveDropped);
	// nil until then.
	spare []byte
	// free is a result given back (Reuse) for the next search; nil when
	// there is none.
	free *FileResult

	lines   []Line     // scratch for the lines of a file (see settle)
	spanBuf [][2]int   // scratch for the spans of a line
	mem     lineMem    // the texts and spans of reported lines
	lend    bool       // see Lend
	lendAll bool       // see LendAll
	state   fileSearch // the search of the current file
	st      stream     // its reading side

	// Buffer sizes (tests shrink them): chunk is the read size of a
	// streamed search, maxLine the longest line searched whole and the
	// largest file read whole, maxWhole the cap of a whole-file search,
	// mapMin the size from which a file is mapped where that pays (< 0:
	// never; 0: every file, whether that pays or not), start the first
	// buffer of a stream of unknown size and the first chunk of a
	// FirstOnly search (streamStart).
	chunk, maxLine, maxWhole, mapMin, start int
}

// NewScanner returns a Scanner for m.
func (m *Matcher) NewScanner() *Scanner {
	s := &Scanner{m: m, chunk: readSize, maxLine: MaxLineBytes, maxWhole: MaxWholeBytes, mapMin: mapSize, start: streamStart}
	s.reset()
	return s
}

// Reuse gives back res, a result of a search that the caller no longer
// references, for the next search to return cleared instead of a new one:
// a search of many files that keeps only the results of those that match,
// or copies of them, allocates none for the others. Only the struct is
// reused: a copy of it, its Lines and Resume stay valid.
func (s *Scanner) Reuse(res *FileResult) { s.free = res }

// newResult returns a cleared result: the one given back, or a new one.
func (s *Scanner) newResult() *FileResult {
	res := s.free
	if res == nil {
		return &FileResult{}
	}
	s.free = nil
	*res = FileResult{}
	return res
}

// SearchFile searches the regular file name of fsys, unless it is larger
// than max bytes (max < 0: no cap), which fails with an error wrapping
// fsx.ErrTooLarge without reading. A file up to MaxLineBytes is read with
// a single read into a reused buffer; a file of 4 MiB or more is mapped
// into memory where fsx.Map can and that pays (fsx.Mapping.Pays: its
// page faults cost less than reading; a file that shrinks meanwhile fails
// with an error, as one that cannot be read). The returned error is a coded
// *errs.Error: the file cannot be opened or read, or is not a regular file
// (the caller records it and goes on), or ctx ended (the partial result is
// returned with it).
func (s *Scanner) SearchFile(ctx context.Context, fsys fs.FS, name string, max int64) (*FileResult, error) {
	return s.SearchOpened(ctx, name, max, func() (fsx.Regular, error) { return fsx.OpenRegular(fsys, name) }, nil)
}

// SearchOpened is SearchFile for a file that open opens (through a
// directory descriptor, say); name is its path for errors. It closes the
// file.
//
// For a file in which the search finds a matching line, text, when not
// nil, is given the file's text as the search reads it, so that the
// caller need not read it again: its bytes less a UTF-8 byte-order mark
// (FileResult.Encoding "utf-8"), or the UTF-8 text decoded from UTF-16 or
// UTF-32 (less the mark), in consecutive pieces from its start, each valid
// only during the call (the buffer is reused, the mapping closed), the
// last with end set, for as long as text returns true. A file read in one
// buffer, or mapped, is given in one piece; the rest of a file read in
// pieces whose search stopped before its end (a limit, the end of a part,
// FirstOnly) is read for text, and so is the text before its first match
// where that lies past its first piece (the search dropped it by then),
// from the file open (io.ReaderAt; a file without gets no end then). A
// decoded text, which cannot be read again, is given as it is decoded,
// whether it matches or not. There is no call with end for a search that
// fails or is canceled, a whole-file search cut at MaxWholeBytes, or a
// binary file. A file that changes while it is searched is given as it
// was read (the text read again as it is then). The result is the same
// with text as without.
//
// With Options.PartLines, the search stops at the end of the file's first
// part, FileResult.Resume saying where SearchFrom goes on.
func (s *Scanner) SearchOpened(ctx context.Context, name string, max int64, open func() (fsx.Regular, error), text func(p []byte, end bool) bool) (*FileResult, error) {
	f, err := open()
	if err != nil {
		return nil, fileError("cannot open", name, err)
	}
	defer f.Close()
	if max >= 0 && f.Size() > max {
		return nil, &errs.Error{Code: errs.TooLarge, Path: name, Message: name + " is over the size cap", Err: fsx.ErrTooLarge}
	}
	return s.searchIn(ctx, name, f, s.mapFile(f), f.Size(), how{text: text, parts: true, id: fsx.ID(f)})
}

// SearchFrom searches on the file that open opens (name is its path for
// errors) from at, the FileResult.Resume of a search of it that ended a
// part (Options.PartLines): the lines from at.Line on, numbered on, with
// no before-context from the lines before at (they were searched), no
// binary check of the file's head (the first part had it; a NUL further on
// still ends the search, StopNUL) and the MaxMatchesPerFile lines left
// (at.Left). Each part that fills up goes to part, with its Resume set,
// and the search goes on while part returns true; res, its Lines and
// Resume are valid only during the call (the next part reuses them). It
// returns the last part, or the one part returned false for. The file is
// searched as far as it reached when its search began (at.Size): what was
// appended since is not searched, as a search of the whole file leaves it
// out. A file that another took the place of since (at.File), or that
// shrank, fails with an error: the parts before were not of the file now
// there. The errors are otherwise SearchOpened's, without the size cap.
func (s *Scanner) SearchFrom(ctx context.Context, name string, open func() (fsx.Regular, error), at *Resume, part func(res *FileResult) bool) (*FileResult, error) {
	f, err := open()
	if err != nil {
		return nil, fileError("cannot open", name, err)
	}
	defer f.Close()
	size, err := at.check(name, f)
	if err != nil {
		return nil, err
	}
	if size > 0 && at.Offset >= size {
		return &FileResult{Encoding: at.Encoding}, nil
	}
	h := how{parts: true, part: part, at: at, id: at.File}
	var mp *fsx.Mapping
	if size == f.Size() {
		mp = s.mapFile(f)
	}
	var r io.Reader = f
	if mp == nil {
		// Read from at on: by a seek, or by reading the bytes before it
		// where the file cannot seek; up to size when known.
		if sk, ok := f.(io.Seeker); ok {
			_, err = sk.Seek(at.Offset, io.SeekStart)
		} else {
			_, err = io.CopyN(io.Discard, f, at.Offset)
		}
		if err != nil {
			return nil, fileError("cannot read", name, err)
		}
		if size > 0 {
			r = io.LimitReader(f, size-at.Offset)
		}
	}
	return s.searchIn(ctx, name, r, mp, size, h)
}

// fileError is the coded error of a failed open or read (what) of the
// file name.
func fileError(what, name string, err error) error {
	return &errs.Error{Code: errs.CodeOf(err), Path: name, Message: what + " " + name + ": " + err.Error(), Err: err}
}

// check returns how much of f, the file of at opened again, SearchFrom
// searches: what it held when its search began (at.Size), or 0 for all of
// it where that size was not known (a file of /proc says 0 bytes). It
// fails when f is not that file (FileIDs known and different) or is
// shorter now.
func (at *Resume) check(name string, f fsx.Regular) (int64, error) {
	id := fsx.ID(f)
	switch {
	case at.File != (fsx.FileID{}) && id != (fsx.FileID{}) && id != at.File:
		return 0, &errs.Error{Code: errs.Internal, Path: name,
			Message: "cannot search " + errs.Echo(name) + " on: another file took its place while it was searched in parts; search it again"}
	case f.Size() < at.Size:
		return 0, &errs.Error{Code: errs.Internal, Path: name,
			Message: fmt.Sprintf("cannot search %s on: it shrank from %d to %d bytes while it was searched in parts; search it again", errs.Echo(name), at.Size, f.Size())}
	}
	return at.Size, nil
}

// searchIn searches size bytes of the open file name as h says: the
// mapping mp when not nil, else r, from h.at on when set (r stands there).
func (s *Scanner) searchIn(ctx context.Context, name string, r io.Reader, mp *fsx.Mapping, size int64, h how) (res *FileResult, err error) {
	if mp != nil {
		res, err = s.searchMapped(ctx, name, mp, h)
	} else {
		res, err = s.search(ctx, r, nil, size, h)
		s.settle(res)
	}
	if err != nil {
		if e, ok := err.(*errs.Error); ok && e.Path == "" {
			e.Path = name
		}
	}
	return res, err
}

// SearchReader searches everything r yields, in chunks.
func (s *Scanner) SearchReader(ctx context.Context, r io.Reader) (*FileResult, error) {
	res, err := s.search(ctx, r, nil, -1, how{})
	s.settle(res)
	return res, err
}

// mapFile maps f when it is large enough, fsx.Map can and the mapping
// pays (fsx.Mapping.Pays, measured on a chunk; a mapMin of 0 maps every
// file fsx.Map can), else returns nil.
func (s *Scanner) mapFile(f fsx.Regular) *fsx.Mapping {
	if s.mapMin < 0 || f.Size() < int64(s.mapMin) {
		return nil
	}
	mp, err := fsx.Map(f)
	if err != nil {
		return nil
	}
	if s.mapMin > 0 && !mp.Pays(s.buffer(s.chunk)) {
		mp.Close()
		return nil
	}
	return mp
}

// searchMapped searches the mapping mp of the file name, finishes the
// result while the mapping is there, and unmaps it. A file that shrank
// meanwhile, whose mapping reads as zeros past its new end and faults past
// that page, or whose storage failed, fails with an error instead of a
// wrong result or the end of the process: the goroutine panics on the
// fault (debug.SetPanicOnFault) and the panic is recovered here; the
// Scanner's caches, which the panic may have left half updated, are then
// rebuilt. It gives text (see SearchOpened) the mapping's text, which
// the search did not read again into a buffer.
func (s *Scanner) searchMapped(ctx context.Context, name string, mp *fsx.Mapping, h how) (res *FileResult, err error) {
	defer mp.Close()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(mp.Data)))
	hi := lo + uintptr(len(mp.Data))
	shrank := func() (*FileResult, error) {
		return nil, &errs.Error{Code: errs.Internal, Path: name,
			Message: fmt.Sprintf("cannot read %s: it shrank below %d bytes while it was searched, or its storage failed; search it again", name, len(mp.Data))}
	}
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if f, ok := r.(interface{ Addr() uintptr }); !ok || f.Addr() < lo || f.Addr() >= hi {
			panic(r)
		}
		s.reset()
		res, err = shrank()
	}()
	// The search gives h.text a text it decodes (read through the
	// mapping, not from it); the mapping's own text is given below.
	text := h.text
	res, err = s.search(ctx, nil, mp, int64(len(mp.Data)), h)
	if mp.Shrunk() {
		return shrank()
	}
	s.settle(res)
	if text != nil && err == nil && res.MatchLines > 0 && !res.Binary {
		switch res.Encoding {
		case "":
			text(mp.Data, true)
		case "utf-8":
			text(mp.Data[3:], true)
		}
	}
	return res, err
}

// reset builds the Scanner's automata and finder afresh.
func (s *Scanner) reset() {
	s.dfa = newDFA(s.m.prog)
	s.dfa.poll = s.state.canceled
	s.fwd, s.back = nil, nil
	s.fnd = newFinder(s.m.lits)
	s.lines, s.spanBuf = nil, nil
}

// SearchBytes searches b, which it does not modify or retain.
func (s *Scanner) SearchBytes(ctx context.Context, b []byte) (*FileResult, error) {
	if enc, _ := bomEncoding(b); enc != nil {
		return s.SearchReader(ctx, bytes.NewReader(b))
	}
	res := s.newResult()
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

// Lend makes the searches of s leave the Lines of their results in its
// scratch (see settle) instead of copying them out: they are valid until
// the next search with s. For a caller that copies the lines it keeps
// before searching again, which saves a copy of every line.
func (s *Scanner) Lend() { s.lend = true }

// LendAll makes s lend, as Lend does, the texts and spans of the lines
// too: the memory they are in is written again by the next search with
// s. For a caller that copies the lines' text, not the strings, before
// searching again.
func (s *Scanner) LendAll() { s.lend, s.lendAll = true, true }

// settle gives res its own Lines and keeps the slice they were gathered
// in, up to 4096 lines, as scratch for the next file: most files report a
// few lines, and growing a slice for each costs more than one copy. A
// larger slice is not kept, so res takes it as it is, without a copy
// (millions of lines cost hundreds of megabytes to copy). A lending
// scanner (Lend) keeps the slice and leaves res its lines in it.
func (s *Scanner) settle(res *FileResult) {
	if res == nil {
		return
	}
	c := cap(res.Lines)
	if c > 0 && c <= 4096 {
		s.lines = res.Lines[:0]
	}
	switch {
	case len(res.Lines) == 0:
		res.Lines = nil
	case c <= 4096 && !s.lend:
		res.Lines = slices.Clone(res.Lines)
	}
}
