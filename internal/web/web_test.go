package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/internal/errs"
)

const article = `<!doctype html><html><head><title>Widgets</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/blog">Blog</a></nav>
<div class="sidebar"><p>Subscribe to our newsletter for more.</p></div>
<article><h1>Widgets explained</h1>
<p>Widgets are small components that do one thing well. This paragraph is long enough for readability to consider it
real content, with several sentences, commas, and enough words to score above the threshold that separates articles
from boilerplate. We keep adding text so that the extractor is confident about it.</p>
<p>A second paragraph explains the <a href="/docs/widgets">widget docs</a> and why tables matter, again with plenty of
words, commas, and sentences, so the scoring sees it as part of the main story rather than as navigation.</p>
<table><thead><tr><th>Name</th><th>Size</th></tr></thead><tbody><tr><td>small</td><td>1</td></tr><tr><td>large</td><td>9</td></tr></tbody></table>
<p>A closing paragraph, also long enough, with commas, words, and more words to make the article body substantial.</p>
</article><footer>© Widgets Inc.</footer></body></html>`

const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>https://n.example</link><description>All the &lt;b&gt;news&lt;/b&gt;</description>
<item><title>First</title><link>https://n.example/1</link><pubDate>Mon, 02 Jan 2006 15:04:05 GMT</pubDate><description>&lt;p&gt;Hello there&lt;/p&gt;</description></item>
<item><title>Second</title><link>https://n.example/2</link></item></channel></rss>`

const atom = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>
<entry><title>Post</title><link rel="alternate" href="https://b.example/post"/><updated>2024-01-01T00:00:00Z</updated><summary>Short</summary></entry></feed>`

// server serves the fixtures; hits counts requests per path.
func server(t *testing.T) (*httptest.Server, *hitCounter) {
	t.Helper()
	hits := &hitCounter{}
	pdf, err := os.ReadFile("../convert/testdata/hello.pdf")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	h := func(path, ctype, body string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			hits.add(path)
			if ctype != "" {
				w.Header().Set("Content-Type", ctype)
			}
			fmt.Fprint(w, body)
		})
	}
	h("/article", "text/html; charset=utf-8", article)
	h("/with-md", "text/html", `<html><head><link rel="alternate" type="text/markdown" href="/page.md"></head><body><p>html version</p></body></html>`)
	h("/page.md", "text/markdown; charset=utf-8", "# Page\n\nmarkdown version\n")
	h("/bad-md", "text/html", `<html><head><link rel="alternate" type="text/markdown" href="/nope.md"></head><body><article><p>fallback body</p></article></body></html>`)
	h("/json", "application/json", `{"b":1,"a":[1,2],"s":"<x>"}`)
	h("/badjson", "application/json", `{"b":`)
	h("/rss", "application/rss+xml", rss)
	h("/atom", "application/xml", atom)
	h("/latin1", "text/plain; charset=iso-8859-1", "caf\xe9\nline 2\n")
	h("/lines", "text/plain", numbered(400))
	h("/doc.pdf", "application/pdf", string(pdf))
	h("/download", "application/octet-stream", string(pdf))
	h("/bin", "application/octet-stream", "\x00\x01\x02binary")
	h("/png", "image/png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		hits.add("/missing")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":"no such page"}`)
	})
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusGone)
		fmt.Fprint(w, "<html><body><h1>Gone</h1><p>This page was <b>removed</b>.</p></body></html>")
	})
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/json", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/endless", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := []byte(strings.Repeat("x", 1023) + "\n")
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, hits
}

// hitCounter counts requests per path.
type hitCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (h *hitCounter) add(path string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n == nil {
		h.n = map[string]int{}
	}
	h.n[path]++
}

