package archive

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
)

// tarStream is one sequential pass over a tar or tar.gz.
type tarStream struct {
	name string
	lim  Limits
	f    fs.File
	tr   *tar.Reader
	in   *tarInput // what tr reads
	// head is the first header, read by Open, which next returns first;
	// nil once returned, or when there is none.
	head *tar.Header
	// gz is a .tar.gz's decompressed stream, which stops when the pass's
	// context ends; nil for a plain tar.
	gz       *capReader
	entries  int
	rejected int
}

// openTar opens a pass over the tar for ctx: the one Open began, the
// first time, else a new one.
func (a *Archive) openTar(ctx context.Context) (*tarStream, error) {
	if s := a.first; s != nil {
		a.first = nil
		if s.gz != nil {
			s.gz.ctx = ctx
		}
		return s, nil
	}
	f, err := a.fsys.Open(a.name)
	if err != nil {
		return nil, openError(a.name, err)
	}
	s := &tarStream{name: a.name, lim: a.lim, f: f}
	r, gz, err := sniffGzip(f)
	if err != nil {
		f.Close()
		return nil, openError(a.name, err)
	}
	if a.format == TarGz || gz {
		// a .tar that is gzipped is read as one; a .tgz must be gzipped
		br := bufio.NewReaderSize(r, 64<<10)
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, cannotRead(errs.Unsupported, a.name, err, "not a valid gzip stream (%v)", err)
		}
		zr.Multistream(false)
		// the streams follow the pass's context, which the first pass's
		// reuse replaces
		s.gz = newCapReader(ctx, &gzipStreams{zr: zr, r: br, ctx: func() context.Context { return s.gz.ctx }}, "Archive '"+a.name+"'", a.lim.MaxScanBytes)
		r = s.gz
	}
	s.in = &tarInput{r: r, name: a.name, left: maxTarHeaderBytes, records: maxTarRecords}
	if rs, ok := r.(io.ReadSeeker); ok && s.gz == nil {
		sb := &seekBuffer{f: rs, br: bufio.NewReaderSize(rs, 64<<10)}
		s.in.r, s.in.sk = sb, sb
	}
	s.tr = tar.NewReader(s.in)
	return s, nil
}

// maxTarHeaderBytes bounds the bytes of headers a pass over a tar reads
// between two entries: the header blocks, and the extended (pax), global
// and long-name (GNU) headers before an entry, which archive/tar reads in
// one call of Next however many there are (each up to 1 MiB). Each entry
// returned (not a global header) gives back tarHeaderCredit bytes, up to
// maxTarHeaderBytes: an entry of a usual tar takes 0.5 to 1.5 KiB of
// headers, so any number of them fit, while a run of tiny pax records
// (parsed at about 30 MB/s) fails after maxTarHeaderBytes, and a pass
// reads at most tarHeaderCredit of headers an entry (MaxEntries bounds
// the entries) more.
var maxTarHeaderBytes int64 = 4 << 20

// tarHeaderCredit is what each entry gives back to the header bound.
const tarHeaderCredit = 2 << 10

// maxTarRecords bounds the records of the extended (pax) headers a pass
// reads, as maxTarHeaderBytes bounds their bytes: archive/tar parses each
// record into a map of the entry's records, at some 150 ns a record where
// a byte costs a few, so that tiny records ("5 a=\n"), which fit 200 to
// the KiB, cost 5 times what usual headers of the same bytes do: 200,000
// entries of 2 KiB of them took 3 to 8 s a pass where those of GNU tar's
// pax format take 1.8 s. Each entry returned gives back tarRecordCredit
// records, up to maxTarRecords: GNU tar and bsdtar write 3 to 20 records
// an entry (times, ids, names, two for each extended attribute). The
// records are counted as the lines of the headers that hold an '='
// (countRecords): a value with newlines and '=' in it (binary attributes)
// counts more, but its bytes reach maxTarHeaderBytes first unless more
// than one byte in 32 (one in 64 over many entries) starts such a line.
// The map of a sparse file (two lines of digits a hole), read with the
// header, does not count: a tar of hundreds of sparse files of hundreds
// of holes each, or one of 100,000 holes, is read.
var maxTarRecords int64 = 128 << 10

