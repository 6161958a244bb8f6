package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/internal/convert"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/testfs"
)

// site is a fake web: one httptest server answering for every host, each
// route keyed by "host/path". It counts the requests it gets.
type site struct {
	srv    *httptest.Server
	mu     sync.Mutex
	routes map[string]http.HandlerFunc
	hits   []string // "host/path" of every request, in order
}

func newSite(t *testing.T) *site {
	t.Helper()
	s := &site{routes: map[string]http.HandlerFunc{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Host + r.URL.Path
		s.mu.Lock()
		s.hits = append(s.hits, key)
		h := s.routes[key]
		s.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// serve answers GET host/path with a fixed body.
func (s *site) serve(hostPath, ctype string, body []byte) {
	s.routes[hostPath] = func(w http.ResponseWriter, r *http.Request) {
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.Write(body)
	}
}

func (s *site) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.hits)
}

// fetcher is an HTTPFetcher whose transport sends every request, for any
// host and scheme, to the fake web, keeping the Host header.
func (s *site) fetcher() *HTTPFetcher {
	target, _ := url.Parse(s.srv.URL)
	base := s.srv.Client().Transport
	rt := roundTripper(func(orig *http.Request) (*http.Response, error) {
		r := orig.Clone(orig.Context())
		r.Host = r.URL.Host
		r.URL.Scheme, r.URL.Host = target.Scheme, target.Host
		resp, err := base.RoundTrip(r)
		if resp != nil {
			resp.Request = orig // the client sees the URL it asked for
		}
		return resp, err
	})
	return &HTTPFetcher{Client: &http.Client{Transport: rt}}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

const (
	markdownPage = `<!doctype html><html><head><title>Docs</title></head><body><article><h1>HTML docs</h1><p>The HTML version of the page, long enough to be an article with words, commas, and sentences that readability scores as the main content of the page.</p></article></body></html>`
	blogIndex    = `<!doctype html><html><head><title>Blog</title><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body><ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul></body></html>`
	articleFeed  = `<!doctype html><html><head><title>Post</title><link rel="alternate" type="application/atom+xml" href="/feed.xml"></head><body>` + articleBody + `</body></html>`
	articleBody  = `<article><h1>A post</h1><p>A real post with plenty of words, commas, and sentences, so that readability sees an article and the feed is not needed at all here.</p><p>Another paragraph of the same post, again long enough, with commas, words and more words to score well.</p><p>A third paragraph closes the post: it sums up, thanks the reader, and points to the next post in the series.</p></article>`
	appShell     = `<!doctype html><html><head><title>App</title></head><body><div id="root"><p>Loading the app…</p></div></body></html>`
)

func TestPipeline(t *testing.T) {
	s := newSite(t)
	s.serve("github.com/o/r/blob/main/src/a.go", "text/html", []byte(markdownPage))
	s.serve("raw.githubusercontent.com/o/r/main/src/a.go", "text/plain; charset=utf-8", []byte("package a\n"))
	s.serve("raw.githubusercontent.com/o/r/feature/x/cfg.json", "text/plain; charset=utf-8", []byte(`{"a":1}`))
	s.serve("github.com/o/gone/blob/main/x.go", "text/html", []byte(markdownPage))
	s.serve("raw.githubusercontent.com/o/r/HEAD/README.md", "text/plain; charset=utf-8", []byte("# r\n\nThe readme.\n"))
	s.serve("api.github.com/repos/o/rst/readme", "application/json", []byte(`{"name":"README.rst","encoding":"base64","content":"`+base64.StdEncoding.EncodeToString([]byte("R\n=\n\nreStructured readme\n"))+`"}`))
	s.serve("github.com/features/copilot", "text/html", []byte(markdownPage))
	s.serve("raw.githubusercontent.com/o/r/main/logo.png", "image/png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	s.serve("gitlab.com/g/sub/p/-/raw/v1/README.md", "text/plain; charset=utf-8", []byte("gitlab readme\n"))
	s.serve("docs.example/guide", "text/html", []byte(markdownPage))
	s.serve("docs.example/guide.md", "text/markdown", []byte("# Guide\n\nThe markdown version.\n"))
	s.serve("docs.example/", "text/html", []byte(markdownPage))
	s.serve("docs.example/index.html.md", "text/plain", []byte("# Home\n\nIndex in markdown.\n"))
	s.serve("shell.example/page", "text/html", []byte(markdownPage))
	s.serve("shell.example/page.md", "text/plain", []byte(appShell))
	s.routes["neg.example/page"] = func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Accept"), "text/markdown") {
			w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
			fmt.Fprint(w, "# Negotiated\n\nmarkdown by Accept\n")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, markdownPage)
	}
	s.serve("blog.example/", "text/html", []byte(blogIndex))
	s.serve("blog.example/feed.xml", "application/rss+xml", []byte(rss))
	s.serve("blog.example/post", "text/html", []byte(articleFeed))
	s.serve("blog2.example/", "text/html", []byte(blogIndex))
	s.serve("blog2.example/feed.xml", "text/html", []byte(markdownPage))
	s.serve("app.example/dash", "text/html", []byte(appShell))
	s.serve("app.example/llms.txt", "text/plain", []byte("# App\n\n> The app's docs for LLMs.\n"))
	s.serve("nollms.example/dash", "text/html", []byte(appShell))
	pdf, err := os.ReadFile("../convert/testdata/hello.pdf")
	if err != nil {
		t.Fatal(err)
	}
	s.serve("paper.example/abs/1", "text/html", []byte(`<html><head><title>1</title></head><body><p>Paper 1.</p><p><a href="/help">Help</a> <a href="/pdf/1.pdf">PDF</a></p></body></html>`))
	s.serve("paper.example/pdf/1.pdf", "application/pdf", pdf)
	s.serve("paper.example/abs/2", "text/html", []byte(`<html><body><iframe src="/pdf/2.pdf"></iframe></body></html>`))
	s.serve("paper.example/pdf/2.pdf", "text/html", []byte(markdownPage))
	s.serve("empty.example/x", "text/html", []byte(`<html><head><title></title></head><body><script>1</script></body></html>`))

	tests := []struct {
		reason   string
		url      string
		raw      bool
		handlers map[string]Handler
		method   string
		final    string
		contains []string
		notes    []string
	}{
		{"a GitHub blob page is read as its raw file", "https://github.com/o/r/blob/main/src/a.go", false, nil,
			MethodGitHubRaw, "https://raw.githubusercontent.com/o/r/main/src/a.go", []string{"package a"}, nil},
		{"a ref with a slash keeps its path; JSON in a raw file is shown as served", "https://github.com/o/r/blob/feature/x/cfg.json", false, nil,
			MethodGitHubRaw, "https://raw.githubusercontent.com/o/r/feature/x/cfg.json", []string{`{"a":1}`}, nil},
		{"a raw image keeps the image method", "https://github.com/o/r/blob/main/logo.png", false, nil,
			MethodImage, "https://raw.githubusercontent.com/o/r/main/logo.png", []string{"[Image: image/png, 16B]"}, []string{"Raw file: https://raw.githubusercontent.com/o/r/main/logo.png"}},
		{"a missing raw file falls back to the page, with a note", "https://github.com/o/gone/blob/main/x.go", false, nil,
			MethodReadability, "https://github.com/o/gone/blob/main/x.go", []string{"HTML version"}, []string{"site handler github (HTTP 404 from https://raw.githubusercontent.com/o/gone/main/x.go)"}},
		{"a repository root is read as its README", "https://github.com/o/r", false, nil,
			MethodGitHubReadme, "https://raw.githubusercontent.com/o/r/HEAD/README.md", []string{"The readme."}, nil},
		{"a README with another name comes from the API", "https://github.com/o/rst/", false, nil,
			MethodGitHubReadme, "https://api.github.com/repos/o/rst/readme", []string{"reStructured readme"}, []string{"Read README.rst through the GitHub API"}},
		{"a reserved first segment is not a repository", "https://github.com/features/copilot", false, nil,
			MethodReadability, "https://github.com/features/copilot", []string{"HTML version"}, nil},
		{":raw skips the site handlers", "https://github.com/o/r/blob/main/src/a.go", true, nil,
			MethodRawHTML, "https://github.com/o/r/blob/main/src/a.go", []string{"<article>"}, nil},
		{"a GitLab blob page is read as its raw file", "https://gitlab.com/g/sub/p/-/blob/v1/README.md", false, nil,
			MethodGitLabRaw, "https://gitlab.com/g/sub/p/-/raw/v1/README.md", []string{"gitlab readme"}, nil},
		{"a host handler replaces a built-in by name", "https://github.com/o/r/blob/main/src/a.go", false,
			map[string]Handler{"github": HandlerFunc(func(ctx context.Context, f Fetcher, u *url.URL) (*Page, error) {
				return &Page{Content: "mine: " + u.Path}, nil
			})}, "site:github", "https://github.com/o/r/blob/main/src/a.go", []string{"mine: /o/r/blob/main/src/a.go"}, nil},
		{"a nil handler removes a built-in", "https://github.com/o/r/blob/main/src/a.go", false, map[string]Handler{"github": nil},
			MethodReadability, "https://github.com/o/r/blob/main/src/a.go", []string{"HTML version"}, nil},
		{"a host handler that fails is noted and the page is read", "https://docs.example/guide", false,
			map[string]Handler{"docs": HandlerFunc(func(ctx context.Context, f Fetcher, u *url.URL) (*Page, error) {
				return nil, errors.New("docs API down")
			})}, MethodMDSuffix, "https://docs.example/guide", []string{"The markdown version."}, []string{"site handler docs (docs API down)"}},
		{"URL.md is preferred to the HTML", "https://docs.example/guide", false, nil,
			MethodMDSuffix, "https://docs.example/guide", []string{"# Guide\n\nThe markdown version."}, []string{"Used the markdown version: https://docs.example/guide.md"}},
		{"a path ending in / tries index.html.md", "https://docs.example/", false, nil,
			MethodMDSuffix, "https://docs.example/", []string{"Index in markdown."}, nil},
		{"an HTML app shell served as text/plain at URL.md is not markdown", "https://shell.example/page", false, nil,
			MethodReadability, "https://shell.example/page", []string{"HTML version"}, []string{"md-suffix https://shell.example/page.md (answered an HTML page as text/plain)"}},
		{"content negotiation: Accept: text/markdown answered with markdown", "https://neg.example/page", false, nil,
			MethodNegotiated, "https://neg.example/page", []string{"# Negotiated"}, []string{"md-suffix https://neg.example/page.md (HTTP 404)"}},
		{"a page without an article is read as its feed alternate", "https://blog.example/", false, nil,
			MethodFeed, "https://blog.example/", []string{"# News", "- [First](https://n.example/1)"}, []string{"No article in the page; used its feed: https://blog.example/feed.xml"}},
		{"a feed link that answers HTML is noted, and the page read", "https://blog2.example/", false, nil,
			MethodReadability, "https://blog2.example/", []string{"- [A](https://blog2.example/a)"}, []string{"feed https://blog2.example/feed.xml (answered text/html, not a feed)"}},
		{"an article is not replaced by its feed", "https://blog.example/post", false, nil,
			MethodReadability, "https://blog.example/post", []string{"A real post"}, nil},
		{"a page that renders to almost nothing is replaced by llms.txt", "https://app.example/dash", false, nil,
			MethodLLMs, "https://app.example/dash", []string{"The app's docs for LLMs."}, []string{"showing the site's https://app.example/llms.txt"}},
		{"without llms.txt the thin page stays, with the failed probe noted", "https://nollms.example/dash", false, nil,
			MethodReadability, "https://nollms.example/dash", []string{"Loading the app…"}, []string{"llms.txt https://nollms.example/llms.txt (HTTP 404)"}},
		{"a thin page is replaced by the document it links to", "https://paper.example/abs/1", false, nil,
			MethodLinkedDocument, "https://paper.example/abs/1", []string{"Hello PDF"}, []string{"The page rendered to", "showing the document it links to: https://paper.example/pdf/1.pdf"}},
		{"a linked document that is not one is noted", "https://paper.example/abs/2", false, nil,
			MethodRawHTML, "https://paper.example/abs/2", []string{"<iframe"}, []string{"linked-document https://paper.example/pdf/2.pdf (answered text/html, not a document)"}},
		{"a page that renders to nothing is shown as HTML", "https://empty.example/x", false, nil,
			MethodRawHTML, "https://empty.example/x", []string{"<script>1</script>"}, []string{"The page rendered to no text; showing its HTML"}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			before := s.count()
			p, err := Render(context.Background(), s.fetcher(), tt.url, Options{Raw: tt.raw, Handlers: tt.handlers})
			if err != nil {
				t.Fatal(err)
			}
			if n := s.count() - before; n > MaxRequests {
				t.Errorf("%d requests, over MaxRequests", n)
			}
			if p.Method != tt.method || p.FinalURL != tt.final || p.URL != tt.url {
				t.Errorf("method %q final %q url %q, want %q %q; notes %q\n%s", p.Method, p.FinalURL, p.URL, tt.method, tt.final, p.Notes, p.Content)
			}
			for _, c := range tt.contains {
				if !strings.Contains(p.Content, c) {
					t.Errorf("content lacks %q:\n%s", c, p.Content)
				}
			}
			for _, n := range tt.notes {
				if !strings.Contains(strings.Join(p.ShownNotes(), "; "), n) {
					t.Errorf("notes %q lack %q", p.ShownNotes(), n)
				}
			}
		})
	}
}