func (h *hitCounter) get(path string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n[path]
}

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestRender(t *testing.T) {
	srv, _ := server(t)
	tests := []struct {
		reason   string
		path     string
		raw      bool
		method   string
		ctype    string
		contains []string
		absent   []string
		notes    string
	}{
		{"HTML goes through readability into markdown, tables kept, chrome dropped", "/article", false, MethodReadability, "text/html",
			[]string{"Widgets explained", "| Name  | Size |", "| small | 1    |", "[widget docs](" + srv.URL + "/docs/widgets)"},
			[]string{"Subscribe", "© Widgets"}, ""},
		{"a page's markdown alternate is preferred", "/with-md", false, MethodAlternate, "text/html", []string{"# Page\n\nmarkdown version"}, []string{"html version"}, "Used markdown alternate: " + srv.URL + "/page.md"},
		{"a broken markdown alternate falls back to the HTML", "/bad-md", false, MethodReadability, "text/html", []string{"fallback body"}, nil, ""},
		{":raw returns the HTML body", "/article", true, MethodRawHTML, "text/html", []string{"<nav>", "<table>"}, nil, ""},
		{"JSON is pretty-printed, HTML not escaped", "/json", false, MethodJSON, "application/json", []string{"{\n  \"b\": 1,\n  \"a\": [\n    1,\n    2\n  ],\n  \"s\": \"<x>\"\n}"}, nil, ""},
		{"invalid JSON falls back to text with a note", "/badjson", false, MethodText, "application/json", []string{`{"b":`}, nil, "Invalid JSON"},
		{"RSS becomes a list of linked items", "/rss", false, MethodFeed, "application/rss+xml",
			[]string{"# News", "All the news", "- [First](https://n.example/1) — Mon, 02 Jan 2006 15:04:05 GMT\n  Hello there", "- [Second](https://n.example/2)"}, nil, ""},
		{"Atom served as application/xml is detected by its root", "/atom", false, MethodFeed, "application/xml",
			[]string{"# Blog", "- [Post](https://b.example/post) — 2024-01-01T00:00:00Z\n  Short"}, nil, ""},
		{"text in a declared charset is decoded", "/latin1", false, MethodText, "text/plain", []string{"café\nline 2"}, nil, ""},
		{"a PDF is converted", "/doc.pdf", false, MethodDocument, "application/pdf", []string{"Hello PDF"}, nil, ""},
		{"a document served as octet-stream is recognised by sniffing", "/download?f=x", false, MethodDocument, "application/pdf", []string{"Hello PDF"}, nil, ""},
		{"an image keeps its bytes for the caller", "/png", false, MethodImage, "image/png", []string{"[Image: image/png, 16B]"}, nil, ""},
		{"redirects are followed and recorded", "/old", false, MethodJSON, "application/json", []string{`"b": 1`}, nil, "Redirected: " + srv.URL + "/old -> " + srv.URL + "/json"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			p, err := Render(context.Background(), local(), srv.URL+tt.path, Options{Raw: tt.raw})
			if err != nil {
				t.Fatal(err)
			}
			if p.Method != tt.method || p.ContentType != tt.ctype {
				t.Errorf("method %q type %q, want %q %q; notes %v\n%s", p.Method, p.ContentType, tt.method, tt.ctype, p.Notes, p.Content)
			}
			for _, s := range tt.contains {
				if !strings.Contains(p.Content, s) {
					t.Errorf("content lacks %q:\n%s", s, p.Content)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(p.Content, s) {
					t.Errorf("content has %q:\n%s", s, p.Content)
				}
			}
			if tt.notes != "" && !strings.Contains(strings.Join(p.ShownNotes(), "; "), tt.notes) {
				t.Errorf("notes %q lack %q", p.ShownNotes(), tt.notes)
			}
		})
	}
}

// local is a fetcher for the tests' own server, which listens on a
// loopback address.
func local() *HTTPFetcher { return &HTTPFetcher{AllowPrivate: true} }

