package web

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Handler renders the pages of one site its own way: step 2 of the
// pipeline, tried before the page itself is fetched, and skipped for :raw.
type Handler interface {
	// Handle returns the page of u, or nil when u is not one of the site's
	// pages. f fetches within the read's request budget (MaxRequests). An
	// error is noted on the page and the pipeline goes on with u itself;
	// only a canceled ctx ends the read. Render fills in the page's URL,
	// and FinalURL, ContentType and Method when they are "".
	Handle(ctx context.Context, f Fetcher, u *url.URL) (*Page, error)
}

// HandlerFunc adapts a function to a Handler.
type HandlerFunc func(ctx context.Context, f Fetcher, u *url.URL) (*Page, error)

// Handle calls h.
func (h HandlerFunc) Handle(ctx context.Context, f Fetcher, u *url.URL) (*Page, error) {
	return h(ctx, f, u)
}

// Methods of the built-in site handlers.
const (
	MethodGitHubRaw    = "github-raw"    // a github.com blob page read as its raw file
	MethodGitHubReadme = "github-readme" // a github.com repository root read as its README
	MethodGitLabRaw    = "gitlab-raw"    // a gitlab.com blob page read as its raw file
)

// builtinHandlers are the site handlers every Render uses unless
// Options.Handlers replaces one by name.
var builtinHandlers = map[string]Handler{
	"github": builtin(github),
	"gitlab": builtin(gitlab),
}

// builtin is a built-in site handler: it also gets the Render's options,
// so that a raw file it fetches is rendered with the caller's converters.
type builtin func(ctx context.Context, f Fetcher, u *url.URL, o Options) (*Page, error)

// Handle calls b with the zero Options.
func (b builtin) Handle(ctx context.Context, f Fetcher, u *url.URL) (*Page, error) {
	return b(ctx, f, u, Options{})
}

// namedHandler is a handler with the name it was registered under.
type namedHandler struct {
	name string
	h    Handler
}

// handlers is the registry of one Render: the host's handlers in name
// order, then the built-ins the host did not replace, in name order. A
// host entry with a nil Handler removes the built-in of that name.
func handlers(host map[string]Handler) []namedHandler {
	var out []namedHandler
	add := func(m map[string]Handler, skip map[string]Handler) {
		names := make([]string, 0, len(m))
		for n := range m {
			if _, replaced := skip[n]; !replaced {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		for _, n := range names {
			if m[n] != nil {
				out = append(out, namedHandler{n, m[n]})
			}
		}
	}
	add(host, nil)
	add(builtinHandlers, host)
	return out
}

// segments splits a URL path into its non-empty segments.
func segments(p string) []string {
	var out []string
	for s := range strings.SplitSeq(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// githubReserved reports the first path segments of github.com that are
// not users or organisations.
func githubReserved(seg string) bool {
	switch seg {
	case "about", "apps", "collections", "codespaces", "enterprise", "events",
		"explore", "features", "login", "marketplace", "new", "notifications",
		"orgs", "organizations", "pricing", "pulls", "issues", "search",
		"security", "settings", "site", "sponsors", "topics", "trending":
		return true
	}
	return false
}

// github reads a blob page (github.com/o/r/blob/ref/path) as its raw file
// from raw.githubusercontent.com, and a repository root (github.com/o/r)
// as its README: README.md at the default branch, else whatever the
// GitHub API names the README.
func github(ctx context.Context, f Fetcher, u *url.URL, o Options) (*Page, error) {
	if h := strings.ToLower(u.Hostname()); h != "github.com" && h != "www.github.com" {
		return nil, nil
	}
	seg := segments(u.EscapedPath())
	switch {
	case len(seg) >= 5 && seg[2] == "blob" && !githubReserved(strings.ToLower(seg[0])):
		raw := "https://raw.githubusercontent.com/" + strings.Join(append(seg[:2:2], seg[3:]...), "/")
		return rawFile(ctx, f, raw, MethodGitHubRaw, o)
	case len(seg) == 2 && !githubReserved(strings.ToLower(seg[0])):
		return githubReadme(ctx, f, seg[0], seg[1], o)
	}
	return nil, nil
}

// githubReadme fetches a repository's README.
func githubReadme(ctx context.Context, f Fetcher, owner, repo string, o Options) (*Page, error) {
	raw := "https://raw.githubusercontent.com/" + owner + "/" + repo + "/HEAD/README.md"
	p, rawErr := rawFile(ctx, f, raw, MethodGitHubReadme, o)
	if rawErr == nil || ctx.Err() != nil {
		return p, rawErr
	}
	api := "https://api.github.com/repos/" + owner + "/" + repo + "/readme"
	resp, err := f.Fetch(ctx, api)
	if err == nil && (resp.Status < 200 || resp.Status > 299) {
		err = fmt.Errorf("HTTP %d from %s", resp.Status, api)
	}
	if err != nil {
		return nil, fmt.Errorf("%v; %v", rawErr, err)
	}
	var doc struct {
		Name, Encoding, Content, DownloadURL string
	}
	if err := json.Unmarshal(resp.Body, &doc); err != nil || doc.Encoding != "base64" {
		return nil, fmt.Errorf("%v; unexpected answer from %s", rawErr, api)
	}
	text, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(doc.Content, "\n", ""))
	if err != nil {
		return nil, fmt.Errorf("%v; README from %s: %v", rawErr, api, err)
	}
	ct := "text/plain"
	if strings.HasSuffix(strings.ToLower(doc.Name), ".md") || strings.HasSuffix(strings.ToLower(doc.Name), ".markdown") {
		ct = "text/markdown"
	}
	return &Page{FinalURL: api, ContentType: ct, Method: MethodGitHubReadme, Content: decode(text, ct, nil),
		Notes: []string{"Read " + doc.Name + " through the GitHub API"}}, nil
}

// gitlab reads a gitlab.com blob page (.../-/blob/ref/path) as its raw
// file (.../-/raw/ref/path).
func gitlab(ctx context.Context, f Fetcher, u *url.URL, o Options) (*Page, error) {
	if strings.ToLower(u.Hostname()) != "gitlab.com" {
		return nil, nil
	}
	seg := segments(u.EscapedPath())
	i := slices.Index(seg, "-")
	if i < 2 || len(seg) < i+4 || seg[i+1] != "blob" {
		return nil, nil
	}
	seg[i+1] = "raw"
	return rawFile(ctx, f, "https://gitlab.com/"+strings.Join(seg, "/"), MethodGitLabRaw, o)
}

// rawFile fetches a raw file and renders it as a body with o's
// converters: text gets method, an image or a document keeps its own. A
// response other than 2xx is an error, so that the pipeline reads the page
// itself.
func rawFile(ctx context.Context, f Fetcher, raw, method string, o Options) (*Page, error) {
	resp, err := f.Fetch(ctx, raw)
	if err != nil {
		return nil, err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, fmt.Errorf("HTTP %d from %s", resp.Status, raw)
	}
	p := &Page{FinalURL: cmpOr(resp.FinalURL, raw)}
	bodyCut(p, resp)
	if err := renderBody(ctx, nil, p, resp, o); err != nil {
		return nil, err
	}
	switch p.Method {
	case MethodText, MethodJSON, MethodFeed, MethodReadability, MethodHTML, MethodAlternate:
		p.Method = method
	default:
		p.Notes = append(p.Notes, "Raw file: "+raw)
	}
	return p, nil
}
