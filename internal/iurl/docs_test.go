package iurl

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout/internal/docs"
	"github.com/scoutkit/scout/internal/errs"
)

func TestDocs(t *testing.T) {
	files := map[string]string{
		"README.md":      "# Top\n",
		"docs/a.md":      "alpha\n",
		"docs/sub/b.txt": "beta\n",
	}
	for name, fsys := range trees(t, files) {
		t.Run(name, func(t *testing.T) {
			var r Registry
			r.Register("omp", Docs{FS: fsys})
			tests := []struct {
				reason, url, text, ctype string
				errCode                  errs.Code
				errText                  string
			}{
				{"the top lists every document", "omp://", "omp://README.md\nomp://docs/a.md\nomp://docs/sub/b.txt\n", "", "", ""},
				{"a directory lists the documents below it", "omp://docs", "omp://docs/a.md\nomp://docs/sub/b.txt\n", "", "", ""},
				{"a trailing slash names the same directory", "omp://docs/sub/", "omp://docs/sub/b.txt\n", "", "", ""},
				{"a Markdown document", "omp://README.md", "# Top\n", "text/markdown", "", ""},
				{"a document in a directory", "omp://docs/sub/b.txt", "beta\n", "", "", ""},
				{"the query is not part of the name", "omp://docs/a.md?x=1", "alpha\n", "text/markdown", "", ""},
				{"a missing document lists what exists", "omp://nope.md", "", "", errs.NotFound, "Not found: omp://nope.md\nAvailable: omp://README.md, omp://docs/a.md, omp://docs/sub/b.txt"},
				{"names are case-sensitive", "omp://readme.md", "", "", errs.NotFound, "Available: omp://README.md"},
				{"a name cannot climb", "omp://docs/../../x", "", "", errs.InvalidParam, "use a document name such as omp://README.md"},
				{"no globs in internal URLs", "omp://docs/*.md", "", "", errs.InvalidParam, "Glob patterns are not supported for internal URLs: omp://docs/*.md"},
			}
			for _, tt := range tests {
				t.Run(tt.reason, func(t *testing.T) {
					res, err := r.Resolve(context.Background(), tt.url)
					if tt.errCode != "" {
						if errs.CodeOf(err) != tt.errCode || !strings.Contains(err.Error(), tt.errText) {
							t.Fatalf("err = %v (%s), want %s containing %q", err, errs.CodeOf(err), tt.errCode, tt.errText)
						}
						return
					}
					require.NoError(t, err)
					assert.Equal(t, &Resource{URL: tt.url, Text: tt.text, Immutable: true, ContentType: tt.ctype}, res)
				})
			}
		})
	}
}