// TestRenderErrors checks that a page that cannot be shown is an error
// with a code and a message that says why, not a page.
func TestRenderErrors(t *testing.T) {
	srv, _ := server(t)
	tests := []struct {
		reason string
		path   string
		raw    bool
		code   errs.Code
		want   string
	}{
		{"an HTTP error quotes the error page", "/missing", false, errs.NotFound, "HTTP 404 Not Found from " + srv.URL + "/missing: {\"error\":\"no such page\"}"},
		{"an HTML error page is quoted as text", "/gone", false, errs.NotFound, "HTTP 410 Gone from " + srv.URL + "/gone: # Gone This page was **removed**."},
		{"a redirect loop is a failed fetch", "/loop", false, errs.Internal, "Cannot fetch " + srv.URL + "/loop: "},
		{"binary content is refused", "/bin", false, errs.Unsupported, "Cannot read " + srv.URL + "/bin: its content is binary (application/octet-stream, 9B)."},
		// It said "Web reads show ... images": that read was one.
		{"an image with :raw points to the read without it", "/png", true, errs.Unsupported, "Cannot read " + srv.URL + "/png with :raw: its content is binary (image/png, 16B) and :raw shows a body as text. Read it without :raw to see the image or the document's text."},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			p, err := Render(context.Background(), local(), srv.URL+tt.path, Options{Raw: tt.raw})
			if err == nil {
				t.Fatalf("no error; page %+v", p)
			}
			if errs.CodeOf(err) != tt.code || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %s %v, want %s %s", errs.CodeOf(err), err, tt.code, tt.want)
			}
		})
	}
}

func TestRenderImageBytes(t *testing.T) {
	srv, _ := server(t)
	p, err := Render(context.Background(), local(), srv.URL+"/png", Options{})
	if err != nil || len(p.Image) != 16 {
		t.Fatalf("err %v, image %d bytes", err, len(p.Image))
	}
}

func TestHeader(t *testing.T) {
	p := &Page{FinalURL: "https://x.example/a", ContentType: "text/html", Method: MethodReadability, Content: "body"}
	if got, want := p.Output(), "URL: https://x.example/a\nContent-Type: text/html\nMethod: readability\n\n---\n\nbody"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	p.Notes = []string{"a", "b"}
	if got, want := p.Header(), "URL: https://x.example/a\nContent-Type: text/html\nMethod: readability\nNotes: a; b\n\n---\n\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestBadInput(t *testing.T) {
	srv, _ := server(t)
	t.Run("a scheme other than http(s), or no host name, is refused before any fetch", func(t *testing.T) {
		// "http://:80/" was fetched: Go dials this machine for a port alone.
		for _, u := range []string{"file:///etc/passwd", "ftp://x.example/f", "gopher://x", "http://", "http://:80/", "https://:443/x", "http://user@:80/"} {
			_, err := Render(context.Background(), FetcherFunc(func(context.Context, string) (*Response, error) {
				t.Fatal("fetched")
				return nil, nil
			}), u, Options{})
			if errs.CodeOf(err) != errs.InvalidParam {
				t.Errorf("%s: err = %v, want INVALID_PARAM", u, err)
			}
		}
	})
	t.Run("endless bytes are cut at the cap", func(t *testing.T) {
		resp, err := (&HTTPFetcher{MaxBytes: 64 << 10, AllowPrivate: true}).Fetch(context.Background(), srv.URL+"/endless")
		if err != nil {
			t.Fatal(err)
		}
		if !resp.Truncated || len(resp.Body) != 64<<10 {
			t.Fatalf("truncated %v, %d bytes", resp.Truncated, len(resp.Body))
		}
		p, err := Render(context.Background(), &HTTPFetcher{MaxBytes: 64 << 10, AllowPrivate: true}, srv.URL+"/endless", Options{})
		if err != nil || p.Incomplete != "the body was cut at 64.0KB, the fetcher's cap" || !strings.Contains(strings.Join(p.Notes, ";"), "Body cut at 64.0KB") {
			t.Fatalf("err %v page %+v", err, p.Notes)
		}
	})
	t.Run("a server that never answers is bounded by the timeout: a TIMEOUT error", func(t *testing.T) {
		start := time.Now()
		_, err := Render(context.Background(), &HTTPFetcher{Timeout: 200 * time.Millisecond, AllowPrivate: true}, srv.URL+"/hang", Options{})
		if errs.CodeOf(err) != errs.Timeout || !strings.HasPrefix(err.Error(), "Cannot fetch "+srv.URL+"/hang: ") {
			t.Fatalf("err = %v (%s)", err, errs.CodeOf(err))
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("took %v", d)
		}
	})
	t.Run("the fetch error is coded TIMEOUT", func(t *testing.T) {
		_, err := (&HTTPFetcher{Timeout: 100 * time.Millisecond, AllowPrivate: true}).Fetch(context.Background(), srv.URL+"/hang")
		if errs.CodeOf(err) != errs.Timeout {
			t.Fatalf("err = %v (%s)", err, errs.CodeOf(err))
		}
	})
	t.Run("a canceled caller gets an error, not a page", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		go func() { time.Sleep(50 * time.Millisecond); cancel() }()
		_, err := Render(ctx, local(), srv.URL+"/hang", Options{})
		if errs.CodeOf(err) != errs.Canceled {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a refused connection is an error", func(t *testing.T) {
		dead := httptest.NewServer(http.NotFoundHandler())
		url := dead.URL
		dead.Close()
		_, err := Render(context.Background(), local(), url+"/x", Options{})
		if errs.CodeOf(err) != errs.Internal || !strings.Contains(err.Error(), "Cannot fetch "+url+"/x: ") || !strings.Contains(err.Error(), "connection refused") {
			t.Fatalf("err = %v (%s)", err, errs.CodeOf(err))
		}
	})
}

