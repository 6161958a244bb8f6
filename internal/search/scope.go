package search

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/archive"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/par"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/redact"
	"github.com/scoutkit/scout/internal/selector"
)

// Target is one resolved entry of a search's paths.
type Target struct {
	// Entry is the user's entry, as given.
	Entry string
	// Path is the FS path of the file or directory ("." for the root); for
	// an in-memory target it is the display path ("a.zip:src/x.ts", a URL).
	Path string
	// Dir reports a directory to walk; Glob, when set, filters the files
	// below it (or below Member in an archive) by their path relative to
	// it.
	Dir  bool
	Glob *glob.Pattern
	// Archive reports an archive named as a path, searched member by
	// member: Path is the archive file and Member the directory inside it
	// whose members are searched ("" for the whole archive).
	Archive bool
	Member  string
	// Mode is the type of a file target (0 for a regular file); a FIFO or a
	// device named explicitly is skipped, never opened.
	Mode fs.FileMode
	// Text is the content of an in-memory target (an archive member or a
	// virtual resource); Mem reports one.
	Text []byte
	Mem  bool
	// NoTag marks a file that must not get a hashline tag (an immutable
	// internal-URL source).
	NoTag bool
	// Virtual marks an internal-URL resource searched in memory.
	Virtual bool
	// Ranges, when not nil, keep the search of a file target (a file, an
	// archive member, an internal-URL resource) to these line ranges, as
	// grep.Options.LineRanges does: the entry's line selector
	// ("src/a.go:50-100") or ResolveOptions.Lines. nil means every line.
	Ranges [][2]int
	// m is the matcher restricted to Ranges (set by prepare).
	m *grep.Matcher
}

// ResolveOptions are the settings of Resolve.
type ResolveOptions struct {
	// MaxMember bounds the bytes of an archive member read into memory;
	// <= 0 means the archive package's own cap.
	MaxMember int64
	// Registry resolves internal URLs ("skill://x"); nil means none, so
	// such entries are searched as paths (and are usually missing).
	Registry *iurl.Registry
	// Lines are line ranges given for the whole request (a Request's
	// Grep.LineRanges): the one entry there must then be, which must name a
	// file and carry no selector of its own. nil means none.
	Lines [][2]int
}

// Scope is the resolved set of targets of a search.
type Scope struct {
	Targets []Target
	// Missing are the entries whose path does not exist (only set when at
	// least one other entry exists).
	Missing []string
	// BadMembers are the entries naming an archive member, a directory
	// or a glob inside an archive that are left out: the member is
	// binary, not UTF-8 or too large, or the archive or member cannot be
	// read (see Resolve). Unlike the files a walk leaves out, they are not
	// counted as skipped.
	BadMembers []BadMember
}

// BadMember is an archive entry left out of a search.
type BadMember struct {
	// Path is the member ("a.zip:logo.png"), or the entry as given when
	// the archive could not be read up to the member ("bad.zip:src/").
	Path string
	// Reason is SkipBinary, SkipTooLarge or SkipError (unreadable).
	Reason string
	// Code classifies an unreadable entry's failure (errs.Unsupported);
	// "" for the other reasons.
	Code errs.Code
	// Why says what failed for an unreadable entry ("not a valid zip
	// file") or an archive over a limit, or is "not UTF-8" for a member
	// that is not binary but not UTF-8 either; "" when Reason says it all.
	Why string
}

// String returns the member and why it was left out: "a.zip:logo.png (binary)".
func (m BadMember) String() string {
	why := m.Why
	if why == "" {
		why = strings.ReplaceAll(m.Reason, "_", " ")
	}
	return fname.Quote(m.Path) + " (" + why + ")"
}

// Single reports whether the scope is one file or one archive member: no
// paging, and lines are printed without a file heading. A virtual resource
// and an archive searched member by member count as multi-file scopes.
func (s *Scope) Single() bool {
	if len(s.Targets) != 1 || len(s.BadMembers) > 0 {
		return false
	}
	t := s.Targets[0]
	return !t.Dir && !t.Virtual && !t.Archive
}

