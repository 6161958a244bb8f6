package archive

import (
	"archive/zip"
	"context"
	"errors"
	"io"
	"io/fs"
	"math"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
)

// zipIndex is an opened zip: its central directory and the normalised name
// of each entry ("" for an entry that was rejected or names the root).
type zipIndex struct {
	ra       fsx.ReaderAt
	r        *zip.Reader
	names    []string
	rejected int
}

func openZip(fsys fs.FS, name string, lim Limits) (*zipIndex, error) {
	ra, err := fsx.OpenReaderAt(fsys, name, lim.MaxInMemory)
	if err != nil {
		if errors.Is(err, fsx.ErrTooLarge) {
			return nil, errs.Wrap(errs.TooLarge, err, "Cannot read archive '%s': it is larger than %s and its file system offers no random access", name, FormatSize(lim.MaxInMemory))
		}
		return nil, openError(name, err)
	}
	r, err := zip.NewReader(ra, ra.Size())
	if err != nil && !(r != nil && errors.Is(err, zip.ErrInsecurePath)) {
		ra.Close()
		return nil, errs.Wrap(errs.Unsupported, err, "Cannot read archive '%s': %v", name, err)
	}
	if lim.MaxEntries > 0 && len(r.File) > lim.MaxEntries {
		ra.Close()
		return nil, errs.New(errs.TooLarge, "Cannot read archive '%s': it has %d entries, more than the limit of %d", name, len(r.File), lim.MaxEntries)
	}
	z := &zipIndex{ra: ra, r: r, names: make([]string, len(r.File))}
	for i, f := range r.File {
		n, ok := Clean(f.Name)
		if !ok {
			z.rejected++
		}
		z.names[i] = n
	}
	return z, nil
}

func (z *zipIndex) entry(i int) Entry {
	f := z.r.File[i]
	e := Entry{Name: z.names[i], ModTime: f.Modified}
	if strings.HasSuffix(f.Name, "/") || f.Mode().IsDir() {
		e.Dir = true
	} else {
		e.Size = int64(min(f.UncompressedSize64, math.MaxInt64))
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
				it := &Item{Path: p, Selector: sel, Entry: e}
				r, c, err := z.open(ctx, i, lim)
				if err != nil {
					return nil, err
				}
				if err := it.setBody(r, c); err != nil {
					return nil, err
				}
				return it, nil
			}
		}
	}
	b := newDirBuilder(p)
	for i, n := range z.names {
		if err := ctx.Err(); err != nil && i%4096 == 0 {
			return nil, err
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
func (z *zipIndex) open(ctx context.Context, i int, lim Limits) (io.Reader, io.Closer, error) {
	f, name := z.r.File[i], z.names[i]
	if f.Flags&0x1 != 0 {
		return nil, nil, errs.New(errs.Unsupported, "Archive entry '%s' is encrypted; Scout cannot read encrypted zip members", name)
	}
	if f.Method != zip.Store && f.Method != zip.Deflate {
		return nil, nil, errs.New(errs.Unsupported, "Archive entry '%s' uses zip compression method %d; Scout reads only stored and deflated members", name, f.Method)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, nil, errs.Wrap(errs.Unsupported, err, "Cannot read archive entry '%s': %v", name, err)
	}
	return newCapReader(ctx, rc, "Archive entry '"+name+"'", lim.MaxMemberBytes), rc, nil
}

func (z *zipIndex) walk(ctx context.Context, dir string, fn WalkFunc, lim Limits) (int, error) {
	for i, n := range z.names {
		if err := ctx.Err(); err != nil {
			return z.rejected, err
		}
		if n == "" || !under(n, dir) {
			continue
		}
		e := z.entry(i)
		if e.Dir {
			continue
		}
		r, c, err := z.open(ctx, i, lim)
		err = fn(e, r, err)
		if c != nil {
			c.Close()
		}
		if err != nil {
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
