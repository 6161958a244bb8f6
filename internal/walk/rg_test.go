package walk

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"testing"
)

var rgSeeds = flag.Int("rgseeds", 30, "number of random trees TestDifferentialRipgrep compares with rg")

// TestDifferentialRipgrep compares the walker with `rg --files --hidden`
// on random git trees that also hold .ignore files, which git does not
// know: .ignore must beat .gitignore and deeper files must win.
func TestDifferentialRipgrep(t *testing.T) {
	differential(t, *rgSeeds, 8, []string{"rg", "git"}, func(seed uint64) { rgOne(t, seed, false) })
}

// TestDifferentialRipgrepRgignore does the same with .rgignore files too,
// read with Options.RgIgnore: .rgignore must beat .ignore and .gitignore,
// and a "!" line in it re-includes what they exclude.
func TestDifferentialRipgrepRgignore(t *testing.T) {
	differential(t, *rgSeeds, 8, []string{"rg", "git"}, func(seed uint64) { rgOne(t, seed, true) })
}

func rgOne(t *testing.T, seed uint64, rgignore bool) {
	r := rand.New(rand.NewPCG(seed, 11))
	files := genTree(r)
	// In path order, so that a seed always gives the same tree.
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		if d := path.Dir(p); r.IntN(4) == 0 {
			files[path.Join(d, ".ignore")] = genRules(r, 1+r.IntN(3))
		}
		if d := path.Dir(p); rgignore && r.IntN(4) == 0 {
			files[path.Join(d, ".rgignore")] = genRules(r, 1+r.IntN(3))
		}
	}
	// Leave out two lines where ripgrep 13 departs from git (the walker
	// follows git): a "!" with nothing after it (spaces aside), which rg
	// reads as a whitelist of everything, and POSIX classes such as
	// [[:digit:]], which rg does not know.
	for p, c := range files {
		if b := path.Base(p); b == ".ignore" || b == ".gitignore" || b == ".rgignore" {
			var keep []string
			for _, l := range strings.Split(c, "\n") {
				bare := strings.HasPrefix(l, "!") && strings.TrimSpace(l[1:]) == ""
				if !bare && !strings.Contains(l, "[:") {
					keep = append(keep, l)
				}
			}
			files[p] = strings.Join(keep, "\n")
		}
	}
	repo := newScratchRepo(t, seed, files)
	// Only the whole tree: given a subdirectory, rg 13 does not apply the
	// anchored patterns ("dir/*.txt") of the .gitignore files above it;
	// the git differential test covers that case.
	want := nulList(repo.run("rg", "--files", "--hidden", "--no-config", "-g", "!.git", "--null"))
	checkWalk(t, fmt.Sprintf("seed %d", seed), "rg", repo.fsys, ".", Options{Hidden: true, RgIgnore: rgignore}, want,
		func() string { return describeRules(files, "", "") })
}