func TestIsURLAndNormalize(t *testing.T) {
	for in, want := range map[string]bool{"http://a": true, "HTTPS://a": true, "www.a.com": true, "wwwx": false, "a/www.b": false, "agent://x": false} {
		if IsURL(in) != want {
			t.Errorf("IsURL(%q) != %v", in, want)
		}
	}
	if got := Normalize(" www.a.com/x "); got != "https://www.a.com/x" {
		t.Errorf("Normalize: %q", got)
	}
	if got := cacheURL("HTTPS://A.Example/x#frag"); got != "https://a.example/x" {
		t.Errorf("CacheKey: %q", got)
	}
}

// TestCacheBytes: the cache holds at most MaxBytes of pages, least
// recently used dropped first (100 pages of 20 MB each were kept: a
// server's session grew past 860 MB after 40 of them).
func TestCacheBytes(t *testing.T) {
	page := func(u string, n int) *Page { // 2*len(u)+n bytes
		return &Page{URL: u, FinalURL: u, Content: strings.Repeat("x", n)}
	}
	c := &Cache{MaxBytes: 300}
	c.Put(page("https://a", 82), false) // 100
	c.Put(page("https://b", 82), false) // 200
	c.Put(page("https://a", 82), false) // replaced, still 200; a is the newest
	c.Put(page("https://c", 82), false) // 300
	if c.Len() != 3 {
		t.Fatalf("%d entries, want 3 (a page put again counts once)", c.Len())
	}
	c.Put(page("https://d", 82), false) // evicts b, the least recently used
	if _, ok := c.Get("https://b", false); ok || c.Len() != 3 {
		t.Fatalf("b kept or %d entries, want b dropped and 3 entries", c.Len())
	}
	c.Put(page("https://big", 283), false) // 301: not kept, nothing dropped
	if _, ok := c.Get("https://big", false); ok || c.Len() != 3 {
		t.Fatalf("a page over MaxBytes was kept or dropped others: %d entries", c.Len())
	}
	c.Put(&Page{URL: "https://e", FinalURL: "https://f", Content: strings.Repeat("x", 132)}, false) // 150, under two URLs: 300
	if _, ok := c.Get("https://e", false); !ok || c.Len() != 2 {
		t.Fatalf("a page under two URLs: %d entries, want only its 2", c.Len())
	}
	c.Put(&Page{URL: "https://g", FinalURL: "https://h", Content: strings.Repeat("x", 133)}, false) // 151 twice: over
	if _, ok := c.Get("https://g", false); ok {
		t.Fatal("a page that fits once but not under both its URLs was kept")
	}
}

