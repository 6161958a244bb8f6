package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/charset"

	"github.com/scoutkit/scout/internal/convert"
	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/readable"
	"github.com/scoutkit/scout/internal/redact"
	"github.com/scoutkit/scout/internal/textio"
)

// Render methods, as shown on the Method: line.
const (
	MethodJSON           = "json"
	MethodFeed           = "feed"
	MethodText           = "text"
	MethodAlternate      = "alternate-markdown"  // the page's <link rel="alternate" type="text/markdown">
	MethodMDSuffix       = "md-suffix"           // the page's URL with .md appended (the llms.txt convention)
	MethodNegotiated     = "content-negotiation" // the page's URL asked for with Accept: text/markdown
	MethodLLMs           = "llms.txt"            // the site's /llms.txt, for a page that renders to almost nothing
	MethodLinkedDocument = "linked-document"     // the document (PDF, ...) a page that renders to almost nothing links to
	MethodReadability    = "readability"         // HTML main content (package readable), as markdown
	MethodHTML           = "html-to-markdown"    // the whole HTML page as markdown (readability found no article)
	MethodDocument       = "markit"              // a document (PDF, DOCX, ...) converted to text
	MethodImage          = "image"
	MethodRaw            = "raw"
	MethodRawHTML        = "raw-html"
)

// maxErrorBody is how much of an error page's text an HTTP error quotes.
const maxErrorBody = 300

// maxErrorHTML is the most of an HTML error page converted to text, of
// which maxErrorBody bytes are quoted.
const maxErrorHTML = 64 << 10

// Page is a rendered URL. Its URLs keep their credentials (a cache keys
// pages by them); Header shows them through redact.URL, and so should a
// caller; the notes and the errors show URLs redacted (see Render).
type Page struct {
	URL         string   // the URL requested (normalised: https:// added to www.)
	FinalURL    string   // the URL after redirects
	Redirects   []string // the URLs redirected to, in order, the last one FinalURL; nil when none
	ContentType string   // the media type, without parameters
	Method      string   // how the content was rendered (the Method* constants)
	Notes       []string // remarks: truncation, fallbacks, failures (ShownNotes adds the redirects)
	Content     string   // the rendered text
	Image       []byte   // the bytes when Method is MethodImage
	// Incomplete says why Content is not the whole resource: the body
	// cut at the fetcher's cap, a document converted in part; "" when it
	// is whole.
	Incomplete string
}

// Header returns the lines that precede the content:
// "URL: ...\nContent-Type: ...\nMethod: ...\n[Notes: a; b\n]\n---\n\n",
// the notes those of ShownNotes.
func (p *Page) Header() string {
	var b strings.Builder
	fmt.Fprintf(&b, "URL: %s\nContent-Type: %s\nMethod: %s\n", redact.URL(p.FinalURL), p.ContentType, p.Method)
	if notes := p.ShownNotes(); len(notes) > 0 {
		fmt.Fprintf(&b, "Notes: %s\n", strings.Join(notes, "; "))
	}
	b.WriteString("\n---\n\n")
	return b.String()
}

// Output returns the header and the content: the text read shows and pages.
func (p *Page) Output() string { return p.Header() + p.Content }

// ShownNotes returns the notes shown with the page: with redirects, first
// "Redirected: URL -> URL ...", the URL requested and those redirected to,
// each redacted and cut by errs.Echo (the URL: line has the final
// one whole); then Notes. It returns Notes itself when there were no
// redirects.
func (p *Page) ShownNotes() []string {
	if len(p.Redirects) == 0 {
		return p.Notes
	}
	chain := []string{errs.Echo(p.URL)}
	for _, r := range p.Redirects {
		chain = append(chain, errs.Echo(r))
	}
	return append([]string{"Redirected: " + strings.Join(chain, " -> ")}, p.Notes...)
}

// Options tune Render. The zero value uses convert.For for documents and
// the built-in site handlers.
type Options struct {
	// Raw returns the body as text (":raw"), without rendering.
	Raw bool
	// Convert finds the converter of a document extension; nil means
	// convert.For.
	Convert func(ext string) (convert.Converter, bool)
	// Handlers add site handlers by name, tried in name order before the
	// built-in ones ("github", "gitlab"). A handler named like a built-in
	// replaces it; a nil Handler removes it. nil means the built-ins only.
	Handlers map[string]Handler
}

