// Package walk is Scout's directory walker: parallel, never following
// symlinks, applying ignore files as git and ripgrep do (.gitignore inside
// git work trees, .ignore everywhere, .rgignore everywhere when asked,
// info/exclude, core.excludesFile, and those of the directories above the
// walk root), the hidden-file rule and fixed directory names to prune,
// and counting every entry it leaves out with the reason. It is the one
// ignore engine of every Scout tool.
package walk

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/par"
	"github.com/scoutkit/scout/internal/pathutil"
)

// Options configure a walk. The zero value skips hidden entries, honours
// ignore files, prunes nothing by name, uses the default number of
// workers and reports entries concurrently in no particular order.
type Options struct {
	// Hidden includes entries whose name starts with ".". ".git" is never
	// included.
	Hidden bool
	// NoIgnore disables every ignore file: .gitignore, .ignore,
	// .rgignore, info/exclude and the excludes file (core.excludesFile).
	NoIgnore bool
	// RgIgnore also honours .rgignore files, ripgrep's own: they apply
	// everywhere, as .ignore files do, and take precedence over .ignore
	// and .gitignore files (the deepest .rgignore line that matches wins,
	// so "!name" there re-includes what the others exclude). false does
	// not read them (git, fd and the ignore crate's defaults do not).
	RgIgnore bool
	// PruneDirs lists directory base names that are never entered nor
	// reported (the standardized Glob's fixed list, or "node_modules"); each pruned
	// directory counts as ReasonIgnored. nil prunes nothing.
	PruneDirs []string
	// Workers is the number of goroutines reading directories (with
	// Sorted, besides the caller's). 0 means 2×par.Openers(): reads block,
	// so more workers than cores hide latency.
	Workers int
	// Sorted calls fn from one goroutine in byte-wise path order (depth
	// first, a directory's subtree right after the directory itself, a
	// sibling "a.go" before the directory "a" as "a.go" < "a/x"), so that
	// the calls to fn, the stats and any limit are deterministic; workers
	// still read directories ahead in parallel. false calls fn
	// concurrently in no particular order.
	Sorted bool
	// StatAhead, with Sorted, has the workers fetch the Info of every
	// reported entry while they list its directory, so that fn, which runs
	// on one goroutine, does not stat entries one after another. Use it
	// when fn calls Entry.Info for most entries. It has no effect without
	// Sorted, where fn runs on the workers anyway.
	StatAhead bool
	// MaxVisited stops the walk once this many entries (directories and
	// files, reported or skipped) have been visited; Stats.Truncated then
	// says so. 0 means no limit.
	MaxVisited int
	// Filter, when not nil, decides which entries that pass the other rules
	// are reported: entries for which it returns false are not passed to
	// fn, but directories are still entered. It is called concurrently
	// unless Sorted. nil reports everything.
	Filter func(rel string, isDir bool) bool
	// Override, when not nil, decides each entry (its FS path) ahead of
	// the hidden and ignore rules, as ripgrep's -g globs do: Include
	// reports it, and enters a directory, even when it is hidden or
	// ignored; Exclude leaves it out, a directory with its contents,
	// without counting it (a filter's choice, not a skip); Undecided
	// leaves it to the rules. ".git" and PruneDirs still apply. It is
	// called concurrently unless Sorted.
	Override func(p string, isDir bool) Decision

	git *gitEnv // where the user's git configuration comes from; nil means the process's
}

// Decision is what Options.Override decides for an entry.
type Decision int8

const (
	Undecided Decision = iota // the hidden and ignore rules decide
	Include                   // reported whatever those rules say
	Exclude                   // left out, uncounted
)

// Entry is one reported entry.
type Entry struct {
	// Path is slash-separated and relative to the FS root, never ".".
	Path string
	// Type holds the type bits: 0 for a regular file, fs.ModeDir,
	// fs.ModeSymlink (never followed), fs.ModeNamedPipe, ...
	Type fs.FileMode
	// Depth is 1 for the children of the walk root.
	Depth int

	list *listing // the directory listing the entry comes from
	idx  int      // the entry's index in list
}