// TestRequestBudget checks that a read never makes more than MaxRequests
// requests, whatever the page and the handlers want.
func TestRequestBudget(t *testing.T) {
	s := newSite(t)
	worst := `<html><head><link rel="alternate" type="text/markdown" href="/alt.md"><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body><p>x <a href="/paper.pdf">paper</a></p></body></html>`
	s.serve("w.example/page", "text/html", []byte(worst))
	greedy := HandlerFunc(func(ctx context.Context, f Fetcher, u *url.URL) (*Page, error) {
		var last error
		for i := range 20 {
			_, last = f.Fetch(ctx, fmt.Sprintf("https://w.example/greedy/%d", i))
		}
		return nil, last
	})
	tests := []struct {
		reason   string
		handlers map[string]Handler
		want     int
		notes    []string
	}{
		{"the worst page: every probe tried once, each failure noted", nil, 7,
			[]string{"alternate-markdown https://w.example/alt.md (HTTP 404)", "md-suffix https://w.example/page.md (HTTP 404)",
				"content-negotiation https://w.example/page (answered text/html)", "feed https://w.example/feed.xml (HTTP 404)",
				"linked-document https://w.example/paper.pdf (HTTP 404)", "llms.txt https://w.example/llms.txt (HTTP 404)"}},
		{"a greedy handler is stopped at its share; the page and every probe still run", map[string]Handler{"greedy": greedy}, MaxRequests,
			[]string{"site handler greedy (skipped: the site handlers already made 2 requests, Scout's limit)", "llms.txt https://w.example/llms.txt (HTTP 404)"}},
	}
	for _, tt := range tests {
		before := s.count()
		p, err := Render(context.Background(), s.fetcher(), "https://w.example/page", Options{Handlers: tt.handlers})
		if err != nil {
			t.Fatal(err)
		}
		if n := s.count() - before; n != tt.want {
			t.Errorf("%s: %d requests, want %d: %q", tt.reason, n, tt.want, s.hits[before:])
		}
		for _, n := range tt.notes {
			if !strings.Contains(strings.Join(p.Notes, "; "), n) {
				t.Errorf("%s: notes %q lack %q", tt.reason, p.Notes, n)
			}
		}
	}
}

