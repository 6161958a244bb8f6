package web

import (
	"container/list"
	"sync"
	"time"
)

// DefaultCacheEntries is the size of a Cache whose MaxEntries is 0.
const DefaultCacheEntries = 100

// Cache keeps rendered pages by URL and mode (rendered or raw) so that
// paging a URL does not refetch it. A page is stored under both the
// requested and the final URL. The zero value holds 100 entries that never
// expire; it is safe for concurrent use.
type Cache struct {
	// MaxEntries bounds the entries (least recently used are dropped);
	// 0 means DefaultCacheEntries.
	MaxEntries int
	// TTL is how long an entry stays usable; 0 means forever.
	TTL time.Duration

	mu    sync.Mutex
	ll    *list.List
	items map[string]*list.Element
	now   func() time.Time // for tests; nil means time.Now
}

type cacheEntry struct {
	key  string
	page *Page
	at   time.Time
}

func cacheKey(url string, raw bool) string {
	mode := "rendered::"
	if raw {
		mode = "raw::"
	}
	return mode + cacheURL(url)
}

func (c *Cache) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// Get returns the cached page of url in the given mode.
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
		c.ll.Remove(el)
		delete(c.items, e.key)
		return nil, false
	}
	c.ll.MoveToFront(el)
	return e.page, true
}

// Put stores p under its requested and final URL.
func (c *Cache) Put(p *Page, raw bool) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = map[string]*list.Element{}
		c.ll = list.New()
	}
	now := c.clock()
	for _, u := range []string{p.URL, p.FinalURL} {
		if u == "" {
			continue
		}
		k := cacheKey(u, raw)
		if el, ok := c.items[k]; ok {
			el.Value = &cacheEntry{key: k, page: p, at: now}
			c.ll.MoveToFront(el)
			continue
		}
		c.items[k] = c.ll.PushFront(&cacheEntry{key: k, page: p, at: now})
	}
	max := cmpOr(c.MaxEntries, DefaultCacheEntries)
	for c.ll.Len() > max {
		el := c.ll.Back()
		c.ll.Remove(el)
		delete(c.items, el.Value.(*cacheEntry).key)
	}
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
