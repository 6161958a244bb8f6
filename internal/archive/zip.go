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
	ra       fsx.ReaderAt
	base     int64 // length of data prepended to the zip
	entries  []zipEntry
	names    []string
	rejected int
}

func openZip(fsys fs.FS, name string, lim Limits) (*zipIndex, error) {
	ra, err := fsx.OpenReaderAt(fsys, name, lim.MaxInMemory)
	if err != nil {
		if errors.Is(err, fsx.ErrTooLarge) {
			return nil, errs.Wrap(errs.TooLarge, err, "Cannot read archive '%s': it is larger than %s and its file system offers no random access", name, dirtree.FormatBytes(lim.MaxInMemory))
		}
		return nil, openError(name, err)
	}
	entries, base, err := readCentral(ra, ra.Size(), lim.MaxEntries)
	if err != nil {
		ra.Close()
		var many *tooManyError
		if errors.As(err, &many) {
			return nil, errs.New(errs.TooLarge, "Cannot read archive '%s': it has %d entries, more than the limit of %d", name, many.count, lim.MaxEntries)
		}
		if errors.Is(err, errOverlap) {
			return nil, errs.New(errs.TooLarge, "Cannot read archive '%s': its entries overlap (entries share compressed data), the mark of a zip bomb, so it is not read", name)
		}
		return nil, errs.Wrap(errs.Unsupported, err, "Cannot read archive '%s': %v", name, err)
	}
	z := &zipIndex{ra: ra, base: base, entries: entries, names: make([]string, len(entries))}
	for i := range entries {
		n, ok := Clean(entries[i].name)
		if !ok {
			z.rejected++
		}
		z.names[i] = n
	}
	return z, nil
}

func (z *zipIndex) entry(i int) Entry {
	f := &z.entries[i]
	e := Entry{Name: z.names[i], ModTime: f.modTime()}
	if f.dir() {
		e.Dir = true
	} else {
		e.Size = int64(min(f.usize, math.MaxInt64))
	}
	return e
}

func (z *zipIndex) lookup(ctx context.Context, p, sel string, lim Limits) (*Item, error) {
	if p != "" {
		for i, n := range z.names {
			if n != p {
				continue
			}
			if e := z.entry(i); !e.Dir {
				r, err := z.open(ctx, i, lim)
				if err != nil {
					return nil, err
				}
				it := &Item{Path: p, Selector: sel, Entry: e}
				if err := it.setBody(r, nil); err != nil {
					return nil, err
				}
				return it, nil
			}
		}
	}
	b := newDirBuilder(p)
	for i, n := range z.names {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if n != "" {
			b.add(z.entry(i))
		}
	}
	if !b.exists {
		return nil, notFound(p)
	}
	it := &Item{Path: p, Selector: sel, Dir: true, Children: b.children()}
	if p == "" {
		it.Rejected = z.rejected
	}
	return it, nil
}

// open opens the i-th member for reading, refusing what Scout cannot
// decode.
func (z *zipIndex) open(ctx context.Context, i int, lim Limits) (io.Reader, error) {
	f, name := &z.entries[i], z.names[i]
	if f.flags&0x1 != 0 {
		return nil, errs.New(errs.Unsupported, "Archive entry '%s' is encrypted; Scout cannot read encrypted zip members", errs.Echo(name))
	}
	if f.method != methodStore && f.method != methodDeflate {
		return nil, errs.New(errs.Unsupported, "Archive entry '%s' uses zip compression method %d; Scout reads only stored and deflated members", errs.Echo(name), f.method)
	}
	r, err := openEntry(z.ra, z.ra.Size(), z.base, f)
	if err != nil {
		return nil, errs.Wrap(errs.Unsupported, err, "Cannot read archive entry '%s': %v", errs.Echo(name), err)
	}
	return newCapReader(ctx, r, "Archive entry '"+errs.Echo(name)+"'", lim.MaxMemberBytes), nil
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
		r, err := z.open(ctx, i, lim)
		if r != nil && lim.MaxScanBytes > 0 {
			r = &budgetReader{r: r, b: total}
		}
		if err := fn(e, r, err); err != nil {
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
