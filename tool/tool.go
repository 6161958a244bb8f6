// Package tool exposes Scout's tools to agents as toolsets: each tool has a
// name, a model-facing description and a JSON Schema, decodes its JSON
// arguments (naming the field at fault), runs the core Finder, Searcher or
// Reader, and returns the Standard Envelope.
//
// Toolsets follow the contracts Scout was built from: "pi" (search, read,
// find), "amplifier" (grep, glob) and "standardized" (Glob).
package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
	"github.com/scoutkit/scout/internal/envelope"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/glob"
	"github.com/scoutkit/scout/internal/jsonobj"
	"github.com/scoutkit/scout/internal/pathutil"
	"github.com/scoutkit/scout/internal/redact"
	"github.com/scoutkit/scout/internal/walk"
)

// The toolset names.
const (
	Pi           = "pi"
	Amplifier    = "amplifier"
	Standardized = "standardized"
)

// DefaultToolset is the toolset used when none is named.
const DefaultToolset = Pi

// Config is the host's side of a toolset: the project and the settings a
// model cannot change. The zero value serves the current directory with the
// documented defaults.
type Config struct {
	// Root is the project root, also the cwd against which relative paths
	// resolve. "" means the current directory.
	Root string
	// FS replaces the OS directory Root as the tree (see scout.Workspace).
	// nil means Root opened traversal-safe.
	FS fs.FS
	// Style is the line style of pi search and read text: "hashline"
	// (default when ""), "numbered" or "plain", as the format package
	// describes them, except that search keeps its line numbers in the
	// plain style ("*5|text"), as pi's plain mode does. Any other value
	// makes every call an INVALID_PARAM error.
	Style string
	// ContextBefore and ContextAfter are the pi search context lines.
	// 0 means the defaults (1 before, 3 after); a negative value means none.
	ContextBefore, ContextAfter int
	// ReadLimit is the pi read default line limit for open-ended reads
	// (a directory read without a selector shows up to 3000 rows and 50 KB
	// whatever it is). 0 means scout.DefaultReadLimit (300); values above
	// 3000 mean 3000; negative means 3000.
	ReadLimit int

	// Resolvers resolve internal URLs ("skill://deploy") by scheme, without
	// "://", for every tool: search and read resolve them, find finds their
	// backing files. nil means only the built-in omp:// (Scout's own
	// documentation).
	Resolvers map[string]scout.Resolver
	// MaxFileSize is the size cap of search and grep: larger files are
	// skipped and counted. 0 means scout.DefaultMaxFileSize; negative means
	// no cap.
	MaxFileSize int64
	// Workers is the number of files searched at once. 0 (or negative)
	// means the number of CPUs Go uses for a search that may stop early (a
	// page, a match budget), twice that for one that reads every file (and
	// as many more on more than two CPUs).
	Workers int
	// Index answers searches from an index of the root's repository where
	// it can (see scout.Searcher.Index). nil means every search scans.
	Index scout.Index
	// NoSummaries turns off read's code summaries. false means a source
	// file read without a selector may be summarised.
	NoSummaries bool
	// ImageMetadataOnly makes read return an image's metadata without its
	// bytes. false means the bytes are returned.
	ImageMetadataOnly bool
	// ImagesApart makes read leave an image's bytes out of the Envelope's
	// Data (its result.image_data; result.image keeps the metadata), for a
	// host that sends Envelope.Images as images of their own, as the MCP
	// server does as image content, so that a reply carries them once.
	// false means Data holds the bytes too: the Envelope's JSON is then
	// their only copy.
	ImagesApart bool
	// Converters replace or add read's document converters by extension
	// (".pdf"). nil means the built-in converters only.
	Converters map[string]scout.Converter
	// Fetcher fetches read's web URLs. nil means Scout's own net/http
	// client (see scout.Reader.Fetcher).
	Fetcher scout.Fetcher
	// SiteHandlers read the pages of particular web sites their own way,
	// by name (see scout.Reader.SiteHandlers). nil means the built-ins.
	SiteHandlers map[string]scout.SiteHandler
	// URLCache keeps rendered web pages between reads, so that paging a URL
	// does not fetch it again, the URL as shown (its password "xxxxx")
	// too. nil means no cache.
	URLCache *scout.URLCache
	// NoWeb makes read refuse web URLs. false means they are fetched.
	NoWeb bool
	// AllowPrivateNetwork lets read's own fetcher reach loopback, private
	// and link-local addresses. false refuses them.
	AllowPrivateNetwork bool
	// Now is the clock of the ages in read's directory listings. nil means
	// time.Now.
	Now func() time.Time
	// FindOperations routes pi find's discovery to the host (a remote
	// workspace, an index), as pi's custom operations branch does: Glob is
	// given the limit and always leaves out node_modules and .git (the
	// hidden and gitignore arguments are the delegate's to apply), the
	// paths it answers are listed in its order (not sorted by time), and
	// an input path that does not exist fails the call, even among several.
	// The checks of the arguments still look at FS (or Root). nil means
	// find walks the tree; the other toolsets' globs always do.
	FindOperations scout.FindOperations
}