// TestProbeBounds checks that a probe is bounded by the fetcher's byte
// cap and deadline, and that a fetcher without headers skips content negotiation with
// a note.
func TestProbeBounds(t *testing.T) {
	s := newSite(t)
	s.serve("big.example/page", "text/html", []byte(markdownPage))
	s.serve("big.example/page.md", "text/markdown", bytes.Repeat([]byte("# big\n"), 4000))
	f := s.fetcher()
	f.MaxBytes = 8 << 10
	p, err := Render(context.Background(), f, "https://big.example/page", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Method != MethodReadability || !strings.Contains(strings.Join(p.Notes, "; "), "md-suffix https://big.example/page.md (body over the byte cap)") {
		t.Errorf("over the cap: method %q notes %q", p.Method, p.Notes)
	}
	s.serve("hang.example/page", "text/html", []byte(markdownPage))
	s.routes["hang.example/page.md"] = func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	f.Timeout = 300 * time.Millisecond
	start := time.Now()
	p, err = Render(context.Background(), f, "https://hang.example/page", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Method != MethodReadability || !strings.Contains(strings.Join(p.Notes, "; "), "md-suffix https://hang.example/page.md (no answer within 300ms, the fetch deadline") || time.Since(start) > 5*time.Second {
		t.Errorf("a probe that never answers: method %q notes %q after %v", p.Method, p.Notes, time.Since(start))
	}
	plain := FetcherFunc(f.Fetch)
	p, err = Render(context.Background(), plain, "https://big.example/page", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(p.Notes, "; "), "content-negotiation (the fetcher cannot send an Accept header)") {
		t.Errorf("plain fetcher: notes %q", p.Notes)
	}
}

// fakeConverter is a document converter that names what it converted.
type fakeConverter struct{}

func (fakeConverter) Convert(ctx context.Context, r io.ReaderAt, size int64) (string, error) {
	return fmt.Sprintf("converted %d bytes", size), nil
}

// TestRawFileConverters checks that a document a site handler fetches is
// converted with the caller's converters.
func TestRawFileConverters(t *testing.T) {
	s := newSite(t)
	s.serve("raw.githubusercontent.com/o/r/main/doc.pdf", "application/octet-stream", []byte("%PDF-1.4 ..."))
	conv := func(ext string) (convert.Converter, bool) { return fakeConverter{}, ext == ".pdf" }
	p, err := Render(context.Background(), s.fetcher(), "https://github.com/o/r/blob/main/doc.pdf", Options{Convert: conv})
	if err != nil {
		t.Fatal(err)
	}
	if p.Method != MethodDocument || p.Content != "converted 12 bytes" || !strings.Contains(strings.Join(p.Notes, "; "), "Raw file: https://raw.githubusercontent.com/o/r/main/doc.pdf") {
		t.Errorf("method %q notes %q content %q", p.Method, p.Notes, p.Content)
	}
}

// TestClientHandlers checks that handlers carried by a Client are used,
// and that Options win a name.
func TestClientHandlers(t *testing.T) {
	s := newSite(t)
	s.serve("c.example/x", "text/plain", []byte("page"))
	named := func(name string) Handler {
		return HandlerFunc(func(context.Context, Fetcher, *url.URL) (*Page, error) { return &Page{Content: name}, nil })
	}
	c := &Client{Fetcher: s.fetcher(), Handlers: map[string]Handler{"a": named("client")}}
	p, err := Render(context.Background(), c, "https://c.example/x", Options{})
	if err != nil || p.Content != "client" || p.Method != "site:a" {
		t.Fatalf("client handler: %v %+v", err, p)
	}
	p, err = Render(context.Background(), c, "https://c.example/x", Options{Handlers: map[string]Handler{"a": named("options")}})
	if err != nil || p.Content != "options" {
		t.Fatalf("options handler: %v %+v", err, p)
	}
	p, err = Render(context.Background(), c, "https://c.example/x", Options{Raw: true})
	if err != nil || p.Content != "page" {
		t.Fatalf("raw: %v %+v", err, p)
	}
}

// TestCanceledProbe checks that a caller canceling during a probe gets an
// error, not a page.
func TestCanceledProbe(t *testing.T) {
	s := newSite(t)
	s.serve("slow.example/page", "text/html", []byte(markdownPage))
	ctx, cancel := context.WithCancel(context.Background())
	s.routes["slow.example/page.md"] = func(w http.ResponseWriter, r *http.Request) {
		cancel()
		<-r.Context().Done()
	}
	if _, err := Render(ctx, s.fetcher(), "https://slow.example/page", Options{}); err == nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

// TestBinaryKinds checks that each binary kind the local reader handles is
// fetched as bytes and handed to the same converters or image path.
func TestBinaryKinds(t *testing.T) {
	const w = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	const pns = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`
	docx := testfs.Zip(
		testfs.Member{Name: "[Content_Types].xml", Body: `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`},
		testfs.Member{Name: "word/document.xml", Body: `<?xml version="1.0"?><w:document ` + w + `><w:body><w:p><w:r><w:t>Hello DOCX</w:t></w:r></w:p></w:body></w:document>`})
	pptx := testfs.Zip(
		testfs.Member{Name: "ppt/presentation.xml", Body: `<?xml version="1.0"?><p:presentation ` + pns + `><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`},
		testfs.Member{Name: "ppt/_rels/presentation.xml.rels", Body: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="slide" Target="slides/slide1.xml"/></Relationships>`},
		testfs.Member{Name: "ppt/slides/slide1.xml", Body: `<?xml version="1.0"?><p:sld ` + pns + `><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="1" name="s"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:txBody><a:p><a:r><a:t>Hello PPTX</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`})
	epub := testfs.Zip(
		testfs.Member{Name: "mimetype", Body: "application/epub+zip"},
		testfs.Member{Name: "META-INF/container.xml", Body: `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="c.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`},
		testfs.Member{Name: "c.opf", Body: `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Book</dc:title></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`},
		testfs.Member{Name: "c1.xhtml", Body: `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body><p>Hello EPUB</p></body></html>`})
	const sml = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	xlsx := testfs.Zip(
		testfs.Member{Name: "xl/workbook.xml", Body: `<?xml version="1.0"?><workbook ` + sml + `><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`},
		testfs.Member{Name: "xl/_rels/workbook.xml.rels", Body: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`},
		testfs.Member{Name: "xl/worksheets/sheet1.xml", Body: `<?xml version="1.0"?><worksheet ` + sml + `><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Hello XLSX</t></is></c></row></sheetData></worksheet>`})
	xls, err := os.ReadFile("../convert/testdata/basic.xls")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, ctype string
		body        []byte
		method      string
		contains    string
		reason      string
	}{
		{"/a.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", docx, MethodDocument, "Hello DOCX", "DOCX by media type"},
		{"/a.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", xlsx, MethodDocument, "Hello XLSX", "XLSX by media type"},
		{"/a.pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation", pptx, MethodDocument, "Hello PPTX", "PPTX by media type"},
		{"/a.epub", "application/epub+zip", epub, MethodDocument, "Hello EPUB", "EPUB by media type"},
		{"/download/a.docx", "application/octet-stream", docx, MethodDocument, "Hello DOCX", "a generic type: the URL's extension names the converter"},
		{"/a.xls", "application/vnd.ms-excel", xls, MethodDocument, "|", "XLS (our own reader)"},
		{"/a.rtf", "application/rtf", []byte(`{\rtf1\ansi Hello RTF\par}`), MethodDocument, "Hello RTF", "RTF (our own reader)"},
		{"/bad.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", []byte("PK broken"), "", "UNSUPPORTED: Cannot convert the .docx document at https://files.example/bad.docx: not a valid DOCX document", "a broken document is an error"},
		{"/a.jpg", "image/jpeg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), MethodImage, "[Image: image/jpeg, 11B]", "JPEG keeps its bytes"},
		{"/a.gif", "image/gif", []byte("GIF89a\x01\x00\x01\x00"), MethodImage, "[Image: image/gif, 10B]", "GIF keeps its bytes"},
		{"/a.webp", "image/webp", []byte("RIFF\x00\x00\x00\x00WEBPVP8 "), MethodImage, "[Image: image/webp, 16B]", "WebP keeps its bytes"},
		{"/a.svg", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><text>hi</text></svg>`), MethodText, "<text>hi</text>", "SVG is text, not a raster image"},
	}
	s := newSite(t)
	for _, tt := range tests {
		s.serve("files.example"+tt.path, tt.ctype, tt.body)
	}
	for _, tt := range tests {
		p, err := Render(context.Background(), s.fetcher(), "https://files.example"+tt.path, Options{})
		if tt.method == "" {
			if got := fmt.Sprintf("%s: %v", errs.CodeOf(err), err); !strings.HasPrefix(got, tt.contains) {
				t.Errorf("%s: err = %s, want %s", tt.reason, got, tt.contains)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if p.Method != tt.method || !strings.Contains(p.Content, tt.contains) {
			t.Errorf("%s: method %q notes %q content\n%s", tt.reason, p.Method, p.Notes, p.Content)
		}
		if tt.method == MethodImage && !bytes.Equal(p.Image, tt.body) {
			t.Errorf("%s: image bytes not kept", tt.reason)
		}
	}
}

func TestMDSuffix(t *testing.T) {
	tests := []struct{ in, want, reason string }{
		{"https://x.example/docs/page", "https://x.example/docs/page.md", ".md appended"},
		{"https://x.example/docs/", "https://x.example/docs/index.html.md", "a directory gets index.html.md"},
		{"https://x.example", "https://x.example/index.html.md", "no path at all"},
		{"https://x.example/page.html?v=1#top", "https://x.example/page.html.md?v=1", "the query stays, the fragment goes"},
		{"https://x.example/README.MD", "", "already markdown"},
		{"https://x.example/a%20b", "https://x.example/a%20b.md", "escapes survive"},
	}
	for _, tt := range tests {
		if got := mdSuffix(tt.in); got != tt.want {
			t.Errorf("mdSuffix(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
		}
	}
}

func TestHeadLinks(t *testing.T) {
	tests := []struct {
		page   string
		want   []link
		reason string
	}{
		{`<head><link rel="alternate" type="text/markdown" href="/a.md"><link rel="stylesheet" href="s.css"></head>`, []link{{"text/markdown", "/a.md"}}, "alternate only"},
		{`<link REL="Alternate nofollow" TYPE="Application/RSS+XML; charset=utf-8" href=" f.xml ">`, []link{{"application/rss+xml", "f.xml"}}, "case, several rels, type parameters, spaces"},
		{`<head></head><body><link rel="alternate" type="text/markdown" href="/late.md"></body>`, nil, "links after the head are not the page's alternates"},
		{`<link rel="alternate" href="/no-type">`, nil, "a link without a type says nothing"},
		{`<title>t</title><p>text<link rel="alternate" type="text/markdown" href="/late.md">`, nil, "an element of the body ends the head"},
		{`<html><meta charset="utf-8"><script>if (a<b) {}</script><link rel="alternate" type="text/markdown" href="/a.md">`, []link{{"text/markdown", "/a.md"}}, "head elements before it"},
		{`<link rel="alternate" type="text/markdown">`, nil, "a link without an href"},
		{`<link rel="alternate" type="text/markdown" href="/a.md"/><link rel="alternate" type="application/atom+xml" href="/f">`, []link{{"text/markdown", "/a.md"}, {"application/atom+xml", "/f"}}, "self-closing, document order"},
	}
	for _, tt := range tests {
		if got := headLinks(tt.page); tt.want == nil {
			assert.Empty(t, got, "headLinks (%s)", tt.reason)
		} else {
			assert.Equal(t, tt.want, got, "headLinks (%s)", tt.reason)
		}
	}
	many := strings.Repeat(`<link rel="alternate" type="text/markdown" href="/a.md">`, 100)
	if n := len(headLinks(many)); n != maxLinks {
		t.Errorf("%d links, want the cap %d", n, maxLinks)
	}
	for in, want := range map[string]string{"/a.md": "https://x.example/a.md", "b.md#x": "https://x.example/dir/b.md", "//o.example/c": "https://o.example/c",
		"javascript:alert(1)": "", "file:///etc/passwd": "", "http://[::1": ""} {
		got, ok := resolve("https://x.example/dir/page", in)
		if got != want || ok != (want != "") {
			t.Errorf("resolve(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
}

func TestDocumentLink(t *testing.T) {
	tests := []struct{ page, want, reason string }{
		{`<p><a href="/help">help</a> <a href="paper.PDF#page=2">pdf</a></p>`, "https://x.example/dir/paper.PDF", "the first document link, any case, no fragment"},
		{`<embed src="/f.docx"><a href="/g.pdf">`, "https://x.example/f.docx", "embed comes first in the document"},
		{`<object data="//cdn.example/s.xlsx"></object>`, "https://cdn.example/s.xlsx", "object data, protocol-relative"},
		{`<a href="javascript:x.pdf">`, "", "not an http(s) link"},
		{`<a href="/page.html">`, "", "not a document"},
		{`<img src="/a.pdf">`, "", "an image source is not a document link"},
	}
	for _, tt := range tests {
		got, ok := documentLink(tt.page, "https://x.example/dir/page")
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("documentLink (%s) = %q %v, want %q", tt.reason, got, ok, tt.want)
		}
	}
}
