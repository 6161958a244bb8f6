// Package iurl resolves internal URLs (agent://, artifact://, skill://,
// memory://, local://, rule://, mcp://, omp://, ...) through a registry of
// resolvers keyed by scheme; Docs, Scout's embedded documentation, is
// built into every Registry as omp://. Paging the resolved text is the
// caller's.
//
// An internal URL is scheme://host[/path][?query][:selector]. The host may
// contain colons (namespaced skills: skill://team:deploy), so URLs are not
// parsed with net/url. Line selectors are peeled off the end before
// parsing, repeatedly (agent://x:raw:5-10), except for mcp:// URLs, which
// are opaque.
package iurl

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/glob"
)

// known are the schemes recognised as internal URLs even when no resolver
// is registered for them (reading one then fails with a clear error rather
// than looking for a local file named "memory:").
var known = []string{"agent", "artifact", "issue", "local", "mcp", "memory", "omp", "pr", "rule", "skill", "vault"}

// Resource is what a resolver returns.
type Resource struct {
	// URL is the resolved URL, without selector.
	URL string
	// SourcePath names the backing file ("" for a virtual resource). It is
	// informational: Text always holds the content.
	SourcePath string
	// Text is the content.
	Text string
	// Immutable marks a resource with no editable target: no hashline
	// anchors are shown for it.
	Immutable bool
	// ContentType is a MIME type ("" means text/plain).
	ContentType string
	// Notes are short remarks for the reader ("Extracted: /reports/0").
	Notes []string
}

// Resolver resolves the URLs of one scheme.
type Resolver interface {
	Resolve(ctx context.Context, u *URL) (*Resource, error)
}

// Lister is implemented by a resolver whose URLs can name a collection of
// resources (omp:// names every embedded document). List returns the URLs
// of the resources in the collection u names, sorted, or nil when u names
// one resource or nothing.
type Lister interface {
	List(ctx context.Context, u *URL) ([]string, error)
}

// ResolverFunc adapts a function to a Resolver.
type ResolverFunc func(ctx context.Context, u *URL) (*Resource, error)

// Resolve calls f.
func (f ResolverFunc) Resolve(ctx context.Context, u *URL) (*Resource, error) { return f(ctx, u) }

// URL is a parsed internal URL.
type URL struct {
	Raw    string     // the URL as given, without selector
	Scheme string     // lower-case, without "://"
	Host   string     // the part after "://" up to the first "/" or "?"; may hold colons
	Path   string     // "" or starting with "/", percent-decoded
	Query  url.Values // nil when there is no "?"
}

// Segments returns the non-empty segments of u.Path.
func (u *URL) Segments() []string {
	var out []string
	for _, s := range strings.Split(u.Path, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Parse parses an internal URL without selector.
func Parse(p string) (*URL, error) {
	i := strings.Index(p, "://")
	if i <= 0 || !validScheme(p[:i]) {
		return nil, errs.New(errs.InvalidParam, "Invalid internal URL %q: expected scheme://name", p)
	}
	u := &URL{Raw: p, Scheme: strings.ToLower(p[:i])}
	rest := p[i+3:]
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		vals, err := url.ParseQuery(rest[q+1:])
		if err != nil {
			return nil, errs.Wrap(errs.InvalidParam, err, "Invalid query in %q: %v", p, err)
		}
		u.Query, rest = vals, rest[:q]
	}
	host, path, _ := strings.Cut(rest, "/")
	u.Host = host
	if strings.Contains(rest, "/") {
		dec, err := url.PathUnescape("/" + path)
		if err != nil {
			dec = "/" + path
		}
		u.Path = dec
	}
	return u, nil
}

func validScheme(s string) bool {
	for i, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')
		if !ok {
			return false
		}
	}
	return s != ""
}

// builtin are the resolvers every Registry has, unless one is registered
// for the same scheme.
var builtin = map[string]Resolver{"omp": Docs{}}

// Builtin reports whether every Registry resolves scheme ("omp", without
// "://") without one being registered.
func Builtin(scheme string) bool { return builtin[strings.ToLower(scheme)] != nil }

// Registry maps schemes to resolvers. The zero value (and a nil *Registry)
// has none registered and resolves only the built-in scheme omp:// (Scout's
// documentation, see Docs); it is safe for concurrent use.
type Registry struct {
	mu sync.RWMutex
	m  map[string]Resolver
}

// Register sets the resolver of scheme ("skill", without "://"); a nil
// resolver removes it. A resolver registered for "omp" replaces the
// built-in Docs; removing it restores Docs.
func (r *Registry) Register(scheme string, res Resolver) {
	r.mu.Lock()
	defer r.mu.Unlock()
	scheme = strings.ToLower(scheme)
	if res == nil {
		delete(r.m, scheme)
		return
	}
	if r.m == nil {
		r.m = map[string]Resolver{}
	}
	r.m[scheme] = res
}

// Schemes returns the registered schemes, sorted (built-in omp only when
// registered).
func (r *Registry) Schemes() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.m))
	for s := range r.m {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// get returns the resolver of scheme: the registered one, else the
// built-in one, else nil.
func (r *Registry) get(scheme string) Resolver {
	if r != nil {
		r.mu.RLock()
		res := r.m[scheme]
		r.mu.RUnlock()
		if res != nil {
			return res
		}
	}
	return builtin[scheme]
}

// CanHandle reports whether p is an internal URL: its scheme is one of
// agent, artifact, issue, local, mcp, memory, omp, pr, rule, skill and
// vault, or is registered. A nil Registry handles the known schemes.
func (r *Registry) CanHandle(p string) bool {
	i := strings.Index(p, "://")
	if i <= 0 {
		return false
	}
	scheme := strings.ToLower(p[:i])
	return slices.Contains(known, scheme) || r.get(scheme) != nil
}

// Resolve resolves p (without selector). An unregistered scheme gives an
// UNSUPPORTED error, a resolver's not-found error is passed through.
func (r *Registry) Resolve(ctx context.Context, p string) (*Resource, error) {
	u, err := Parse(p)
	if err != nil {
		return nil, err
	}
	res := r.get(u.Scheme)
	if res == nil {
		return nil, errs.New(errs.Unsupported, "%s:// URLs are not available here: no resolver is registered for the %q scheme", u.Scheme, u.Scheme)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out, err := res.Resolve(ctx, u)
	if err != nil {
		return nil, err
	}
	if out == nil {
		return nil, errs.New(errs.NotFound, "%s not found", errs.Echo(p))
	}
	if out.URL == "" {
		out.URL = p
	}
	return out, nil
}

// Expand replaces each entry that names a collection of internal resources
// (omp://, omp://docs) with the URLs of its resources, so that a search
// can use it as a root; other entries, including globs and entries that are
// not internal URLs, are kept as they are, in order. A nil Registry expands
// the built-in omp:// only.
func (r *Registry) Expand(ctx context.Context, entries []string) ([]string, error) {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		urls, err := r.list(ctx, e)
		if err != nil {
			return nil, err
		}
		if len(urls) == 0 {
			out = append(out, e)
			continue
		}
		out = append(out, urls...)
	}
	return out, nil
}

// list returns the URLs of the collection e names, or nil.
func (r *Registry) list(ctx context.Context, e string) ([]string, error) {
	if !r.CanHandle(e) || glob.HasMeta(e) { // a glob is refused when resolved
		return nil, nil
	}
	u, err := Parse(e)
	if err != nil {
		return nil, nil // not a URL; resolving it reports why
	}
	l, ok := r.get(u.Scheme).(Lister)
	if !ok {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return l.List(ctx, u)
}
