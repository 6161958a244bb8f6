package read

import (
	"context"
	"strings"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/selector"
	"github.com/scoutkit/scout/internal/textio"
)

// directory renders the tree of a directory; a line selector slices the
// rendered lines exactly (no context), and with none the read limit
// applies.
func (r *reader) directory(ctx context.Context, name string, sel selector.Selector) (*Result, error) {
	display := pathutil.Display(name)
	if len(sel.Ranges) > 1 {
		return nil, errs.New(errs.InvalidParam, "Multi-range line selectors are not supported for directory listings. Use one range, e.g. %s:1-100.", display)
	}
	if sel.Conflicts {
		return nil, errs.New(errs.InvalidParam, "'%s' is a directory: :conflicts needs a file.", display)
	}
	tree, err := dirtree.Build(ctx, r.c.FS, name)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errs.Stopped(ctx, "Read", ctx.Err())
		}
		return nil, openErr(display, err)
	}
	lines := dirtree.Render(tree, r.c.now())
	exact := selector.Selector{Ranges: sel.Ranges, Raw: true}
	res, err := r.lines(ctx, strings.NewReader(strings.Join(lines, "\n")), exact, textio.PlanOptions{Raw: true, Limit: r.c.Limit}, SourceListing)
	if err != nil {
		return nil, err
	}
	res.Kind, res.Raw, res.Path = KindDirectory, false, display
	res.Pruned, res.Unlisted, res.Unreadable = tree.Pruned, tree.Omitted, tree.Unreadable
	if res.Unlisted > 0 && res.Truncated == "" {
		res.Truncated = TruncLimit
	}
	if len(tree.Entries) > 0 {
		for _, b := range res.Blocks {
			for _, l := range b.Lines {
				if l.N >= 2 {
					res.Entries = append(res.Entries, tree.Entries[l.N-2])
				}
			}
		}
	}
	return res, nil
}
