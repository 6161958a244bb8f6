package walk

import (
	"context"
	"io/fs"
	"os"
	"testing"
	"testing/fstest"

	"github.com/scoutkit/scout/internal/testfs"
)

// TestWalkRootInGit: a walk rooted at a .git directory, or below one,
// reports nothing and counts its root as ignored; one that only passes a
// .git on the way (a directory beside it) walks as before.
func TestWalkRootInGit(t *testing.T) {
	m := fstest.MapFS{
		".git/HEAD":           {Data: []byte("x")},
		".git/refs/heads/m":   {Data: []byte("x")},
		"sub/.git/HEAD":       {Data: []byte("x")},
		"sub/.git/x/y":        {Data: []byte("x")},
		"sub/a.go":            {Data: []byte("x")},
		"a.git/b":             {Data: []byte("x")}, // not a .git
		"x/.gitignore/keep.c": {Data: []byte("x")}, // nor this
	}
	for _, tr := range testfs.Trees(t, m) {
		fsys := tr.FS
		if fsys == nil {
			fsys = os.DirFS(tr.Root)
		}
		for root, want := range map[string][]string{
			".git":         nil,
			".git/refs":    nil,
			"sub/.git":     nil,
			"sub/.git/x":   nil,
			"sub":          {"sub/a.go"},
			"a.git":        {"a.git/b"},
			"x/.gitignore": {"x/.gitignore/keep.c"},
		} {
			var got []string
			st, err := Walk(context.Background(), fsys, root, Options{Hidden: true, NoIgnore: true, Sorted: true}, func(e Entry) error {
				got = append(got, e.Path)
				return nil
			})
			if err != nil {
				t.Fatalf("%s %s: %v", tr.Name, root, err)
			}
			ignored := 0
			if want == nil {
				ignored = 1
			} else if root == "sub" {
				ignored = 1 // its .git, as before
			}
			if len(got) != len(want) || (len(want) > 0 && got[0] != want[0]) || st.Skipped[ReasonIgnored] != ignored {
				t.Errorf("%s: Walk(%q) = %q, %d ignored; want %q, %d", tr.Name, root, got, st.Skipped[ReasonIgnored], want, ignored)
			}
		}
	}
}

func TestInGitNamesGit(t *testing.T) {
	for p, want := range map[string][2]bool{ // InGit, NamesGit
		".git":            {true, true},
		".git/refs":       {true, true},
		"a/.git/x":        {true, true},
		"a.git":           {false, false},
		".gitignore":      {false, false},
		".":               {false, false},
		"**/.git/**":      {true, true}, // a path with a .git segment
		"{src,.git}/*":    {false, true},
		"{.git/x,README}": {false, true},
		"**/.git*":        {false, false},
		"src/*.git":       {false, false},
	} {
		if got := [2]bool{InGit(p), NamesGit(p)}; got != want {
			t.Errorf("InGit, NamesGit(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestWalkRootLinkToGit: a root that is a symlink to a .git directory, or
// to a directory below one, or that lies below such a link, is refused as
// the .git is; a link to a directory beside it is walked.
func TestWalkRootLinkToGit(t *testing.T) {
	m := fstest.MapFS{
		".git/HEAD":         {Data: []byte("x")},
		".git/refs/heads/m": {Data: []byte("x")},
		"src/a.go":          {Data: []byte("x")},
		"g":                 {Data: []byte(".git"), Mode: fs.ModeSymlink},
		"r":                 {Data: []byte(".git/refs"), Mode: fs.ModeSymlink},
		"s":                 {Data: []byte("src"), Mode: fs.ModeSymlink},
	}
	for _, tr := range testfs.Trees(t, m) {
		fsys := tr.FS
		if fsys == nil {
			fsys = os.DirFS(tr.Root)
		}
		for root, want := range map[string]string{
			"g":      ".git",
			"g/refs": ".git/refs",
			"r":      ".git/refs",
			"s":      "",
			"src":    "",
		} {
			real, ok := LeadsToGit(fsys, root)
			if real != want || ok != (want != "") {
				t.Errorf("%s: LeadsToGit(%q) = %q, %v; want %q", tr.Name, root, real, ok, want)
			}
			var got []string
			st, err := Walk(context.Background(), fsys, root, Options{Hidden: true, NoIgnore: true, Sorted: true}, func(e Entry) error {
				got = append(got, e.Path)
				return nil
			})
			if err != nil {
				t.Fatalf("%s %s: %v", tr.Name, root, err)
			}
			if want != "" && (len(got) != 0 || st.Skipped[ReasonIgnored] != 1) {
				t.Errorf("%s: Walk(%q) = %q, %d ignored; want nothing, 1 ignored", tr.Name, root, got, st.Skipped[ReasonIgnored])
			}
			if want == "" && len(got) != 1 {
				t.Errorf("%s: Walk(%q) = %q; want its a.go", tr.Name, root, got)
			}
		}
	}
}
