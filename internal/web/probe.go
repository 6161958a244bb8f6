package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/scoutkit/scout/internal/convert"
	"github.com/scoutkit/scout/internal/errs"
)

// probeTimeout bounds one probe, within the fetcher's own deadline: a
// probe is optional, and a slow one should not hold the read.
const probeTimeout = 10 * time.Second

// probeBudget bounds the probes of one Render together, from the start of
// the first: six probes of a site that never answers took a minute. A
// variable for the tests.
var probeBudget = 15 * time.Second

// maxLinks bounds the alternate links headLinks returns.
const maxLinks = 32

// link is a <link rel="alternate"> of a page's head.
type link struct {
	typ  string // the type attribute, lower-cased, without parameters
	href string // as written
}

// headLinks returns the rel="alternate" links of an HTML page that have a
// type and an href, in document order, up to the end of its head: its
// </head>, or the first element that cannot be in a head (at most
// maxLinks).
func headLinks(page string) []link {
	var out []link
	z := html.NewTokenizer(strings.NewReader(page))
	for len(out) < maxLinks {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "head" {
				return out
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "html", "head", "base", "basefont", "bgsound", "meta", "title", "noscript", "noframes", "style", "script", "template":
			case "link":
				var rel, typ, href string
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					switch string(k) {
					case "rel":
						rel = strings.ToLower(string(v))
					case "type":
						typ, _, _ = strings.Cut(strings.ToLower(string(v)), ";")
						typ = strings.TrimSpace(typ)
					case "href":
						href = strings.TrimSpace(string(v))
					}
				}
				if slices.Contains(strings.Fields(rel), "alternate") && typ != "" && href != "" {
					out = append(out, link{typ, href})
				}
			default: // an element that starts the body (as the HTML parser reads it)
				return out
			}
		}
	}
	return out
}

// resolve returns href resolved against base when it is an http(s) URL.
func resolve(base, href string) (string, bool) {
	b, err := url.Parse(base)
	if err != nil {
		return "", false
	}
	ref, err := b.Parse(href)
	if err != nil || (ref.Scheme != "http" && ref.Scheme != "https") || ref.Host == "" {
		return "", false
	}
	ref.Fragment, ref.RawFragment = "", ""
	return ref.String(), true
}

// firstLink returns the resolved href of the first link whose type is
// one of types.
func firstLink(links []link, base string, types ...string) (string, bool) {
	for _, l := range links {
		if slices.Contains(types, l.typ) {
			if u, ok := resolve(base, l.href); ok {
				return u, true
			}
		}
	}
	return "", false
}

// probe fetches target for the probe called name (with header h when
// set) and returns its body when it answered 2xx and check accepts its
// media type and body (check returns "", or why not). A failure is
// recorded in pl and ok is false; err is set only when the caller's ctx
// ended.
func (pl *pipeline) probe(ctx context.Context, name, target string, h http.Header, check func(mt string, body []byte) string) (body string, ok bool, err error) {
	resp, why, err := pl.get(ctx, target, h)
	if err != nil {
		return "", false, err
	}
	if why == "" {
		mt, params := mediaType(resp)
		if why = check(mt, resp.Body); why == "" {
			body = strings.TrimSpace(decode(resp.Body, mt, params))
			if body != "" {
				return body, true, nil
			}
			why = "empty body"
		}
	}
	pl.fail("%s %s (%s)", name, errs.Echo(target), why)
	return "", false, nil
}

// get fetches target for a probe, within probeTimeout and what is left of
// probeBudget. why says why the response cannot be used ("" when it can:
// 2xx and whole); err is set only when the caller's ctx ended.
func (pl *pipeline) get(ctx context.Context, target string, h http.Header) (resp *Response, why string, err error) {
	if pl.probeEnd.IsZero() {
		pl.probeEnd = time.Now().Add(probeBudget)
	}
	left := time.Until(pl.probeEnd)
	if left <= 0 {
		return nil, fmt.Sprintf("skipped: the probes took their %v", probeBudget), nil
	}
	pctx, cancel := context.WithTimeout(ctx, min(probeTimeout, left))
	defer cancel()
	resp, ferr := pl.f.FetchHeader(pctx, target, h)
	if ce := ctx.Err(); ce != nil {
		return nil, "", errs.Wrap(errs.CodeOf(ce), ce, "fetching %s: %v", target, ce)
	}
	switch {
	case ferr != nil:
		return nil, ferr.Error(), nil
	case resp.Status < 200 || resp.Status > 299:
		return nil, fmt.Sprintf("HTTP %d", resp.Status), nil
	case resp.Truncated:
		return nil, "body over the byte cap", nil
	}
	return resp, "", nil
}

