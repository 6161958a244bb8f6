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

// Redacted is how a URL's secret is shown: "https://user:xxxxx@host/x",
// "https://xxxxx@host/x".
const Redacted = "xxxxx"

// Redact returns raw with the secret of its userinfo replaced by
// "xxxxx", every other byte as it is (net/url's URL.Redacted re-encodes
// the URL, and needs one that parses). The secret is the password
// ("https://user:xxxxx@host/x", as URL.Redacted shows it) or, when the
// userinfo has no password, the username ("https://xxxxx@host/x"):
// URL.Redacted keeps a username, but HTTP sends it as the credential and
// an access token is often given so. A text that does not start with a
// scheme and "://" (any scheme: an ftp:// or ssh:// URL is redacted too)
// or with www., and a URL without userinfo, are returned as they are;
// otherwise only the secret is replaced. It ends at the authority's last
// '@', or, when the password holds an unescaped '/', '?' or '#' (the
// authority then ends at that byte, and URL.Parse fails on the
// password's start as the port), at the URL's last '@'. A bare www. URL
// is read as https:// is added (Normalize). Scout fetches with the
// credentials and shows URLs (headers, notes, errors, results, the
// arguments echoed) through Redact.
func Redact(raw string) string {
	start, end, ok := secret(raw)
	if !ok {
		return raw
	}
	return raw[:start] + Redacted + raw[end:]
}

// IsRedacted reports a URL whose secret (see Redact) is "xxxxx", as
// Redact shows it.
func IsRedacted(raw string) bool {
	start, end, ok := secret(raw)
	return ok && raw[start:end] == Redacted
}

// secret returns the span of raw's secret (see Redact); ok is false when
// it has none.
func secret(raw string) (start, end int, ok bool) {
	if i := strings.Index(raw, "://"); i > 0 && isScheme(raw[:i]) {
		start = i + 3
	} else if !strings.HasPrefix(strings.ToLower(raw), "www.") {
		return 0, 0, false
	}
	n := strings.IndexAny(raw[start:], "/?#")
	if n < 0 {
		n = len(raw) - start
	}
	auth := raw[start : start+n]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 { // as url.Parse splits an authority
		if colon := strings.IndexByte(auth[:at], ':'); colon >= 0 {
			return start + colon + 1, start + at, true
		}
		return start, start + at, at > 0 // the username alone
	}
	// No '@' in the authority: a password with '/', '?' or '#' ends it
	// early, its first part taken for a port.
	colon := strings.IndexByte(auth, ':')
	at := strings.LastIndexByte(raw, '@')
	if colon < 0 || strings.HasPrefix(auth, "[") || isPort(auth[colon+1:]) || at < start+n {
		return 0, 0, false
	}
	return start + colon + 1, at, true
}

// isPort reports the digits of a port ("" too), as url.Parse takes them.
func isPort(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// RedactText returns s with every URL in it shown through Redact: a
// scheme, "://" and the bytes up to a space, a control character, a
// quote or '<', '>' (a URL as an error of a host's fetcher or site
// handler quotes it).
func RedactText(s string) string {
	var b strings.Builder
	done := 0
	for i := 0; ; {
		j := strings.Index(s[i:], "://")
		if j < 0 {
			break
		}
		j += i
		k := j
		for k > done && isSchemeByte(s[k-1]) {
			k--
		}
		for k < j && !isLetter(s[k]) {
			k++
		}
		end := j + 3
		for end < len(s) && !endsURL(s[end]) {
			end++
		}
		if k < j {
			if r := Redact(s[k:end]); r != s[k:end] {
				b.WriteString(s[done:k])
				b.WriteString(r)
				done = end
			}
		}
		i = end
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// endsURL reports a byte that ends a URL in a text (RedactText).
func endsURL(c byte) bool {
	return c <= ' ' || c == 0x7f || strings.IndexByte("\"'`<>", c) >= 0
}

// isScheme reports a URL scheme: a letter, then letters, digits, '+',
// '-' or '.'.
func isScheme(s string) bool {
	for i, c := range []byte(s) {
		if !isLetter(c) && (i == 0 || !isSchemeByte(c)) {
			return false
		}
	}
	return s != ""
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isSchemeByte reports a byte of a scheme.
func isSchemeByte(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}
