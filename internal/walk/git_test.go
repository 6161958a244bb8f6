package walk

import (
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// The git differential test: random trees with nested .gitignore files,
// .git/info/exclude and a global excludes file; the files the walker shows
// must be exactly those `git ls-files --cached --others --exclude-standard`
// lists.

var gitSeeds = flag.Int("gitseeds", 60, "number of random trees TestDifferentialGit compares with git")

func TestDifferentialGit(t *testing.T) {
	differential(t, *gitSeeds, 15, []string{"git"}, func(seed uint64) { diffOne(t, seed) })
}

func diffOne(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	files := genTree(r)
	exclude := genRules(r, r.IntN(4))
	global := genRules(r, r.IntN(4))

	repo := newScratchRepo(t, seed, files)
	globalFile := filepath.Join(repo.home, "globalignore")
	writeFile(t, globalFile, global)
	writeFile(t, filepath.Join(repo.home, ".gitconfig"), "[core]\n\texcludesFile = "+globalFile+"\n")
	writeFile(t, filepath.Join(repo.dir, ".git/info/exclude"), exclude)

	// The global excludes come through LoadGlobalExcludes' own lookup.
	getenv := func(k string) string {
		return map[string]string{"HOME": repo.home, "GIT_CONFIG_NOSYSTEM": "1"}[k]
	}
	globalText := loadGlobalExcludes(getenv, os.ReadFile)
	if globalText != global {
		t.Fatalf("seed %d: loadGlobalExcludes = %q, want %q", seed, globalText, global)
	}

	// Walk the root, then a subdirectory in which git lists files: the
	// walker, like ripgrep, walks an explicit root even when an ignore
	// rule covers it, where git would list nothing.
	roots := []string{"."}
	for _, p := range strings.Split(repo.run("git", "ls-files", "-z", "--others", "--exclude-standard"), "\x00") {
		if d := path.Dir(p); p != "" && d != "." {
			roots = append(roots, d)
			break
		}
	}
	// The same tree as a MapFS, read through fs.ReadDir instead of
	// directory descriptors.
	mapFiles := tree{".git/info/exclude": exclude}
	for p, c := range files {
		mapFiles[p] = c
	}
	fileSystems := map[string]fs.FS{"OS": repo.fsys, "MapFS": mapFiles.mapFS()}
	rules := func() string { return describeRules(files, exclude, global) }
	for _, root := range roots {
		args := []string{"ls-files", "-z", "--cached", "--others", "--exclude-standard"}
		if root != "." {
			args = append(args, "--", root)
		}
		want := nulList(repo.run("git", args...))
		for fsName, fsys := range fileSystems {
			for _, sorted := range []bool{false, true} {
				what := fmt.Sprintf("seed %d %s root %q sorted=%v", seed, fsName, root, sorted)
				checkWalk(t, what, "git", fsys, root, Options{Hidden: true, GlobalExcludes: globalText, Sorted: sorted}, want, rules)
			}
		}
	}
}
