package iurl

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/internal/errs"
)

// FuzzParse: any text parses to a URL or gives an InvalidParam error;
// a URL keeps Raw as given, a lower-case scheme, a host without '/' or
// '?', a path that is empty or starts with '/', segments without '/',
// and parses again from Raw to the same URL. CanHandle of a nil Registry
// accepts exactly the known schemes.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"skill://team:deploy", "omp://docs/a.md", "Agent://x/y%20z?q=1&r", "a://", "://x", "1a://x", "a+b.c-d://h/p",
		"x://h?%zz", "x://h/%zz", "x://h/a//b/", "memory://?a=1/b", "omp:///", "é://x", "mcp://srv/res?x=1#f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		var r *Registry
		i := strings.Index(p, "://")
		if got, want := r.CanHandle(p), i > 0 && slices.Contains(known, strings.ToLower(p[:i])); got != want {
			t.Fatalf("CanHandle(%q) = %v, want %v", p, got, want)
		}
		u, err := Parse(p)
		if err != nil {
			if errs.CodeOf(err) != errs.InvalidParam || u != nil {
				t.Fatalf("Parse(%q) = %+v, %v: want an InvalidParam error", p, u, err)
			}
			if i > 0 && validScheme(p[:i]) && !strings.Contains(p[i+3:], "?") {
				t.Fatalf("Parse(%q): %v, for a URL with a valid scheme and no query", p, err)
			}
			return
		}
		if u.Raw != p || i <= 0 || u.Scheme != strings.ToLower(p[:i]) {
			t.Fatalf("Parse(%q) = %+v: Raw or Scheme is not the text's", p, u)
		}
		if strings.ContainsAny(u.Host, "/?") || u.Path != "" && u.Path[0] != '/' {
			t.Fatalf("Parse(%q) = %+v: host with '/' or '?', or a relative path", p, u)
		}
		if (u.Query != nil) != strings.Contains(p[i+3:], "?") {
			t.Fatalf("Parse(%q) = %+v: Query set without '?' or nil with one", p, u)
		}
		for _, s := range u.Segments() {
			if s == "" || strings.Contains(s, "/") {
				t.Fatalf("Parse(%q): segment %q", p, s)
			}
		}
		again, err := Parse(u.Raw)
		if err != nil || !assert.ObjectsAreEqual(u, again) {
			t.Fatalf("Parse(%q) again = %+v, %v; want %+v", p, again, err, u)
		}
	})
}