// Info returns the lstat information of the entry (size, mode, mtime). It
// is cached after the first call and safe for concurrent use; during the
// call to fn it costs one fstatat on the OS FS of fsx.OpenDir, afterwards
// one lookup from the root. On an Entry not made by Walk it fails.
func (e Entry) Info() (fs.FileInfo, error) {
	if e.list == nil {
		return nil, &fs.PathError{Op: "lstat", Path: e.Path, Err: fs.ErrInvalid}
	}
	return e.list.info(e.idx, e.Path)
}

// Stat returns the lstat information of the entry, as Info does, for a
// caller that reads it once: it is not cached, and during the call to fn
// on the OS FS of fsx.OpenDir it costs one fstatat and allocates nothing
// (Info allocates a FileInfo, and its listing a cache). Elsewhere, or
// afterwards, it is Info's.
func (e Entry) Stat() (fsx.Stat, error) {
	if l := e.list; l != nil && l.fd != nil {
		if s, ok := l.fd.(fsx.EntryStater); ok {
			st, err := s.StatEntry(l.name(e.idx))
			if !errors.Is(err, fs.ErrClosed) {
				return st, err
			}
		}
	}
	fi, err := e.Info()
	if err != nil {
		return fsx.Stat{}, err
	}
	return fsx.Stat{Size: fi.Size(), ModTime: fi.ModTime(), Mode: fi.Mode()}, nil
}

// OpenRegular opens the entry as a regular file (see fsx.OpenRegularIn),
// into slot unless it is nil; an entry of another type (a symlink, a
// directory, ...) fails with fsx.ErrNotRegular. During the call to fn it
// opens the name relative to the directory's descriptor on the OS FS of
// fsx.OpenDir, without a path lookup from the root; afterwards, or on
// other file systems, it opens Path from the root.
func (e Entry) OpenRegular(slot *fsx.Slot) (fsx.Regular, error) {
	switch {
	case e.list == nil:
		return nil, &fs.PathError{Op: "open", Path: e.Path, Err: fs.ErrInvalid}
	case e.Type != 0:
		return nil, &fs.PathError{Op: "open", Path: e.Path, Err: fsx.ErrNotRegular}
	}
	if fd := e.list.fd; fd != nil {
		f, err := fd.OpenRegular(e.list.name(e.idx), slot)
		if !errors.Is(err, fs.ErrClosed) {
			return f, err
		}
	}
	return fsx.OpenRegularIn(e.list.fsys, e.Path, slot)
}

// Reason says why an entry was left out.
type Reason string

// The reasons an entry is left out. The walker itself uses ReasonIgnored,
// ReasonHidden, ReasonUnreadable and ReasonLimit; consumers record their
// own skips (symlinks, binary files, ...) with the same type.
const (
	ReasonIgnored    Reason = "ignored"    // an ignore file, PruneDirs, or ".git"
	ReasonHidden     Reason = "hidden"     // the name starts with "." and Options.Hidden is false
	ReasonUnreadable Reason = "unreadable" // a directory that could not be listed (it was still reported)
	ReasonSymlink    Reason = "symlink"    // a symlink a consumer did not follow
	ReasonLimit      Reason = "limit"      // listed but not visited because Options.MaxVisited was reached
)

// Stats describe what a walk saw.
type Stats struct {
	// Visited counts the entries seen, directories and files, reported or
	// skipped. The contents of skipped directories are not seen.
	Visited int
	// Skipped counts the entries left out, by reason. It is never nil
	// after Walk returns.
	Skipped map[Reason]int
	// Errors holds up to 10 samples of the failures behind
	// ReasonUnreadable and of ignore files that could not be read.
	Errors []error
	// Truncated is true when the walk stopped at Options.MaxVisited.
	Truncated bool
}

const maxErrorSamples = 10