func (c *Config) workspace() scout.Workspace { return scout.Workspace{FS: c.FS, Root: c.Root} }

// searcher is the core Searcher of the host's settings, over ws.
func (c *Config) searcher(ws scout.Workspace) *scout.Searcher {
	return &scout.Searcher{Workspace: ws, MaxFileSize: c.MaxFileSize, Workers: c.Workers, Resolvers: c.Resolvers, Index: c.Index}
}

// reader is the core Reader of the host's settings, over ws.
func (c *Config) reader(ws scout.Workspace) *scout.Reader {
	return &scout.Reader{
		Workspace:           ws,
		DefaultLimit:        c.ReadLimit,
		NoSummaries:         c.NoSummaries,
		ImageMetadataOnly:   c.ImageMetadataOnly,
		Converters:          c.Converters,
		Fetcher:             c.Fetcher,
		NoWeb:               c.NoWeb,
		AllowPrivateNetwork: c.AllowPrivateNetwork,
		SiteHandlers:        c.SiteHandlers,
		URLCache:            c.URLCache,
		Resolvers:           c.Resolvers,
		Now:                 c.Now,
	}
}

// finder is the core Finder of the host's settings, over ws.
func (c *Config) finder(ws scout.Workspace) *scout.Finder {
	return &scout.Finder{Workspace: ws, Resolvers: c.Resolvers}
}

// open opens the workspace once for a call: its FS, and a Workspace over
// that FS for the core tools, so that they do not open the root again.
func (c *Config) open() (fs.FS, scout.Workspace, func(), error) {
	fsys, _, release, err := pathutil.Open(c.FS, c.Root)
	if err != nil {
		return nil, scout.Workspace{}, nil, err
	}
	return fsys, scout.Workspace{FS: fsys, Root: searchRoot(c)}, release, nil
}

func (c *Config) hashline() bool { return c.Style == "" || c.Style == format.StyleHashline }

// check reports a setting that names nothing, which would otherwise render
// the text in no documented style.
func (c *Config) check() error {
	switch c.Style {
	case "", format.StyleHashline, format.StyleNumbered, format.StylePlain:
		return nil
	}
	return errs.New(errs.InvalidParam, "The host's Config.Style is %q: set \"hashline\", \"numbered\" or \"plain\" (\"\" means hashline).", errs.Clip(c.Style))
}

// Tool is one agent-facing tool.
type Tool struct {
	Toolset     string          // "pi", "amplifier" or "standardized"
	Name        string          // the name the model calls
	Description string          // the model-facing description
	Schema      json.RawMessage // JSON Schema of the arguments object, generated from their Go struct

	argsType reflect.Type // the arguments struct
	fields   []argField   // its fields, as decoded
	run      func(ctx context.Context, c *Config, a args) (*scout.Envelope, error)
}

// builders make the tools; each file's init adds its own. Schemas are
// generated on first use, not at start-up, and Call makes only the tool it
// runs, without its schema: a program that links the package, or makes one
// call, does not pay for them.
var builders []builder

type builder struct {
	toolset, name string
	make          func(schema bool) *Tool
}

