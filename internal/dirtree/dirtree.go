// Package dirtree builds and renders the directory tree that read shows for
// a directory, as the pi read tool does: two levels deep, hidden entries
// shown, each directory's children newest first, at most PerDir children
// per directory below the root (the 11 newest, a "… N more" row, then the
// oldest), sizes and relative ages in aligned columns. Directories named in
// Pruned and .DS_Store files are left out and recorded.
package dirtree

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/scoutkit/scout/internal/fsx"
)

// The tree's shape.
const (
	MaxDepth = 2  // levels listed below the directory
	PerDir   = 12 // children shown per directory below the root
)

// Pruned names directories that are never listed (build output, caches,
// version control, dependencies).
var Pruned = map[string]bool{
	"node_modules": true, ".git": true, ".next": true, "dist": true, "build": true, "target": true,
	".venv": true, ".cache": true, ".turbo": true, ".parcel-cache": true, "coverage": true,
}

// Entry is one row of the tree.
type Entry struct {
	Path    string    `json:"path"`              // slash path relative to the listed directory
	Depth   int       `json:"depth"`             // 1 for the directory's own children
	Dir     bool      `json:"dir,omitempty"`     // a directory (symlinks are not followed, so never a link)
	Symlink bool      `json:"symlink,omitempty"` // a symbolic link
	Size    int64     `json:"size,omitempty"`    // bytes, for files
	ModTime time.Time `json:"modTime"`           // in UTC; zero when unknown
	// More, when positive, makes this row the "… More more" marker of
	// the entries left out of its directory; the other fields but Depth
	// and Line are then empty.
	More int `json:"more,omitempty"`
	// Line is the row's line in the rendered tree (Render's line 1 is
	// ".", so the first entry is line 2).
	Line int `json:"line"`
}

// Name returns the entry's base name.
func (e Entry) Name() string { return path.Base(e.Path) }

// Tree is a built directory tree.
type Tree struct {
	Entries []Entry // in display order
	// Omitted counts the entries replaced by "… N more" rows.
	Omitted int
	// Pruned lists the left-out directories (with a trailing '/') and
	// .DS_Store files, as paths relative to the listed directory, sorted.
	Pruned []string
	// Unreadable lists subdirectories whose children could not be listed.
	Unreadable []string
}

// Build lists dir in fsys. It fails only when dir itself cannot be read or
// ctx is done. Subdirectories are listed concurrently (the work is system
// calls); the result does not depend on the order they finish in. The
// root's entries are all kept; a subdirectory's are streamed, keeping only
// those shown, so that its size does not bound the memory.
func Build(ctx context.Context, fsys fs.FS, dir string) (*Tree, error) {
	root := list(ctx, fsys, dir, "", 0)
	if root.err != nil {
		return nil, root.err
	}
	subs := make([]listing, len(root.entries))
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for i, k := range root.entries {
		if !k.Dir || ctx.Err() != nil {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			subs[i] = list(ctx, fsys, path.Join(dir, k.Path), k.Path, PerDir)
			<-sem
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t := &Tree{Pruned: root.pruned}
	for i, k := range root.entries {
		k.Depth = 1
		t.Entries = append(t.Entries, k)
		if !k.Dir {
			continue
		}
		sub := subs[i]
		if sub.err != nil {
			t.Unreadable = append(t.Unreadable, k.Path)
			continue
		}
		t.Pruned = append(t.Pruned, sub.pruned...)
		for _, s := range capped(sub, t) {
			s.Depth = 2
			t.Entries = append(t.Entries, s)
		}
	}
	sort.Strings(t.Pruned)
	for i := range t.Entries {
		t.Entries[i].Line = i + 2
	}
	return t, nil
}

// workers bounds the subdirectories listed at once.
const workers = 8

// batch is how often, in entries, a long listing checks ctx.
const batch = 1024

// listing is one directory's children.
type listing struct {
	entries []Entry  // sorted newest first; with a keep, only those kept
	total   int      // the children listed, kept or not
	pruned  []string // left-out names, as paths relative to the root
	err     error
}

// list returns the entries of dir sorted newest first, leaving out and
// recording pruned names. prefix is dir's path relative to the listed root.
// keep > 0 keeps only the keep-1 newest entries and the oldest, what capped
// shows of a directory of more than keep, and on an OS file system reads
// the directory as a stream, so that its size does not bound the memory;
// 0 keeps all.
func list(ctx context.Context, fsys fs.FS, dir, prefix string, keep int) listing {
	var l listing
	add := func(name string, typ fs.FileMode, info func() (fs.FileInfo, error)) {
		rel := path.Join(prefix, name)
		isDir := typ&fs.ModeDir != 0
		if isDir && Pruned[name] {
			l.pruned = append(l.pruned, rel+"/")
			return
		}
		if !isDir && name == ".DS_Store" {
			l.pruned = append(l.pruned, rel)
			return
		}
		e := Entry{Path: rel, Dir: isDir, Symlink: typ&fs.ModeSymlink != 0}
		if info, err := info(); err == nil {
			e.ModTime = info.ModTime().UTC()
			if !e.Dir {
				e.Size = info.Size()
			}
		}
		l.total++
		l.entries = append(l.entries, e)
		if keep > 0 && len(l.entries) >= 2*keep {
			l.entries = trim(l.entries, keep)
		}
	}
	if o, ok := fsys.(fsx.DirOpener); ok && keep > 0 {
		d, err := o.OpenDirFD(dir)
		if err != nil {
			return listing{err: err}
		}
		defer d.Close()
		err = d.ReadEntries(func(name string, typ fs.FileMode) {
			if l.total%batch == 0 && ctx.Err() != nil {
				return
			}
			add(name, typ, func() (fs.FileInfo, error) { return d.Lstat(name) })
		})
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return listing{err: err}
		}
	} else {
		des, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return listing{err: err}
		}
		for _, de := range des {
			add(de.Name(), de.Type(), de.Info)
		}
	}
	if keep > 0 {
		l.entries = trim(l.entries, keep)
	} else {
		sortEntries(l.entries)
	}
	return l
}

