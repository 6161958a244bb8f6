package redact

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// TestURL: a URL's password is replaced as URL.Redacted replaces it,
// a username alone too, every other byte kept, also in a URL that does
// not parse (a password with an unescaped '/', '?' or '#').
func TestURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://user:secret@host/x", "https://user:xxxxx@host/x"},
		{"HTTP://user:secret@host:8080", "HTTP://user:xxxxx@host:8080"},
		{"https://user:@host/", "https://user:xxxxx@host/"},                         // an empty password is one
		{"https://user:p@ss@host/?q=a:b@c#f", "https://user:xxxxx@host/?q=a:b@c#f"}, // the last '@' ends the userinfo
		{"https://user:p%40ss@host/a%20b", "https://user:xxxxx@host/a%20b"},         // escapes kept
		{"https://user:secret@host:bad/x", "https://user:xxxxx@host:bad/x"},         // no valid port: URL.Parse fails
		{"https://token@host/x", "https://xxxxx@host/x"},                            // a username alone is the secret (Redacted keeps it)
		{"https://@host/x", "https://@host/x"},                                      // an empty one is none
		{"https://:secret@host/x", "https://:xxxxx@host/x"},
		{"www.user:secret@host/x", "www.user:xxxxx@host/x"},            // as https:// is added
		{"WWW.token@host", "xxxxx@host"},                               // the username is "WWW.token"
		{"https://user:pa/ss@host/x", "https://user:xxxxx@host/x"},     // a '/' in the password: URL.Parse fails
		{"https://user:pa?ss@host/x?q", "https://user:xxxxx@host/x?q"}, // '?'
		{"https://user:pa#ss@host/x", "https://user:xxxxx@host/x"},     // '#'
		{"https://user:p/a/s@s@host/x@y", "https://user:xxxxx@y"},      // to the last '@', all that may be secret
		{"https://host:8080/@user", "https://host:8080/@user"},         // a port, then an '@' in the path
		{"https://[::1]:x/@user", "https://[::1]:x/@user"},
		{"https://host:x/user", "https://host:x/user"},       // no '@': a bad port alone
		{"https://host/x?u=a:b@c", "https://host/x?u=a:b@c"}, // '@' past the authority
		{"https://host/a:b@c", "https://host/a:b@c"},
		{"www.x.example/a:b@c", "www.x.example/a:b@c"},
		{"dir/a://b:c@d", "dir/a://b:c@d"},     // no scheme before "://"
		{"ftp://u:p@h/x", "ftp://u:xxxxx@h/x"}, // any scheme
		{"", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, URL(tt.in), tt.in)
		if u, err := url.Parse(tt.in); err == nil && u.String() == tt.in && strings.Contains(tt.in, "://") && (u.User == nil || hasPassword(u.User)) {
			assert.Equal(t, u.Redacted(), URL(tt.in), "as URL.Redacted: %s", tt.in)
		}
	}
}

func hasPassword(u *url.Userinfo) bool {
	_, ok := u.Password()
	return ok
}

// TestText: each URL in a text is shown through URL.
func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"no URL here: a://", "no URL here: a://"},
		{`Get "https://user:secret@host/x": EOF`, `Get "https://user:xxxxx@host/x": EOF`},
		{"fetch https://tok@h/a and http://u:p@h2/b failed", "fetch https://xxxxx@h/a and http://u:xxxxx@h2/b failed"},
		{"<https://u:p@h>", "<https://u:xxxxx@h>"},
		{"x1https://u:p@h", "x1https://u:xxxxx@h"},                   // the scheme starts at a letter
		{"(https://u:pa/ss@h/x) then", "(https://u:xxxxx@h/x) then"}, // an unescaped '/'
		{"https://u:p@h\nhttps://v:q@h", "https://u:xxxxx@h\nhttps://v:xxxxx@h"},
		{"https://host/x https://host/y", "https://host/x https://host/y"},
		{"://u:p@h", "://u:p@h"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Text(tt.in), tt.in)
	}
}

