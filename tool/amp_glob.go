package tool

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/fname"
	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/pitext"
	"github.com/scoutkit/scout/internal/redact"
)

func init() {
	define(Amplifier, "glob", ampGlobDescription, runAmpGlob)
}

const ampGlobDescription = "Find files matching glob patterns.\n" +
	"- Results are newest first (modification time).\n" +
	"- `pattern` is relative to `path` (default \".\"): `*.py` matches path's own files, `**/*.py` every level below " +
	"(`*` and `?` never cross `/`; `**/` also matches zero directories); `{a,b}` alternatives; `[abc]`, `[!a]` and POSIX `[[:digit:]]` classes.\n" +
	"- `type`: \"file\", \"dir\" or \"any\" (default); `exclude`: globs to leave out (a glob without `/` matches a file name at any depth).\n" +
	"- Hidden and gitignored files are left out; a hidden directory the pattern names (`.github/workflows/*.yml`) is looked in, and a last segment starting with `.` (`.env`, `**/.*rc`) matches hidden names. At most 100 matches are returned; narrow the pattern for more."

// ampGlobArgs are the arguments of amplifier glob.
type ampGlobArgs struct {
	Pattern string    `json:"pattern" required:"true" missing:"Missing required argument 'pattern': pass a glob such as '**/*.py'." desc:"Glob pattern, e.g. '**/*.py'."`
	Path    string    `json:"path" default:"." desc:"Directory to search from (default: the project root)."`
	Type    string    `json:"type" enum:"file,dir,any" default:"any" invalid:"Invalid argument 'type': must be \"file\", \"dir\" or \"any\", got %s." desc:"Return files, directories or both."`
	Exclude oneOrMany `json:"exclude" desc:"Glob patterns to exclude, e.g. ['*_test.py', '*.pyc']."`
}

const ampGlobLimit = 100

// ampGlobData is the JSON output of glob, in amplifier's field order.
type ampGlobData struct {
	Pattern  string         `json:"pattern"`
	BasePath string         `json:"base_path"`
	Count    int            `json:"count"`
	Matches  []ampGlobMatch `json:"matches"`
}

type ampGlobMatch struct {
	Path string `json:"path"`
	Type string `json:"type"` // "file" or "dir"
	Size *int64 `json:"size"` // bytes; nil (null) for a directory
}