// Resolve resolves the entries of a search's paths against fsys, whose OS
// directory is root ("" if unknown). An entry is a file, a directory, a
// glob (split at its first segment holding a glob character, see
// glob.SplitSearch), an archive member ("a.zip:dir/f.ts"), or an archive
// (.zip, .tar, .tar.gz, .tgz) searched member by member: the archive file
// itself ("a.zip"), a directory inside it ("a.zip:src/") or a glob inside
// it ("a.zip:src/**/*.ts"). An archive is expanded only when it is named:
// one met while walking a directory is searched as a file, as ripgrep
// does without -z. No entries means the root. Entries that do not exist are left out and listed in
// Missing when others exist; when every entry is missing the result is a
// NOT_FOUND error "Path not found: a, b" (a lone member that its archive
// does not hold: "Path 'a.zip:nope.txt' not found inside archive"). An
// internal URL is searched as its backing file, or in memory when it has
// none.
//
// An archive file that does not open as an archive (a text file named
// x.zip or x.tar: archive.Open reads a zip's directory, a tar's first
// header) is searched as a file; one over the archive limits (entries,
// central directory, overlapping entries) is still an archive target,
// which the search counts as too large. An entry naming a member, a
// directory or a glob inside an archive is left out and listed in
// BadMembers when the member is binary, not UTF-8 or too large, when the
// archive is over a limit (SkipTooLarge, Why saying which), and when the
// archive or the member cannot be read (SkipError, unreadable: not a
// valid zip, tar or gzip stream, corrupt, truncated, an encrypted member,
// an unknown compression, a link). When no target remains and some entry
// is such a member, the result is the UNSUPPORTED error "Cannot search
// archive member(s): bad.zip:src/x.txt (not a valid zip file). Search
// supports text members only." Other failures stay errors: a permission or
// I/O error, an archive reached through a symlink out of the root, a
// member path with "..", a canceled search.
//
// An entry may end in a line selector, as a path given to Read does
// ("src/a.go:50-100", "a.zip:f.ts:5-16,960-973", "skill://x:5-9"; see
// SplitSelector): its target is then searched in those lines only
// (Target.Ranges). Such an entry must name one file, archive member or
// internal-URL resource: a glob, a directory or a whole archive is an
// INVALID_PARAM error, a missing path the NOT_FOUND error "Path not found
// for line-range selector: src/a.go" (even among other entries). A file
// that other entries ask for whole (named again without ranges, or held
// by a directory or glob entry, or an archive entry for a member) is
// searched whole; the ranges of several entries naming one file are
// joined.
func Resolve(ctx context.Context, fsys fs.FS, root string, entries []string, o ResolveOptions) (*Scope, error) {
	if len(entries) == 0 {
		entries = []string{"."}
	}
	if o.Registry != nil {
		if len(o.Lines) > 0 && len(entries) == 1 {
			if err := urlRanges(ctx, o.Registry, entries[0]); err != nil {
				return nil, err
			}
		}
		// A collection URL (omp://) stands for its resources.
		var err error
		if entries, err = o.Registry.Expand(ctx, entries); err != nil {
			return nil, err
		}
	}
	if len(o.Lines) > 0 && len(entries) != 1 {
		return nil, errs.New(errs.InvalidParam, "Line-range selector requires a single file: line ranges given for the whole search need one path; to restrict one of several paths, append its ranges to it, e.g. src/main.go:50-100")
	}
	sc := &Scope{}
	var why error // why the first missing entry is missing, when known
	seen := map[string]bool{}
	pre := preResolve(ctx, fsys, root, entries, o)
	dirs := pathutil.Dirs{}
	for i, e := range entries {
		if seen[e] {
			continue
		}
		seen[e] = true
		r := pre[i]
		if !r.done {
			r = resolveEntry(ctx, fsys, root, e, o, dirs)
		}
		switch {
		case r.err != nil:
			return nil, r.err
		case !r.found:
			if err := pathutil.ContainerOutside(fsys, root, e); err != nil {
				return nil, err
			}
			if len(sc.Missing) == 0 {
				why = r.why
			}
			sc.Missing = append(sc.Missing, e)
		case r.bad != nil:
			sc.BadMembers = append(sc.BadMembers, *r.bad)
		default:
			sc.Targets = append(sc.Targets, *r.t)
		}
	}
	if len(sc.Targets) == 0 && len(sc.BadMembers) == 0 {
		if len(sc.Missing) == 1 && why != nil {
			return nil, why
		}
		hint := ""
		for _, m := range sc.Missing {
			if hint = slashHint(fsys, root, m); hint != "" {
				break
			}
		}
		return nil, &errs.Error{Code: errs.NotFound, Path: strings.Join(sc.Missing, ", "),
			Message: "Path not found: " + fname.QuoteJoin(sc.Missing) + hint}
	}
	if len(sc.Targets) == 0 {
		return nil, errs.New(errs.Unsupported, "Cannot search archive member(s): %s. Search supports text members only.", joinMembers(sc.BadMembers))
	}
	sc.merge()
	return sc, nil
}