// tarRecordCredit is what each entry gives back to the record bound.
const tarRecordCredit = 32

// tarInput is the stream a tar.Reader reads. While a header is read
// (header sets meta) it counts the bytes read against left and fails with
// TOO_LARGE past it; member data, which Next skips by seeking, is not
// counted. It seeks as sk does, or, when sk is nil (a .tar.gz, a file that
// cannot seek), by reading the bytes to skip.
type tarInput struct {
	r    io.Reader
	sk   io.Seeker // nil: seek by reading
	pos  int64     // the offset of the next byte when sk is nil
	name string    // the archive, for the error
	meta bool      // a header is being read
	left int64     // the header bytes still allowed
	// records is the records (lines with an '=') of headers still allowed
	records int64
	eq      bool // the line being read holds an '=' and was counted
}

func (t *tarInput) Read(p []byte) (int, error) {
	if t.meta {
		if t.left <= 0 {
			return 0, cannotRead(errs.TooLarge, t.name, nil, "its headers are too large: a run of extended (pax) or long-name headers takes more than %s, Scout's limit",
				dirtree.FormatBytes(maxTarHeaderBytes))
		}
		if int64(len(p)) > t.left {
			p = p[:t.left]
		}
		n, err := t.r.Read(p)
		t.left -= int64(n)
		t.pos += int64(n)
		if t.records -= t.countRecords(p[:n]); t.records < 0 {
			return 0, cannotRead(errs.TooLarge, t.name, nil, "its headers are too large: its extended (pax) headers hold more than %d records, and %d for each entry, Scout's limit",
				maxTarRecords, tarRecordCredit)
		}
		return n, err
	}
	n, err := t.r.Read(p)
	t.pos += int64(n)
	return n, err
}

// countRecords returns the lines of p that hold an '=', which every pax
// record does ("5 a=\n"), counting a line split between two reads once.
// The map of a sparse file of GNU tar's pax format (1.0, the default),
// which archive/tar reads with the header, is lines of digits, two a hole:
// it does not count, so that a sparse file of 100,000 holes (1.5 MB of
// map) is read.
func (t *tarInput) countRecords(p []byte) int64 {
	n := int64(0)
	for len(p) > 0 {
		line := p
		i := bytes.IndexByte(p, '\n')
		if i >= 0 {
			line, p = p[:i], p[i+1:]
		} else {
			p = nil
		}
		if !t.eq && bytes.IndexByte(line, '=') >= 0 {
			n++
			t.eq = true
		}
		if i >= 0 {
			t.eq = false
		}
	}
	return n
}

// Seek moves by off from the current position, which is how archive/tar
// skips member data and padding; other seeks are unsupported.
func (t *tarInput) Seek(off int64, whence int) (int64, error) {
	if t.sk != nil {
		return t.sk.Seek(off, whence)
	}
	if whence != io.SeekCurrent || off < 0 {
		return 0, errors.ErrUnsupported
	}
	n, err := io.CopyN(io.Discard, t.r, off)
	t.pos += n
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return t.pos, err
}

// header returns the next header, as tar.Reader.Next does, reading at most
// the header bytes left (see maxTarHeaderBytes).
func (s *tarStream) header() (*tar.Header, error) {
	s.in.meta = true
	h, err := s.tr.Next()
	s.in.meta = false
	if err == nil && h.Typeflag != tar.TypeXGlobalHeader {
		s.in.left = min(s.in.left+tarHeaderCredit, maxTarHeaderBytes)
		s.in.records = min(s.in.records+tarRecordCredit, maxTarRecords)
	}
	return h, err
}