// TestCacheFinalURL: a redirected page is kept under its final URL as
// that URL's own read: that URL requested, no redirects (a read of the
// final URL showed the redirect, its header a line longer), its notes
// kept. The cache dropped the notes that started with "Redirected: ",
// a site handler's own among them.
func TestCacheFinalURL(t *testing.T) {
	c := &Cache{}
	p := &Page{URL: "https://a/old", FinalURL: "https://a/new", Redirects: []string{"https://a/new"}, Notes: []string{"Redirected: by the site's API", "Body cut at 1B"}, Content: "x"}
	c.Put(p, false)
	old, _ := c.Get("https://a/old", false)
	if old != p {
		t.Fatalf("the requested URL gives %+v, want the page put", old)
	}
	assert.Equal(t, []string{"Redirected: https://a/old -> https://a/new", "Redirected: by the site's API", "Body cut at 1B"}, old.ShownNotes())
	got, _ := c.Get("https://a/new", false)
	assert.Equal(t, &Page{URL: "https://a/new", FinalURL: "https://a/new", Notes: []string{"Redirected: by the site's API", "Body cut at 1B"}, Content: "x"}, got)
	assert.Equal(t, got.Notes, got.ShownNotes())
	assert.Equal(t, []string{"https://a/new"}, p.Redirects, "the page put keeps its redirects")
}

// TestCacheCredentials: a page read with credentials is got with the
// same ones or with the URL as shown (its secret "xxxxx"), not with
// others; a redirect's final URL too.
func TestCacheCredentials(t *testing.T) {
	c := &Cache{}
	p := &Page{URL: "https://user:secret@a/old", FinalURL: "https://user:secret@a/new", Content: "x"}
	c.Put(p, false)
	tok := &Page{URL: "https://TOKEN@b/x", FinalURL: "https://TOKEN@b/x", Content: "y"}
	c.Put(tok, false)
	for _, tt := range []struct {
		url  string
		want string // the page's content; "" for none
	}{
		{"https://user:secret@a/old", "x"},
		{"HTTPS://user:secret@A/old#f", "x"}, // as cacheURL normalises
		{"https://user:xxxxx@a/old", "x"},
		{"https://user:xxxxx@a/new", "x"},
		{"https://user:secret@a/new", "x"},
		{"https://user:guess@a/old", ""},
		{"https://other:xxxxx@a/old", ""},
		{"https://a/old", ""},
		{"https://xxxxx@b/x", "y"},
		{"https://TOKEN@b/x", "y"},
		{"https://GUESS@b/x", ""},
		{"https://b/x", ""},
	} {
		got, ok := c.Get(tt.url, false)
		if ok != (tt.want != "") || ok && got.Content != tt.want {
			t.Errorf("Get(%s) = %v, %v; want %q", tt.url, got, ok, tt.want)
		}
	}
	if _, ok := c.Get("https://user:xxxxx@a/old", true); ok {
		t.Error("a rendered page got as :raw")
	}
}

func TestCacheLRUAndTTL(t *testing.T) {
	now := time.Unix(0, 0)
	c := &Cache{MaxEntries: 2, TTL: time.Minute, now: func() time.Time { return now }}
	c.Put(&Page{URL: "https://a", FinalURL: "https://a"}, false)
	c.Put(&Page{URL: "https://b", FinalURL: "https://b"}, false)
	if _, ok := c.Get("https://a", false); !ok {
		t.Fatal("a missing")
	}
	c.Put(&Page{URL: "https://c", FinalURL: "https://c"}, false) // evicts b, the least recently used
	if _, ok := c.Get("https://b", false); ok {
		t.Fatal("b should be evicted")
	}
	if _, ok := c.Get("https://a", true); ok {
		t.Fatal("raw mode must not see the rendered entry")
	}
	now = now.Add(2 * time.Minute)
	if _, ok := c.Get("https://a", false); ok {
		t.Fatal("a should have expired")
	}
	var nilCache *Cache
	nilCache.Put(&Page{URL: "https://a"}, false)
	if _, ok := nilCache.Get("https://a", false); ok || nilCache.Len() != 0 {
		t.Fatal("nil cache must hold nothing")
	}
}

