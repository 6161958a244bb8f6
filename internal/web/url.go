package web

import (
	"net/url"
	"strings"

	"github.com/scoutkit/scout/internal/memtext"
)

// IsURL reports whether p is a web URL for read: it starts with http://,
// https:// or www. (case-insensitive).
func IsURL(p string) bool {
	l := strings.ToLower(p)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "www.")
}

// Normalize adds https:// to a bare www. URL and trims spaces.
func Normalize(p string) string {
	p = strings.TrimSpace(p)
	if strings.HasPrefix(strings.ToLower(p), "www.") {
		return "https://" + p
	}
	return p
}

// SplitSelector splits a URL read path into the URL and its trailing
// selector: ":raw", a range list (":5-10", ":5+3", ":1-5,20-30") or both
// (":5-10:raw", ":raw:5-10"). A colon inside the host part is a port, never
// a selector: put a slash before a selector on a bare host
// ("https://example.com/:80" is line 80, "https://example.com:80" port 80).
// err is set for a selector of the right shape but invalid (":0").
func SplitSelector(p string) (rawURL string, sel memtext.Selector, err error) {
	start := 0
	if i := strings.Index(p, "://"); i >= 0 {
		start = i + 3
	}
	slash := strings.IndexByte(p[start:], '/')
	if slash < 0 {
		return p, sel, nil
	}
	base, s := memtext.SplitSelector(p)
	if s == "" || len(base) < start+slash {
		return p, sel, nil
	}
	sel, _, err = memtext.ParseSelector(s)
	if err != nil {
		return p, memtext.Selector{}, err
	}
	return base, sel, nil
}

// cacheURL normalises a URL for the cache: https:// added to www., scheme
// and host lower-cased, the fragment dropped.
func cacheURL(raw string) string {
	raw = Normalize(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}
