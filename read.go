package scout

import (
	"context"
	"io"
	neturl "net/url"
	"strings"
	"time"

	"github.com/scoutkit/scout/internal/convert"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/iurl"
	"github.com/scoutkit/scout/internal/read"
	"github.com/scoutkit/scout/internal/web"
)

// Reader reads one path string with selectors. Its zero value reads from the
// current directory with the documented defaults (a nil *Reader reads as the
// zero value does); it is safe for concurrent use and calls never modify it.
// A call's ctx must not be nil: a nil one is a CodeInvalidParam error.
type Reader struct {
	Workspace
	// DefaultLimit is the number of lines an open-ended file read or a
	// directory listing shows ("f.go", "f.go:100"; a listing read without
	// a selector shows ListingLimit rows when it is set). 0 means
	// DefaultReadLimit (300); negative values, and values above 3000, mean
	// 3000, the most one read shows. In-memory texts
	// (archive members, notebooks, documents, resources) show up to 3000
	// lines / 50 KB instead, web pages 300 lines / 50 KB.
	DefaultLimit int
	// ListingLimit is the number of rows a directory listing read without
	// a line selector shows ("src", not "src:301"), within 50 KB, as the
	// pi toolset's read shows one (it sets 3000). 0 means the listing is
	// read as an open-ended file is: DefaultLimit rows, within
	// max(50 KB, rows×512 bytes). Negative values, and values above 3000,
	// mean 3000. A selector pages a listing as it pages a file:
	// "src:301" shows DefaultLimit rows from row 301.
	ListingLimit int
	// NoSummaries turns off code summaries: a source file read without a
	// selector is then shown as lines. false means summaries are on. A
	// summary is shown only when it is shorter than the file: at most 3000
	// rows within the byte budget of as many lines (max(50 KB, rows×512
	// bytes)), and either no more rows than DefaultLimit or at most half
	// the file's lines; otherwise (a file that is mostly one literal, say)
	// the file is read as lines, as with NoSummaries.
	NoSummaries bool
	// ImageMetadataOnly returns an image's metadata without its bytes.
	// false means the bytes are returned (up to 20 MiB).
	ImageMetadataOnly bool
	// Converters replace or add document converters by extension (".pdf";
	// "pdf" without the dot is the same, compared without regard to case).
	// nil means the built-in converters only (.pdf .docx .pptx .xlsx .doc
	// .ppt .xls .rtf .epub); a nil Converter is ignored, leaving the
	// built-in one of its extension, if any.
	Converters map[string]Converter
	// Now is the clock used for the ages in directory listings. nil means
	// time.Now.
	Now func() time.Time
	// PruneDirs are directory names a directory listing leaves out at
	// every depth it shows, e.g. "node_modules" (the pi toolset's read
	// prunes node_modules, .git, .next, dist, build, target, .venv,
	// .cache, .turbo, .parcel-cache and coverage). Each directory left out
	// is counted in the result's Skipped as SkipIgnored and named in
	// SkippedPaths; a directory read by name is listed. nil prunes no
	// directory but .git, which a listing never shows (nor .DS_Store
	// files).
	PruneDirs []string
	// SuffixMatch reads a path that does not exist as the one entry of the
	// tree whose path ends with it, whole segments compared ("deep/x.go"
	// reads "src/deep/x.go"; .git is not searched, node_modules only when
	// the path names it), found within 5 seconds: the result's
	// SuffixResolution says so. An archive or database path found so
	// ("a.zip:f.go", "app.db:users") is read as one. No match, or more
	// than one, leaves the path missing. false means a missing path is a
	// CodeNotFound error.
	SuffixMatch bool
	// Fetcher fetches web URLs (http://, https://, www.). nil means a
	// net/http client with a deadline of FetchTimeout, a 20 MiB body cap
	// and at most 10 redirects.
	Fetcher Fetcher
	// FetchTimeout bounds each request of Scout's own fetcher (used when
	// Fetcher is nil), its body included; the probes a read makes around
	// an HTML page (its markdown version, feed, llms.txt, ...) are also
	// bounded by 10 s each and 15 s together. 0 or negative means 30 s.
	FetchTimeout time.Duration
	// NoWeb refuses web URLs. false means they are fetched.
	NoWeb bool
	// AllowPrivateNetwork lets Scout's own fetcher (used when Fetcher is
	// nil) read URLs of loopback ("localhost"), private (RFC 1918,
	// fc00::/7), link-local and cloud metadata (169.254.169.254,
	// fe80::/10, fd00:ec2::254, metadata.google.internal), shared and
	// unspecified addresses, IPv4-mapped forms included. false refuses
	// them with an ACCESS_DENIED error, checked on the address each
	// connection is made to (redirects and names that change their
	// answer included). A host Fetcher makes its own checks.
	AllowPrivateNetwork bool
	// URLHeaderLines puts a web page's header before its body in the
	// lines of the read, as the pi toolset's read shows it: "URL: ...",
	// "Content-Type: ...", "Method: ...", "Notes: ..." when there are
	// notes, then an empty line, "---" and an empty line. Line selectors,
	// totals and the next page then count the header's lines
	// (ReadURL.HeaderLines says how many). false means the lines are the
	// body alone ("https://host/x.txt:2" is the body's line 2), the
	// header's fields being data in ReadResult.URL only.
	URLHeaderLines bool
	// SiteHandlers read the pages of particular web sites their own way,
	// by name. They are tried in name order before the built-in ones
	// ("github": blob pages as raw files, repository roots as their
	// README; "gitlab": blob pages as raw files), never for ":raw". A
	// handler named like a built-in replaces it; a nil one removes it. nil
	// means the built-ins only.
	SiteHandlers map[string]SiteHandler
	// URLCache keeps rendered web pages so that paging a URL ("url:301")
	// does not fetch it again, and so that the URL a result shows, its
	// password "xxxxx", pages the page read with the password. nil means
	// no cache: every read fetches, and a URL as shown is an error.
	URLCache *URLCache
	// URLImageMaxBytes is the most bytes of an image fetched from a URL
	// that a read returns (ReadResult.ImageData): a larger one is scaled
	// down and encoded again to fit, or left out with a note. 0 or
	// negative means 300 KiB. An image file read from the tree is
	// returned whole, up to 20 MiB.
	URLImageMaxBytes int
	// Resolvers resolve internal URLs by scheme ("skill", "memory", ...,
	// without "://"). nil means only the built-in omp:// (Scout's own
	// documentation: omp:// lists the documents, omp://README.md reads
	// one); an internal URL of another scheme is then an UNSUPPORTED error.
	// A resolver registered for "omp" replaces the built-in one; a nil
	// Resolver is ignored, as if its scheme were not in the map.
	Resolvers map[string]Resolver
}

