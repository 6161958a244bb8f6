package scout_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scoutkit/scout"
)

// gitTree is a work tree with its .git, a nested repository's .git and
// directories to match with a trailing '/'.
func gitTree() fstest.MapFS {
	return fstest.MapFS{
		".git/HEAD":                   {Data: []byte("ref: refs/heads/main\n")},
		".git/config":                 {Data: []byte("[core]\n\tbare = false\n")},
		".git/hooks/pre-commit":       {Data: []byte("#!/bin/sh\n")},
		".git/refs/heads/main":        {Data: []byte("0000\n")},
		"src/a/x.go":                  {Data: []byte("package a // core\n")},
		"src/b/testdata/t.txt":        {Data: []byte("core\n")},
		"src/c.go":                    {Data: []byte("package src // core\n")},
		"testdata/top.txt":            {Data: []byte("core\n")},
		"README":                      {Data: []byte("core\n")},
		"vendor/dep/.git/HEAD":        {Data: []byte("x\n")},
		"vendor/dep/dep.go":           {Data: []byte("package dep\n")},
		"vendor/dep/testdata/in.txt":  {Data: []byte("core\n")},
		"vendor/dep/testdatax/in.txt": {Data: []byte("core\n")},
	}
}

// TestFindNeverListsGit: a find never lists .git nor anything below it,
// also when its walk would start there (".git", ".git/*", ".git/refs");
// the result then counts the .git as ignored. A find that does not name
// .git does not count the .git of its base. A file named as such is its
// own answer, as before.
func TestFindNeverListsGit(t *testing.T) {
	tests := []struct {
		patterns []string
		base     string
		want     []string
		ignored  int
	}{
		{patterns: []string{".git"}, ignored: 1},
		{patterns: []string{".git/*"}, ignored: 1},
		{patterns: []string{".git/refs/**"}, ignored: 1},
		{patterns: []string{".git/hooks", ".git/refs"}, ignored: 1},
		{patterns: []string{"**/.git/**"}, ignored: 2}, // the base's and the nested one
		{patterns: []string{".git", "README"}, want: []string{"README"}, ignored: 1},
		{patterns: []string{"*"}, base: ".git", ignored: 1},         // a glob tool's fixed search root
		{patterns: []string{"**/*"}, base: ".git/refs", ignored: 1}, // below it
		{patterns: []string{"*"}, base: ".", want: []string{"README", "src/", "testdata/", "vendor/"}},
		{patterns: []string{"*.nothing"}, ignored: 1}, // the nested .git, as before; not the base's
		{patterns: []string{"vendor/dep/*"}, want: []string{"vendor/dep/dep.go", "vendor/dep/testdata/", "vendor/dep/testdatax/"}},
		{patterns: []string{".git/config"}, want: []string{".git/config"}}, // a file named is echoed
	}
	for name, ws := range workspaces(t, gitTree()) {
		f := scout.Finder{Workspace: ws}
		for _, tt := range tests {
			req := scout.FindRequest{Patterns: tt.patterns, Base: tt.base, Recursive: true, Hidden: true, Order: scout.ByPath}
			res, err := f.Find(context.Background(), req)
			require.NoError(t, err, "%s %q below %q", name, tt.patterns, tt.base)
			assert.Equal(t, tt.want, paths(res), "%s %q below %q", name, tt.patterns, tt.base)
			assert.Equal(t, tt.ignored, res.Skipped[scout.SkipIgnored], "%s %q below %q: ignored", name, tt.patterns, tt.base)
		}
	}
	// Through a host's operations: a base in .git is not asked about.
	ops := &fakeOps{paths: []string{".git/config", ".git/HEAD", "a.go"}}
	f := scout.Finder{Operations: ops}
	res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{".git/*"}})
	require.NoError(t, err)
	assert.Empty(t, paths(res))
	assert.Equal(t, map[scout.SkipReason]int{scout.SkipIgnored: 1}, res.Skipped)
	assert.Zero(t, ops.gotOpt, "the host's Glob was called")
}