// Client is a Fetcher that carries site handlers, for callers that pass
// only a Fetcher along: Render reads through Client.Fetcher and adds
// Client.Handlers to Options.Handlers (a name in Options wins).
type Client struct {
	// Fetcher fetches; nil means DefaultFetcher().
	Fetcher Fetcher
	// Handlers are site handlers by name, as in Options.Handlers.
	Handlers map[string]Handler
}

// Fetch fetches url with c.Fetcher.
func (c *Client) Fetch(ctx context.Context, url string) (*Response, error) {
	return cmpOr[Fetcher](c.Fetcher, DefaultFetcher()).Fetch(ctx, url)
}

// Render fetches rawURL with f and renders it, in this order (pi's
// renderUrl):
//  1. https:// is added to a bare www. URL;
//  2. unless Raw, the site handlers (Options.Handlers, then "github":
//     blob pages as raw files, repository roots as their README; "gitlab":
//     blob pages as raw files); the first that returns a page wins;
//  3. the page is fetched;
//  4. with Raw, the body is returned as it is; else an image keeps its
//     bytes and a document (PDF, DOCX, XLSX, ...) goes through its
//     converter;
//  5. JSON is pretty-printed, a feed listed, plain text shown;
//  6. HTML: the page's markdown alternate (<link rel="alternate"
//     type="text/markdown">), then URL.md, then the URL asked for with
//     "Accept: text/markdown"; then a page whose article readability
//     finds empty or under 200 characters is read as its feed alternate
//     (<link rel="alternate" type="application/rss+xml|atom+xml">) when
//     it has one; else readability's article as markdown, or the whole
//     page converted when there is none; a page that renders to under 200
//     characters is replaced by the first document it links to (<a>,
//     <embed>, <iframe> or <object> naming a .pdf, .docx, ...), converted,
//     else by the site's /llms.txt;
//  7. a page that renders to nothing is shown as its HTML (raw-html).
//
// One Render makes at most MaxRequests (9) requests, MaxHandlerRequests
// (2) of them by the site handlers, each bounded by the fetcher's deadline
// and byte cap (20 MiB by default), a probe also by 10 s and the probes
// together by 15 s. A probe that fails is listed in the notes ("Probes
// failed: ..."), never returned as an error. The error, an *errs.Error, is for an
// invalid URL, a canceled ctx, a fetch of the page that fails (its code:
// ACCESS_DENIED for a private address, TIMEOUT, INTERNAL_ERROR for the
// network), an HTTP error status (NOT_FOUND for 404 and 410,
// ACCESS_DENIED for 401 and 403, TIMEOUT for 408 and 504, TOO_LARGE for
// 413, INTERNAL_ERROR otherwise; the message quotes the error page), a
// binary body (UNSUPPORTED) and a document that cannot be converted. A
// body cut at the fetcher's cap, or a document converted in part, gives a
// Page whose Incomplete says so.
//
// The text is the server's: the control characters a terminal acts on
// (ESC and the rest of C0 but tab and newline, DEL, C1) are replaced in
// the content, with a note that counts them ("Control characters shown
// as symbols: N ..."), and in the notes and the error page an error
// quotes; :raw too. Invalid UTF-8 becomes U+FFFD.
//
// The page's notes, and a site handler's Method and ContentType, show
// every URL with its credentials redacted (redact.Text), as the errors do
// (errs builds their messages so, and a host's error text is redacted
// too); the page's URL fields keep them, for the cache and the caller,
// which shows them through redact.URL.
func Render(ctx context.Context, f Fetcher, rawURL string, o Options) (*Page, error) {
	p, err := render(ctx, f, rawURL, o)
	if err != nil {
		return nil, redactErr(err)
	}
	// Notes quote parser errors, which may quote the bytes they choke on:
	// invalid UTF-8 and control characters. They quote URLs too, the
	// page's, a probe's and a host site handler's: with their credentials
	// redacted here, at the pipeline's end, whoever wrote them.
	for i, n := range p.Notes {
		p.Notes[i], _ = controls(redact.Text(n))
	}
	var n int
	p.Content, n = controls(p.Content)
	if n > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("Control characters shown as symbols: %d (C0 and DEL as their Unicode control pictures, ESC as ␛; C1 as U+FFFD)", n))
	}
	return p, nil
}