// Fetcher fetches a web URL. It returns an error only when no response was
// received; an HTTP error status is a response. A nil response without an
// error fails the read with a CodeInternal error that says so.
type Fetcher interface {
	// Fetch fetches url (http:// or https://), stopping when ctx is done.
	Fetch(ctx context.Context, url string) (*FetchResponse, error)
}

// FetchResponse is a fetched URL.
type FetchResponse struct {
	URL         string   `json:"url"`                    // the URL requested
	FinalURL    string   `json:"final_url"`              // the URL after redirects
	Status      int      `json:"status"`                 // HTTP status code, 100 to 599 (another fails the read)
	ContentType string   `json:"content_type,omitempty"` // the Content-Type header; "" when none
	Body        []byte   `json:"body"`                   // the body, at most the fetcher's cap
	Redirects   []string `json:"redirects,omitempty"`    // the URLs redirected to, in order; nil when none
	Truncated   bool     `json:"truncated,omitempty"`    // the body was cut at the cap
}

// SiteHandler reads the pages of one web site its own way (a GitHub blob
// page as its raw file, say).
type SiteHandler interface {
	// Handle returns the page of url, or nil when url is not one of the
	// site's pages. fetch fetches within the read's request budget (the
	// site handlers share 2 requests). An error is shown in the page's
	// notes, and url is then fetched as usual.
	Handle(ctx context.Context, url string, fetch Fetcher) (*SitePage, error)
}

// SitePage is a page read by a SiteHandler.
type SitePage struct {
	URL         string   `json:"url,omitempty"`          // where the content came from; "" means the URL read
	ContentType string   `json:"content_type,omitempty"` // the content's media type; "" means text/plain
	Method      string   `json:"method,omitempty"`       // shown on the Method: line; "" means "site:" and the handler's name
	Content     string   `json:"content"`                // the text shown
	Notes       []string `json:"notes,omitempty"`        // remarks shown on the Notes: line; nil when none
}

// URLCache keeps rendered web pages by URL and mode (rendered or :raw), at
// most 100 pages and 64 MiB (a page counted under its requested and its
// final URL), least recently used dropped first; a larger page is not
// kept. Its zero value is ready; it is safe for concurrent use.
type URLCache struct{ c web.Cache }