// Walk walks the directory root (a valid fs path, "." for the FS root) and
// calls fn for every entry below it that no rule leaves out; root itself
// is not reported. Symlinks are reported, never followed, so loops are
// impossible (a symlink given as root is followed). A ".git" entry is
// never reported nor entered, and neither is a root at or below one
// (".git", ".git/refs"), also through a symlink (LeadsToGit): Walk then
// reports nothing and counts the root as ReasonIgnored.
//
// The ignore rules are git's and ripgrep's. .gitignore files apply inside
// a git work tree, from its top (the directory holding ".git") down;
// .ignore files apply everywhere and take precedence over .gitignore
// files; with Options.RgIgnore, .rgignore files apply everywhere too and
// take precedence over both; the work tree's info/exclude and excludes
// file apply after them.
// The excludes file is core.excludesFile of the repository's config, else
// of the user's (system and global git configuration), else
// ~/.config/git/ignore. A ".git" file ("gitdir: PATH", a linked work tree
// or a submodule) leads to the git directory, and its "commondir" to the
// one that holds info/exclude and the config. The rule files of the
// directories above root apply too: those inside the FS and, when fsys is
// an OS directory (fsx.OSDir), those above the FS root: the .ignore (and
// read .rgignore) files up to "/" and, when a directory above holds
// ".git", that work tree's .gitignore files down to the FS root and its
// excludes. Above the FS root only those files (and the git metadata that
// locates them) are read; an FS that is no OS directory has no
// directories above its root.
// root itself is walked even when a rule covers it (as ripgrep does; git
// would list nothing). Matching is case-sensitive (core.ignoreCase is not
// read), symlinked .gitignore, .ignore and .rgignore files are not read
// (as git ≥ 2.32), an ignore file over 100 MiB is not read (as git), and
// the include directives of git config files are not followed.
//
// fn is called concurrently from several goroutines unless Options.Sorted.
// A directory is reported before its contents. fn returning fs.SkipDir on
// a directory skips it; on a file it skips the rest of its directory.
// fs.SkipAll stops the walk without error; any other error stops it and
// is returned. An unreadable directory below root is counted, not fatal.
//
// Walk returns an *errs.Error for an invalid or missing root, one that
// is not a directory or cannot be listed, and ctx.Err() when ctx ends
// (the walk stops within a directory entry or two).
func Walk(ctx context.Context, fsys fs.FS, root string, opts Options, fn func(Entry) error) (Stats, error) {
	if !fs.ValidPath(root) {
		return Stats{}, errs.New(errs.InvalidParam, "invalid walk root %q: use a slash-separated path relative to the root, without \"..\"", root)
	}
	fi, err := pathutil.Stat(fsys, root)
	if err != nil {
		return Stats{}, errs.Wrap(errs.CodeOf(err), err, "cannot walk %q: %v", root, err)
	}
	if !fi.IsDir() {
		return Stats{}, errs.New(errs.InvalidParam, "cannot walk %q: not a directory", root)
	}
	if err := ctx.Err(); err != nil {
		return Stats{}, err
	}
	if _, ok := LeadsToGit(fsys, root); ok {
		return Stats{Skipped: map[Reason]int{ReasonIgnored: 1}}, nil
	}
	w := newWalker(fsys, opts, fn)
	rootRules := w.ancestorRules(root)
	lfi, err := fsx.Lstat(fsys, root)
	rootIsLink := err == nil && lfi.Mode()&fs.ModeSymlink != 0
	stop := context.AfterFunc(ctx, func() { w.halt(ctx.Err()) })
	defer stop()
	if opts.Sorted {
		w.orderedWalk(job{dir: root, rules: rootRules, viaLink: rootIsLink})
	} else {
		w.parallel(job{dir: root, rules: rootRules, viaLink: rootIsLink})
	}
	return w.result()
}

// InGit reports whether the slash path p is a ".git" directory or lies
// below one: a walk never lists it.
func InGit(p string) bool {
	for _, s := range strings.Split(p, "/") {
		if s == ".git" {
			return true
		}
	}
	return false
}

// LeadsToGit returns the path at or below a ".git" directory that the FS
// path p is, or leads to through symlinks (a link "g" to ".git" leads to
// ".git"), and whether there is one: p itself when InGit(p); "", false
// when p, with its symlinks followed, lies in no .git (or cannot be
// followed: CheckInside's errors are the caller's to report).
func LeadsToGit(fsys fs.FS, p string) (string, bool) {
	if InGit(p) {
		return p, true
	}
	real, err := pathutil.RealPath(fsys, p)
	if err != nil || real == p || !InGit(real) {
		return "", false
	}
	return real, true
}