// pipeline is one Render in progress.
type pipeline struct {
	f        *budget
	o        Options
	failed   []string  // the probes and handlers that failed, for the notes
	probeEnd time.Time // when the probes' time is up; zero before the first
}

// fail records a failed probe or handler.
func (pl *pipeline) fail(format string, a ...any) {
	pl.failed = append(pl.failed, fmt.Sprintf(format, a...))
}

// finish adds the failures to p's notes.
func (pl *pipeline) finish(p *Page) *Page {
	if len(pl.failed) > 0 {
		p.Notes = append(p.Notes, "Probes failed: "+strings.Join(pl.failed, ", "))
	}
	return p
}

func render(ctx context.Context, f Fetcher, rawURL string, o Options) (*Page, error) {
	u := Normalize(rawURL)
	parsed, err := CheckURL(u)
	if err != nil {
		return nil, err
	}
	if c, ok := f.(*Client); ok {
		o.Handlers = mergeHandlers(c.Handlers, o.Handlers)
		f = c.Fetcher
	}
	if f == nil {
		f = DefaultFetcher()
	}
	pl := &pipeline{f: &budget{f: f, limit: MaxRequests - MaxHandlerRequests, what: "the page and its probes"}, o: o}
	if !o.Raw {
		p, err := pl.site(ctx, parsed)
		if err != nil {
			return nil, err
		}
		if p != nil {
			p.URL = u
			return pl.finish(p), nil
		}
	}
	resp, err := pl.f.Fetch(ctx, u)
	if err != nil {
		if ce := ctx.Err(); ce != nil {
			return nil, errs.Wrap(errs.CodeOf(ce), ce, "fetching %s: %v", u, ce)
		}
		if c := errs.CodeOf(err); c == errs.InvalidParam || c == errs.AccessDenied {
			return nil, err
		}
		return nil, errs.Wrap(errs.CodeOf(err), err, "Cannot fetch %s: %v", u, err)
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, httpErr(ctx, u, resp)
	}
	p := &Page{URL: u, FinalURL: cmpOr(resp.FinalURL, u), Redirects: resp.Redirects}
	bodyCut(p, resp)
	if err := renderBody(ctx, pl, p, resp, o); err != nil {
		return nil, err
	}
	return pl.finish(p), nil
}

// StatusError is the cause of the error of a fetch answered with an HTTP
// error status, for a caller that shows such a fetch as a failed read.
// Its URLs are shown ones: passwords redacted (redact.URL).
type StatusError struct {
	URL         string // the URL requested
	FinalURL    string // the URL after redirects; "" when there were none
	Status      int    // the HTTP status code
	ContentType string // the error page's media type, without parameters
}

func (e *StatusError) Error() string { return fmt.Sprintf("HTTP %d from %s", e.Status, e.URL) }

// httpErr is the error of an HTTP error status, quoting the start of the
// error page's text; its cause is a *StatusError.
func httpErr(ctx context.Context, u string, resp *Response) error {
	code := errs.Internal
	switch resp.Status {
	case http.StatusNotFound, http.StatusGone:
		code = errs.NotFound
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusProxyAuthRequired:
		code = errs.AccessDenied
	case http.StatusRequestTimeout, http.StatusGatewayTimeout:
		code = errs.Timeout
	case http.StatusRequestEntityTooLarge:
		code = errs.TooLarge
	}
	msg := fmt.Sprintf("HTTP %d %s from %s", resp.Status, http.StatusText(resp.Status), u)
	if resp.FinalURL != "" && resp.FinalURL != u {
		msg += " (redirected to " + resp.FinalURL + ")"
	}
	mt, params := mediaType(resp)
	if isText(mt) {
		body := decode(resp.Body, mt, params)
		if isHTML(mt) {
			if md, err := convert.HTMLToMarkdown(ctx, strings.NewReader(cut(body, maxErrorHTML)), redact.URL(u)); err == nil {
				body = md
			}
		}
		if body = strings.Join(strings.Fields(body), " "); body != "" {
			msg += ": " + cut(body, maxErrorBody)
		}
	}
	st := &StatusError{URL: redact.URL(u), FinalURL: redact.URL(resp.FinalURL), Status: resp.Status, ContentType: mt}
	msg, _ = controls(msg)
	return errs.Wrap(code, st, "%s", msg)
}

