package tool

import (
	"context"
	"io/fs"
	"math"
	"strings"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/pitext"
	"github.com/scoutkit/scout/internal/redact"
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
	Limit     float64  `json:"limit" default:"200" invalid:"Limit must be a positive number (1-200), got %s." desc:"Maximum paths returned (1-200)."`
	Timeout   float64  `json:"timeout" default:"5" overflow:"inf" desc:"Timeout in seconds (0.5-60); partial results are returned when it passes."`
}

const (
	piFindMaxLimit   = 200
	piFindMaxTimeout = 60 // seconds
)

func runPiFind(ctx context.Context, c *Config, in *piFindArgs) (*scout.Envelope, error) {
	if in.Limit <= 0 {
		return nil, errs.New(errs.InvalidParam, "Limit must be a positive number (1-%d), got %s.", piFindMaxLimit, fmtNum(in.Limit))
	}
	limit := max(int(min(math.Floor(in.Limit), piFindMaxLimit)), 1)
	timeout := min(max(in.Timeout, 0.5), piFindMaxTimeout)
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
		n, asIs := piEntryPath(fsys, root, p, nil, findBase)
		if asIs {
			inputs = append(inputs, n) // the find unquotes it
			continue
		}
		n = strings.ReplaceAll(n, `\`, "/")
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
	prune := pitext.PruneNodeModules(inputs)
	f := c.finder(ws)
	var order *piOrderOps
	if c.FindOperations != nil {
		order, f.Operations = newPiOrderOps(c.FindOperations)
		prune = []string{"node_modules"} // pi's fixed ignore list of the branch
	}
	req := scout.FindRequest{
		Patterns:  inputs,
		Recursive: true,
		Hidden:    in.Hidden,
		NoIgnore:  !in.Gitignore,
		PruneDirs: prune,
		Limit:     limit,
		Timeout:   time.Duration(timeout * float64(time.Second)),
	}
	res, err := f.Find(ctx, req)
	if err != nil {
		return nil, err
	}
	if order != nil {
		order.order(res.Entries)
	}
	if f.Operations != nil && len(res.MissingPaths) > 0 {
		// The custom branch tolerates no missing path: it fails on the
		// first, named by its base as a single missing path is.
		base, _, _ := glob.SplitFind(res.MissingPaths[0])
		return nil, piNotFound(base)
	}
	scope := wire(res.Scope)
	if kept := findScopeItems(root, inputs, res.MissingPaths); len(kept) > 1 {
		scope = wire(strings.Join(kept, ", "))
	}
	files := pitext.Paths(res)
	text, cut := pitext.Find(res, &pitext.FindOptions{
		MaxLimit:   piFindMaxLimit,
		Timeout:    req.Timeout,
		MaxTimeout: piFindMaxTimeout * time.Second,
		Hints:      piFindHints(in.Gitignore, prune != nil && f.Operations == nil),
		Notes:      splitNotes(splits),
	})
	limitReached := res.Truncated == scout.TruncLimit
	data := &piFindData{
		ScopePath:          redact.Text(scope), // as the path resolved shows it
		FileCount:          len(files),
		Files:              wireNames(files),
		Truncated:          res.Truncated != "" || cut != nil,
		ResultLimitReached: limitReached,
		MissingPaths:       res.MissingPaths,
		SplitEntries:       splits,
		Skipped:            res.Skipped,
	}
	// details.truncation and details.meta: how the text was cut
	// and the result limit that was reached.
	m := piMeta{Truncation: headCut(cut)}
	if limitReached {
		m.Limits = &piMetaLimits{ResultLimit: &piReached{limit}}
	}
	data.Truncation = m.Truncation
	if m != (piMeta{}) {
		data.Meta = &m
	}
	env := okEnvelope(res.Truncated != "" || cut != nil, data, text)
	env.Stats.Matched = len(files)
	env.Stats.Visited = res.Visited
	env.Stats.Skipped = sum(res.Skipped)
	env.Context.PathResolved = scope
	env.Context.PatternNormalized = res.Pattern
	return env, nil
}

// findScopeItems are the inputs of a find that exist, as pi's
// toScopeDisplay shows several (scopeItems): with one left, the find's
// scope is its searched root, as the result's Scope shows it.
func findScopeItems(root string, inputs, missing []string) []string {
	given := make([]string, len(inputs))
	for i, in := range inputs {
		given[i] = strings.ReplaceAll(pathutil.Normalize(in), `\`, "/") // as missing holds them
	}
	return scopeItems(root, inputs, given, missing)
}

// piFindData is pi find's details, its fields in the order of their JSON
// names.
type piFindData struct {
	FileCount          int                      `json:"fileCount"`
	Files              []string                 `json:"files"`
	Meta               *piMeta                  `json:"meta,omitempty"`
	MissingPaths       []string                 `json:"missingPaths,omitempty"`
	ResultLimitReached bool                     `json:"resultLimitReached"`
	ScopePath          string                   `json:"scopePath"`
	Skipped            map[scout.SkipReason]int `json:"skipped,omitempty"`
	SplitEntries       []piSplit                `json:"splitEntries,omitempty"`
	Truncated          bool                     `json:"truncated"`
	Truncation         *piMetaTrunc             `json:"truncation,omitempty"`
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
		if _, err := pathutil.Stat(fsys, p); err == nil {
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

func sum(m map[scout.SkipReason]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