// merge makes one target of the entries that name one file (the first
// of them, where it was), and gives a target with line ranges what the
// whole scope asks of its file: every line when an entry names the file
// without ranges or another target holds it (a directory or glob, an
// archive or a directory inside one), else the ranges of every entry
// naming it.
func (s *Scope) merge() {
	at := map[string]int{} // the index of each file's target in out
	out := s.Targets[:0]
	for _, t := range s.Targets {
		i, ok := at[t.Path]
		switch {
		case t.Dir || t.Archive:
			out = append(out, t)
		case !ok:
			at[t.Path] = len(out)
			out = append(out, t)
		case out[i].Ranges == nil || t.Ranges == nil:
			out[i].Ranges = nil
		default:
			out[i].Ranges = slices.Concat(out[i].Ranges, t.Ranges)
		}
	}
	clear(s.Targets[len(out):])
	s.Targets = out
	for i := range s.Targets {
		if t := &s.Targets[i]; t.Ranges != nil && s.holds(t) {
			t.Ranges = nil
		}
	}
}

// holds reports whether a directory or archive target of the scope holds
// the file of target f: below the directory and matching its glob, or a
// member of the archive below its directory and matching its glob.
func (s *Scope) holds(f *Target) bool {
	if f.Virtual {
		return false
	}
	for _, d := range s.Targets {
		var rel string
		switch {
		case d.Dir && d.Path == ".":
			rel = f.Path
		case d.Dir && strings.HasPrefix(f.Path, d.Path+"/"):
			rel = f.Path[len(d.Path)+1:]
		case d.Archive && f.Mem && strings.HasPrefix(f.Path, d.Path+":"):
			rel = f.Path[len(d.Path)+1:]
			if d.Member != "" {
				if !strings.HasPrefix(rel, d.Member+"/") {
					continue
				}
				rel = rel[len(d.Member)+1:]
			}
		default:
			continue
		}
		if d.Glob.Match(rel) {
			return true
		}
	}
	return false
}

// resolved is the answer for one entry: its target, or the archive member
// it names that is left out (bad), or found false when its path does not
// exist (why says so, for a member an archive does not hold); done when it
// was given.
type resolved struct {
	t     *Target
	bad   *BadMember
	found bool
	err   error
	why   error
	done  bool
}