// isMarkdown reports a markdown media type.
func isMarkdown(mt string) bool { return mt == "text/markdown" || mt == "text/x-markdown" }

// answered is the reason a probe's answer is not taken: its media type.
func answered(mt string) string { return "answered " + cmpOr(mt, "no content type") }

// markdownText accepts markdown or plain text that does not look like an
// HTML page (servers that answer every path with their app shell).
func markdownText(mt string, body []byte) string {
	switch {
	case !isMarkdown(mt) && mt != "text/plain":
		return answered(mt)
	case looksHTML(body):
		return "answered an HTML page as " + mt
	}
	return ""
}

// nonHTMLText accepts any text but HTML.
func nonHTMLText(mt string, _ []byte) string {
	if !isText(mt) || isHTML(mt) {
		return answered(mt)
	}
	return ""
}

// markdownOnly accepts a markdown media type only.
func markdownOnly(mt string, _ []byte) string {
	if !isMarkdown(mt) {
		return answered(mt)
	}
	return ""
}

// looksHTML reports a body that starts like an HTML document.
func looksHTML(body []byte) bool {
	head := strings.ToLower(strings.TrimSpace(string(body[:min(len(body), 512)])))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html") || strings.HasPrefix(head, "<head")
}

// markdown tries the markdown versions of an HTML page in turn: its
// markdown alternate link, URL.md, and content negotiation. ok reports
// that one filled p.
func (pl *pipeline) markdown(ctx context.Context, p *Page, links []link) (ok bool, err error) {
	tried := ""
	if alt, found := firstLink(links, p.FinalURL, "text/markdown", "text/x-markdown"); found {
		tried = alt
		md, ok, err := pl.probe(ctx, MethodAlternate, alt, nil, nonHTMLText)
		if err != nil {
			return false, err
		}
		if ok {
			p.Method, p.Content = MethodAlternate, md
			p.Notes = append(p.Notes, "Used markdown alternate: "+alt)
			return true, nil
		}
	}
	if md := mdSuffix(p.FinalURL); md != "" && md != tried {
		body, ok, err := pl.probe(ctx, MethodMDSuffix, md, nil, markdownText)
		if err != nil {
			return false, err
		}
		if ok {
			p.Method, p.Content = MethodMDSuffix, body
			p.Notes = append(p.Notes, "Used the markdown version: "+md)
			return true, nil
		}
	}
	if _, ok := pl.f.f.(HeaderFetcher); !ok {
		pl.fail("%s (the fetcher cannot send an Accept header)", MethodNegotiated)
		return false, nil
	}
	accept := http.Header{"Accept": {"text/markdown, text/x-markdown;q=0.9"}}
	body, ok, err := pl.probe(ctx, MethodNegotiated, p.FinalURL, accept, markdownOnly)
	if err != nil || !ok {
		return false, err
	}
	p.Method, p.Content, p.ContentType = MethodNegotiated, body, "text/markdown"
	p.Notes = append(p.Notes, "The server answered Accept: text/markdown with markdown")
	return true, nil
}

// mdSuffix returns the URL of a page's markdown version by the llms.txt
// convention: ".md" appended to the path, "index.html.md" for a path that
// ends in '/'; "" for a path that already ends in ".md".
func mdSuffix(page string) string {
	u, err := url.Parse(page)
	if err != nil || strings.HasSuffix(strings.ToLower(u.Path), ".md") {
		return ""
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" || strings.HasSuffix(u.Path, "/") {
		u.Path += "index.html.md"
		if u.Path[0] != '/' {
			u.Path = "/" + u.Path
		}
	} else {
		u.Path += ".md"
	}
	u.RawPath = ""
	return u.String()
}

