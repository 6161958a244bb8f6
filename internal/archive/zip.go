package archive

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"math"
	"slices"
	"strings"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// zipIndex is an opened zip: its central directory and the normalised name
// of each entry ("" for an entry that was rejected or names the root).
type zipIndex struct {
	r        io.ReaderAt
	size     int64
	base     int64 // length of data prepended to the zip
	entries  []zipEntry
	names    []string
	rejected int
}

// openZip opens the zip file name and indexes it; the caller closes the
// file returned with the index.
func openZip(fsys fs.FS, name string, lim Limits) (*zipIndex, io.Closer, error) {
	ra, err := fsx.OpenReaderAt(fsys, name, lim.MaxInMemory)
	if err != nil {
		if errors.Is(err, fsx.ErrTooLarge) {
			return nil, nil, cannotRead(errs.TooLarge, name, err, "it is larger than %s and its file system offers no random access", dirtree.FormatBytes(lim.MaxInMemory))
		}
		return nil, nil, openError(name, err)
	}
	z, err := indexZip(ra, ra.Size(), lim)
	if err != nil {
		ra.Close()
		return nil, nil, cannotRead(errs.CodeOf(err), name, err, "%v", err)
	}
	return z, ra, nil
}

// indexZip reads the central directory of the size-byte zip in r within
// lim and normalises the names of its entries. An error is TOO_LARGE for a
// bound crossed (entries that overlap included), UNSUPPORTED otherwise;
// its message speaks of the zip as "it" ("it has 30 entries, ..."), for
// the caller to name the zip.
func indexZip(r io.ReaderAt, size int64, lim Limits) (*zipIndex, error) {
	entries, base, err := readCentral(r, size, lim.MaxEntries, lim.MaxDirBytes)
	var many *tooManyError
	var dir *dirTooLargeError
	switch {
	case errors.As(err, &many):
		return nil, errs.Wrap(errs.TooLarge, err, "it has %d entries, more than the limit of %d", many.count, lim.MaxEntries)
	case errors.As(err, &dir):
		return nil, errs.Wrap(errs.TooLarge, err, "its central directory is %s, more than the limit of %s", dirtree.FormatBytes(dir.size), dirtree.FormatBytes(lim.MaxDirBytes))
	case errors.Is(err, errOverlap):
		return nil, errs.Wrap(errs.TooLarge, err, "its entries overlap (entries share compressed data), the mark of a zip bomb, so it is not read")
	case err != nil:
		return nil, errs.Wrap(errs.Unsupported, err, "%v", err)
	}
	z := &zipIndex{r: r, size: size, base: base, entries: entries, names: make([]string, len(entries))}
	for i := range entries {
		n, ok := memberName(entries[i].name)
		if !ok {
			z.rejected++
		}
		z.names[i] = n
	}
	return z, nil
}

// ZipReader is a zip read from an io.ReaderAt, for formats that are zips
// inside (OOXML, EPUB): its file members are found by name and read one at
// a time or several at once.
type ZipReader struct {
	idx   *zipIndex
	lim   Limits
	files map[string]int // the entry of each file member's normalised name, the first of a name
}

// OpenZip indexes the size-byte zip in r within lim's MaxEntries and
// MaxDirBytes (MaxScanBytes and MaxInMemory do not apply). A bound
// crossed, or entries that overlap, is a TOO_LARGE error; one that is not
// a zip Scout can read UNSUPPORTED. The message speaks of the zip as "it"
// ("its entries overlap ..."), for the caller to name the zip.
func OpenZip(r io.ReaderAt, size int64, lim Limits) (*ZipReader, error) {
	lim = lim.withDefaults()
	idx, err := indexZip(r, size, lim)
	if err != nil {
		return nil, err
	}
	z := &ZipReader{idx: idx, lim: lim, files: make(map[string]int, len(idx.names))}
	for i, n := range idx.names {
		if _, dup := z.files[n]; n != "" && !dup && !idx.entries[i].dir() {
			z.files[n] = i
		}
	}
	return z, nil
}

