// Package web reads web URLs for read: an injectable fetcher (net/http by
// default, with a deadline, a body cap and the redirect chain recorded),
// the render pipeline of pi's renderUrl (site handlers such as GitHub blob
// pages read as raw files; a page's markdown alternate, URL.md, content
// negotiation; JSON pretty-printed, feeds, plain text; HTML through
// readability into markdown, a feed alternate for a page without an
// article, the document a page that renders to almost nothing links to,
// else the site's llms.txt; documents through convert; :raw for the body),
// at most MaxRequests requests per read, the "URL: / Content-Type: /
// Method: / Notes:" header, URL selector splitting, and an LRU cache so
// that url:N pages without refetching. Paging the rendered output is the
// caller's.
//
// A URL's credentials are sent, never shown: every URL a page, a note or
// an error shows is redacted (package redact), which replaces the secret
// of the userinfo with "xxxxx": the password, or the username when there
// is no password ("https://TOKEN@host/", an access token given so, as HTTP
// sends it as the credential). Errors are redacted as errs builds them, a
// host fetcher's or site handler's as it is returned, and the notes (a
// host site handler's too) at the end of Render; a page's URL fields keep
// the credentials and are shown through redact.URL.
package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/redact"
)

// Defaults of HTTPFetcher.
const (
	DefaultMaxBytes     = 20 << 20
	DefaultTimeout      = 30 * time.Second
	DefaultMaxRedirects = 10
	DefaultUserAgent    = "scout/1 (+https://github.com/scoutkit/scout)"
)

// Fetcher fetches a URL. Implementations return an error only when no
// response was received (bad URL, network failure, deadline); an HTTP
// error status is a Response.
type Fetcher interface {
	Fetch(ctx context.Context, url string) (*Response, error)
}

// HeaderFetcher is a Fetcher that can send request headers. Content
// negotiation (a request with "Accept: text/markdown") needs one;
// HTTPFetcher is one. With a plain Fetcher that probe is skipped.
type HeaderFetcher interface {
	Fetcher
	// FetchHeader is Fetch with h added to the request's headers (a
	// header in h replaces the fetcher's own of that name); nil h adds
	// nothing.
	FetchHeader(ctx context.Context, url string, h http.Header) (*Response, error)
}

// FetcherFunc adapts a function to a Fetcher.
type FetcherFunc func(ctx context.Context, url string) (*Response, error)

// Fetch calls f.
func (f FetcherFunc) Fetch(ctx context.Context, url string) (*Response, error) { return f(ctx, url) }

// Response is a fetched URL.
type Response struct {
	URL         string   // the URL requested
	FinalURL    string   // the URL after redirects
	Status      int      // HTTP status code
	ContentType string   // the Content-Type header ("" if none)
	Body        []byte   // at most the fetcher's byte cap
	Redirects   []string // the URLs redirected to, in order
	Truncated   bool     // the body was longer than the cap and was cut
}

// HTTPFetcher fetches with net/http. Its zero value works: a 30 s deadline,
// a 20 MiB body cap, at most 10 redirects (each to a URL of at most
// MaxURLBytes), http and https only, public addresses only. A body in a
// compression it did not ask for (br, deflate, ...) is an UNSUPPORTED
// error; an error page's is dropped (its status stands).
type HTTPFetcher struct {
	// Client is the HTTP client; nil means a client with Timeout. Its
	// CheckRedirect is replaced to record the redirect chain. A Client
	// with its own Transport makes its own connections: AllowPrivate is
	// then not enforced.
	Client *http.Client
	// AllowPrivate lets the fetcher connect to loopback, private (RFC 1918,
	// fc00::/7), link-local (169.254/16 and fe80::/10, where cloud metadata
	// services answer), shared (100.64/10) and unspecified addresses,
	// IPv4-mapped forms included. false refuses them with an ACCESS_DENIED
	// error, checked on the address each connection is made to (after name
	// resolution, for redirects too).
	AllowPrivate bool
	// Timeout bounds the whole exchange, body included; 0 means 30 s.
	Timeout time.Duration
	// MaxBytes caps the body kept; 0 means 20 MiB.
	MaxBytes int64
	// MaxRedirects caps the redirects followed; 0 means 10.
	MaxRedirects int
	// UserAgent is sent with every request; "" means DefaultUserAgent.
	UserAgent string
}

// DefaultFetcher returns an HTTPFetcher with the defaults.
func DefaultFetcher() Fetcher { return &HTTPFetcher{} }

// MaxURLBytes is the longest URL fetched: 8 KiB, what HTTP servers are
// expected to accept at least.
const MaxURLBytes = 8 << 10

