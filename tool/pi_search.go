package tool

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/pitext"
	"github.com/scoutkit/scout/internal/redact"
	"github.com/scoutkit/scout/internal/search"
	"github.com/scoutkit/scout/internal/selector"
)

func init() {
	define(Pi, "search", piSearchDescription, runPiSearch)
}

const piSearchDescription = `Search file contents with a regex across files, directories, globs, and internal URLs.

- pattern: the regex (RE2 syntax); literal braces need no escaping (interface{} works), other metacharacters do. A pattern with an unbalanced ( or ) is searched with every parenthesis literal (foo( finds "foo("), and the result says so; not in an internal URL without a backing file (omp://), where it is an invalid regex.
- paths: one path or an array: files, directories, globs (src/**/*.ts), archives (a.zip: its text members), archive members (a.zip:src/x.ts), directories or globs inside archives (a.zip:src/**/*.ts), internal URLs (omp://, no globs); "." for the project root. Add :50-100 to a single file to search only those lines.
- globs: * and ? stay within a directory, ** crosses directories, {a,b} alternatives, [abc], [!a] and [[:digit:]] classes.
- i: case-insensitive. gitignore: false also searches ignored files; node_modules is searched only when a path names it. Hidden files are always searched.
- Results come 20 files per page; pass skip=N (from the notice) for the next page.
Output: matches as *LINE:text, context as LINE:text; one file under a ¶path#TAG header, several files each under a # path#TAG heading (# path, with LINE|text lines, for a file without a tag such as an archive member).`

// piSearchArgs are the arguments of pi search.
type piSearchArgs struct {
	Pattern   string    `json:"pattern" required:"true" missing:"Pattern must not be empty" desc:"Regex pattern (RE2 syntax)"`
	Paths     oneOrMany "json:\"paths\" required:\"true\" missing:\"`paths` must contain non-empty paths or globs: pass at least one, e.g. {\\\"paths\\\": [\\\".\\\"]} for the project root.\" desc:\"File, directory, glob, archive (.zip, .tar, .tar.gz, .tgz), archive member or internal URL, or an array of those (\\\".\\\" for the project root). A single file may end in a line range such as :50-100.\""
	I         bool      `json:"i" default:"false" desc:"Case-insensitive search (default false)"`
	Gitignore bool      `json:"gitignore" default:"true" desc:"Respect .gitignore during directory scans (default true)"`
	Skip      float64   `json:"skip" default:"0" min:"0" invalid:"Skip must be a non-negative number" desc:"Number of matching files to skip: the page offset from the notice (default 0)"`
}

// piSearchData is the details object of pi search.
type piSearchData struct {
	ScopePath           string        `json:"scopePath"`
	MatchCount          int           `json:"matchCount"`
	FileCount           int           `json:"fileCount"`
	Files               []string      `json:"files"`
	FileMatches         []piFileCount `json:"fileMatches"`
	FileLimitReached    bool          `json:"fileLimitReached,omitempty"`
	PerFileLimitReached bool          `json:"perFileLimitReached,omitempty"`
	LinesTruncated      bool          `json:"linesTruncated,omitempty"`
	Truncated           bool          `json:"truncated"` // always present, as in pi
	MissingPaths        []string      `json:"missingPaths,omitempty"`
	// DisplayContent is the page's lines as a person reads them: each
	// line behind a gutter of its number ("*5│text" for a match, " 9│text"
	// for context), no tags; several files each under "# path". Left out
	// when nothing matched.
	DisplayContent string `json:"displayContent,omitempty"`
	// Skipped counts the files left out by reason (ignored, binary, too
	// large, ...), as pi find's data does; nil when none were.
	Skipped map[scout.SkipReason]int `json:"skipped,omitempty"`
	// SkippedPaths are the archive entries the paths named and the search
	// left out, with why (the text's "Skipped archive entries" note), then
	// samples of the unreadable files counted in Skipped; nil when none.
	SkippedPaths []scout.SkippedPath `json:"skippedPaths,omitempty"`
	// SplitEntries are the paths entries taken for several paths.
	SplitEntries []piSplit `json:"splitEntries,omitempty"`
	// PatternRewrite says how the pattern was changed before the search.
	PatternRewrite *piRewrite `json:"patternRewrite,omitempty"`
	// Meta says how the text was cut to 50 KB and that lines were cut at
	// 512 characters, as pi's details.meta does.
	Meta *piMeta `json:"meta,omitempty"`
}

