package search

import (
	"context"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scoutkit/scout/internal/fsx"
	"github.com/scoutkit/scout/internal/grep"
	"github.com/scoutkit/scout/internal/walk"
)

// candTree has ignore files, hidden files, a pruned directory, a binary
// file, a symlink and several matches per file.
var candTree = map[string]string{
	".git/HEAD":           "ref: refs/heads/main\n",
	".gitignore":          "*.log\nout/\n",
	"a.go":                "package a\nfunc Alpha() {}\n// alpha beta\n",
	"b.go":                "package b\nfunc Beta() {}\n",
	"docs/readme.md":      "alpha\nbeta\nalpha beta gamma\n",
	"docs/sub/deep.md":    "nothing here\nalpha\n",
	"x.log":               "alpha in an ignored file\n",
	"out/gen.go":          "alpha generated\n",
	".hidden/h.go":        "alpha hidden\n",
	"node_modules/m.js":   "alpha module\n",
	"bin.dat":             "alpha\x00binary\n",
	"src/.ignore":         "*.tmp\n",
	"src/x.tmp":           "alpha tmp\n",
	"src/main_test.go":    "package src\n// alpha test\nfunc TestAlpha() {}\n",
	"src/util.go":         "package src\nvar alpha = 1\nvar gamma = alpha\n",
	"src/nested/deep.go":  "package nested\n// Alpha\n",
	"src/nested/deep.txt": "alpha\n",
}

func candFS(t *testing.T) fs.FS {
	dir := t.TempDir()
	for p, c := range candTree {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.go", filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	fsys, closeFn, err := fsx.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeFn)
	return fsys
}

// TestCandidatesEqualScan runs requests with and without candidates: with
// every path of the tree (and some that do not exist), with the matching
// files only, with directories, and with random supersets of the matching
// files, the page, totals and truncation are the scan's.
func TestCandidatesEqualScan(t *testing.T) {
	fsys := candFS(t)
	var all []string
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			all = append(all, p)
		}
		return nil
	})
	all = append(all, "missing.go", "docs/missing.md", "docs", "a.go/x")
	reqs := []Request{
		{Grep: grep.Options{Pattern: "alpha"}},
		{Grep: grep.Options{Pattern: "alpha", IgnoreCase: true, Before: 1, After: 1}},
		{Grep: grep.Options{Pattern: "alpha", CountOnly: true}, MaxFiles: -1, Budget: -1},
		{Grep: grep.Options{Pattern: "alpha", CountOnly: true, FirstOnly: true}},
		{Grep: grep.Options{Pattern: "alpha"}, Walk: walk.Options{Hidden: true, NoIgnore: true}},
		{Grep: grep.Options{Pattern: "alpha"}, Walk: walk.Options{PruneDirs: []string{"nested"}}},
		{Grep: grep.Options{Pattern: "alpha"}, Globs: []string{"*.go", "!*_test.go"}},
		{Grep: grep.Options{Pattern: "alpha"}, Types: []string{"md"}},
		{Grep: grep.Options{Pattern: "alpha"}, Paths: []string{"src", "docs/**/*.md", "x.log"}},
		{Grep: grep.Options{Pattern: "alpha"}, Paths: []string{"src/util.go"}},
		{Grep: grep.Options{Pattern: "alpha"}, MaxFiles: 2},
		{Grep: grep.Options{Pattern: "alpha"}, MaxFiles: 2, Skip: 2},
		{Grep: grep.Options{Pattern: "alpha"}, Budget: 3},
		{Grep: grep.Options{Pattern: "alpha"}, PerFile: 1},
		{Grep: grep.Options{Pattern: "alpha"}, MaxFileSize: 30},
		{Grep: grep.Options{Pattern: "a"}, Budget: -1, MaxFiles: -1},
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	for i, req := range reqs {
		if req.MaxFileSize == 0 {
			req.MaxFileSize = -1
		}
		want, err := Run(ctx, fsys, "", req)
		if err != nil {
			t.Fatalf("req %d: %v", i, err)
		}
		if want.TotalFiles == 0 {
			t.Fatalf("req %d matches nothing: the comparison would prove nothing", i)
		}
		full, err := Run(ctx, fsys, "", Request{Grep: grep.Options{Pattern: req.Grep.Pattern, IgnoreCase: req.Grep.IgnoreCase, CountOnly: true},
			Walk: walk.Options{Hidden: true, NoIgnore: true}, MaxFiles: -1, Budget: -1, MaxFileSize: -1})
		if err != nil {
			t.Fatal(err)
		}
		var matching []string
		for _, h := range full.Files {
			matching = append(matching, h.Path)
		}
		sets := map[string]*Candidates{
			"all":      {Files: all},
			"matching": {Files: matching},
			"dirs":     {Files: []string{"a.go"}, Dirs: []string{"src", "docs", "out", ".hidden", "gone"}},
		}
		for k := range 5 {
			c := &Candidates{Files: append([]string(nil), matching...)}
			for _, p := range all {
				if r.IntN(2) == 0 {
					c.Files = append(c.Files, p)
				}
			}
			r.Shuffle(len(c.Files), func(i, j int) { c.Files[i], c.Files[j] = c.Files[j], c.Files[i] })
			sets[string(rune('a'+k))] = c
		}
		for name, c := range sets {
			if name == "dirs" {
				continue // checked below: it does not hold every match
			}
			creq := req
			creq.Candidates = c
			got, err := Run(ctx, fsys, "", creq)
			if err != nil {
				t.Fatalf("req %d %s: %v", i, name, err)
			}
			same(t, i, name, got, want)
		}
	}
	// Directories: their files are candidates, walked with the rules.
	req := Request{Grep: grep.Options{Pattern: "alpha"}, MaxFiles: -1, Budget: -1, MaxFileSize: -1, Candidates: &Candidates{Dirs: []string{"src", ".hidden", "out", "gone"}}}
	got, err := Run(ctx, fsys, "", req)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, h := range got.Files {
		paths = append(paths, h.Path)
	}
	assert.Equal(t, []string{"src/main_test.go", "src/nested/deep.txt", "src/util.go"}, paths, "candidate directories")
}

func same(t *testing.T, i int, name string, got, want *Outcome) {
	t.Helper()
	if got.TotalFiles != want.TotalFiles || got.TotalLines != want.TotalLines || got.TotalMatches != want.TotalMatches ||
		got.Truncated != want.Truncated || got.NextSkip != want.NextSkip || len(got.Files) != len(want.Files) {
		t.Errorf("req %d %s: totals %d/%d/%d %q next %d files %d, want %d/%d/%d %q next %d files %d", i, name,
			got.TotalFiles, got.TotalLines, got.TotalMatches, got.Truncated, got.NextSkip, len(got.Files),
			want.TotalFiles, want.TotalLines, want.TotalMatches, want.Truncated, want.NextSkip, len(want.Files))
		return
	}
	for j := range got.Files {
		assert.Equal(t, want.Files[j], got.Files[j], "req %d %s: file %d", i, name, j)
	}
}
