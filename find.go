package scout

import (
	"cmp"
	"context"
	"io/fs"
	"time"

	"github.com/scoutkit/scout/internal/find"
	"github.com/scoutkit/scout/internal/pathutil"
)

// Finder discovers paths by glob. Its zero value finds in the current
// directory (a nil *Finder finds as the zero value does); it is safe for
// concurrent use and calls never modify it. A call's ctx must not be nil: a
// nil one is a CodeInvalidParam error.
type Finder struct {
	Workspace
	// Operations routes discovery to the host (a remote workspace, an index)
	// instead of walking FS. nil means walk FS. With Operations and no FS,
	// no OS directory is opened: Root (default the current directory) only
	// places absolute input paths, and may name a remote directory.
	Operations FindOperations
	// Resolvers resolve internal URLs given in FindRequest.Patterns, by
	// scheme, as Searcher.Resolvers do: a URL stands for its backing file;
	// one without a backing file, or with glob characters, is an error.
	// nil means only the built-in omp:// (Scout's own documentation). A
	// nil Resolver is ignored, as if its scheme were not in the map.
	Resolvers map[string]Resolver
}

// FindOperations is a host's own discovery backend (pi find's custom
// branch). Paths are slash paths relative to the root.
type FindOperations interface {
	// Exists reports whether the path exists.
	Exists(ctx context.Context, path string) (bool, error)
	// Glob returns the paths under dir that match pattern, relative to dir,
	// leaving out what opts.Ignore matches, at most opts.Limit of them.
	// Each is a slash path below dir ("./a.go" and "a.go/" are "a.go",
	// listed once however often answered); an empty path, one with a NUL
	// byte, an absolute one, or one that climbs out of dir ("../x") fails
	// the find with a CodeInternal error that names it.
	Glob(ctx context.Context, pattern, dir string, opts GlobOptions) ([]string, error)
}

// FindStater is an optional FindOperations ability: with it, an input that
// names a file is answered without a glob.
type FindStater interface {
	// Stat returns the file information of path (slash-separated,
	// relative to the root). When it fails for a listed path, that entry
	// is returned without its kind, size and time. It must return file
	// information or an error (fs.ErrNotExist for a missing path): neither
	// fails the find with a CodeInternal error.
	Stat(ctx context.Context, path string) (fs.FileInfo, error)
}

// GlobOptions are passed to FindOperations.Glob.
type GlobOptions struct {
	// Ignore are globs of paths to leave out: "**/NAME/**" for each of
	// FindRequest.PruneDirs, then "**/.git/**", which a walk never lists.
	Ignore []string `json:"ignore,omitempty"`
	// Limit is the most paths wanted; 0 means no limit. An answer of
	// Limit paths or more is taken as cut there: the result's Truncated is
	// TruncLimit.
	Limit int `json:"limit,omitempty"`
}

// EntryKind selects the kinds of entries Find returns. Its text (and
// JSON) form is "all", "files" or "dirs".
type EntryKind int

// The entry kinds.
const (
	FilesAndDirs EntryKind = iota // "all": files, directories and other entries
	FilesOnly                     // "files": regular files, other non-directories and symlinks to them
	DirsOnly                      // "dirs": directories and symlinks to directories (not followed)
)

var entryKinds = enum[EntryKind]{"entry kind", "all", "files", "dirs"}

// String returns "all", "files" or "dirs"; a value other than the named
// kinds gives its number ("9"), which UnmarshalText refuses.
func (k EntryKind) String() string { return entryKinds.name(k) }