// preResolve resolves the entries of a long list on all processors, except
// internal URLs, whose resolvers are the host's. Each costs a stat per path
// element; a page of 400 files named one by one after a counting pass took
// 8 ms on one processor of a 16-core machine. The entries left undone are
// resolved in order by the caller.
func preResolve(ctx context.Context, fsys fs.FS, root string, entries []string, o ResolveOptions) []resolved {
	out := make([]resolved, len(entries))
	if len(entries) < 2*minPreResolve {
		return out
	}
	par.Range(len(entries), minPreResolve, func(lo, hi int) {
		dirs := pathutil.Dirs{} // the entries of a part share directories
		for i := lo; i < hi; i++ {
			if o.Registry == nil || !o.Registry.CanHandle(entries[i]) {
				out[i] = resolveEntry(ctx, fsys, root, entries[i], o, dirs)
			}
		}
	})
	return out
}

// minPreResolve is the fewest entries a processor resolves in preResolve
// (a variable for the tests, which compare with resolving in order).
var minPreResolve = 32

// resolveEntry resolves one entry, checking its path with dirs. An entry
// that does not exist as written and holds a name in Go's quoted form, as
// text shows a name that is not printable UTF-8 (fname.Unquote: a
// whole path, a name after '/', a member after ':', before a selector), is
// resolved unquoted, its quoted names taken literally (no glob), when
// that is found. Else the entry is read with the input rules of Read and
// Find (pathutil.Input: a trailing newline, file://, ~).
func resolveEntry(ctx context.Context, fsys fs.FS, root, entry string, o ResolveOptions, dirs pathutil.Dirs) resolved {
	exists := func(s string) bool { return dirs.Exists(fsys, root, s) }
	if u, ok := fname.Unquote(entry); ok && !exists(entry) {
		if ru := resolveAs(ctx, fsys, root, u, o, dirs, true); !missing(ru) {
			return ru
		}
	}
	return resolveAs(ctx, fsys, root, pathutil.Input(entry, exists), o, dirs, false)
}

// slashHint is the hint the not-found error of the entry e ends with:
// pathutil.SlashHint of its reading by the input rules, when the base of
// that reading with '/' for '\' exists.
func slashHint(fsys fs.FS, root, e string) string {
	return pathutil.SlashHint(pathutil.Normalize(e), func(s string) bool {
		base, _ := glob.SplitSearch(s)
		return pathutil.Dirs(nil).Exists(fsys, root, base)
	})
}

// missing reports whether r is the answer for an entry that does not
// exist.
func missing(r resolved) bool {
	return !r.found && r.err == nil || errs.CodeOf(r.err) == errs.NotFound
}

// resolveAs resolves one entry; literal takes its path as a name, not a
// glob (an unquoted entry).
func resolveAs(ctx context.Context, fsys fs.FS, root, entry string, o ResolveOptions, dirs pathutil.Dirs, literal bool) resolved {
	if entry == "" {
		return resolved{err: errs.New(errs.InvalidParam, "`paths` must contain non-empty paths or globs"), done: true}
	}
	if o.Registry != nil && o.Registry.CanHandle(entry) {
		return resolveURLEntry(ctx, fsys, root, entry, o)
	}
	base, sel, err := SplitSelector(fsys, root, entry, dirs)
	if err != nil {
		return failed(err)
	}
	if sel.IsZero() {
		return withRanges(fsys, root, resolveFile(ctx, fsys, root, entry, o, dirs, literal), entry, o.Lines)
	}
	switch {
	case sel.Raw || sel.Conflicts:
		return failed(notRanges(base, sel))
	case len(o.Lines) > 0:
		return failed(twice(entry, base))
	}
	return withRanges(fsys, root, resolveFile(ctx, fsys, root, base, o, dirs, literal), base, ranges(sel))
}

// twice is the error of an entry with its own line selector in a request
// with line ranges for the whole search.
func twice(entry, base string) error {
	return errs.New(errs.InvalidParam, "Line ranges given twice: for the whole search and as the selector of '%s'; give them once, e.g. %s:50-100", errs.Echo(entry), errs.Echo(base))
}