// bodyCut notes a body cut at the fetcher's cap.
func bodyCut(p *Page, resp *Response) {
	if resp.Truncated {
		size := dirtree.FormatBytes(int64(len(resp.Body)))
		p.Notes = append(p.Notes, "Body cut at "+size)
		p.Incomplete = "the body was cut at " + size + ", the fetcher's cap"
	}
}

// mergeHandlers returns a's handlers with b's added; b wins a name.
func mergeHandlers(a, b map[string]Handler) map[string]Handler {
	if len(a) == 0 {
		return b
	}
	out := make(map[string]Handler, len(a)+len(b))
	maps.Copy(out, a)
	maps.Copy(out, b)
	return out
}

// site runs the site handlers: the first page one returns, completed.
func (pl *pipeline) site(ctx context.Context, u *url.URL) (*Page, error) {
	f := &budget{f: pl.f.f, limit: MaxHandlerRequests, what: "the site handlers"}
	for _, nh := range handlers(pl.o.Handlers) {
		var p *Page
		var err error
		if b, ok := nh.h.(builtin); ok {
			p, err = b(ctx, f, u, pl.o)
		} else {
			p, err = nh.h.Handle(ctx, f, u)
		}
		if ce := ctx.Err(); ce != nil {
			return nil, errs.Wrap(errs.CodeOf(ce), ce, "fetching %s: %v", u, ce)
		}
		if err != nil {
			pl.fail("site handler %s (%v)", nh.name, redactErr(err))
			continue
		}
		if p == nil {
			continue
		}
		p.FinalURL = cmpOr(p.FinalURL, u.String())
		p.ContentType = cmpOr(redact.Text(p.ContentType), "text/plain")
		p.Method = cmpOr(redact.Text(p.Method), "site:"+nh.name)
		return p, nil
	}
	return nil, nil
}