// TestFindTrailingSlash: a glob that ends in '/' matches directories only,
// as in a shell or a .gitignore, alone, in a union and below a fixed base.
func TestFindTrailingSlash(t *testing.T) {
	tests := []struct {
		patterns []string
		base     string
		kind     scout.EntryKind
		want     []string
	}{
		{patterns: []string{"src/*/"}, want: []string{"src/a/", "src/b/"}},
		{patterns: []string{"src/*"}, want: []string{"src/a/", "src/b/", "src/c.go"}},
		{patterns: []string{"**/testdata/"}, want: []string{"src/b/testdata/", "testdata/", "vendor/dep/testdata/"}},
		{patterns: []string{"src/*/", "README"}, want: []string{"README", "src/a/", "src/b/"}},
		{patterns: []string{"src/*/", "*.go"}, want: []string{"src/a/", "src/a/x.go", "src/b/", "src/c.go", "vendor/dep/dep.go"}},
		{patterns: []string{"src/{a,c.go}/"}, want: []string{"src/a/"}},
		{patterns: []string{"*/"}, base: "src", want: []string{"src/a/", "src/b/"}},
		{patterns: []string{"*/"}, base: "src", kind: scout.FilesOnly},
		{patterns: []string{"**/testdata/"}, base: "vendor", kind: scout.DirsOnly, want: []string{"vendor/dep/testdata/"}},
	}
	for name, ws := range workspaces(t, gitTree()) {
		f := scout.Finder{Workspace: ws}
		for _, tt := range tests {
			req := scout.FindRequest{Patterns: tt.patterns, Base: tt.base, Kind: tt.kind, Recursive: true, Order: scout.ByPath}
			res, err := f.Find(context.Background(), req)
			require.NoError(t, err, "%s %q below %q", name, tt.patterns, tt.base)
			assert.Equal(t, tt.want, paths(res), "%s %q below %q", name, tt.patterns, tt.base)
		}
	}
}

// TestFindTrailingSlashLink: a link to a directory matches "*/", as in a
// shell, and is listed as a directory; a link to a file does not.
func TestFindTrailingSlashLink(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "src/real"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "src/f.go"), nil, 0o644))
	if err := os.Symlink("real", filepath.Join(dir, "src/dirlink")); err != nil {
		t.Skip("no symlinks:", err)
	}
	require.NoError(t, os.Symlink("f.go", filepath.Join(dir, "src/filelink")))
	f := scout.Finder{Workspace: scout.Workspace{Root: dir}}
	res, err := f.Find(context.Background(), scout.FindRequest{Patterns: []string{"src/*/"}, Order: scout.ByPath})
	require.NoError(t, err)
	assert.Equal(t, []string{"src/dirlink/", "src/real/"}, paths(res))
}

// TestSearchGitAndTrailingSlash: a search never walks .git, also when a
// path names it or lies in it (counted as ignored), but searches a file in
// it named as a path, as ripgrep does; a path glob that ends in '/'
// searches the files below the directories it matches.
func TestSearchGitAndTrailingSlash(t *testing.T) {
	tests := []struct {
		paths   []string
		want    []string
		ignored int
	}{
		{paths: []string{".git"}, ignored: 1},
		{paths: []string{".git/*"}, ignored: 1},
		{paths: []string{".git/refs"}, ignored: 1},
		{paths: []string{"**/.git/*"}, ignored: 2},
		{paths: []string{".git/config"}, want: []string{".git/config"}},
		{paths: []string{"."}, want: []string{"README", "src/a/x.go", "src/b/testdata/t.txt", "src/c.go", "testdata/top.txt", "vendor/dep/testdata/in.txt", "vendor/dep/testdatax/in.txt"}, ignored: 1}, // the nested .git
		{paths: []string{"src/*/"}, want: []string{"src/a/x.go", "src/b/testdata/t.txt"}},
		{paths: []string{"**/testdata/"}, want: []string{"src/b/testdata/t.txt", "testdata/top.txt", "vendor/dep/testdata/in.txt"}, ignored: 1},
		{paths: []string{"src/**/"}, want: []string{"src/a/x.go", "src/b/testdata/t.txt", "src/c.go"}},
	}
	for name, ws := range workspaces(t, gitTree()) {
		s := scout.Searcher{Workspace: ws}
		for _, tt := range tests {
			checkGitSearch(t, &s, name, tt.paths, tt.want, tt.ignored)
		}
	}
}

// gitLinkTree is gitTree with symlinks to its .git and into it.
func gitLinkTree() fstest.MapFS {
	m := gitTree()
	m["g"] = &fstest.MapFile{Data: []byte(".git"), Mode: fs.ModeSymlink}
	m["r"] = &fstest.MapFile{Data: []byte(".git/refs"), Mode: fs.ModeSymlink}
	m["s"] = &fstest.MapFile{Data: []byte("src"), Mode: fs.ModeSymlink}
	return m
}

