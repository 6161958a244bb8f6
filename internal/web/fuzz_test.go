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

// redactSeeds are URLs and texts of TestRedact and TestRedactText.
var redactSeeds = []string{
	"https://user:secret@host/x", "HTTP://user:secret@host:8080", "https://user:@host/", "https://user:p@ss@host/?q=a:b@c#f",
	"https://user:p%40ss@host/a%20b", "https://user:secret@host:bad/x", "https://token@host/x", "https://@host/x",
	"https://:secret@host/x", "www.user:secret@host/x", "WWW.token@host", "https://user:pa/ss@host/x", "https://user:pa?ss@host/x?q",
	"https://user:pa#ss@host/x", "https://user:p/a/s@s@host/x@y", "https://host:8080/@user", "https://[::1]:x/@user",
	"https://host:x/user", "https://host/x?u=a:b@c", "https://host/a:b@c", "www.x.example/a:b@c", "dir/a://b:c@d", "",
	"no URL here: a://", `Get "https://user:secret@host/x": EOF`, "fetch https://tok@h/a and http://u:p@h2/b failed",
	"<https://u:p@h>", "x1https://u:p@h", "(https://u:pa/ss@h/x) then", "https://u:p@h\nhttps://v:q@h", "://u:p@h",
	"https://u:a://b@h", "ftp://u:p@h/x", "https://[::1]:8080@h/", "https://u:p@[::1]:80/",
}

// FuzzRedact checks Redact and RedactText on arbitrary text: no panic;
// each idempotent; a URL that net/url parses with userinfo shows its
// secret (the password, or a user name alone) as "xxxxx", every other
// part of it kept; a text without '@' unchanged; and RedactText of a URL
// between spaces is Redact's of it, the text around as RedactText makes
// it alone.
func FuzzRedact(f *testing.F) {
	for _, s := range redactSeeds {
		f.Add(s, "see", "then")
	}
	f.Fuzz(func(t *testing.T, s, before, after string) {
		r := Redact(s)
		if again := Redact(r); again != r {
			t.Fatalf("Redact(%q) = %q, then %q", s, r, again)
		}
		if IsRedacted(s) && r != s {
			t.Fatalf("Redact(%q) = %q: redacted already", s, r)
		}
		if !strings.Contains(s, "@") && r != s {
			t.Fatalf("Redact(%q) = %q: no userinfo", s, r)
		}
		checkSecret(t, s, r)
		rt := RedactText(s)
		if again := RedactText(rt); again != rt {
			t.Fatalf("RedactText(%q) = %q, then %q", s, rt, again)
		}
		if !strings.Contains(s, "@") && rt != s {
			t.Fatalf("RedactText(%q) = %q: no '@'", s, rt)
		}
		// s as a URL in a text: its scheme, then no byte that ends it.
		if i := strings.Index(s, "://"); i > 0 && isScheme(s[:i]) && strings.IndexFunc(s, func(c rune) bool { return c < utf8.RuneSelf && endsURL(byte(c)) }) < 0 {
			text := before + " " + s + " " + after
			want := RedactText(before) + " " + r + " " + RedactText(after)
			if got := RedactText(text); got != want {
				t.Fatalf("RedactText(%q) = %q, want %q", text, got, want)
			}
		}
	})
}

// checkSecret checks r, Redact(s), against net/url: where s, a URL with a
// scheme (https:// added to a www. URL), parses with userinfo, r parses
// with the same user name and "xxxxx" as the password, or "xxxxx" as the
// user name when there is no password, and the same host, path, query and
// fragment.
func checkSecret(t *testing.T, s, r string) {
	t.Helper()
	prefix := ""
	if strings.HasPrefix(strings.ToLower(s), "www.") {
		prefix = "https://"
	}
	u, err := url.Parse(prefix + s)
	if err != nil || u.Scheme == "" || u.User == nil || u.User.String() == "" {
		return
	}
	v, err := url.Parse(prefix + r)
	if err != nil || v.User == nil {
		t.Fatalf("Redact(%q) = %q: %v", s, r, err)
	}
	want := url.UserPassword(u.User.Username(), Redacted)
	if _, ok := u.User.Password(); !ok {
		want = url.User(Redacted)
	}
	if v.User.String() != want.String() {
		t.Fatalf("Redact(%q) = %q: userinfo %q, want %q", s, r, v.User, want)
	}
	v.User, u.User = nil, nil
	if v.String() != u.String() {
		t.Fatalf("Redact(%q) = %q: %q apart from userinfo, want %q", s, r, v, u)
	}
}
