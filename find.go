package scout

import (
	"container/heap"
	"context"
	"errors"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/search"
	"github.com/scoutkit/scout/internal/walk"
)

// Finder discovers paths by glob. Its zero value finds in the current
// directory; it is safe for concurrent use and calls never modify it.
type Finder struct {
	Workspace
	// Operations routes discovery to the host (a remote workspace, an index)
	// instead of walking FS. nil means walk FS.
	Operations FindOperations
	// Resolvers resolve internal URLs given in FindRequest.Patterns, by
	// scheme, as Searcher.Resolvers do: a URL stands for its backing file;
	// one without a backing file, or with glob characters, is an error.
	// nil means only the built-in omp:// (Scout's own documentation).
	Resolvers map[string]Resolver
}

// FindOperations is a host's own discovery backend (pi find's custom
// branch). Paths are slash paths relative to the root.
type FindOperations interface {
	// Exists reports whether the path exists.
	Exists(ctx context.Context, path string) (bool, error)
	// Glob returns the paths under dir that match pattern, relative to dir,
	// leaving out what opts.Ignore matches, at most opts.Limit of them.
	Glob(ctx context.Context, pattern, dir string, opts GlobOptions) ([]string, error)
}

// FindStater is an optional FindOperations ability: with it, an input that
// names a file is answered without a glob.
type FindStater interface {
	// Stat returns the file information of path (slash-separated,
	// relative to the root). When it fails for a listed path, that entry
	// is returned without its kind, size and time.
	Stat(ctx context.Context, path string) (fs.FileInfo, error)
}

// GlobOptions are passed to FindOperations.Glob.
type GlobOptions struct {
	Ignore []string // globs of paths to leave out, e.g. "**/node_modules/**"
	Limit  int      // the most paths wanted; 0 means no limit
}

// EntryType selects what Find returns.
type EntryType int

// The entry types.
const (
	FilesAndDirs EntryType = iota // files, directories and other entries
	FilesOnly                     // regular files, other non-directories and symlinks to them
	DirsOnly                      // directories and symlinks to directories (not followed)
)

// FindOrder is the order of Find's result.
type FindOrder int

// The orders.
const (
	NewestFirst FindOrder = iota // modification time, newest first, then path
	ByPath                       // byte-wise path order
	// TreeOrder is the order of a top-down walk that sorts each
	// directory's names (Python's os.walk with sorted lists): a
	// directory's own entries, by name, before anything inside its
	// subdirectories, which follow by name.
	TreeOrder
)

// FindRequest is one discovery call.
type FindRequest struct {
	// Patterns are globs, directories or files, relative to the root (or
	// absolute inside Workspace.Root). A directory means every entry below
	// it; a file means itself. A glob's first segment without a glob
	// character is its base directory: "src/*.go" lists src's own .go files,
	// "src/**/*.go" all of them below src. Several patterns are searched
	// together as one union and entries whose base does not exist are
	// reported in FindResult.MissingPaths (all missing is an error).
	// Empty means the whole tree.
	Patterns []string
	// Base, when set, is the directory Patterns are relative to, as in
	// glob tools with a fixed search root: the walk starts at Base and
	// every pattern is a glob matched against the paths below it, so no
	// pattern names a base, a directory to list or a file. Recursive then
	// has no effect, no Patterns means every entry below Base, and a
	// missing Base is a NOT_FOUND error. Empty means no fixed root: each
	// pattern names its own base, as above.
	Base string
	// Recursive makes a glob with no '/' match at any depth ("*.go" is then
	// "**/*.go"), as pi find does.
	Recursive bool
	// Hidden includes entries whose name starts with '.'.
	Hidden bool
	// NoIgnore disables .gitignore, .ignore, .git/info/exclude and the
	// excludes file (core.excludesFile).
	NoIgnore bool
	// PruneDirs are directory names never entered, e.g. "node_modules".
	PruneDirs []string
	// Type selects files, directories or both (the zero value).
	Type EntryType
	// Exclude are globs of entries to leave out; one without '/' matches a
	// base name at any depth.
	Exclude []string
	// Order is the result order; the zero value is newest first.
	Order FindOrder
	// Limit caps the entries returned. 0 means 200; negative means no cap.
	Limit int
	// Timeout bounds the walk; at the deadline the entries found so far
	// are returned, with Truncated set. 0 means no timeout.
	Timeout time.Duration
	// MaxVisited stops the walk after that many entries were seen
	// (a breaker); 0 means no cap.
	MaxVisited int
	// Progress, if set, receives the growing, unordered list of matches at
	// most once every 200 ms while the walk runs. It must not block.
	Progress func(FindProgress)
}

