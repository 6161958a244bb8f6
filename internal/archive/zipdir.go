package archive

// A zip is read from its central directory, the index at its end, into
// compact zipEntry values (about 80 bytes each with the name), so that a
// 100,000-entry archive is indexed in a few megabytes; archive/zip keeps
// about 250 bytes per entry. A member is then read from its local header
// with a section reader, inflated with compress/flate if needed, and its
// size and CRC-32 are checked at the end. Zip64 records are honoured, and
// data prepended to the archive (self-extracting zips) is allowed for, as
// archive/zip does.

import (
	"bufio"
	"cmp"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"time"
)

var errFormat = errors.New("not a valid zip file")

const (
	sigEOCD       = 0x06054b50
	sigEOCD64     = 0x06064b50
	sigLocator64  = 0x07064b50
	sigCentral    = 0x02014b50
	sigLocal      = 0x04034b50
	eocdLen       = 22
	locator64Len  = 20
	eocd64Len     = 56
	centralLen    = 46
	localLen      = 30
	maxCommentLen = 65535
	methodStore   = 0
	methodDeflate = 8
)

// zipEntry is one central-directory record.
type zipEntry struct {
	name   string
	off    int64 // local header offset, from the start of the file
	csize  uint64
	usize  uint64
	crc    uint32
	dos    uint32 // MS-DOS date (high 16 bits) and time
	method uint16
	flags  uint16
	link   bool // a symbolic link, by the Unix mode of a Unix or macOS creator; its data is the target
}

func (e *zipEntry) dir() bool { return strings.HasSuffix(e.name, "/") }

// modTime decodes the MS-DOS timestamp; zero when it is unset.
func (e *zipEntry) modTime() time.Time {
	if e.dos == 0 {
		return time.Time{}
	}
	d, t := e.dos>>16, e.dos&0xffff
	return time.Date(int(d>>9)+1980, time.Month(d>>5&0xf), int(d&0x1f), int(t>>11), int(t>>5&0x3f), int(t&0x1f)*2, 0, time.UTC)
}

// readCentral reads the central directory of the size-byte zip in r,
// refusing more than maxEntries entries or a directory of more than
// maxDir bytes (<= 0: no limit) before it allocates them. base is the
// length of any data prepended to the zip, to add to each entry's offset.
func readCentral(r io.ReaderAt, size int64, maxEntries int, maxDir int64) (entries []zipEntry, base int64, err error) {
	count, cdOff, cdSize, base, err := findDirectory(r, size)
	if err != nil {
		return nil, 0, err
	}
	if maxEntries > 0 && count > uint64(maxEntries) {
		return nil, 0, &tooManyError{count}
	}
	if maxDir > 0 && cdSize > maxDir {
		return nil, 0, &dirTooLargeError{cdSize}
	}
	if count > uint64(cdSize)/centralLen {
		return nil, 0, errFormat
	}
	br := bufio.NewReaderSize(io.NewSectionReader(r, cdOff, cdSize), int(min(cdSize, 64<<10)))
	entries = make([]zipEntry, 0, count)
	var hdr [centralLen]byte
	var buf []byte // name and extra field, reused
	for range count {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return nil, 0, errFormat
		}
		le := binary.LittleEndian
		if le.Uint32(hdr[0:]) != sigCentral {
			return nil, 0, errFormat
		}
		e := zipEntry{
			flags:  le.Uint16(hdr[8:]),
			method: le.Uint16(hdr[10:]),
			dos:    uint32(le.Uint16(hdr[14:]))<<16 | uint32(le.Uint16(hdr[12:])),
			crc:    le.Uint32(hdr[16:]),
			csize:  uint64(le.Uint32(hdr[20:])),
			usize:  uint64(le.Uint32(hdr[24:])),
			off:    int64(le.Uint32(hdr[42:])),
			link:   unixSymlink(le.Uint16(hdr[4:]), le.Uint32(hdr[38:])),
		}
		nameLen, extraLen, commentLen := int(le.Uint16(hdr[28:])), int(le.Uint16(hdr[30:])), int(le.Uint16(hdr[32:]))
		buf = append(buf[:0], make([]byte, nameLen+extraLen)...)
		if _, err := io.ReadFull(br, buf); err != nil {
			return nil, 0, errFormat
		}
		if _, err := br.Discard(commentLen); err != nil {
			return nil, 0, errFormat
		}
		e.name = string(buf[:nameLen]) // its bytes, as a tar's: text quotes a name that is not UTF-8
		if err := e.zip64(buf[nameLen:]); err != nil {
			return nil, 0, err
		}
		entries = append(entries, e)
	}
	if err := checkOverlap(entries, size-base); err != nil {
		return nil, 0, err
	}
	return entries, base, nil
}