// registry returns the tools by toolset, each toolset sorted by name.
var registry = sync.OnceValue(func() map[string][]*Tool {
	m := map[string][]*Tool{}
	for _, b := range builders {
		m[b.toolset] = append(m[b.toolset], b.make(true))
	}
	for _, ts := range m {
		sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	}
	return m
})

// define adds a tool whose arguments are the struct T: its schema is
// generated from T's fields and each call's arguments are decoded into a T
// before run sees them (see args.go). Call it from init only.
func define[T any](toolset, name, description string, run func(context.Context, *Config, *T) (*scout.Envelope, error)) {
	builders = append(builders, builder{toolset, name, func(schema bool) *Tool {
		fields := argSpec(reflect.TypeFor[T]())
		t := &Tool{
			Toolset:     toolset,
			Name:        name,
			Description: description,
			argsType:    reflect.TypeFor[T](),
			fields:      fields,
			run: func(ctx context.Context, c *Config, a args) (*scout.Envelope, error) {
				var in T
				if err := decode(a, fields, &in); err != nil {
					return nil, err
				}
				return run(ctx, c, &in)
			},
		}
		if schema {
			t.Schema = schemaOf(fields)
		}
		return t
	}})
}

// Toolsets returns the names of the toolsets, sorted.
func Toolsets() []string {
	var names []string
	for _, b := range builders {
		if !slices.Contains(names, b.toolset) {
			names = append(names, b.toolset)
		}
	}
	sort.Strings(names)
	return names
}

// Tools returns the tools of a toolset ("" means DefaultToolset), sorted by
// name, or an INVALID_PARAM error naming the toolsets that exist.
func Tools(toolset string) ([]Tool, error) {
	if toolset == "" {
		toolset = DefaultToolset
	}
	ts, ok := registry()[toolset]
	if !ok {
		return nil, &scout.Error{Code: scout.CodeInvalidParam, Message: fmt.Sprintf("Unknown toolset '%s'; toolsets: %s.", errs.Echo(toolset), strings.Join(Toolsets(), ", "))}
	}
	out := make([]Tool, len(ts))
	for i, t := range ts {
		out[i] = *t
	}
	return out, nil
}

// Lookup returns a tool by toolset ("" means DefaultToolset) and name, or
// an INVALID_PARAM error naming the toolsets or tools that exist.
func Lookup(toolset, name string) (*Tool, error) {
	ts, err := Tools(toolset)
	if err != nil {
		return nil, err
	}
	var names []string
	for i := range ts {
		if ts[i].Name == name {
			return &ts[i], nil
		}
		names = append(names, ts[i].Name)
	}
	return nil, &scout.Error{Code: scout.CodeInvalidParam, Message: fmt.Sprintf("Unknown tool '%s' in toolset '%s'; tools: %s.", errs.Echo(name), toolsetName(toolset), strings.Join(names, ", "))}
}

func toolsetName(s string) string {
	if s == "" {
		return DefaultToolset
	}
	return s
}

// Call runs the named tool of toolset ("" means DefaultToolset) with its JSON
// arguments (empty means {}; a byte order mark before them is skipped), as
// a model's tool call delivers them, and
// returns its Envelope: show the model its Text. It never panics and never
// returns nil: every failure, including an unknown tool, malformed
// arguments, a nil ctx (CodeInvalidParam), ctx ending (CodeCanceled or
// CodeTimeout) and a panic inside the
// tool, is an error Envelope whose Error.Code a host can branch on.
// Envelope.Data holds values of the toolset's own unexported types, whose
// JSON is the contract; a Go host that wants typed results calls the
// scout package's Finder, Searcher and Reader instead. Call is safe for
// concurrent use, with one Config shared by many calls.
func Call(ctx context.Context, c Config, toolset, name string, arguments []byte) *scout.Envelope {
	arguments = jsonobj.TrimBOM(arguments)
	if ctx == nil {
		env := envelope.Error(errs.NilContext("tool.Call"), paramsOf(arguments))
		env.Context.Cwd = "."
		return env
	}
	for _, b := range builders {
		if b.toolset == toolsetName(toolset) && b.name == name {
			return b.make(false).call(ctx, c, arguments)
		}
	}
	_, err := Lookup(toolset, name) // the error naming what exists
	env := envelope.Error(err, paramsOf(arguments))
	env.Context.Cwd = "."
	return env
}