// feed reads a page without an article as its feed alternate.
func (pl *pipeline) feed(ctx context.Context, p *Page, links []link) (ok bool, err error) {
	alt, found := firstLink(links, p.FinalURL, "application/rss+xml", "application/atom+xml")
	if !found {
		return false, nil
	}
	var md string
	_, ok, err = pl.probe(ctx, MethodFeed, alt, nil, func(mt string, body []byte) string {
		if !isFeed(mt, body) && !isFeed("application/xml", body) {
			return answered(mt) + ", not a feed"
		}
		var ferr error
		if md, ferr = feedMarkdown(body); ferr != nil {
			return "feed parsing failed: " + ferr.Error()
		}
		return ""
	})
	if err != nil || !ok {
		return false, err
	}
	p.Method, p.Content = MethodFeed, md
	p.Notes = append(p.Notes, "No article in the page; used its feed: "+alt)
	return true, nil
}

// llms replaces a page that rendered to n < nearlyEmpty characters by
// its site's /llms.txt, asked for with the page's credentials.
func (pl *pipeline) llms(ctx context.Context, p *Page, n int) (ok bool, err error) {
	u, err := url.Parse(p.FinalURL)
	if err != nil {
		return false, nil
	}
	target := (&url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host, Path: "/llms.txt"}).String()
	if target == p.FinalURL {
		return false, nil
	}
	body, ok, err := pl.probe(ctx, MethodLLMs, target, nil, markdownText)
	if !ok || err != nil {
		return false, err
	}
	p.Method, p.Content = MethodLLMs, body
	p.Notes = append(p.Notes, fmt.Sprintf("The page rendered to %d characters; showing the site's %s", n, target))
	return true, nil
}

// documentLink returns the first link in a page to a document a converter
// reads (<a href>, <embed src>, <iframe src>, <object data> whose path
// ends in .pdf, .docx, ...), resolved against base.
func documentLink(page, base string) (string, bool) {
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return "", false
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			want := map[string]string{"a": "href", "embed": "src", "iframe": "src", "object": "data"}[string(name)]
			for hasAttr && want != "" {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if string(k) != want {
					continue
				}
				if u, ok := resolve(base, strings.TrimSpace(string(v))); ok && documentExt("", u) != "" {
					return u, true
				}
			}
		}
	}
}

// linkedDocument replaces a page that rendered to n < nearlyEmpty
// characters by the document it links to, converted.
func (pl *pipeline) linkedDocument(ctx context.Context, p *Page, page string, n int) (ok bool, err error) {
	target, found := documentLink(page, p.FinalURL)
	if !found {
		return false, nil
	}
	resp, why, err := pl.get(ctx, target, nil)
	if err != nil {
		return false, err
	}
	var text string
	if why == "" {
		text, why, err = pl.convert(ctx, resp, target)
		if err != nil {
			return false, err
		}
	}
	if why != "" {
		pl.fail("%s %s (%s)", MethodLinkedDocument, errs.Echo(target), why)
		return false, nil
	}
	p.Method, p.Content = MethodLinkedDocument, text
	p.Notes = append(p.Notes, fmt.Sprintf("The page rendered to %d characters; showing the document it links to: %s", n, target))
	return true, nil
}

// convert converts a fetched document with the caller's converters. why
// says why it could not; err is set only when ctx ended.
func (pl *pipeline) convert(ctx context.Context, resp *Response, target string) (text, why string, err error) {
	mt, _ := mediaType(resp)
	ext := documentExt(mt, target)
	if ext == "" {
		return "", answered(mt) + ", not a document", nil
	}
	conv := pl.o.Convert
	if conv == nil {
		conv = convert.For
	}
	c, ok := conv(ext)
	if !ok {
		return "", "no converter for " + ext, nil
	}
	text, cerr := c.Convert(ctx, bytes.NewReader(resp.Body), int64(len(resp.Body)))
	if ce := ctx.Err(); ce != nil {
		return "", "", errs.Wrap(errs.CodeOf(ce), ce, "converting %s: %v", target, ce)
	}
	if cerr != nil {
		return "", "conversion failed: " + cerr.Error(), nil
	}
	return text, "", nil
}
