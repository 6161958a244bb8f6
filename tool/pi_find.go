package tool

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/pathutil"
)

func init() {
	define(Pi, "find", piFindDescription, runPiFind)
}

const piFindDescription = "Find filesystem paths by glob; use search when you need content matches instead of path matches.\n" +
	"- `paths`: one or more globs, directories or files, e.g. [\"src/**/*.ts\"], [\"*.md\", \"docs/\"]. A bare top-level glob such as `*.ts` searches the whole tree; `src/*.ts` only src itself; `src/**/*.ts` all of src. Pass several paths as separate array elements, never comma-joined.\n" +
	"- `*` and `?` never cross `/`; `**` crosses directories and also matches none; `{a,b}` alternatives; `[abc]`, `[a-z]`, `[!a]` and POSIX `[[:digit:]]` classes.\n" +
	"- Results are newest first (modification time), grouped by directory (`# dir/` then names; directories end in `/`).\n" +
	"- `hidden` (default true) includes dotfiles; `gitignore` (default true) leaves out gitignored paths: pass false to include them. `node_modules` is left out unless a path names it (`node_modules/**`).\n" +
	"- `limit` (default and maximum 200); `timeout` in seconds (default 5, 0.5-60) returns partial results when reached."

// piFindArgs are the arguments of pi find. limit and timeout
// are clamped, not refused, so their schemas carry no bounds. The tag of
// Paths is a quoted string: its message holds backquotes.
type piFindArgs struct {
	Paths     []string "json:\"paths\" required:\"true\" missing:\"`paths` must contain non-empty globs or paths: pass at least one, e.g. {\\\"paths\\\": [\\\"**/*.go\\\"]}.\" desc:\"One or more globs, files, directories or internal URLs with backing files, relative to the project root. Pass several as separate elements, e.g. [\\\"src/**/*.go\\\", \\\"cmd/\\\"]; never comma-joined.\""
	Hidden    bool     `json:"hidden" default:"true" desc:"Include hidden files and directories."`
	Gitignore bool     `json:"gitignore" default:"true" desc:"Respect .gitignore; set false to include gitignored files."`
	Limit     float64  `json:"limit" default:"200" desc:"Maximum paths returned (1-200)."`
	Timeout   float64  `json:"timeout" default:"5" desc:"Timeout in seconds (0.5-60); partial results are returned when it passes."`
}

const piFindMaxLimit = 200

