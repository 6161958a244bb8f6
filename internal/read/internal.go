package read

import (
	"context"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/selector"
	"github.com/scoutkit/scout/internal/textio"
)

// internalURL reads an internal URL (skill://, agent://, memory:// ...)
// through the host's resolvers. A mutable resource with a backing file in
// the workspace is read as that file; any other is paged in memory, without
// anchors when it is immutable. skill:// resources and agent:// extractions
// are paged only by explicit selectors.
func (r *reader) internalURL(ctx context.Context, p string) (*Result, bool, error) {
	reg := r.c.Registry
	if reg == nil {
		reg = &iurl.Registry{}
	}
	if !reg.CanHandle(p) {
		return nil, false, nil
	}
	base, sel, _, err := selector.SplitInternal(p)
	if err != nil {
		return nil, true, err
	}
	if sel.Conflicts {
		return nil, true, errs.New(errs.InvalidParam, ":conflicts reads a local file, not an internal URL. Read %s without it.", errs.Echo(base))
	}
	u, err := iurl.Parse(base)
	if err != nil {
		return nil, true, err
	}
	extract := u.Scheme == "agent" && (len(u.Segments()) > 0 || u.Query.Get("q") != "")
	if extract && len(sel.Ranges) > 0 {
		return nil, true, errs.New(errs.InvalidParam, "Cannot combine query extraction with offset/limit: drop the line selector from %s or drop the /path or ?q= part.", p)
	}
	res, err := reg.Resolve(ctx, base)
	if err != nil {
		return nil, true, err
	}
	if res.SourcePath != "" && !res.Immutable {
		if f, err := r.stat(res.SourcePath); err == nil && f.info.Mode().IsRegular() {
			out, err := r.open(ctx, f, sel)
			if err != nil {
				return nil, true, err
			}
			out.Notes = append(out.Notes, res.Notes...)
			return out, true, nil
		}
	}
	po := memoryPlan
	if u.Scheme == "skill" || extract {
		po = textio.PlanOptions{Unlimited: true}
	}
	out, err := r.memory(ctx, res.Text, sel, po, SourceResource, res.Immutable)
	if err != nil {
		return nil, true, err
	}
	out.Path, out.Notes = base, res.Notes
	return out, true, nil
}
