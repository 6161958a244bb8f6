// Package find is Find's engine: it resolves the patterns of a request to
// a walk base and one glob below it (a union when there are several), walks
// the tree (or asks the host's operations), filters the entries and keeps
// the first Limit of them in the requested order.
package find

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/search"
	"github.com/scoutkit/scout/internal/walk"
)

// Kind selects the entries a find returns; the values are those of
// scout.EntryKind.
type Kind int

// The kinds.
const (
	Any   Kind = iota // files, directories and other entries
	Files             // regular files, other non-directories and symlinks to them
	Dirs              // directories and symlinks to directories (not followed)
)

// Order is the order of a find's result; the values are those of
// scout.FindOrder.
type Order int

// The orders.
const (
	NewestFirst Order = iota // modification time, newest first, then path
	ByPath                   // byte-wise path order
	Tree                     // a sorted top-down walk: a directory's entries before its subdirectories' contents
)

// The truncation reasons.
const (
	TruncLimit   = "limit"   // more entries matched than Limit
	TruncTimeout = "timeout" // Timeout passed
	TruncVisited = "visited" // MaxVisited tripped
)

// Request is one find, with its defaults resolved.
type Request struct {
	Patterns   []string
	Base       string
	Recursive  bool
	Hidden     bool
	NoIgnore   bool
	PruneDirs  []string
	Kind       Kind
	Exclude    []string
	Order      Order
	Limit      int           // the entries kept; negative means all
	Timeout    time.Duration // 0 means none
	MaxVisited int           // 0 means no cap
	// Progress, if set, receives the unordered matches so far and the
	// entries visited, at most every 200 ms.
	Progress func(matched []string, visited int)
	// Registry resolves internal URLs among Patterns to their backing
	// files; nil means the built-in schemes only.
	Registry *iurl.Registry
	// Ops routes discovery to the host instead of walking the FS; nil
	// means walk.
	Ops *Ops
}

// Ops is a host's discovery backend. Paths are slash paths relative to the
// root.
type Ops struct {
	Exists func(ctx context.Context, path string) (bool, error)
	// Glob returns the paths below dir matching pattern, relative to dir,
	// leaving out what ignore matches, at most limit (0: all).
	Glob func(ctx context.Context, pattern, dir string, ignore []string, limit int) ([]string, error)
	// Stat is nil when the host cannot stat: entries then have no kind,
	// size or time, and a base is taken for a directory.
	Stat func(ctx context.Context, path string) (fs.FileInfo, error)
}

// Entry is one path found.
type Entry struct {
	Path    string
	Dir     bool
	Size    int64
	ModTime time.Time
}

// Result is the outcome of a find.
type Result struct {
	Entries   []Entry
	Scope     string // the searched base(s), for display
	Pattern   string // the glob below Scope; "" for an exact file
	Exact     bool   // the input named one file
	Missing   []string
	Matched   int
	Visited   int
	Truncated string         // "", TruncLimit, TruncTimeout or TruncVisited
	Skipped   map[string]int // by skip reason; nil when none
}

