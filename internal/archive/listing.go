package archive

import (
	"slices"
	"strings"

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

func newDirBuilder(dir string) *dirBuilder {
	b := &dirBuilder{dir: dir, kids: map[string]Entry{}}
	if dir != "" {
		b.prefix = dir + "/"
	} else {
		b.exists = true // the root always exists, even when empty
	}
	return b
}

// add records e if it is the directory itself or lies under it.
func (b *dirBuilder) add(e Entry) {
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
		return
	}
	if !strings.HasPrefix(e.Name, b.prefix) {
		return
	}
	b.exists = true
	rel := e.Name[len(b.prefix):]
	if i := strings.IndexByte(rel, '/'); i >= 0 {
		name := b.prefix + rel[:i]
		b.kids[name] = Entry{Name: name, Dir: true, ModTime: b.kids[name].ModTime}
		return
	}
	if old, ok := b.kids[e.Name]; ok && old.Dir && !e.Dir {
		return // a name that is both a directory and a file lists as a directory
	}
	b.kids[e.Name] = e
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
// localeCompare, approximated by code-point order).
func Sort(entries []Entry) {
	slices.SortFunc(entries, func(a, b Entry) int {
		if c := strings.Compare(strings.ToLower(a.Base()), strings.ToLower(b.Base())); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}
