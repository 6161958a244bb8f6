package tool

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp/syntax"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/pathutil"
)

func init() {
	register(&Tool{
		Toolset:     Pi,
		Name:        "search",
		Description: piSearchDescription,
		Schema:      mustSchema(piSearchSchema),
		run:         runPiSearch,
	})
}

const piSearchDescription = `Search file contents with a regex (RE2 syntax) across files, directories, globs and archive members.

- pattern: the regex; literal braces need no escaping (interface{} works), other metacharacters do.
- paths: one path or an array: files, directories, globs (src/**/*.ts), archive members (a.zip:src/x.ts). Omitted = the project root. Add :50-100 to a single file to search only those lines.
- i: case-insensitive. gitignore: false also searches ignored files. Hidden files are always searched.
- Results come 20 files per page; pass skip=N (from the notice) for the next page.
Output: matches as *LINE:text, context as  LINE:text, grouped under # dir/ and ## file#TAG headings.`

const piSearchSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "description": "Regex pattern (RE2 syntax)"},
    "paths": {
      "anyOf": [
        {"type": "string"},
        {"type": "array", "items": {"type": "string"}}
      ],
      "description": "File, directory, glob or archive member, or an array of those; omitted means the project root. A single file may end in a line range such as :50-100."
    },
    "i": {"type": "boolean", "description": "Case-insensitive search (default false)"},
    "gitignore": {"type": "boolean", "description": "Respect .gitignore during directory scans (default true)"},
    "skip": {"type": "number", "description": "Number of matching files to skip: the page offset from the notice (default 0)"}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

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
	Truncated           bool          `json:"truncated,omitempty"`
	MissingPaths        []string      `json:"missingPaths,omitempty"`
}

type piFileCount struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

func runPiSearch(ctx context.Context, c *Config, a *args) (*scout.Envelope, error) {
	pattern, _, err := a.str("pattern")
	if err != nil {
		return nil, err
	}
	entries, _, err := a.strOrStrs("paths")
	if err != nil {
		return nil, err
	}
	ignoreCase, err := a.boolean("i", false)
	if err != nil {
		return nil, err
	}
	gitignore, err := a.boolean("gitignore", true)
	if err != nil {
		return nil, err
	}
	skipF, _, err := a.number("skip")
	if err != nil {
		return nil, err
	}
	if err := a.done("pattern", "paths", "i", "gitignore", "skip"); err != nil {
		return nil, err
	}
	pattern = strings.TrimSpace(pattern)
	if pattern == "" {
		return nil, errs.New(errs.InvalidParam, "Pattern must not be empty")
	}
	if skipF < 0 {
		return nil, errs.New(errs.InvalidParam, "Skip must be a non-negative number")
	}
	skip := int(math.Min(math.Floor(skipF), math.MaxInt32))

	ws := c.workspace()
	fsys, release, err := ws.OpenFS()
	if err != nil {
		return nil, err
	}
	defer release()
	paths, lines, scope, err := piSearchPaths(fsys, searchRoot(c), c.Searcher.Resolvers, entries)
	if err != nil {
		return nil, err
	}

	s := c.Searcher
	s.Workspace = ws
	req := scout.SearchRequest{
		Pattern:    piPattern(pattern),
		Paths:      paths,
		Lines:      lines,
		IgnoreCase: ignoreCase,
		Multiline:  strings.Contains(pattern, "\n") || strings.Contains(pattern, `\n`),
		Before:     searchContext(c.ContextBefore, 1),
		After:      searchContext(c.ContextAfter, 3),
		Hidden:     true,
		NoIgnore:   !gitignore,
		PruneDirs:  pruneNodeModules(paths),
		Skip:       skip,
		Tags:       c.hashline(),
	}
	res, err := s.Search(ctx, req)
	if err != nil {
		return nil, err
	}
	text, cut := format.SearchText(res, &format.SearchOptions{
		Plain:       !c.hashline(),
		IgnoredHint: "pass gitignore: false to search them",
	})
	d := piSearchData{
		ScopePath:           scope,
		MatchCount:          res.MatchLines(),
		FileCount:           len(res.Files),
		Files:               []string{},
		FileMatches:         []piFileCount{},
		FileLimitReached:    res.NextSkip > 0,
		PerFileLimitReached: res.Limited(),
		LinesTruncated:      res.LinesCut(),
		Truncated:           cut || res.Truncated == scout.TruncBudget || res.Truncated == scout.TruncMatches,
		MissingPaths:        res.MissingPaths,
	}
	for _, f := range res.Files {
		d.Files = append(d.Files, f.Path)
		d.FileMatches = append(d.FileMatches, piFileCount{f.Path, f.MatchLines})
	}
	partial := d.FileLimitReached || d.PerFileLimitReached || d.LinesTruncated || d.Truncated
	env := okEnvelope(partial, d, text)
	env.Stats = scout.Stats{Matched: d.MatchCount, Files: res.Searched, Skipped: res.SkippedTotal()}
	env.Context.PathResolved = scope
	env.Context.PatternNormalized = req.Pattern
	return env, nil
}