// sortEntries sorts es newest first, then by name.
func sortEntries(es []Entry) {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if !a.ModTime.Equal(b.ModTime) {
			return a.ModTime.After(b.ModTime)
		}
		return nameLess(a.Name(), b.Name())
	})
}

// trim sorts es and keeps its keep-1 first entries and its last.
func trim(es []Entry, keep int) []Entry {
	sortEntries(es)
	if len(es) <= keep {
		return es
	}
	return append(es[:keep-1], es[len(es)-1])
}

// nameLess orders names case-insensitively, then byte-wise.
func nameLess(a, b string) bool {
	la, lb := strings.ToLower(a), strings.ToLower(b)
	if la != lb {
		return la < lb
	}
	return a < b
}

// capped keeps PerDir-1 newest entries, a "… N more" row and the oldest.
func capped(l listing, t *Tree) []Entry {
	es := l.entries
	if l.total <= PerDir {
		return es
	}
	more := l.total - PerDir
	t.Omitted += more
	out := append([]Entry(nil), es[:PerDir-1]...)
	out = append(out, Entry{More: more})
	return append(out, es[len(es)-1])
}

// Render returns the tree's lines: "." then one row per entry, the label
// ("  "×depth + "- " + name, "/" after directories) padded to the widest
// label plus 2, the size padded to 8, two spaces and the age, trailing
// blanks removed. Ages are relative to now. An empty tree renders as
// "(empty directory)".
func Render(t *Tree, now time.Time) []string {
	if len(t.Entries) == 0 {
		return []string{"(empty directory)"}
	}
	labels := make([]string, len(t.Entries))
	width := 0
	for i, e := range t.Entries {
		labels[i] = label(e)
		width = max(width, len([]rune(labels[i])))
	}
	lines := make([]string, 0, len(t.Entries)+1)
	lines = append(lines, ".")
	for i, e := range t.Entries {
		if e.More > 0 {
			lines = append(lines, labels[i])
			continue
		}
		size := ""
		if !e.Dir {
			size = FormatBytes(e.Size)
		}
		row := fmt.Sprintf("%s%-8s  %-4s", pad(labels[i], width+2), size, FormatAge(e.ModTime, now))
		lines = append(lines, strings.TrimRight(row, " "))
	}
	return lines
}

func label(e Entry) string {
	indent := strings.Repeat("  ", e.Depth)
	if e.More > 0 {
		return fmt.Sprintf("%s- … %d more", indent, e.More)
	}
	name := e.Name()
	if e.Dir {
		name += "/"
	}
	return indent + "- " + name
}

func pad(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// FormatBytes renders a size as 512B, 1.2KB, 3.4MB or 1.0GB (base 1024, one
// decimal place).
func FormatBytes(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%dB", n)
	case n < k*k:
		return fmt.Sprintf("%.1fKB", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1fMB", float64(n)/(k*k))
	}
	return fmt.Sprintf("%.1fGB", float64(n)/(k*k*k))
}

// FormatAge renders how long before now t was: "just now" under a minute
// (and for times in the future), then "Nm ago", "Nh ago", "Nd ago",
// "Nw ago" and "Nmo ago" (30-day months). A zero t gives "".
func FormatAge(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	s := int64(now.Sub(t) / time.Second)
	switch {
	case s < 60:
		return "just now"
	case s < 3600:
		return fmt.Sprintf("%dm ago", s/60)
	case s < 86400:
		return fmt.Sprintf("%dh ago", s/3600)
	}
	days := s / 86400
	switch {
	case days < 7:
		return fmt.Sprintf("%dd ago", days)
	case days < 30:
		return fmt.Sprintf("%dw ago", days/7)
	}
	return fmt.Sprintf("%dmo ago", days/30)
}
