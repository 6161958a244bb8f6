package read

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/scoutkit/scout/internal/dirtree"
	"github.com/scoutkit/scout/internal/errs"
	"github.com/scoutkit/scout/internal/image"
	"github.com/scoutkit/scout/internal/redact"
	"github.com/scoutkit/scout/internal/selector"
	"github.com/scoutkit/scout/internal/textio"
	"github.com/scoutkit/scout/internal/web"
)

// URL output shows 300 lines / 50 KB when no range is given.
const urlLines = 300

// web reads a web URL (http://, https://, www.): the rendered page, with
// Config.URLHeader its header first, paged in memory. A range pages the
// cached render when the URL was read before. The URLs the result shows
// have their passwords redacted (redact.URL); the fetches use them. A URL
// as shown (redact.IsRedacted) is the page read with the credentials, from
// the cache: it is never fetched, which would send "xxxxx".
func (r *reader) web(ctx context.Context, p string) (*Result, bool, error) {
	if !web.IsURL(p) {
		return nil, false, nil
	}
	if !strings.Contains(p, "://") {
		// "www.x" without a scheme: a local file of that name wins.
		if _, err := r.stat(p); err == nil {
			return nil, false, nil
		}
	}
	if r.c.NoWeb {
		return nil, true, errs.New(errs.Unsupported, "Reading web URLs is turned off by the host: %s cannot be read.", errs.Echo(p))
	}
	raw, sel, _, err := selector.SplitURL(p)
	if err != nil {
		return nil, true, err
	}
	if sel.Conflicts {
		return nil, true, errs.New(errs.InvalidParam, ":conflicts reads a local file, not a URL. Read %s without it.", errs.Echo(raw))
	}
	var page *web.Page
	shown := redact.IsRedacted(raw) // a URL as a result shows it, paged
	if (len(sel.Ranges) > 0 || shown) && r.c.WebCache != nil {
		page, _ = r.c.WebCache.Get(raw, sel.Raw)
	}
	if page == nil && shown {
		// Fetching it would send "xxxxx" as the credential.
		why := "none was read in this session, or it was dropped"
		if r.c.WebCache == nil {
			why = "the host keeps no URL cache"
		}
		return nil, true, errs.New(errs.InvalidParam, "Cannot read %s: its credentials are shown redacted (%q), and no page read with them is kept to page (%s). Read the URL with its credentials.",
			errs.Echo(raw), redact.Redacted, why)
	}
	if page == nil {
		page, err = web.Render(ctx, r.fetcher(), raw, web.Options{Raw: sel.Raw, Convert: r.converter})
		if err != nil {
			return nil, true, err
		}
		if r.c.WebCache != nil {
			r.c.WebCache.Put(page, sel.Raw)
		}
	}
	img, data, notes := r.webImage(page)
	text, header := page.Content, 0
	if r.c.URLHeader {
		shown := web.Page{FinalURL: page.FinalURL, ContentType: page.ContentType, Method: page.Method, Notes: notes}
		h := shown.Header()
		text, header = h+page.Content, strings.Count(h, "\n")
	}
	res, err := r.memory(ctx, text, sel, textio.PlanOptions{Limit: urlLines, HeadBytes: textio.MinByteBudget}, SourceURL, true)
	if err != nil {
		return nil, true, err
	}
	res.Path, res.Incomplete = redact.URL(page.URL), page.Incomplete
	res.URL = &URLInfo{URL: res.Path, FinalURL: redact.URL(page.FinalURL), ContentType: page.ContentType, Method: page.Method, Notes: notes, HeaderLines: header}
	res.Image, res.ImageData = img, data
	return res, true, nil
}

// maxURLImageBytes is the most bytes of an image fetched from a URL shown
// inline when Config.URLImageMaxBytes is 0: a larger one is scaled down to
// fit, or left out with a note.
const maxURLImageBytes = 300 << 10

// webImage returns the metadata and the bytes to show of the image a page
// fetched (nil: none, or metadata only), and the page's notes shown
// (ShownNotes) with one on a resize or on bytes that are no image Scout
// reads.
func (r *reader) webImage(page *web.Page) (*image.Info, []byte, []string) {
	notes := page.ShownNotes()
	if page.Method != web.MethodImage || len(page.Image) == 0 {
		return nil, nil, notes
	}
	info, err := image.Inspect(bytes.NewReader(page.Image), int64(len(page.Image)))
	if err != nil {
		note := "Image not shown: " + strings.TrimSuffix(err.Error(), ".")
		if _, binary := textio.Sniff(page.Image[:min(len(page.Image), textio.SniffBytes)]); !binary {
			note += "; the body is text: :raw shows it"
		}
		return nil, nil, append(slices.Clip(notes), note)
	}
	if r.c.ImageMetadataOnly {
		return &info, nil, notes
	}
	limit := cmp.Or(r.c.URLImageMaxBytes, maxURLImageBytes)
	data, fit, err := image.Fit(page.Image, info, limit)
	switch {
	case err != nil:
		notes = append(slices.Clip(notes), fmt.Sprintf("Image not shown: it is %s, over the %s inline cap, and could not be resized (%s)",
			dirtree.FormatBytes(info.Bytes), dirtree.FormatBytes(int64(limit)), strings.TrimSuffix(err.Error(), ".")))
		return &info, nil, notes
	case fit != info:
		notes = append(slices.Clip(notes), fmt.Sprintf("Image resized from %dx%d (%s) to %dx%d %s (%s) to fit the %s inline cap",
			info.Width, info.Height, dirtree.FormatBytes(info.Bytes), fit.Width, fit.Height, strings.ToUpper(fit.Format), dirtree.FormatBytes(fit.Bytes), dirtree.FormatBytes(int64(limit))))
	}
	return &fit, data, notes
}

// fetcher returns the host's fetcher, with Scout's HTTPFetcher (bounded
// by Config.FetchTimeout) where it has none.
func (r *reader) fetcher() web.Fetcher {
	own := &web.HTTPFetcher{AllowPrivate: r.c.AllowPrivateNetwork, Timeout: r.c.FetchTimeout}
	switch f := r.c.Fetcher.(type) {
	case nil:
		return own
	case *web.Client:
		if f.Fetcher == nil {
			c := *f
			c.Fetcher = own
			return &c
		}
	}
	return r.c.Fetcher
}