func TestAlternateFetches(t *testing.T) {
	srv, hits := server(t)
	if _, err := Render(context.Background(), local(), srv.URL+"/with-md", Options{Raw: true}); err != nil {
		t.Fatal(err)
	}
	if hits.get("/with-md") != 1 || hits.get("/page.md") != 0 {
		t.Fatalf(":raw must fetch the page only: page %d, alternate %d", hits.get("/with-md"), hits.get("/page.md"))
	}
	if _, err := Render(context.Background(), local(), srv.URL+"/with-md", Options{}); err != nil {
		t.Fatal(err)
	}
	if hits.get("/with-md") != 2 || hits.get("/page.md") != 1 {
		t.Fatalf("rendered read fetches the page and its alternate once: page %d, alternate %d", hits.get("/with-md"), hits.get("/page.md"))
	}
}

// TestCheckURLCredentials: a URL whose user name or password does not
// parse (an unescaped '/', '?', '#', a bad escape) is an error that
// shows none of them (URL.Parse's own quotes the password's start as the
// port) and says to percent-encode them; an error elsewhere in a URL with
// credentials is URL.Parse's, of the redacted URL.
func TestCheckURLCredentials(t *testing.T) {
	const encode = "its user name or password does not parse. Percent-encode the characters in them that a URL reserves: '/' as %2F, '?' as %3F, '#' as %23, '@' as %40, '%' as %25"
	tests := []struct{ in, want string }{
		{"https://user:Q9/Zk@host/x", `Invalid URL "https://user:xxxxx@host/x": ` + encode},
		{"https://user:Q9?Zk@host/x", `Invalid URL "https://user:xxxxx@host/x": ` + encode},
		{"https://user:Q9#Zk@host/x", `Invalid URL "https://user:xxxxx@host/x": ` + encode},
		{"https://user:Q9%zzZk@host/x", `Invalid URL "https://user:xxxxx@host/x": ` + encode},
		{"https://Q9%zzZk@host/x", `Invalid URL "https://xxxxx@host/x": ` + encode},
		{"https://user:Q9Zk@ho st/x", `Invalid URL "https://user:xxxxx@ho st/x": invalid character " " in host name`},
		{"https://user:Q9Zk@host:port/x", `Invalid URL "https://user:xxxxx@host:port/x": invalid port ":port" after host`},
	}
	for _, tt := range tests {
		_, err := CheckURL(tt.in)
		if err == nil {
			t.Errorf("%s: no error", tt.in)
			continue
		}
		assert.Equal(t, tt.want, err.Error(), tt.in)
		assert.Equal(t, errs.InvalidParam, errs.CodeOf(err), tt.in)
		if strings.Contains(err.Error(), "Q9") || strings.Contains(err.Error(), "Zk") {
			t.Errorf("%s: the error shows the password: %v", tt.in, err)
		}
	}
}

