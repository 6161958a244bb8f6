package read

import (
	"context"
	"io/fs"
	"strings"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/selector"
)

// local reads a local path with an optional selector.
func (r *reader) local(ctx context.Context, p string) (*Result, error) {
	// A path that exists as written wins over a selector reading of its
	// last colon (a file named "test:1-2").
	if strings.Contains(p, ":") {
		if f, err := r.stat(p); err == nil {
			return r.open(ctx, f, selector.Selector{})
		}
	}
	base, sel, _, err := selector.Split(p)
	if err != nil {
		return nil, err
	}
	f, err := r.stat(base)
	if err == nil {
		return r.open(ctx, f, sel)
	}
	if !isNotExist(err) {
		return nil, err
	}
	if sel.Raw && len(sel.Ranges) > 0 {
		// A compound selector after a name that ends in a selector reads
		// that file with the last chunk ("p:5:raw" of a file "p:5").
		i := strings.LastIndexByte(p, ':')
		if one, ok, perr := selector.Parse(p[i+1:]); perr == nil && ok {
			if f, err := r.stat(p[:i]); err == nil {
				return r.open(ctx, f, one)
			}
		}
	}
	if r.c.SuffixMatch {
		if res, ok, err := r.bySuffixMatch(ctx, p, base, sel); ok || err != nil {
			return res, err
		}
	}
	if res, ok := r.delimited(ctx, p); ok {
		return res, nil
	}
	if err := pathutil.ContainerOutside(r.c.FS, r.c.Root, p); err != nil {
		return nil, err
	}
	if err := r.notDatabase(p); err != nil {
		return nil, err
	}
	return nil, r.notFound(base)
}

// bySuffixMatch reads the missing path p (base and sel its path and
// selector) as the one entry of the tree whose path ends with it. One
// deadline bounds every suffix match of p. A missing archive or database
// found by suffix is read as one ("a.zip" lists "sub/a.zip"), anything
// else as what it is. ok is false when no unique match was found.
func (r *reader) bySuffixMatch(ctx context.Context, p, base string, sel selector.Selector) (*Result, bool, error) {
	sctx, cancel := context.WithTimeout(ctx, r.suffixLimit())
	defer cancel()
	for _, via := range []func(context.Context, string, locator) (*Result, bool, error){r.archiveVia, r.databaseVia} {
		if res, ok, err := via(ctx, p, r.bySuffix(sctx)); ok || err != nil {
			return res, ok, err
		}
	}
	if to := r.suffixMatch(sctx, base); to != "" {
		if f, err := r.stat(to); err == nil {
			f.suffix = &SuffixResolution{From: base, To: to}
			res, err := r.open(ctx, f, sel)
			return res, true, err
		}
	}
	return nil, false, nil
}

// open reads a resolved path.
func (r *reader) open(ctx context.Context, f *found, sel selector.Selector) (*Result, error) {
	var res *Result
	var err error
	mode := f.info.Mode()
	switch {
	case mode.IsDir():
		res, err = r.directory(ctx, f.fsPath, sel)
	case mode.IsRegular():
		res, err = r.file(ctx, f.fsPath, f.info, sel)
	default:
		return nil, errs.New(errs.Unsupported, "Cannot read '%s': it is not a regular file (%s). Read a regular file or a directory.", errs.Echo(pathutil.Display(f.fsPath)), kindOf(mode))
	}
	if err != nil {
		return nil, err
	}
	res.SuffixResolution = f.suffix
	return res, nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "mode " + m.String()
}

// delimited reads an entry that names several paths ("a.go, b.go"), when
// it splits into parts that exist. ok is false when it does not split.
func (r *reader) delimited(ctx context.Context, p string) (*Result, bool) {
	parts := pathutil.SplitDelimited(p, func(part string) bool {
		base, _, _, err := selector.Split(part)
		if err != nil {
			return false
		}
		_, err = r.stat(base)
		return err == nil
	})
	if len(parts) < 2 {
		return nil, false
	}
	res := &Result{Kind: KindMulti}
	for _, part := range parts {
		pr, err := r.local(ctx, part)
		if err != nil {
			res.Parts = append(res.Parts, Part{Path: part, Err: err})
			continue
		}
		pr.Input = part
		res.Parts = append(res.Parts, Part{Path: part, Result: pr})
	}
	res.Path = strings.Join(parts, ", ")
	return res, true
}