// NamesGit reports whether the slash glob or path p has a segment (or a
// brace alternative) that is ".git": it names what a walk never lists.
func NamesGit(p string) bool {
	for _, s := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '{' || r == '}' || r == ',' }) {
		if s == ".git" {
			return true
		}
	}
	return false
}

// job is a directory to read.
type job struct {
	dir     string    // FS path
	depth   int       // depth of the directory; 0 for the walk root
	rules   *dirRules // rules in force in the parent directory
	viaLink bool      // the walk root is a symlink: list it by following it
}

// walker is the state of one walk.
type walker struct {
	fsys   fs.FS
	opener fsx.DirOpener // nil when fsys cannot list by descriptor
	opts   Options
	fn     func(Entry) error
	prune  map[string]bool
	loader *rulesLoader

	visited atomic.Int64 // used when MaxVisited > 0
	stop    atomic.Bool
	idle    atomic.Int32 // workers waiting for a directory

	mu        sync.Mutex
	cond      *sync.Cond
	stack     []job // directories shared between workers
	active    int   // workers not waiting in pop
	err       error
	stats     []*stats
	errors    []error
	truncated bool
	ord       ordered // the state of an ordered walk
}

// stats are one worker's counts, merged at the end.
type stats struct {
	visited int
	skipped [6]int // indexed like reasons
}

// reasons are the skip reasons by verdict; "" is an entry Options.Override
// excludes, which is not counted.
var reasons = [6]Reason{ReasonIgnored, ReasonHidden, ReasonUnreadable, ReasonSymlink, ReasonLimit, ""}

const (
	rIgnored = iota
	rHidden
	rUnreadable
	_ // ReasonSymlink: consumers only
	rLimit
	rOverridden
)

func newWalker(fsys fs.FS, opts Options, fn func(Entry) error) *walker {
	w := &walker{fsys: fsys, opts: opts, fn: fn}
	w.cond = sync.NewCond(&w.mu)
	w.opener, _ = fsys.(fsx.DirOpener)
	if len(opts.PruneDirs) > 0 {
		w.prune = make(map[string]bool, len(opts.PruneDirs))
		for _, d := range opts.PruneDirs {
			w.prune[d] = true
		}
	}
	env := opts.git
	if env == nil {
		env = osEnv
	}
	w.loader = newRulesLoader(fsys, env, opts.RgIgnore, w.noteError)
	return w
}

func (w *walker) newStats() *stats {
	s := &stats{}
	w.mu.Lock()
	w.stats = append(w.stats, s)
	w.mu.Unlock()
	return s
}

func (w *walker) noteError(err error) {
	w.mu.Lock()
	if len(w.errors) < maxErrorSamples {
		w.errors = append(w.errors, err)
	}
	w.mu.Unlock()
}

// halt stops the walk with err (nil for fs.SkipAll or the visit limit);
// the first error wins.
func (w *walker) halt(err error) {
	w.mu.Lock()
	if !w.stop.Load() {
		w.err = err
		w.stop.Store(true)
	}
	w.cond.Broadcast()
	w.mu.Unlock()
}

func (w *walker) result() (Stats, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := Stats{Skipped: map[Reason]int{}, Errors: w.errors, Truncated: w.truncated}
	for _, s := range w.stats {
		st.Visited += s.visited
		for i, n := range s.skipped {
			if n > 0 && reasons[i] != "" {
				st.Skipped[reasons[i]] += n
			}
		}
	}
	return st, w.err
}

