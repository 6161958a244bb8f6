package read

import (
	"context"
	"strings"

	"github.com/scoutkit/scout/internal/archive"
	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/hashline"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/selector"
	"github.com/scoutkit/scout/internal/sqlite"
	"github.com/scoutkit/scout/internal/textio"
)

// archive reads p as an archive path ("a.zip", "a.zip:dir/", "a.zip:f.ts:50-60")
// when some prefix of it ending in an archive extension is a regular file.
func (r *reader) archive(ctx context.Context, p string) (*Result, bool, error) {
	return r.archiveVia(ctx, p, r.locate)
}

// archiveVia is archive with the archive file found by locate.
func (r *reader) archiveVia(ctx context.Context, p string, locate locator) (*Result, bool, error) {
	for _, cand := range archive.Candidates(p) {
		name, suffix, ok, err := locate(cand.Archive)
		if err != nil {
			return nil, true, err
		}
		if !ok {
			continue
		}
		res, err := r.readArchive(ctx, p, name, cand.Inner)
		if res != nil {
			res.SuffixResolution = suffix
		}
		return res, true, err
	}
	return nil, false, nil
}

// readArchive reads inner, a member path and its selector, in the archive
// file name; p is the whole read path, which a missing member's error names
// ("Path 'a.zip:nope.txt' not found inside archive").
func (r *reader) readArchive(ctx context.Context, p, name, inner string) (*Result, error) {
	display := pathutil.Display(name)
	a, err := archive.Open(ctx, r.c.FS, name, archive.Limits{})
	if err != nil {
		return nil, err
	}
	defer a.Close()
	it, err := a.Lookup(ctx, inner)
	if errs.CodeOf(err) == errs.NotFound && isSelector(inner) {
		// No member has that name: the selector pages the root listing
		// ("a.zip:1-50", "a.zip:1-5,9-12").
		it, err = a.Lookup(ctx, ":"+inner)
	}
	if errs.CodeOf(err) == errs.NotFound {
		return nil, errs.Wrap(errs.NotFound, err, "Path '%s' not found inside archive", errs.Echo(p))
	}
	if err != nil {
		return nil, err
	}
	defer it.Close()
	if !it.Dir && sqlite.HasExt(it.Path) && sqlite.IsSQLite(it.Head(len(sqlite.Magic))) {
		return r.archivedDatabase(ctx, display, it)
	}
	var sel selector.Selector
	if it.Selector != "" {
		var ok bool
		sel, ok, err = selector.Parse(it.Selector)
		if err != nil {
			return nil, err
		}
		if !ok && sqlite.HasExt(it.Path) && !it.Dir {
			// The member is named like a database but is not one.
			return nil, notDatabaseErr(p, display+":"+it.Path)
		}
		if !ok {
			return nil, selector.NotSelector(it.Selector, display+":"+it.Path)
		}
	}
	member := display + ":" + it.Path
	if it.Dir {
		return listing(display, it, sel)
	}
	if it.Binary {
		return &Result{Kind: KindBinary, Path: member, Archive: display, Bytes: it.Entry.Size,
			Binary: &Binary{Size: it.Entry.Size, MIME: textio.ContentType(it.Head(archive.SniffBytes))}}, nil
	}
	if sel.Conflicts {
		return nil, errs.New(errs.InvalidParam, ":conflicts reads a local file, not an archive member. Read %s without it.", errs.Echo(member))
	}
	var res *Result
	if it.Entry.Size <= hashline.MaxTagBytes {
		text, err := it.Text(hashline.MaxTagBytes)
		if err != nil {
			return nil, err
		}
		res, err = r.memory(ctx, text, sel, memoryPlan, SourceArchive, false)
		if err != nil {
			return nil, err
		}
	} else {
		res, err = r.lines(ctx, it.Body(), sel, r.plan(sel, memoryPlan), SourceArchive)
		if err != nil {
			return nil, err
		}
	}
	res.Path, res.Archive, res.Bytes = member, display, it.Entry.Size
	return res, nil
}

// listing lists a directory inside an archive: its children, as entries
// numbered from 1 in name order. A line selector bounds it as it bounds a
// local directory listing: ":A-B" lists children A to B exactly, ":N"
// from N on; at most archive.DefaultListLimit are listed either way, and
// no more than fit a listing's byte budget (the cap's truncation says
// which). Multi-range and :conflicts are errors, as for
// a local directory.
func listing(display string, it *archive.Item, sel selector.Selector) (*Result, error) {
	dir := display + ":" + it.Path + "/"
	switch {
	case len(sel.Ranges) > 1:
		return nil, errs.New(errs.InvalidParam, "Multi-range line selectors are not supported for directory listings. Use one range, e.g. %s:1-100.", errs.Echo(dir))
	case sel.Conflicts:
		return nil, errs.New(errs.InvalidParam, "'%s' is a directory inside an archive: :conflicts needs a file.", errs.Echo(dir))
	}
	first, last := 1, 0
	if len(sel.Ranges) == 1 {
		first, last = sel.Ranges[0].Start, sel.Ranges[0].End
	}
	total := len(it.Children)
	want := total // the last child asked for
	if last > 0 {
		want = min(last, total)
	}
	end := min(want, first-1+archive.DefaultListLimit)
	path := display
	if it.Path != "" {
		path += ":" + it.Path
	}
	res := &Result{Kind: KindArchive, Source: SourceListing, Archive: display, Path: path, TotalLines: total, Rejected: it.Rejected}
	switch {
	case total == 0:
	case first > total:
		res.BeyondEnd = first
	default:
		// The names shown fit the byte budget of a listing of as many rows
		// (a member's name may be 4 KiB long); the first always shows.
		budget, used := max(textio.MinByteBudget, (end-first+1)*textio.BytesPerLine), 0
		res.Entries = make([]dirtree.Entry, 0, end-first+1)
		for i, e := range it.Children[first-1 : end] {
			if used += len(e.Base()) + 1; i > 0 && used > budget {
				end, res.Truncated = first+i-1, TruncBytes
				break
			}
			mt := e.ModTime
			if !mt.IsZero() {
				mt = mt.UTC()
			}
			res.Entries = append(res.Entries, dirtree.Entry{Path: e.Base(), Line: first + i, Depth: 1, Dir: e.Dir, Symlink: e.Symlink, Size: e.Size, ModTime: mt})
		}
		switch {
		case end < want:
			res.Unlisted, res.Next = want-end, end+1
			if res.Truncated == "" {
				res.Truncated = TruncLimit
			}
		case end < total:
			res.Next = end + 1
		}
	}
	return res, nil
}

// isSelector reports whether s is a read selector alone ("1-50", "raw").
// An invalid one without ':' ("0", "5-3") counts too, so that its error is
// the one reported.
func isSelector(s string) bool {
	_, ok, err := selector.Parse(s)
	return ok && (err == nil || !strings.Contains(s, ":"))
}

// archivedDatabase reads a SQLite database that is an archive member, with
// the member's own selector (a.zip:data.db:users?limit=5). It is copied
// into memory, up to sqlite.DefaultMaxInMemory.
func (r *reader) archivedDatabase(ctx context.Context, display string, it *archive.Item) (*Result, error) {
	sel := ""
	if it.Selector != "" {
		sel = ":" + it.Selector
		if strings.HasPrefix(it.Selector, "?") {
			sel = it.Selector
		}
	}
	res, err := sqlite.ReadReader(ctx, display+":"+it.Path, it.Body(), it.Entry.Size, sel, sqlite.Options{})
	if err != nil {
		return nil, err
	}
	return sqliteResult(res, display+":"+it.Path+sel, display, nil), nil
}