// CheckURL reports an error unless raw is an absolute http or https URL
// with a host name or address (not a port alone). The error shows raw
// redacted (errs.Clip redacts what it cuts).
func CheckURL(raw string) (*url.URL, error) {
	shown := errs.Clip(raw)
	if len(raw) > MaxURLBytes {
		return nil, errs.New(errs.InvalidParam, "Invalid URL %q: it is %d bytes long, over the limit of %d — shorten it", shown, len(raw), MaxURLBytes)
	}
	u, err := url.Parse(raw)
	if err != nil {
		why := err
		if r := redact.URL(raw); r != raw {
			// URL.Parse's error may quote the secret (a password's start
			// taken for the port): the error shown is the redacted URL's.
			_, rerr := url.Parse(r)
			if rerr == nil {
				return nil, errs.Wrap(errs.InvalidParam, err, "Invalid URL %q: its user name or password does not parse. Percent-encode the characters in them that a URL reserves: '/' as %%2F, '?' as %%3F, '#' as %%23, '@' as %%40, '%%' as %%25", shown)
			}
			why = rerr
		}
		if ue := (*url.Error)(nil); errors.As(why, &ue) {
			why = ue.Err // without the URL, which it quotes whole
		}
		return nil, errs.Wrap(errs.InvalidParam, err, "Invalid URL %q: %v", shown, why)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errs.New(errs.InvalidParam, "Unsupported URL scheme %q in %q: only http:// and https:// URLs can be fetched", errs.Clip(u.Scheme), shown)
	}
	if u.Hostname() == "" { // "http://:80/" would connect to this machine
		return nil, errs.New(errs.InvalidParam, "Invalid URL %q: no host", shown)
	}
	return u, nil
}

// Fetch implements Fetcher.
func (f *HTTPFetcher) Fetch(ctx context.Context, raw string) (*Response, error) {
	return f.FetchHeader(ctx, raw, nil)
}