// ancestorRules returns the rules in force in root's parent, from the rule
// files of the directories above the FS root (see rulesLoader.outer) and
// those of the directories above root within the FS.
func (w *walker) ancestorRules(root string) *dirRules {
	if w.opts.NoIgnore {
		return nil
	}
	rules := w.loader.outer()
	if root == "." {
		return rules
	}
	dirs := []string{"."}
	if parent := path.Dir(root); parent != "." {
		for i := range parent {
			if parent[i] == '/' {
				dirs = append(dirs, parent[:i])
			}
		}
		dirs = append(dirs, parent)
	}
	for _, dir := range dirs {
		var f dirFiles
		for _, name := range w.loader.names {
			if fi, err := fsx.Lstat(w.fsys, path.Join(dir, name)); err == nil {
				f.note(name, fi.Mode().Type())
			}
		}
		rules = w.loader.child(rules, dir, f)
	}
	return rules
}

// parallel runs the workers until no directory is left. Each worker keeps
// the subdirectories it finds on its own stack, without locking, and hands
// half of them to the shared stack when another worker is idle.
func (w *walker) parallel(root job) {
	n := w.opts.Workers
	if n <= 0 {
		n = 2 * par.Openers()
	}
	w.stack = append(w.stack, root)
	w.active = n
	var wg sync.WaitGroup
	for range n {
		st := w.newStats()
		wg.Go(func() {
			var local []job
			enter := func(sub job) { local = append(local, sub) }
			for {
				var j job
				if len(local) > 0 {
					j = local[len(local)-1]
					local = local[:len(local)-1]
				} else if j2, ok := w.pop(); ok {
					j = j2
				} else {
					return
				}
				w.readDir(j, st, enter)
				if len(local) > 1 && w.idle.Load() > 0 {
					half := len(local) / 2
					w.share(local[:half])
					local = append(local[:0], local[half:]...)
				}
			}
		})
	}
	wg.Wait()
}

// pop takes a directory off the shared stack, waiting while other workers
// are busy and may share some; ok is false when the walk is over.
func (w *walker) pop() (j job, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.active--
	for len(w.stack) == 0 && w.active > 0 && !w.stop.Load() {
		w.idle.Add(1)
		w.cond.Wait()
		w.idle.Add(-1)
	}
	if len(w.stack) == 0 || w.stop.Load() {
		w.cond.Broadcast() // the walk is over: wake the others to return
		return job{}, false
	}
	j = w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	w.active++
	return j, true
}

// share moves directories to the shared stack and wakes one idle worker
// per directory (waking them all would have most go back to sleep).
func (w *walker) share(jobs []job) {
	w.mu.Lock()
	w.stack = append(w.stack, jobs...)
	for range min(len(jobs), int(w.idle.Load())) {
		w.cond.Signal()
	}
	w.mu.Unlock()
}

// listing is one directory's entries.
type listing struct {
	fsys   fs.FS
	paths  string // the entries' FS paths, one after another
	ents   []dirent
	prefix int32         // where a name starts in its path: len(dir)+1; 0 in the FS root
	fd     fsx.DirFD     // open while the entries are reported, for Lstat; nil otherwise
	infos  []fs.DirEntry // from fs.ReadDir when there is no descriptor
	mu     sync.Mutex    // guards cache
	cache  []cachedInfo  // Info results, allocated on first use
}

// dirent is a directory entry: where its FS path, which ends with its base
// name, lies in the listing's paths, and its type bits. It holds no
// pointer, so that a listing's entries are an allocation the collector
// neither marks up nor scans.
type dirent struct {
	start, end int32
	typ        fs.FileMode
}

// name returns the base name of entry i.
func (l *listing) name(i int) string { return l.nameOf(&l.ents[i]) }

func (l *listing) nameOf(e *dirent) string { return l.paths[e.start+l.prefix : e.end] }

type cachedInfo struct {
	fi  fs.FileInfo
	err error
	ok  bool
}

// gather is where list gathers a directory's entries: their names one
// after another, and where each ends. Pooled, so that a listing allocates
// only its exact copy: the entries, and one string for all their paths
// (instead of a string per name and another per path).
type gather struct {
	names []byte
	ends  []entryEnd
	add   func([]byte, fs.FileMode) // g.note, made once (a method value passed to an interface allocates)
}

type entryEnd struct {
	end int32 // of the name in names
	typ fs.FileMode
}

var gathers = sync.Pool{New: func() any {
	g := new(gather)
	g.add = g.note
	return g
}}