// redactSeeds are URLs and texts of TestRedact and TestText.
var redactSeeds = []string{
	"https://user:secret@host/x", "HTTP://user:secret@host:8080", "https://user:@host/", "https://user:p@ss@host/?q=a:b@c#f",
	"https://user:p%40ss@host/a%20b", "https://user:secret@host:bad/x", "https://token@host/x", "https://@host/x",
	"https://:secret@host/x", "www.user:secret@host/x", "WWW.token@host", "https://user:pa/ss@host/x", "https://user:pa?ss@host/x?q",
	"https://user:pa#ss@host/x", "https://user:p/a/s@s@host/x@y", "https://host:8080/@user", "https://[::1]:x/@user",
	"https://host:x/user", "https://host/x?u=a:b@c", "https://host/a:b@c", "www.x.example/a:b@c", "dir/a://b:c@d", "",
	"no URL here: a://", `Get "https://user:secret@host/x": EOF`, "fetch https://tok@h/a and http://u:p@h2/b failed",
	"<https://u:p@h>", "x1https://u:p@h", "(https://u:pa/ss@h/x) then", "https://u:p@h\nhttps://v:q@h", "://u:p@h",
	"https://u:a://b@h", "ftp://u:p@h/x", "https://[::1]:8080@h/", "https://u:p@[::1]:80/",
	"Path not found: https://u:pa ss@h/x", "https://u:p a\tss@h:1 then", "'https:/u:pa ss@h/x'", "www.u:p q@h", "https://u:p q/x@h",
}

// FuzzRedact checks URL and Text on arbitrary text: no panic;
// each idempotent; a URL that net/url parses with userinfo shows its
// secret (the password, or a user name alone) as "xxxxx", every other
// part of it kept; a text without '@' unchanged; and Text of a URL
// between spaces is Redact's of it, the text around as Text makes
// it alone.
func FuzzRedact(f *testing.F) {
	for _, s := range redactSeeds {
		f.Add(s, "see", "then")
	}
	f.Fuzz(func(t *testing.T, s, before, after string) {
		r := URL(s)
		if again := URL(r); again != r {
			t.Fatalf("URL(%q) = %q, then %q", s, r, again)
		}
		if IsRedacted(s) && r != s {
			t.Fatalf("URL(%q) = %q: redacted already", s, r)
		}
		if !strings.Contains(s, "@") && r != s {
			t.Fatalf("URL(%q) = %q: no userinfo", s, r)
		}
		checkSecret(t, s, r)
		rt := Text(s)
		if again := Text(rt); again != rt {
			t.Fatalf("Text(%q) = %q, then %q", s, rt, again)
		}
		if !strings.Contains(s, "@") && rt != s {
			t.Fatalf("Text(%q) = %q: no '@'", s, rt)
		}
		// s as a URL in a text: its scheme, then no byte that ends it.
		// (Unless s may be the start of a URL whose userinfo the space
		// is inside: a ':' and no '@' after "://", and an '@' after.)
		if i := strings.Index(s, "://"); i > 0 && isScheme(s[:i]) && strings.IndexFunc(s, func(c rune) bool { return c < utf8.RuneSelf && endsURL(byte(c)) }) < 0 &&
			!(strings.Contains(s[i+3:], ":") && !strings.Contains(s[i+3:], "@") && strings.Contains(after, "@")) {
			text := before + " " + s + " " + after
			want := Text(before) + " " + r + " " + Text(after)
			if got := Text(text); got != want {
				t.Fatalf("Text(%q) = %q, want %q", text, got, want)
			}
		}
	})
}

// checkSecret checks r, URL(s), against net/url: where s, a URL with a
// scheme (https:// added to a www. URL), parses with userinfo, r parses
// with the same user name and "xxxxx" as the password, or "xxxxx" as the
// user name when there is no password, and the same host, path, query and
// fragment.
func checkSecret(t *testing.T, s, r string) {
	t.Helper()
	prefix := ""
	if strings.HasPrefix(strings.ToLower(s), "www.") {
		prefix = "https://"
	}
	u, err := url.Parse(prefix + s)
	if err != nil || u.Scheme == "" || u.User == nil || u.User.String() == "" {
		return
	}
	v, err := url.Parse(prefix + r)
	if err != nil || v.User == nil {
		t.Fatalf("URL(%q) = %q: %v", s, r, err)
	}
	want := url.UserPassword(u.User.Username(), Redacted)
	if _, ok := u.User.Password(); !ok {
		want = url.User(Redacted)
	}
	if v.User.String() != want.String() {
		t.Fatalf("URL(%q) = %q: userinfo %q, want %q", s, r, v.User, want)
	}
	v.User, u.User = nil, nil
	if v.String() != u.String() {
		t.Fatalf("URL(%q) = %q: %q apart from userinfo, want %q", s, r, v, u)
	}
}