// piPattern applies pi's pattern repairs: braces that cannot start a
// repetition are escaped, and when the result has an unclosed or unopened
// group every unescaped parenthesis is escaped (one retry). A pattern that
// is still invalid is left for the search to report.
func piPattern(p string) string {
	p = grep.SanitizeBraces(p)
	if _, err := syntax.Parse(p, syntax.Perl); err != nil && grep.IsGroupError(err) {
		return grep.EscapeParens(p)
	}
	return p
}

// searchContext resolves a host context setting: 0 means def, negative none.
func searchContext(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// piSearchPaths normalises the paths entries, peels a line-range selector
// (allowed on one entry only) and returns them with the scope path shown
// to the model.
func piSearchPaths(fsys fs.FS, root string, resolvers map[string]scout.Resolver, entries []string) ([]string, []scout.Range, string, error) {
	if len(entries) == 0 {
		return nil, nil, ".", nil
	}
	out := make([]string, 0, len(entries))
	var lines []scout.Range
	for _, raw := range entries {
		e := pathutil.Normalize(raw)
		if e == "" {
			return nil, nil, "", errs.New(errs.InvalidParam, "`paths` must contain non-empty paths or globs")
		}
		var ranges []scout.Range
		var err error
		if isInternalURL(e, resolvers) {
			e, ranges, err = urlSelector(raw, e)
		} else {
			e = strings.ReplaceAll(e, `\`, "/")
			e, ranges, err = pathSelector(fsys, root, raw, e)
		}
		if err != nil {
			return nil, nil, "", err
		}
		if len(ranges) > 0 {
			if len(entries) > 1 {
				return nil, nil, "", errs.New(errs.InvalidParam, "Line-range selector requires a single file: %q is one of %d paths; search it alone to use :%s", raw, len(entries), strings.TrimPrefix(raw, e+":"))
			}
			lines = ranges
		}
		if isInternalURL(e, resolvers) || len(ranges) > 0 {
			out = append(out, e)
			continue
		}
		if pathutil.HasTopLevelComma(e) && !searchEntryExists(fsys, root, e) {
			return nil, nil, "", errs.New(errs.InvalidParam, `paths is an array — pass ["a", "b"] not ["a,b"]: split %q into separate entries`, raw)
		}
		// Several paths in one entry, joined by ';' or white space, are
		// recovered when they exist (pi's delimited-entry recovery).
		out = append(out, pathutil.SplitDelimited(e, func(part string) bool {
			base, _ := glob.SplitSearch(part)
			return searchEntryExists(fsys, root, base)
		})...)
	}
	if len(out) == 1 {
		return out, lines, searchScope(root, out[0]), nil
	}
	return out, lines, strings.Join(out, ", "), nil
}

// pathSelector peels a ":50-100" selector off a path entry, unless the
// whole entry names an existing path.
func pathSelector(fsys fs.FS, root, raw, e string) (string, []scout.Range, error) {
	if searchEntryExists(fsys, root, e) {
		return e, nil, nil
	}
	p, sel, ok, err := scout.SplitPathSelector(e)
	if err != nil || !ok {
		return e, nil, err
	}
	if sel.Raw || sel.Conflicts {
		return "", nil, errs.New(errs.InvalidParam, `paths entry %q — only line-range selectors like ":50-100" are supported (no ":raw"/":conflicts")`, raw)
	}
	return p, sel.Ranges, nil
}

// urlSelector peels line selectors off an internal URL.
func urlSelector(raw, e string) (string, []scout.Range, error) {
	base, sel, err := iurl.SplitSelector(e)
	if err != nil {
		return "", nil, err
	}
	if sel.Raw {
		return "", nil, errs.New(errs.InvalidParam, `paths entry %q — only line-range selectors like ":50-100" are supported (no ":raw"/":conflicts")`, raw)
	}
	var out []scout.Range
	for _, r := range sel.Ranges {
		out = append(out, scout.Range{Start: r.Start, End: r.End})
	}
	return base, out, nil
}

// isInternalURL reports whether e is an internal URL the host can resolve.
func isInternalURL(e string, resolvers map[string]scout.Resolver) bool {
	scheme, _, ok := strings.Cut(e, "://")
	if !ok {
		return false
	}
	_, ok = resolvers[strings.ToLower(scheme)]
	return ok
}

// searchScope is pi's formatPathRelativeToCwd for one entry: relative to
// the root, "." for the root itself, no trailing '/'.
func searchScope(root, e string) string {
	if glob.HasMeta(e) {
		return e
	}
	p, err := pathutil.Resolve(root, e)
	if err != nil {
		return e
	}
	return pathutil.Display(p)
}

// searchEntryExists reports whether the entry names an existing path.
func searchEntryExists(fsys fs.FS, root, e string) bool {
	p, err := pathutil.Resolve(root, e)
	if err != nil {
		return false
	}
	_, err = fs.Stat(fsys, p)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
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

// pruneNodeModules returns the directories pi search never enters:
// node_modules, unless an entry names it.
func pruneNodeModules(entries []string) []string {
	for _, e := range entries {
		if strings.Contains(e, "node_modules") {
			return nil
		}
	}
	return []string{"node_modules"}
}