// note gathers the entry name of type typ.
func (g *gather) note(name []byte, typ fs.FileMode) { gatherEntry(g, name, typ) }

func gatherEntry[S string | []byte](g *gather, name S, typ fs.FileMode) {
	g.names = append(g.names, name...)
	g.ends = append(g.ends, entryEnd{int32(len(g.names)), typ})
}

// fill sets l's entries to those gathered, of the directory dir.
func (g *gather) fill(l *listing, dir string) {
	prefix := int32(len(dir) + 1)
	if dir == "." {
		prefix = 0
	}
	var paths strings.Builder
	paths.Grow(len(g.names) + int(prefix)*len(g.ends))
	ents := make([]dirent, len(g.ends))
	start, at := int32(0), int32(0)
	for i, e := range g.ends {
		if prefix > 0 {
			paths.WriteString(dir)
			paths.WriteByte('/')
		}
		paths.Write(g.names[start:e.end])
		n := prefix + e.end - start
		ents[i] = dirent{start: at, end: at + n, typ: e.typ}
		start, at = e.end, at+n
	}
	l.paths, l.ents, l.prefix = paths.String(), ents, prefix
}

// list reads the directory of j.
func (w *walker) list(j job) (*listing, error) {
	l := &listing{fsys: w.fsys}
	g := gathers.Get().(*gather)
	g.names, g.ends = g.names[:0], g.ends[:0]
	defer gathers.Put(g)
	if w.opener != nil && !j.viaLink {
		fd, err := w.opener.OpenDirFD(j.dir)
		if err != nil {
			return nil, err
		}
		if err := fd.ReadNames(g.add); err != nil {
			fd.Close()
			return nil, err
		}
		g.fill(l, j.dir)
		l.fd = fd
		return l, nil
	}
	des, err := fs.ReadDir(w.fsys, j.dir)
	if err != nil {
		return nil, err
	}
	for _, de := range des {
		gatherEntry(g, de.Name(), de.Type())
	}
	g.fill(l, j.dir)
	l.infos = des
	return l, nil
}

// info returns the cached lstat information of entry i whose FS path is p.
func (l *listing) info(i int, p string) (fs.FileInfo, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cache == nil {
		l.cache = make([]cachedInfo, len(l.ents))
		// Write the fresh memory before reading it: a first read maps the
		// shared zero page, and the write after it then costs a copy and
		// a TLB shootdown on every processor running the walk.
		clear(l.cache)
	}
	c := &l.cache[i]
	if !c.ok {
		switch {
		case l.infos != nil:
			c.fi, c.err = l.infos[i].Info()
		case l.fd != nil:
			c.fi, c.err = l.fd.Lstat(l.name(i))
			if errors.Is(c.err, fs.ErrClosed) {
				c.fi, c.err = fsx.Lstat(l.fsys, p)
			}
		}
		c.ok = true
	}
	return c.fi, c.err
}

// sortByPath orders a listing's entries as their paths sort byte-wise: by
// name, a directory's name compared as if followed by '/' (the paths of
// its subtree), so that "a.go" and "a-b" come before the directory "a". A
// depth-first walk of listings so sorted reports in byte-wise path order.
func (l *listing) sortByPath() {
	// The names of a directory differ: the infos, in the entries' order,
	// sort as the entries.
	if l.infos != nil {
		slices.SortFunc(l.infos, func(a, b fs.DirEntry) int { return pathOrder(a.Name(), a.IsDir(), b.Name(), b.IsDir()) })
	}
	slices.SortFunc(l.ents, func(a, b dirent) int { return pathOrder(l.nameOf(&a), a.typ.IsDir(), l.nameOf(&b), b.typ.IsDir()) })
}

// pathOrder compares the sibling names a and b as the paths of what they
// hold: a directory's name followed by '/'.
func pathOrder(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 || len(a) == len(b) {
		return c
	}
	if len(a) < len(b) { // a is a prefix of b
		if aDir {
			return cmp.Compare('/', b[n])
		}
		return -1
	}
	if bDir {
		return cmp.Compare(a[n], '/')
	}
	return 1
}