// TestRenderCredentials: Render sends a URL's credentials and shows the
// URL redacted in the header, the notes and the errors, those of the
// transport and of URL.Parse included.
func TestRenderCredentials(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, p, _ := r.BasicAuth(); p != "secret" {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><article><p>`+strings.Repeat("words ", 50)+`<a href="/next">next</a></p></article></body></html>`)
		case "/tiny":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><p>tiny</p></body></html>`)
		case "/llms.txt":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "# Site\n\nthe site's llms.txt\n")
		case "/gone":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusGone)
			fmt.Fprint(w, `<html><body><p>See <a href="/new">the new page</a></p></body></html>`)
		case "/old":
			http.Redirect(w, r, "/page", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	secret := strings.Replace(srv.URL, "://", "://user:secret@", 1)
	shown := strings.Replace(srv.URL, "://", "://user:xxxxx@", 1)
	t.Run("page", func(t *testing.T) {
		p, err := Render(context.Background(), local(), secret+"/old", Options{})
		if err != nil {
			t.Fatal(err)
		}
		out := p.Output() + strings.Join(p.ShownNotes(), "\n")
		assert.Contains(t, out, "URL: "+shown+"/page\n")
		assert.Contains(t, out, "Redirected: "+shown+"/old -> "+shown+"/page")
		assert.Contains(t, out, "md-suffix "+shown+"/page.md (HTTP 404)", "a failed probe's note")
		assert.Contains(t, out, "[next]("+shown+"/next)", "a relative link, resolved against the URL shown")
		assert.NotContains(t, out, "secret")
		assert.Equal(t, secret+"/page", p.FinalURL, "the page keeps the URL fetched")
	})
	t.Run("llms.txt, asked for with the credentials", func(t *testing.T) {
		p, err := Render(context.Background(), local(), secret+"/tiny", Options{})
		if err != nil {
			t.Fatal(err)
		}
		assert.Equal(t, MethodLLMs, p.Method, "notes %q", p.Notes)
		assert.Contains(t, p.Notes, "The page rendered to 4 characters; showing the site's "+shown+"/llms.txt")
	})
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := strings.Replace(dead.URL, "://", "://user:secret@", 1)
	dead.Close()
	for _, tt := range []struct {
		name, url string
		f         Fetcher
		want      string
	}{
		{"an HTTP error", secret + "/missing", local(), "HTTP 404 Not Found from " + shown + "/missing: 404 page not found"},
		{"an HTML error page, its links resolved", secret + "/gone", local(), "HTTP 410 Gone from " + shown + "/gone: See [the new page](" + shown + "/new)"},
		{"a URL that does not parse", "https://user:secret@host:port/x", local(), `Invalid URL "https://user:xxxxx@host:port/x": invalid port ":port" after host`},
		{"a transport error", deadURL + "/x", local(), "Cannot fetch " + strings.Replace(dead.URL, "://", "://user:xxxxx@", 1) + "/x: \"" + strings.Replace(dead.URL, "://", "://user:xxxxx@", 1) + "/x\": dial tcp"},
		{"a private address", secret + "/page", &HTTPFetcher{}, "Access denied: " + shown + "/page was not fetched"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(context.Background(), tt.f, tt.url, Options{})
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "secret") {
				t.Fatalf("err = %v\nwant it to start %s, without the password", err, tt.want)
			}
			var st *StatusError
			if errors.As(err, &st) {
				assert.Equal(t, strings.Replace(tt.url, "secret", "xxxxx", 1), st.URL, "the StatusError a failed read shows")
			}
		})
	}
}