// TestGitThroughLink: a symlink to a .git directory, or to one below it,
// is that .git for Find and Search: given as the base of a walk it is not
// walked, counted as ignored, and the find's Scope names where it leads;
// a file in it named through the link is still answered, and a link to
// another directory is walked as before.
func TestGitThroughLink(t *testing.T) {
	finds := []struct {
		patterns []string
		base     string
		want     []string
		scope    string
		ignored  int
	}{
		{patterns: []string{"g/*"}, scope: ".git", ignored: 1},
		{patterns: []string{"g"}, scope: ".git", ignored: 1},
		{patterns: []string{"g/refs/**"}, scope: ".git/refs", ignored: 1},
		{patterns: []string{"r/*"}, scope: ".git/refs", ignored: 1},
		{patterns: []string{"*"}, base: "g", scope: ".git", ignored: 1},
		{patterns: []string{"g/config"}, want: []string{"g/config"}, scope: "g/config"},
		{patterns: []string{"s/*"}, want: []string{"s/a/", "s/b/", "s/c.go"}, scope: "s"},
	}
	for name, ws := range workspaces(t, gitLinkTree()) {
		f := scout.Finder{Workspace: ws}
		for _, tt := range finds {
			req := scout.FindRequest{Patterns: tt.patterns, Base: tt.base, Recursive: true, Hidden: true, Order: scout.ByPath}
			res, err := f.Find(context.Background(), req)
			require.NoError(t, err, "%s %q below %q", name, tt.patterns, tt.base)
			assert.Equal(t, tt.want, paths(res), "%s %q below %q", name, tt.patterns, tt.base)
			assert.Equal(t, tt.scope, res.Scope, "%s %q below %q: scope", name, tt.patterns, tt.base)
			assert.Equal(t, tt.ignored, res.Skipped[scout.SkipIgnored], "%s %q below %q: ignored", name, tt.patterns, tt.base)
		}
		s := scout.Searcher{Workspace: ws}
		for _, tt := range []struct {
			paths   []string
			want    []string
			ignored int
		}{
			{paths: []string{"g"}, ignored: 1},
			{paths: []string{"g/*"}, ignored: 1},
			{paths: []string{"r"}, ignored: 1},
			{paths: []string{"g/config"}, want: []string{"g/config"}},
			{paths: []string{"s/*/"}, want: []string{"s/a/x.go", "s/b/testdata/t.txt"}},
		} {
			checkGitSearch(t, &s, name, tt.paths, tt.want, tt.ignored)
		}
	}
}

// TestReadGitDirectory: a read of a .git directory, of a directory in one
// or of a link to one is refused (.git is never listed) and says how to
// read a file in it; a file in it is read, and the root's listing leaves
// the .git out.
func TestReadGitDirectory(t *testing.T) {
	tests := []struct {
		path, err string
	}{
		{path: ".git", err: "Cannot list '.git': .git is never listed; read a file in it by its path, e.g. '.git/config'."},
		{path: ".git/refs", err: "Cannot list '.git/refs': .git is never listed; read a file in it by its path, e.g. '.git/config'."},
		{path: "vendor/dep/.git", err: "Cannot list 'vendor/dep/.git': .git is never listed; read a file in it by its path, e.g. 'vendor/dep/.git/config'."},
		{path: "g", err: "Cannot list 'g' (it leads to '.git'): .git is never listed; read a file in it by its path, e.g. '.git/config'."},
		{path: "r", err: "Cannot list 'r' (it leads to '.git/refs'): .git is never listed; read a file in it by its path, e.g. '.git/config'."},
		{path: ".git/config"},
		{path: "g/config"},
		{path: "s"},
	}
	for name, ws := range workspaces(t, gitLinkTree()) {
		r := scout.Reader{Workspace: ws}
		for _, tt := range tests {
			res, err := r.Read(context.Background(), scout.ReadRequest{Path: tt.path})
			if tt.err == "" {
				assert.NoError(t, err, "%s %s", name, tt.path)
				continue
			}
			var e *scout.Error
			require.ErrorAs(t, err, &e, "%s %s: %v", name, tt.path, res)
			assert.Equal(t, scout.CodeInvalidParam, e.Code, "%s %s", name, tt.path)
			assert.Equal(t, tt.err, e.Message, "%s %s", name, tt.path)
		}
		res, err := r.Read(context.Background(), scout.ReadRequest{Path: "."})
		require.NoError(t, err, name)
		require.NotEmpty(t, res.Entries, name)
		for _, e := range res.Entries {
			assert.NotContains(t, e.Path, ".git", "%s: the root's listing", name)
		}
	}
}

// checkGitSearch searches "core|bare" in paths, hidden files included, and
// checks the files that match and the count of ignored entries.
func checkGitSearch(t *testing.T, s *scout.Searcher, name string, paths, want []string, ignored int) {
	t.Helper()
	res, err := s.Search(context.Background(), scout.SearchRequest{Pattern: "core|bare", Paths: paths, Hidden: true})
	require.NoError(t, err, "%s %q", name, paths)
	var got []string
	for _, fm := range res.Files {
		got = append(got, fm.Path)
	}
	assert.Equal(t, want, got, "%s %q", name, paths)
	assert.Equal(t, ignored, res.Skipped[scout.SkipIgnored], "%s %q: ignored", name, paths)
}