// Resolver resolves the internal URLs of one scheme.
type Resolver interface {
	// Resolve returns the resource of url (without selector, e.g.
	// "skill://deploy"). A missing resource is a CodeNotFound *Error.
	Resolve(ctx context.Context, url string) (*Resource, error)
}

// Resource is an internal URL's content.
type Resource struct {
	// SourcePath is the backing file, relative to the workspace root;
	// "" for a virtual resource. A mutable resource with a backing file is
	// read as that file (a directory when Text is empty); one that cannot
	// be read (missing, outside the root) is an error when Text is empty,
	// else Text is read with a note that says why.
	SourcePath string `json:"source_path,omitempty"`
	// Text is the content of a virtual resource.
	Text string `json:"text,omitempty"`
	// Immutable marks a resource that cannot be edited: no hashline
	// anchors are shown.
	Immutable bool `json:"immutable,omitempty"`
	// ContentType is a MIME type; "" means text/plain.
	ContentType string `json:"content_type,omitempty"`
	// Notes are short remarks shown with the content; nil when none.
	Notes []string `json:"notes,omitempty"`
}

// Converter converts a document (a PDF, a DOCX, ...) to text or markdown.
type Converter interface {
	// Convert reads the size bytes of r and returns the document's text.
	Convert(ctx context.Context, r io.ReaderAt, size int64) (string, error)
}

// ReadRequest is one read.
type ReadRequest struct {
	// Path is a file or directory path, relative to the root or absolute
	// inside it, optionally followed by a selector (":50-100", ":raw",
	// ":conflicts"); or an archive path ("a.zip:dir/f.go:10-20"), whose
	// member path ends at the first ':' that a selector follows (a member
	// may be named "a:b.txt"). A path that exists as written is read as
	// it is ("test:1-2"), and a name that ends in a selector takes a
	// compound one ("p:5:raw" reads a file "p:5" raw when "p" is missing).
	// A line range reads exactly its lines: "f.go:30-40" gives lines 30
	// to 40.
	// The path before the selector is at most 4096 bytes (a name at most
	// 255), the selector or SQLite query after it ("db?q=SELECT ...") at
	// most 64 KiB; a longer one is a CodeInvalidParam error.
	Path string `json:"path"`
	// Before and After widen a single line range of a text ("f.go:30-40")
	// by that many lines before its start and after its end, as context
	// around the lines asked for (the pi toolset's read sets 1 and 3). 0
	// adds none. An open-ended range ("f.go:30") gets Before only, on top
	// of the DefaultLimit lines from its start, and a context line never
	// keeps the range's first line off the page, whatever its size. A
	// list of ranges, a :raw read and a
	// directory or archive listing are read exactly. Negative values are
	// an INVALID_PARAM error.
	Before int `json:"before,omitempty"`
	After  int `json:"after,omitempty"`
}

// Read reads req.Path. The error reports a bad path or selector, a path
// that does not exist or lies outside the root, a file that cannot be
// read, a document that cannot be converted, a URL that cannot be fetched
// or shown (a network failure, an HTTP error status, a private address, a
// binary body), or cancellation; anything else is in the result (a
// document converted in part, a body cut at the fetcher's cap: the
// result's Incomplete says so).
func (r *Reader) Read(ctx context.Context, req ReadRequest) (*ReadResult, error) {
	if err := nilContext(ctx, "Read"); err != nil {
		return nil, err
	}
	if r == nil {
		r = &Reader{}
	}
	if err := contextLines(req.Before, req.After); err != nil {
		return nil, err
	}
	fsys, root, release, err := r.open()
	if err != nil {
		return nil, err
	}
	defer release()
	c := &read.Config{
		FS:                  fsys,
		Root:                root,
		Limit:               readLimit(r.DefaultLimit),
		ListingLimit:        listingLimit(r.ListingLimit),
		Before:              req.Before,
		After:               req.After,
		NoSummaries:         r.NoSummaries,
		NoWeb:               r.NoWeb,
		AllowPrivateNetwork: r.AllowPrivateNetwork,
		FetchTimeout:        max(r.FetchTimeout, 0),
		URLImageMaxBytes:    max(r.URLImageMaxBytes, 0),
		ImageMetadataOnly:   r.ImageMetadataOnly,
		Now:                 r.Now,
		PruneDirs:           r.PruneDirs,
		SuffixMatch:         r.SuffixMatch,
		URLHeader:           r.URLHeaderLines,
	}
	if r.URLCache != nil {
		c.WebCache = &r.URLCache.c
	}
	if r.Fetcher != nil || len(r.SiteHandlers) > 0 {
		c.Fetcher = webClient(r.Fetcher, r.SiteHandlers)
	}
	if len(r.Resolvers) > 0 {
		c.Registry = registry(r.Resolvers)
	}
	if len(r.Converters) > 0 {
		c.Converters = make(map[string]convert.Converter, len(r.Converters))
		for ext, conv := range r.Converters {
			if conv == nil {
				continue
			}
			ext = strings.ToLower(ext)
			if !strings.HasPrefix(ext, ".") {
				ext = "." + ext
			}
			c.Converters[ext] = hostConverter{conv}
		}
	}
	res, err := read.Run(ctx, c, req.Path)
	if err != nil {
		return nil, fail(ctx, "Read", err)
	}
	return exportResult(res), nil
}

