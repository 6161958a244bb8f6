package selector

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/internal/errs"
)

// checkSplit checks what SplitURL or SplitInternal (split) returned for p:
// an error is an InvalidParam one; without a selector the URL is p whole;
// with one, the URL is a prefix of p followed by ':', the selector
// starts at or after from (the first place one may), it keeps its
// invariants, and the URL with the selector's String splits back to the
// same URL and selector.
func checkSplit(t *testing.T, split func(string) (string, Selector, bool, error), p string, from int) {
	t.Helper()
	u, sel, ok, err := split(p)
	if err != nil {
		if errs.CodeOf(err) != errs.InvalidParam {
			t.Fatalf("%q: %v is not an InvalidParam error", p, err)
		}
		return
	}
	if !ok {
		if u != p || !sel.IsZero() {
			t.Fatalf("%q split to %q, %+v without a selector", p, u, sel)
		}
		return
	}
	if !strings.HasPrefix(p, u+":") {
		t.Fatalf("%q: URL %q is not a prefix followed by ':'", p, u)
	}
	if len(u) < from || from < 0 {
		t.Fatalf("%q: selector at %d, before %d where one may start", p, len(u), from)
	}
	checkSelector(t, p, sel)
	u2, sel2, ok2, err2 := split(u + ":" + sel.String())
	if err2 != nil || !ok2 || u2 != u || !assert.ObjectsAreEqual(sel, sel2) {
		t.Fatalf("%q: %q with %q splits to %q, %+v, %v, %v", p, u, sel.String(), u2, sel2, ok2, err2)
	}
}

// FuzzSplitInternal: a selector is peeled only after "://" and never off
// an mcp:// URL, and what is peeled round-trips.
func FuzzSplitInternal(f *testing.F) {
	for _, s := range []string{"skill://x:5-9", "skill://team:deploy:raw", "rule://:5", "mcp://srv/res:5", "MCP://a:1", "agent://x:raw:5-10",
		"memory://m:1-2:raw", "a://:", "://:5", "x:5", "omp://docs/a.md:L3+2", "artifact://a:0", "a://b:5:5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		i := strings.Index(p, "://")
		if i <= 0 || strings.EqualFold(p[:i], "mcp") {
			if u, sel, ok, err := SplitInternal(p); u != p || ok || err != nil || !sel.IsZero() {
				t.Fatalf("%q is not split (no scheme, or mcp://): got %q, %+v, %v, %v", p, u, sel, ok, err)
			}
			return
		}
		checkSplit(t, SplitInternal, p, i+3)
	})
}

// FuzzSplitURL: a colon in the host part is a port, so a selector is
// peeled only after the first '/' that follows the scheme, and what is
// peeled round-trips.
func FuzzSplitURL(f *testing.F) {
	for _, s := range []string{"https://x.example/:80", "https://x.example:80", "https://x.example:80/a:5-9", "http://a/b:raw:1-2", "www.x.example/a:3",
		"https://u:p@h/:1", "https://h/a:b:c:5", "//x/:1", "https://h/:0", "https://h/:5-3", "a/:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		start := 0
		if i := strings.Index(p, "://"); i >= 0 {
			start = i + 3
		}
		slash := strings.IndexByte(p[start:], '/')
		if slash < 0 {
			if u, sel, ok, err := SplitURL(p); u != p || ok || err != nil || !sel.IsZero() {
				t.Fatalf("%q has no path: got %q, %+v, %v, %v", p, u, sel, ok, err)
			}
			return
		}
		checkSplit(t, SplitURL, p, start+slash+1)
	})
}
