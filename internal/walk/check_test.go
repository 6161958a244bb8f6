package walk

import (
	"io/fs"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestCheckerAgreesWithWalk asks the Checker about every entry of a tree,
// from several walk roots and with several options, and compares with the
// entries Walk reports: the sample tree (nested ignore files, a nested work
// tree, hidden and pruned directories, a symlink, a file named like a
// directory) and random trees, over a MapFS and an OS directory.
func TestCheckerAgreesWithWalk(t *testing.T) {
	trees := []tree{sample}
	r := rand.New(rand.NewPCG(11, 3))
	for range 20 {
		tr := tree{".git/HEAD": "ref: refs/heads/main\n"}
		for p, c := range genTree(r) {
			tr[p] = c
		}
		trees = append(trees, tr)
	}
	opts := []Options{
		{},
		{Hidden: true},
		{NoIgnore: true},
		{PruneDirs: []string{"node_modules", "sub"}},
		{Hidden: true, NoIgnore: true, PruneDirs: []string{"deep"}},
	}
	for ti, tr := range trees {
		for name, fsys := range tr.both(t) {
			all := allEntries(t, fsys)
			for _, o := range opts {
				for _, root := range roots(all) {
					want, _ := collect(t, fsys, root, o)
					c := NewChecker(fsys, o)
					var got []string
					for _, e := range all {
						p := strings.TrimSuffix(e, "/")
						if ok, _ := c.Reports(root, p, strings.HasSuffix(e, "/")); ok {
							got = append(got, e)
						}
					}
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Errorf("tree %d %s root %q opts %+v:\nChecker %q\nWalk    %q", ti, name, root, o, got, want)
					}
				}
			}
		}
	}
}

// allEntries lists every entry of fsys but .git's contents, directories
// with a trailing "/", without following symlinks.
func allEntries(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	var all []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if d.IsDir() {
			all = append(all, p+"/")
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		all = append(all, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// roots returns "." and up to three directories of the tree.
func roots(all []string) []string {
	out := []string{"."}
	for _, e := range all {
		if strings.HasSuffix(e, "/") && !strings.Contains(e, ".git/") && e != ".git/" && len(out) < 4 {
			out = append(out, strings.TrimSuffix(e, "/"))
		}
	}
	return out
}

func TestCheckerReasons(t *testing.T) {
	fsys := sample.mapFS()
	c := NewChecker(fsys, Options{PruneDirs: []string{"node_modules"}})
	for _, tc := range []struct {
		root, name string
		ok         bool
		reason     Reason
	}{
		{".", "a.go", true, ""},
		{".", "a.log", false, ReasonIgnored},
		{".", ".hidden/h.go", false, ReasonHidden},
		{".", "node_modules/m.js", false, ReasonIgnored},
		{".", "build/out.bin", false, ReasonIgnored},
		{"src", "src/x.tmp", false, ReasonIgnored},
		{"src", "src/y.log", true, ""},
		{"src", "a.go", false, ""},                // not below the root
		{".", "missing/x.go", false, ""},          // a directory on the way does not exist
		{".", "src/rootonly.txt/x.go", false, ""}, // src/rootonly.txt is a file
		{"src/sub", "src/sub/s.go", false, ReasonIgnored},
	} {
		ok, why := c.Reports(tc.root, tc.name, false)
		if ok != tc.ok || why != tc.reason {
			t.Errorf("Reports(%q, %q) = %v, %q; want %v, %q", tc.root, tc.name, ok, why, tc.ok, tc.reason)
		}
	}
}