// renderBody renders a 2xx response into p by its content type (steps 4
// to 7 of Render). pl is nil for a body that must not start probes (a
// site handler's raw file).
func renderBody(ctx context.Context, pl *pipeline, p *Page, resp *Response, o Options) error {
	mt, params := mediaType(resp)
	p.ContentType = mt
	if o.Raw {
		p.Method = MethodRaw
		if isHTML(mt) {
			p.Method = MethodRawHTML
		}
		if !isText(mt) && !utf8.Valid(resp.Body) {
			if strings.HasPrefix(mt, "image/") || documentExt(mt, p.FinalURL) != "" {
				return errs.New(errs.Unsupported, "Cannot read %s with :raw: its content is binary (%s, %s) and :raw shows a body as text. Read it without :raw to see the image or the document's text.",
					p.FinalURL, mt, dirtree.FormatBytes(int64(len(resp.Body))))
			}
			return binaryErr(p, mt, len(resp.Body))
		}
		p.Content = decode(resp.Body, mt, params)
		return nil
	}
	conv := o.Convert
	if conv == nil {
		conv = convert.For
	}
	if isText(mt) && documentExt(mt, p.FinalURL) == "" && nulText(resp.Body, params["charset"]) { // a document (text/rtf) is converted
		return errs.New(errs.Unsupported, "Cannot read %s: it was sent as %s, but its content is binary (a NUL byte in its first %s). Read it with :raw to get the body as it is.",
			p.FinalURL, mt, dirtree.FormatBytes(textio.SniffBytes))
	}
	switch {
	case strings.HasPrefix(mt, "image/") && mt != "image/svg+xml":
		p.Method, p.Image = MethodImage, resp.Body
		p.Content = fmt.Sprintf("[Image: %s, %s]", mt, dirtree.FormatBytes(int64(len(resp.Body))))
	case documentExt(mt, p.FinalURL) != "":
		ext := documentExt(mt, p.FinalURL)
		c, ok := conv(ext)
		if !ok {
			return binaryErr(p, mt, len(resp.Body))
		}
		text, err := c.Convert(ctx, bytes.NewReader(resp.Body), int64(len(resp.Body)))
		var part *errs.Partial
		if err != nil && (!errors.As(err, &part) || text == "") {
			if ce := ctx.Err(); ce != nil {
				return errs.Wrap(errs.CodeOf(ce), ce, "converting %s: %v", p.URL, ce)
			}
			code := errs.Unsupported
			if e := (*errs.Error)(nil); errors.As(err, &e) {
				code = e.Code
			}
			msg := fmt.Sprintf("Cannot convert the %s document at %s: %v", ext, p.FinalURL, err)
			if p.Incomplete != "" {
				msg += " (" + p.Incomplete + ")"
			}
			return errs.Wrap(code, err, "%s. Read it with :raw to get the body as it is.", msg)
		}
		if part != nil {
			p.Notes = append(p.Notes, "Converted in part: "+part.Reason)
			p.Incomplete = cmpOr(p.Incomplete, part.Reason)
		}
		p.Method, p.Content = MethodDocument, text
	case isJSON(mt):
		if !json.Valid(resp.Body) {
			err := json.Unmarshal(resp.Body, new(struct{})) // the error Valid does not give
			p.Method, p.Content = MethodText, decode(resp.Body, mt, params)
			p.Notes = append(p.Notes, "Invalid JSON: "+err.Error())
			break
		}
		n := indentedSize(resp.Body)
		if n > maxIndented {
			p.Method, p.Content = MethodText, decode(resp.Body, mt, params)
			p.Notes = append(p.Notes, fmt.Sprintf("JSON shown as sent: indented it would take %s", dirtree.FormatBytes(n)))
			break
		}
		var b bytes.Buffer
		b.Grow(int(n))
		json.Indent(&b, resp.Body, "", "  ") // valid: no error
		p.Method, p.Content = MethodJSON, b.String()
	case isFeed(mt, resp.Body):
		md, err := feedMarkdown(resp.Body)
		if err != nil {
			p.Method, p.Content = MethodText, decode(resp.Body, mt, params)
			p.Notes = append(p.Notes, "Feed parsing failed: "+err.Error())
			break
		}
		p.Method, p.Content = MethodFeed, md
	case isHTML(mt):
		return renderHTMLPage(ctx, pl, p, decode(resp.Body, mt, params))
	case isText(mt):
		p.Method, p.Content = MethodText, decode(resp.Body, mt, params)
	default:
		return binaryErr(p, mt, len(resp.Body))
	}
	return nil
}

// maxIndented is the largest indented JSON shown: indenting by two spaces
// a level grows a deeply nested document with the square of its depth.
const maxIndented = 32 << 20

// indentedSize returns the size of the valid JSON body indented by
// json.Indent with two spaces a level, without indenting it.
func indentedSize(body []byte) int64 {
	// json.Indent drops white space, but for what follows the value.
	n, depth := int64(len(body)-1-prevNonSpace(body, len(body)-1)), int64(0)
	inString, escaped := false, false
	newline := func() { n += 1 + 2*depth }
	for i, c := range body {
		switch {
		case inString:
			n++
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			n++
			inString = true
		case c == '{' || c == '[':
			n++
			depth++
			if j := nextNonSpace(body, i+1); j < len(body) && body[j] != '}' && body[j] != ']' {
				newline()
			}
		case c == '}' || c == ']':
			depth--
			if j := prevNonSpace(body, i-1); j >= 0 && body[j] != '{' && body[j] != '[' {
				newline()
			}
			n++
		case c == ',':
			n++
			newline()
		case c == ':':
			n += 2
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			n++
		}
	}
	return n
}

func nextNonSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func prevNonSpace(b []byte, i int) int {
	for i >= 0 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i--
	}
	return i
}

// nulText reports a body sent as text that is binary as a local file
// would be (textio.Sniff: a NUL byte in its start without a UTF-16 or
// UTF-32 byte order mark), unless its charset is a UTF-16 or UTF-32 one.
func nulText(body []byte, charset string) bool {
	cs := strings.ToLower(charset)
	if strings.HasPrefix(cs, "utf-16") || strings.HasPrefix(cs, "utf-32") || strings.HasPrefix(cs, "ucs-") || cs == "unicode" {
		return false
	}
	_, binary := textio.Sniff(body[:min(len(body), textio.SniffBytes)])
	return binary
}

