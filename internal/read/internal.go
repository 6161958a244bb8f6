package read

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/redact"
	"github.com/scoutkit/scout/internal/selector"
	"github.com/scoutkit/scout/internal/textio"
)

// internalURL reads an internal URL (skill://, agent://, memory:// ...)
// through the host's resolvers. A mutable resource with a backing file in
// the workspace is read as that file (or directory, when it has no text);
// any other is paged in memory, without anchors when it is immutable, with
// a note when its backing file could not be read (an error when it has no
// text either). skill:// resources and agent:// extractions
// are paged only by explicit selectors. A URL whose credentials are
// shown redacted ("skill://user:xxxxx@x", as a result shows it) is refused.
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
		return nil, true, errs.New(errs.InvalidParam, "Cannot combine query extraction with offset/limit: drop the line selector from %s or drop the /path or ?q= part.", errs.Echo(p))
	}
	if redact.IsRedacted(base) {
		// As a result shows it: resolving it would pass "xxxxx" on.
		return nil, true, errs.New(errs.InvalidParam, "Cannot read %s: its credentials are shown redacted (%q). Read the URL with its credentials.", errs.Echo(base), redact.Redacted)
	}
	res, err := reg.Resolve(ctx, base)
	if err != nil {
		return nil, true, err
	}
	notes := slices.Clip(res.Notes) // the resolver's: an append copies it
	if res.SourcePath != "" && !res.Immutable {
		f, err := r.stat(res.SourcePath)
		if err == nil && (f.info.Mode().IsRegular() || res.Text == "") {
			out, err := r.open(ctx, f, sel)
			if err != nil {
				return nil, true, err
			}
			out.Notes = append(out.Notes, res.Notes...)
			return out, true, nil
		}
		// A backing file that cannot be read is said, never an empty text.
		if err != nil {
			why := fmt.Sprintf("backing file '%s' cannot be read: %v", errs.Echo(res.SourcePath), err)
			if errors.Is(err, fs.ErrNotExist) {
				why = fmt.Sprintf("backing file '%s' does not exist", errs.Echo(res.SourcePath))
			}
			if res.Text == "" {
				return nil, true, errs.Wrap(errs.CodeOf(err), err, "Cannot read %s: its %s", errs.Echo(base), why)
			}
			notes = append(notes, "The resource's "+why+"; showing its text")
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
	out.Path, out.Notes = base, notes
	return out, true, nil
}
