package read

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/selector"
	"github.com/scoutkit/scout/internal/textio"
	"github.com/scoutkit/scout/internal/walk"
)

// gitListing returns the CodeInvalidParam error of a listing of the
// directory name (shown as display) when it is a .git directory or lies in
// one, also through a symlink (walk.LeadsToGit): .git is never listed, as
// no walk enters it, but a file in it is read when named. nil otherwise.
func gitListing(fsys fs.FS, name, display string) error {
	real, ok := walk.LeadsToGit(fsys, name)
	if !ok {
		return nil
	}
	segs := strings.Split(real, "/")
	gitDir := strings.Join(segs[:slices.Index(segs, ".git")+1], "/")
	how := ""
	if real != name {
		how = fmt.Sprintf(" (it leads to '%s')", fname.Quote(real))
	}
	return errs.New(errs.InvalidParam, "Cannot list '%s'%s: .git is never listed; read a file in it by its path, e.g. '%s'.", fname.Quote(display), how, fname.Quote(gitDir+"/config"))
}

// directory renders the tree of a directory; a line selector slices the
// rendered lines exactly (no context), and with none the listing limit
// applies (the read limit when it is 0).
func (r *reader) directory(ctx context.Context, name string, sel selector.Selector) (*Result, error) {
	display := pathutil.Display(name)
	if err := gitListing(r.c.FS, name, display); err != nil {
		return nil, err
	}
	if len(sel.Ranges) > 1 {
		return nil, errs.New(errs.InvalidParam, "Multi-range line selectors are not supported for directory listings. Use one range, e.g. %s:1-100.", errs.Echo(display))
	}
	if sel.Conflicts {
		return nil, errs.New(errs.InvalidParam, "'%s' is a directory: :conflicts needs a file.", errs.Echo(display))
	}
	exact := selector.Selector{Ranges: sel.Ranges, Raw: true}
	po := textio.PlanOptions{Limit: r.c.Limit}
	if len(sel.Ranges) == 0 && r.c.ListingLimit != 0 {
		po = textio.PlanOptions{Limit: r.c.ListingLimit, HeadBytes: textio.MinByteBudget}
	}
	wins := r.plan(exact, po)
	// Only the rows of the lines shown are built (line 1 is ".", row i is
	// line i+1): the others are counted, so that a huge directory costs
	// little memory however deep the window.
	skip, rows := textio.FirstLine(wins)-2, 0
	if last := textio.LastLine(wins); last > 0 {
		rows = max(last-1-max(skip, 0), 1)
	}
	now := r.c.now()
	tree, err := dirtree.Build(ctx, r.c.FS, name, r.c.PruneDirs, max(skip, 0), rows, now)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errs.Stopped(ctx, "Read", ctx.Err())
		}
		return nil, openErr(display, err)
	}
	// The rows not built read as empty lines, never shown: the text counts
	// them. Render's first line is line 1 or the first entry's.
	lines := dirtree.Render(tree, now)
	before := 0
	if len(tree.Entries) > 0 {
		before = tree.Entries[0].Line - 1
		if lines[0] == "." {
			before--
		}
	}
	var src io.Reader = strings.NewReader(strings.Join(lines, "\n"))
	if before > 0 {
		head := blankLines(before)
		src = io.MultiReader(&head, src)
	}
	if rest := tree.Rows + 1 - before - len(lines); rest > 0 && tree.Rows > 0 {
		// The first newline ends the last row built.
		blank := blankLines(rest + 1)
		src = io.MultiReader(src, &blank)
	}
	res, err := r.lines(ctx, src, exact, wins, SourceListing)
	if err != nil {
		return nil, err
	}
	res.Kind, res.Raw, res.Path, res.Bytes = KindDirectory, false, display, int64(tree.Bytes)
	res.Pruned, res.Unreadable = tree.Pruned, tree.Unreadable
	if res.BeyondEnd == 0 {
		// A read past the end shows no entries, so none is left out of
		// it: like a file's, it is whole (its notice says where the
		// listing ends).
		res.Unlisted = tree.Omitted
	}
	if res.Unlisted > 0 && res.Truncated == "" {
		res.Truncated = TruncLimit
	}
	if len(tree.Entries) > 0 {
		first := tree.Entries[0].Line
		for _, b := range res.Blocks {
			for _, l := range b.Lines {
				if i := l.N - first; i >= 0 && i < len(tree.Entries) {
					res.Entries = append(res.Entries, tree.Entries[i])
				}
			}
		}
	}
	return res, nil
}

// blankLines reads as that many newlines.
type blankLines int

func (b *blankLines) Read(p []byte) (int, error) {
	if *b <= 0 {
		return 0, io.EOF
	}
	n := min(len(p), int(*b))
	for i := range p[:n] {
		p[i] = '\n'
	}
	*b -= blankLines(n)
	return n, nil
}
