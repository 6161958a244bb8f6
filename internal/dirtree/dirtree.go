// Package dirtree builds and renders the directory tree that read shows for
// a directory, as the pi read tool does: two levels deep, hidden entries
// shown, each directory's children newest first, at most PerDir children
// per directory below the root (the 11 newest, a "… N more" row, then the
// oldest), sizes and relative ages in aligned columns. .git, the
// directories named by the caller and .DS_Store files are left out and
// recorded.
package dirtree

import (
	"container/heap"
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/fsx"
)

// The tree's shape.
const (
	MaxDepth = 2  // levels listed below the directory
	PerDir   = 12 // children shown per directory below the root
)

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
	// Entries are the rows in display order: all of them, or with Build's
	// rows > 0 the first rows only.
	Entries []Entry
	// Rows counts every row of the tree, those left out of Entries too.
	Rows int
	// Width is the widest label (indent, "- " and name) of every row, in
	// characters; Render pads the labels to it.
	Width int
	// Bytes is the size of the whole tree's text: Render's lines of every
	// row joined by newlines.
	Bytes int
	// Omitted counts the entries replaced by "… N more" rows.
	Omitted int
	// Pruned lists the left-out directories (with a trailing '/') and
	// .DS_Store files, as paths relative to the listed directory, sorted.
	Pruned []string
	// Unreadable lists subdirectories whose children could not be listed,
	// with why, in display order.
	Unreadable []Failure
}

// Failure is a subdirectory whose children could not be listed: its path
// relative to the listed directory and the listing's error.
type Failure struct {
	Path string
	Err  error
}