func TestControls(t *testing.T) {
	tests := []struct {
		in, want string
		n        int
	}{
		{"", "", 0},
		{"a\tb\nc\r\nd", "a\tb\nc\r\nd", 0},
		{"\x1b[31mred\x1b[0m", "␛[31mred␛[0m", 2},
		{"\x1b]0;title\x07", "␛]0;title␇", 2},
		{"a\rb\r", "a␍b␍", 2},
		{"\x00\x08\x0b\x0c\x1f\x7f", "␀␈␋␌␟␡", 6},
		{"é\u0080\u009bü\u00a0", "é\uFFFD\uFFFDü\u00a0", 2}, // C1; U+00A0 is no control
		{"␛ stays", "␛ stays", 0},
	}
	for _, tt := range tests {
		got, n := controls(tt.in)
		if got != tt.want || n != tt.n {
			t.Errorf("controls(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.n)
		}
	}
}

// TestRenderControls: the control characters of a page's text reach
// neither the content nor an error's message; a note counts those
// replaced. They were passed on: ESC sequences that recolour, retitle or
// rewrite a terminal showing the read.
func TestRenderControls(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/text":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "ok \x1b[31mred\x1b[0m\x07\r\nline\rover\n")
		case "/html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><head><title>T\x1b]0;pwned\x07</title></head><body><article><p>"+strings.Repeat("words ", 50)+"\x1b[2J\u009b</p></article></body></html>")
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, "{\"a\": \"\x1b[31m\"}") // a raw control in a string: invalid, shown as text
		case "/clean":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"a": "\u001b[31m"}`) // escaped: valid, and no control in the text
		default:
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, "no \x1b[5mpage\x1b[0m")
		}
	}))
	t.Cleanup(srv.Close)
	const note = "Control characters shown as symbols: "
	tests := []struct {
		path    string
		raw     bool
		content string // contained
		count   int    // in the note; 0: no note
	}{
		{"/text", false, "ok ␛[31mred␛[0m␇\r\nline␍over", 3 + 1}, // CRLF kept: a line ends there
		{"/text", true, "ok ␛[31mred␛[0m␇\r\nline␍over", 3 + 1},
		{"/html", false, "words ␛[2J\uFFFD", 2 + 2}, // the title's two as well
		{"/html", true, "<title>T␛]0;pwned␇</title>", 4},
		{"/json", false, `{"a": "␛[31m"}`, 1},
		{"/clean", false, `"a": "\u001b[31m"`, 0},
	}
	for _, tt := range tests {
		p, err := Render(context.Background(), local(), srv.URL+tt.path, Options{Raw: tt.raw})
		if err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		assert.Contains(t, p.Content, tt.content, tt.path)
		assert.Equal(t, -1, firstControl(p.Output()), "%s raw=%v: a control character left in %q", tt.path, tt.raw, p.Output())
		want := []string(nil)
		for _, n := range p.Notes {
			if strings.HasPrefix(n, note) {
				want = append(want, n)
			}
		}
		if tt.count == 0 {
			assert.Empty(t, want, tt.path)
		} else {
			assert.Equal(t, []string{fmt.Sprintf("%s%d (C0 and DEL as their Unicode control pictures, ESC as ␛; C1 as U+FFFD)", note, tt.count)}, want, "%s raw=%v", tt.path, tt.raw)
		}
	}
	_, err := Render(context.Background(), local(), srv.URL+"/missing", Options{})
	if err == nil || !strings.HasSuffix(err.Error(), ": no ␛[5mpage␛[0m") {
		t.Errorf("err = %q, want the error page quoted without its controls", err)
	}
}

// TestRenderHostErrorsRedacted: the error of a host's fetcher or site
// handler that quotes the URL it was given, credentials included, is
// shown with them redacted (the read's error, a failed probe's or
// handler's note), its code kept.
func TestRenderHostErrorsRedacted(t *testing.T) {
	const page = "https://user:secret@example.com/page"
	const shown = "https://user:xxxxx@example.com/page"
	failing := func(code errs.Code) Fetcher {
		return FetcherFunc(func(_ context.Context, u string) (*Response, error) {
			if code == "" {
				return nil, fmt.Errorf("cannot fetch %s (for %s): %w", u, strings.Replace(u, "user:secret@", "tok@", 1), context.DeadlineExceeded)
			}
			return nil, errs.New(code, "refused %q", u)
		})
	}
	for _, tt := range []struct {
		f    Fetcher
		code errs.Code
		want string
	}{
		{failing(""), errs.Timeout, "Cannot fetch " + shown + ": cannot fetch " + shown + " (for https://xxxxx@example.com/page): context deadline exceeded"},
		{failing(errs.InvalidParam), errs.InvalidParam, `refused "` + shown + `"`},
		{failing(errs.AccessDenied), errs.AccessDenied, `refused "` + shown + `"`},
		{failing(errs.Unsupported), errs.Unsupported, "Cannot fetch " + shown + `: refused "` + shown + `"`},
	} {
		_, err := Render(context.Background(), tt.f, page, Options{})
		if assert.Error(t, err) {
			assert.Equal(t, tt.want, err.Error())
			assert.Equal(t, tt.code, errs.CodeOf(err))
		}
	}

	// A page whose probes fail, read with a site handler that fails.
	f := FetcherFunc(func(_ context.Context, u string) (*Response, error) {
		if u == page {
			return &Response{Status: 200, ContentType: "text/html", Body: []byte(`<html><body><p>tiny</p></body></html>`), FinalURL: u}, nil
		}
		return nil, fmt.Errorf("no route to %s", u)
	})
	handler := HandlerFunc(func(_ context.Context, _ Fetcher, u *url.URL) (*Page, error) {
		return nil, fmt.Errorf("site down for %s", u)
	})
	p, err := Render(context.Background(), f, page, Options{Handlers: map[string]Handler{"host": handler}})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(p.Notes, "\n")
	assert.Contains(t, notes, "site handler host (site down for "+shown+")")
	assert.Contains(t, notes, "md-suffix "+shown+".md (no route to "+shown+".md)")
	assert.NotContains(t, notes, "secret")
}