func TestExpand(t *testing.T) {
	var r Registry
	r.Register("omp", Docs{FS: trees(t, map[string]string{"a.md": "a", "d/b.md": "b", "d/c.md": "c"})["MapFS"]})
	r.Register("rule", texts{"x": "y"})
	tests := []struct {
		reason string
		in     []string
		want   []string
	}{
		{"the top expands to every document", []string{"omp://"}, []string{"omp://a.md", "omp://d/b.md", "omp://d/c.md"}},
		{"a directory expands in place, other entries keep their order", []string{"src", "omp://d", "omp://a.md"}, []string{"src", "omp://d/b.md", "omp://d/c.md", "omp://a.md"}},
		{"a document is kept", []string{"omp://a.md"}, []string{"omp://a.md"}},
		{"a missing name is kept for Resolve to report", []string{"omp://zz"}, []string{"omp://zz"}},
		{"a glob is kept for Resolve to refuse", []string{"omp://*.md"}, []string{"omp://*.md"}},
		{"a resolver that cannot list is kept", []string{"rule://x"}, []string{"rule://x"}},
		{"a scheme without resolver is kept", []string{"skill://"}, []string{"skill://"}},
		{"no entries", nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			got, err := r.Expand(context.Background(), tt.in)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("Expand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Expand(ctx, []string{"omp://"}); errs.CodeOf(err) != errs.Canceled {
		t.Errorf("canceled: %v", err)
	}
}

// TestBuiltinDocs checks that every Registry, the zero and the nil one
// included, serves Scout's embedded documentation as omp://, and that a
// registered omp resolver replaces it until removed.
func TestBuiltinDocs(t *testing.T) {
	var names []string
	if err := fs.WalkDir(docs.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, "omp://"+name)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names, "omp://README.md") || len(names) < 2 {
		t.Fatalf("embedded documents: %v", names)
	}
	if !Builtin("omp") || !Builtin("OMP") || Builtin("skill") || Builtin("") {
		t.Error("Builtin: omp only")
	}
	ctx := context.Background()
	for _, r := range []*Registry{nil, {}} {
		res, err := r.Resolve(ctx, "omp://")
		if err != nil || res.Text != strings.Join(names, "\n")+"\n" {
			t.Errorf("omp:// = %+v, %v; want the list %v", res, err, names)
		}
		res, err = r.Resolve(ctx, "omp://README.md")
		if err != nil || !strings.HasPrefix(res.Text, "# Scout\n") || !res.Immutable {
			t.Errorf("omp://README.md = %+v, %v", res, err)
		}
		got, err := r.Expand(ctx, []string{"omp://"})
		if err != nil || !slices.Equal(got, names) {
			t.Errorf("Expand(omp://) = %v, %v; want %v", got, err, names)
		}
	}
	var r Registry
	r.Register("omp", texts{"README.md": "host docs"})
	if res, err := r.Resolve(ctx, "omp://README.md"); err != nil || res.Text != "host docs" {
		t.Errorf("a registered omp resolver replaces the built-in one: %+v, %v", res, err)
	}
	if got, _ := r.Expand(ctx, []string{"omp://"}); !slices.Equal(got, []string{"omp://"}) {
		t.Errorf("a host resolver that cannot list expands nothing: %v", got)
	}
	if len(r.Schemes()) != 1 {
		t.Errorf("Schemes = %v", r.Schemes())
	}
	r.Register("omp", nil)
	if res, err := r.Resolve(ctx, "omp://README.md"); err != nil || !strings.HasPrefix(res.Text, "# Scout\n") {
		t.Errorf("removing it restores the built-in docs: %+v, %v", res, err)
	}
}

// FuzzDocs checks that any omp:// URL resolves, lists and expands without
// panicking, to a document, a list or a coded error.
func FuzzDocs(f *testing.F) {
	for _, s := range []string{"omp://", "omp://README.md", "omp://docs/", "omp://docs/../x", "omp://*.md", "omp://a?b=c", "omp:///", "omp://%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ctx := context.Background()
		var r Registry
		res, err := r.Resolve(ctx, s)
		if err != nil && errs.CodeOf(err) == errs.Internal {
			t.Fatalf("Resolve(%q): uncoded error %v", s, err)
		}
		if err == nil && (!res.Immutable || res.SourcePath != "") && strings.HasPrefix(strings.ToLower(s), "omp://") {
			t.Fatalf("Resolve(%q) = %+v: documents are immutable and virtual", s, res)
		}
		urls, err := r.Expand(ctx, []string{s})
		if err != nil || len(urls) == 0 {
			t.Fatalf("Expand(%q) = %v, %v", s, urls, err)
		}
		if len(urls) > 1 {
			for _, u := range urls {
				if _, err := r.Resolve(ctx, u); err != nil {
					t.Fatalf("Expand(%q) gave %q, which does not resolve: %v", s, u, err)
				}
			}
		}
	})
}

// deniedFS fails every Stat with a permission error.
type deniedFS struct{ fs.FS }

func (deniedFS) Stat(name string) (fs.FileInfo, error) {
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrPermission}
}

func TestDocsStatError(t *testing.T) {
	_, err := Docs{FS: deniedFS{}}.Resolve(context.Background(), &URL{Raw: "omp://a.md", Scheme: "omp", Host: "a.md"})
	if errs.CodeOf(err) != errs.AccessDenied || !strings.Contains(err.Error(), "Reading omp://a.md") {
		t.Errorf("err = %v (%s), want ACCESS_DENIED naming the URL, not NOT_FOUND", err, errs.CodeOf(err))
	}
}