// FindProgress is a snapshot passed to FindRequest.Progress.
type FindProgress struct {
	Matched []string // display paths found so far, unordered
	Visited int      // entries seen so far
}

// FindEntry is one path found.
type FindEntry struct {
	Path    string    `json:"path"` // slash path relative to the root; directories have no trailing '/'
	Dir     bool      `json:"dir"`
	Size    int64     `json:"size"`     // bytes (0 for directories)
	ModTime time.Time `json:"mod_time"` // zero when the backend did not say
}

// FindResult is the outcome of a Find.
type FindResult struct {
	Entries      []FindEntry        `json:"entries"`                 // the matches in the requested order, at most the limit; nil when none
	Scope        string             `json:"scope"`                   // the searched base(s), for display ("." is the root)
	Pattern      string             `json:"pattern"`                 // the glob matched below Scope ("" for an exact file)
	ExactFile    bool               `json:"exact_file,omitempty"`    // the input named one file, returned as is
	MissingPaths []string           `json:"missing_paths,omitempty"` // inputs skipped because their base does not exist, as given
	Matched      int                `json:"matched"`                 // entries that matched, before the limit; a lower bound when Truncated is TruncTimeout or TruncVisited
	Visited      int                `json:"visited"`                 // entries seen by the walk
	Truncated    Truncation         `json:"truncated,omitempty"`     // TruncLimit, TruncTimeout or TruncVisited; "" when complete
	Skipped      map[SkipReason]int `json:"skipped,omitempty"`       // entries left out, by reason
}

const defaultFindLimit = 200

// Find lists the entries matching the request. A bad pattern, a missing or
// escaping base path and cancellation are errors; everything else (limits,
// timeouts, unreadable directories) is reported in the result.
func (f *Finder) Find(ctx context.Context, req FindRequest) (*FindResult, error) {
	res, err := f.find(ctx, req)
	if err != nil {
		return nil, errs.Stopped(ctx, "Find", err)
	}
	return res, nil
}