// Has reports whether the zip holds a file member named name, compared
// after both are normalised as by Clean.
func (z *ZipReader) Has(name string) bool {
	_, ok := z.lookup(name)
	return ok
}

func (z *ZipReader) lookup(name string) (int, bool) {
	p, ok := Clean(name)
	if !ok {
		return 0, false
	}
	i, ok := z.files[p]
	return i, ok
}

// Open opens the file member name for reading. The stream fails with
// TOO_LARGE past max decompressed bytes (<= 0: Limits.MaxMemberBytes), once
// ctx is done, and with UNSUPPORTED for corrupt data. A missing member is
// a NOT_FOUND error, an encrypted one or one compressed otherwise than by
// deflate UNSUPPORTED. The messages name the member. Close hands the
// member's decoder to the next member opened.
func (z *ZipReader) Open(ctx context.Context, name string, max int64) (io.ReadCloser, error) {
	i, ok := z.lookup(name)
	if !ok {
		return nil, notFound(name)
	}
	if max <= 0 {
		max = z.lim.MaxMemberBytes
	}
	return z.idx.open(ctx, i, max)
}

// Fits returns the TOO_LARGE error, as Open's stream would fail with at
// max bytes (<= 0: Limits.MaxMemberBytes), when the zip records the file
// member name as over max decompressed bytes (the size a read of the
// member checks); nil otherwise, a missing member included. A caller that
// reads a member whole fails so before inflating it.
func (z *ZipReader) Fits(name string, max int64) error {
	i, ok := z.lookup(name)
	if !ok {
		return nil
	}
	if max <= 0 {
		max = z.lim.MaxMemberBytes
	}
	if max > 0 && z.idx.entries[i].usize > uint64(max) {
		return overCap("Archive entry '"+errs.Echo(z.idx.names[i])+"'", max)
	}
	return nil
}

func (z *zipIndex) entry(i int) Entry {
	f := &z.entries[i]
	e := Entry{Name: z.names[i], ModTime: f.modTime()}
	switch {
	case f.dir():
		e.Dir = true
	case f.link:
		e.Symlink = true
	default:
		e.Size = int64(min(f.usize, math.MaxInt64))
	}
	return e
}

// maxLinkTarget is the longest symbolic link target read (Linux's PATH_MAX).
const maxLinkTarget = 4096

// link returns the i-th entry, a symbolic link, with its target read.
func (z *zipIndex) link(ctx context.Context, i int) (Entry, error) {
	e := z.entry(i)
	r, err := z.open(ctx, i, maxLinkTarget+1)
	if err != nil {
		return e, err
	}
	defer r.Close()
	target, err := io.ReadAll(r)
	switch {
	case errs.CodeOf(err) == errs.TooLarge:
		return e, errs.New(errs.Unsupported, "Archive entry '%s' is a symbolic link whose target is over %d bytes; links are not followed", errs.Echo(e.Name), maxLinkTarget)
	case err != nil:
		return e, err
	}
	e.Link = string(target)
	return e, nil
}

// linkError is the error for reading the i-th entry, a symbolic link:
// followLink's through the zip's links, or why its target cannot be read.
func (z *zipIndex) linkError(ctx context.Context, i int, archive string) error {
	e, err := z.link(ctx, i)
	if err != nil {
		return err
	}
	return followLink(archive, e, func(name string) (Entry, bool, error) {
		for j, n := range z.names {
			if n != name || z.entries[j].dir() {
				continue
			}
			if !z.entries[j].link {
				return Entry{}, false, nil
			}
			l, err := z.link(ctx, j)
			return l, err == nil, err
		}
		return Entry{}, false, nil
	})
}

