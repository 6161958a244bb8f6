package walk

import (
	"slices"
	"strings"
	"testing"
)

// rgTree has .rgignore files that re-include what .gitignore and .ignore
// exclude, and exclude what a deeper .ignore re-includes.
var rgTree = tree{
	".git/HEAD":   "ref: refs/heads/main\n",
	".gitignore":  "gen/\n*.log\n",
	".ignore":     "notes.md\n",
	".rgignore":   "!gen/\n!keep.log\nsecret.txt\n!notes.md\nx.go\n",
	"gen/out.go":  "x",
	"a.log":       "x",
	"keep.log":    "x",
	"secret.txt":  "x",
	"notes.md":    "x",
	"main.go":     "x",
	"sub/.ignore": "!x.go\n",
	"sub/x.go":    "x",
	"sub/y.go":    "x",
}

// TestWalkRgignore pins .rgignore (Options.RgIgnore) as ripgrep 13 reads
// it, each expectation checked with `rg --files`: it applies everywhere,
// in or out of a git work tree, and any .rgignore line beats any .ignore
// or .gitignore line, deeper or not; without RgIgnore it is not read.
// What it leaves out is counted as ignored.
func TestWalkRgignore(t *testing.T) {
	noGit := tree{}
	for p, c := range rgTree {
		if p != ".git/HEAD" {
			noGit[p] = c
		}
	}
	cases := []struct {
		name    string
		tr      tree
		root    string
		opts    Options
		want    []string
		ignored int // Stats.Skipped[ReasonIgnored], .git included
	}{
		{name: "rgignore", tr: rgTree, root: ".", opts: Options{RgIgnore: true},
			want: []string{"gen/out.go", "keep.log", "main.go", "notes.md", "sub/y.go"}, ignored: 4},
		{name: "rgignore subdir root", tr: rgTree, root: "sub", opts: Options{RgIgnore: true},
			want: []string{"sub/y.go"}, ignored: 1},
		{name: "rgignore outside git", tr: noGit, root: ".", opts: Options{RgIgnore: true},
			want: []string{"a.log", "gen/out.go", "keep.log", "main.go", "notes.md", "sub/y.go"}, ignored: 2},
		{name: "not read", tr: rgTree, root: ".",
			want: []string{"main.go", "secret.txt", "sub/x.go", "sub/y.go"}, ignored: 5},
		{name: "no ignore", tr: rgTree, root: ".", opts: Options{RgIgnore: true, NoIgnore: true},
			want: []string{"a.log", "gen/out.go", "keep.log", "main.go", "notes.md", "secret.txt", "sub/x.go", "sub/y.go"}, ignored: 1},
	}
	for _, c := range cases {
		for fsName, fsys := range c.tr.both(t) {
			for _, sorted := range []bool{false, true} {
				c.opts.Sorted = sorted
				t.Run(fsName+"/"+c.name, func(t *testing.T) {
					got, st := collect(t, fsys, c.root, c.opts)
					got = slices.DeleteFunc(got, func(p string) bool { return strings.HasSuffix(p, "/") })
					if !slices.Equal(got, c.want) {
						t.Errorf("sorted=%v got\n%q\nwant\n%q", sorted, got, c.want)
					}
					if n := st.Skipped[ReasonIgnored]; n != c.ignored {
						t.Errorf("sorted=%v ignored %d, want %d", sorted, n, c.ignored)
					}
					chk := NewChecker(fsys, c.opts)
					for _, p := range []string{"gen/out.go", "a.log", "keep.log", "secret.txt", "notes.md", "main.go", "sub/x.go", "sub/y.go"} {
						if !strings.HasPrefix(p, strings.TrimSuffix(c.root, ".")) {
							continue
						}
						ok, _ := chk.Reports(c.root, p, false)
						if want := slices.Contains(c.want, p); ok != want {
							t.Errorf("Checker.Reports(%q) = %v, want %v", p, ok, want)
						}
					}
				})
			}
		}
	}
}

// TestWalkOverride: Options.Override decides ahead of the hidden and
// ignore rules, as ripgrep's -g globs do (checked with rg --files -g):
// an included hidden or ignored file is reported and an included ignored
// directory entered; an excluded directory is left out with its
// contents, uncounted; .git and PruneDirs still apply.
func TestWalkOverride(t *testing.T) {
	tr := tree{
		".git/HEAD":   "ref: refs/heads/main\n",
		".gitignore":  "ign.go\nig/\n",
		"ok.go":       "x",
		"ign.go":      "x",
		".hid.go":     "x",
		"ig/z.go":     "x",
		"ig/y.txt":    "x",
		"sub/a.go":    "x",
		"sub/.h.go":   "x",
		"nm/n.go":     "x",
		".hdir/h.go":  "x",
		"other/b.txt": "x",
	}
	decide := map[string]Decision{
		"ign.go": Include, ".hid.go": Include, "ig": Include, "ig/z.go": Include, "sub/.h.go": Include,
		"nm": Include, ".git": Include, "other": Exclude,
	}
	override := func(p string, isDir bool) Decision { return decide[p] }
	want := []string{".hid.go", "ig/", "ig/y.txt", "ig/z.go", "ign.go", "ok.go", "sub/", "sub/.h.go", "sub/a.go"}
	for fsName, fsys := range tr.both(t) {
		for _, sorted := range []bool{false, true} {
			got, st := collect(t, fsys, ".", Options{Override: override, PruneDirs: []string{"nm"}, Sorted: sorted})
			if !slices.Equal(got, want) {
				t.Errorf("%s sorted=%v: got\n%q\nwant\n%q", fsName, sorted, got, want)
			}
			// .git and nm ignored, .gitignore and .hdir hidden; other
			// not counted.
			if st.Skipped[ReasonIgnored] != 2 || st.Skipped[ReasonHidden] != 2 || len(st.Skipped) != 2 {
				t.Errorf("%s sorted=%v: skipped %v", fsName, sorted, st.Skipped)
			}
			chk := NewChecker(fsys, Options{Override: override, PruneDirs: []string{"nm"}})
			for _, p := range []string{"ign.go", ".hid.go", "ig/z.go", "sub/.h.go", "other/b.txt", "nm/n.go", ".hdir/h.go"} {
				ok, _ := chk.Reports(".", p, false)
				if ok != slices.Contains(want, p) {
					t.Errorf("%s: Checker.Reports(%q) = %v", fsName, p, ok)
				}
			}
		}
	}
}