// Build lists dir in fsys, as of now (for the rows' ages), leaving out
// the subdirectories named in prune and .git, which is never listed.
// skip and rows bound the rows kept in Entries (a reader shows a window of
// lines): the rows after the first skip, rows of them (0: to the end). The
// memory then grows with the rows kept and, for the rows skipped, with the
// directory's own entries among them (some 80 bytes and a name each: the
// newest skip+rows are kept to order them), not with the rows before
// them; the entries are streamed on an OS file system. Rows, Width, Bytes, Omitted,
// Pruned and Unreadable describe the whole tree either way. Build fails
// only when dir itself cannot be read or ctx is done. Subdirectories are
// listed concurrently (the work is system calls); the result does not
// depend on the order they finish in. A subdirectory whose rows were not
// kept as it was listed (past maxKeptSub) and that the window shows is
// listed again.
func Build(ctx context.Context, fsys fs.FS, dir string, prune []string, skip, rows int, now time.Time) (*Tree, error) {
	b := builder{now: now, keep: skip + rows, sub: map[*node][]Entry{}, failed: map[*node]error{}}
	if rows <= 0 {
		b.keep = 0
	}
	skipDirs := map[string]bool{".git": true}
	for _, name := range prune {
		skipDirs[name] = true
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	pruned, err := scan(ctx, fsys, dir, "", skipDirs, func(e Entry) {
		e.Depth = 1
		n := b.add(e)
		if !e.Dir || ctx.Err() != nil {
			return
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			sub := list(ctx, fsys, path.Join(dir, e.Path), e.Path, skipDirs, PerDir)
			<-sem
			b.done(n, sub)
		}()
	})
	wg.Wait()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	relist := func(n *node) []Entry {
		sub := list(ctx, fsys, path.Join(dir, n.path), n.path, skipDirs, PerDir)
		if sub.err != nil {
			return nil
		}
		rows, _ := capped(sub)
		return rows
	}
	t := b.tree(pruned, max(skip, 0), rows, relist)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return t, nil
}

// workers bounds the subdirectories listed at once.
const workers = 8

// batch is how often, in entries, a long listing checks ctx.
const batch = 1024

// maxKeptSub bounds the subdirectory rows Build keeps as the
// subdirectories are listed, before it knows which rows it shows.
var maxKeptSub = 1 << 16

// node is one of the listed directory's own entries, kept small: a tree
// read past many rows holds one for each.
type node struct {
	path    string
	mod     time.Time
	size    int64
	sub     int32 // the rows below it, once its subdirectory is listed
	dir     bool
	symlink bool
	evicted bool // no longer among the nodes kept
}

func (n *node) entry() Entry {
	return Entry{Path: n.path, Depth: 1, Dir: n.dir, Symlink: n.symlink, Size: n.size, ModTime: n.mod}
}

// builder gathers a tree from entries and subdirectory listings that come
// in any order: it keeps the nodes of the newest keep entries (a heap;
// each is at least one row, so they hold the rows shown and those before
// them), the rows below the first subdirectories listed (up to maxKeptSub
// rows), and the sums over every row.
type builder struct {
	mu      sync.Mutex
	now     time.Time
	keep    int // the nodes kept; 0: all
	kept    nodeHeap
	sub     map[*node][]Entry // the rows below a kept node, when kept
	keptSub int               // the rows in sub
	failed  map[*node]error   // why a node's subdirectory could not be listed
	t       Tree
	fixed   int // the rows' lengths but their labels' padding
	padded  int // the rows padded to the labels' width
}

// row counts e, a row of the tree.
func (b *builder) row(e Entry) {
	b.t.Rows++
	b.t.Width = max(b.t.Width, labelWidth(e))
	fixed, padded := measure(e, b.now)
	b.fixed += fixed
	if padded {
		b.padded++
	}
}

// add records e, one of the directory's own entries, and returns its node.
func (b *builder) add(e Entry) *node {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.row(e)
	n := &node{path: e.Path, mod: e.ModTime, size: e.Size, dir: e.Dir, symlink: e.Symlink}
	heap.Push(&b.kept, n)
	if b.keep > 0 && len(b.kept) > b.keep {
		old := heap.Pop(&b.kept).(*node)
		old.evicted = true
		b.keptSub -= len(b.sub[old])
		delete(b.sub, old)
	}
	return n
}

func (b *builder) done(n *node, sub listing) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if sub.err != nil {
		b.failed[n] = sub.err
		return
	}
	b.t.Pruned = append(b.t.Pruned, sub.pruned...)
	rows, more := capped(sub)
	b.t.Omitted += more
	for j := range rows {
		rows[j].Depth = 2
		b.row(rows[j])
	}
	n.sub = int32(len(rows))
	if !n.evicted && len(rows) > 0 && b.keptSub+len(rows) <= maxKeptSub {
		b.sub[n] = rows
		b.keptSub += len(rows)
	}
}

// tree returns the tree built, the rows rows after the first skip (0:
// to the end) in Entries, numbered from line 2 (the first row's); relist
// lists again the subdirectory of a node shown whose rows were not kept.
func (b *builder) tree(pruned []string, skip, rows int, relist func(*node) []Entry) *Tree {
	t := &b.t
	t.Bytes = len(empty)
	if t.Rows > 0 {
		t.Bytes = len(".") + t.Rows + b.fixed + b.padded*(t.Width+2) // a newline before each row
	}
	t.Pruned = append(t.Pruned, pruned...)
	sort.Strings(t.Pruned)
	failed := make([]*node, 0, len(b.failed))
	for n := range b.failed {
		failed = append(failed, n)
	}
	sort.Slice(failed, func(i, j int) bool { return failed[i].newer(failed[j]) })
	for _, n := range failed {
		t.Unreadable = append(t.Unreadable, Failure{Path: n.path, Err: b.failed[n]})
	}
	kept := []*node(b.kept)
	sort.Slice(kept, func(i, j int) bool { return kept[i].newer(kept[j]) })
	end := skip + rows // the row after the last kept, when rows > 0
	row := 0           // the rows before n
	for _, n := range kept {
		if rows > 0 && row >= end {
			break
		}
		if next := row + 1 + int(n.sub); next <= skip {
			row = next
			continue
		}
		if row >= skip {
			t.Entries = append(t.Entries, n.entry())
		}
		row++
		sub, ok := b.sub[n]
		if !ok && n.sub > 0 {
			sub = relist(n)
		}
		for _, e := range sub {
			if row >= skip && (rows == 0 || row < end) {
				e.Depth = 2
				t.Entries = append(t.Entries, e)
			}
			row++
		}
	}
	for i := range t.Entries {
		t.Entries[i].Line = skip + i + 2
	}
	return t
}