// unixSymlink reports whether a central record's "version made by" and
// external attributes mark a symbolic link: a Unix or macOS creator keeps
// the file's mode in the attributes' high 16 bits.
func unixSymlink(madeBy uint16, external uint32) bool {
	const creatorUnix, creatorMacOSX = 3, 19
	const typeMask, typeLink = 0o170000, 0o120000
	creator := madeBy >> 8
	return (creator == creatorUnix || creator == creatorMacOSX) && external>>16&typeMask == typeLink
}

// checkOverlap refuses entries whose local records overlap: a valid zip
// stores each member's header and data apart, while a zip bomb points
// thousands of entries at one highly compressed kernel, so that a few
// hundred kilobytes inflate to terabytes. Each record takes at least its
// fixed header and its compressed size; an entry whose sizes exceed the
// file is left to fail when it is read. size is the zip's length without
// any prepended data.
func checkOverlap(entries []zipEntry, size int64) error {
	type span struct{ start, end int64 }
	spans := make([]span, 0, len(entries))
	for i := range entries {
		e := &entries[i]
		if e.csize > uint64(size) || e.off > size {
			continue
		}
		spans = append(spans, span{e.off, e.off + localLen + int64(e.csize)})
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			return errOverlap
		}
	}
	return nil
}

var errOverlap = errors.New("entries overlap")

// zip64 applies a Zip64 extended-information extra field: each field that
// is all ones in the fixed header is read from it, in order.
func (e *zipEntry) zip64(extra []byte) error {
	le := binary.LittleEndian
	for len(extra) >= 4 {
		id, n := le.Uint16(extra), int(le.Uint16(extra[2:]))
		extra = extra[4:]
		if n > len(extra) {
			return errFormat
		}
		field := extra[:n]
		extra = extra[n:]
		if id != 0x0001 {
			continue
		}
		next := func(v *uint64) error {
			if len(field) < 8 {
				return errFormat
			}
			*v = le.Uint64(field)
			field = field[8:]
			return nil
		}
		if e.usize == 0xffffffff {
			if err := next(&e.usize); err != nil {
				return err
			}
		}
		if e.csize == 0xffffffff {
			if err := next(&e.csize); err != nil {
				return err
			}
		}
		if e.off == 0xffffffff {
			var off uint64
			if err := next(&off); err != nil {
				return err
			}
			if off > 1<<62 {
				return errFormat
			}
			e.off = int64(off)
		}
	}
	return nil
}

// findDirectory locates the end-of-central-directory record (and its Zip64
// form) and returns the entry count and the directory's place in the file.
func findDirectory(r io.ReaderAt, size int64) (count uint64, off, n, base int64, err error) {
	// the record ends the file but for a comment, most often empty: it is
	// looked for in the last KiB, then in all the room a comment may take
	le := binary.LittleEndian
	var buf []byte
	at := -1
	for _, tail := range []int64{1 << 10, eocdLen + maxCommentLen} {
		tail = min(size, tail)
		buf = make([]byte, tail)
		if _, err := r.ReadAt(buf, size-tail); err != nil && err != io.EOF {
			return 0, 0, 0, 0, err
		}
		for i := len(buf) - eocdLen; i >= 0 && at < 0; i-- {
			if le.Uint32(buf[i:]) == sigEOCD && i+eocdLen+int(le.Uint16(buf[i+20:])) <= len(buf) {
				at = i
			}
		}
		if at >= 0 || tail == size {
			break
		}
	}
	if at < 0 {
		return 0, 0, 0, 0, errFormat
	}
	eocdOff := size - int64(len(buf)) + int64(at)
	rec := buf[at:]
	count, n, off = uint64(le.Uint16(rec[10:])), int64(le.Uint32(rec[12:])), int64(le.Uint32(rec[16:]))
	dirEnd := eocdOff
	if count == 0xffff || n == 0xffffffff || off == 0xffffffff {
		if c, o, l, end, ok := findDirectory64(r, eocdOff); ok {
			count, off, n, dirEnd = c, o, l, end
		}
	}
	// data prepended to the zip shifts every offset
	if base = dirEnd - n - off; base < 0 {
		base = 0
	}
	off += base
	if off < 0 || n < 0 || off+n > size {
		return 0, 0, 0, 0, errFormat
	}
	return count, off, n, base, nil
}