func (f *Finder) find(ctx context.Context, req FindRequest) (*FindResult, error) {
	fsys, root, release, err := f.open()
	if err != nil {
		return nil, err
	}
	defer release()
	limit := req.Limit
	if limit == 0 {
		limit = defaultFindLimit
	}
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	if req.Patterns, err = backingFiles(ctx, f.Resolvers, req.Patterns); err != nil {
		return nil, err
	}
	scope, err := f.resolveScope(ctx, fsys, root, req)
	if err != nil {
		return nil, err
	}
	res := &FindResult{Scope: scope.display, Pattern: scope.pattern, MissingPaths: scope.missing}
	if scope.exact != nil {
		res.ExactFile = true
		res.Entries = []FindEntry{*scope.exact}
		res.Matched = 1
		return res, nil
	}
	if f.Operations != nil {
		err = f.findOps(ctx, scope, limit, res)
	} else {
		err = findWalk(ctx, fsys, scope, req, limit, res)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// backingFiles returns patterns with each internal URL replaced by the
// path of the file that backs it, as pi find does; patterns is not modified.
func backingFiles(ctx context.Context, resolvers map[string]Resolver, patterns []string) ([]string, error) {
	out, copied := patterns, false
	var reg *iurl.Registry // made for the first pattern that may be a URL
	for i, p := range patterns {
		if !strings.Contains(p, "://") {
			continue
		}
		if reg == nil {
			reg = registry(resolvers)
		}
		if !reg.CanHandle(p) {
			continue
		}
		if glob.HasMeta(p) {
			return nil, &Error{Code: CodeInvalidParam, Message: "Glob patterns are not supported for internal URLs: " + p + ". Name one resource, or find its backing files by their path."}
		}
		r, err := reg.Resolve(ctx, p)
		if err != nil {
			return nil, err
		}
		if r.SourcePath == "" {
			return nil, &Error{Code: CodeNotFound, Message: "Internal URL " + p + " has no backing file to find; read it instead."}
		}
		if !copied {
			out, copied = slices.Clone(patterns), true
		}
		out[i] = r.SourcePath
	}
	return out, nil
}

// findScope is a resolved request: walk base, glob below it, and filters.
type findScope struct {
	base    string // FS path of the walk base
	display string // Scope for display
	pattern string // glob relative to base
	match   *glob.Pattern
	exact   *FindEntry // set when the input names one file
	missing []string
}

func (f *Finder) resolveScope(ctx context.Context, fsys fs.FS, root string, req FindRequest) (*findScope, error) {
	if req.Base != "" {
		return f.baseScope(ctx, fsys, root, req)
	}
	inputs := req.Patterns
	if len(inputs) == 0 {
		inputs = []string{"."}
	}
	type item struct {
		input, base, glob string
		hasGlob, isFile   bool
		info              fs.FileInfo
	}
	var items []item
	var missing []string
	var missingBase string // of the last missing input
	seen := map[string]bool{}
	for _, in := range inputs {
		p := strings.ReplaceAll(pathutil.Normalize(in), `\`, "/")
		if strings.TrimSpace(p) == "" {
			return nil, errs.New(errs.InvalidParam, "Patterns must contain non-empty globs or paths.")
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		base, g, hasGlob := glob.SplitFind(p)
		if hasGlob && !req.Recursive {
			base, g = splitNonRecursive(p)
		}
		rb, err := pathutil.Resolve(root, base)
		if err != nil {
			return nil, err
		}
		it := item{input: in, base: rb, glob: g, hasGlob: hasGlob}
		info, err := f.statBase(ctx, fsys, rb)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing = append(missing, p) // as given: "tests/**/*.ts", not its base "tests"
			missingBase = pathutil.Display(rb)
			continue
		case err != nil:
			return nil, err
		}
		it.info, it.isFile = info, info != nil && !info.IsDir()
		if it.isFile && hasGlob {
			return nil, errs.New(errs.InvalidParam, "Path is not a directory: %s", absDisplay(root, rb))
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		notFound := strings.Join(missing, ", ")
		if len(inputs) == 1 {
			notFound = missingBase // one path: pi names its base
		}
		return nil, &Error{Code: CodeNotFound, Message: "Path not found: " + notFound, Path: notFound}
	}
	sc := &findScope{missing: missing}
	if len(items) == 1 {
		it := items[0]
		sc.base, sc.display, sc.pattern = it.base, pathutil.Display(it.base), it.glob
		if it.isFile {
			e := FindEntry{Path: it.base}
			if it.info != nil {
				e.Size, e.ModTime = it.info.Size(), it.info.ModTime()
			}
			sc.exact = &e
			sc.pattern = ""
			return sc, nil
		}
	} else {
		bases := make([]string, len(items))
		displays := make([]string, len(items))
		for i, it := range items {
			bases[i] = it.base
			displays[i] = pathutil.Display(it.base)
			if !it.isFile && !it.hasGlob {
				displays[i] += "/"
			}
		}
		sc.base = pathutil.CommonBase(bases)
		if sc.base != "." {
			if info, err := f.statBase(ctx, fsys, sc.base); err != nil || info == nil || !info.IsDir() {
				sc.base = path.Dir(sc.base)
			}
		}
		var parts []string
		for _, it := range items {
			rel := relTo(sc.base, it.base)
			if rel != "." {
				rel = glob.QuoteMeta(rel) // a literal name may hold glob characters or commas
			}
			switch {
			case it.hasGlob:
				parts = append(parts, joinRel(rel, it.glob))
			case it.isFile:
				parts = append(parts, joinRel(rel, ""))
			default:
				parts = append(parts, joinRel(rel, "**/*"))
			}
		}
		sc.pattern = glob.BraceUnion(parts)
		if sc.pattern == "" {
			sc.pattern = "**/*"
		}
		sc.display = strings.Join(displays, ", ")
	}
	return sc, sc.compile()
}

func (sc *findScope) compile() error {
	m, err := glob.Compile(sc.pattern)
	sc.match = m
	return err
}

// baseScope resolves a request with a Base: the walk base is Base and the
// glob is the union of the patterns as written ("**/*" when there are none).
func (f *Finder) baseScope(ctx context.Context, fsys fs.FS, root string, req FindRequest) (*findScope, error) {
	base, err := pathutil.Resolve(root, strings.ReplaceAll(pathutil.Normalize(req.Base), `\`, "/"))
	if err != nil {
		return nil, err
	}
	info, err := f.statBase(ctx, fsys, base)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &Error{Code: CodeNotFound, Message: "Path not found: " + pathutil.Display(base), Path: pathutil.Display(base)}
	case err != nil:
		return nil, err
	case info != nil && !info.IsDir():
		return nil, errs.New(errs.InvalidParam, "Path is not a directory: %s; pass the directory to search below and match the file with the pattern.", pathutil.Display(base))
	}
	parts := make([]string, len(req.Patterns))
	for i, p := range req.Patterns {
		parts[i] = strings.ReplaceAll(p, `\`, "/")
	}
	sc := &findScope{base: base, display: pathutil.Display(base), pattern: glob.BraceUnion(parts)}
	if sc.pattern == "" {
		sc.pattern = "**/*"
	}
	return sc, sc.compile()
}

// splitNonRecursive splits a glob at its first glob-bearing segment without
// making a bare top-level glob recursive.
func splitNonRecursive(p string) (base, pattern string) {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if glob.HasMeta(s) {
			if i == 0 {
				return ".", p
			}
			return strings.Join(segs[:i], "/"), strings.Join(segs[i:], "/")
		}
	}
	return p, "**/*"
}

func relTo(base, p string) string {
	if base == "." {
		return p
	}
	if p == base {
		return "."
	}
	return strings.TrimPrefix(p, base+"/")
}

func joinRel(rel, g string) string {
	switch {
	case g == "":
		return rel
	case rel == ".":
		return g
	}
	return rel + "/" + g
}

// absDisplay renders an FS path as the absolute OS path when the root is
// known, as pi's messages do.
func absDisplay(root, p string) string {
	if root == "" {
		return p
	}
	if p == "." {
		return root
	}
	return strings.TrimSuffix(root, "/") + "/" + p
}

// statBase stats a base path, through Operations when set. It returns
// fs.ErrNotExist for a missing path and ACCESS_DENIED for one that escapes
// the root through a symlink.
func (f *Finder) statBase(ctx context.Context, fsys fs.FS, p string) (fs.FileInfo, error) {
	if f.Operations != nil {
		ok, err := f.Operations.Exists(ctx, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fs.ErrNotExist
		}
		if st, ok := f.Operations.(FindStater); ok {
			return st.Stat(ctx, p)
		}
		return nil, nil // exists; kind unknown: treated as a directory
	}
	if err := pathutil.CheckInside(fsys, p); err != nil {
		return nil, err
	}
	return fs.Stat(fsys, p)
}

// findOps runs the custom-operations branch.
func (f *Finder) findOps(ctx context.Context, sc *findScope, limit int, res *FindResult) error {
	opsLimit := limit
	if opsLimit < 0 {
		opsLimit = 0
	}
	paths, err := f.Operations.Glob(ctx, sc.pattern, sc.base, GlobOptions{Ignore: []string{"**/node_modules/**", "**/.git/**"}, Limit: opsLimit})
	if err != nil {
		if ctx.Err() != nil {
			return errs.Stopped(ctx, "Find", ctx.Err())
		}
		return err
	}
	for _, p := range paths {
		p = strings.TrimPrefix(path.Clean("/"+strings.TrimSuffix(p, "/")), "/")
		e := FindEntry{Path: joinRel(sc.base, p)}
		if st, ok := f.Operations.(FindStater); ok {
			if info, err := st.Stat(ctx, e.Path); err == nil {
				e.Dir, e.Size, e.ModTime = info.IsDir(), info.Size(), info.ModTime()
			}
		}
		res.Entries = append(res.Entries, e)
	}
	res.Matched = len(res.Entries)
	sortEntries(res.Entries, NewestFirst)
	if limit > 0 && len(res.Entries) > limit {
		res.Entries, res.Truncated = res.Entries[:limit], TruncLimit
	}
	return nil
}

// findWalk walks the scope and keeps the best entries in order.
func findWalk(ctx context.Context, fsys fs.FS, sc *findScope, req FindRequest, limit int, res *FindResult) error {
	prune := slices.Clone(req.PruneDirs)
	var excl []*glob.Pattern
	for _, e := range req.Exclude {
		p, err := glob.CompileFilter(e)
		if err != nil {
			return err
		}
		excl = append(excl, p)
	}
	keep := newTopN(limit, req.Order)
	var (
		mu       sync.Mutex
		lastProg = time.Now()
		seen     int // entries passed to the callback, for Progress
	)
	opts := walk.Options{Hidden: req.Hidden, NoIgnore: req.NoIgnore, PruneDirs: prune, Sorted: req.MaxVisited > 0, MaxVisited: req.MaxVisited}
	stats, werr := walk.Walk(ctx, fsys, sc.base, opts, func(e walk.Entry) error {
		if req.Progress != nil {
			mu.Lock()
			seen++
			mu.Unlock()
		}
		rel := relTo(sc.base, e.Path)
		if !sc.match.Match(rel) {
			return nil
		}
		isDir := e.Type.IsDir()
		if req.Type != FilesAndDirs {
			kindDir := isDir
			if e.Type&fs.ModeSymlink != 0 {
				// A link is of its target's kind, as os.walk and pathlib
				// see it; one whose target cannot be seen (outside the
				// root) is of neither kind. A dangling link is a file.
				switch fi, err := fs.Stat(fsys, e.Path); {
				case err == nil:
					kindDir = fi.IsDir()
				case !errors.Is(err, fs.ErrNotExist):
					return nil
				}
			}
			if kindDir != (req.Type == DirsOnly) {
				return nil
			}
			isDir = kindDir
		}
		for _, x := range excl {
			if x.Match(rel) {
				return nil
			}
		}
		fe := FindEntry{Path: e.Path, Dir: isDir}
		if info, err := e.Info(); err == nil {
			fe.ModTime = info.ModTime()
			if !isDir {
				fe.Size = info.Size()
			}
		}
		mu.Lock()
		defer mu.Unlock()
		res.Matched++
		keep.add(fe)
		if req.Progress != nil && time.Since(lastProg) >= 200*time.Millisecond {
			lastProg = time.Now()
			req.Progress(FindProgress{Matched: keep.paths(), Visited: seen})
		}
		return nil
	})
	res.Visited = stats.Visited
	tripped := stats.Truncated
	skipped := map[string]int{}
	search.AddWalkSkips(fsys, sc.base, stats, skipped)
	for k, v := range skipped {
		if v > 0 {
			if res.Skipped == nil {
				res.Skipped = map[SkipReason]int{}
			}
			res.Skipped[SkipReason(k)] = v
		}
	}
	res.Entries = keep.sorted()
	switch {
	case werr != nil && ctx.Err() != nil:
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) || req.Timeout == 0 {
			return errs.Stopped(ctx, "Find", ctx.Err())
		}
		res.Truncated = TruncTimeout
	case werr != nil:
		return werr
	case tripped:
		res.Truncated = TruncVisited
	case limit > 0 && res.Matched > limit:
		res.Truncated = TruncLimit
	}
	return nil
}

// topN keeps the first n entries of an order, in O(log n) per entry.
type topN struct {
	n     int
	order FindOrder
	h     entryHeap
}

func newTopN(n int, order FindOrder) *topN {
	return &topN{n: n, order: order, h: entryHeap{order: order}}
}

func (t *topN) add(e FindEntry) {
	if t.n < 0 || len(t.h.es) < t.n {
		heap.Push(&t.h, e)
		return
	}
	if t.n == 0 || !less(e, t.h.es[0], t.order) {
		return
	}
	t.h.es[0] = e
	heap.Fix(&t.h, 0)
}

func (t *topN) paths() []string {
	out := make([]string, len(t.h.es))
	for i, e := range t.h.es {
		out[i] = e.Path
	}
	return out
}

func (t *topN) sorted() []FindEntry {
	es := slices.Clone(t.h.es)
	sortEntries(es, t.order)
	return es
}

// entryHeap is a max-heap by the order: its root is the worst entry kept.
type entryHeap struct {
	es    []FindEntry
	order FindOrder
}

func (h entryHeap) Len() int           { return len(h.es) }
func (h entryHeap) Less(i, j int) bool { return less(h.es[j], h.es[i], h.order) }
func (h entryHeap) Swap(i, j int)      { h.es[i], h.es[j] = h.es[j], h.es[i] }
func (h *entryHeap) Push(x any)        { h.es = append(h.es, x.(FindEntry)) }
func (h *entryHeap) Pop() any {
	e := h.es[len(h.es)-1]
	h.es = h.es[:len(h.es)-1]
	return e
}

// less reports whether a comes before b.
func less(a, b FindEntry, order FindOrder) bool {
	switch {
	case order == NewestFirst && !a.ModTime.Equal(b.ModTime):
		return a.ModTime.After(b.ModTime)
	case order == TreeOrder:
		return treeLess(a.Path, b.Path)
	}
	return a.Path < b.Path
}

// treeLess reports whether slash path a comes before b in TreeOrder: below
// their common directory, an entry of that directory comes before the
// contents of its subdirectories, and names compare byte-wise.
func treeLess(a, b string) bool {
	for {
		ai, bi := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		switch {
		case ai < 0 && bi < 0:
			return a < b
		case ai < 0: // a is an entry here, b lies in a subdirectory
			return true
		case bi < 0:
			return false
		case a[:ai] != b[:bi]:
			return a[:ai] < b[:bi]
		}
		a, b = a[ai+1:], b[bi+1:]
	}
}

func sortEntries(es []FindEntry, order FindOrder) {
	sort.SliceStable(es, func(i, j int) bool { return less(es[i], es[j], order) })
}