// webClient adapts the host's fetcher (nil means the default) and site
// handlers to the web package.
func webClient(f Fetcher, sites map[string]SiteHandler) web.Fetcher {
	c := &web.Client{Handlers: make(map[string]web.Handler, len(sites))}
	if f != nil {
		c.Fetcher = web.FetcherFunc(func(ctx context.Context, url string) (*web.Response, error) {
			resp, err := f.Fetch(ctx, url)
			if err == nil && resp == nil {
				return nil, errs.New(errs.Internal, "the host's Fetcher returned neither a response nor an error: it must return one of them (an HTTP error status is a response)")
			}
			if err != nil {
				return nil, hostErr(err)
			}
			if resp.Status < 100 || resp.Status > 599 {
				return nil, errs.New(errs.Internal, "the host's Fetcher returned the HTTP status %d: it must set FetchResponse.Status to the response's status code, 100 to 599 (200 for a page fetched)", resp.Status)
			}
			return &web.Response{URL: resp.URL, FinalURL: resp.FinalURL, Status: resp.Status, ContentType: resp.ContentType,
				Body: resp.Body, Redirects: resp.Redirects, Truncated: resp.Truncated}, nil
		})
	}
	for name, h := range sites {
		if h == nil {
			c.Handlers[name] = nil
			continue
		}
		c.Handlers[name] = web.HandlerFunc(func(ctx context.Context, wf web.Fetcher, u *neturl.URL) (*web.Page, error) {
			fetch := fetcherFunc(func(ctx context.Context, url string) (*FetchResponse, error) {
				resp, err := wf.Fetch(ctx, url)
				if err != nil {
					return nil, exportErr(err)
				}
				return &FetchResponse{URL: resp.URL, FinalURL: resp.FinalURL, Status: resp.Status, ContentType: resp.ContentType,
					Body: resp.Body, Redirects: resp.Redirects, Truncated: resp.Truncated}, nil
			})
			p, err := h.Handle(ctx, u.String(), fetch)
			if err != nil || p == nil {
				return nil, hostErr(err)
			}
			return &web.Page{FinalURL: p.URL, ContentType: p.ContentType, Method: p.Method, Content: p.Content, Notes: p.Notes}, nil
		})
	}
	return c
}

// hostConverter passes a host converter's errors to the engine with their
// codes.
type hostConverter struct{ c Converter }

func (h hostConverter) Convert(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	text, err := h.c.Convert(ctx, r, size)
	return text, hostErr(err)
}

// fetcherFunc adapts a function to the public Fetcher.
type fetcherFunc func(ctx context.Context, url string) (*FetchResponse, error)

func (f fetcherFunc) Fetch(ctx context.Context, url string) (*FetchResponse, error) {
	return f(ctx, url)
}

// registry registers resolvers, by scheme, beside the built-in omp://
// (Scout's own documentation).
func registry(resolvers map[string]Resolver) *iurl.Registry {
	reg := &iurl.Registry{}
	for scheme, res := range resolvers {
		if res == nil {
			continue
		}
		reg.Register(scheme, resolverFunc(res))
	}
	return reg
}

// resolverFunc adapts a host Resolver to the internal registry.
func resolverFunc(res Resolver) iurl.Resolver {
	return iurl.ResolverFunc(func(ctx context.Context, u *iurl.URL) (*iurl.Resource, error) {
		r, err := res.Resolve(ctx, u.Raw)
		if err != nil {
			return nil, hostErr(err)
		}
		if r == nil {
			return nil, errs.New(errs.NotFound, "Not found: %s", u.Raw)
		}
		return &iurl.Resource{URL: u.Raw, SourcePath: r.SourcePath, Text: r.Text, Immutable: r.Immutable, ContentType: r.ContentType, Notes: r.Notes}, nil
	})
}
