package archive

import (
	"context"
	"io"
	"path"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/pathutil"
)

// maxLinkHops is the most links a link's target is followed through to
// name the member to read instead, as many as a path on disk.
const maxLinkHops = pathutil.MaxSymlinkHops

// linkLookup returns the link entry that reading the member name would
// meet, with its Link set; ok is false when name is no link member.
type linkLookup func(name string) (e Entry, ok bool, err error)

// linkTarget returns the normalised member a link entry points to; ok is
// false when it points outside the archive (an absolute symbolic link, or
// one whose ".." segments climb out).
func linkTarget(e Entry) (string, bool) {
	target := e.Link
	if !e.hard {
		if path.IsAbs(target) {
			return "", false
		}
		target = path.Join(path.Dir(e.Name), target)
	}
	t, ok := Clean(target)
	return t, ok && t != ""
}

// followLink is the error for reading e, a link, which stores no data: it
// follows e's target through the archive's links (up to maxLinkHops) and
// names the member they lead to, to read instead. A link that names
// itself, links that loop, a chain over maxLinkHops links and one leading
// out of the archive cannot be followed, and the error says why.
func followLink(archive string, e Entry, links linkLookup) error {
	name, link := errs.Echo(e.Name), errs.Echo(e.Link)
	seen := map[string]bool{e.Name: true}
	cur := e
	for hops := 1; ; hops++ {
		t, ok := linkTarget(cur)
		switch {
		case !ok && hops == 1:
			return errs.New(errs.Unsupported, "Archive entry '%s' is a link to '%s', outside the archive; links are not followed", name, link)
		case !ok:
			return errs.New(errs.Unsupported, "Archive entry '%s' is a link to '%s', which leads out of the archive through '%s' (a link to '%s'); links are not followed", name, link, errs.Echo(cur.Name), errs.Echo(cur.Link))
		case t == e.Name && hops == 1:
			return errs.New(errs.Unsupported, "Archive entry '%s' is a link to itself ('%s'); it cannot be followed and has no data to read", name, link)
		case seen[t]:
			return errs.New(errs.Unsupported, "Archive entry '%s' is a link to '%s' that cannot be followed: its links loop ('%s' leads back to '%s')", name, link, errs.Echo(cur.Name), errs.Echo(t))
		case hops > maxLinkHops:
			return errs.New(errs.Unsupported, "Archive entry '%s' is a link to '%s' that cannot be followed: it leads through more than %d links", name, link, maxLinkHops)
		}
		next, isLink, err := links(t)
		if err != nil {
			return err
		}
		if !isLink {
			if hops == 1 {
				return errs.New(errs.Unsupported, "Archive entry '%s' is a link to '%s'; read %s:%s instead", name, link, archive, errs.Echo(t))
			}
			return errs.New(errs.Unsupported, "Archive entry '%s' is a link to '%s', which leads through %d links to '%s'; read %s:%s instead", name, link, hops, errs.Echo(t), archive, errs.Echo(t))
		}
		seen[t] = true
		cur = next
	}
}

// walkLinkError is the error Walk passes for a link member: Walk does not
// follow links (Lookup names where one leads).
func walkLinkError(e Entry) error {
	return errs.New(errs.Unsupported, "Archive entry '%s' is a link; links are not followed", errs.Echo(e.Name))
}

// maxTarLinkBytes bounds the names and targets of the links one pass over
// a tar keeps to follow a link; past it the links not kept are looked up
// by a pass each.
var maxTarLinkBytes = 8 << 20

// tarLinks is the error for reading e, a link of the tar: it reads the tar
// once, keeping its links (each name's first), to follow e through them.
func (a *Archive) tarLinks(ctx context.Context, e Entry) error {
	links, complete, err := a.scanTarLinks(ctx, "")
	if err != nil {
		return err
	}
	return followLink(a.name, e, func(name string) (Entry, bool, error) {
		if l, ok := links[name]; ok || complete {
			return l, ok, nil
		}
		one, _, err := a.scanTarLinks(ctx, name)
		l, ok := one[name]
		return l, ok, err
	})
}

// scanTarLinks reads the tar once and returns its link members by name,
// the first file member of each name when it is a link; complete is false
// when maxTarLinkBytes left some out. With only set, it returns at most
// the member named only, and stops there.
func (a *Archive) scanTarLinks(ctx context.Context, only string) (links map[string]Entry, complete bool, err error) {
	s, err := a.openTar(ctx)
	if err != nil {
		return nil, false, err
	}
	defer s.Close()
	links, complete = map[string]Entry{}, true
	size := 0
	for {
		e, err := s.next(ctx)
		if err == io.EOF {
			return links, complete, nil
		}
		if err != nil {
			return nil, false, err
		}
		switch {
		case e.Dir:
		case only != "":
			if e.Name == only {
				if e.IsLink() {
					links[only] = e
				}
				return links, true, nil
			}
		case !e.IsLink():
		case size+len(e.Name)+len(e.Link) > maxTarLinkBytes:
			complete = false
		default:
			if _, dup := links[e.Name]; !dup {
				links[e.Name] = e
				size += len(e.Name) + len(e.Link)
			}
		}
	}
}
