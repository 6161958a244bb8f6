package web

import (
	"context"

	"github.com/scoutkit/scout/internal/convert"
	"github.com/scoutkit/scout/internal/memtext"
)

// Limits of a URL read without line selector.
const (
	ShowLines = 300
	ShowBytes = 50 * 1024
)

// Reader reads web URLs with selectors. Its zero value fetches with
// DefaultFetcher and caches nothing between calls.
type Reader struct {
	// Fetcher fetches; nil means DefaultFetcher().
	Fetcher Fetcher
	// Cache keeps rendered pages for paging; nil means no cache (every
	// read fetches).
	Cache *Cache
	// Convert finds document converters; nil means convert.For.
	Convert func(ext string) (convert.Converter, bool)
}

// Result is a URL read.
type Result struct {
	Page   *Page        // the rendered URL
	View   memtext.Page // what to show of Page.Output()
	Cached bool         // Page came from the cache
	Raw    bool         // the selector asked for :raw
}

// Read reads a URL path with an optional selector. Without line ranges
// it shows the first 300 lines / 50 KiB of the output (header included)
// with a notice to continue; with ranges it pages the output as an
// in-memory "URL output". Both use the cache when the page is there.
func (r *Reader) Read(ctx context.Context, p string) (*Result, error) {
	u, sel, err := SplitSelector(p)
	if err != nil {
		return nil, err
	}
	u = Normalize(u)
	if _, err := CheckURL(u); err != nil {
		return nil, err
	}
	page, cached := r.Cache.Get(u, sel.Raw)
	if !cached {
		page, err = Render(ctx, r.Fetcher, u, Options{Raw: sel.Raw, Convert: r.Convert})
		if err != nil {
			return nil, err
		}
		if page.Method != MethodFailed {
			r.Cache.Put(page, sel.Raw)
		}
	}
	opts := memtext.Options{Entity: memtext.EntityURL, Raw: sel.Raw}
	if len(sel.Ranges) == 0 {
		opts.MaxLines, opts.MaxBytes = ShowLines, ShowBytes
	}
	return &Result{Page: page, View: memtext.Paginate(page.Output(), sel.Ranges, opts), Cached: cached, Raw: sel.Raw}, nil
}