func runPiFind(ctx context.Context, c *Config, in *piFindArgs) (*scout.Envelope, error) {
	if in.Limit <= 0 {
		return nil, errs.New(errs.InvalidParam, "Limit must be a positive number (1-%d), got %s.", piFindMaxLimit, fmtNum(in.Limit))
	}
	limit := max(int(min(math.Floor(in.Limit), piFindMaxLimit)), 1)
	timeout := min(max(in.Timeout, 0.5), 60)
	fsys, ws, closeFS, err := c.open()
	if err != nil {
		return nil, err
	}
	defer closeFS()
	root := searchRoot(c)
	var inputs []string
	var splits []piSplit
	findBase := func(part string) string {
		base, _, _ := glob.SplitFind(part)
		return base
	}
	for i, p := range in.Paths {
		n := strings.ReplaceAll(pathutil.Normalize(p), `\`, "/")
		if strings.TrimSpace(n) == "" {
			return nil, errs.New(errs.InvalidParam, "`paths` must contain non-empty globs or paths: entry %d is empty.", i+1)
		}
		if err := rejectCommaJoined(fsys, root, n, n); err != nil {
			return nil, err
		}
		parts := splitEntry(fsys, root, n, findBase)
		if len(parts) > 1 {
			splits = append(splits, piSplit{Entry: n, Paths: parts})
		}
		inputs = append(inputs, parts...)
	}
	if searchesOSRoot(root, fsys, inputs) {
		return nil, errs.New(errs.InvalidParam, "Searching from root directory '/' is not allowed: name a directory below it, e.g. [\"/home/*.txt\"] or [\"etc/**/*.conf\"].")
	}
	prune := pruneNodeModules(inputs)
	f := scout.Finder{Workspace: ws, Resolvers: c.Searcher.Resolvers}
	res, err := f.Find(ctx, scout.FindRequest{
		Patterns:  inputs,
		Recursive: true,
		Hidden:    in.Hidden,
		NoIgnore:  !in.Gitignore,
		PruneDirs: prune,
		Limit:     limit,
		Timeout:   time.Duration(timeout * float64(time.Second)),
	})
	if err != nil {
		return nil, err
	}
	files := format.FindPaths(res)
	var text string
	var notes []string
	timedOut := res.Truncated == scout.TruncTimeout
	if timedOut {
		notes = append(notes, fmt.Sprintf("find timed out after %ss; returning %d partial matches — increase timeout or narrow pattern", strconv.FormatFloat(timeout, 'f', -1, 64), len(files)))
	}
	if len(res.MissingPaths) > 0 {
		notes = append(notes, "Skipped missing paths: "+strings.Join(res.MissingPaths, ", "))
	}
	notes = append(notes, splitNotes(splits)...)
	if len(files) == 0 {
		lines := append([]string{"No files found matching pattern"}, notes...)
		if lo := format.LeftOut(res.Skipped, piFindHints(in.Gitignore, prune != nil)); lo != "" {
			lines = append(lines, lo)
		}
		text = strings.Join(lines, "\n")
	} else {
		if res.ExactFile {
			text = files[0]
		} else {
			text = format.Grouped(files)
		}
		if len(notes) > 0 {
			text += "\n\n" + strings.Join(notes, "\n")
		}
	}
	limitReached := res.Truncated == scout.TruncLimit
	var meta []string
	if limitReached {
		meta = append(meta, limitNotice(limit, piFindMaxLimit, "narrow the pattern or paths for the rest"))
	}
	var cut *format.Cut
	if kept, shown, total, ok := format.TruncateHead(text, format.MaxBytes); ok {
		cut = &format.Cut{ShownLines: shown, TotalLines: total, TotalBytes: len(text), MaxBytes: format.MaxBytes}
		text = kept
		meta = append([]string{fmt.Sprintf("Showing lines 1-%d of %d (%s limit). Narrow the pattern or lower limit to see the rest", shown, total, format.KB(format.MaxBytes))}, meta...)
	}
	text += format.Notice(meta...)
	data := map[string]any{
		"scopePath":          res.Scope,
		"fileCount":          len(files),
		"files":              files,
		"truncated":          res.Truncated != "" || cut != nil,
		"resultLimitReached": limitReached,
	}
	// details.truncation and details.meta: how the text was cut
	// and the result limit that was reached.
	m := piMeta{Truncation: headCut(cut)}
	if limitReached {
		m.Limits = &piMetaLimits{ResultLimit: &piReached{limit}}
	}
	if m.Truncation != nil {
		data["truncation"] = m.Truncation
	}
	if m != (piMeta{}) {
		data["meta"] = m
	}
	if len(res.MissingPaths) > 0 {
		data["missingPaths"] = res.MissingPaths
	}
	if len(splits) > 0 {
		data["splitEntries"] = splits
	}
	if len(res.Skipped) > 0 {
		data["skipped"] = res.Skipped
	}
	env := okEnvelope(res.Truncated != "" || cut != nil, data, text)
	env.Stats.Matched = len(files)
	env.Stats.Visited = res.Visited
	env.Stats.Skipped = sum(res.Skipped)
	env.Context.PathResolved = res.Scope
	env.Context.PatternNormalized = res.Pattern
	return env, nil
}

// searchesOSRoot reports whether the find would walk the OS root "/" (the
// project root, as searchRoot gives it, is "/" and the existing bases share
// nothing below it), which pi find refuses.
func searchesOSRoot(root string, fsys fs.FS, inputs []string) bool {
	if root != "/" {
		return false
	}
	var bases []string
	for _, in := range inputs {
		base, _, _ := glob.SplitFind(in)
		p, err := pathutil.Resolve("/", base)
		if err != nil {
			return false // Find reports it
		}
		if _, err := fs.Stat(fsys, p); err == nil {
			bases = append(bases, p)
		}
	}
	return len(bases) > 0 && pathutil.CommonBase(bases) == "."
}

// piFindHints says how to include what find left out: the ignored count
// holds gitignored entries (gitignore: false includes them) and, while no
// path names it, node_modules (which only naming it includes).
func piFindHints(gitignore, nodeModulesPruned bool) map[scout.SkipReason]string {
	return map[scout.SkipReason]string{
		scout.SkipIgnored: ignoredHint(gitignore, nodeModulesPruned, "gitignored paths", "a path or glob"),
		scout.SkipHidden:  "pass hidden: true",
	}
}

// ignoredHint is the hint on an ignored count of pi find and search: what
// includes gitignored entries, when ignore files were applied, and
// node_modules, when it was left out for no path naming it. "" when
// neither applies (only nested .git directories were left out).
func ignoredHint(gitignore, nodeModulesPruned bool, what, where string) string {
	var hints []string
	if gitignore {
		hints = append(hints, "pass gitignore: false for "+what)
	}
	if nodeModulesPruned {
		hints = append(hints, "node_modules is left out unless "+where+" names it, e.g. node_modules/**")
	}
	return strings.Join(hints, "; ")
}

// limitNotice is the result-limit notice. It never suggests a limit above
// the tool's maximum: at the maximum it says how to narrow instead.
func limitNotice(limit, maxLimit int, narrow string) string {
	if next := 2 * limit; next <= maxLimit {
		return fmt.Sprintf("%d results limit reached. Use limit=%d for more", limit, next)
	} else if limit < maxLimit {
		return fmt.Sprintf("%d results limit reached. Use limit=%d for more", limit, maxLimit)
	}
	return fmt.Sprintf("%d results limit reached; %s", limit, narrow)
}

func sum(m map[scout.SkipReason]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