// piRewrite is a pattern pi repairs before searching: From as given, To
// as searched, and why.
type piRewrite struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Reason string `json:"reason"`
}

type piFileCount struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

func runPiSearch(ctx context.Context, c *Config, in *piSearchArgs) (*scout.Envelope, error) {
	pattern := strings.TrimSpace(in.Pattern)
	if pattern == "" {
		return nil, errs.New(errs.InvalidParam, "Pattern must not be empty")
	}
	skip := int(math.Min(math.Floor(in.Skip), math.MaxInt32))

	fsys, ws, release, err := c.open()
	if err != nil {
		return nil, err
	}
	defer release()
	root := searchRoot(c)
	paths, names, lines, splits, err := piSearchPaths(fsys, root, c.Resolvers, in.Paths)
	if err != nil {
		return nil, err
	}
	searched, rewrite := piPattern(pattern)
	unrepaired := false
	if rewrite != nil && piVirtual(ctx, c.Resolvers, names) {
		// pi searches a resource without a backing file with another
		// regex engine, which has no parenthesis repair: the pattern is
		// refused as the invalid regex it is.
		searched, rewrite, unrepaired = literalDollars(grep.SanitizeBraces(pattern)), nil, true
	}

	s := c.searcher(ws)
	prune := pitext.PruneNodeModules(paths)
	req := scout.SearchRequest{
		Pattern:    searched,
		Paths:      paths,
		Lines:      lines,
		IgnoreCase: in.I,
		Multiline:  strings.Contains(pattern, "\n") || strings.Contains(pattern, `\n`),
		Before:     pitext.SearchContext(c.ContextBefore, pitext.ContextBefore),
		After:      pitext.SearchContext(c.ContextAfter, pitext.ContextAfter),
		Hidden:     true,
		NoIgnore:   !in.Gitignore,
		PruneDirs:  prune,
		Skip:       skip,
		Tags:       c.hashline(),
		MaxColumns: piAskColumns,
	}
	res, err := s.Search(ctx, req)
	if e, ok := errors.AsType[*scout.Error](err); ok && unrepaired && e.Code == scout.CodeInvalidParam {
		return nil, errs.New(errs.InvalidParam, "%s; an internal URL without a backing file is searched with the pattern as written (unbalanced parentheses are not escaped for it): write a literal parenthesis as \\( or \\)", e.Message)
	}
	if err != nil {
		return nil, piMissingBase(err, fsys, root, names)
	}
	piTrimCut(ctx, s, res)
	scope := piSearchScope(root, names, paths, res.MissingPaths)
	notes := splitNotes(splits)
	if rewrite != nil {
		// Echoed as the arguments are: a URL's credentials redacted.
		rewrite.From, rewrite.To = redact.Text(rewrite.From), redact.Text(rewrite.To)
		notes = append(notes, fmt.Sprintf("Note: `%s` searched as `%s`: %s, so every parenthesis matches literally", rewrite.From, rewrite.To, rewrite.Reason))
	}
	text, cut := pitext.Search(res, &pitext.SearchOptions{
		Style:       pitext.SearchStyle(c.Style),
		IgnoredHint: ignoredHint(in.Gitignore, prune != nil, "gitignored files", "a path"),
		Paths:       gitSearchPaths(fsys, root, paths, res.Skipped),
		Notes:       notes,
	})
	d := piSearchData{
		ScopePath:           redact.Text(scope), // as the path resolved shows it
		MatchCount:          res.MatchLines(),
		FileCount:           len(res.Files),
		Files:               []string{},
		FileMatches:         []piFileCount{},
		FileLimitReached:    res.NextSkip > 0,
		PerFileLimitReached: res.Limited(),
		LinesTruncated:      res.LinesCut(),
		Truncated:           cut != nil || res.Truncated == scout.TruncBudget || res.Truncated == scout.TruncMatches,
		MissingPaths:        res.MissingPaths,
		DisplayContent:      searchDisplay(res),
		Skipped:             res.Skipped,
		SkippedPaths:        wireSkipped(res.SkippedPaths),
		SplitEntries:        splits,
		PatternRewrite:      rewrite,
		Meta:                searchMeta(cut, res),
	}
	for _, f := range res.Files {
		d.Files = append(d.Files, wire(f.Path))
		d.FileMatches = append(d.FileMatches, piFileCount{wire(f.Path), f.MatchLines})
	}
	partial := d.FileLimitReached || d.PerFileLimitReached || d.LinesTruncated || d.Truncated
	env := okEnvelope(partial, d, text)
	env.Stats = scout.Stats{Matched: d.MatchCount, Files: res.Searched, Skipped: res.SkippedTotal()}
	env.Context.PathResolved = scope
	env.Context.PatternNormalized = req.Pattern
	env.Context.Backend = res.Backend
	return env, nil
}

