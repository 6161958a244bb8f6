package tool

import (
	"context"
	"io/fs"
	"slices"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/find"
)

// piOrderOps wraps a host's FindOperations as pi's custom branch uses
// them: the paths Glob answers keep the delegate's order (the branch does
// not sort by modification time, as the walk does), cut at the limit in
// that order. rank holds each answered path's place, as the find's
// entries name it.
type piOrderOps struct {
	ops  scout.FindOperations
	rank map[string]int
}

// piOrderStatOps is piOrderOps over a delegate that can also Stat.
type piOrderStatOps struct {
	*piOrderOps
	st scout.FindStater
}

func (o piOrderStatOps) Stat(ctx context.Context, p string) (fs.FileInfo, error) {
	return o.st.Stat(ctx, p)
}

// newPiOrderOps wraps ops, keeping its Stat when it has one.
func newPiOrderOps(ops scout.FindOperations) (*piOrderOps, scout.FindOperations) {
	o := &piOrderOps{ops: ops, rank: map[string]int{}}
	if st, ok := ops.(scout.FindStater); ok {
		return o, piOrderStatOps{o, st}
	}
	return o, o
}

func (o *piOrderOps) Exists(ctx context.Context, p string) (bool, error) {
	return o.ops.Exists(ctx, p)
}

func (o *piOrderOps) Glob(ctx context.Context, pattern, dir string, opts scout.GlobOptions) ([]string, error) {
	paths, err := o.ops.Glob(ctx, pattern, dir, opts)
	if opts.Limit > 0 && len(paths) > opts.Limit {
		paths = paths[:opts.Limit] // pi's list limit keeps the first, as answered
	}
	for _, p := range paths {
		p = find.AnsweredPath(dir, p)
		if _, ok := o.rank[p]; !ok {
			o.rank[p] = len(o.rank)
		}
	}
	return paths, err
}

// order puts the entries back in the order the delegate answered them;
// entries it did not answer (an exact file) stay first, in their order.
func (o *piOrderOps) order(entries []scout.FindEntry) {
	if len(o.rank) == 0 {
		return
	}
	rank := func(e scout.FindEntry) int {
		if r, ok := o.rank[e.Path]; ok {
			return r
		}
		return -1
	}
	slices.SortStableFunc(entries, func(a, b scout.FindEntry) int { return rank(a) - rank(b) })
}
