package archive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/scoutkit/scout/internal/dirtree"
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

// Listing renders a directory item: one line per child, "name/" for a
// directory and "name (1.2KB)" for a file ("name" when its size is 0). It
// shows the 1-based children first to last, and never more than
// DefaultListLimit of them (first <= 0 means 1; last <= 0 means no end, so
// the cap alone bounds the listing). The notices are those of a local
// directory listing, with the path in each hint: archive is the archive's
// path as the user wrote it ("dist/a.zip") and the directory is named with
// a trailing '/' ("dist/a.zip:src/:15", "dist/a.zip:/:501" for the root):
//   - a window that ends before the last child, as asked:
//     "[5 more lines in listing. Use dist/a.zip:src/:15 to continue]";
//   - a listing cut by the cap:
//     "[Showing lines 1-500 of 1203. Use dist/a.zip:src/:501 to continue]";
//   - a start past the end: "Line 9 is beyond end of listing (3 lines
//     total). Use dist/a.zip:src/:1 to read from the start, or
//     dist/a.zip:src/:3 to read the last line."
//
// capped is the number of children the cap held back (0 when the window
// was shown as asked).
func (it *Item) Listing(archive string, first, last int) (text string, capped int) {
	first = max(first, 1)
	total := len(it.Children)
	want := total // the last child the caller asked for
	if last > 0 {
		want = min(last, total)
	}
	end := min(want, first-1+DefaultListLimit)
	display := archive + ":" + it.Path + "/"
	var sb strings.Builder
	switch {
	case total == 0:
		sb.WriteString("(empty archive directory)")
	case first > total:
		fmt.Fprintf(&sb, "Line %d is beyond end of listing (%d lines total). Use %s:1 to read from the start, or %s:%d to read the last line.", first, total, display, display, total)
	default:
		for i, e := range it.Children[first-1 : end] {
			if i > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(e.Base())
			switch {
			case e.Dir:
				sb.WriteByte('/')
			case e.Size > 0:
				fmt.Fprintf(&sb, " (%s)", dirtree.FormatBytes(e.Size))
			}
		}
		switch {
		case end < want:
			capped = want - end
			fmt.Fprintf(&sb, "\n\n[Showing lines %d-%d of %d. Use %s:%d to continue]", first, end, total, display, end+1)
		case end < total:
			fmt.Fprintf(&sb, "\n\n[%d more lines in listing. Use %s:%d to continue]", total-end, display, end+1)
		}
	}
	if it.Rejected > 0 {
		fmt.Fprintf(&sb, "\n\n[%d archive entries with '..' in their names were left out]", it.Rejected)
	}
	return sb.String(), capped
}

// BinaryNotice is the text shown instead of a binary member's content.
func (it *Item) BinaryNotice() string {
	return fmt.Sprintf("[Cannot read binary archive entry '%s' (%s)]", it.Path, dirtree.FormatBytes(it.Entry.Size))
}
