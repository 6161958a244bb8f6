package search

import (
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/scoutkit/scout/internal/walk"
)

// The walker's sorted mode reports a directory's entries by name, each
// directory's subtree right after it. That is byte-wise path order except
// around a directory d with a sibling whose name starts with d followed by
// a byte below '/' ("a" and "a.go", "a-b"): byte-wise, "a.go" < "a/x", but
// the walk reports a/x first. An orderer turns the walk into exact
// byte-wise order while streaming: a directory that has such a sibling, or
// that lies deeper than checkDepth (where checking would cost a directory
// read each), is held back with everything after it until a sibling that
// sorts after "d/" arrives or its parent ends; the held files are then
// sorted and passed on. Shallow directories without such a sibling stream
// through, so the first files of a big tree come out at once.
type orderer struct {
	fsys fs.FS
	emit func(file) error

	holdDepth int    // depth of the held directory; 0 when nothing is held
	bound     string // the hold ends at a sibling >= bound
	held      []file

	listed string   // the directory whose names are cached
	names  []string // its entry names, sorted
}

// checkDepth is the deepest level at which a directory's siblings are read
// to decide whether it must be held.
const checkDepth = 2

// entry takes the next walk entry; f is the file to search, or nil for a
// directory or a file the filters left out.
func (o *orderer) entry(e walk.Entry, f *file) error {
	if o.holdDepth > 0 {
		if e.Depth > o.holdDepth || e.Depth == o.holdDepth && e.Path < o.bound {
			if e.Depth == o.holdDepth && e.Type.IsDir() {
				o.bound = max(o.bound, e.Path+"/")
			}
			if f != nil {
				o.held = append(o.held, *f)
			}
			return nil
		}
		if err := o.flush(); err != nil {
			return err
		}
	}
	if e.Type.IsDir() {
		if e.Depth > checkDepth || o.hasPrefixSibling(e.Path) {
			o.holdDepth, o.bound = e.Depth, e.Path+"/"
		}
		return nil
	}
	if f != nil {
		return o.emit(*f)
	}
	return nil
}

// flush passes the held files on in path order.
func (o *orderer) flush() error {
	slices.SortFunc(o.held, func(a, b file) int { return strings.Compare(a.path, b.path) })
	for _, f := range o.held {
		if err := o.emit(f); err != nil {
			return err
		}
	}
	o.held, o.holdDepth, o.bound = o.held[:0], 0, ""
	return nil
}

// hasPrefixSibling reports whether the directory p has a sibling named
// like it followed by a byte below '/'. When the parent cannot be read it
// says yes, which only delays the output.
func (o *orderer) hasPrefixSibling(p string) bool {
	dir, name := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	if dir != o.listed {
		des, err := fs.ReadDir(o.fsys, dir)
		if err != nil {
			o.listed, o.names = "", nil
			return true
		}
		o.listed, o.names = dir, o.names[:0]
		for _, de := range des {
			o.names = append(o.names, de.Name())
		}
		sort.Strings(o.names)
	}
	i := sort.SearchStrings(o.names, name+"\x00")
	return i < len(o.names) && o.names[i] < name+"/" && strings.HasPrefix(o.names[i], name)
}
