package read

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/internal/errs"
)

func TestVariants(t *testing.T) {
	tests := []struct {
		in     string
		want   []string
		reason string
	}{
		{"a.txt", []string{"a.txt"}, "plain ASCII has no other spelling"},
		{"it's.txt", []string{"it's.txt", "it\u2019s.txt"}, "a curly apostrophe"},
		{"shot 10.00 AM.png", []string{"shot 10.00 AM.png", "shot 10.00\u202fAM.png"}, "macOS puts a narrow no-break space before AM"},
		{"café", []string{"café", "cafe\u0301"}, "NFD"},
		{`a\ b/c`, []string{`a\ b/c`, "a b/c"}, "shell-escaped spaces"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, variants(tt.in), "variants(%q) (%s)", tt.in, tt.reason)
	}
}

func TestSuffixMatch(t *testing.T) {
	m := fstest.MapFS{
		"pkg/deep/file.go":          {Data: []byte("x")},
		"node_modules/deep/file.go": {Data: []byte("y")},
		"dist/only.go":              {Data: []byte("d")},
		"node_modules/m/index.js":   {Data: []byte("m")},
		"lib/node_modules/m/x.js":   {Data: []byte("x")},
		"a/dup.go":                  {Data: []byte("a")},
		"b/dup.go":                  {Data: []byte("b")},
	}
	r := &reader{c: &Config{FS: m}}
	tests := []struct {
		in, want, reason string
	}{
		{"deep/file.go", "pkg/deep/file.go", "node_modules is pruned, so the match is unique"},
		{"file.go", "pkg/deep/file.go", "a base name matches too"},
		{"dup.go", "", "two matches: no guess"},
		{"only.go", "dist/only.go", "build directories are searched (only .git and node_modules are pruned)"},
		{"m/index.js", "", "node_modules is pruned"},
		{"node_modules/m/index.js", "", "a path that exists as given is not a suffix match"},
		{"x/node_modules/m/index.js", "", "no match"},
		{"node_modules/m/x.js", "lib/node_modules/m/x.js", "node_modules is searched when the path names it"},
		{"../file.go", "", "a path climbing out is never matched"},
		{"eep/file.go", "", "suffixes match whole path segments"},
	}
	for _, tt := range tests {
		if got := r.suffixMatch(context.Background(), tt.in); got != tt.want {
			t.Errorf("suffixMatch(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.reason)
		}
	}
	r.c.SuffixTimeout = time.Nanosecond
	if got := r.suffixMatch(context.Background(), "file.go"); got != "" {
		t.Errorf("a suffix match past its deadline returned %q", got)
	}
}

// TestOtherSchemes checks that a missing path written as a URL of a scheme
// read does not fetch says which URLs are read, and that a local path of
// that name is still read.
func TestOtherSchemes(t *testing.T) {
	m := fstest.MapFS{"ftp:/h/f.txt": {Data: []byte("local\n")}}
	c := &Config{FS: m}
	for _, p := range []string{"gopher://x", "FTP://host/f.txt", "ssh://h/x"} {
		_, err := Run(context.Background(), c, p)
		if errs.CodeOf(err) != errs.NotFound || !strings.Contains(err.Error(), "read fetches http:// and https:// URLs") {
			t.Errorf("%s: %v", p, err)
		}
	}
	for p, want := range map[string]string{
		"data:text/plain,hi":  "not data: URLs",
		"javascript:alert(1)": "not javascript: URLs",
		"https:example.com":   "a web URL is written https://host/path",
		"HTTP:/x":             "a web URL is written http://host/path",
	} {
		_, err := Run(context.Background(), c, p)
		if errs.CodeOf(err) != errs.NotFound || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: %v, want it to end in %q", p, err, want)
		}
	}
	_, err := Run(context.Background(), c, "a/b.txt")
	if err == nil || err.Error() != "Path 'a/b.txt' not found" {
		t.Errorf("a plain missing path: %v", err)
	}
	if res, err := Run(context.Background(), c, "ftp://h/f.txt"); err != nil || res == nil {
		t.Errorf("an existing local path: %v", err)
	}
}