// SplitSelector peels the line selector off a paths entry
// ("src/a.go:50-100", "a.zip:f.ts:5-9") with the one selector grammar (see
// internal/selector), unless the entry names an existing path as a whole
// (a file named "a:1-2"). An entry without one is returned whole with the
// zero Selector; a selector of the right form but invalid (":0", ":5-3")
// is its INVALID_PARAM error. dirs may be nil.
func SplitSelector(fsys fs.FS, root, entry string, dirs pathutil.Dirs) (string, selector.Selector, error) {
	if !strings.ContainsRune(entry, ':') {
		return entry, selector.Selector{}, nil
	}
	base, sel, ok, err := selector.Split(entry)
	if !ok && err == nil {
		return entry, selector.Selector{}, nil
	}
	if p, perr := pathutil.Resolve(root, entry); perr == nil {
		if _, serr := dirs.Stat(fsys, p); serr == nil || !errors.Is(serr, fs.ErrNotExist) {
			return entry, selector.Selector{}, nil
		}
	}
	if err != nil {
		return "", selector.Selector{}, err
	}
	return base, sel, nil
}

// ranges converts a selector's line ranges to grep's; nil when it has
// none.
func ranges(sel selector.Selector) [][2]int {
	var out [][2]int
	for _, r := range sel.Ranges {
		out = append(out, [2]int{r.Start, r.End})
	}
	return out
}

// notRanges is the error of a selector other than line ranges after the
// path base.
func notRanges(base string, sel selector.Selector) error {
	return errs.New(errs.InvalidParam, "Invalid selector ':%s' after '%s': a search path takes line ranges only, e.g. %s:50-100", sel.String(), errs.Echo(base), errs.Echo(base))
}

// withRanges gives the target of r, resolved from the entry named name,
// the line ranges rs (none when rs is nil), checking that it is one file:
// a glob, a directory or a whole archive is an INVALID_PARAM error, a
// missing path NOT_FOUND (ACCESS_DENIED when a container in it leads out
// of the root, as for a missing entry).
func withRanges(fsys fs.FS, root string, r resolved, name string, rs [][2]int) resolved {
	switch {
	case len(rs) == 0 || r.err != nil && errs.CodeOf(r.err) != errs.NotFound || r.bad != nil:
		return r
	case !r.found || r.err != nil:
		if err := pathutil.ContainerOutside(fsys, root, name); err != nil {
			return failed(err)
		}
		return failed(errs.New(errs.NotFound, "Path not found for line-range selector: %s%s", fname.Quote(name), slashHint(fsys, root, name)))
	}
	switch t := r.t; {
	case t.Glob != nil:
		return failed(errs.New(errs.InvalidParam, "Line-range selector requires a single file, not a glob: %s", fname.Quote(name)))
	case t.Dir:
		return failed(errs.New(errs.InvalidParam, "Line-range selector requires a single file: %s is a directory", fname.Quote(name)))
	case t.Archive && t.Member != "":
		return failed(errs.New(errs.InvalidParam, "Line-range selector requires a single file: %s is a directory in an archive; name one member, e.g. %s:%s/file:50-100", fname.Quote(name), fname.Quote(t.Path), errs.Echo(t.Member)))
	case t.Archive:
		return failed(errs.New(errs.InvalidParam, "Line-range selector requires a single file: %s is an archive; name one member, e.g. %s:path/in/archive:50-100", fname.Quote(name), fname.Quote(t.Path)))
	}
	r.t.Ranges = rs
	return r
}

// resolveURLEntry resolves an internal URL, with its line selector.
func resolveURLEntry(ctx context.Context, fsys fs.FS, root, entry string, o ResolveOptions) resolved {
	base, sel, _, err := selector.SplitInternal(entry)
	switch {
	case err != nil:
		return failed(err)
	case sel.Raw || sel.Conflicts:
		return failed(notRanges(base, sel))
	case len(sel.Ranges) > 0 && len(o.Lines) > 0:
		return failed(twice(entry, base))
	}
	rs := ranges(sel)
	if rs == nil {
		rs = o.Lines
	}
	if len(rs) > 0 {
		if err := urlRanges(ctx, o.Registry, base); err != nil {
			return failed(err)
		}
	}
	t, err := resolveURL(ctx, fsys, root, base, o.Registry)
	return withRanges(fsys, root, resolved{t: t, found: true, err: err, done: true}, base, rs)
}