// The column caps of pi search: a line is shown trimmed of its trailing
// white space and then cut to piMaxColumns characters. The search cuts
// at piAskColumns, so that white space just past piMaxColumns is seen.
const (
	piMaxColumns = scout.DefaultMaxColumns
	piAskColumns = 2 * piMaxColumns
)

// piTrimCut trims each line of res of its trailing white space and then
// cuts it to piMaxColumns characters (Cut set, spans clipped), as pi does:
// a line whose part past the cap is white space only is not cut. The
// lines the search cut at piAskColumns whose text past piMaxColumns is
// all white space are read whole (piWholeLines, once per file) to tell;
// one that cannot be stays cut.
func piTrimCut(ctx context.Context, s *scout.Searcher, res *scout.SearchResult) {
	if res.Mode != scout.SearchContent {
		return
	}
	res.MaxColumns = piMaxColumns
	for i := range res.Files {
		f := &res.Files[i]
		var unsure []scout.Range // the lines whose cut white space decides
		for _, l := range f.Lines {
			if _, over := runeEnd(strings.TrimRightFunc(l.Text, unicode.IsSpace), piMaxColumns); l.Cut && !over {
				unsure = append(unsure, scout.Range{Start: l.Line, End: l.Line})
			}
		}
		whole := piWholeLines(ctx, s, f.Path, unsure)
		for j := range f.Lines {
			l := &f.Lines[j]
			text := l.Text
			if w, ok := whole[l.Line]; ok || !l.Cut {
				if ok {
					text = w
				}
				text = strings.TrimRightFunc(text, unicode.IsSpace)
			}
			end, over := runeEnd(text, piMaxColumns)
			l.Text, l.Cut = text[:end], over
			l.Spans = clipSpans(l.Spans, end)
		}
	}
}

// runeEnd returns the byte offset in s where its first n characters end
// (len(s) when it has no more); over reports that it has more.
func runeEnd(s string, n int) (end int, over bool) {
	for i := range s {
		if n == 0 {
			return i, true
		}
		n--
	}
	return len(s), false
}

