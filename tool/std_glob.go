package tool

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/envelope"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/pitext"
	"github.com/scoutkit/scout/internal/redact"
)

func init() {
	define(Standardized, "Glob", stdGlobDescription, runStdGlob)
}

const stdGlobDescription = "Find files using glob patterns (relative to the search root).\n" +
	"- `pattern` is relative to `path`: `*.md` matches only path's own files, `**/*.md` every level below it " +
	"(`*` and `?` never cross `/`; `**/` also matches zero directories); `{a,b}` alternatives; `[abc]`, `[!a]` and POSIX `[[:digit:]]` classes.\n" +
	"- Results are files only, in alphabetical order as a sorted top-down walk lists them (a directory's own files before its subdirectories'), relative to the project root; at most `limit` (1-200, default 50).\n" +
	"- Hidden files, noisy directories (node_modules, dist, build, ...) and .gitignore'd paths are skipped unless `include_hidden` / `include_ignored` is true; .git is never listed.\n" +
	"- The search stops after 20000 entries or 2 s and then returns what it found as a partial result (an error when nothing matched yet)."

// stdGlobArgs are the arguments of the standardized Glob (field
// for field).
type stdGlobArgs struct {
	Pattern        string `json:"pattern" required:"true" missing:"Missing required parameter 'pattern'." desc:"Glob pattern relative to the search root (path), e.g. '**/*.js'."`
	Path           string `json:"path" default:"." desc:"Directory to start search from (relative to project root)."`
	Limit          int    `json:"limit" default:"50" min:"1" max:"200" invalid:"limit must be an integer between 1 and 200." desc:"Max matches to return (1-200)."`
	IncludeHidden  bool   `json:"include_hidden" default:"false" desc:"If true, include hidden files and directories."`
	IncludeIgnored bool   `json:"include_ignored" default:"false" desc:"If true, traverse ignored directories (node_modules, dist, etc)."`
}

// stdIgnoredDirs is the standardized Glob's fixed list of pruned directories.
var stdIgnoredDirs = []string{".git", ".hg", ".svn", "__pycache__", "node_modules", "target", "build", "dist", ".idea", ".vscode", ".DS_Store", "venv", ".venv", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".cache", "site-packages"}

const (
	stdMaxLimit   = 200
	stdMaxVisited = 20000
)

// stdMaxDuration is the time breaker; a test of the count breaker raises
// it, so that a loaded machine does not trip the time breaker first.
var stdMaxDuration = 2000 * time.Millisecond

