package scout_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/scoutkit/scout"
	"github.com/scoutkit/scout/format"
)

// mapFetcher answers from a map of URL to text/plain body; any other URL
// is a 404. It records the URLs asked for.
type mapFetcher struct {
	pages map[string]string
	asked []string
}

func (m *mapFetcher) Fetch(ctx context.Context, url string) (*scout.FetchResponse, error) {
	m.asked = append(m.asked, url)
	body, ok := m.pages[url]
	if !ok {
		return &scout.FetchResponse{URL: url, FinalURL: url, Status: 404, ContentType: "text/plain"}, nil
	}
	ct := "text/plain"
	if strings.HasPrefix(body, "<") {
		ct = "text/html"
	}
	return &scout.FetchResponse{URL: url, FinalURL: url, Status: 200, ContentType: ct, Body: []byte(body)}, nil
}

type siteFunc func(ctx context.Context, url string, fetch scout.Fetcher) (*scout.SitePage, error)

func (f siteFunc) Handle(ctx context.Context, url string, fetch scout.Fetcher) (*scout.SitePage, error) {
	return f(ctx, url, fetch)
}

// TestReadSiteHandlers checks Reader.SiteHandlers: the built-ins by
// default, a host handler that fetches through the read's fetcher, one
// that replaces a built-in, a nil one that removes it.
func TestReadSiteHandlers(t *testing.T) {
	const blob = "https://github.com/o/r/blob/main/a.go"
	pages := map[string]string{
		"https://raw.githubusercontent.com/o/r/main/a.go": "package a\n",
		blob:                            "<html><body><p>the blob page</p></body></html>",
		"https://api.docs.example/page": "docs from the API\n",
		"https://docs.example/x":        "<html><body><p>the docs page</p></body></html>",
	}
	docs := siteFunc(func(ctx context.Context, url string, fetch scout.Fetcher) (*scout.SitePage, error) {
		if !strings.HasPrefix(url, "https://docs.example/") {
			return nil, nil
		}
		resp, err := fetch.Fetch(ctx, "https://api.docs.example/page")
		if err != nil {
			return nil, err
		}
		return &scout.SitePage{URL: resp.FinalURL, Content: string(resp.Body), Notes: []string{"via the docs API"}}, nil
	})
	failing := siteFunc(func(context.Context, string, scout.Fetcher) (*scout.SitePage, error) {
		return nil, errors.New("site down")
	})
	tests := []struct {
		reason   string
		path     string
		sites    map[string]scout.SiteHandler
		method   string
		contains []string
	}{
		{"the built-in github handler reads a blob page as its raw file", blob, nil, "github-raw",
			[]string{"URL: https://raw.githubusercontent.com/o/r/main/a.go", "package a"}},
		{"a host handler fetches through the read's fetcher", "https://docs.example/x", map[string]scout.SiteHandler{"docs": docs}, "site:docs",
			[]string{"URL: https://api.docs.example/page", "Notes: via the docs API", "docs from the API"}},
		{"a host handler replaces a built-in by name", blob, map[string]scout.SiteHandler{"github": docs}, "readability",
			[]string{"the blob page"}},
		{"a nil handler removes a built-in", blob, map[string]scout.SiteHandler{"github": nil}, "readability",
			[]string{"the blob page", "content-negotiation (the fetcher cannot send an Accept header)"}},
		{"a failing handler is noted and the page read", "https://docs.example/x", map[string]scout.SiteHandler{"docs": failing}, "readability",
			[]string{"site handler docs (site down)", "the docs page"}},
	}
	for _, tt := range tests {
		f := &mapFetcher{pages: pages}
		r := scout.Reader{Fetcher: f, SiteHandlers: tt.sites}
		res, err := r.Read(context.Background(), scout.ReadRequest{Path: tt.path})
		if err != nil {
			t.Fatalf("%s: %v", tt.reason, err)
		}
		if res.URL == nil || res.URL.Method != tt.method {
			t.Errorf("%s: url %+v", tt.reason, res.URL)
		}
		// The header (URL, notes) is rendered from res.URL.
		text := format.ReadText(res, nil)
		for _, c := range tt.contains {
			if !strings.Contains(text, c) {
				t.Errorf("%s: output lacks %q (asked %q):\n%s", tt.reason, c, f.asked, text)
			}
		}
	}
}

// TestReadSiteNotesCached: a site handler's page is cached under the URL
// it read too, as a read of that URL, with every note of the handler. The
// cache told the redirect note by its text and dropped a handler's note
// that began the same way.
func TestReadSiteNotesCached(t *testing.T) {
	f := &mapFetcher{pages: map[string]string{"https://api.docs.example/page": "one\ntwo\n"}}
	docs := siteFunc(func(ctx context.Context, url string, fetch scout.Fetcher) (*scout.SitePage, error) {
		if !strings.HasPrefix(url, "https://docs.example/") {
			return nil, nil
		}
		resp, err := fetch.Fetch(ctx, "https://api.docs.example/page")
		if err != nil {
			return nil, err
		}
		return &scout.SitePage{URL: resp.FinalURL, Content: string(resp.Body), Notes: []string{"Redirected: by the docs API", "via the docs API"}}, nil
	})
	r := scout.Reader{Fetcher: f, SiteHandlers: map[string]scout.SiteHandler{"docs": docs}, URLCache: &scout.URLCache{}}
	for _, path := range []string{"https://docs.example/x", "https://api.docs.example/page:2"} {
		res, err := r.Read(context.Background(), scout.ReadRequest{Path: path})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if want := []string{"Redirected: by the docs API", "via the docs API"}; res.URL == nil || strings.Join(res.URL.Notes, "|") != strings.Join(want, "|") {
			t.Errorf("%s: url %+v, want the notes %q", path, res.URL, want)
		}
	}
	if len(f.asked) != 1 {
		t.Errorf("fetched %q, want the API once: the range is read from the cache", f.asked)
	}
}