// TestTextWWW: a www. URL in a text is redacted where it starts a word,
// as a delimited path list or an echoed path holds it.
func TestTextWWW(t *testing.T) {
	tests := []struct{ in, want string }{
		{"www.u:p@h/x", "www.u:xxxxx@h/x"},
		{"f.txt, www.u:p@h/x", "f.txt, www.u:xxxxx@h/x"},
		{"'WWW.tok@h' not found", "'xxxxx@h' not found"},
		{"a=www.u:p@h", "a=www.u:xxxxx@h"},
		{"x.www.u:p@h", "x.www.u:p@h"}, // not a word's start
		{"dir/www.u:p@h", "dir/www.u:p@h"},
		{"https://www.u:p@h www.v:q@h", "https://www.u:xxxxx@h www.v:xxxxx@h"},
		{"www.", "www."},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Text(tt.in), tt.in)
	}
}

// TestURLPortNotPassword: in "https://u:123/x@h" the authority ends at
// the first '/' (WHATWG URL standard and net/url alike): host "u", port
// 123, path "/x@h", no userinfo. It has no credentials, so nothing is
// redacted; a password of digits followed by '/' must be percent-encoded
// ("u:123%2Fx@h") to be one, and then it is redacted.
func TestURLPortNotPassword(t *testing.T) {
	u, err := url.Parse("https://u:123/x@h")
	if assert.NoError(t, err) {
		assert.Nil(t, u.User)
		assert.Equal(t, "u:123", u.Host)
		assert.Equal(t, "/x@h", u.Path)
	}
	assert.Equal(t, "https://u:123/x@h", URL("https://u:123/x@h"))
	assert.Equal(t, "https://u:123/x@h", Text("https://u:123/x@h"))
	assert.Equal(t, "https://u:xxxxx@h", URL("https://u:123%2Fx@h"))
}

// TestTextCleaned: a web URL as a cleaned path shows it ("https:/...",
// one '/'), given where a path was expected, is redacted too.
func TestTextCleaned(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Path not found: https:/u:p@h/x", "Path not found: https:/u:xxxxx@h/x"},
		{"'HTTP:/tok@h'", "'HTTP:/xxxxx@h'"},
		{"https:/u:pa/ss@h/x", "https:/u:xxxxx@h/x"},
		{"C:/u:p@h", "C:/u:p@h"},                             // no web scheme
		{"xhttps:/u:p@h", "xhttps:/u:p@h"},                   // not a word's start: the scheme is "xhttps"
		{"a:/b,https://u:p@h/x", "a:/b,https://u:xxxxx@h/x"}, // a ":/" of no URL does not hide one after it
		{"https:/", "https:/"},
		{"https:/host/x", "https:/host/x"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Text(tt.in), tt.in)
	}
}

// TestTextSpaced: a URL whose password holds spaces or tabs (net/url
// refuses it) is redacted in a text to its '@', the bytes around kept;
// the space ends a URL that has no such userinfo.
func TestTextSpaced(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Path not found: https://u:pa ss@h/x", "Path not found: https://u:xxxxx@h/x"},
		{"https://u:p a\tss@h:1 then", "https://u:xxxxx@h:1 then"},
		{"Path 'https://u:pa  ss@h/x:5-6' not found", "Path 'https://u:xxxxx@h/x:5-6' not found"},
		{"https://u:p a@b@h/x?q=c@d y@z", "https://u:xxxxx@h/x?q=c@d y@z"}, // the last '@' ahead of the path
		{"https://:pa ss@h", "https://:xxxxx@h"},
		{"Path not found: https:/u:pa ss@h/x", "Path not found: https:/u:xxxxx@h/x"}, // cleaned
		{"see www.u:pa ss@h/x", "see www.u:xxxxx@h/x"},
		{"https://u:pa/ss wo@h/x", "https://u:xxxxx@h/x"}, // a '/' too: to the URL's last '@', as URL
		{"https://u:p@h x@y", "https://u:xxxxx@h x@y"},    // the userinfo ended before the space
		{"https://h:x a/b@c", "https://h:x a/b@c"},        // the '@' is past a '/'
		{"https://h:x a\nb@c", "https://h:x a\nb@c"},      // or a line's end
		{"https://h:x \"a@c\"", "https://h:x \"a@c\""},    // or a quote
		{"https://h/a:b c@d", "https://h/a:b c@d"},        // the ':' is past the authority
		{"https://tok en@h", "https://tok en@h"},          // no ':'
		{"https://h:8080 or c@d", "https://h:xxxxx@d"},    // the form of a password: hidden
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Text(tt.in), tt.in)
		assert.Equal(t, tt.want, Text(Text(tt.in)), "again: %s", tt.in)
	}
}