// urlRanges checks that the internal URL e, given line ranges, names one
// resource: a collection (omp://docs, which stands for the documents
// below it) is an INVALID_PARAM error, as a directory is.
func urlRanges(ctx context.Context, reg *iurl.Registry, e string) error {
	if !reg.CanHandle(e) {
		return nil
	}
	urls, err := reg.Expand(ctx, []string{e})
	if err != nil || len(urls) == 1 && urls[0] == e {
		return nil // not a collection; resolving it reports any error
	}
	example := "a resource"
	if len(urls) > 0 {
		example = redact.Text(urls[0])
	}
	return errs.New(errs.InvalidParam, "Line-range selector requires a single file: %s is a directory; name one resource, e.g. %s:50-100", redact.Text(e), example)
}

// resolveFile resolves an entry without selector: an archive member, a
// file, a directory or a glob (not when literal).
func resolveFile(ctx context.Context, fsys fs.FS, root, entry string, o ResolveOptions, dirs pathutil.Dirs, literal bool) resolved {
	if strings.ContainsRune(entry, ':') {
		if r := resolveMember(ctx, fsys, root, entry, o.MaxMember, literal); r.done {
			if errs.CodeOf(r.err) == errs.NotFound {
				// A member that does not exist is missing, as a file is:
				// left out of a search that names other paths.
				return resolved{why: r.err, done: true}
			}
			return r
		}
	}
	t, found, err := resolvePath(ctx, fsys, root, entry, dirs, literal)
	return resolved{t: t, found: found, err: err, done: true}
}

// resolvePath resolves an entry that is a path or a glob (a path alone
// when literal). found is false when its path does not exist.
func resolvePath(ctx context.Context, fsys fs.FS, root, entry string, dirs pathutil.Dirs, literal bool) (t *Target, found bool, err error) {
	base, pattern := entry, ""
	if !literal {
		base, pattern = glob.SplitSearch(entry)
	}
	p, err := pathutil.Resolve(root, base)
	if err != nil {
		return nil, false, err
	}
	info, err := dirs.Stat(fsys, p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		return nil, false, statError(entry, err)
	}
	t = &Target{Entry: entry, Path: p, Mode: info.Mode().Type()}
	if pattern == "" && info.Mode().IsRegular() && archive.FormatOf(p) != archive.None {
		ok, err := isArchive(ctx, fsys, p)
		if err != nil {
			return nil, false, err
		}
		t.Archive = ok
		return t, true, nil
	}
	if pattern != "" {
		if !info.IsDir() {
			return nil, false, errs.New(errs.InvalidParam, "Cannot search '%s': '%s' is not a directory, so the glob after it matches nothing. Pass the file itself or a directory glob.", fname.Quote(entry), fname.Quote(base))
		}
		if t.Glob, err = glob.CompileFilesAs(pattern, entry); err != nil {
			return nil, false, err // named as the caller wrote it, not as rewritten ("**/[z-a]")
		}
	}
	t.Dir = info.IsDir()
	return t, true, nil
}

