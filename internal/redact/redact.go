// Package redact hides the credentials of the URLs that Scout shows: the
// one mechanism every message, note, echoed argument and result field
// that may hold a URL given by a user or a host goes through. URL shows
// one URL; Text shows every URL in a text. errs builds every coded error's
// message and echoed input through Text, so a message that quotes a URL
// cannot forget it.
package redact

import "strings"

// Redacted is how a URL's secret is shown: "https://user:xxxxx@host/x",
// "https://xxxxx@host/x".
const Redacted = "xxxxx"

// URL returns raw with the secret of its userinfo replaced by
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
// is read as https:// is added. Scout fetches with the credentials and
// shows URLs (headers, notes, errors, results, the arguments echoed)
// through URL or Text.
func URL(raw string) string {
	start, end, ok := secret(raw)
	if !ok {
		return raw
	}
	return raw[:start] + Redacted + raw[end:]
}

// IsRedacted reports a URL whose secret (see URL) is "xxxxx", as
// URL shows it.
func IsRedacted(raw string) bool {
	start, end, ok := secret(raw)
	return ok && raw[start:end] == Redacted
}

// secret returns the span of raw's secret (see URL); ok is false when
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

// Text returns s with every URL in it shown through URL: a scheme, "://"
// and the bytes up to a space, a control character, a quote or '<', '>'
// (a URL as an error of a host's fetcher or site handler quotes it); or
// such bytes from a "www." (any case) that starts s or follows a space, a
// quote or one of "(<[{,;="; or from "http:/" or "https:/" (any case)
// and a byte other than '/', a web URL as a cleaned path shows it
// ("https:/user:pass@host/x", a URL given where a path was expected).
// A URL whose userinfo holds a space or a tab, which net/url refuses
// ("https://user:pa ss@host/x"), runs on over them to the '@' that ends
// the userinfo: when the URL up to the first space holds a ':' and no
// '@' and an '@' follows before a '/', '?', '#' or another byte that
// ends a URL.
func Text(s string) string {
	var b strings.Builder
	done := 0
	for i := 0; ; {
		k, from, kind := next(s, i, done)
		if kind == none {
			break
		}
		if kind == skipOne {
			i = from
			continue
		}
		end := urlEnd(s, from)
		if kind != skipRun {
			r, ok := redactAt(s, k, from, end, kind)
			if !ok {
				if e, spaced := spacedEnd(s, from, end); spaced {
					if r, ok = redactAt(s, k, from, e, kind); ok {
						end = e
					}
				}
			}
			if ok {
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

// urlEnd returns where a URL of s whose end is looked for from from
// ends: at the first byte that ends a URL (endsURL).
func urlEnd(s string, from int) int {
	end := from
	for end < len(s) && !endsURL(s[end]) {
		end++
	}
	return end
}

// redactAt returns the URL s[k:end] of kind (next's) through URL; ok is
// false when URL leaves it as it is.
func redactAt(s string, k, from, end, kind int) (string, bool) {
	u := s[k:end]
	if kind == cleaned { // as "https://", then without the '/' added
		u = s[k:from] + "/" + s[from:end]
	}
	r := URL(u)
	if r == u {
		return "", false
	}
	if kind == cleaned {
		r = r[:from-k] + r[from-k+1:]
	}
	return r, true
}

// spacedEnd returns where a URL whose userinfo holds spaces or tabs ends,
// one that Text cut at the first of them (end): "https://u:pa ss@h/x",
// which net/url refuses, as a user's input echoed in a message shows it.
// The URL's bytes from from (after "://") to end must hold a ':' and no
// '@'; it then runs on over spaces and tabs to the last '@' ahead of a
// '/', '?', '#' or another byte that ends a URL, and on from there to a
// byte that ends a URL. ok is false when there is no such '@'.
func spacedEnd(s string, from, end int) (int, bool) {
	if end >= len(s) || s[end] != ' ' && s[end] != '\t' {
		return 0, false
	}
	if a := s[from:end]; strings.IndexByte(a, '@') >= 0 || strings.IndexByte(a, ':') < 0 {
		return 0, false
	}
	at := -1
	for i := end; i < len(s); i++ {
		c := s[i]
		if c == '@' {
			at = i
		} else if c == '/' || c == '?' || c == '#' || endsURL(c) && c != ' ' && c != '\t' {
			break
		}
	}
	if at < 0 {
		return 0, false
	}
	return urlEnd(s, at), true
}

// The kinds of what next finds.
const (
	none    = iota // no URL is left
	isURL          // a URL from k
	cleaned        // a web URL from k with one '/' after its scheme's ':'
	skipRun        // a "://" without a scheme: the bytes up to the URL's end are skipped
	skipOne        // a ":/" of no web URL: the search goes on past it
)

// next finds the next URL of s from i (see Text): its start k, the byte
// its end is looked for from, and its kind (done is where the text
// redacted so far ends).
func next(s string, i, done int) (k, from, kind int) {
	j := strings.Index(s[i:], ":/")
	if j >= 0 {
		j += i
	}
	for w := i; w+4 <= len(s) && (j < 0 || w < j); w++ {
		if (s[w] == 'w' || s[w] == 'W') && strings.EqualFold(s[w:w+4], "www.") && (w == 0 || endsURL(s[w-1]) || strings.IndexByte("(<[{,;=", s[w-1]) >= 0) {
			return w, w + 4, isURL
		}
	}
	if j < 0 {
		return -1, 0, none
	}
	k = j
	for k > done && isSchemeByte(s[k-1]) {
		k--
	}
	for k < j && !isLetter(s[k]) {
		k++
	}
	if j+2 < len(s) && s[j+2] == '/' {
		if k == j {
			return j + 3, j + 3, skipRun
		}
		return k, j + 3, isURL
	}
	if web := s[k:j]; (strings.EqualFold(web, "http") || strings.EqualFold(web, "https")) && (k == 0 || !isSchemeByte(s[k-1])) && j+2 < len(s) {
		return k, j + 2, cleaned
	}
	return j + 2, j + 2, skipOne
}

// endsURL reports a byte that ends a URL in a text (Text).
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
