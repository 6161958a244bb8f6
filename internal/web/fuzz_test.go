package web

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/scoutkit/scout/internal/errs"
)

// FuzzRender renders arbitrary bodies under the content types of the
// pipeline; it must never panic and always yield valid UTF-8 without
// control characters (controls) and a method, or an UNSUPPORTED or
// TOO_LARGE error.
func FuzzRender(f *testing.F) {
	types := []string{"text/html", "application/json", "application/rss+xml", "application/xml", "text/plain; charset=iso-8859-1",
		"application/pdf", "image/png", "", "application/octet-stream", "text/html; charset=shift_jis"}
	seeds := []string{article, rss, atom, `{"a":[1,{"b":null}]}`, "caf\xe9", "%PDF-1.4 broken", "<table><tr><td>x", "\x1b[31m\r\x85"}
	for i, s := range seeds {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, typ uint8, body string) {
		ct := types[int(typ)%len(types)]
		fetch := FetcherFunc(func(_ context.Context, u string) (*Response, error) {
			return &Response{URL: u, FinalURL: u, Status: 200, ContentType: ct, Body: []byte(body)}, nil
		})
		for _, raw := range []bool{false, true} {
			p, err := Render(context.Background(), fetch, "https://fuzz.example/x.doc", Options{Raw: raw})
			if err != nil {
				// A binary body or a broken document: an error that says so.
				if c := errs.CodeOf(err); c != errs.Unsupported && c != errs.TooLarge || !utf8.ValidString(err.Error()) {
					t.Fatalf("error %s %q", c, err)
				}
				continue
			}
			if p.Method == "" || !utf8.ValidString(p.Output()) || firstControl(p.Output()) >= 0 {
				t.Fatalf("method %q, valid %v, a control character at %d", p.Method, utf8.ValidString(p.Output()), firstControl(p.Output()))
			}
			if !strings.HasPrefix(p.Output(), "URL: https://fuzz.example/x.doc\n") {
				t.Fatalf("header %q", p.Header())
			}
		}
	})
}

// FuzzHeadLinks checks the link extraction and the URLs derived from it on
// arbitrary pages and hrefs: no panic, alternate links within the cap with
// a lower-case type and an href, resolved URLs http(s) with a host and no
// fragment, a linked document that names a document, and a URL.md that is
// "" or names a .md path.
func FuzzHeadLinks(f *testing.F) {
	seeds := []string{
		`<head><link rel="alternate" type="text/markdown" href="/a.md"></head>`,
		`<link REL="Alternate nofollow" TYPE="Application/RSS+XML; charset=utf-8" href=" f.xml ">`,
		`<link rel=alternate type=application/atom+xml href=//o.example/f#x><body>`,
		`<link rel="alternate" type="text/markdown" href="javascript:alert(1)">`,
		`<link rel="alternate" type="text/markdown" href="http://[::1">`,
		`<html><head><link rel="alternate" type="text/markdown" href="` + "\xff\x00" + `"></head>`,
		"<link rel='alternate' type='TEXT/X-MARKDOWN' href='../../a b.md?q=1'/>",
		`<body><a href="/help">h</a><embed src="../f.PDF#p=2"><object data="//cdn.example/s.xlsx"></object></body>`,
	}
	for _, s := range seeds {
		f.Add(s, "https://x.example/dir/page")
	}
	f.Add(seeds[0], "https://x.example")
	f.Add(seeds[2], "http://x.example/a%20b/?q#f")
	f.Fuzz(func(t *testing.T, page, base string) {
		links := headLinks(page)
		if len(links) > maxLinks {
			t.Fatalf("%d links", len(links))
		}
		for _, l := range links {
			if l.typ == "" || l.href == "" || l.typ != strings.ToLower(l.typ) || strings.Contains(l.typ, ";") {
				t.Fatalf("bad link %+v", l)
			}
			u, ok := resolve(base, l.href)
			if !ok {
				continue
			}
			pu, err := url.Parse(u)
			if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" || pu.Fragment != "" {
				t.Fatalf("resolve(%q, %q) = %q", base, l.href, u)
			}
		}
		if u, ok := documentLink(page, base); ok {
			pu, err := url.Parse(u)
			if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || documentExt("", u) == "" {
				t.Fatalf("documentLink(%q) = %q", base, u)
			}
		}
		if _, err := CheckURL(base); err == nil {
			if md := mdSuffix(base); md != "" {
				mu, err := url.Parse(md)
				if err != nil || !strings.HasSuffix(mu.Path, ".md") {
					t.Fatalf("mdSuffix(%q) = %q", base, md)
				}
			}
		}
	})
}