// resolveURL resolves an internal URL: a resource with a backing file is
// that file (without a tag when immutable); one without is searched in
// memory under its URL.
func resolveURL(ctx context.Context, fsys fs.FS, root, entry string, reg *iurl.Registry) (*Target, error) {
	if glob.HasMeta(entry) {
		return nil, errs.New(errs.InvalidParam, "Glob patterns are not supported for internal URLs: %s", errs.Echo(entry))
	}
	res, err := reg.Resolve(ctx, entry)
	if err != nil {
		return nil, err
	}
	if res.SourcePath == "" {
		// Shown under its URL, with the credentials it may hold redacted.
		return &Target{Entry: entry, Path: redact.Text(entry), Text: []byte(res.Text), Mem: true, Virtual: true}, nil
	}
	p, err := pathutil.Resolve(root, res.SourcePath)
	var info fs.FileInfo
	if err == nil {
		info, err = pathutil.Stat(fsys, p)
	}
	switch {
	case err != nil && res.Text != "":
		// As a read shows it: the resource's text when its backing file
		// cannot be read.
		return &Target{Entry: entry, Path: redact.Text(entry), Text: []byte(res.Text), Mem: true, Virtual: true}, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, errs.Wrap(errs.NotFound, err, "Cannot search %s: its backing file '%s' does not exist", errs.Echo(entry), errs.Echo(res.SourcePath))
	case err != nil && info == nil && p == "":
		return nil, err // the backing path is refused (outside the root, a NUL byte)
	case err != nil:
		return nil, statError(entry, err)
	}
	if info.IsDir() {
		return &Target{Entry: entry, Path: p, Dir: true, NoTag: res.Immutable}, nil
	}
	return &Target{Entry: entry, Path: p, Mode: info.Mode().Type(), NoTag: res.Immutable}, nil
}

// resolveMember resolves "a.zip:member", the member a glob unless
// literal. It is not done when entry names no archive file, so that it is
// read as an ordinary path.
func resolveMember(ctx context.Context, fsys fs.FS, root, entry string, maxMember int64, literal bool) resolved {
	// The member is checked before the entry is cleaned, which would fold
	// its ".." into the archive's own path.
	for _, c := range archive.Candidates(entry) {
		if _, ok := archive.Clean(c.Inner); ok {
			continue
		}
		if ap, err := pathutil.Resolve(root, c.Archive); err == nil {
			if st, err := pathutil.Stat(fsys, ap); err == nil && st.Mode().IsRegular() {
				return failed(errs.New(errs.InvalidParam, "Archive path '%s' contains '..'; paths inside an archive cannot leave it. Name a member, e.g. %s:src/main.go.", errs.Echo(c.Inner), errs.Echo(c.Archive)))
			}
		}
	}
	p, err := pathutil.Resolve(root, entry)
	if err != nil {
		return resolved{}
	}
	split, ok, err := archive.Resolve(fsys, p)
	if e := (*errs.Error)(nil); errors.As(err, &e) {
		return failed(err) // the archive leads outside the root, or through a loop
	}
	if err != nil || !ok {
		return resolved{}
	}
	inner, pattern := split.Inner, ""
	if !literal {
		inner, pattern = glob.SplitSearch(split.Inner)
	}
	t := &Target{Entry: entry, Path: split.Archive, Archive: true}
	if pattern != "" {
		if t.Glob, err = glob.CompileFilesAs(pattern, entry); err != nil {
			return failed(err)
		}
	}
	a, err := archive.Open(ctx, fsys, split.Archive, archive.Limits{})
	if err != nil {
		return unreadable(ctx, entry, err)
	}
	defer a.Close()
	if inner, _ = archive.Clean(inner); inner == "" {
		return target(t) // the whole archive, or a glob from its root
	}
	it, err := a.Lookup(ctx, inner)
	switch {
	case errs.CodeOf(err) == errs.NotFound:
		// Named as read names it: the whole entry, not the member alone.
		return failed(&errs.Error{Code: errs.NotFound, Path: entry, Err: err,
			Message: "Path '" + errs.Echo(entry) + "' not found inside archive"})
	case err != nil:
		return unreadable(ctx, entry, err)
	}
	defer it.Close()
	display := split.Archive + ":" + it.Path
	switch {
	case it.Dir:
		t.Member = it.Path
		return target(t)
	case pattern != "":
		return failed(errs.New(errs.InvalidParam, "Cannot search '%s': '%s' is a file inside the archive, so the glob after it matches nothing. Name the member itself or a directory glob.", errs.Echo(entry), errs.Echo(display)))
	case it.Binary:
		// Known from the member's head, without reading it all.
		return leftOut(badMember(display, notText(string(it.Head(archive.SniffBytes)))))
	}
	text, err := it.Text(maxMember)
	switch {
	case errs.CodeOf(err) == errs.TooLarge:
		return leftOut(BadMember{Path: display, Reason: SkipTooLarge})
	case err != nil:
		return unreadable(ctx, display, err)
	}
	if why := notText(text); why != "" {
		return leftOut(badMember(display, why))
	}
	return target(&Target{Entry: entry, Path: display, Text: []byte(text), Mem: true})
}