func runStdGlob(ctx context.Context, c *Config, in *stdGlobArgs) (*scout.Envelope, error) {
	if strings.TrimSpace(in.Pattern) == "" {
		return nil, errs.New(errs.InvalidParam, "Missing required parameter 'pattern'.")
	}
	pattern, dir, limit, hidden, ignored := in.Pattern, in.Path, in.Limit, in.IncludeHidden, in.IncludeIgnored
	if strings.TrimSpace(dir) == "" {
		dir = "."
	}
	fsys, ws, release, err := c.open()
	if err != nil {
		return nil, err
	}
	defer release()
	denied := errs.New(errs.AccessDenied, "Access denied. Path must be within project root.")
	if fsRootOutside(c, dir) {
		return nil, denied
	}
	resolved, err := resolveArg(c, dir)
	if err != nil {
		if errs.CodeOf(err) == errs.AccessDenied {
			return nil, denied
		}
		return nil, err
	}
	info, err := pathutil.Stat(fsys, resolved)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		if err := pathutil.ContainerOutside(fsys, ws.Root, dir); err != nil {
			if errs.CodeOf(err) == errs.AccessDenied {
				return nil, denied
			}
			return nil, err
		}
		return nil, errs.New(errs.NotFound, "Search root '%s' does not exist.", errs.Echo(dir))
	case errors.As(err, new(*errs.Error)) && errs.CodeOf(err) == errs.AccessDenied, errors.Is(err, fsx.ErrOutsideRoot):
		return nil, denied // the one wording of a path out of the root
	case errors.As(err, new(*errs.Error)):
		return nil, err // a symlink loop
	default: // the OS refused the stat: permissions, an invalid name
		return nil, errs.Wrap(errs.CodeOf(err), err, "Cannot read search root '%s': %v", errs.Echo(dir), err)
	}
	if !info.IsDir() {
		return nil, errs.New(errs.InvalidParam, "Search root '%s' is not a directory.", errs.Echo(dir))
	}
	norm := strings.ReplaceAll(strings.TrimSpace(pattern), `\`, "/")
	if rest, ok := strings.CutPrefix(norm, "./"); ok && rest != "" {
		norm = rest
	}
	if d, rest, ok := leadingDir(norm); ok {
		// The pattern is matched below path: an absolute or climbing one
		// would match nothing, silently. The error names the path that
		// works: the leading directory taken from path, or, when that is
		// out of the project root, says so.
		hint := d
		if !path.IsAbs(d) {
			hint = path.Join(resolved, d)
		}
		if _, err := resolveArg(c, hint); errs.CodeOf(err) == errs.AccessDenied || fsRootOutside(c, hint) {
			return nil, denied
		}
		return nil, errs.New(errs.InvalidParam, "Pattern '%s' is not relative to path: the pattern is matched below path, so name the directory in path, e.g. {\"path\": %q, \"pattern\": %q}.", errs.Echo(norm), hint, rest)
	}
	if g, err := glob.Compile(norm); err == nil && g.DirOnly() && strings.TrimRight(norm, "/") != "." {
		// A glob ending in '/' matches directories only, and Glob lists
		// files: it would match nothing, silently. ("./" names path
		// itself, no entry below it: it matches nothing either way.)
		if strings.HasSuffix(norm, "/") {
			return nil, errs.New(errs.InvalidParam, "Pattern '%s' ends in '/', so it matches directories only, and Glob lists files: use '%s**' for the files below those directories.", errs.Echo(norm), errs.Echo(norm))
		}
		return nil, errs.New(errs.InvalidParam, "Pattern '%s' has an alternative ending in '/', which matches directories only, and Glob lists files: end it in '/**' for the files below those directories.", errs.Echo(norm))
	}
	req := scout.FindRequest{
		Patterns:   []string{norm},
		Base:       fname.Quote(resolved), // as amplifier glob passes it
		Hidden:     hidden,
		NoIgnore:   ignored,
		Kind:       scout.FilesOnly,
		Order:      scout.TreeOrder,
		Limit:      limit,
		Timeout:    stdMaxDuration,
		MaxVisited: stdMaxVisited,
	}
	if !ignored {
		req.PruneDirs = stdIgnoredDirs
	}
	f := scout.Finder{Workspace: ws}
	res, err := f.Find(ctx, req)
	if err != nil {
		return nil, err
	}
	elapsed := elapsedMS(ctx) // the text's time is stats.time_ms
	paths := pitext.Paths(res)
	var aborted string
	switch res.Truncated {
	case scout.TruncTimeout:
		aborted = "time_limit"
	case scout.TruncVisited:
		aborted = "count_limit"
	}
	shownPath := fname.Quote(pathutil.Display(resolved))
	scanned := fmt.Sprintf("(Scanned %d items in %dms)", res.Visited, elapsed)
	// Matches past the limit count even when a breaker then stopped the walk.
	truncated := res.Matched > len(paths)
	data := &stdGlobData{Paths: wireNames(paths), Truncated: truncated, AbortedReason: aborted}
	var text string
	shown := redact.Text(norm) // echoed as the arguments are: a URL's credentials redacted
	if len(paths) == 0 {
		if aborted != "" {
			code, why := errs.Timeout, "Search timed out (>2s) before any match"
			if aborted == "count_limit" {
				code, why = errs.Internal, fmt.Sprintf("Search scanned more than %d items without a match", stdMaxVisited)
			}
			msg := fmt.Sprintf("No files found matching '%s' in '%s'\n%s\n[Error: %s. Narrow path or pattern.]", shown, shownPath, scanned, why)
			env := envelope.Error(&errs.Error{Code: code, Message: msg}, nil)
			env.Data = data
			env.Context.ParamsInput = nil // Call records the arguments as given
			fillStd(env, res, resolved, norm)
			return env, nil
		}
		text = fmt.Sprintf("No files found matching '%s' in '%s'\n%s", shown, shownPath, scanned)
		if lo := pitext.LeftOut(res.Skipped, pitext.FindHints(res, stdHints)); lo != "" {
			text += "\n" + lo
		}
	} else {
		text = fmt.Sprintf("Found %d files matching '%s' in '%s'\n%s\n", len(paths), shown, shownPath, scanned)
		switch {
		case aborted == "time_limit":
			text += "[Partial: Search timed out (>2s). Results are incomplete.]\n"
		case aborted == "count_limit":
			text += fmt.Sprintf("[Partial: Scanned more than %d items. Results are incomplete.]\n", stdMaxVisited)
		case truncated && limit < stdMaxLimit:
			text += fmt.Sprintf("[Truncated: showing the first %d of %d matches (limit=%d). Narrow the pattern or raise limit (max %d).]\n", len(paths), res.Matched, limit, stdMaxLimit)
		case truncated:
			text += fmt.Sprintf("[Truncated: showing the first %d of %d matches (limit=%d). Narrow the pattern or path for the rest.]\n", len(paths), res.Matched, limit)
		}
		if lo := pitext.LeftOutUnreadable(res.Skipped); lo != "" {
			text += lo + "\n"
		}
		text += "\n" + strings.Join(pitext.QuotedPaths(res), "\n")
	}
	env := okEnvelope(res.Truncated != "", data, text)
	fillStd(env, res, resolved, norm)
	return env, nil
}

// fsRootOutside reports whether p names the file system's root ("/"),
// which pi reads as the project root; here it is an absolute path like any
// other, outside the project root unless that is "/".
func fsRootOutside(c *Config, p string) bool {
	n := argPath(p)
	return strings.Trim(n, "/") == "" && n != "" && searchRoot(c) != "/"
}

// stdGlobData is the data of a Glob result, in the contract's field order.
type stdGlobData struct {
	Paths         []string `json:"paths"`
	Truncated     bool     `json:"truncated"`                // matches past limit were left out
	AbortedReason string   `json:"aborted_reason,omitempty"` // "count_limit" or "time_limit" when a breaker stopped the walk
}

var stdHints = map[scout.SkipReason]string{
	scout.SkipIgnored: "set include_ignored: true",
	scout.SkipHidden:  "set include_hidden: true",
}

func fillStd(env *scout.Envelope, res *scout.FindResult, resolved, norm string) {
	env.Stats.Matched = len(res.Entries)
	env.Stats.Visited = res.Visited
	env.Context.PathResolved = wire(resolved)
	env.Context.PatternNormalized = norm
}