// seekBuffer reads a plain tar through a buffer and serves the seeks by
// which archive/tar skips member data (offsets from the current position)
// within the buffer when it holds the skipped bytes, else by a seek of the
// file: a tar of many small members costs a read per 64 KiB, not a read of
// each header and two seeks per member.
type seekBuffer struct {
	f   io.ReadSeeker
	br  *bufio.Reader
	pos int64 // the offset in f of the next byte br returns
}

func (b *seekBuffer) Read(p []byte) (int, error) {
	n, err := b.br.Read(p)
	b.pos += int64(n)
	return n, err
}

// Seek moves by off from the current position; other seeks are
// unsupported (archive/tar then reads the bytes to skip them).
func (b *seekBuffer) Seek(off int64, whence int) (int64, error) {
	if whence != io.SeekCurrent || off < 0 {
		return 0, errors.ErrUnsupported
	}
	if off <= int64(b.br.Buffered()) {
		n, _ := b.br.Discard(int(off)) // cannot fail: the bytes are buffered
		b.pos += int64(n)
		return b.pos, nil
	}
	pos, err := b.f.Seek(b.pos+off, io.SeekStart)
	if err != nil {
		return 0, err
	}
	b.br.Reset(b.f)
	b.pos = pos
	return pos, nil
}

// sniffGzip reports whether f starts with the gzip magic and returns a
// reader of f from its start: f itself when it can seek back, so that tar
// can skip member data of a plain tar without reading it.
func sniffGzip(f fs.File) (io.Reader, bool, error) {
	var head [2]byte
	n, err := io.ReadFull(f, head[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, false, err
	}
	gz := n == 2 && head[0] == 0x1f && head[1] == 0x8b
	if sk, ok := f.(io.Seeker); ok {
		if _, err := sk.Seek(0, io.SeekStart); err != nil {
			return nil, false, err
		}
		return f, gz, nil
	}
	return io.MultiReader(bytes.NewReader(head[:n]), f), gz, nil
}

func (s *tarStream) Close() error { return s.f.Close() }

// next returns the next entry with a usable name; io.EOF at the end.
func (s *tarStream) next(ctx context.Context) (Entry, error) {
	for {
		if err := ctx.Err(); err != nil {
			return Entry{}, err
		}
		h, err := s.head, error(nil)
		if h != nil {
			s.head = nil
		} else {
			h, err = s.header()
		}
		if err == io.EOF {
			if err := s.trailer(); err != nil {
				return Entry{}, err
			}
			return Entry{}, io.EOF
		}
		if err != nil {
			return Entry{}, s.corrupt(err)
		}
		s.entries++
		if s.lim.MaxEntries > 0 && s.entries > s.lim.MaxEntries {
			return Entry{}, cannotRead(errs.TooLarge, s.name, nil, "it has more than %d entries, the limit", s.lim.MaxEntries)
		}
		if h.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		name, ok := memberName(h.Name)
		if !ok {
			s.rejected++
			continue
		}
		if name == "" {
			continue // the root directory itself
		}
		e := Entry{Name: name, ModTime: h.ModTime}
		switch {
		case h.Typeflag == tar.TypeDir || strings.HasSuffix(h.Name, "/"):
			e.Dir = true
		case h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink:
			e.Link, e.Symlink, e.hard = h.Linkname, h.Typeflag == tar.TypeSymlink, h.Typeflag == tar.TypeLink
		default:
			e.Size = h.Size
		}
		return e, nil
	}
}

// maxTrailer bounds what trailer reads after a tar's end marker.
const maxTrailer = 1 << 20

// trailer reads what follows a .tar.gz's end marker (padding, then the
// gzip trailer) to the end of the gzip data, up to maxTrailer bytes, so
// that the checksum and length of its last stream are checked: a .tar.gz
// cut inside its trailer, or whose compressed data was altered, is corrupt
// even when every entry was read. A longer tail is not read.
func (s *tarStream) trailer() error {
	if s.gz == nil {
		return nil
	}
	_, err := io.CopyN(io.Discard, s.gz, maxTrailer)
	if err == nil || err == io.EOF {
		return nil
	}
	return s.corrupt(err)
}

// gzipStreams reads a sequence of gzip streams, as gzip.Reader does in
// multistream mode, except that bytes after a whole stream that do not
// begin another are the end of the data, not an error (gzip ignores such
// trailing garbage too; tape blocking leaves zeros there). One Read goes
// on through streams that hold no data, so it stops when ctx ends: a file
// of millions of empty streams is otherwise read to its end at once.
type gzipStreams struct {
	zr   *gzip.Reader // in single-stream mode
	r    *bufio.Reader
	ctx  func() context.Context
	done bool // no stream follows the last one read
}

func (g *gzipStreams) Read(p []byte) (int, error) {
	for {
		if g.done {
			return 0, io.EOF
		}
		n, err := g.zr.Read(p)
		if err != io.EOF {
			return n, err
		}
		// A stream ended, its checksum and length checked: is there another?
		if g.zr.Reset(g.r) != nil {
			g.done = true
			return n, io.EOF
		}
		g.zr.Multistream(false)
		if n > 0 {
			return n, nil
		}
		if err := g.ctx().Err(); err != nil {
			return 0, err
		}
	}
}

// corrupt codes err, the failure to read a header: a coded error (a
// cancellation, a cap of the gzip stream) as it is, else the archive is
// corrupt or truncated.
func (s *tarStream) corrupt(err error) error {
	if errs.CodeOf(err) != errs.Internal {
		return err
	}
	return cannotRead(errs.Unsupported, s.name, err, "it is corrupt or truncated (%v)", err)
}

// member returns the stream of the entry next just returned; a link's
// error does not say where it leads (Lookup's does).
func (s *tarStream) member(ctx context.Context, e Entry) (io.Reader, error) {
	if e.IsLink() {
		return nil, walkLinkError(e)
	}
	return newCapReader(ctx, s.tr, "Archive entry '"+errs.Echo(e.Name)+"'", s.lim.MaxMemberBytes), nil
}

// lookupTar reads on until the file member b.dir, else lists directory
// b.dir.
func (a *Archive) lookupTar(ctx context.Context, b *dirBuilder, sel string) (*Item, error) {
	s, err := a.openTar(ctx)
	if err != nil {
		return nil, err
	}
	p := b.dir
	for {
		e, err := s.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			s.Close()
			return nil, err
		}
		if p != "" && e.Name == p && !e.Dir {
			if e.IsLink() {
				s.Close()
				return nil, a.tarLinks(ctx, e)
			}
			r, err := s.member(ctx, e)
			if err != nil {
				s.Close()
				return nil, err
			}
			it := &Item{Path: p, Selector: sel, Entry: e}
			if err := it.setBody(r, s); err != nil {
				return nil, err
			}
			return it, nil
		}
		if err := b.add(e); err != nil {
			s.Close()
			return nil, b.tooLarge(a.name)
		}
	}
	s.Close()
	if !b.exists {
		return nil, b.missing(a.name)
	}
	it := &Item{Path: p, Selector: sel, Dir: true, Children: b.children()}
	if p == "" {
		it.Rejected = s.rejected
	}
	return it, nil
}

func (a *Archive) walkTar(ctx context.Context, dir string, fn WalkFunc) (int, error) {
	s, err := a.openTar(ctx)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	for {
		e, err := s.next(ctx)
		if err == io.EOF {
			return s.rejected, nil
		}
		if err != nil {
			return s.rejected, err
		}
		if e.Dir || !under(e.Name, dir) {
			continue
		}
		r, err := s.member(ctx, e)
		if err := fn(e, r, err); err != nil {
			if errors.Is(err, fs.SkipAll) {
				return s.rejected, nil
			}
			return s.rejected, err
		}
	}
}