// binaryErr refuses a binary body that is no image or document.
func binaryErr(p *Page, mt string, n int) error {
	return errs.New(errs.Unsupported, "Cannot read %s: its content is binary (%s, %s). Web reads show text, HTML, JSON, feeds, images and documents (%s).",
		p.FinalURL, cmpOr(mt, "unknown type"), dirtree.FormatBytes(int64(n)), strings.Join(convert.Extensions(), " "))
}

// nearlyEmpty is the rendered size, in non-space characters, under which
// a page is replaced by the site's llms.txt.
const nearlyEmpty = 200

// renderHTMLPage is step 6 and 7 of Render for an HTML page.
func renderHTMLPage(ctx context.Context, pl *pipeline, p *Page, page string) error {
	links := headLinks(page)
	if pl != nil {
		if ok, err := pl.markdown(ctx, p, links); ok || err != nil {
			return err
		}
	}
	// Readability and the converter build DOMs of about a kilobyte per
	// element: a longer page is cut (the parser closes what the cut leaves
	// open) with a note.
	if head, why := convert.CutHTML(page); why != "" {
		page = head
		p.Notes = append(p.Notes, "HTML cut "+why+" before rendering")
	}
	// Links are resolved against the URL shown: a relative one would
	// carry the page's password into the text.
	base := redact.URL(p.FinalURL)
	md, found := readArticle(ctx, page, base)
	if pl != nil && (!found || visible(md) < nearlyEmpty) {
		if ok, err := pl.feed(ctx, p, links); ok || err != nil {
			return err
		}
	}
	if found {
		p.Method, p.Content = MethodReadability, md
	} else {
		md, err := convert.HTMLToMarkdown(ctx, strings.NewReader(page), base)
		if err != nil && !isPartial(err) {
			p.Notes = append(p.Notes, "HTML conversion failed: "+err.Error())
			p.Method, p.Content = MethodRawHTML, page
			return nil
		}
		p.Notes = append(p.Notes, "No article found; converted the whole page")
		p.Method, p.Content = MethodHTML, md
	}
	if n := visible(p.Content); pl != nil && n < nearlyEmpty {
		if ok, err := pl.linkedDocument(ctx, p, page, n); ok || err != nil {
			return err
		}
		if ok, err := pl.llms(ctx, p, n); ok || err != nil {
			return err
		}
	}
	if visible(p.Content) == 0 {
		p.Notes = append(p.Notes, "The page rendered to no text; showing its HTML")
		p.Method, p.Content = MethodRawHTML, page
	}
	return nil
}

// isPartial reports whether err is an *errs.Partial: text converted up to
// a bound. The page was cut to the same bounds before and says so; only
// the elements a parser adds can reach them again.
func isPartial(err error) bool {
	var part *errs.Partial
	return errors.As(err, &part)
}

// visible counts the non-space characters of s.
func visible(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// readArticle extracts the main content (package readable) as markdown,
// headed by the page's title; ok is false when the page has no text.
func readArticle(ctx context.Context, page, pageURL string) (md string, ok bool) {
	art, ok := readable.Extract(ctx, page)
	if !ok {
		return "", false
	}
	md, err := convert.HTMLToMarkdown(ctx, strings.NewReader(art.HTML), pageURL)
	if (err != nil && !isPartial(err)) || strings.TrimSpace(md) == "" {
		return "", false
	}
	if t := strings.TrimSpace(art.Title); t != "" && !strings.HasPrefix(md, "# ") {
		md = "# " + t + "\n\n" + md
	}
	return md, true
}

// mediaType returns the response's media type (sniffed when the header is
// missing) and its parameters. A media type over errs.MaxEcho bytes
// (registered ones are far shorter) is cut by errs.Echo: it is the
// server's text, shown on the Content-Type line and in errors.
func mediaType(r *Response) (string, map[string]string) {
	mt, params := parseMediaType(r)
	return errs.Echo(mt), params
}

func parseMediaType(r *Response) (string, map[string]string) {
	ct := r.ContentType
	if ct == "" {
		ct = http.DetectContentType(r.Body)
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0]))
	}
	if mt == "application/octet-stream" || mt == "" {
		if sniffed, _, err := mime.ParseMediaType(http.DetectContentType(r.Body)); err == nil && sniffed != "application/octet-stream" {
			if documentExt(mt, r.FinalURL) == "" {
				mt = sniffed
			}
		}
	}
	return mt, params
}