// clipSpans clips spans to a text cut at end, as the search clips spans
// to its cut: a span starting past it is dropped (so is a non-empty one
// starting at it), and one running past it ends there.
func clipSpans(spans []scout.Span, end int) []scout.Span {
	out := spans[:0]
	for _, sp := range spans {
		if sp.Start > end || sp.Start == end && sp.End > sp.Start {
			continue
		}
		sp.End = min(sp.End, end)
		out = append(out, sp)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// piWholeLines returns the lines of the file at path in lines (ranges of
// one line each), uncut, by number, as a search shows them (without
// their terminators). A line it cannot read whole, longer than a search
// shows whole or the file gone, is left out.
func piWholeLines(ctx context.Context, s *scout.Searcher, path string, lines []scout.Range) map[int]string {
	if len(lines) == 0 {
		return nil
	}
	res, err := s.Search(ctx, scout.SearchRequest{
		Pattern:           "^",
		Paths:             []string{path},
		Lines:             lines,
		Hidden:            true,
		NoIgnore:          true,
		MaxColumns:        -1,
		MaxMatchesPerFile: -1,
		MaxMatches:        -1,
	})
	if err != nil || len(res.Files) != 1 {
		return nil
	}
	out := make(map[int]string, len(lines))
	for _, l := range res.Files[0].Lines {
		if !l.Cut {
			out[l.Line] = l.Text
		}
	}
	return out
}

// searchDisplay renders pi search's details.displayContent: each file's
// lines behind a gutter as wide as its largest line number plus one, the
// mark and the number right-aligned in it ("*5│text", " 9│text",
// "*12│text"), a gutter of blanks before "..." where numbers jump; with
// several files each section under "# path", separated by a blank line.
// "" when no line matched.
func searchDisplay(res *scout.SearchResult) string {
	if res.Mode != scout.SearchContent {
		return ""
	}
	var b strings.Builder
	single := res.Single && len(res.Files) == 1
	for i := range res.Files {
		f := &res.Files[i]
		if len(f.Lines) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if !single {
			b.WriteString("# " + fname.Quote(f.Path) + "\n")
		}
		width := 0
		for _, l := range f.Lines {
			width = max(width, len(strconv.Itoa(l.Line)))
		}
		prev := 0
		for j, l := range f.Lines {
			if j > 0 {
				b.WriteByte('\n')
			}
			if prev > 0 && l.Line > prev+1 {
				b.WriteString(strings.Repeat(" ", width+1) + "│...\n")
			}
			prev = l.Line
			gutter := strconv.Itoa(l.Line)
			if l.Match {
				gutter = "*" + gutter
			}
			b.WriteString(strings.Repeat(" ", width+1-len(gutter)) + gutter + "│")
			if l.Cut {
				b.WriteString(l.Text + "…") // white space at the cut is inside the line: kept
			} else {
				b.WriteString(strings.TrimRightFunc(l.Text, unicode.IsSpace))
			}
		}
	}
	return b.String()
}

// wireSkipped returns skipped with their paths and messages (which may
// quote a name) as the data carries names: skipped itself when all are
// valid UTF-8.
func wireSkipped(skipped []scout.SkippedPath) []scout.SkippedPath {
	return wireEach(wireEach(skipped, func(s *scout.SkippedPath) *string { return &s.Path }),
		func(s *scout.SkippedPath) *string { return &s.Message })
}

// searchMeta is pi search's details.meta: the head truncation of the text
// and the column cap, or nil when neither applied.
func searchMeta(cut *pitext.Cut, res *scout.SearchResult) *piMeta {
	m := piMeta{Truncation: headCut(cut)}
	if res.LinesCut() {
		m.Limits = &piMetaLimits{ColumnTruncated: &piMaxColumn{MaxColumn: res.MaxColumns}}
	}
	if m == (piMeta{}) {
		return nil
	}
	return &m
}

// piPattern applies pi's pattern repairs: braces that cannot start a
// repetition are escaped, and when the result has an unclosed or unopened
// group every unescaped parenthesis is escaped (one retry), which rewrite
// then reports (nil otherwise). A pattern that is still invalid is left
// for the search to report.
func piPattern(pattern string) (searched string, rewrite *piRewrite) {
	p := literalDollars(grep.SanitizeBraces(pattern))
	if _, err := grep.Parse(p, syntax.Perl); err != nil && grep.IsGroupError(err) {
		p = grep.EscapeParens(p)
		return p, &piRewrite{From: pattern, To: p, Reason: "unbalanced parenthesis"}
	}
	return p, nil
}

// piVirtual reports whether one of names (the paths entries without
// their selectors) is an internal URL searched in memory: a resource
// without a backing file, as the built-in omp:// documents are.
func piVirtual(ctx context.Context, resolvers map[string]scout.Resolver, names []string) bool {
	for _, n := range names {
		scheme, _, ok := strings.Cut(n, "://")
		if !ok {
			continue
		}
		r, ok := resolvers[strings.ToLower(scheme)]
		if !ok {
			if iurl.Builtin(scheme) {
				return true
			}
			continue
		}
		if res, err := r.Resolve(ctx, n); err == nil && res != nil && res.SourcePath == "" {
			return true
		}
	}
	return false
}

// literalDollars escapes each unescaped '$' right before an escaped '{'
// of pattern: "$\{" cannot match (the end of a line, then a character),
// so a template such as ${platform} is searched as the text it is: pi
// promises such patterns "become searchable instead of failing".
func literalDollars(pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '\\' && i+1 < len(pattern):
			b.WriteString(pattern[i : i+2])
			i++
		case c == '$' && strings.HasPrefix(pattern[i+1:], `\{`):
			b.WriteString(`\$`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// piSearchPaths normalises the paths entries, peels their line-range
// selectors and returns them with their names (each path without its
// selector, for piSearchScope) and the entries taken for several paths.
// One entry is returned with its ranges as lines; several keep theirs as
// selectors, in canonical form. No entries means the root.
func piSearchPaths(fsys fs.FS, root string, resolvers map[string]scout.Resolver, entries []string) (paths, names []string, lines []scout.Range, splits []piSplit, err error) {
	if len(entries) == 0 {
		return nil, []string{"."}, nil, nil, nil
	}
	var out []piEntry
	searchBase := func(part string) string {
		base, _ := glob.SplitSearch(part)
		return base
	}
	for _, raw := range entries {
		e, asIs := piEntryPath(fsys, root, raw, resolvers, searchBase)
		if e == "" {
			return nil, nil, nil, nil, errs.New(errs.InvalidParam, "`paths` must contain non-empty paths or globs")
		}
		var sel selector.Selector
		if isInternalURL(e, resolvers) {
			e, sel, _, err = selector.SplitInternal(e)
		} else {
			if !asIs {
				e = strings.ReplaceAll(e, `\`, "/")
			}
			e, sel, err = search.SplitSelector(fsys, root, e, nil)
		}
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if sel.Raw || sel.Conflicts {
			return nil, nil, nil, nil, errs.New(errs.InvalidParam, `paths entry %q — only line-range selectors like ":50-100" are supported (no ":raw"/":conflicts")`, raw)
		}
		if isInternalURL(e, resolvers) || len(sel.Ranges) > 0 || asIs {
			out = append(out, piEntry{e, sel.Ranges})
			continue
		}
		if err := rejectCommaJoined(fsys, root, e, pathutil.Normalize(raw)); err != nil {
			return nil, nil, nil, nil, err
		}
		parts := splitEntry(fsys, root, e, searchBase)
		if len(parts) > 1 {
			splits = append(splits, piSplit{Entry: e, Paths: parts})
		}
		for _, p := range parts {
			out = append(out, piEntry{path: p})
		}
	}
	out = dedupe(out)
	if len(out) == 1 {
		for _, r := range out[0].ranges {
			lines = append(lines, scout.Range{Start: r.Start, End: r.End})
		}
		return []string{out[0].path}, []string{out[0].path}, lines, splits, nil
	}
	names = make([]string, len(out))
	paths = make([]string, len(out))
	for i, e := range out {
		names[i], paths[i] = e.path, e.path
		if e.ranges != nil {
			paths[i] += ":" + selector.Selector{Ranges: e.ranges}.String()
		}
	}
	return paths, names, nil, splits, nil
}

// piSearchScope is pi's scopePath: the scopeItems of the entries, joined
// with ", ", or the one that remains as searchScope shows it.
func piSearchScope(root string, names, paths, missing []string) string {
	kept := scopeItems(root, names, paths, missing)
	if len(kept) == 1 {
		return searchScope(root, kept[0])
	}
	return strings.Join(kept, ", ")
}

// scopeItems are the entries (names) that exist (paths[i] is not among
// missing, the entries the call did not find; pi leaves them out before
// it resolves the scope), each path once (the first spelling); of
// several, each as searchScope shows it with the trailing '/' it was given
// (pi's toScopeDisplay).
func scopeItems(root string, names, paths, missing []string) []string {
	var kept, seen []string
	for i, n := range names {
		if slices.Contains(missing, paths[i]) {
			continue
		}
		if len(names) > 1 {
			n = searchScope(root, n)
		}
		if slices.Contains(seen, n) {
			continue
		}
		seen = append(seen, n)
		if len(names) > 1 && strings.HasSuffix(names[i], "/") && n != "." && !strings.HasSuffix(n, "/") {
			n += "/"
		}
		kept = append(kept, n)
	}
	return kept
}

// piEntryPath reads a paths entry that holds a name in Go's quoted form
// (fname.Unquote), as text shows a name that is not printable UTF-8:
// as written when it names an existing path, else as pi reads it
// (pathutil.Normalize drops a pair of quotes around it; '\' is a
// separator) when its quotes are only that pair (so "a,b" is a
// comma-joined entry) or that reading names an existing path or an
// internal URL, else as written for the search to unquote. asIs says the
// entry is to be searched as written: no '\' separators, no delimited
// paths. Any other entry is read as pi reads it.
func piEntryPath(fsys fs.FS, root, raw string, resolvers map[string]scout.Resolver, base func(string) string) (e string, asIs bool) {
	n := pathutil.Normalize(raw)
	given := strings.TrimSpace(raw)
	unq, ok := fname.Unquote(given)
	if !ok || isInternalURL(n, resolvers) {
		return n, false
	}
	if entryExists(fsys, root, given) {
		return given, true
	}
	if unq == n {
		return n, false
	}
	if p, _, err := search.SplitSelector(fsys, root, strings.ReplaceAll(n, `\`, "/"), nil); err == nil && entryExists(fsys, root, base(p)) {
		return n, false
	}
	return given, true
}

// piEntry is a paths entry: the path and the line ranges its selector
// gave (nil: every line).
type piEntry struct {
	path   string
	ranges []selector.Range
}

// dedupe merges repeated paths, keeping the first of each where it was
// (pi dedupes the paths before it builds the scope): the ranges of a path
// given several times are joined, and a path given once without ranges
// is searched whole.
func dedupe(entries []piEntry) []piEntry {
	at := make(map[string]int, len(entries))
	out := entries[:0]
	for _, e := range entries {
		i, ok := at[e.path]
		switch {
		case !ok:
			at[e.path] = len(out)
			out = append(out, e)
		case out[i].ranges == nil || e.ranges == nil:
			out[i].ranges = nil
		default:
			out[i].ranges = selector.Merge(slices.Concat(out[i].ranges, e.ranges))
		}
	}
	return out
}

// isInternalURL reports whether e is an internal URL the host can resolve,
// or one of the built-in omp:// (Scout's documentation).
func isInternalURL(e string, resolvers map[string]scout.Resolver) bool {
	scheme, _, ok := strings.Cut(e, "://")
	if !ok {
		return false
	}
	_, ok = resolvers[strings.ToLower(scheme)]
	return ok || iurl.Builtin(scheme)
}

// piMissingBase is pi's error for a lone glob entry whose base directory
// does not exist: "Path not found" names the base ("src" for src/*.ts),
// as pi's scope does and find's error does. err is returned as it is when
// it is another error, or names (the entries, see piSearchPaths) are
// several or no such glob.
func piMissingBase(err error, fsys fs.FS, root string, names []string) error {
	e, ok := errors.AsType[*scout.Error](err)
	if len(names) != 1 || !glob.HasMeta(names[0]) || !ok || e.Code != scout.CodeNotFound || e.Path != names[0] {
		return err
	}
	base, _ := glob.SplitSearch(names[0])
	if base == "" || entryExists(fsys, root, base) {
		return err
	}
	return piNotFound(searchScope(root, base))
}

// piNotFound is pi search's and pi find's error for a path p that does not
// exist.
func piNotFound(p string) error {
	return &scout.Error{Code: scout.CodeNotFound, Path: p, Message: "Path not found: " + fname.Quote(p)}
}

// searchScope is pi's formatPathRelativeToCwd for one entry (a path, a
// glob): relative to the root and cleaned, "." for the root itself, no
// trailing '/'; an internal URL, or an entry that does not resolve, as
// given.
func searchScope(root, e string) string {
	if strings.Contains(e, "://") {
		return e
	}
	p, err := pathutil.Resolve(root, e)
	if err != nil {
		return e
	}
	return pathutil.Display(p)
}

// resolveArg resolves a path argument of the amplifier and standardized
// tools (see argEntry; relative to the root, or absolute inside it) to an
// io/fs path, or an ACCESS_DENIED error when it leaves the root.
func resolveArg(c *Config, p string) (string, error) {
	e, quoted := argEntry(c, p)
	if quoted {
		e, _ = fname.Unquote(e)
	}
	return pathutil.Resolve(searchRoot(c), e)
}

// argEntry reads a path argument of the amplifier and standardized tools
// with argPath, unless the argument as written names an existing path
// which argPath would change (" src " or "~" naming a directory of that
// name), or it holds a name in Go's quoted form (fname.Unquote), as text
// shows a name that is not printable UTF-8: such an argument is taken as
// written when it names an existing path (trimmed of white space when
// quoted), else as argPath reads it when that names one, else as a quoted
// name, which quoted reports: e is then the argument as written, to be
// unquoted.
func argEntry(c *Config, p string) (e string, quoted bool) {
	n := argPath(p)
	given := strings.TrimSpace(p)
	_, isQuoted := fname.Unquote(given)
	if !isQuoted && n == p {
		return n, false
	}
	fsys, _, release, err := c.open()
	if err != nil {
		return n, false
	}
	defer release()
	root := searchRoot(c)
	switch {
	case n != p && entryExists(fsys, root, p):
		return p, false
	case !isQuoted:
		return n, false
	case entryExists(fsys, root, given):
		return given, false
	case entryExists(fsys, root, n):
		return n, false
	}
	return given, true
}

// argPath is the one rule for the path arguments of the amplifier and
// standardized tools: pathutil.Normalize ("~/" is the home directory,
// quotes and a leading '@' dropped) and '\' as a separator.
func argPath(p string) string {
	return strings.ReplaceAll(pathutil.Normalize(p), `\`, "/")
}

// searchRoot returns the absolute OS directory of the project root, the one
// absolute input paths are resolved against: Root (made absolute), or the
// current directory when Root is "" and FS is nil. "" when there is none.
func searchRoot(c *Config) string {
	dir := c.Root
	if dir == "" {
		if c.FS != nil {
			return ""
		}
		wd, err := os.Getwd()
		if err != nil {
			return ""
		}
		dir = wd
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}