// nodeHeap holds the kept nodes with the oldest (last shown) on top.
type nodeHeap []*node

func (h nodeHeap) Len() int           { return len(h) }
func (h nodeHeap) Less(i, j int) bool { return h[j].newer(h[i]) }
func (h nodeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)        { *h = append(*h, x.(*node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return n
}

// newer reports whether n is shown before m, as newer orders entries.
func (n *node) newer(m *node) bool {
	if !n.mod.Equal(m.mod) {
		return n.mod.After(m.mod)
	}
	return nameLess(n.path, m.path)
}

// listing is one directory's children.
type listing struct {
	entries []Entry  // sorted newest first; with a keep, only those kept
	total   int      // the children listed, kept or not
	pruned  []string // left-out names, as paths relative to the root
	err     error
}

// list returns the entries of dir sorted newest first, leaving out and
// recording the directories named in skip and .DS_Store files. prefix is dir's path relative to the listed root.
// It keeps only the keep-1 newest entries and the oldest, what capped
// shows of a directory of more than keep, so that the directory's size
// does not bound the memory.
func list(ctx context.Context, fsys fs.FS, dir, prefix string, skip map[string]bool, keep int) listing {
	var l listing
	pruned, err := scan(ctx, fsys, dir, prefix, skip, func(e Entry) {
		l.total++
		l.entries = append(l.entries, e)
		if len(l.entries) >= 2*keep {
			l.entries = trim(l.entries, keep)
		}
	})
	if err != nil {
		return listing{err: err}
	}
	l.pruned = pruned
	l.entries = trim(l.entries, keep)
	return l
}

// scan calls fn with each child of dir, in the order the file system
// gives them, and returns the names it leaves out (the directories named in
// skip and .DS_Store files) as paths relative to the root. prefix is dir's path
// relative to the listed root. On a file system that offers it
// (fsx.DirOpener), the directory is read as a stream; it stops early when
// ctx is done, and returns ctx's error.
func scan(ctx context.Context, fsys fs.FS, dir, prefix string, skip map[string]bool, fn func(Entry)) ([]string, error) {
	var pruned []string
	seen := 0
	add := func(name string, typ fs.FileMode, info func() (fs.FileInfo, error)) {
		rel := path.Join(prefix, name)
		isDir := typ&fs.ModeDir != 0
		if isDir && skip[name] {
			pruned = append(pruned, rel+"/")
			return
		}
		if !isDir && name == ".DS_Store" {
			pruned = append(pruned, rel)
			return
		}
		e := Entry{Path: rel, Dir: isDir, Symlink: typ&fs.ModeSymlink != 0}
		if info, err := info(); err == nil {
			e.ModTime = info.ModTime().UTC()
			if !e.Dir {
				e.Size = info.Size()
			}
		}
		fn(e)
	}
	if o, ok := fsys.(fsx.DirOpener); ok {
		d, err := o.OpenDirFD(dir)
		if err == nil {
			defer d.Close()
			err = d.ReadEntries(func(name string, typ fs.FileMode) {
				if seen++; seen%batch == 0 && ctx.Err() != nil {
					return
				}
				add(name, typ, func() (fs.FileInfo, error) { return d.Lstat(name) })
			})
			if err == nil {
				err = ctx.Err()
			}
			return pruned, err
		}
		// OpenDirFD does not follow a final symlink: the listed directory
		// named through a link (entries below it never are, links are not
		// entered) is listed by fs.ReadDir, which follows it as far as
		// the FS lets it.
		if info, lerr := fsx.Lstat(fsys, dir); lerr != nil || info.Mode()&fs.ModeSymlink == 0 {
			return nil, err
		}
	}
	des, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	for _, de := range des {
		add(de.Name(), de.Type(), de.Info)
	}
	return pruned, ctx.Err()
}

// newer reports whether a is shown before b: newest first, then by name.
func newer(a, b Entry) bool {
	if !a.ModTime.Equal(b.ModTime) {
		return a.ModTime.After(b.ModTime)
	}
	return nameLess(a.Name(), b.Name())
}

// trim sorts es newest first, then by name, and keeps its keep-1 first
// entries and its last.
func trim(es []Entry, keep int) []Entry {
	sort.SliceStable(es, func(i, j int) bool { return newer(es[i], es[j]) })
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

// capped returns the rows a subdirectory shows: all its entries, or of more
// than PerDir the PerDir-1 newest, a "… more" row and the oldest; more is
// the count that row stands for.
func capped(l listing) (rows []Entry, more int) {
	es := l.entries
	if l.total <= PerDir {
		return es, 0
	}
	more = l.total - PerDir
	out := append([]Entry(nil), es[:PerDir-1]...)
	out = append(out, Entry{More: more})
	return append(out, es[len(es)-1]), more
}

// Render returns the lines of the tree's rows in Entries: "." then one
// line per entry, the label ("  "×depth + "- " + name as fname.Quote
// shows it, "/" after directories) padded to the widest label plus 2, the
// size padded to 8, two spaces and the age, trailing blanks removed; "."
// only when Entries start past line 2, so that the first line is the
// first entry's. Ages are relative to now, which is Build's. A tree
// without rows renders as "(empty directory)", one whose Entries are
// empty (a window past its end) as ".".
func Render(t *Tree, now time.Time) []string {
	if t.Rows == 0 && len(t.Entries) == 0 {
		return []string{empty}
	}
	width := t.Width
	for _, e := range t.Entries {
		width = max(width, labelWidth(e))
	}
	lines := make([]string, 0, len(t.Entries)+1)
	if len(t.Entries) == 0 || t.Entries[0].Line <= 2 {
		lines = append(lines, ".")
	}
	for _, e := range t.Entries {
		l, tl := label(e), tail(e, now)
		if tl == "" {
			lines = append(lines, strings.TrimRight(l, " "))
			continue
		}
		lines = append(lines, pad(l, width+2)+tl)
	}
	return lines
}

// empty is the text of an empty directory.
const empty = "(empty directory)"

// tail returns what follows a row's padded label: the size padded to 8,
// two spaces and the age, trailing blanks removed; "" for a "… more" row.
func tail(e Entry, now time.Time) string {
	if e.More > 0 {
		return ""
	}
	size := ""
	if !e.Dir {
		size = FormatBytes(e.Size)
	}
	return strings.TrimRight(fmt.Sprintf("%-8s  %-4s", size, FormatAge(e.ModTime, now)), " ")
}

// measure returns the length in bytes of e's rendered row: fixed, plus
// the labels' width + 2 when padded.
func measure(e Entry, now time.Time) (fixed int, padded bool) {
	l, tl := label(e), tail(e, now)
	if tl == "" {
		return len(strings.TrimRight(l, " ")), false
	}
	return len(l) - utf8.RuneCountInString(l) + len(tl), true
}

// labelWidth is the width of e's label in characters.
func labelWidth(e Entry) int { return utf8.RuneCountInString(label(e)) }

func label(e Entry) string {
	indent := strings.Repeat("  ", e.Depth)
	if e.More > 0 {
		return fmt.Sprintf("%s- … %d more", indent, e.More)
	}
	name := fname.Quote(e.Name())
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