// findDirectory64 reads the Zip64 end record through the locator that
// precedes the end record at eocdOff.
func findDirectory64(r io.ReaderAt, eocdOff int64) (count uint64, off, n, end int64, ok bool) {
	if eocdOff < locator64Len {
		return 0, 0, 0, 0, false
	}
	var loc [locator64Len]byte
	if _, err := r.ReadAt(loc[:], eocdOff-locator64Len); err != nil {
		return 0, 0, 0, 0, false
	}
	le := binary.LittleEndian
	if le.Uint32(loc[:]) != sigLocator64 {
		return 0, 0, 0, 0, false
	}
	recOff := le.Uint64(loc[8:])
	if recOff > uint64(eocdOff) {
		return 0, 0, 0, 0, false
	}
	var rec [eocd64Len]byte
	if _, err := r.ReadAt(rec[:], int64(recOff)); err != nil || le.Uint32(rec[:]) != sigEOCD64 {
		return 0, 0, 0, 0, false
	}
	count, n64, off64 := le.Uint64(rec[32:]), le.Uint64(rec[40:]), le.Uint64(rec[48:])
	if n64 > 1<<62 || off64 > 1<<62 {
		return 0, 0, 0, 0, false
	}
	return count, int64(off64), int64(n64), int64(recOff), true
}

// tooManyError reports an entry count above the limit.
type tooManyError struct{ count uint64 }

func (e *tooManyError) Error() string { return "too many entries" }

// dirTooLargeError reports a central directory above the limit.
type dirTooLargeError struct{ size int64 }

func (e *dirTooLargeError) Error() string { return "central directory too large" }

// openEntry returns the decompressed bytes of e, checked against its size
// and CRC-32 when they are read to the end. base is the offset of the zip
// data in r (non-zero for a self-extracting zip).
func openEntry(r io.ReaderAt, size, base int64, e *zipEntry) (*checkReader, error) {
	var lh [localLen]byte
	if _, err := r.ReadAt(lh[:], base+e.off); err != nil {
		return nil, errFormat
	}
	le := binary.LittleEndian
	if le.Uint32(lh[:]) != sigLocal {
		return nil, errFormat
	}
	data := base + e.off + localLen + int64(le.Uint16(lh[26:])) + int64(le.Uint16(lh[28:]))
	if e.csize > uint64(size) || data+int64(e.csize) > size {
		return nil, errFormat
	}
	raw := io.NewSectionReader(r, data, int64(e.csize))
	c := &checkReader{r: raw, e: e, h: crc32.NewIEEE()}
	switch e.method {
	case methodStore:
	case methodDeflate:
		c.inf = newInflater(raw)
		c.r = c.inf.fr
	default:
		return nil, errors.ErrUnsupported
	}
	return c, nil
}

// inflater is a deflate decoder and its input buffer. They take some 80 KB
// to make, more than most members of a document hold, so they are kept in
// a pool for the next member once one is read to its end or closed.
type inflater struct {
	br *bufio.Reader
	fr io.Reader
}

var inflaters sync.Pool

func newInflater(r io.Reader) *inflater {
	f, ok := inflaters.Get().(*inflater)
	if !ok {
		br := bufio.NewReaderSize(r, 32<<10)
		return &inflater{br: br, fr: flate.NewReader(br)}
	}
	f.br.Reset(r)
	f.fr.(flate.Resetter).Reset(f.br, nil)
	return f
}

// checkReader verifies a member's size and CRC-32 as it is read.
type checkReader struct {
	r   io.Reader // nil once the end was read or the reader closed
	inf *inflater // the deflate decoder of r, if any
	e   *zipEntry
	h   hash.Hash32
	n   uint64
	end error // what the end gave, or fs.ErrClosed
}

var errChecksum = errors.New("checksum error")

func (c *checkReader) Read(p []byte) (int, error) {
	if c.r == nil {
		return 0, c.end
	}
	n, err := c.r.Read(p)
	c.h.Write(p[:n])
	c.n += uint64(n)
	if c.n > c.e.usize {
		return 0, errFormat
	}
	if err != io.EOF {
		return n, err
	}
	switch {
	case c.n != c.e.usize:
		err = io.ErrUnexpectedEOF
	// a member written with a data descriptor may leave the CRC out
	case (c.e.crc != 0 || c.e.flags&0x8 == 0) && c.h.Sum32() != c.e.crc:
		err = errChecksum
	}
	c.release(err)
	return n, err
}

// Close hands the decoder to the pool; reads after it fail.
func (c *checkReader) Close() error {
	if c.r != nil {
		c.release(fs.ErrClosed)
	}
	return nil
}

// release ends the reads: they return end from now on.
func (c *checkReader) release(end error) {
	if c.inf != nil {
		inflaters.Put(c.inf)
	}
	c.r, c.inf, c.end = nil, nil, end
}