// lookup opens the file member b.dir, else lists directory b.dir; name is
// the zip's, for errors.
func (z *zipIndex) lookup(ctx context.Context, b *dirBuilder, sel, name string, lim Limits) (*Item, error) {
	p := b.dir
	if p != "" {
		for i, n := range z.names {
			if n != p {
				continue
			}
			if e := z.entry(i); e.Symlink {
				return nil, z.linkError(ctx, i, name)
			} else if !e.Dir {
				r, err := z.open(ctx, i, lim.MaxMemberBytes)
				if err != nil {
					return nil, err
				}
				it := &Item{Path: p, Selector: sel, Entry: e}
				if err := it.setBody(r, r); err != nil {
					return nil, err
				}
				return it, nil
			}
		}
	}
	for i, n := range z.names {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if n == "" {
			continue
		}
		if err := b.add(z.entry(i)); err != nil {
			return nil, b.tooLarge(name)
		}
	}
	if !b.exists {
		return nil, b.missing(name)
	}
	it := &Item{Path: p, Selector: sel, Dir: true, Children: b.children()}
	if p == "" {
		it.Rejected = z.rejected
	}
	return it, nil
}

// open opens the i-th member for reading, capped at max decompressed bytes
// (0: no cap), refusing what Scout cannot decode.
func (z *zipIndex) open(ctx context.Context, i int, max int64) (io.ReadCloser, error) {
	f, name := &z.entries[i], z.names[i]
	if f.flags&0x1 != 0 {
		return nil, errs.New(errs.Unsupported, "Archive entry '%s' is encrypted; Scout cannot read encrypted zip members", errs.Echo(name))
	}
	if f.method != methodStore && f.method != methodDeflate {
		return nil, errs.New(errs.Unsupported, "Archive entry '%s' uses zip compression method %d; Scout reads only stored and deflated members", errs.Echo(name), f.method)
	}
	r, err := openEntry(z.r, z.size, z.base, f)
	if err != nil {
		return nil, errs.Wrap(errs.Unsupported, err, "Cannot read archive entry '%s': %v", errs.Echo(name), err)
	}
	return struct {
		io.Reader
		io.Closer
	}{newCapReader(ctx, r, "Archive entry '"+errs.Echo(name)+"'", max), r}, nil
}

// walk calls fn for the file members at or under dir in byte-wise name
// order.
func (z *zipIndex) walk(ctx context.Context, dir string, fn WalkFunc, lim Limits, name string) (int, error) {
	total := &budget{left: lim.MaxScanBytes, what: "Archive '" + name + "'"}
	var order []int
	for i, n := range z.names {
		if n != "" && under(n, dir) {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(z.names[a], z.names[b]) })
	for _, i := range order {
		if err := ctx.Err(); err != nil {
			return z.rejected, err
		}
		e := z.entry(i)
		if e.Dir {
			continue
		}
		var body io.Reader
		var err error
		if e.Symlink {
			err = walkLinkError(e)
		} else {
			var r io.ReadCloser
			if r, err = z.open(ctx, i, lim.MaxMemberBytes); r != nil {
				body = r
				if lim.MaxScanBytes > 0 {
					body = &budgetReader{r: r, b: total}
				}
			}
		}
		if err := fn(e, body, err); err != nil {
			if errors.Is(err, fs.SkipAll) {
				return z.rejected, nil
			}
			return z.rejected, err
		}
	}
	return z.rejected, nil
}

// under reports whether name is dir or lies under it ("" is the root).
func under(name, dir string) bool {
	return dir == "" || name == dir || strings.HasPrefix(name, dir) && name[len(dir)] == '/'
}

// budget is the decompressed bytes a Walk over a zip may still produce, so
// that many members sharing one compressed stream (an overlapping zip
// bomb) cannot make it endless.
type budget struct {
	left int64
	what string
}

// budgetReader charges what it reads to a budget.
type budgetReader struct {
	r io.Reader
	b *budget
}

func (r *budgetReader) Read(p []byte) (int, error) {
	if r.b.left <= 0 {
		var one [1]byte
		if n, err := r.r.Read(one[:]); n == 0 {
			return 0, err
		}
		return 0, errs.New(errs.TooLarge, "%s decompresses to more than Scout's limit for one pass over it", r.b.what)
	}
	p = p[:min(int64(len(p)), r.b.left)]
	n, err := r.r.Read(p)
	r.b.left -= int64(n)
	return n, err
}