func runAmpGlob(ctx context.Context, c *Config, in *ampGlobArgs) (*scout.Envelope, error) {
	if strings.TrimSpace(in.Pattern) == "" {
		return nil, errs.New(errs.InvalidParam, "Missing required argument 'pattern': pass a glob such as '**/*.py'.")
	}
	pattern, dir, exclude := in.Pattern, in.Path, in.Exclude
	if strings.TrimSpace(dir) == "" {
		dir = "."
	}
	et := scout.FilesAndDirs
	switch in.Type {
	case "file":
		et = scout.FilesOnly
	case "dir":
		et = scout.DirsOnly
	}
	fsys, ws, release, err := c.open()
	if err != nil {
		return nil, err
	}
	defer release()
	base, err := resolveArg(c, dir)
	if err != nil {
		return nil, err
	}
	norm := strings.TrimPrefix(strings.ReplaceAll(strings.TrimSpace(pattern), `\`, "/"), "./")
	if static, rest, ok := leadingDir(norm); ok {
		// The pattern starts above path, or at an absolute path: its
		// leading directory becomes the base (refused outside the root),
		// rather than a glob below path that matches nothing.
		if path.IsAbs(static) {
			base, err = resolveArg(c, static)
		} else {
			base, err = pathutil.Resolve(searchRoot(c), path.Join(base, static))
		}
		if err != nil {
			return nil, err
		}
		norm = rest
	}
	// A pattern that names a hidden directory (".github/workflows/*.yml")
	// looks in it: the walk takes hidden entries, and leaves out again the
	// hidden ones below that directory. Without it the walk left the
	// directory out, and the pattern matched nothing.
	//
	// A pattern whose last segment spells a hidden name (".env",
	// "**/.*rc") matches hidden entries there, as a glob starting with
	// "." does in a shell: the walk takes hidden entries, and leaves out
	// again the entries inside hidden directories the pattern does not
	// name. Without it such a pattern could match nothing.
	hiddenDir, hiddenName := hasHiddenDir(norm), hasHiddenName(norm)
	hidden := hiddenDir || hiddenName
	var hiddenBelow []string // what the walk leaves out again
	switch {
	case hiddenDir:
		dir, _ := literalDirs(norm)
		q := glob.QuoteMeta(dir)
		hiddenBelow = []string{q + "/**/.*/**"}
		if !hiddenName {
			hiddenBelow = append(hiddenBelow, q+"/**/.*")
		}
	case hiddenName:
		hiddenBelow = []string{"**/.*/**"}
	}
	if hidden {
		exclude = append(slices.Clip(exclude), hiddenBelow...)
	}
	f := scout.Finder{Workspace: ws}
	// Base as text shows it: the find reads a quoted name back, where
	// its input rules would trim or rewrite some names as written.
	req := scout.FindRequest{Patterns: []string{norm}, Base: fname.Quote(base), Kind: et, Exclude: exclude, Hidden: hidden, Limit: ampGlobLimit}
	res, err := f.Find(ctx, req)
	if err != nil {
		return nil, err
	}
	followLinks(fsys, res.Entries)
	matches := make([]ampGlobMatch, len(res.Entries))
	lines := make([]string, len(res.Entries))
	for i, e := range res.Entries {
		matches[i] = ampGlobMatch{Path: wire(e.Path), Type: "dir"}
		if !e.Dir {
			matches[i].Type, matches[i].Size = "file", &e.Size
		}
		lines[i] = fname.Quote(e.Path)
		if e.Dir {
			lines[i] += "/"
		}
	}
	// The pattern is echoed as the arguments are: a URL's credentials
	// redacted.
	shown := redact.Text(norm)
	data := &ampGlobData{Pattern: redact.Text(pattern), BasePath: dir, Count: len(matches), Matches: matches}
	var text string
	if len(matches) == 0 {
		text = fmt.Sprintf("No files found matching '%s' in '%s'", shown, fname.Quote(pathutil.Display(base)))
		if lo := pitext.LeftOut(res.Skipped, pitext.FindHints(res, nil)); lo != "" {
			text += "\n" + lo
		}
		if len(in.Exclude) > 0 || et != scout.FilesAndDirs {
			// The empty result may be the filters' rather than the
			// pattern's: a find without them counts what they left out.
			req.Kind, req.Exclude, req.Limit = scout.FilesAndDirs, hiddenBelow, 1
			if all, err := f.Find(ctx, req); err == nil && all.Matched > 0 {
				text += "\n" + ampGlobFiltered(in, all.Matched, shown)
			}
		}
	} else {
		text = strings.Join(lines, "\n")
		if res.Truncated == scout.TruncLimit {
			text += fmt.Sprintf("\n\n[Showing the %d newest of %d matches. Narrow the pattern or path for the rest.]", len(matches), res.Matched)
		}
		if lo := pitext.LeftOutUnreadable(res.Skipped); lo != "" {
			text += "\n\n" + lo
		}
	}
	env := okEnvelope(res.Truncated != "", data, text)
	env.Stats.Matched = len(matches)
	env.Stats.Visited = res.Visited
	env.Context.PathResolved = wire(base)
	env.Context.PatternNormalized = norm
	return env, nil
}

// leadingDir splits a glob pattern whose leading directory is absolute or
// climbs with "..": the segments before the first that holds a glob
// character (all but the last when none does), and the rest. ok is false
// for any other pattern, which is relative to path as it is.
func leadingDir(pattern string) (dir, rest string, ok bool) {
	segs := strings.Split(pattern, "/")
	i := 0
	for i < len(segs)-1 && !glob.HasMeta(segs[i]) {
		i++
	}
	dir, rest = strings.Join(segs[:i], "/"), strings.Join(segs[i:], "/")
	if strings.HasPrefix(pattern, "/") && dir == "" {
		dir = "/"
	}
	if !path.IsAbs(dir) && !slices.Contains(segs[:i], "..") {
		return "", "", false
	}
	return dir, rest, true
}

// literalDirs splits a glob pattern into its leading directories (the
// segments before the first that holds a glob character, all but the last
// when none does) and the rest.
func literalDirs(pattern string) (dir, rest string) {
	segs := strings.Split(pattern, "/")
	i := 0
	for i < len(segs)-1 && !glob.HasMeta(segs[i]) {
		i++
	}
	return strings.Join(segs[:i], "/"), strings.Join(segs[i:], "/")
}

// hasHiddenDir reports whether the leading directories of a glob pattern
// (literalDirs) include a hidden one (".github", not "." or "..").
func hasHiddenDir(pattern string) bool {
	dir, _ := literalDirs(pattern)
	for _, s := range strings.Split(dir, "/") {
		if len(s) > 1 && s[0] == '.' && s != ".." {
			return true
		}
	}
	return false
}

// hasHiddenName reports whether the last segment of a glob pattern spells
// a hidden name: it starts with "." (".env", ".*"), and is not "." or "..".
func hasHiddenName(pattern string) bool {
	last := pattern[strings.LastIndex(pattern, "/")+1:]
	return len(last) > 1 && last[0] == '.' && last != ".."
}

// followLinks gives each symlink among entries the kind, size and time of
// its target, as amplifier's glob sees a match (is_file, is_dir and stat
// follow links), and orders the entries newest first again by those times.
// A link whose target cannot be seen (dangling, or outside the root) keeps
// its own.
func followLinks(fsys fs.FS, entries []scout.FindEntry) {
	followed := false
	for i, e := range entries {
		li, err := fsx.Lstat(fsys, e.Path)
		if err != nil || li.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		ti, err := pathutil.Stat(fsys, e.Path)
		if err != nil {
			continue
		}
		entries[i].Dir, entries[i].ModTime, entries[i].Size = ti.IsDir(), ti.ModTime(), 0
		if !ti.IsDir() {
			entries[i].Size = ti.Size()
		}
		followed = true
	}
	if followed {
		sort.SliceStable(entries, func(i, j int) bool {
			a, b := entries[i], entries[j]
			if !a.ModTime.Equal(b.ModTime) {
				return a.ModTime.After(b.ModTime)
			}
			return a.Path < b.Path
		})
	}
}

// ampGlobFiltered says that type or exclude left out all the n entries
// that match pattern.
func ampGlobFiltered(in *ampGlobArgs, n int, pattern string) string {
	var what []string
	if in.Type == "file" || in.Type == "dir" {
		what = append(what, fmt.Sprintf("type '%s'", in.Type))
	}
	if len(in.Exclude) > 0 {
		what = append(what, "exclude")
	}
	filters := strings.Join(what, " and ")
	entries := fmt.Sprintf("all %d entries", n)
	if n == 1 {
		entries = "the 1 entry"
	}
	return fmt.Sprintf("%s%s left out %s matching '%s'.", strings.ToUpper(filters[:1]), filters[1:], entries, pattern)
}
