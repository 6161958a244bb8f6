package archive

import (
	"errors"
	"slices"
	"strings"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/selector"
)

// DefaultListLimit is the number of children a listing shows when the
// caller asks for no particular count, as in pi.
const DefaultListLimit = 500

// dirBuilder collects the immediate children of one directory from a
// stream of entries.
type dirBuilder struct {
	dir    string // normalised; "" is the root
	prefix string // dir + "/", or "" for the root
	exists bool   // the directory itself or something under it was seen
	kids   map[string]Entry
	// max bounds the bytes of the children's names kept (0: no bound),
	// names counts them.
	max, names int64
	// alt is the member path that the request names if its text after
	// the first ':', altSel, was a mistyped selector (see firstCut); ""
	// for none. altSeen reports that an entry is alt or lies under it.
	alt, altSel string
	altSeen     bool
	// whole is the file member that the whole request names, when it holds
	// a ':' that was taken for a selector's; wholeSeen reports it exists.
	whole     string
	wholeSeen bool
}

// newDirBuilder collects the children of dir, keeping at most max bytes
// of their names (0: no bound).
func newDirBuilder(dir string, max int64) *dirBuilder {
	b := &dirBuilder{dir: dir, kids: map[string]Entry{}, max: max}
	if dir != "" {
		b.prefix = dir + "/"
	} else {
		b.exists = true // the root always exists, even when empty
	}
	return b
}

// errNames is what add returns once the children's names pass max.
var errNames = errors.New("names over the limit")

// add records e if it is the directory itself or lies under it. It fails
// with errNames once the names of the children kept pass b.max.
func (b *dirBuilder) add(e Entry) error {
	if b.alt != "" && strings.HasPrefix(e.Name, b.alt) && (len(e.Name) == len(b.alt) || e.Name[len(b.alt)] == '/') {
		b.altSeen = true
	}
	if e.Name == b.whole && !e.Dir {
		b.wholeSeen = true
	}
	if e.Name == b.dir {
		if e.Dir {
			b.exists = true
		}
		return nil
	}
	if !strings.HasPrefix(e.Name, b.prefix) {
		return nil
	}
	b.exists = true
	rel := e.Name[len(b.prefix):]
	if i := strings.IndexByte(rel, '/'); i >= 0 {
		name := b.prefix + rel[:i]
		old, ok := b.kids[name]
		b.kids[name] = Entry{Name: name, Dir: true, ModTime: old.ModTime}
		return b.count(ok, name)
	}
	old, ok := b.kids[e.Name]
	if ok && old.Dir && !e.Dir {
		return nil // a name that is both a directory and a file lists as a directory
	}
	b.kids[e.Name] = e
	return b.count(ok, e.Name)
}

// count charges a child's name to the bound unless it was kept already.
func (b *dirBuilder) count(kept bool, name string) error {
	if kept {
		return nil
	}
	b.names += int64(len(name))
	if b.max > 0 && b.names > b.max {
		return errNames
	}
	return nil
}

// tooLarge is the error for a listing whose names passed b.max; archive
// names the archive.
func (b *dirBuilder) tooLarge(archive string) error {
	dir := "its root"
	if b.dir != "" {
		dir = "its directory '" + errs.Echo(b.dir) + "'"
	}
	return cannotRead(errs.TooLarge, archive, nil, "the names of the entries in %s take more than %s, Scout's limit for a listing; read a member by its path instead",
		dir, dirtree.FormatBytes(b.max))
}

// missing is the error for a directory that was not seen: NOT_FOUND, or
// the selector error when alt was seen (archive names the archive).
func (b *dirBuilder) missing(archive string) error {
	if b.altSeen {
		return selector.NotSelector(b.altSel, archive+":"+b.alt)
	}
	return notFound(b.dir)
}

// children returns the sorted children.
func (b *dirBuilder) children() []Entry {
	out := make([]Entry, 0, len(b.kids))
	for _, e := range b.kids {
		out = append(out, e)
	}
	Sort(out)
	return out
}

// Sort orders entries by base name without regard to case, then by the
// bytes of the name, as pi's listing does (name.toLowerCase() with
// localeCompare, approximated by code-point order). Each base is lowered
// once, not at each comparison.
func Sort(entries []Entry) {
	type keyed struct {
		key string
		e   Entry
	}
	ks := make([]keyed, len(entries))
	for i, e := range entries {
		ks[i] = keyed{strings.ToLower(e.Base()), e}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(a.e.Name, b.e.Name)
	})
	for i := range ks {
		entries[i] = ks[i].e
	}
}