// Run lists the entries matching req below root (the absolute OS root, ""
// if unknown) in fsys. A bad pattern, a missing or escaping base and
// cancellation are errors; limits, timeouts and unreadable directories are
// reported in the result.
func Run(ctx context.Context, fsys fs.FS, root string, req Request) (*Result, error) {
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	var err error
	if req.Patterns, err = backingFiles(ctx, req.Registry, req.Patterns); err != nil {
		return nil, err
	}
	f := finder{fsys: fsys, root: root, ops: req.Ops}
	scope, err := f.resolveScope(ctx, req)
	if err != nil {
		return nil, err
	}
	res := &Result{Scope: scope.display, Pattern: scope.pattern, Missing: scope.missing}
	if scope.exact != nil {
		res.Exact = true
		res.Entries = []Entry{*scope.exact}
		res.Matched = 1
		return res, nil
	}
	if f.ops == nil {
		if real, ok := walk.LeadsToGit(f.fsys, scope.base); ok && real != scope.base {
			// A link to a .git is the .git, which the walk refuses: the
			// scope names where it leads, as a request naming it would.
			res.Scope = pathutil.Display(real)
		}
	}
	switch {
	case f.ops != nil && walk.InGit(scope.base):
		// Nothing at or below a .git is listed: a host asked for the
		// entries below it would list them (the ignore globs it is given
		// match what lies below a .git inside the directory asked about).
		res.Skipped = map[string]int{string(walk.ReasonIgnored): 1}
	case f.ops != nil:
		err = f.findOps(ctx, scope, req, res)
	default:
		err = f.walk(ctx, scope, req, res)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// backingFiles returns patterns with each internal URL replaced by the
// path of the file that backs it, as pi find does; patterns is not modified.
func backingFiles(ctx context.Context, reg *iurl.Registry, patterns []string) ([]string, error) {
	out, copied := patterns, false
	for i, p := range patterns {
		if !strings.Contains(p, "://") {
			continue
		}
		if reg == nil {
			reg = &iurl.Registry{}
		}
		if !reg.CanHandle(p) {
			continue
		}
		if glob.HasMeta(p) {
			return nil, errs.New(errs.InvalidParam, "Glob patterns are not supported for internal URLs: %s. Name one resource, or find its backing files by their path.", errs.Echo(p))
		}
		r, err := reg.Resolve(ctx, p)
		if err != nil {
			return nil, err
		}
		if r.SourcePath == "" {
			return nil, errs.New(errs.NotFound, "Internal URL %s has no backing file to find; read it instead.", errs.Echo(p))
		}
		if !copied {
			out, copied = slices.Clone(patterns), true
		}
		out[i] = r.SourcePath
	}
	return out, nil
}

// finder is the tree a find runs on.
type finder struct {
	fsys fs.FS
	root string
	ops  *Ops
}

// scope is a resolved request: walk base, glob below it, and filters.
type scope struct {
	base    string // FS path of the walk base
	display string // Scope for display
	pattern string // glob relative to base
	match   *glob.Pattern
	under   []reach // where matches can lie; nil: anywhere
	exact   *Entry  // set when the input names one file
	missing []string
}

func (f *finder) resolveScope(ctx context.Context, req Request) (*scope, error) {
	if req.Base != "" {
		return f.baseScope(ctx, req)
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
	var missingBase, missingShown string // of the last missing input
	type input struct {
		base, glob string
		hasGlob    bool
	}
	seen := map[input]bool{} // "a", "./a" and "a/" are one input
	for _, in := range inputs {
		p := pathutil.Input(in, f.exists(ctx))
		if strings.TrimSpace(p) == "" {
			return nil, errs.New(errs.InvalidParam, "Patterns must contain non-empty globs or paths.")
		}
		base, g, hasGlob := glob.SplitFind(p)
		if hasGlob && !req.Recursive {
			base, g = splitNonRecursive(p)
		}
		rb, info, named, err := f.locate(ctx, in, base)
		if rb == "" {
			return nil, err // refused: outside the root, a NUL
		}
		if named {
			g, hasGlob = "**/*", false
		}
		if seen[input{rb, g, hasGlob}] {
			continue
		}
		seen[input{rb, g, hasGlob}] = true
		it := item{input: in, base: rb, glob: g, hasGlob: hasGlob}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := pathutil.ContainerOutside(f.fsys, f.root, base); err != nil {
				return nil, err
			}
			missing = append(missing, p) // as given: "tests/**/*.ts", not its base "tests"
			missingBase, missingShown = pathutil.Display(rb), shownBase(base, rb)
			continue
		case err != nil:
			return nil, baseErr(rb, err)
		}
		it.info, it.isFile = info, info != nil && !info.IsDir()
		if it.isFile && hasGlob {
			return nil, errs.New(errs.InvalidParam, "Path is not a directory: %s", fname.Quote(absDisplay(f.root, rb)))
		}
		if hasGlob {
			// Named as the caller wrote it, not as rewritten ("**/[z-a]")
			// nor as the union of several inputs.
			if _, err := glob.CompileAs(g, p); err != nil {
				return nil, err
			}
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		notFound := strings.Join(missing, ", ")
		shown := fname.QuoteJoin(missing)
		if len(inputs) == 1 {
			notFound, shown = missingBase, errs.Echo(missingShown) // one path: pi names its base
		}
		return nil, &errs.Error{Code: errs.NotFound, Message: "Path not found: " + shown + f.slashHint(ctx, missing, req.Recursive), Path: notFound}
	}
	sc := &scope{missing: missing}
	if len(items) == 1 {
		it := items[0]
		sc.base, sc.display, sc.pattern = it.base, pathutil.Display(it.base), it.glob
		sc.under = reaches([]string{it.glob})
		if it.isFile {
			e := Entry{Path: it.base}
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
			if info, err := f.statBase(ctx, sc.base); err != nil || info == nil || !info.IsDir() {
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
		sc.pattern, sc.under = glob.BraceUnion(parts), reaches(glob.UnionItems(parts))
		if sc.pattern == "" {
			sc.pattern = "**/*"
		}
		sc.display = strings.Join(displays, ", ")
	}
	return sc, sc.compile()
}

func (sc *scope) compile() error {
	m, err := glob.Compile(sc.pattern)
	sc.match = m
	return err
}

// locate resolves in, a find input that its rules (pathutil.Input, the
// glob cut off) read as base: when it holds a name in Go's quoted form
// (fname.Unquote), as text shows a name that is not printable UTF-8, as
// written when it names a path so (a name that starts and ends with a quote
// wins over the path Normalize reads inside them), else with its quoted
// names read back when that names a path (a quoted glob character is
// literal); else as base. named reports a path taken as a name, not a glob
// (the quoted ways). err is base's stat error when base is used; p is "" when the
// path is refused (outside the root, a NUL), err saying why.
func (f *finder) locate(ctx context.Context, in, base string) (p string, info fs.FileInfo, named bool, err error) {
	given := strings.TrimSpace(in)
	u, quoted := fname.Unquote(given)
	var qerr error // why the unquoted path is refused
	if quoted {
		if p, err := pathutil.Resolve(f.root, given); err == nil {
			if info, err := f.statBase(ctx, p); err == nil {
				return p, info, true, nil
			}
		}
		var q string
		if q, qerr = pathutil.Resolve(f.root, u); qerr == nil {
			if qinfo, err := f.statBase(ctx, q); err == nil {
				return q, qinfo, true, nil
			}
		}
	}
	if p, err = pathutil.Resolve(f.root, base); err != nil {
		return "", nil, false, err
	}
	info, err = f.statBase(ctx, p)
	if qerr != nil && errors.Is(err, fs.ErrNotExist) {
		return "", nil, false, qerr // outside the root, a NUL
	}
	return p, info, false, err
}

// baseScope resolves a request with a Base: the walk base is Base and the
// glob is the union of the patterns as written ("**/*" when there are none).
// A Base that holds a quoted name is resolved as locate says; one that
// names an existing path as written is that path, though the input rules
// would read it otherwise (a name ending in a space; pathutil.Input).
func (f *finder) baseScope(ctx context.Context, req Request) (*scope, error) {
	norm := pathutil.Input(req.Base, f.exists(ctx))
	base, info, _, err := f.locate(ctx, req.Base, norm)
	if base == "" {
		return nil, err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := pathutil.ContainerOutside(f.fsys, f.root, base); err != nil {
			return nil, err
		}
		hint := pathutil.SlashHint(norm, f.exists(ctx))
		if glob.HasMeta(norm) {
			hint += "; Base is a directory, taken as written, not a glob: give the directory as Base and the glob as a pattern"
		}
		return nil, &errs.Error{Code: errs.NotFound, Message: "Path not found: " + errs.Echo(shownBase(norm, base)) + hint, Path: pathutil.Display(base)}
	case err != nil:
		return nil, baseErr(base, err)
	case info != nil && !info.IsDir():
		return nil, errs.New(errs.InvalidParam, "Path is not a directory: %s; pass the directory to search below and match the file with the pattern.", fname.Quote(pathutil.Display(base)))
	}
	parts := make([]string, len(req.Patterns))
	for i, p := range req.Patterns {
		parts[i] = p
		if err := outsideBase(parts[i], base); err != nil {
			return nil, err
		}
		if len(req.Patterns) > 1 {
			if _, err := glob.Compile(p); err != nil {
				return nil, err // this pattern, not the union of them all
			}
		}
	}
	sc := &scope{base: base, display: pathutil.Display(base), pattern: glob.BraceUnion(parts), under: reaches(glob.UnionItems(parts))}
	if sc.pattern == "" {
		sc.pattern = "**/*"
	}
	return sc, sc.compile()
}

// shownBase is how a not-found error names a missing base, given as
// written and resolved to clean: cleaned ("./src/" is "src"), but for a
// URL, which cleaning would mangle ("https://h/x" is not "https:/h/x"):
// that is named as written.
func shownBase(written, clean string) string {
	if _, err := iurl.Parse(written); err == nil {
		return written
	}
	return pathutil.Display(clean)
}

// outsideBase returns the CodeInvalidParam error of g, a pattern of a
// request with a Base, when it can never match: the paths it is matched
// against are relative to base and hold no ".." segment, so one that is
// absolute ("/x/*") or has a ".." segment outside braces ("../*",
// "**/../x") would silently match nothing. nil otherwise.
func outsideBase(g, base string) error {
	abs := strings.HasPrefix(g, "/")
	if !abs && !slices.Contains(strings.Split(g, "/"), "..") {
		return nil
	}
	d := pathutil.Display(base)
	how := "give it relative to that directory"
	if abs {
		how = "give it relative to that directory, or search from the directory it names (Base) with the rest of the pattern"
	} else if dir, rest, _ := glob.CutLiteral(g); dir != "" && !slices.Contains(strings.Split(rest, "/"), "..") {
		if to := path.Join(d, dir); to == ".." || strings.HasPrefix(to, "../") {
			how = "it names a directory outside the root, where nothing can be found"
		} else {
			how = fmt.Sprintf("search from '%s' (Base) with the pattern '%s'", fname.Quote(to), fname.Quote(rest))
		}
	}
	return errs.New(errs.InvalidParam, "Pattern '%s' cannot match: patterns are matched against the paths below the directory searched, '%s', which are relative and never hold '..'; %s.", fname.Quote(g), fname.Quote(d), how)
}

// reach is where the matches of a glob relative to a walk base can lie:
// in or below dir (its leading literal segments, glob.CutLiteral: "src/cmd"
// for "src/cmd/*.go", "" for "*.go"), at most depth levels down (its
// number of '/', which is at least that of any of its brace alternatives;
// -1 when a '**' can cross any number).
type reach struct {
	dir   string
	depth int
}

// reaches returns the reach of each of globs, the items of one brace union
// (glob.UnionItems); nil when one of them can match anywhere ("**/x"), or
// when one has unbalanced braces or an unclosed class (in the union they
// pair with another's: "x/a[" and "b/*]/c" make "{x/a[,b/*]/c}").
// An item with a comma outside its braces is split by the union there, so
// its alternatives have no common leading directory.
func reaches(globs []string) []reach {
	if len(globs) == 0 {
		return nil
	}
	rs := make([]reach, 0, len(globs))
	for _, g := range globs {
		balanced, comma := braces(g)
		if !balanced {
			return nil
		}
		dir, _, _ := glob.CutLiteral(g)
		r := reach{dir: path.Clean(dir), depth: strings.Count(g, "/")}
		if r.dir == "." || comma {
			r.dir = ""
		}
		if strings.Contains(g, "**") {
			r.depth = -1
		}
		if r.dir == ".." || strings.HasPrefix(r.dir, "../") || strings.HasPrefix(r.dir, "/") || r.dir == "" && r.depth < 0 {
			return nil
		}
		rs = append(rs, r)
	}
	return rs
}

// braces reports whether g's braces pair among themselves and its classes
// close, and whether it has a comma outside them (quoted characters and
// classes aside).
func braces(g string) (balanced, comma bool) {
	depth := 0
	for i := 0; i < len(g); i++ {
		switch g[i] {
		case '\\':
			i++
		case '[':
			end, ok := glob.ClassEnd(g, i)
			if !ok {
				return false, comma // a class closed in another item
			}
			i = end
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return false, comma
			}
			depth--
		case ',':
			comma = comma || depth == 0
		}
	}
	return depth == 0, comma
}

// enters reports whether a walk of sc enters the directory rel (relative
// to the base): one where a match can lie, or on the way to one.
func (sc *scope) enters(rel string) bool {
	if sc.under == nil {
		return true
	}
	depth := strings.Count(rel, "/") + 1 // rel's level: 1 for a directory in the base
	for _, r := range sc.under {
		if (r.dir == "" || rel == r.dir || strings.HasPrefix(r.dir, rel+"/") || strings.HasPrefix(rel, r.dir+"/")) && (r.depth < 0 || depth <= r.depth) {
			return true
		}
	}
	return false
}

// splitNonRecursive splits p, which holds a glob character and no '\', at
// its first segment holding one (glob.CutLiteral), without making a bare
// top-level glob recursive.
func splitNonRecursive(p string) (base, pattern string) {
	base, pattern, found := glob.CutLiteral(p)
	if !found {
		return ".", p
	}
	return base, pattern
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

// AnsweredPath is the root-relative path of p, a path that an Operations
// delegate's Glob answered below base, cleaned and joined to base as the
// find's entries name it.
func AnsweredPath(base, p string) string {
	return joinRel(base, strings.TrimPrefix(path.Clean("/"+strings.TrimSuffix(p, "/")), "/"))
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

// baseErr is the error of a base that exists but cannot be examined (a
// permission, an I/O or a host failure): a coded error as it is, any other
// wrapped with its code and the base it concerns.
func baseErr(base string, err error) error {
	if errors.As(err, new(*errs.Error)) {
		return err
	}
	d := pathutil.Display(base)
	e := errs.Wrap(errs.CodeOf(err), err, "Cannot find in '%s': %v", d, err)
	e.Path = d
	return e
}

// exists returns the test pathutil.Input and pathutil.SlashHint take:
// whether a path exists as written, resolved and stated as a base is.
func (f *finder) exists(ctx context.Context) func(string) bool {
	return func(s string) bool {
		p, err := pathutil.Resolve(f.root, s)
		if err != nil {
			return false
		}
		_, err = f.statBase(ctx, p)
		return err == nil
	}
}

// slashHint is the hint the not-found error of the find inputs missing ends
// with: pathutil.SlashHint of the first one whose base, read with '/' for
// '\', exists; "" when none does.
func (f *finder) slashHint(ctx context.Context, missing []string, recursive bool) string {
	exists := f.exists(ctx)
	baseExists := func(s string) bool {
		base, _, hasGlob := glob.SplitFind(s)
		if hasGlob && !recursive {
			base, _ = splitNonRecursive(s)
		}
		return exists(base)
	}
	for _, m := range missing {
		if h := pathutil.SlashHint(m, baseExists); h != "" {
			return h
		}
	}
	return ""
}

// statBase stats a base path, through the host's operations when set. It
// returns fs.ErrNotExist for a missing path and ACCESS_DENIED for one that
// escapes the root through a symlink.
func (f *finder) statBase(ctx context.Context, p string) (fs.FileInfo, error) {
	if f.ops != nil {
		ok, err := f.ops.Exists(ctx, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fs.ErrNotExist
		}
		if f.ops.Stat != nil {
			return f.opsStat(ctx, p)
		}
		return nil, nil // exists; kind unknown: treated as a directory
	}
	return pathutil.Stat(f.fsys, p)
}

// findOps runs a find through the host's operations. They are asked to
// leave out the pruned directories and .git, as the walk does, in that
// order (pi's list: node_modules, then .git).
func (f *finder) findOps(ctx context.Context, sc *scope, req Request, res *Result) error {
	var ignore []string
	for _, d := range req.PruneDirs {
		ignore = append(ignore, "**/"+glob.QuoteMeta(d)+"/**")
	}
	ignore = append(ignore, "**/.git/**")
	paths, err := f.ops.Glob(ctx, sc.pattern, sc.base, ignore, max(req.Limit, 0))
	if err != nil {
		if ctx.Err() != nil {
			return errs.Stopped(ctx, "Find", ctx.Err())
		}
		return err
	}
	seen := make(map[string]bool, len(paths))
	for _, p := range paths {
		if err := checkAnswered(sc.base, p); err != nil {
			return err
		}
		e := Entry{Path: AnsweredPath(sc.base, p)}
		if seen[e.Path] {
			continue // "a.go" and "./a.go" are one entry
		}
		seen[e.Path] = true
		if f.ops.Stat != nil {
			info, err := f.opsStat(ctx, e.Path)
			if errors.Is(err, errNoInfo) {
				return err
			}
			if err == nil {
				e.Dir, e.Size, e.ModTime = info.IsDir(), info.Size(), info.ModTime()
			}
		}
		res.Entries = append(res.Entries, e)
	}
	res.Matched = len(res.Entries)
	sortEntries(res.Entries, req.Order)
	if req.Limit >= 0 && len(res.Entries) > req.Limit {
		res.Entries = res.Entries[:req.Limit]
	}
	// The host was asked for at most Limit paths: as many may mean more.
	if req.Limit > 0 && len(paths) >= req.Limit {
		res.Truncated = TruncLimit
	}
	return nil
}

// linksToDir reports whether the symlink p leads to a directory that can
// be seen (inside the root).
func (f *finder) linksToDir(p string) bool {
	fi, err := pathutil.Stat(f.fsys, p)
	return err == nil && fi.IsDir()
}

// errNoInfo marks the error of a host Stat that returned neither file
// information nor an error.
var errNoInfo = errors.New("no file information")

// opsStat stats p through the host's Stat. An answer of neither file
// information nor an error is the host's mistake (it would make a file
// look like a directory): a CodeInternal error that says so, which
// matches errNoInfo.
func (f *finder) opsStat(ctx context.Context, p string) (fs.FileInfo, error) {
	info, err := f.ops.Stat(ctx, p)
	if err == nil && info == nil {
		return nil, errs.Wrap(errs.Internal, errNoInfo, "The host's FindStater.Stat returned neither file information nor an error for '%s': it must return one of them (fs.ErrNotExist for a missing path).", fname.Quote(pathutil.Display(p)))
	}
	return info, err
}

// checkAnswered returns nil when p, a path that the host's Glob answered
// below base, names an entry below base: a relative slash path, not
// empty, without a NUL byte, that does not climb out of base with "..".
// Otherwise it is the host's mistake, a CodeInternal error that names the
// path and the rule: listing the path cleaned would name another entry.
func checkAnswered(base, p string) error {
	var why string
	switch {
	case p == "":
		why = "an empty path"
	case strings.IndexByte(p, 0) >= 0:
		why = "a path with a NUL byte"
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || len(p) >= 3 && p[1] == ':' && (p[2] == '/' || p[2] == '\\'):
		why = "an absolute path"
	default:
		c := path.Clean(p)
		if c != ".." && !strings.HasPrefix(c, "../") {
			return nil
		}
		why = "a path outside the directory it was asked about"
	}
	return errs.New(errs.Internal, "The host's FindOperations.Glob answered %s, '%s', for the pattern's directory '%s': it must answer slash paths relative to that directory, each naming an entry below it.", why, fname.Quote(p), fname.Quote(pathutil.Display(base)))
}

// walk walks the scope and keeps the first entries in order.
func (f *finder) walk(ctx context.Context, sc *scope, req Request, res *Result) error {
	var excl []*glob.Pattern
	for _, e := range req.Exclude {
		p, err := glob.CompileFilter(e)
		if err != nil {
			return err
		}
		excl = append(excl, p)
	}
	keep := newTopN(req.Limit, req.Order)
	var (
		mu       sync.Mutex
		lastProg = time.Now()
		seen     int // entries passed to the callback, for Progress
		unseen   int // matching links of a kind that cannot be seen, left out
	)
	opts := walk.Options{Hidden: req.Hidden, NoIgnore: req.NoIgnore, PruneDirs: slices.Clone(req.PruneDirs), Sorted: req.MaxVisited > 0, MaxVisited: req.MaxVisited}
	visit := func(e walk.Entry) error {
		if req.Progress != nil {
			mu.Lock()
			seen++
			mu.Unlock()
		}
		rel := relTo(sc.base, e.Path)
		isDir := e.Type.IsDir()
		if !sc.match.Match(rel) {
			// A glob ending in '/' matches directories only, and links
			// to them, as a shell's "*/" does.
			if !sc.match.DirOnly() || !sc.match.MatchDir(rel) {
				return nil
			}
			if !isDir && (e.Type&fs.ModeSymlink == 0 || !f.linksToDir(e.Path)) {
				return nil
			}
			isDir = true
		}
		if req.Kind != Any {
			kindDir := isDir
			if e.Type&fs.ModeSymlink != 0 {
				// A link is of its target's kind, as os.walk and pathlib
				// see it; one whose target cannot be seen (outside the
				// root) is of neither kind, and is counted as a skipped
				// symlink. A dangling link is a file.
				switch fi, err := pathutil.Stat(f.fsys, e.Path); {
				case err == nil:
					kindDir = fi.IsDir()
				case !errors.Is(err, fs.ErrNotExist):
					mu.Lock()
					unseen++ // counted, as a search counts the links it leaves out
					mu.Unlock()
					return nil
				}
			}
			if kindDir != (req.Kind == Dirs) {
				return nil
			}
			isDir = kindDir
		}
		for _, x := range excl {
			if x.Match(rel) {
				return nil
			}
		}
		fe := Entry{Path: e.Path, Dir: isDir}
		if st, err := e.Stat(); err == nil {
			fe.ModTime = st.ModTime
			if !isDir {
				fe.Size = st.Size
			}
		}
		mu.Lock()
		defer mu.Unlock()
		res.Matched++
		keep.add(fe)
		if req.Progress != nil && time.Since(lastProg) >= 200*time.Millisecond {
			lastProg = time.Now()
			req.Progress(keep.paths(), seen)
		}
		return nil
	}
	stats, werr := walk.Walk(ctx, f.fsys, sc.base, opts, func(e walk.Entry) error {
		if err := visit(e); err != nil || !e.Type.IsDir() || sc.enters(relTo(sc.base, e.Path)) {
			return err
		}
		return fs.SkipDir // nothing below can match
	})
	res.Visited = stats.Visited
	skipped := map[string]int{}
	search.AddWalkSkips(f.fsys, sc.base, sc.pattern, stats, skipped)
	skipped[string(walk.ReasonSymlink)] += unseen
	// The entries MaxVisited kept the walk from were not left out by a
	// rule: TruncVisited reports them.
	delete(skipped, string(walk.ReasonLimit))
	for k, v := range skipped {
		if v > 0 {
			if res.Skipped == nil {
				res.Skipped = map[string]int{}
			}
			res.Skipped[k] = v
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
	case stats.Truncated:
		res.Truncated = TruncVisited
	case req.Limit >= 0 && res.Matched > req.Limit:
		res.Truncated = TruncLimit
	}
	return nil
}
