package web

import (
	"container/list"
	"sync"
	"time"

	"github.com/scoutkit/scout/internal/redact"
)

// DefaultCacheEntries is the size of a Cache whose MaxEntries is 0.
const DefaultCacheEntries = 100

// DefaultCacheBytes is the byte bound of a Cache whose MaxBytes is 0.
const DefaultCacheBytes = 64 << 20

// Cache keeps rendered pages by URL and mode (rendered or raw) so that
// paging a URL does not refetch it. A page is stored under both the
// requested and the final URL (there as a read of that URL: no
// redirects). A URL with credentials gets the page read with the same
// ones, or with any when it is the URL as shown (IsRedacted: its secret
// "xxxxx"), so that the URL a page shows pages it. The zero value holds
// 100 entries of 64 MiB in all that never expire; it is safe for
// concurrent use.
type Cache struct {
	// MaxEntries bounds the entries (least recently used are dropped);
	// 0 means DefaultCacheEntries.
	MaxEntries int
	// MaxBytes bounds the bytes of the pages kept (their text, image, URLs
	// (redirects included) and notes, counted under each URL a page is kept under; least
	// recently used are dropped); a page larger than it is not kept. 0
	// means DefaultCacheBytes.
	MaxBytes int64
	// TTL is how long an entry stays usable; 0 means forever.
	TTL time.Duration

	mu    sync.Mutex
	ll    *list.List
	items map[string]*list.Element
	bytes int64            // the sizes of the entries, summed
	now   func() time.Time // for tests; nil means time.Now
}

type cacheEntry struct {
	key  string
	url  string // the page's URL, credentials included (cacheURL)
	page *Page
	at   time.Time
	size int64
}

// cacheKey is the key of url's page in a mode: url as shown (redact.URL),
// so that the URL shown finds the page read with the credentials.
func cacheKey(url string, raw bool) string {
	mode := "rendered::"
	if raw {
		mode = "raw::"
	}
	return mode + cacheURL(redact.URL(url))
}

func (c *Cache) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// Get returns the cached page of url in the given mode: the page read
// with url's credentials, or, for a URL as shown (IsRedacted), with any.
func (c *Cache) Get(url string, raw bool) (*Page, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[cacheKey(url, raw)]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if c.TTL > 0 && c.clock().Sub(e.at) > c.TTL {
		c.remove(el)
		return nil, false
	}
	if e.url != cacheURL(url) && !redact.IsRedacted(url) {
		return nil, false // read with other credentials
	}
	c.ll.MoveToFront(el)
	return e.page, true
}

// Put stores p under its requested URL and, as the page of a read of
// its final URL (that URL requested, without the redirects), under its
// final URL, unless it is larger than the cache's byte bound.
func (c *Cache) Put(p *Page, raw bool) {
	if c == nil {
		return
	}
	pages := []*Page{p}
	keys := []string{cacheKey(p.URL, raw)}
	if k := cacheKey(p.FinalURL, raw); p.FinalURL != "" && k != keys[0] {
		final := *p
		final.URL, final.Redirects = p.FinalURL, nil
		pages, keys = append(pages, &final), append(keys, k)
	}
	maxBytes := cmpOr(c.MaxBytes, DefaultCacheBytes)
	var size int64
	for _, pg := range pages {
		size += pageSize(pg)
	}
	if size > maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = map[string]*list.Element{}
		c.ll = list.New()
	}
	now := c.clock()
	for i, k := range keys {
		if el, ok := c.items[k]; ok {
			c.remove(el)
		}
		size := pageSize(pages[i])
		c.items[k] = c.ll.PushFront(&cacheEntry{key: k, url: cacheURL(pages[i].URL), page: pages[i], at: now, size: size})
		c.bytes += size
	}
	max := cmpOr(c.MaxEntries, DefaultCacheEntries)
	for c.ll.Len() > max || c.bytes > maxBytes {
		c.remove(c.ll.Back())
	}
}

// remove drops an entry; c.mu is held.
func (c *Cache) remove(el *list.Element) {
	e := c.ll.Remove(el).(*cacheEntry)
	delete(c.items, e.key)
	c.bytes -= e.size
}

// pageSize is what a page holds in bytes, for MaxBytes.
func pageSize(p *Page) int64 {
	n := len(p.URL) + len(p.FinalURL) + len(p.ContentType) + len(p.Method) + len(p.Content) + len(p.Image) + len(p.Incomplete)
	for _, s := range p.Redirects {
		n += len(s)
	}
	for _, s := range p.Notes {
		n += len(s)
	}
	return int64(n)
}

// Len returns the number of entries.
func (c *Cache) Len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}