// prepare lists the directory of j (in path order when Options.Sorted)
// and returns the listing with the rules in force inside the directory.
func (w *walker) prepare(j job) (*listing, *dirRules, error) {
	l, err := w.list(j)
	if err != nil {
		return nil, nil, err
	}
	rules := j.rules
	if !w.opts.NoIgnore {
		var f dirFiles
		for i := range l.ents {
			if e := &l.ents[i]; l.paths[e.start+l.prefix] == '.' {
				f.note(l.nameOf(e), e.typ)
			}
		}
		rules = w.loader.child(rules, j.dir, f)
	}
	if w.opts.Sorted {
		l.sortByPath()
	}
	return l, rules, nil
}

// report is the verdict of an entry that no rule leaves out.
const report = -1

// verdict returns the index in reasons of the rule that leaves out the
// entry name at path p, or report.
func (w *walker) verdict(rules *dirRules, name, p string, isDir bool) int {
	if w.opts.Override != nil && name != ".git" {
		switch w.opts.Override(p, isDir) {
		case Include:
			if isDir && w.prune[name] {
				return rIgnored
			}
			return report
		case Exclude:
			return rOverridden
		}
	}
	switch {
	case name == ".git":
		return rIgnored
	case name[0] == '.' && !w.opts.Hidden:
		return rHidden
	case isDir && w.prune[name]:
		return rIgnored
	case rules != nil && rules.ignored(p, name, isDir):
		return rIgnored
	}
	return report
}

// childPath returns the FS path of the entry name of directory dir.
func childPath(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// overLimit counts a visit against Options.MaxVisited; when the limit is
// reached it counts the n entries left in the directory, marks the walk
// truncated and stops it.
func (w *walker) overLimit(st *stats, n int) bool {
	limit := w.opts.MaxVisited
	if limit <= 0 || w.visited.Add(1) <= int64(limit) {
		return false
	}
	st.skipped[rLimit] += n
	w.mu.Lock()
	w.truncated = true
	w.mu.Unlock()
	w.halt(nil)
	return true
}

// call passes an entry to fn (if the filter lets it) and interprets the
// result: descend says whether to enter a directory, next whether to go
// on with the rest of its parent.
func (w *walker) call(e Entry) (descend, next bool) {
	isDir := e.Type.IsDir()
	if w.opts.Filter != nil && !w.opts.Filter(e.Path, isDir) {
		return isDir, true
	}
	err := w.fn(e)
	switch {
	case err == nil:
		return isDir, true
	case errors.Is(err, fs.SkipDir) && isDir:
		return false, true
	case errors.Is(err, fs.SkipDir):
		return false, false
	case errors.Is(err, fs.SkipAll):
		w.halt(nil)
	default:
		w.halt(err)
	}
	return false, false
}

// readDir lists the directory of j, applies the rules to its entries,
// reports the survivors and passes each subdirectory to enter.
func (w *walker) readDir(j job, st *stats, enter func(job)) {
	if w.stop.Load() {
		return
	}
	l, rules, err := w.prepare(j)
	if err != nil {
		w.unreadable(j, st, err)
		return
	}
	if l.fd != nil {
		defer l.fd.Close()
	}
	depth := j.depth + 1
	for i := range l.ents {
		if w.stop.Load() || w.overLimit(st, len(l.ents)-i) {
			return
		}
		st.visited++
		e := &l.ents[i]
		p := l.paths[e.start:e.end]
		if v := w.verdict(rules, l.nameOf(e), p, e.typ.IsDir()); v != report {
			st.skipped[v]++
			continue
		}
		descend, next := w.call(Entry{Path: p, Type: e.typ, Depth: depth, list: l, idx: i})
		if descend {
			enter(job{dir: p, depth: depth, rules: rules})
		}
		if !next {
			return
		}
	}
}

// unreadable records a directory that cannot be listed; for the walk root
// it stops the walk with an error.
func (w *walker) unreadable(j job, st *stats, err error) {
	if j.depth == 0 {
		w.halt(errs.Wrap(errs.CodeOf(err), err, "Cannot list '%s': %v", errs.Echo(j.dir), err))
		return
	}
	st.skipped[rUnreadable]++
	w.noteError(err)
}
