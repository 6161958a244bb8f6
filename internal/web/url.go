package web

import (
	"net/url"
	"strings"
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