// MarshalText encodes the kind as its String.
func (k EntryKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes "all", "files" or "dirs" ("" is all).
func (k *EntryKind) UnmarshalText(b []byte) error { return entryKinds.parse(b, k) }

// FindOrder is the order of Find's result. Its text (and JSON) form is
// "newest", "path" or "tree".
type FindOrder int

// The orders.
const (
	NewestFirst FindOrder = iota // "newest": modification time, newest first, then path
	ByPath                       // "path": byte-wise path order
	// TreeOrder ("tree") is the order of a top-down walk that sorts each
	// directory's names (Python's os.walk with sorted lists): a
	// directory's own entries, by name, before anything inside its
	// subdirectories, which follow by name.
	TreeOrder
)

var findOrders = enum[FindOrder]{"order", "newest", "path", "tree"}

// String returns "newest", "path" or "tree"; a value other than the named
// orders gives its number ("9"), which UnmarshalText refuses.
func (o FindOrder) String() string { return findOrders.name(o) }

// MarshalText encodes the order as its String.
func (o FindOrder) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText decodes "newest", "path" or "tree" ("" is newest).
func (o *FindOrder) UnmarshalText(b []byte) error { return findOrders.parse(b, o) }

// FindRequest is one discovery call.
type FindRequest struct {
	// Patterns are globs, directories or files, relative to the root (or
	// absolute inside Workspace.Root). A directory means every entry below
	// it; a file means itself. A glob's first segment without a glob
	// character is its base directory: "src/*.go" lists src's own .go files,
	// "src/**/*.go" all of them below src. Several patterns are searched
	// together as one union and entries whose base does not exist are
	// reported in FindResult.MissingPaths (all missing is an error).
	// A glob that ends in '/' matches directories only (and links to
	// them): "src/*/" lists src's subdirectories, "**/testdata/" every
	// directory named testdata. Empty means the whole tree. Nothing at or
	// below a .git directory is listed, also when a pattern's base lies
	// there (".git/*"): the result then counts the .git as SkipIgnored,
	// as it does the .git of the walk when a pattern names .git; a file
	// named as such (".git/config") is returned as any file is.
	Patterns []string `json:"patterns,omitempty"`
	// Base, when set, is the directory Patterns are relative to, as in
	// glob tools with a fixed search root: the walk starts at Base and
	// every pattern is a glob matched against the paths below it, so no
	// pattern names a base, a directory to list or a file. Recursive then
	// has no effect, no Patterns means every entry below Base, and a
	// missing Base is a NOT_FOUND error. A pattern that is absolute
	// ("/x/*") or has a ".." segment ("../*", "**/../x") could never match
	// the relative paths below Base, and is a CodeInvalidParam error that
	// says which Base and pattern to give instead. Empty means no fixed
	// root: each pattern names its own base, as above.
	Base string `json:"base,omitempty"`
	// Recursive makes a glob with no '/' match at any depth ("*.go" is then
	// "**/*.go"), as pi find does.
	Recursive bool `json:"recursive,omitempty"`
	// Hidden includes entries whose name starts with '.'.
	Hidden bool `json:"hidden,omitempty"`
	// NoIgnore disables .gitignore, .ignore, .git/info/exclude and the
	// excludes file (core.excludesFile). false honours them (counted as
	// SkipIgnored): .ignore files everywhere, .gitignore files and the
	// excludes only inside a git work tree (at or below a directory that
	// holds .git), as git and ripgrep do, so a .gitignore in an fs.FS
	// without .git is not applied.
	NoIgnore bool `json:"no_ignore,omitempty"`
	// PruneDirs are directory names never entered, e.g. "node_modules"
	// (given to Operations as GlobOptions.Ignore). nil prunes nothing.
	PruneDirs []string `json:"prune_dirs,omitempty"`
	// Kind selects files, directories or both (the zero value). A value
	// other than the named ones is a CodeInvalidParam error.
	Kind EntryKind `json:"kind,omitempty"`
	// Exclude are globs of entries to leave out; one without '/' matches a
	// base name at any depth. nil leaves nothing out.
	Exclude []string `json:"exclude,omitempty"`
	// Order is the result order; the zero value is newest first. A value
	// other than the named ones is a CodeInvalidParam error.
	Order FindOrder `json:"order,omitempty"`
	// Limit caps the entries returned. 0 means DefaultFindLimit (200);
	// negative means no cap.
	Limit int `json:"limit,omitempty"`
	// Timeout bounds the walk; at the deadline the entries found so far
	// are returned, with Truncated set. 0 or negative means no timeout.
	Timeout time.Duration `json:"timeout,omitempty"`
	// MaxVisited stops the walk after that many entries were seen
	// (a breaker); 0 or negative means no cap.
	MaxVisited int `json:"max_visited,omitempty"`
	// Progress, if set, receives the growing, unordered list of matches at
	// most once every 200 ms while the walk runs. It must not block. A
	// panic in it stops the find and is raised again from Find, on the
	// caller's goroutine.
	Progress func(FindProgress) `json:"-"`
}

// FindProgress is a snapshot passed to FindRequest.Progress.
type FindProgress struct {
	Matched []string `json:"matched"` // display paths found so far, unordered
	Visited int      `json:"visited"` // entries seen so far
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
	Matched      int                `json:"matched"`                 // entries that matched, before the limit; a lower bound when Truncated is TruncTimeout or TruncVisited, or TruncLimit through Operations
	Visited      int                `json:"visited"`                 // entries seen by the walk
	Truncated    Truncation         `json:"truncated,omitempty"`     // TruncLimit, TruncTimeout or TruncVisited; "" when complete
	Skipped      map[SkipReason]int `json:"skipped,omitempty"`       // entries left out, by reason
}

// Find lists the entries matching the request. The error is a *Error: a
// bad pattern, Kind or Order, a missing or escaping base path, a base that
// cannot be opened (with the code of its failure: CodeAccessDenied for a
// permission, CodeInternal for an I/O or a host failure) and cancellation;
// everything else (limits, timeouts, unreadable directories below a base)
// is reported in the result.
func (f *Finder) Find(ctx context.Context, req FindRequest) (*FindResult, error) {
	if err := nilContext(ctx, "Find"); err != nil {
		return nil, err
	}
	if f == nil {
		f = &Finder{}
	}
	if err := cmp.Or(entryKinds.check(req.Kind), findOrders.check(req.Order)); err != nil {
		return nil, err
	}
	ctx, c, err := begin(ctx, f.tree)
	if err != nil {
		return nil, err
	}
	defer c.end()
	req.Progress = progress(c.hc, req.Progress)
	out, err := find.Run(ctx, c.fsys, c.root, f.internal(&req))
	if err != nil {
		return nil, fail(ctx, "Find", err)
	}
	r := &FindResult{
		Scope:        out.Scope,
		Pattern:      out.Pattern,
		ExactFile:    out.Exact,
		MissingPaths: out.Missing,
		Matched:      out.Matched,
		Visited:      out.Visited,
		Truncated:    Truncation(out.Truncated),
		Skipped:      skipped(out.Skipped),
	}
	if len(out.Entries) > 0 {
		r.Entries = make([]FindEntry, len(out.Entries))
		for i, e := range out.Entries {
			r.Entries[i] = FindEntry{Path: e.Path, Dir: e.Dir, Size: e.Size, ModTime: e.ModTime}
		}
	}
	return r, nil
}

// tree is the workspace a find runs on. Through Operations with no FS, no
// OS directory is opened: Root only places absolute input paths, and may
// name a directory of a remote workspace.
func (f *Finder) tree() (fs.FS, string, func(), error) {
	if f.Operations == nil || f.FS != nil {
		return f.open()
	}
	root, err := pathutil.AbsRoot(f.Root)
	return nil, root, func() {}, exportErr(err)
}

// internal turns the request into the internal one, with defaults.
func (f *Finder) internal(req *FindRequest) find.Request {
	in := find.Request{
		Patterns:   req.Patterns,
		Base:       req.Base,
		Recursive:  req.Recursive,
		Hidden:     req.Hidden,
		NoIgnore:   req.NoIgnore,
		PruneDirs:  req.PruneDirs,
		Kind:       find.Kind(req.Kind),
		Exclude:    req.Exclude,
		Order:      find.Order(req.Order),
		Limit:      limit(req.Limit, DefaultFindLimit),
		Timeout:    req.Timeout,
		MaxVisited: req.MaxVisited,
	}
	if len(f.Resolvers) > 0 {
		in.Registry = registry(f.Resolvers)
	}
	if p := req.Progress; p != nil {
		in.Progress = func(matched []string, visited int) { p(FindProgress{Matched: matched, Visited: visited}) }
	}
	if ops := f.Operations; ops != nil {
		in.Ops = &find.Ops{
			Exists: func(ctx context.Context, p string) (bool, error) {
				ok, err := ops.Exists(ctx, p)
				return ok, hostErr(err)
			},
			Glob: func(ctx context.Context, pattern, dir string, ignore []string, limit int) ([]string, error) {
				paths, err := ops.Glob(ctx, pattern, dir, GlobOptions{Ignore: ignore, Limit: limit})
				return paths, hostErr(err)
			},
		}
		if st, ok := ops.(FindStater); ok {
			in.Ops.Stat = func(ctx context.Context, p string) (fs.FileInfo, error) {
				info, err := st.Stat(ctx, p)
				return info, hostErr(err)
			}
		}
	}
	return in
}
