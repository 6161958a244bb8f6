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

// Redact returns raw with the password of its userinfo replaced by
// "xxxxx", as net/url's URL.Redacted does ("https://user:xxxxx@host/x"),
// every other byte as it is (Redacted re-encodes the URL, and needs one
// that parses). A URL without a password is returned as it is; so is the
// username, as Redacted keeps it. Scout fetches with the credentials and
// shows URLs (headers, notes, errors, results) through Redact.
func Redact(raw string) string {
	i := strings.Index(raw, "://")
	if i <= 0 || !isScheme(raw[:i]) {
		return raw
	}
	start := i + 3
	end := strings.IndexAny(raw[start:], "/?#")
	if end < 0 {
		end = len(raw) - start
	}
	auth := raw[start : start+end]
	at := strings.LastIndexByte(auth, '@') // as url.Parse splits an authority
	if at < 0 {
		return raw
	}
	colon := strings.IndexByte(auth[:at], ':')
	if colon < 0 {
		return raw
	}
	return raw[:start+colon+1] + "xxxxx" + raw[start+at:]
}

// isScheme reports a URL scheme: a letter, then letters, digits, '+',
// '-' or '.'.
func isScheme(s string) bool {
	for i, c := range []byte(s) {
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}