// decode converts a text body to UTF-8 using the charset parameter, else
// as UTF-8 when it is valid UTF-8, else by a BOM or an HTML meta tag;
// invalid bytes become U+FFFD.
func decode(body []byte, mt string, params map[string]string) string {
	if params["charset"] == "" && utf8.Valid(body) {
		return string(body) // UTF-8 wins over a guess (HTML without a declared charset defaults to windows-1252)
	}
	ct := mt
	if cs := params["charset"]; cs != "" {
		ct += "; charset=" + cs
	}
	r, err := charset.NewReader(bytes.NewReader(body), ct)
	if err == nil {
		if b, err := io.ReadAll(r); err == nil {
			body = b
		}
	}
	return strings.ToValidUTF8(string(body), "\uFFFD")
}

func isHTML(mt string) bool { return mt == "text/html" || mt == "application/xhtml+xml" }

func isJSON(mt string) bool {
	return mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "text/json"
}

func isText(mt string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"), isJSON(mt), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/xml", "application/javascript", "application/x-javascript", "application/ecmascript",
		"application/x-sh", "application/toml", "application/yaml", "application/x-yaml", "application/sql",
		"application/graphql":
		return true
	}
	return false
}

// docTypes returns the converter extensions by document media type, made
// on first use.
var docTypes = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"application/pdf":    ".pdf",
		"application/msword": ".doc",
		"application/vnd.openxmlformats-officedocument.wordprocessingml.document":   ".docx",
		"application/vnd.openxmlformats-officedocument.presentationml.presentation": ".pptx",
		"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":         ".xlsx",
		"application/vnd.ms-excel":      ".xls",
		"application/vnd.ms-powerpoint": ".ppt",
		"application/rtf":               ".rtf",
		"text/rtf":                      ".rtf",
		"application/epub+zip":          ".epub",
	}
})

// documentExt returns the converter extension for a document response:
// by media type, or by the URL's extension when the type is generic.
func documentExt(mt, rawURL string) string {
	if ext, ok := docTypes()[mt]; ok {
		return ext
	}
	if mt != "application/octet-stream" && mt != "binary/octet-stream" && mt != "application/zip" && mt != "" {
		return ""
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	ext := strings.ToLower(path.Ext(u.Path))
	for _, e := range docTypes() {
		if e == ext {
			return ext
		}
	}
	return ""
}

// cut shortens s to at most n bytes at a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// controls returns s with the control characters a terminal acts on made
// visible: the C0 controls but tab, newline and a carriage return before
// a newline, and DEL, as their Unicode Control Pictures (ESC as U+241B
// '␛'); the C1 controls (U+0080 to U+009F), which have none, as U+FFFD.
// Invalid UTF-8 becomes U+FFFD first. n counts the control characters
// replaced; s is returned as it is when there is nothing to replace.
func controls(s string) (out string, n int) {
	s = strings.ToValidUTF8(s, "\uFFFD")
	i := firstControl(s)
	if i < 0 {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for j, r := range s[i:] {
		switch {
		case r == '\t' || r == '\n':
		case r == '\r' && strings.HasPrefix(s[i+j+1:], "\n"):
		case r < 0x20:
			r, n = 0x2400+r, n+1
		case r == 0x7f:
			r, n = 0x2421, n+1
		case 0x80 <= r && r <= 0x9f:
			r, n = utf8.RuneError, n+1
		}
		b.WriteRune(r)
	}
	return b.String(), n
}

// firstControl returns the index of the first character of s that
// controls replaces, or -1.
func firstControl(s string) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\t' || c == '\n':
		case c == '\r':
			if !strings.HasPrefix(s[i+1:], "\n") {
				return i
			}
		case c < 0x20 || c == 0x7f:
			return i
		case c == 0xc2 && i+1 < len(s) && 0x80 <= s[i+1] && s[i+1] <= 0x9f: // U+0080 to U+009F
			return i
		}
	}
	return -1
}