// FetchHeader implements HeaderFetcher.
func (f *HTTPFetcher) FetchHeader(ctx context.Context, raw string, h http.Header) (*Response, error) {
	if _, err := CheckURL(raw); err != nil {
		return nil, err
	}
	timeout := cmpOr(f.Timeout, DefaultTimeout)
	maxBytes := cmpOr(f.MaxBytes, DefaultMaxBytes)
	maxRedirects := cmpOr(f.MaxRedirects, DefaultMaxRedirects)
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	client := &http.Client{} // ctx's deadline bounds the exchange, body included
	if f.Client != nil {
		c := *f.Client
		client = &c
	}
	if !f.AllowPrivate && client.Transport == nil {
		client.Transport = publicTransport()
	}
	var redirects []string
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return fmt.Errorf("redirect to unsupported scheme %q", errs.Clip(req.URL.Scheme))
		}
		if req.URL.Hostname() == "" {
			return errors.New("redirect to a URL without a host")
		}
		if n := len(req.URL.String()); n > MaxURLBytes {
			return fmt.Errorf("redirect to a URL of %d bytes, over the limit of %d", n, MaxURLBytes)
		}
		redirects = append(redirects, req.URL.String())
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidParam, err, "Invalid URL %q: %s", errs.Clip(raw), errText(err))
	}
	req.Header.Set("User-Agent", cmpOr(f.UserAgent, DefaultUserAgent))
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.9,*/*;q=0.8")
	for k, v := range h {
		req.Header[http.CanonicalHeaderKey(k)] = v
	}
	resp, err := client.Do(req)
	if err != nil {
		if pe, ok := privateErr(raw, len(redirects) > 0, err); ok {
			return nil, pe
		}
		return nil, deadlineErr(parent, ctx, err, "no answer within %v, the fetch deadline: the server may be down or overloaded; try again later", timeout)
	}
	defer resp.Body.Close()
	var src io.Reader = resp.Body
	if ce := resp.Header.Get("Content-Encoding"); compressed(ce) && resp.ContentLength != 0 {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			// An error page: its status is the answer, its bytes no text.
			src = http.NoBody
		} else {
			return nil, errs.New(errs.Unsupported, "the body was sent with Content-Encoding %q, which Scout does not decode (it asks for gzip or none)", errs.Clip(ce))
		}
	}
	body, err := io.ReadAll(io.LimitReader(src, maxBytes+1))
	if err != nil {
		return nil, bodyErr(parent, ctx, err, timeout, int64(len(body)), resp.ContentLength)
	}
	out := &Response{
		URL:         raw,
		FinalURL:    resp.Request.URL.String(),
		Status:      resp.StatusCode,
		ContentType: resp.Header.Get("Content-Type"),
		Body:        body,
		Redirects:   redirects,
	}
	if int64(len(body)) > maxBytes {
		out.Body, out.Truncated = body[:maxBytes], true
	}
	return out, nil
}

// deadlineErr is fetchErr, with the message of format and a when ctx,
// the fetch's, passed its own deadline, not parent's (the transport says
// only "context deadline exceeded").
func deadlineErr(parent, ctx context.Context, err error, format string, a ...any) error {
	if parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) && errors.Is(err, context.DeadlineExceeded) {
		return errs.Wrap(errs.Timeout, err, format, a...)
	}
	return fetchErr(ctx, err)
}

// bodyErr codes an error while the body was read, after n bytes of the
// length the server announced (-1: none): the deadline passed (a body
// that trickles or never ends) or the connection closed before the body
// ended (a Content-Length that lies, a chunked body cut).
func bodyErr(parent, ctx context.Context, err error, timeout time.Duration, n, announced int64) error {
	got := dirtree.FormatBytes(n) + " received"
	if announced > 0 {
		got += " of the " + dirtree.FormatBytes(announced) + " announced"
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errs.Wrap(errs.Internal, err, "the connection closed before the body ended (%s); try again later", got)
	}
	return deadlineErr(parent, ctx, err, "the body did not end within %v, the fetch deadline (%s): the server is slow or sends a body that never ends; try again later", timeout, got)
}

// compressed reports a Content-Encoding that names a compression left on
// the body: the transport asks for gzip and decodes it (dropping the
// header), so a body in another coding (or gzip twice) would be shown as
// its bytes. Other values (identity, or a charset written there by
// mistake) leave the body as it is.
func compressed(ce string) bool {
	for c := range strings.SplitSeq(ce, ",") {
		switch strings.ToLower(strings.TrimSpace(c)) {
		case "gzip", "x-gzip", "deflate", "br", "zstd", "compress", "x-compress":
			return true
		}
	}
	return false
}

// fetchErr codes a transport error: TIMEOUT when the deadline passed,
// CANCELED when the caller canceled, NOT_FOUND when the host name does not
// resolve (no such host, or no answer from the resolver: the URL's host is
// what to check), INTERNAL otherwise.
func fetchErr(ctx context.Context, err error) error {
	code := errs.Internal
	var dns *net.DNSError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		code = errs.Timeout
	case errors.Is(err, context.Canceled):
		code = errs.Canceled
	case errors.As(err, &dns) && !dns.IsTimeout:
		why := dns.Err
		if dns.IsNotFound {
			why = "no such host"
		}
		return errs.Wrap(errs.NotFound, err, "cannot resolve host '%s' (%s); check the URL's host name", errs.Echo(dns.Name), why)
	default:
		var ne interface{ Timeout() bool }
		if errors.As(err, &ne) && ne.Timeout() {
			code = errs.Timeout
		}
	}
	return errs.Wrap(code, err, "%s", errText(err))
}

// maxErrText caps the text of a transport error quoted in a message: the
// server's answer can put long text in it (a Location header that does not
// parse).
const maxErrText = 1 << 10

// errText is a transport error's text without its "Get " prefix, with the
// URL it names redacted (net/http shows a password as "***") and cut by
// errs.Clip (a redirect target is the server's), the rest cut at
// maxErrText.
func errText(err error) string {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return cut(err.Error(), maxErrText)
	}
	return fmt.Sprintf("%q: %s", errs.Clip(ue.URL), cut(ue.Err.Error(), maxErrText))
}

// MaxRequests is the most requests one Render makes: at most
// MaxHandlerRequests by the site handlers together, then the page and the
// six probes around it (markdown alternate, URL.md, content negotiation,
// feed alternate, linked document, llms.txt), each tried at most once.
const MaxRequests = MaxHandlerRequests + 7

// MaxHandlerRequests is the most requests the site handlers of one Render
// make together; a fetch past it fails, and the handler's error is noted.
const MaxHandlerRequests = 2

// budget is a Fetcher that allows at most limit requests; what names the
// fetches in the error past it. It is safe for concurrent use (a host's
// site handler may fetch in parallel).
type budget struct {
	f     Fetcher
	limit int32
	what  string
	used  atomic.Int32
}

func (b *budget) Fetch(ctx context.Context, url string) (*Response, error) {
	return b.FetchHeader(ctx, url, nil)
}

func (b *budget) FetchHeader(ctx context.Context, url string, h http.Header) (*Response, error) {
	hf, ok := b.f.(HeaderFetcher)
	if len(h) > 0 && !ok {
		return nil, errs.New(errs.Unsupported, "skipped: the fetcher cannot send request headers")
	}
	if b.used.Add(1) > b.limit {
		return nil, errs.New(errs.Unsupported, "skipped: %s already made %d requests, Scout's limit", b.what, b.limit)
	}
	var resp *Response
	var err error
	if len(h) > 0 {
		resp, err = hf.FetchHeader(ctx, url, h)
	} else {
		resp, err = b.f.Fetch(ctx, url)
	}
	return resp, redactErr(err)
}

// redactErr returns err with the URLs its text quotes shown through
// redact.Text: a host's fetcher or site handler may quote the URL
// it was given, credentials included. It keeps err's code and wraps it;
// it is err itself when its text shows no secret.
func redactErr(err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	shown := redact.Text(text)
	if shown == text {
		return err
	}
	if e, ok := errors.AsType[*errs.Error](err); ok {
		return &errs.Error{Code: e.Code, Message: shown, Path: e.Path, Err: err}
	}
	return &redactedErr{shown, err}
}

// redactedErr is an error shown with its URLs redacted (redactErr).
type redactedErr struct {
	text string
	err  error
}

func (e *redactedErr) Error() string { return e.text }
func (e *redactedErr) Unwrap() error { return e.err }

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