// target is the answer for an entry resolved to t.
func target(t *Target) resolved { return resolved{t: t, found: true, done: true} }

// failed is the answer for an entry whose resolution failed with err.
func failed(err error) resolved { return resolved{found: true, err: err, done: true} }

// leftOut is the answer for an archive member left out of the search.
func leftOut(b BadMember) resolved { return resolved{bad: &b, found: true, done: true} }

// isArchive reports whether the regular file p, named like an archive,
// opens as one. A file that is not a valid archive (a text file named
// x.zip or x.tar) is searched as a file; an archive over a limit is one, which the
// search counts as too large.
func isArchive(ctx context.Context, fsys fs.FS, p string) (bool, error) {
	a, err := archive.Open(ctx, fsys, p, archive.Limits{})
	switch {
	case err == nil:
		a.Close()
		return true, nil
	case ctx.Err() != nil:
		return false, err
	case errs.CodeOf(err) == errs.Unsupported:
		return false, nil
	case errs.CodeOf(err) == errs.TooLarge:
		return true, nil
	}
	return false, err
}

// unreadable is the answer for the entry named path whose archive or
// member failed with err: left out as unreadable (an UNSUPPORTED error:
// not a valid archive, corrupt, truncated, an encrypted member, a link) or
// too large (over a limit of the archive); else the failure is the
// entry's error.
func unreadable(ctx context.Context, path string, err error) resolved {
	reason := SkipError
	switch {
	case ctx.Err() != nil:
		return failed(err)
	case errs.CodeOf(err) == errs.TooLarge:
		reason = SkipTooLarge
	case errs.CodeOf(err) != errs.Unsupported:
		return failed(err)
	}
	// "Cannot read archive 'a.zip': not a valid zip file" is said of the
	// entry: "a.zip:src/x.txt (not a valid zip file)".
	b := BadMember{Path: path, Reason: reason, Why: archive.Why(err)}
	if reason == SkipError {
		b.Code = errs.Unsupported
	}
	return leftOut(b)
}

// badMember records a member that is not text; why is notText's answer.
func badMember(display, why string) BadMember {
	m := BadMember{Path: display, Reason: SkipBinary}
	if why != "binary" {
		m.Why = why
	}
	return m
}

// joinMembers lists members as "a (binary), b (too large)".
func joinMembers(ms []BadMember) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.String()
	}
	return strings.Join(parts, ", ")
}

// notText says why an archive member's bytes are not searchable text:
// "binary" (a NUL byte) or "not UTF-8"; "" when they are.
func notText(s string) string {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return "binary"
	case !utf8.ValidString(s):
		return "not UTF-8"
	}
	return ""
}

// statError turns a stat failure other than "does not exist" into a coded
// error naming the entry.
func statError(entry string, err error) error {
	var e *errs.Error
	if errors.As(err, &e) {
		return err
	}
	if errors.Is(err, syscall.ELOOP) {
		return errs.SymlinkLoop(entry, err)
	}
	if errors.Is(err, fsx.ErrOutsideRoot) { // the OS refused a symlink out of the root
		return errs.SymlinkOut(entry, err)
	}
	code := errs.CodeOf(err)
	if code == errs.NotFound {
		code = errs.Internal
	}
	return &errs.Error{Code: code, Path: entry, Err: err, Message: "Cannot search '" + fname.Quote(entry) + "': " + err.Error()}
}