// call runs t; see Call.
func (t *Tool) call(ctx context.Context, c Config, arguments []byte) (env *scout.Envelope) {
	clock := &callClock{start: time.Now()}
	ctx = context.WithValue(ctx, callClockKey{}, clock)
	params := paramsOf(arguments)
	defer func() {
		if r := recover(); r != nil {
			err := errs.New(errs.Internal, "Internal error in %s/%s: %v. This is a bug in Scout; please report it with the arguments.\n%s", t.Toolset, t.Name, r, firstLines(string(debug.Stack()), 12))
			env = envelope.Error(err, params)
			clock.read = false
		}
		env.Stats.TimeMS = clock.final()
		if env.Context.Cwd == "" {
			env.Context.Cwd = "."
		}
		// The path searched or read may hold a URL with credentials (an
		// internal URL, a delimited list): shown redacted, as the
		// arguments echoed are.
		env.Context.PathResolved = redact.Text(env.Context.PathResolved)
		// So may the pattern (a URL searched for): it is shown as the
		// arguments echoed show it, every other byte kept.
		env.Context.PatternNormalized = redact.Text(env.Context.PatternNormalized)
		if len(env.Context.ParamsInput) == 0 {
			env.Context.ParamsInput = envelope.Params(params)
		}
	}()
	if err := c.check(); err != nil {
		return envelope.Error(err, params)
	}
	a, err := parseArgs(arguments, t.fields)
	if err != nil {
		return envelope.Error(err, params)
	}
	if err := ctx.Err(); err != nil {
		return envelope.Error(errs.Stopped(ctx, "Call", err), params)
	}
	env, err = t.run(ctx, &c, a)
	if err != nil {
		return envelope.Error(err, params)
	}
	return env
}

// callClock times a call: stats.time_ms is the time from the call's start
// to its end, unless the tool printed a time in its text (elapsedMS), which
// is then the time reported, so that the two agree.
type callClock struct {
	start time.Time
	ms    int64
	read  bool
}

type callClockKey struct{}

// elapsedMS returns the milliseconds since the call in ctx started and
// makes them the call's stats.time_ms; 0 outside a call.
func elapsedMS(ctx context.Context) int64 {
	c, _ := ctx.Value(callClockKey{}).(*callClock)
	if c == nil {
		return 0
	}
	c.ms, c.read = time.Since(c.start).Milliseconds(), true
	return c.ms
}

func (c *callClock) final() int64 {
	if c.read {
		return c.ms
	}
	return time.Since(c.start).Milliseconds()
}

// paramsOf is the params_input of arguments: as given, except that no
// arguments (empty or blank), which the tools read as {}, are {}.
func paramsOf(arguments []byte) json.RawMessage {
	if len(bytes.TrimSpace(arguments)) == 0 {
		return json.RawMessage("{}")
	}
	return json.RawMessage(arguments)
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// okEnvelope builds a success or partial Envelope.
func okEnvelope(partial bool, data any, text string) *scout.Envelope {
	st := scout.StatusSuccess
	if partial {
		st = scout.StatusPartial
	}
	return &scout.Envelope{Status: st, Data: data, Text: text}
}

// gitSearchPaths returns paths, the paths of a search that left out
// skipped, with each one whose directory leads into a .git through a
// symlink named by where it leads ("g" and "g/*" are ".git" and ".git/*"
// for a link "g" to ".git"), for the note that .git is never searched
// (pitext.SearchGitHint), which sees only the names. paths itself when
// none does, or when no ignored entry needs the note.
func gitSearchPaths(fsys fs.FS, root string, paths []string, skipped map[scout.SkipReason]int) []string {
	if skipped[scout.SkipIgnored] == 0 {
		return paths
	}
	out, copied := paths, false
	for i, p := range paths {
		base, pattern := glob.SplitSearch(p)
		rp, err := pathutil.Resolve(root, base)
		if err != nil {
			continue
		}
		real, ok := walk.LeadsToGit(fsys, rp)
		if !ok || real == rp {
			continue
		}
		if !copied {
			out, copied = slices.Clone(paths), true
		}
		out[i] = path.Join(real, pattern)
	}
	return out
}
